#include "server/audit_log.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/metrics.h"
#include "cql/parser/parser.h"
#include "server/audit_entry.h"

namespace server {
namespace {

namespace fs = std::filesystem;
using std::chrono::seconds;

AuditEntry Entry(AuditType type, std::string keyspace = "", std::string user = "alice") {
  AuditEntry entry;
  entry.user = std::move(user);
  entry.source = "10.0.0.7";
  entry.port = 50123;
  entry.timestamp_millis = 1764201600123;
  entry.type = type;
  entry.keyspace = std::move(keyspace);
  return entry;
}

AuditStatement Classify(std::string_view text) {
  auto statement = cql::ParseStatement(text);
  EXPECT_TRUE(statement.ok()) << text;
  return ClassifyStatement(*statement);
}

double Dropped(const char* reason) {
  return common::metrics::Registry::Global().Value("cqld_audit_log_dropped_total",
                                                   {{"reason", reason}});
}

class AuditLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("audit_log_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    options_.enabled = true;
    options_.audit_logs_dir = dir_.string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> Lines() const {
    std::ifstream in(dir_ / "audit.log");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }

  fs::path dir_;
  AuditLogOptions options_;
};

TEST(AuditEntryTest, FormatsTheFileAuditLoggerLine) {
  AuditEntry entry = Entry(AuditType::kSelect, "ks");
  entry.scope = "t";
  entry.operation = "SELECT * FROM ks.t\nWHERE k = 1";
  EXPECT_EQ(FormatAuditEntry(entry, "127.0.0.1:7000"),
            "user:alice|host:127.0.0.1:7000|source:/10.0.0.7|port:50123|timestamp:1764201600123|"
            "type:SELECT|category:QUERY|ks:ks|scope:t|operation:SELECT * FROM ks.t WHERE k = 1");

  AuditEntry login = Entry(AuditType::kLoginError);
  login.user.reset();
  login.port = 0;
  login.operation = "LOGIN FAILURE; Provided username bob and/or password are incorrect";
  EXPECT_EQ(FormatAuditEntry(login, "h:7000"),
            "user:null|host:h:7000|source:/10.0.0.7|timestamp:1764201600123|type:LOGIN_ERROR|"
            "category:AUTH|operation:LOGIN FAILURE; Provided username bob and/or password are "
            "incorrect");

  AuditEntry batch = Entry(AuditType::kBatch);
  batch.batch = common::Uuid::FromHalves(1, 2);
  EXPECT_EQ(FormatAuditEntry(batch, "h:7000"),
            "user:alice|host:h:7000|source:/10.0.0.7|port:50123|timestamp:1764201600123|"
            "type:BATCH|category:DML|batch:00000000-0000-0001-0000-000000000002");
}

TEST(AuditEntryTest, ClassifiesStatementsAsCassandraDoes) {
  struct Case {
    const char* text;
    AuditType type;
    const char* keyspace;
    const char* scope;
  };
  const Case cases[] = {
      {"SELECT * FROM ks.t", AuditType::kSelect, "ks", "t"},
      {"INSERT INTO t (k) VALUES (?)", AuditType::kUpdate, "", "t"},
      {"UPDATE ks.t SET v = 1 WHERE k = 2", AuditType::kUpdate, "ks", "t"},
      {"DELETE FROM ks.t WHERE k = 2", AuditType::kDelete, "ks", "t"},
      {"BEGIN BATCH INSERT INTO t (k) VALUES (1); APPLY BATCH", AuditType::kBatch, "", ""},
      {"TRUNCATE ks.t", AuditType::kTruncate, "ks", "t"},
      {"USE ks", AuditType::kUseKeyspace, "ks", ""},
      {"CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'}",
       AuditType::kCreateKeyspace, "ks", ""},
      {"DROP KEYSPACE ks", AuditType::kDropKeyspace, "ks", ""},
      {"CREATE TABLE ks.t (k int PRIMARY KEY)", AuditType::kCreateTable, "ks", "t"},
      {"ALTER TABLE ks.t ADD v int", AuditType::kAlterTable, "ks", "t"},
      {"CREATE INDEX i ON ks.t (v)", AuditType::kCreateIndex, "ks", "i"},
      {"DROP INDEX ks.i", AuditType::kDropIndex, "ks", "i"},
      {"CREATE TYPE ks.ty (a int)", AuditType::kCreateType, "ks", "ty"},
      {"CREATE ROLE r WITH PASSWORD = 'x'", AuditType::kCreateRole, "", ""},
      {"CREATE USER u WITH PASSWORD 'x'", AuditType::kCreateRole, "", ""},
      {"ALTER USER u WITH PASSWORD 'x'", AuditType::kAlterRole, "", ""},
      {"DROP ROLE r", AuditType::kDropRole, "", ""},
      {"GRANT SELECT ON KEYSPACE ks TO r", AuditType::kGrant, "", ""},
      {"REVOKE SELECT ON KEYSPACE ks FROM r", AuditType::kRevoke, "", ""},
      {"LIST ROLES", AuditType::kListRoles, "", ""},
      {"LIST ALL PERMISSIONS", AuditType::kListPermissions, "", ""},
      {"DESCRIBE TABLE ks.t", AuditType::kDescribe, "ks", "t"},
  };
  for (const Case& c : cases) {
    AuditStatement statement = Classify(c.text);
    EXPECT_EQ(AuditTypeName(statement.type), AuditTypeName(c.type)) << c.text;
    EXPECT_EQ(statement.keyspace, c.keyspace) << c.text;
    EXPECT_EQ(statement.scope, c.scope) << c.text;
  }
  EXPECT_EQ(CategoryOf(AuditType::kGrant), AuditCategory::kDcl);
  EXPECT_EQ(CategoryOf(AuditType::kPrepareStatement), AuditCategory::kPrepare);
  EXPECT_EQ(CategoryOf(AuditType::kRequestFailure), AuditCategory::kError);
  EXPECT_TRUE(ParseAuditCategory("dml") == AuditCategory::kDml);
  EXPECT_FALSE(ParseAuditCategory("WRITES").has_value());
}

TEST(AuditEntryTest, ObfuscatesPasswords) {
  EXPECT_EQ(ObfuscatePasswords("CREATE ROLE r WITH PASSWORD = 'secret' AND LOGIN = true"),
            "CREATE ROLE r WITH PASSWORD = '***' AND LOGIN = true");
  EXPECT_EQ(ObfuscatePasswords("alter user u with password 'it''s'"),
            "alter user u with password '***'");
  // An error message quoting the statement: nothing after the keyword survives.
  EXPECT_EQ(ObfuscatePasswords("line 1:40 mismatched input (... PASSWORD = ['secret' AND]...)"),
            "line 1:40 mismatched input (... PASSWORD *******");
  EXPECT_EQ(ObfuscatePasswords("Provided username bob and/or password are incorrect"),
            "Provided username bob and/or password are incorrect");
  EXPECT_EQ(ObfuscatePasswords("SELECT * FROM t WHERE k = ?"), "SELECT * FROM t WHERE k = ?");
}

TEST(AuditLogFilterTest, IncludesAndExcludesAsCassandra) {
  AuditLogOptions options;
  options.included_keyspaces = "ks1,ks2";
  options.excluded_keyspaces = "ks2";
  options.excluded_categories = "query";
  options.excluded_users = "robot";
  AuditLogFilter filter(options);
  EXPECT_FALSE(filter.Filtered(Entry(AuditType::kUpdate, "ks1")));
  EXPECT_TRUE(filter.Filtered(Entry(AuditType::kUpdate, "ks2")));  // excluded wins
  EXPECT_TRUE(filter.Filtered(Entry(AuditType::kUpdate, "ks3")));  // not included
  EXPECT_TRUE(filter.Filtered(Entry(AuditType::kUpdate, "")));     // no keyspace, list set
  EXPECT_TRUE(filter.Filtered(Entry(AuditType::kSelect, "ks1")));  // category excluded
  EXPECT_TRUE(filter.Filtered(Entry(AuditType::kUpdate, "ks1", "robot")));

  AuditLogFilter defaults{AuditLogOptions()};
  EXPECT_FALSE(defaults.Filtered(Entry(AuditType::kLoginSuccess, "")));
  EXPECT_FALSE(defaults.Filtered(Entry(AuditType::kSelect, "ks")));
  EXPECT_TRUE(defaults.Filtered(Entry(AuditType::kSelect, "system_virtual_schema")));
  AuditLogOptions none;
  none.excluded_keyspaces = "";
  EXPECT_TRUE(AuditLogFilter(none).Filtered(Entry(AuditType::kSelect, "system")));  // always
  EXPECT_FALSE(AuditLogFilter(none).Filtered(Entry(AuditType::kSelect, "system_auth")));

  AuditLogOptions auth_only;
  auth_only.included_categories = "AUTH";
  AuditEntry failed = Entry(AuditType::kLoginError);
  failed.user.reset();
  EXPECT_FALSE(AuditLogFilter(auth_only).Filtered(failed));
  EXPECT_TRUE(AuditLogFilter(auth_only).Filtered(Entry(AuditType::kCreateTable, "ks")));
}

TEST(AuditLogOptionsTest, RefusesWhatCqldCannotDo) {
  AuditLogOptions options;
  options.audit_logs_dir = "/tmp/audit";
  EXPECT_TRUE(ValidateAuditLogOptions(options).ok());
  options.logger = "org.apache.cassandra.audit.FileAuditLogger";
  EXPECT_TRUE(ValidateAuditLogOptions(options).ok());
  options.logger = "BinAuditLogger";
  EXPECT_EQ(ValidateAuditLogOptions(options).message(),
            "Audit logger BinAuditLogger is not supported: cqld writes the audit log as text "
            "lines; use FileAuditLogger");
  options.logger = "FileAuditLogger";
  options.excluded_categories = "DML,WRITES";
  EXPECT_EQ(ValidateAuditLogOptions(options).message(),
            "Invalid excluded_categories 'WRITES': audit log categories are QUERY, DML, DDL, DCL, "
            "OTHER, AUTH, ERROR and PREPARE");
  options.excluded_categories = "";
  options.block = true;
  EXPECT_FALSE(ValidateAuditLogOptions(options).ok());
  options.block = false;
  options.audit_logs_dir = "";
  EXPECT_FALSE(ValidateAuditLogOptions(options).ok());
}

TEST_F(AuditLogTest, WritesFilteredEntriesToItsFile) {
  AuditLog log("127.0.0.1:7000", options_);
  log.Log(Entry(AuditType::kSelect, "ks"));  // not enabled yet: nothing
  EXPECT_FALSE(log.enabled());
  options_.excluded_categories = "query";
  ASSERT_TRUE(log.Enable(options_).ok());
  EXPECT_EQ(log.path(), (dir_ / "audit.log").string());
  log.Log(Entry(AuditType::kSelect, "ks"));
  log.Log(Entry(AuditType::kCreateTable, "ks"));
  log.Log(Entry(AuditType::kCreateTable, "system"));
  ASSERT_TRUE(log.Flush(seconds(10)));
  std::vector<std::string> lines = Lines();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("|type:CREATE_TABLE|category:DDL|ks:ks"), std::string::npos);
  EXPECT_EQ(log.options().excluded_categories, "QUERY");

