#include "shell/session_shell.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "engine/database.h"
#include "shell/captured_stream.h"

namespace shell {
namespace {

// Exposes the prompt for the tests.
class TestShell : public SessionShell {
 public:
  using SessionShell::Prompt;
  using SessionShell::SessionShell;
};

// A shell on a fresh data directory, removed afterwards.
class SessionShellTest : public ::testing::Test {
 protected:
  void SetUp() override { Open({}); }
  void TearDown() override {
    shell_.reset();
    session_.reset();
    database_.reset();
    std::error_code ignored;
    if (!directory_.empty()) std::filesystem::remove_all(directory_, ignored);
  }

  void Open(const SessionShellOptions& options) {
    if (directory_.empty()) {
      std::string pattern =
          (std::filesystem::temp_directory_path() / "cql-shell-test-XXXXXX").string();
      ASSERT_NE(mkdtemp(pattern.data()), nullptr);
      directory_ = pattern;
      auto database = engine::Database::Open(directory_, engine::DatabaseOptions());
      ASSERT_TRUE(database.ok()) << database.status().ToString();
      database_ = std::move(database).value();
      session_ = database_->NewSession();
    }
    shell_ = std::make_unique<TestShell>(session_.get(), out_.file(), err_.file(), options);
  }

  // Runs `script` as the file "s.cql"; returns the number of failed statements.
  int Run(std::string_view script) { return shell_->RunScript(script, "s.cql"); }

