// The audit log end to end: a server with the PasswordAuthenticator and an enabled AuditLog,
// clients that log in (with a good and a bad password) and run DDL, DCL, DML, prepared
// statements, a batch and a failing request; the file must hold one line for each, and no
// password or bound value.

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "server/audit_log.h"
#include "server/server_testing.h"

namespace server::testing {
namespace {

class AuditServerTest : public ServerTest {
 protected:
  void SetUp() override {
    audit_dir_ = std::filesystem::temp_directory_path() /
                 ("cqld-audit-" + std::to_string(::getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(audit_dir_);
    AuditLogOptions options;
    options.audit_logs_dir = audit_dir_.string();
    audit_ = std::make_unique<AuditLog>("127.0.0.1:7000", options);
    ASSERT_TRUE(audit_->Enable(options).ok());
    server_options_.audit_log = audit_.get();
    database_options_.authenticator = engine::DatabaseOptions::Authenticator::kPassword;
    database_options_.superuser_password = "secret";
    database_options_.authorizer = engine::DatabaseOptions::Authorizer::kCassandra;
    ServerTest::SetUp();
  }

  void TearDown() override {
    ServerTest::TearDown();  // the server stops before its audit log goes
    audit_.reset();
    std::filesystem::remove_all(audit_dir_);
  }

  // A connection logged in as `user` (STARTUP, AUTHENTICATE, AUTH_RESPONSE); the login's status.
  common::Status Login(TestClient* client, const std::string& user, const std::string& password) {
    protocol::StartupRequest startup;
    startup.options.emplace_back("CQL_VERSION", "3.0.0");
    ASSIGN_OR_RETURN(protocol::Envelope challenge, client->Call(startup));
    if (challenge.header.opcode != protocol::Opcode::kAuthenticate) {
      return common::Status::Internal("STARTUP was not answered with AUTHENTICATE");
    }
    protocol::AuthResponseRequest response;
    response.token = std::string(1, '\0') + user + std::string(1, '\0') + password;
    return client->Call(response).status();
  }

  std::vector<std::string> Lines() {
    EXPECT_TRUE(audit_->Flush(std::chrono::seconds(10)));
    std::ifstream in(audit_dir_ / "audit.log");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }

  // The lines holding every one of `parts`.
  std::vector<std::string> Find(const std::vector<std::string>& parts) {
    std::vector<std::string> found;
    for (const std::string& line : Lines()) {
      bool all = true;
      for (const std::string& part : parts) all = all && line.find(part) != std::string::npos;
      if (all) found.push_back(line);
    }
    return found;
  }

  std::filesystem::path audit_dir_;
  std::unique_ptr<AuditLog> audit_;
};

TEST_F(AuditServerTest, LogsLoginsStatementsAndFailures) {
  TestClient intruder(server_->port());
  ASSERT_TRUE(intruder.connected());
  EXPECT_EQ(Login(&intruder, "cassandra", "guess").code(),
            common::StatusCode::kAuthenticationError);

  TestClient client(server_->port());
  ASSERT_TRUE(client.connected());
  ASSERT_TRUE(Login(&client, "cassandra", "secret").ok());
  for (const char* statement :
       {"CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}",
        "CREATE TABLE ks.t (k int PRIMARY KEY, v text)",
        "CREATE ROLE bob WITH PASSWORD = 'hunter2' AND LOGIN = true",
        "GRANT SELECT ON KEYSPACE ks TO bob", "INSERT INTO ks.t (k, v) VALUES (1, 'one')",
        "SELECT * FROM ks.t WHERE k = 1", "SELECT * FROM system.local"}) {
    ASSERT_TRUE(client.Query(statement).ok()) << statement;
  }
  auto prepared = client.Prepare("UPDATE ks.t SET v = ? WHERE k = ?");
  ASSERT_TRUE(prepared.ok());
  ASSERT_TRUE(client
                  .Execute(*prepared, {cql::BoundValue::Of(std::string("bound-secret")),
                                       cql::BoundValue::Of(std::string("\0\0\0\2", 4))})
                  .ok());
  protocol::BatchRequestMessage batch;
  batch.statements.push_back({false, "INSERT INTO ks.t (k, v) VALUES (3, 'three')", "", {}, {}});
  batch.statements.push_back({false, "DELETE FROM ks.t WHERE k = 1", "", {}, {}});
  ASSERT_TRUE(client.RunStatement(batch).ok());
  EXPECT_FALSE(client.Query("SELECT * FROM ks.missing").ok());

  const std::string who = "user:cassandra|host:127.0.0.1:7000|source:/127.0.0.1|port:";
  EXPECT_EQ(
      Find({"user:null|", "|type:LOGIN_ERROR|category:AUTH|operation:LOGIN FAILURE; "}).size(), 1u);
  EXPECT_EQ(Find({who, "|type:LOGIN_SUCCESS|category:AUTH|operation:LOGIN SUCCESSFUL"}).size(), 1u);
  EXPECT_EQ(
      Find({who, "|type:CREATE_KEYSPACE|category:DDL|ks:ks|operation:CREATE KEYSPACE ks"}).size(),
      1u);
  EXPECT_EQ(Find({"|type:CREATE_TABLE|category:DDL|ks:ks|scope:t|"}).size(), 1u);
  EXPECT_EQ(Find({"|type:CREATE_ROLE|category:DCL|operation:CREATE ROLE bob WITH PASSWORD = '***' "
                  "AND LOGIN = true"})
                .size(),
            1u);
  EXPECT_EQ(Find({"|type:GRANT|category:DCL|"}).size(), 1u);
  EXPECT_EQ(Find({"|type:UPDATE|category:DML|ks:ks|scope:t|operation:INSERT INTO ks.t"}).size(),
            1u);
  EXPECT_EQ(Find({"|type:SELECT|category:QUERY|ks:ks|scope:t|"}).size(), 1u);
  EXPECT_EQ(Find({"|type:PREPARE_STATEMENT|category:PREPARE|ks:ks|scope:t|operation:UPDATE ks.t "
                  "SET v = ? WHERE k = ?"})
                .size(),
            1u);
  EXPECT_EQ(
      Find({"|type:UPDATE|category:DML|ks:ks|scope:t|operation:UPDATE ks.t SET v = ?"}).size(), 1u);
  EXPECT_EQ(Find({"|type:BATCH|category:DML|batch:", "BATCH of [2] statements"}).size(), 1u);
  EXPECT_EQ(Find({"|type:DELETE|category:DML|batch:",
                  "|ks:ks|scope:t|operation:DELETE FROM ks.t WHERE k = 1"})
                .size(),
            1u);
  EXPECT_EQ(Find({"|type:REQUEST_FAILURE|category:ERROR|ks:ks|scope:missing|operation:SELECT * "
                  "FROM ks.missing; "})
                .size(),
            1u);
  EXPECT_TRUE(Find({"ks:system|"}).empty());  // system keyspaces are never logged
  EXPECT_TRUE(Find({"hunter2"}).empty());
  EXPECT_TRUE(Find({"guess"}).empty());
  EXPECT_TRUE(Find({"bound-secret"}).empty());
}

TEST_F(AuditServerTest, FiltersAndStopsWhenDisabled) {
  AuditLogOptions options = audit_->options();
  options.included_categories = "AUTH,DDL";
  ASSERT_TRUE(audit_->Enable(options).ok());
  TestClient client(server_->port());
  ASSERT_TRUE(Login(&client, "cassandra", "secret").ok());
  ASSERT_TRUE(client
                  .Query("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                         "'replication_factor': 1}")
                  .ok());
  ASSERT_TRUE(client.Query("CREATE TABLE ks.t (k int PRIMARY KEY)").ok());
  ASSERT_TRUE(client.Query("INSERT INTO ks.t (k) VALUES (1)").ok());
  audit_->Disable();
  ASSERT_TRUE(client.Query("DROP TABLE ks.t").ok());
  std::vector<std::string> lines = Lines();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[0].find("|type:LOGIN_SUCCESS|"), std::string::npos);
  EXPECT_NE(lines[1].find("|type:CREATE_KEYSPACE|"), std::string::npos);
  EXPECT_NE(lines[2].find("|type:CREATE_TABLE|"), std::string::npos);
}

// system_views.settings shows the audit log's options as in force, enabled or not.
TEST_F(AuditServerTest, SettingsShowTheOptionsInForce) {
  AuditLogOptions options = audit_->options();
  options.included_categories = "AUTH,DDL";
  ASSERT_TRUE(audit_->Enable(options).ok());
  TestClient client(server_->port());
  ASSERT_TRUE(Login(&client, "cassandra", "secret").ok());
  auto setting = [&](const std::string& name) -> std::string {
    auto result = client.Query(
        "SELECT value FROM system_views.settings WHERE name = 'audit_logging_options." + name +
        "'");
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    if (!result.ok() || result->result.row_count() != 1) return "(no row)";
    return result->result.GetText(0, 0).value_or("null");
  };
  EXPECT_EQ(setting("enabled"), "true");
  EXPECT_EQ(setting("included_categories"), "AUTH,DDL");
  EXPECT_EQ(setting("audit_logs_dir"), audit_dir_.string());
  EXPECT_EQ(setting("logger.class_name"), "FileAuditLogger");
  audit_->Disable();
  EXPECT_EQ(setting("enabled"), "false");
}

}  // namespace
}  // namespace server::testing
