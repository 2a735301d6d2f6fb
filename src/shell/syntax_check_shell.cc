#include "shell/syntax_check_shell.h"

#include <readline/history.h>
#include <readline/readline.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include "cql/parser.h"
#include "shell/statement_splitter.h"

namespace shell {
namespace {

constexpr int kMaxSourceDepth = 16;

std::string Upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

// The first word of `statement`, upper-cased.
std::string FirstWord(std::string_view statement) {
  size_t end = 0;
  while (end < statement.size() && !std::isspace(static_cast<unsigned char>(statement[end]))) {
    ++end;
  }
  return Upper(statement.substr(0, end));
}

// 1-based line of byte `offset` in `text`.
int LineOf(std::string_view text, size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
}

}  // namespace

int SyntaxCheckShell::RunScript(std::string_view script, std::string_view source) {
  int failures = 0;
  // Statements are located in the script to report their line numbers, as cqlsh does.
  StatementSplitter splitter;
  size_t consumed = 0;
  size_t line_start = 0;
  while (consumed <= script.size() && !exit_requested_) {
    size_t end = script.find('\n', consumed);
    if (end == std::string_view::npos) end = script.size();
    splitter.Feed(script.substr(consumed, end - consumed + (end < script.size() ? 1 : 0)));
    for (const std::string& statement : splitter.TakeComplete()) {
      if (!RunOne(statement, source, LineOf(script, line_start))) ++failures;
      if (exit_requested_) break;
    }
    if (!splitter.HasPartial()) line_start = end + 1;
    if (end >= script.size()) break;
    consumed = end + 1;
  }
  std::string rest = splitter.TakeRest();
  if (!rest.empty() && !exit_requested_) {
    if (!RunOne(rest, source, LineOf(script, std::min(line_start, script.size())))) ++failures;
  }
  return failures;
}

int SyntaxCheckShell::RunInteractive() {
  std::fprintf(out_,
               "cql shell, syntax-check mode: statements are parsed and echoed in canonical "
               "CQL;\nnothing is stored yet (there is no storage engine in this build). "
               "HELP for help, EXIT to quit.\n");
  int failures = 0;
  StatementSplitter splitter;
  while (!exit_requested_) {
    const char* prompt = splitter.HasPartial() ? "   ... " : "cql> ";
    std::unique_ptr<char, decltype(&std::free)> line(readline(prompt), &std::free);
    if (!line) {
      std::fputc('\n', out_);
      break;
    }
    std::string text(line.get());
    if (!text.empty()) add_history(text.c_str());
    std::string upper = Upper(text);
    // Shell commands that cqlsh accepts without a trailing ';'.
    if (!splitter.HasPartial() && (upper == "EXIT" || upper == "QUIT" || upper == "HELP")) {
      text += ';';
    }
    splitter.Feed(text + "\n");
    for (const std::string& statement : splitter.TakeComplete()) {
      if (!RunOne(statement, "", 0)) ++failures;
      if (exit_requested_) break;
    }
  }
  return failures;
}

bool SyntaxCheckShell::RunOne(std::string_view statement, std::string_view source, int line) {
  std::string word = FirstWord(statement);
  if (word == "EXIT" || word == "QUIT") {
    exit_requested_ = true;
    return true;
  }
  if (word == "HELP" || word == "?") {
    PrintHelp();
    return true;
  }
  if (word == "SOURCE") return RunSource(statement.substr(6), source, line);
  auto parsed = cql::ParseStatement(statement);
  if (!parsed.ok()) {
    if (!source.empty())
      std::fprintf(err_, "%.*s:%d:", static_cast<int>(source.size()), source.data(), line);
    std::fprintf(err_, "%s\n", parsed.status().ToString().c_str());
    return false;
  }
  std::fprintf(out_, "%s;\n", cql::ToCql(*parsed).c_str());
  return true;
}

bool SyntaxCheckShell::RunSource(std::string_view argument, std::string_view source, int line) {
  std::string path(argument);
  path.erase(0, path.find_first_not_of(" \t"));
  path.erase(path.find_last_not_of(" \t") + 1);
  if (path.size() >= 2 && path.front() == '\'' && path.back() == '\'') {
    path = path.substr(1, path.size() - 2);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (!source.empty())
      std::fprintf(err_, "%.*s:%d:", static_cast<int>(source.size()), source.data(), line);
    std::fprintf(err_, "Could not open '%s'\n", path.c_str());
    return false;
  }
  if (source_depth_ >= kMaxSourceDepth) {
    std::fprintf(err_, "SOURCE nested more than %d deep\n", kMaxSourceDepth);
    return false;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  ++source_depth_;
  int failures = RunScript(buffer.str(), path);
  --source_depth_;
  return failures == 0;
}

void SyntaxCheckShell::PrintHelp() {
  std::fprintf(out_,
               "Syntax-check mode: each CQL statement (ending in ';') is parsed and printed back\n"
               "in canonical form, or its syntax error is shown as Cassandra reports it.\n"
               "Commands:\n"
               "  SOURCE 'file.cql'   check every statement of a file\n"
               "  HELP                this text\n"
               "  EXIT | QUIT         leave the shell\n");
}

}  // namespace shell