  std::string directory_;
  std::unique_ptr<engine::Database> database_;
  std::unique_ptr<cql::Session> session_;
  CapturedStream out_;
  CapturedStream err_;
  std::unique_ptr<TestShell> shell_;
};

constexpr std::string_view kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
    "CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c));\n";

TEST_F(SessionShellTest, RunsAScriptAndPrintsRowsAsCqlsh) {
  EXPECT_EQ(Run(std::string(kSchema) + "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'one');\n"
                                       "INSERT INTO ks.t (k, c, v) VALUES (1, 20, null);\n"
                                       "-- the rows\n"
                                       "SELECT * FROM ks.t WHERE k = 1;\n"),
            0);
  EXPECT_EQ(out_.Take(),
            "\n"
            " k | c  | v\n"
            "---+----+------\n"
            " 1 |  1 |  one\n"
            " 1 | 20 | null\n"
            "\n"
            "(2 rows)\n");
  EXPECT_EQ(err_.Take(), "");
}

TEST_F(SessionShellTest, ErrorsAreReportedWithTheirLineAndCountedAsFailures) {
  EXPECT_EQ(Run(std::string(kSchema) + "SELECT * FROM ks.nope;\n"
                                       "\n"
                                       "SELEC 1;\n"
                                       "CREATE TABLE ks.t (k int PRIMARY KEY);\n"
                                       "SELECT count(*) FROM ks.t;\n"),
            3);
  EXPECT_EQ(
      err_.Take(),
      "s.cql:3:InvalidRequest: Error from server: code=2200 [Invalid query] "
      "message=\"table nope does not exist\"\n"
      "s.cql:5:SyntaxException: line 1:0 no viable alternative at input 'SELEC' ([SELEC]...)\n"
      "s.cql:6:AlreadyExists: Table 'ks.t' already exists\n");
  EXPECT_EQ(out_.Take(),
            "\n"
            " count\n"
            "-------\n"
            "     0\n"
            "\n"
            "(1 rows)\n");
}

TEST_F(SessionShellTest, UseSwitchesThePrompt) {
  EXPECT_EQ(shell_->Prompt(false), "cqlsh> ");
  EXPECT_EQ(shell_->Prompt(true), "   ... ");
  EXPECT_EQ(Run(std::string(kSchema) + "USE ks;\nINSERT INTO t (k, c) VALUES (2, 2);"), 0);
  EXPECT_EQ(shell_->Prompt(false), "cqlsh:ks> ");
  EXPECT_EQ(shell_->Prompt(true), "      ... ");
  EXPECT_EQ(out_.Take(), "");
}

TEST_F(SessionShellTest, FetchesEveryPage) {
  SessionShellOptions options;
  options.page_size = 2;
  Open(options);
  ASSERT_EQ(Run(std::string(kSchema) + "BEGIN BATCH\n"
                                       "  INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'a');\n"
                                       "  INSERT INTO ks.t (k, c, v) VALUES (1, 2, 'b');\n"
                                       "  INSERT INTO ks.t (k, c, v) VALUES (1, 3, 'cccccc');\n"
                                       "  INSERT INTO ks.t (k, c, v) VALUES (1, 4, 'd');\n"
                                       "  INSERT INTO ks.t (k, c, v) VALUES (1, 5, 'e');\n"
                                       "APPLY BATCH;\n"
                                       "SELECT c, v FROM ks.t;\n"),
            0);
  // As cqlsh outside a terminal: one header, each page aligned on its own.
  EXPECT_EQ(out_.Take(),
            "\n"
            " c | v\n"
            "---+---\n"
            " 1 | a\n"
            " 2 | b\n"
            " 3 | cccccc\n"
            " 4 |      d\n"
            " 5 | e\n"
            "\n"
            "(5 rows)\n");
}

TEST_F(SessionShellTest, LightweightTransactionsPrintTheAppliedRow) {
  EXPECT_EQ(
      Run(std::string(kSchema) + "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'x') IF NOT EXISTS;\n"
                                 "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'y') IF NOT EXISTS;\n"),
      0);
  EXPECT_EQ(out_.Take(),
            "\n"
            " [applied]\n"
            "-----------\n"
            "      True\n"
            "\n"
            " [applied] | k | c | v\n"
            "-----------+---+---+---\n"
            "     False | 1 | 1 | x\n");
}

TEST_F(SessionShellTest, DescribePrintsCreateStatements) {
  ASSERT_EQ(Run(std::string(kSchema) + "DESCRIBE TABLE ks.t\nDESC TABLES\nDESCRIBE TABLE ks.x"), 1);
  std::string out = out_.Take();
  EXPECT_EQ(out.rfind("\nCREATE TABLE ks.t (\n    k int,\n", 0), 0u) << out;
  // DESC TABLES without a keyspace in use: every keyspace's tables under a heading.
  EXPECT_NE(out.find(";\n\nKeyspace ks\n-----------\nt\n\nKeyspace system\n"), std::string::npos)
      << out;
  EXPECT_EQ(err_.Take(), "s.cql:5:Table 'x' not found in keyspace 'ks'\n");
}

TEST_F(SessionShellTest, ShellCommands) {
  EXPECT_EQ(Run("EXPAND\nEXPAND ON\nEXPAND ON;\nCONSISTENCY\nCONSISTENCY quorum\n"
                "SERIAL CONSISTENCY local_serial\nCONSISTENCY FEW\nTRACING ON\nEXPAND OFF\n"),
            3);
  EXPECT_TRUE(shell_->expand() == false);
  EXPECT_EQ(shell_->consistency(), cql::Consistency::kQuorum);
  EXPECT_EQ(out_.Take(),
            "Expanded output is currently disabled. Use EXPAND ON to enable.\n"
            "Now Expanded output is enabled\n"
            "Current consistency level is ONE.\n"
            "Consistency level set to QUORUM.\n"
            "Serial consistency level set to LOCAL_SERIAL.\n"
            "Disabled Expanded output.\n");
  EXPECT_EQ(err_.Take(),
            "s.cql:3:Expanded output is already enabled. Use EXPAND OFF to disable.\n"
            "s.cql:7:Improper consistency command.\n"
            "s.cql:8:Tracing is not available: the embedded engine records no traces.\n");
}

TEST_F(SessionShellTest, PagingChangesThePageSize) {
  EXPECT_EQ(Run("PAGING\nPAGING 2\nPAGING OFF\nPAGING OFF\nPAGING ON\nPAGING x\n"), 2);
  EXPECT_EQ(shell_->page_size(), 100);
  EXPECT_EQ(out_.Take(),
            "Query paging is currently enabled. Use PAGING OFF to disable\n"
            "Page size: 100\n"
            "Page size: 2\n"
            "Disabled Query paging.\n"
            "Now Query paging is enabled\n"
            "Page size: 100\n");
  EXPECT_EQ(err_.Take(),
            "s.cql:4:Query paging is not enabled.\n"
            "s.cql:6:Improper paging command.\n");
}

TEST_F(SessionShellTest, ExpandedRows) {
  EXPECT_EQ(Run(std::string(kSchema) + "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'one');\n"
                                       "EXPAND ON\n"
                                       "SELECT * FROM ks.t;\n"),
            0);
  EXPECT_EQ(out_.Take(),
            "Now Expanded output is enabled\n"
            "\n"
            "@ Row 1\n"
            "---+-----\n"
            " k | 1\n"
            " c | 1\n"
            " v | one\n"
            "\n"
            "\n"
            "(1 rows)\n");
}

TEST(CqlshErrorTextTest, MatchesThePythonDriversExceptions) {
  using common::Status;
  EXPECT_EQ(CqlshErrorText(Status::Invalid("Keyspace 'x' does not exist")),
            "InvalidRequest: Error from server: code=2200 [Invalid query] message=\"Keyspace 'x' "
            "does not exist\"");
  EXPECT_EQ(CqlshErrorText(Status::SyntaxError("line 1:0 no viable alternative")),
            "SyntaxException: line 1:0 no viable alternative");
  EXPECT_EQ(CqlshErrorText(Status::AlreadyExists("Cannot add existing keyspace \"hotel\"")),
            "AlreadyExists: Keyspace 'hotel' already exists");
  EXPECT_EQ(CqlshErrorText(Status::AlreadyExists(
                "Cannot add already existing table \"hotels\" to keyspace \"hotel\"")),
            "AlreadyExists: Table 'hotel.hotels' already exists");
  EXPECT_EQ(CqlshErrorText(Status::AlreadyExists("something else")),
            "AlreadyExists: something else");
  EXPECT_EQ(CqlshErrorText(Status::Unauthorized("no")),
            "Unauthorized: Error from server: code=2100 [Unauthorized] message=\"no\"");
  EXPECT_EQ(CqlshErrorText(Status::ConfigError("bad")), "ConfigurationException: bad");
  EXPECT_EQ(CqlshErrorText(Status::IOError("disk")), "ServerError: disk");
  EXPECT_EQ(CqlshErrorText(Status(common::StatusCode::kFunctionFailure, "f failed")),
            "FunctionFailure: Error from server: code=1400 [User Defined Function failure] "
            "message=\"f failed\"");
}

}  // namespace
}  // namespace shell
