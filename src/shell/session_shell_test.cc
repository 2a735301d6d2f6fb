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
            "(1 rows)\n"
            "\n"
            "Warnings :\n"
            "Aggregation query used without partition key\n"
            "\n");
}

TEST_F(SessionShellTest, TracingOnPrintsTheTraceAfterEachStatementAsCqlsh) {
  ASSERT_EQ(Run(std::string(kSchema) + "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'one');\n"), 0);
  out_.Take();
  EXPECT_EQ(Run("TRACING\nTRACING ON\nTRACING ON\nSELECT v FROM ks.t WHERE k = 1;\n"
                "SELECT * FROM system_traces.sessions WHERE session_id = "
                "00000000-0000-0000-0000-000000000000;\nTRACING OFF\nTRACING OFF\n"),
            2);
  const std::string out = out_.Take();
  EXPECT_EQ(out.rfind("Tracing is currently disabled. Use TRACING ON to enable.\n"
                      "Now Tracing is enabled\n\n v\n-----\n one\n\n(1 rows)\n\n"
                      "Tracing session: ",
                      0),
            0u)
      << out;
  EXPECT_NE(out.find("\n activity "), std::string::npos) << out;
  EXPECT_NE(out.find(" | timestamp "), std::string::npos) << out;
  EXPECT_NE(out.find(" | source_elapsed | client\n"), std::string::npos) << out;
  EXPECT_NE(out.find(" Execute CQL3 query | "), std::string::npos) << out;
  EXPECT_NE(out.find("Executing single-partition query on t ["), std::string::npos) << out;
  EXPECT_NE(out.find("Read 1 live rows and 0 tombstone cells ["), std::string::npos) << out;
  EXPECT_NE(out.find(" Request complete | "), std::string::npos) << out;
  // The SELECT on system_traces is not traced: one trace only.
  EXPECT_EQ(out.find("Tracing session: "), out.rfind("Tracing session: ")) << out;
  EXPECT_NE(out.find("Disabled Tracing.\n"), std::string::npos) << out;
  EXPECT_EQ(err_.Take(),
            "s.cql:3:Tracing is already enabled. Use TRACING OFF to disable.\n"
            "s.cql:7:Tracing is not enabled.\n");
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
            2);
  EXPECT_TRUE(shell_->expand() == false);
  EXPECT_EQ(shell_->consistency(), cql::Consistency::kQuorum);
  EXPECT_EQ(out_.Take(),
            "Expanded output is currently disabled. Use EXPAND ON to enable.\n"
            "Now Expanded output is enabled\n"
            "Current consistency level is ONE.\n"
            "Consistency level set to QUORUM.\n"
            "Serial consistency level set to LOCAL_SERIAL.\n"
            "Now Tracing is enabled\n"
            "Disabled Expanded output.\n");
  EXPECT_EQ(err_.Take(),
            "s.cql:3:Expanded output is already enabled. Use EXPAND OFF to disable.\n"
            "s.cql:7:Improper consistency command.\n");
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

// COPY TO then FROM into a second table: collections, a UDT, nulls, empty strings, a bad row.
TEST_F(SessionShellTest, CopyRoundTripWithCollectionsUdtsNullsAndABadRow) {
  std::string csv = directory_ + "/rows.csv";
  std::string errors = directory_ + "/rows.err";
  std::string schema =
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1};\n"
      "CREATE TYPE ks.address (street text, city text, zip int);\n"
      "CREATE TABLE ks.a (k text, c int, tags set<text>, prices map<date, decimal>, "
      "home frozen<address>, seen timestamp, note text, PRIMARY KEY (k, c));\n"
      "CREATE TABLE ks.b (k text, c int, tags set<text>, prices map<date, decimal>, "
      "home frozen<address>, seen timestamp, note text, PRIMARY KEY (k, c));\n"
      "INSERT INTO ks.a (k, c, tags, prices, home, seen, note) VALUES ('x', 1, {'a', 'b,c'}, "
      "{'2024-01-31': 1.50}, {street: '1 \"Main\"', city: null, zip: 75001}, "
      "'2015-05-03 13:30:54.234Z', 'multi\nline');\n"
      "INSERT INTO ks.a (k, c, note) VALUES ('x', 2, '');\n"
      "INSERT INTO ks.a (k, c) VALUES ('y', 3);\n";
  ASSERT_EQ(Run(schema), 0) << err_.Take();
  ASSERT_EQ(Run("COPY ks.a TO '" + csv + "' WITH HEADER = true;\n"), 0) << err_.Take();
  std::string out = out_.Take();
  EXPECT_NE(out.find("\n3 rows exported to 1 files in "), std::string::npos) << out;
  // A bad row at line 5 (two rows, a header line and a row spanning two lines before it).
  {
    std::FILE* file = std::fopen(csv.c_str(), "a");
    ASSERT_NE(file, nullptr);
    std::fputs("z,notanumber,,,,,\n", file);
    std::fclose(file);
  }
  EXPECT_EQ(Run("COPY ks.b FROM '" + csv + "' WITH HEADER = true AND ERRFILE = '" + errors +
                "' AND MAXBATCHSIZE = 2;\n"),
            1);
  out = out_.Take();
  EXPECT_NE(out.find("\n3 rows imported from 1 files in "), std::string::npos) << out;
  EXPECT_NE(out.find(" seconds (0 skipped).\n"), std::string::npos) << out;
  std::string err = err_.Take();
  EXPECT_NE(err.find("Failed to import 1 rows: ParseError - Failed to parse notanumber : "),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("(line 6)"), std::string::npos) << err;
  EXPECT_NE(err.find("Failed to process 1 rows; failed rows written to " + errors),
            std::string::npos)
      << err;
  auto error_rows = ReadScriptFile(errors);
  ASSERT_TRUE(error_rows.ok());
  EXPECT_EQ(*error_rows, "z,notanumber,,,,,\n");
  // Both tables now print the same rows.
  ASSERT_EQ(Run("SELECT * FROM ks.a;\n"), 0);
  std::string a = out_.Take();
  ASSERT_EQ(Run("SELECT * FROM ks.b;\n"), 0);
  EXPECT_EQ(out_.Take(), a);
  EXPECT_NE(a.find("{street: '1 \"Main\"', city: null, zip: 75001}"), std::string::npos) << a;
}

