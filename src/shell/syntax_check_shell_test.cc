#include "shell/syntax_check_shell.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace shell {
namespace {

// Captures what the shell writes to a stdio stream.
class Capture {
 public:
  Capture() : file_(std::tmpfile()) {}
  ~Capture() { std::fclose(file_); }
  std::FILE* file() { return file_; }
  std::string Text() {
    std::fflush(file_);
    std::rewind(file_);
    std::string out;
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof(buffer), file_)) > 0) out.append(buffer, n);
    return out;
  }

 private:
  std::FILE* file_;
};

TEST(SyntaxCheckShellTest, EchoesCanonicalCqlAndReportsErrorsWithLines) {
  Capture out, err;
  SyntaxCheckShell shell(out.file(), err.file());
  int failures = shell.RunScript(
      "create keyspace k with replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1};\n"
      "-- a comment\n"
      "SELECT *\n  FROM k.t\n  WHERE x = = 1;\n"
      "use k;\n",
      "script.cql");
  EXPECT_EQ(failures, 1);
  EXPECT_EQ(out.Text(),
            "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', "
            "'replication_factor': 1};\nUSE k;\n");
  std::string errors = err.Text();
  EXPECT_EQ(errors.rfind("script.cql:2:SyntaxException: line 4:", 0), 0u) << errors;
}

TEST(SyntaxCheckShellTest, ExitStopsTheScriptAndSourceReadsFiles) {
  std::string path = ::testing::TempDir() + "/shell_source_test.cql";
  {
    std::ofstream file(path);
    file << "TRUNCATE t;\nDROP TABLE u\n";  // the last statement has no ';'
  }
  Capture out, err;
  SyntaxCheckShell shell(out.file(), err.file());
  int failures = shell.RunScript("SOURCE '" + path + "';\nEXIT;\nDROP TABLE never;\n", "");
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(out.Text(), "TRUNCATE t;\nDROP TABLE u;\n");
  EXPECT_EQ(err.Text(), "");
}

TEST(SyntaxCheckShellTest, MissingSourceFileIsAnError) {
  Capture out, err;
  SyntaxCheckShell shell(out.file(), err.file());
  EXPECT_EQ(shell.RunScript("SOURCE '/nonexistent/x.cql'", ""), 1);
  EXPECT_EQ(err.Text(), "Could not open '/nonexistent/x.cql'\n");
}

}  // namespace
}  // namespace shell
