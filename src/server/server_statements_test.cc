// Tests of statement requests over the wire: QUERY, PREPARE/EXECUTE, BATCH, USE, paging,
// unprepared ids, result metadata ids (v5) and engine errors.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cql/types/value_codec.h"
#include "server/server_testing.h"

namespace server {
namespace {

using protocol::ResultResponse;
using testing::ServerTest;
using testing::TestClient;

cql::BoundValue Int(int32_t value) { return cql::BoundValue::Of(cql::SerializeInt(value)); }
cql::BoundValue Text(std::string value) { return cql::BoundValue::Of(std::move(value)); }

class StatementTest : public ServerTest, public ::testing::WithParamInterface<uint8_t> {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    if (HasFatalFailure()) return;
    client_ = Connect(GetParam());
    Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    Run("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))");
  }
  void TearDown() override {
    client_.reset();
    ServerTest::TearDown();
  }
  ResultResponse Run(const std::string& query, cql::QueryOptions options = {}) {
    auto result = client_->Query(query, std::move(options));
    EXPECT_TRUE(result.ok()) << query << ": " << result.status().ToString();
    return result.ok() ? std::move(result).value() : ResultResponse();
  }
  // The int column `column` of every row.
  static std::vector<int32_t> Ints(const cql::ResultSet& result, size_t column) {
    std::vector<int32_t> values;
    for (size_t row = 0; row < result.row_count(); ++row) {
      auto value = result.GetInteger(row, column);
      values.push_back(value.ok() ? static_cast<int32_t>(*value) : -999);
    }
    return values;
  }

  std::unique_ptr<TestClient> client_;
};

TEST_P(StatementTest, DdlInsertSelect) {
  ResultResponse created = Run("CREATE TABLE ks.other (k int PRIMARY KEY)");
  EXPECT_EQ(created.kind, ResultResponse::Kind::kSchemaChange);
  EXPECT_EQ(created.result.schema_change().change_type, "CREATED");
  EXPECT_EQ(created.result.schema_change().target, "TABLE");
  EXPECT_EQ(created.result.schema_change().name, "other");
  EXPECT_EQ(Run("INSERT INTO ks.t (k, c, v) VALUES (1, 2, 'two')").kind,
            ResultResponse::Kind::kVoid);
  Run("INSERT INTO ks.t (k, c, v) VALUES (1, 1, 'one')");
  ResultResponse rows = Run("SELECT c, v FROM ks.t WHERE k = 1");
  ASSERT_EQ(rows.kind, ResultResponse::Kind::kRows);
  ASSERT_EQ(rows.result.column_count(), 2u);
  EXPECT_EQ(rows.result.columns()[1].name, "v");
  EXPECT_EQ(Ints(rows.result, 0), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(rows.result.GetText(1, 1).value_or(""), "two");
}

TEST_P(StatementTest, EngineErrorsBecomeErrorResponses) {
  auto result = client_->Query("SELECT nope FROM ks.t");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), common::StatusCode::kInvalid);
  result = client_->Query("SELEC 1");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), common::StatusCode::kSyntaxError);
  result = client_->Query("CREATE TABLE ks.t (k int PRIMARY KEY)");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), common::StatusCode::kAlreadyExists);
  ASSERT_TRUE(client_->last_error());
  EXPECT_EQ(client_->last_error()->keyspace, "ks");
  EXPECT_EQ(client_->last_error()->table, "t");
}

TEST_P(StatementTest, PrepareExecuteWithValues) {
  auto insert = client_->Prepare("INSERT INTO ks.t (k, c, v) VALUES (?, ?, ?)");
  ASSERT_TRUE(insert.ok()) << insert.status().ToString();
  EXPECT_EQ(insert->bind_variables.size(), 3u);
  EXPECT_EQ(insert->partition_key_indexes, std::vector<uint16_t>{0});
  for (int c = 0; c < 3; ++c) {
    auto done = client_->Execute(*insert, {Int(7), Int(c), Text("v" + std::to_string(c))});
    ASSERT_TRUE(done.ok()) << done.status().ToString();
  }
  auto select = client_->Prepare("SELECT c, v FROM ks.t WHERE k = ? AND c >= ?");
  ASSERT_TRUE(select.ok()) << select.status().ToString();
  ASSERT_EQ(select->result_columns.size(), 2u);
  auto rows = client_->Execute(*select, {Int(7), Int(1)});
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(Ints(rows->result, 0), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(rows->result.GetText(0, 1).value_or(""), "v1");
  EXPECT_FALSE(rows->new_metadata_id.has_value());
  // Wrong number of values: an Invalid error, the connection goes on.
  auto wrong = client_->Execute(*select, {Int(7)});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), common::StatusCode::kInvalid);
}

