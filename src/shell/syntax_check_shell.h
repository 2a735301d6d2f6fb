// SyntaxCheckShell: the `cql` shell before a database exists behind it.
//
// Reads CQL (interactively with readline, from `-e`, or from files), parses each statement
// with the front end (cql/parser.h) and prints it back in canonical CQL, or prints the error
// as cqlsh does (`SyntaxException: line 1:7 ...`). Shell commands: HELP, SOURCE 'file',
// EXIT/QUIT. It executes nothing: storage and execution arrive with the engine, and the full
// shell (connections, DESCRIBE, COPY) with the driver.
//
// Thread-safety: not thread-safe; one shell per thread.

#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace shell {

class SyntaxCheckShell {
 public:
  // Writes results to `out` and errors to `err`; neither is owned.
  SyntaxCheckShell(std::FILE* out, std::FILE* err) : out_(out), err_(err) {}

  // Runs every statement in `script`; errors are prefixed with `source:line:` when `source`
  // is not empty (as cqlsh does for files). Returns the number of statements that failed.
  int RunScript(std::string_view script, std::string_view source);
  // Reads statements from the terminal until EXIT or end of input. Returns the number of
  // statements that failed.
  int RunInteractive();

 private:
  // Runs one complete statement or shell command. Returns false when it failed.
  bool RunOne(std::string_view statement, std::string_view source, int line);
  bool RunSource(std::string_view argument, std::string_view source, int line);
  void PrintHelp();

  std::FILE* out_;
  std::FILE* err_;
  bool exit_requested_ = false;
  int source_depth_ = 0;
};

}  // namespace shell
