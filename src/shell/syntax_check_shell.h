// SyntaxCheckShell: the `cql` shell without a database (no `--data`).
//
// Reads CQL through the shared CommandLoop (interactively with readline, from `-e`, or from
// files), parses each statement with the front end (cql/parser/parser.h) and prints it back in
// canonical CQL, or prints the error as cqlsh does (`SyntaxException: line 1:7 ...`). It
// executes nothing: `cql --data DIR` runs statements on the embedded engine (SessionShell).
//
// Thread-safety: not thread-safe; one shell per thread.

#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "shell/command_loop.h"

namespace shell {

class SyntaxCheckShell : public CommandLoop {
 public:
  // Writes results to `out` and errors to `err`; neither is owned.
  SyntaxCheckShell(std::FILE* out, std::FILE* err) : CommandLoop(out, err) {}

 protected:
  bool Execute(std::string_view statement) override;
  std::string Prompt(bool continuation) const override;
  void PrintBanner() override;
  void PrintHelp(std::string_view topic) override;
};

}  // namespace shell