TEST_P(StatementTest, SkipMetadataUsesThePreparedColumns) {
  Run("INSERT INTO ks.t (k, c, v) VALUES (3, 4, 'x')");
  auto select = client_->Prepare("SELECT v FROM ks.t WHERE k = ?");
  ASSERT_TRUE(select.ok());
  protocol::ExecuteRequest request;
  request.id = select->id;
  request.result_metadata_id = select->result_metadata_id;
  request.parameters.options.values = {Int(3)};
  request.parameters.skip_metadata = true;
  auto rows = client_->RunStatement(request, &select->result_columns);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->result.row_count(), 1u);
  EXPECT_EQ(rows->result.GetText(0, 0).value_or(""), "x");
}

TEST_P(StatementTest, UnknownPreparedIdIsUnprepared) {
  common::Bytes id(16, '\x42');
  protocol::ExecuteRequest request;
  request.id = id;
  auto result = client_->RunStatement(request);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), common::StatusCode::kUnprepared);
  ASSERT_TRUE(client_->last_error());
  EXPECT_EQ(client_->last_error()->unprepared_id, id);
  // In a batch too.
  protocol::BatchRequestMessage batch;
  protocol::BatchRequestMessage::Statement statement;
  statement.prepared = true;
  statement.id = id;
  batch.statements.push_back(statement);
  result = client_->RunStatement(batch);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), common::StatusCode::kUnprepared);
}