  options_.excluded_categories = "";  // same file: the filter changes
  ASSERT_TRUE(log.Enable(options_).ok());
  log.Log(Entry(AuditType::kSelect, "ks"));
  log.Disable();
  EXPECT_FALSE(log.enabled());
  log.Log(Entry(AuditType::kDelete, "ks"));  // after Disable: nothing
  EXPECT_EQ(Lines().size(), 2u);
  EXPECT_FALSE(log.options().enabled);
  EXPECT_EQ(log.path(), "");
}

TEST_F(AuditLogTest, DropsAndCountsEntriesWhenTheQueueIsFull) {
  options_.max_queue_weight = 10;  // shorter than any line
  AuditLog log("127.0.0.1:7000", options_);
  ASSERT_TRUE(log.Enable(options_).ok());
  const double before = Dropped("queue_full");
  for (int i = 0; i < 5; ++i) log.Log(Entry(AuditType::kSelect, "ks"));
  ASSERT_TRUE(log.Flush(seconds(10)));
  EXPECT_EQ(Dropped("queue_full") - before, 5);
  EXPECT_TRUE(Lines().empty());

  options_.max_queue_weight = 1 << 20;  // enableauditlog --max-queue-weight while enabled
  ASSERT_TRUE(log.Enable(options_).ok());
  log.Log(Entry(AuditType::kSelect, "ks"));
  ASSERT_TRUE(log.Flush(seconds(10)));
  EXPECT_EQ(Dropped("queue_full") - before, 5);
  EXPECT_EQ(Lines().size(), 1u);
}

TEST_F(AuditLogTest, RefusesADirectoryThatCannotBeCreated) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / "file") << "x";
  options_.audit_logs_dir = (dir_ / "file" / "audit").string();  // ENOTDIR, even for root
  AuditLog log("127.0.0.1:7000", options_);
  common::Status status = log.Enable(options_);
  EXPECT_EQ(status.code(), common::StatusCode::kIOError);
  EXPECT_NE(status.message().find("cannot create the audit log directory"), std::string::npos);
  EXPECT_FALSE(log.enabled());
  log.Log(Entry(AuditType::kSelect, "ks"));  // harmless
}