TEST_F(SessionShellTest, CopyRefusesUnknownOptions) {
  ASSERT_EQ(Run(std::string(kSchema)), 0);
  EXPECT_EQ(Run("COPY ks.t TO 'x.csv' WITH MAXBATCHSIZE = 3;\n"), 1);
  EXPECT_EQ(err_.Take(), "s.cql:1:Unrecognized COPY TO options: maxbatchsize\n");
}

TEST_F(SessionShellTest, CaptureWritesResultsToAFile) {
  std::string path = directory_ + "/captured.txt";
  ASSERT_EQ(Run(std::string(kSchema) + "INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'one');\n"), 0);
  EXPECT_EQ(Run("CAPTURE '" + path + "'\nSELECT v FROM ks.t;\nCAPTURE\nCAPTURE OFF\nCAPTURE OFF\n"),
            1);
  EXPECT_EQ(out_.Take(), "Now capturing query output to '" + path +
                             "'.\nStopped capture. Output saved in '" + path + "'.\n");
  auto captured = ReadScriptFile(path);
  ASSERT_TRUE(captured.ok());
  EXPECT_EQ(*captured,
            "\n v\n-----\n one\n\n(1 rows)\nCurrently capturing query output to '" + path + "'.\n");
  EXPECT_EQ(err_.Take(), "s.cql:5:Not currently capturing output.\n");
}

TEST_F(SessionShellTest, HelpTopicsAndLoginWithoutServer) {
  EXPECT_EQ(Run("HELP\nHELP copy\nHELP nothing\nLOGIN bob secret\n"), 1);
  std::string out = out_.Take();
  EXPECT_NE(out.find("Documented shell commands:\n"), std::string::npos) << out;
  EXPECT_NE(out.find("COPY [ks.]table [(col, ...)] TO"), std::string::npos) << out;
  EXPECT_NE(out.find("No help topic for 'NOTHING'\n"), std::string::npos) << out;
  EXPECT_EQ(err_.Take(), "s.cql:4:LOGIN is not available: the embedded engine has no users.\n");
}

TEST(ConnectionErrorTextTest, AsCqlsh) {
  EXPECT_EQ(ConnectionErrorText(
                "127.0.0.1", 9042,
                common::Status::IOError("Unable to connect to any contact point (127.0.0.1:9042: "
                                        "Cannot connect to 127.0.0.1:9042: Connection refused)")),
            "Connection error: ('Unable to connect to any servers', {'127.0.0.1:9042': "
            "ConnectionRefusedError(111, \"Tried connecting to [('127.0.0.1', 9042)]. Last error: "
            "Connection refused\")})");
  EXPECT_EQ(ConnectionErrorText("h", 1,
                                common::Status(common::StatusCode::kAuthenticationError,
                                               "Provided username x and/or password "
                                               "are incorrect")),
            "Connection error: ('Unable to connect to any servers', {'h:1': "
            "AuthenticationFailed('Failed to authenticate to h:1: Error from server: code=0100 "
            "[Bad credentials] message=\"Provided username x and/or password are incorrect\"')})");
}

}  // namespace
}  // namespace shell
