// CassandraAuthorizer in the engine, where a logic test cannot reach: protocol BATCH messages
// need MODIFY on every table they write, for query and prepared entries alike, checked before
// anything is written (BEGIN BATCH is covered by tests/cql/engine/permissions.test); a prepared
// statement is checked against the table it was prepared for, whatever the session's keyspace
// is when it runs; roles and grants survive a restart.

#include <stdlib.h>

#include <filesystem>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "cql/types/value_codec.h"
#include "engine/database.h"

namespace engine {
namespace {

class AuthorizationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "cqld-batch-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
    DatabaseOptions options;
    options.authenticator = DatabaseOptions::Authenticator::kPassword;
    options.authorizer = DatabaseOptions::Authorizer::kCassandra;
    options.superuser_password = "cassandra";
    auto db = Database::Open(directory_, options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    admin_ = db_->NewSession("cassandra");
    for (std::string_view statement :
         {"CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}",
          "CREATE TABLE ks.t (k int PRIMARY KEY, v int)",
          "CREATE TABLE ks.u (k int PRIMARY KEY, v int)",
          "CREATE ROLE bob WITH PASSWORD = 'bob' AND LOGIN = true",
          "GRANT SELECT ON KEYSPACE ks TO bob"}) {
      Admin(statement);
    }
    bob_ = db_->NewSession("bob");
  }
  void TearDown() override {
    bob_.reset();
    admin_.reset();
    db_.reset();
    if (!directory_.empty()) std::filesystem::remove_all(directory_);
  }

  void Admin(std::string_view statement) {
    auto result = admin_->Execute(statement);
    ASSERT_TRUE(result.ok()) << statement << ": " << result.status().ToString();
  }
  size_t Rows(std::string_view table) {
    auto result = admin_->Execute(std::string("SELECT k FROM ks.") + std::string(table));
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    return result.ok() ? result->row_count() : 0;
  }
  // A logged batch of one INSERT per table, as query entries or as entries prepared by bob.
  common::Result<cql::ResultSet> Batch(std::initializer_list<std::string_view> tables,
                                       bool prepared) {
    cql::BatchRequest request;
    request.type = cql::BatchType::kLogged;
    int k = 0;
    for (std::string_view table : tables) {
      cql::BatchEntry entry;
      std::string query = "INSERT INTO ks." + std::string(table) + " (k, v) VALUES (?, ?)";
      if (prepared) {
        auto statement = bob_->Prepare(query);
        if (!statement.ok()) return statement.status();
        entry.prepared = *statement;
      } else {
        entry.query = query;
      }
      ++k;
      entry.values = {cql::BoundValue::Of(cql::SerializeInt(k)),
                      cql::BoundValue::Of(cql::SerializeInt(k))};
      request.entries.push_back(entry);
    }
    return bob_->ExecuteBatch(request);
  }
  static void ExpectUnauthorized(const common::Result<cql::ResultSet>& result,
                                 std::string_view table) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), common::StatusCode::kUnauthorized);
    EXPECT_EQ(result.status().message(), "User bob has no MODIFY permission on <table ks." +
                                             std::string(table) + "> or any of its parents");
  }

  std::string directory_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<cql::Session> admin_;
  std::unique_ptr<cql::Session> bob_;
};

TEST_F(AuthorizationTest, NeedsModifyOnEveryTableItWrites) {
  for (bool prepared : {false, true}) {
    SCOPED_TRACE(prepared ? "prepared entries" : "query entries");
    ExpectUnauthorized(Batch({"t"}, prepared), "t");
    Admin("GRANT MODIFY ON TABLE ks.t TO bob");
    EXPECT_TRUE(Batch({"t"}, prepared).ok());
    // Refused as a whole: nothing of the batch is written.
    ExpectUnauthorized(Batch({"t", "u"}, prepared), "u");
    EXPECT_EQ(Rows("u"), 0u);
    Admin("REVOKE MODIFY ON TABLE ks.t FROM bob");
    ExpectUnauthorized(Batch({"t"}, prepared), "t");
  }
  EXPECT_EQ(Rows("t"), 1u);
  Admin("GRANT MODIFY ON KEYSPACE ks TO bob");
  EXPECT_TRUE(Batch({"t", "u"}, true).ok());
}

TEST_F(AuthorizationTest, PreparedStatementsAreCheckedInTheirOwnKeyspace) {
  Admin(
      "CREATE KEYSPACE ks2 WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}");
  Admin("CREATE TABLE ks2.t (k int PRIMARY KEY, v int)");
  Admin("GRANT MODIFY ON TABLE ks.t TO bob");
  ASSERT_TRUE(bob_->Execute("USE ks").ok());
  auto insert = bob_->Prepare("INSERT INTO t (k, v) VALUES (?, ?)");
  ASSERT_TRUE(insert.ok()) << insert.status().ToString();
  ASSERT_TRUE(bob_->Execute("USE ks2").ok());
  const std::vector<cql::BoundValue> values = {cql::BoundValue::Of(cql::SerializeInt(7)),
                                               cql::BoundValue::Of(cql::SerializeInt(7))};
  cql::QueryOptions options;
  options.values = values;
  auto result = bob_->ExecutePrepared(**insert, options);
  // Written to ks.t, where bob may write, not checked (or written) against ks2.t.
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(Rows("t"), 1u);
  auto other = admin_->Execute("SELECT k FROM ks2.t");
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->row_count(), 0u);
}

TEST_F(AuthorizationTest, RolesAndGrantsSurviveARestart) {
  Admin("GRANT MODIFY ON TABLE ks.t TO bob");
  Admin("CREATE ROLE carol WITH PASSWORD = 'carol-pw' AND LOGIN = true");
  Admin("DROP ROLE carol");
  bob_.reset();
  admin_.reset();
  db_.reset();
  DatabaseOptions options;
  options.authenticator = DatabaseOptions::Authenticator::kPassword;
  options.authorizer = DatabaseOptions::Authorizer::kCassandra;
  options.superuser_password = "not-used-again";  // the superuser exists: no new bootstrap
  auto reopened = Database::Open(directory_, options);
  ASSERT_TRUE(reopened.ok()) << reopened.status().ToString();
  db_ = std::move(reopened).value();
  EXPECT_TRUE(db_->Authenticate("cassandra", "cassandra").ok());
  auto login = db_->Authenticate("bob", "bob");
  ASSERT_TRUE(login.ok()) << login.status().ToString();
  EXPECT_FALSE(db_->Authenticate("carol", "carol-pw").ok()) << "a dropped role stays dropped";
  admin_ = db_->NewSession("cassandra");
  bob_ = db_->NewSession(*login);
  EXPECT_TRUE(Batch({"t"}, true).ok());  // MODIFY on ks.t, kept
  ExpectUnauthorized(Batch({"u"}, true), "u");
  auto read = bob_->Execute("SELECT k FROM ks.u");  // SELECT on the keyspace, kept
  EXPECT_TRUE(read.ok()) << read.status().ToString();
}

}  // namespace
}  // namespace engine
