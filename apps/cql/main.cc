// cql: the CQL shell.
//
//   cql [--data DIR [--durability batch|periodic]]                interactive (readline)
//   cql [--data DIR ...] -e 'STMT; ...'                           run statements and exit
//   cql [--data DIR ...] -f FILE.cql                              run a file and exit
//
// With `--data`, statements run on the embedded engine over the data directory DIR, created
// when missing (shell/session_shell.h). Without it the shell runs in syntax-check mode: it
// parses and echoes statements (shell/syntax_check_shell.h). Standard input that is not a
// terminal is read as a script.
//
// Exit status, as cqlsh: 0; 2 when a statement failed outside interactive mode, or on a usage
// error; 1 when the data directory or the `-f` file cannot be opened.

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>

#include "engine/database.h"
#include "shell/command_loop.h"
#include "shell/session_shell.h"
#include "shell/syntax_check_shell.h"

namespace {

constexpr int kStatementFailed = 2;
constexpr int kUsageError = 2;
constexpr int kCannotOpen = 1;

void Usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: cql [--data DIR [--durability batch|periodic]] [-e 'STATEMENTS' | -f FILE.cql]\n"
      "\n"
      "  --data DIR           execute statements on the data directory DIR with the embedded\n"
      "                       engine (created when missing)\n"
      "  --durability MODE    with --data: 'periodic' (default) leaves syncing the write-ahead\n"
      "                       log to the OS; 'batch' syncs it before each write is acknowledged\n"
      "  -e, --execute STMTS  run the statements, then exit\n"
      "  -f, --file FILE      run the statements of FILE, then exit\n"
      "  -h, --help           this text\n"
      "\n"
      "Without --data, cql runs in syntax-check mode: each statement is parsed and echoed in\n"
      "canonical CQL, or its syntax error reported; nothing is executed or stored.\n"
      "Without -e or -f, statements are read from the terminal (or from standard input).\n"
      "Exit status: 0; 2 when a statement failed (except at the terminal) or on a usage error;\n"
      "1 when the data directory or the file cannot be opened.\n");
}

struct Flags {
  std::optional<std::string> data;
  std::optional<std::string> durability;
  std::optional<std::string> execute;
  std::optional<std::string> file;
};

// Parses the command line into `flags`. Returns an exit status when the program should stop.
std::optional<int> ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::optional<std::string> inline_value;
    if (size_t equals = arg.find('='); arg.rfind("--", 0) == 0 && equals != std::string::npos) {
      inline_value = arg.substr(equals + 1);
      arg.resize(equals);
    }
    auto value = [&]() -> std::optional<std::string> {
      if (inline_value) return inline_value;
      if (i + 1 < argc) return std::string(argv[++i]);
      return std::nullopt;
    };
    std::optional<std::string>* target = nullptr;
    if (arg == "--data") {
      target = &flags->data;
    } else if (arg == "--durability") {
      target = &flags->durability;
    } else if (arg == "-e" || arg == "--execute") {
      target = &flags->execute;
    } else if (arg == "-f" || arg == "--file") {
      target = &flags->file;
    } else if (arg == "-h" || arg == "--help") {
      Usage(stdout);
      return 0;
    } else {
      std::fprintf(stderr, "cql: unknown argument '%s'\n", argv[i]);
      Usage(stderr);
      return kUsageError;
    }
    *target = value();
    if (!*target) {
      std::fprintf(stderr, "cql: %s needs a value\n", arg.c_str());
      return kUsageError;
    }
  }
  if (flags->durability && !flags->data) {
    std::fprintf(stderr, "cql: --durability needs --data\n");
    return kUsageError;
  }
  if (flags->durability && *flags->durability != "batch" && *flags->durability != "periodic") {
    std::fprintf(stderr, "cql: --durability must be 'batch' or 'periodic', not '%s'\n",
                 flags->durability->c_str());
    return kUsageError;
  }
  return std::nullopt;
}

// Runs the input the flags name through `loop`; returns the exit status.
int Run(shell::CommandLoop& loop, const Flags& flags) {
  if (flags.execute) {
    std::string statements = *flags.execute;
    if (statements.empty() || statements.back() != ';') statements += ';';  // as cqlsh does
    return loop.RunScript(statements, "<stdin>") == 0 ? 0 : kStatementFailed;
  }
  if (flags.file) {
    common::Result<std::string> script = shell::ReadScriptFile(*flags.file);
    if (!script.ok()) {
      std::fprintf(stderr, "Can't open '%s': %s\n", flags.file->c_str(),
                   script.status().message().c_str());
      return kCannotOpen;
    }
    return loop.RunScript(*script, *flags.file) == 0 ? 0 : kStatementFailed;
  }
  if (!isatty(STDIN_FILENO)) {
    std::stringstream buffer;
    buffer << std::cin.rdbuf();
    return loop.RunScript(buffer.str(), "<stdin>") == 0 ? 0 : kStatementFailed;
  }
  loop.RunInteractive();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (std::optional<int> status = ParseFlags(argc, argv, &flags)) return *status;
  if (!flags.data) {
    shell::SyntaxCheckShell shell(stdout, stderr);
    return Run(shell, flags);
  }

  const std::string& directory = *flags.data;
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    std::fprintf(stderr, "cql: cannot create the data directory '%s': %s\n", directory.c_str(),
                 error.message().c_str());
    return kCannotOpen;
  }
  engine::DatabaseOptions options;
  bool batch = flags.durability && *flags.durability == "batch";
  options.durability = batch ? engine::DatabaseOptions::Durability::kBatch
                             : engine::DatabaseOptions::Durability::kPeriodic;
  auto database = engine::Database::Open(directory, options);
  if (!database.ok()) {
    std::fprintf(stderr, "cql: cannot open the data directory '%s': %s\n", directory.c_str(),
                 database.status().ToString().c_str());
    return kCannotOpen;
  }
  std::unique_ptr<cql::Session> session = (*database)->NewSession();
  const schema::LocalNodeInfo& node = (*database)->local_node();
  shell::SessionShellOptions shell_options;
  shell_options.banner = "Connected to " + node.cluster_name + " at " + directory +
                         " (embedded engine, durability " + (batch ? "batch" : "periodic") +
                         ").\n[cql | Cassandra " + node.release_version +
                         " compatible | CQL spec " + node.cql_version + "]";
  shell::SessionShell shell(session.get(), stdout, stderr, shell_options);
  return Run(shell, flags);
}
