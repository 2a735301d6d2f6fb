// cql: the CQL shell.
//
//   cql                 interactive (readline, history)
//   cql -e 'STMT; ...'  run statements and exit
//   cql -f FILE.cql     run a file and exit
//
// This build has no storage engine yet, so the shell runs in syntax-check mode
// (shell/syntax_check_shell.h). Exit status: 0 when every statement succeeded, 1 otherwise,
// 2 on a usage error.

#include <unistd.h>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "shell/syntax_check_shell.h"

namespace {

void Usage(std::FILE* out) {
  std::fprintf(out,
               "usage: cql [-e 'STATEMENTS'] [-f FILE.cql]\n"
               "Syntax-check mode: statements are parsed and echoed in canonical CQL.\n");
}

}  // namespace

int main(int argc, char** argv) {
  shell::SyntaxCheckShell shell(stdout, stderr);
  std::string execute;
  std::string file;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "-e" || arg == "--execute") && i + 1 < argc) {
      execute = argv[++i];
    } else if ((arg == "-f" || arg == "--file") && i + 1 < argc) {
      file = argv[++i];
    } else if (arg == "-h" || arg == "--help") {
      Usage(stdout);
      return 0;
    } else {
      std::fprintf(stderr, "cql: unknown argument '%s'\n", arg.c_str());
      Usage(stderr);
      return 2;
    }
  }
  if (!execute.empty()) return shell.RunScript(execute, "") == 0 ? 0 : 1;
  if (!file.empty()) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "cql: cannot open '%s'\n", file.c_str());
      return 1;
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    return shell.RunScript(buffer.str(), file) == 0 ? 0 : 1;
  }
  if (!isatty(STDIN_FILENO)) {
    std::stringstream buffer;
    buffer << std::cin.rdbuf();
    return shell.RunScript(buffer.str(), "<stdin>") == 0 ? 0 : 1;
  }
  return shell.RunInteractive() == 0 ? 0 : 1;
}
