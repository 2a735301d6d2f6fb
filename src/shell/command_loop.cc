#include "shell/command_loop.h"

#include <readline/history.h>
#include <readline/readline.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "shell/statement_splitter.h"

namespace shell {
namespace {

constexpr int kMaxSourceDepth = 16;
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The first word of `text` (after leading whitespace, up to whitespace or `;`), upper-cased.
std::string FirstWord(std::string_view text) {
  size_t begin = 0;
  while (begin < text.size() && IsSpace(text[begin])) ++begin;
  size_t end = begin;
  while (end < text.size() && !IsSpace(text[end]) && text[end] != ';') ++end;
  std::string word(text.substr(begin, end - begin));
  std::transform(word.begin(), word.end(), word.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return word;
}

// The shell commands cqlsh ends at the end of their line as well as at `;`.
bool EndsAtNewline(std::string_view word) {
  static constexpr std::string_view kWords[] = {
      "HELP",    "?",           "EXIT",   "QUIT",   "SOURCE",  "DESCRIBE",
      "DESC",    "CONSISTENCY", "SERIAL", "EXPAND", "TRACING", "PAGING",
      "CAPTURE", "LOGIN",       "SHOW",   "CLEAR",  "CLS"};
  return std::find(std::begin(kWords), std::end(kWords), word) != std::end(kWords);
}

// Feeds one line (with its newline, if any) to `splitter`, adding the `;` that ends a
// newline-terminated command. Returns the number of bytes fed.
size_t FeedLine(StatementSplitter& splitter, std::string_view line) {
  if (!splitter.HasPartial() && EndsAtNewline(FirstWord(line))) {
    size_t body = line.size();
    while (body > 0 && IsSpace(line[body - 1])) --body;
    if (body > 0 && line[body - 1] != ';') {
      std::string terminated(line.substr(0, body));
      terminated += ';';
      terminated += line.substr(body);
      splitter.Feed(terminated);
      return terminated.size();
    }
  }
  splitter.Feed(line);
  return line.size();
}

// The file name of a SOURCE command: a string literal (or, leniently, bare text) with `~/`
// meaning the home directory, as in cqlsh.
std::string SourcePath(std::string_view argument) {
  size_t begin = 0;
  while (begin < argument.size() && IsSpace(argument[begin])) ++begin;
  size_t end = argument.size();
  while (end > begin && IsSpace(argument[end - 1])) --end;
  std::string path(argument.substr(begin, end - begin));
  if (path.size() >= 2 && path.front() == '\'' && path.back() == '\'') {
    std::string unquoted;
    for (size_t i = 1; i + 1 < path.size(); ++i) {
      unquoted += path[i];
      if (path[i] == '\'' && path[i + 1] == '\'') ++i;
    }
    path = std::move(unquoted);
  }
  if (path.rfind("~/", 0) == 0) {
    if (const char* home = std::getenv("HOME")) path = std::string(home) + path.substr(1);
  }
  return path;
}

// The loop running interactively, for readline's completion hook (readline is process-global).
CommandLoop* completing_loop = nullptr;

// Whether `text[position..]` starts the word `word` (ASCII, case-insensitive), not inside a
// longer identifier.
bool WordAt(std::string_view text, size_t position, std::string_view word) {
  auto identifier = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (position > 0 && identifier(text[position - 1])) return false;
  if (text.size() - position < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(text[position + i])) != word[i]) return false;
  }
  size_t end = position + word.size();
  return end == text.size() || !identifier(text[end]);
}

// Whether a string literal after the word PASSWORD in `text` reaches past `from`.
bool PasswordLiteralReaches(std::string_view text, size_t from) {
  constexpr std::string_view kPassword = "PASSWORD";
  for (size_t at = 0; at < text.size(); ++at) {
    if (!WordAt(text, at, kPassword)) continue;
    size_t i = at + kPassword.size();
    while (i < text.size() && (IsSpace(text[i]) || text[i] == '=')) ++i;
    if (i >= text.size()) return false;  // the literal is still to come: not in `text`
    size_t end = i;
    if (text[i] == '\'') {
      end = i + 1;
      while (end < text.size()) {  // '' is a quote inside the literal
        if (text[end] == '\'' && (end + 1 >= text.size() || text[end + 1] != '\'')) break;
        end += text[end] == '\'' ? 2 : 1;
      }
    } else if (text.substr(i, 2) == "$$") {
      end = text.find("$$", i + 2);
      if (end == std::string_view::npos) end = text.size();
    } else {
      continue;
    }
    if (end + 1 > from) return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> HistoryEntry(std::string_view pending, std::string_view line) {
  std::string text = std::string(pending) + std::string(line);
  if (PasswordLiteralReaches(text, pending.size())) return std::nullopt;
  if (pending.empty() && FirstWord(line) == "LOGIN") {
    std::vector<std::string> words;
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && IsSpace(line[i])) ++i;
      size_t begin = i;
      while (i < line.size() && !IsSpace(line[i])) ++i;
      if (i > begin) words.emplace_back(line.substr(begin, i - begin));
    }
    if (words.size() >= 3) return words[0] + " " + words[1];  // without the password
  }
  return std::string(line);
}

common::Result<std::string> ReadScriptFile(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    return common::Status::IOError("[Errno " + std::to_string(EISDIR) + "] " +
                                   std::strerror(EISDIR) + ": '" + path + "'");
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  if (in) buffer << in.rdbuf();
  if (!in || in.bad()) {
    int error = errno != 0 ? errno : EIO;
    return common::Status::IOError("[Errno " + std::to_string(error) + "] " + std::strerror(error) +
                                   ": '" + path + "'");
  }
  std::string text = buffer.str();
  if (text.rfind(kByteOrderMark, 0) == 0) text.erase(0, kByteOrderMark.size());
  return text;
}

int CommandLoop::RunScript(std::string_view script, std::string_view source) {
  bool saved_tty = tty_;
  tty_ = false;
  int failures = 0;
  StatementSplitter splitter;
  // line_starts[i]: the offset in the fed text where line i + 1 starts.
  std::vector<size_t> line_starts;
  auto line_of = [&line_starts](size_t offset) {
    return static_cast<int>(std::upper_bound(line_starts.begin(), line_starts.end(), offset) -
                            line_starts.begin());
  };
  size_t fed = 0;
  size_t position = 0;
  while (position < script.size() && !exit_requested_) {
    size_t newline = script.find('\n', position);
    size_t next = newline == std::string_view::npos ? script.size() : newline + 1;
    line_starts.push_back(fed);
    fed += FeedLine(splitter, script.substr(position, next - position));
    position = next;
    for (const SplitStatement& statement : splitter.TakeComplete()) {
      if (!RunOne(statement.text, source, line_of(statement.offset))) ++failures;
      if (exit_requested_) break;
    }
  }
  if (!exit_requested_) {
    if (std::optional<SplitStatement> rest = splitter.TakeRest()) {
      std::string saved_source = std::exchange(source_, std::string(source));
      int saved_line = std::exchange(line_, line_of(rest->offset));
      ReportError("Incomplete statement at end of file");
      source_ = std::move(saved_source);
      line_ = saved_line;
      ++failures;
    }
  }
  if (source_depth_ > 0) exit_requested_ = false;  // EXIT in a SOURCE'd file ends that file
  tty_ = saved_tty;
  return failures;
}

int CommandLoop::RunInteractive() {
  PrintBanner();
  tty_ = true;
  int failures = 0;
  StatementSplitter splitter;
  if (!history_file_.empty() && read_history(history_file_.c_str()) != 0) {
    // append_history needs the file to exist; when it cannot be created, history stays in
    // memory.
    if (std::FILE* created = std::fopen(history_file_.c_str(), "a")) std::fclose(created);
  }
  CommandLoop* saved_loop = std::exchange(completing_loop, this);
  rl_attempted_completion_function = &CommandLoop::CompleteHook;
  rl_completer_word_break_characters = const_cast<char*>(" \t\n\"'`@$><=;|&{(,.");
  pending_.clear();
  while (!exit_requested_) {
    std::string prompt = Prompt(splitter.HasPartial());
    std::unique_ptr<char, decltype(&std::free)> line(readline(prompt.c_str()), &std::free);
    if (!line) {
      std::fputc('\n', out_);
      break;
    }
    std::string text(line.get());
    std::optional<std::string> entry = HistoryEntry(pending_, text);
    if (entry && !entry->empty()) {
      add_history(entry->c_str());
      // Appending may fail (no HOME, read-only file system): history is a convenience.
      if (!history_file_.empty()) append_history(1, history_file_.c_str());
    }
    FeedLine(splitter, text + "\n");
    pending_ += text + "\n";
    for (const SplitStatement& statement : splitter.TakeComplete()) {
      if (!RunOne(statement.text, "", 0)) ++failures;
      if (exit_requested_) break;
    }
    if (!splitter.HasPartial()) pending_.clear();
  }
  if (!exit_requested_ && splitter.TakeRest()) {
    ReportError("Incomplete statement at end of file");
    ++failures;
  }
  rl_attempted_completion_function = nullptr;
  completing_loop = saved_loop;
  tty_ = false;
  return failures;
}

std::vector<std::string> CommandLoop::Complete(std::string_view /*context*/,
                                               std::string_view /*word*/) {
  return {};
}

bool CommandLoop::ReadMore() {
  std::fflush(out_);
  std::unique_ptr<char, decltype(&std::free)> line(readline("---MORE---"), &std::free);
  return line != nullptr;
}

char** CommandLoop::CompleteHook(const char* text, int start, int /*end*/) {
  rl_attempted_completion_over = 1;  // never fall back to file names
  CommandLoop* loop = completing_loop;
  if (loop == nullptr) return nullptr;
  std::string context = loop->pending_;
  context.append(rl_line_buffer, static_cast<size_t>(std::max(start, 0)));
  std::string_view word(text);
  loop->completions_.clear();
  for (std::string& candidate : loop->Complete(context, word)) {
    bool matches = candidate.size() >= word.size() &&
                   std::equal(word.begin(), word.end(), candidate.begin(), [](char a, char b) {
                     return std::tolower(static_cast<unsigned char>(a)) ==
                            std::tolower(static_cast<unsigned char>(b));
                   });
    if (matches) loop->completions_.push_back(std::move(candidate));
  }
  std::sort(loop->completions_.begin(), loop->completions_.end());
  loop->completions_.erase(std::unique(loop->completions_.begin(), loop->completions_.end()),
                           loop->completions_.end());
  if (loop->completions_.empty()) return nullptr;
  return rl_completion_matches(text, &CommandLoop::CompletionGenerator);
}

char* CommandLoop::CompletionGenerator(const char* /*text*/, int state) {
  CommandLoop* loop = completing_loop;
  if (loop == nullptr || state < 0) return nullptr;
  size_t index = static_cast<size_t>(state);
  if (index >= loop->completions_.size()) return nullptr;
  // readline frees the match with free().
  return strdup(loop->completions_[index].c_str());
}

bool CommandLoop::RunOne(std::string_view statement, std::string_view source, int line) {
  std::string saved_source = std::exchange(source_, std::string(source));
  int saved_line = std::exchange(line_, line);
  bool ok = true;
  std::string word = FirstWord(statement);
  if (word == "EXIT" || word == "QUIT") {
    exit_requested_ = true;
  } else if (word == "HELP" || word == "?") {
    std::string rest(
        statement.substr(std::min(statement.find_first_of(" \t\n"), statement.size())));
    PrintHelp(FirstWord(rest));
  } else if (word == "SOURCE") {
    ok = RunSource(statement.substr(std::min<size_t>(6, statement.size())));
  } else {
    ok = Execute(statement);
  }
  std::fflush(out_);
  source_ = std::move(saved_source);
  line_ = saved_line;
  return ok;
}

bool CommandLoop::RunSource(std::string_view argument) {
  std::string path = SourcePath(argument);
  common::Result<std::string> script = ReadScriptFile(path);
  if (!script.ok()) {
    ReportError("Could not open '" + path + "': " + script.status().message());
    return false;
  }
  if (source_depth_ >= kMaxSourceDepth) {
    ReportError("SOURCE nested more than " + std::to_string(kMaxSourceDepth) + " deep");
    return false;
  }
  ++source_depth_;
  int failures = RunScript(*script, path);
  --source_depth_;
  return failures == 0;
}

void CommandLoop::ReportError(std::string_view text) {
  std::fflush(out_);
  if (!tty_ && !source_.empty()) std::fprintf(err_, "%s:%d:", source_.c_str(), line_);
  std::fwrite(text.data(), 1, text.size(), err_);
  std::fputc('\n', err_);
  std::fflush(err_);
}

}  // namespace shell