TEST_F(AuditLogTest, SurvivesAFullDisk) {
  fs::create_directories(dir_);
  fs::create_symlink("/dev/full", dir_ / "audit.log");  // every write fails with ENOSPC
  AuditLog log("127.0.0.1:7000", options_);
  ASSERT_TRUE(log.Enable(options_).ok());
  const double before = Dropped("write_failed");
  for (int i = 0; i < 3; ++i) log.Log(Entry(AuditType::kSelect, "ks"));
  ASSERT_TRUE(log.Flush(seconds(10)));
  EXPECT_EQ(Dropped("write_failed") - before, 3);
  log.Disable();
}

TEST_F(AuditLogTest, RotatesBySize) {
  options_.max_log_size = 1000;  // files of 500 bytes, one old file kept
  AuditLog log("127.0.0.1:7000", options_);
  ASSERT_TRUE(log.Enable(options_).ok());
  for (int i = 0; i < 20; ++i) log.Log(Entry(AuditType::kSelect, "ks"));
  ASSERT_TRUE(log.Flush(seconds(10)));
  EXPECT_TRUE(fs::exists(dir_ / "audit.log.1"));
  EXPECT_FALSE(fs::exists(dir_ / "audit.log.2"));
  EXPECT_LE(fs::file_size(dir_ / "audit.log"), 500u);
}

}  // namespace
}  // namespace server
