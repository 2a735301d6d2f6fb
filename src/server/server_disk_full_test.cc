// A write the storage refuses for lack of disk space reaches the client as an ERROR frame with
// Cassandra's WriteFailure code (0x1500), its body carrying the request's consistency, while
// reads keep being served. The "full" disk is a free-space floor larger than any disk, so the
// database reopens read-only and the test needs no privilege.

#include <string>

#include <gtest/gtest.h>

#include "server/server_testing.h"

namespace server {
namespace {

using testing::ServerTest;

class DiskFullServerTest : public ServerTest, public ::testing::WithParamInterface<uint8_t> {
 protected:
  // Creates ks.t with one row, then restarts the server over the same directory reopened with
  // a floor no disk has free.
  void SetUpFullDisk() {
    auto client = Connect(GetParam());
    for (const char* statement : {"CREATE KEYSPACE ks WITH replication = {'class': "
                                  "'SimpleStrategy', 'replication_factor': 1}",
                                  "CREATE TABLE ks.t (k int PRIMARY KEY, v text)",
                                  "INSERT INTO ks.t (k, v) VALUES (1, 'one')"}) {
      auto result = client->Query(statement);
      ASSERT_TRUE(result.ok()) << statement << ": " << result.status().ToString();
    }
    client.reset();
    server_->Stop();
    server_.reset();
    database_.reset();
    database_options_.min_free_space_bytes = uint64_t{1} << 62;
    auto db = engine::Database::Open(directory_, database_options_);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    database_ = std::move(db).value();
    ASSERT_TRUE(database_->read_only());
    ASSERT_NO_FATAL_FAILURE(StartServer());
  }
};

TEST_P(DiskFullServerTest, RefusedWriteIsAWriteFailureFrame) {
  ASSERT_NO_FATAL_FAILURE(SetUpFullDisk());
  auto client = Connect(GetParam());
  cql::QueryOptions quorum;
  quorum.consistency = cql::Consistency::kQuorum;
  auto inserted = client->Query("INSERT INTO ks.t (k, v) VALUES (2, 'two')", quorum);
  ASSERT_FALSE(inserted.ok());
  ASSERT_TRUE(client->last_error().has_value());
  const protocol::ErrorResponse& error = *client->last_error();
  EXPECT_EQ(error.code, 0x1500u);
  EXPECT_EQ(error.consistency, cql::Consistency::kQuorum);
  EXPECT_NE(error.message.find("Write refused: the disk holding " + directory_ + " is full"),
            std::string::npos)
      << error.message;

  auto batch = client->Query(
      "BEGIN BATCH INSERT INTO ks.t (k, v) VALUES (3, 'three'); "
      "APPLY BATCH");
  EXPECT_EQ(batch.status().code(), common::StatusCode::kWriteFailure);

  auto created = client->Query("CREATE TABLE ks.other (k int PRIMARY KEY)");
  EXPECT_EQ(created.status().code(), common::StatusCode::kWriteFailure);

  auto selected = client->Query("SELECT v FROM ks.t WHERE k = 1");
  ASSERT_TRUE(selected.ok()) << selected.status().ToString();
  ASSERT_EQ(selected->result.row_count(), 1u);
  EXPECT_EQ(selected->result.GetText(0, 0).value(), "one");
}

INSTANTIATE_TEST_SUITE_P(Versions, DiskFullServerTest, ::testing::Values(4, 5),
                         [](const auto& info) { return "V" + std::to_string(info.param); });

}  // namespace
}  // namespace server
