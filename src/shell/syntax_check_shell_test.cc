#include "shell/syntax_check_shell.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "shell/captured_stream.h"

namespace shell {
namespace {

TEST(SyntaxCheckShellTest, EchoesCanonicalCqlAndReportsErrorsWithLines) {
  CapturedStream out, err;
  SyntaxCheckShell shell(out.file(), err.file());
  int failures = shell.RunScript(
      "create keyspace k with replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1};\n"
      "-- a comment\n"
      "SELECT *\n  FROM k.t\n  WHERE x = = 1;\n"
      "use k;\n",
      "script.cql");
  EXPECT_EQ(failures, 1);
  EXPECT_EQ(out.Take(),
            "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', "
            "'replication_factor': 1};\nUSE k;\n");
  // The statement starts at line 3 of the file, and the server counts lines from its start.
  std::string errors = err.Take();
  EXPECT_EQ(errors.rfind("script.cql:3:SyntaxException: line 3:", 0), 0u) << errors;
}

TEST(SyntaxCheckShellTest, ExitEndsOnlyTheSourcedFile) {
  std::string path = ::testing::TempDir() + "/shell_source_test.cql";
  {
    std::ofstream file(path);
    file << "TRUNCATE t;\nEXIT\nDROP TABLE u;\n";
  }
  CapturedStream out, err;
  SyntaxCheckShell shell(out.file(), err.file());
  int failures =
      shell.RunScript("SOURCE '" + path + "'\nDROP TABLE v;\nquit;\nDROP TABLE never;\n", "");
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(out.Take(), "TRUNCATE t;\nDROP TABLE v;\n");
  EXPECT_EQ(err.Take(), "");
}

TEST(SyntaxCheckShellTest, IncompleteStatementAtEndOfFile) {
  CapturedStream out, err;
  SyntaxCheckShell shell(out.file(), err.file());
  EXPECT_EQ(shell.RunScript("TRUNCATE t;\n\nDROP TABLE u\n", "f.cql"), 1);
  EXPECT_EQ(out.Take(), "TRUNCATE t;\n");
  EXPECT_EQ(err.Take(), "f.cql:3:Incomplete statement at end of file\n");
}

TEST(SyntaxCheckShellTest, MissingSourceFileIsAnError) {
  CapturedStream out, err;
  SyntaxCheckShell shell(out.file(), err.file());
  EXPECT_EQ(shell.RunScript("SOURCE '/nonexistent/x.cql'", "in.cql"), 1);
  EXPECT_EQ(err.Take(),
            "in.cql:1:Could not open '/nonexistent/x.cql': [Errno 2] No such file or directory: "
            "'/nonexistent/x.cql'\n");
}

}  // namespace
}  // namespace shell
