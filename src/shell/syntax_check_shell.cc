#include "shell/syntax_check_shell.h"

#include "cql/parser/parser.h"

namespace shell {

bool SyntaxCheckShell::Execute(std::string_view statement) {
  auto parsed = cql::ParseStatement(statement);
  if (!parsed.ok()) {
    ReportError(parsed.status().ToString());
    return false;
  }
  std::fprintf(out(), "%s;\n", cql::ToCql(*parsed).c_str());
  return true;
}

std::string SyntaxCheckShell::Prompt(bool continuation) const {
  return continuation ? "   ... " : "cql> ";
}

void SyntaxCheckShell::PrintBanner() {
  std::fprintf(out(),
               "cql shell, syntax-check mode: statements are parsed and echoed in canonical "
               "CQL;\nnothing is stored (start with --data DIR to run statements on a "
               "database). HELP for help, EXIT to quit.\n");
}

void SyntaxCheckShell::PrintHelp(std::string_view /*topic*/) {
  std::fprintf(out(),
               "Syntax-check mode: each CQL statement (ending in ';') is parsed and printed back\n"
               "in canonical form, or its syntax error is shown as Cassandra reports it.\n"
               "Start cql with --data DIR to execute statements on a database instead.\n"
               "Commands:\n"
               "  SOURCE 'file.cql'   check every statement of a file\n"
               "  HELP                this text\n"
               "  EXIT | QUIT         leave the shell\n");
}

}  // namespace shell