TEST_P(StatementTest, BatchWithPreparedAndTextEntries) {
  auto insert = client_->Prepare("INSERT INTO ks.t (k, c, v) VALUES (?, ?, ?)");
  ASSERT_TRUE(insert.ok());
  protocol::BatchRequestMessage batch;
  protocol::BatchRequestMessage::Statement prepared;
  prepared.prepared = true;
  prepared.id = insert->id;
  prepared.values = {Int(5), Int(1), Text("p")};
  batch.statements.push_back(prepared);
  protocol::BatchRequestMessage::Statement text;
  text.query = "INSERT INTO ks.t (k, c, v) VALUES (5, ?, 'q')";
  text.values = {Int(2)};
  batch.statements.push_back(text);
  protocol::BatchRequestMessage::Statement update;
  update.query = "UPDATE ks.t SET v = 'r' WHERE k = 5 AND c = 3";
  batch.statements.push_back(update);
  auto result = client_->RunStatement(batch);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->kind, ResultResponse::Kind::kVoid);
  ResultResponse rows = Run("SELECT c, v FROM ks.t WHERE k = 5");
  EXPECT_EQ(Ints(rows.result, 0), (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(rows.result.GetText(2, 1).value_or(""), "r");
}

TEST_P(StatementTest, UseSetsTheConnectionKeyspace) {
  auto unqualified = client_->Query("SELECT * FROM t");
  ASSERT_FALSE(unqualified.ok());
  ResultResponse use = Run("USE ks");
  EXPECT_EQ(use.kind, ResultResponse::Kind::kSetKeyspace);
  EXPECT_EQ(use.result.keyspace(), "ks");
  Run("INSERT INTO t (k, c, v) VALUES (9, 9, 'nine')");
  EXPECT_EQ(Run("SELECT c FROM t WHERE k = 9").result.row_count(), 1u);
  auto prepared = client_->Prepare("SELECT v FROM t WHERE k = ?");
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  // Another connection has its own keyspace.
  auto other = Connect(GetParam());
  EXPECT_FALSE(other->Query("SELECT * FROM t").ok());
}

TEST_P(StatementTest, PagingWithPageSizeAndPagingState) {
  auto insert = client_->Prepare("INSERT INTO ks.t (k, c, v) VALUES (1, ?, 'x')");
  ASSERT_TRUE(insert.ok());
  for (int c = 0; c < 25; ++c) ASSERT_TRUE(client_->Execute(*insert, {Int(c)}).ok());
  std::vector<int32_t> seen;
  cql::QueryOptions options;
  options.page_size = 10;
  int pages = 0;
  for (;;) {
    ResultResponse page = Run("SELECT c FROM ks.t WHERE k = 1", options);
    ++pages;
    for (int32_t c : Ints(page.result, 0)) seen.push_back(c);
    if (!page.result.paging_state()) break;
    options.paging_state = page.result.paging_state();
    ASSERT_LT(pages, 10);
  }
  EXPECT_EQ(pages, 3);
  ASSERT_EQ(seen.size(), 25u);
  for (int c = 0; c < 25; ++c) EXPECT_EQ(seen[static_cast<size_t>(c)], c);
}

TEST_P(StatementTest, SystemTablesWithoutPageSizeComeInOneResult) {
  ResultResponse local = Run("SELECT * FROM system.local WHERE key='local'");
  EXPECT_EQ(local.result.row_count(), 1u);
  EXPECT_FALSE(local.result.paging_state());
  ResultResponse keyspaces = Run("SELECT * FROM system_schema.keyspaces");
  EXPECT_GE(keyspaces.result.row_count(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Versions, StatementTest, ::testing::Values(4, 5),
                         [](const ::testing::TestParamInfo<uint8_t>& info) {
                           return "V" + std::to_string(info.param);
                         });

TEST_F(ServerTest, V5ExecuteReportsChangedResultMetadata) {
  auto client = Connect(5);
  ASSERT_TRUE(client
                  ->Query("CREATE KEYSPACE ks WITH replication = {'class': "
                          "'SimpleStrategy', 'replication_factor': 1}")
                  .ok());
  ASSERT_TRUE(client->Query("CREATE TABLE ks.m (k int PRIMARY KEY, a int)").ok());
  ASSERT_TRUE(client->Query("INSERT INTO ks.m (k, a) VALUES (1, 2)").ok());
  auto select = client->Prepare("SELECT * FROM ks.m WHERE k = ?");
  ASSERT_TRUE(select.ok()) << select.status().ToString();
  auto same = client->Execute(*select, {Int(1)});
  ASSERT_TRUE(same.ok()) << same.status().ToString();
  EXPECT_FALSE(same->new_metadata_id.has_value());
  // A stale id from the client: the server sends the current one with the metadata.
  cql::PreparedMetadata stale = *select;
  stale.result_metadata_id = common::Bytes(16, '\0');
  auto changed = client->Execute(stale, {Int(1)});
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  ASSERT_TRUE(changed->new_metadata_id.has_value());
  EXPECT_EQ(*changed->new_metadata_id, select->result_metadata_id);
  // The table changes shape: the statement's metadata id changes.
  ASSERT_TRUE(client->Query("ALTER TABLE ks.m ADD b int").ok());
  auto altered = client->Execute(*select, {Int(1)});
  ASSERT_TRUE(altered.ok()) << altered.status().ToString();
  ASSERT_TRUE(altered->new_metadata_id.has_value());
  EXPECT_NE(*altered->new_metadata_id, select->result_metadata_id);
  EXPECT_EQ(altered->result.column_count(), 3u);
}

TEST_F(ServerTest, V5KeyspaceFlagOverridesTheSessionKeyspace) {
  auto client = Connect(5);
  ASSERT_TRUE(client
                  ->Query("CREATE KEYSPACE ks WITH replication = {'class': "
                          "'SimpleStrategy', 'replication_factor': 1}")
                  .ok());
  ASSERT_TRUE(client->Query("CREATE TABLE ks.kt (k int PRIMARY KEY)").ok());
  cql::QueryOptions options;
  options.keyspace = "ks";
  auto rows = client->Query("SELECT * FROM kt", options);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  protocol::PrepareRequest prepare;
  prepare.query = "SELECT * FROM kt";
  prepare.keyspace = "ks";
  auto prepared = client->RunStatement(prepare);
  EXPECT_TRUE(prepared.ok()) << prepared.status().ToString();
}

}  // namespace
}  // namespace server
