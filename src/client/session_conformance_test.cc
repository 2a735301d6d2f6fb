// Session conformance: the same statements through the embedded session (engine
// Database::NewSession) and through a RemoteSession (over an in-process Server with its own
// Database) must give identical results — columns, cells, paging, keyspace, schema changes,
// warnings, and errors with the same code and message.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "client/client_testing.h"
#include "client/remote_session.h"
#include "common/bytes.h"
#include "cql/types/value_codec.h"
#include "engine/database.h"

namespace client {
namespace {

using common::Result;
using cql::BoundValue;
using cql::QueryOptions;
using cql::ResultSet;

// `type` as CQL text without `frozen<...>` wrappers: the protocol's type options do not carry
// frozenness, so a driver cannot know it (Cassandra's drivers cannot either).
std::string WireType(const cql::CqlType& type) {
  std::string text = type.ToCql();
  for (size_t at = text.find("frozen<"); at != std::string::npos; at = text.find("frozen<")) {
    int depth = 0;
    size_t close = at + 6;
    for (; close < text.size(); ++close) {
      if (text[close] == '<') ++depth;
      if (text[close] == '>' && --depth == 0) break;
    }
    if (close < text.size()) text.erase(close, 1);
    text.erase(at, 7);
  }
  return text;
}

std::vector<std::string> Describe(const std::vector<cql::ColumnSpec>& columns) {
  std::vector<std::string> out;
  for (const cql::ColumnSpec& column : columns) {
    out.push_back(column.keyspace + "." + column.table + "." + column.name + " " +
                  WireType(column.type));
  }
  return out;
}

void ExpectSameColumns(const std::vector<cql::ColumnSpec>& a,
                       const std::vector<cql::ColumnSpec>& b) {
  EXPECT_EQ(Describe(a), Describe(b));
}

void ExpectSame(const Result<ResultSet>& embedded, const Result<ResultSet>& remote,
                const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(embedded.ok(), remote.ok())
      << "embedded: " << embedded.status().ToString() << " remote: " << remote.status().ToString();
  if (!embedded.ok()) {
    EXPECT_EQ(embedded.status().code(), remote.status().code());
    EXPECT_EQ(embedded.status().message(), remote.status().message());
    return;
  }
  const ResultSet& a = *embedded;
  const ResultSet& b = *remote;
  EXPECT_EQ(a.kind(), b.kind());
  ExpectSameColumns(a.columns(), b.columns());
  ASSERT_EQ(a.row_count(), b.row_count());
  for (size_t row = 0; row < a.row_count(); ++row) {
    for (size_t column = 0; column < a.column_count(); ++column) {
      EXPECT_EQ(a.Value(row, column), b.Value(row, column)) << "row " << row << " col " << column;
    }
  }
  EXPECT_EQ(a.paging_state().has_value(), b.paging_state().has_value());
  EXPECT_EQ(a.keyspace(), b.keyspace());
  EXPECT_EQ(a.schema_change(), b.schema_change());
  EXPECT_EQ(a.warnings(), b.warnings());
}

class SessionConformanceTest : public testing::RemoteSessionTest {
 protected:
  void SetUp() override {
    RemoteSessionTest::SetUp();
    if (HasFatalFailure()) return;
    std::string pattern =
        (std::filesystem::temp_directory_path() / "cqld-conformance-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    embedded_directory_ = pattern;
    auto db = engine::Database::Open(embedded_directory_, engine::DatabaseOptions());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    embedded_db_ = std::move(db).value();
    embedded_ = embedded_db_->NewSession();
    remote_ = ConnectRemote();
    ASSERT_NE(remote_, nullptr);
    Both(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    Both("USE ks");
  }
  void TearDown() override {
    embedded_.reset();
    embedded_db_.reset();
    if (!embedded_directory_.empty()) std::filesystem::remove_all(embedded_directory_);
    RemoteSessionTest::TearDown();
  }

  // Runs `query` on both sessions and compares; with `must_succeed`, also expects success.
  std::pair<Result<ResultSet>, Result<ResultSet>> Both(const std::string& query,
                                                       const QueryOptions& options = {},
                                                       bool must_succeed = true) {
    Result<ResultSet> a = embedded_->Execute(query, options);
    Result<ResultSet> b = remote_->Execute(query, options);
    ExpectSame(a, b, query);
    if (must_succeed) {
      EXPECT_TRUE(a.ok()) << query << ": " << a.status().ToString();
    }
    return {std::move(a), std::move(b)};
  }
  void Fails(const std::string& query, const QueryOptions& options = {}) {
    auto [a, b] = Both(query, options, /*must_succeed=*/false);
    EXPECT_FALSE(a.ok()) << query;
  }

  // Every page of `query` with `page_size`, page by page on both sessions (each resumes with
  // its own paging state).
  void ComparePages(const std::string& query, int page_size) {
    QueryOptions a_options;
    a_options.page_size = page_size;
    QueryOptions b_options = a_options;
    for (int page = 0; page < 1000; ++page) {
      Result<ResultSet> a = embedded_->Execute(query, a_options);
      Result<ResultSet> b = remote_->Execute(query, b_options);
      ExpectSame(a, b, query + " page size " + std::to_string(page_size));
      if (!a.ok() || !b.ok() || !a->paging_state() || !b->paging_state()) return;
      a_options.paging_state = a->paging_state();
      b_options.paging_state = b->paging_state();
    }
    ADD_FAILURE() << "too many pages";
  }

  struct PreparedPair {
    std::shared_ptr<const cql::PreparedMetadata> embedded;
    std::shared_ptr<const cql::PreparedMetadata> remote;
  };
  PreparedPair PrepareBoth(const std::string& query) {
    auto a = embedded_->Prepare(query);
    auto b = remote_->Prepare(query);
    EXPECT_EQ(a.ok(), b.ok()) << query;
    if (!a.ok() || !b.ok()) {
      if (!a.ok() && !b.ok()) {
        EXPECT_EQ(a.status().code(), b.status().code());
        EXPECT_EQ(a.status().message(), b.status().message());
      }
      return {};
    }
    const cql::PreparedMetadata& x = **a;
    const cql::PreparedMetadata& y = **b;
    EXPECT_EQ(x.id, y.id);
    EXPECT_EQ(x.query, y.query);
    EXPECT_EQ(x.keyspace, y.keyspace);
    ExpectSameColumns(x.bind_variables, y.bind_variables);
    EXPECT_EQ(x.partition_key_indexes, y.partition_key_indexes);
    ExpectSameColumns(x.result_columns, y.result_columns);
    return {*a, *b};
  }
  void ExecuteBoth(const PreparedPair& prepared, const QueryOptions& options,
                   const std::string& what) {
    ASSERT_TRUE(prepared.embedded && prepared.remote) << what;
    ExpectSame(embedded_->ExecutePrepared(*prepared.embedded, options),
               remote_->ExecutePrepared(*prepared.remote, options), what);
  }

  std::string embedded_directory_;
  std::unique_ptr<engine::Database> embedded_db_;
  std::unique_ptr<cql::Session> embedded_;
  RemoteSession* remote_ = nullptr;
};

BoundValue Int(int32_t value) { return BoundValue::Of(cql::SerializeInt(value)); }
BoundValue Text(const std::string& value) { return BoundValue::Of(value); }

TEST_F(SessionConformanceTest, DdlAndDml) {
  EXPECT_EQ(embedded_->keyspace(), "ks");
  EXPECT_EQ(remote_->keyspace(), "ks");
  for (const char* query : {
           "CREATE TABLE t (pk int, ck int, v text, s int static, PRIMARY KEY (pk, ck))",
           "INSERT INTO t (pk, ck, v) VALUES (1, 1, 'a')",
           "INSERT INTO t (pk, ck, v, s) VALUES (1, 2, 'b', 7)",
           "UPDATE t SET v = 'c' WHERE pk = 2 AND ck = 1",
           "SELECT * FROM t",
           "SELECT pk, ck, v FROM t WHERE pk = 1 ORDER BY ck DESC",
           "SELECT count(*) FROM t",
           "SELECT token(pk), pk FROM t",
           "DELETE v FROM t WHERE pk = 1 AND ck = 1",
           "SELECT * FROM t WHERE pk = 1",
           "DELETE FROM t WHERE pk = 2",
           "SELECT * FROM t",
           "ALTER TABLE t ADD w bigint",
           "SELECT * FROM t",
           "INSERT INTO t (pk, ck, v) VALUES (3, 1, 'x') USING TTL 1000",
           "SELECT JSON pk, ck, v FROM t WHERE pk = 3",
           "TRUNCATE t",
           "SELECT * FROM t",
           "DROP TABLE t",
       }) {
    Both(query);
  }
}

TEST_F(SessionConformanceTest, EveryTypeRoundTrips) {
  Both("CREATE TYPE address (street text, zip int)");
  Both(
      "CREATE TABLE types (k int PRIMARY KEY, a ascii, b bigint, bl blob, bo boolean, d date, "
      "de decimal, db double, du duration, f float, i inet, n int, sm smallint, t text, "
      "ti time, ts timestamp, tu timeuuid, tn tinyint, u uuid, vc varchar, vi varint, "
      "l list<int>, se set<text>, m map<text, int>, tp tuple<int, text>, ad frozen<address>, "
      "ve vector<float, 3>)");
  Both(
      "INSERT INTO types (k, a, b, bl, bo, d, de, db, du, f, i, n, sm, t, ti, ts, tu, tn, u, "
      "vc, vi, l, se, m, tp, ad, ve) VALUES (1, 'ascii', -9223372036854775808, 0xcafe, true, "
      "'2024-02-29', 123.456e-7, 1.5e300, 1y2mo3d4h5m6s7ms, -0.25, '2001:db8::1', -1, 32767, "
      "'héllo', '23:59:59.999999999', '2017-01-01 12:34:56.789+0000', "
      "d2177dd0-eaa2-11de-a572-001b779c76e3, -128, 123e4567-e89b-12d3-a456-426614174000, "
      "'varchar', 123456789012345678901234567890, [3, 1, 2], {'b', 'a'}, {'x': 1, 'y': 2}, "
      "(5, 'five'), {street: 'Main', zip: 12345}, [1.0, 2.5, -3.0])");
  Both("INSERT INTO types (k) VALUES (2)");
  Both("INSERT INTO types (k, t, l) VALUES (3, '', [])");
  Both("SELECT * FROM types");
  Both("SELECT JSON * FROM types WHERE k = 1");

  // The values read back, bound to a prepared INSERT, round-trip unchanged.
  auto [embedded_rows, remote_rows] = Both("SELECT * FROM types WHERE k = 1");
  ASSERT_TRUE(remote_rows.ok());
  ASSERT_EQ(remote_rows->row_count(), 1u);
  std::string columns;
  std::string markers;
  QueryOptions options;
  for (size_t c = 0; c < remote_rows->column_count(); ++c) {
    columns += (c ? ", " : "") + remote_rows->columns()[c].name;
    markers += c ? ", ?" : "?";
    std::optional<std::string_view> value = remote_rows->Value(0, c);
    options.values.push_back(value ? BoundValue::Of(common::Bytes(*value)) : BoundValue::Null());
  }
  options.values[0] = Int(10);
  PreparedPair insert = PrepareBoth("INSERT INTO types (" + columns + ") VALUES (" + markers + ")");
  ExecuteBoth(insert, options, "prepared insert of every type");
  auto [embedded_copy, remote_copy] = Both("SELECT * FROM types WHERE k = 10");
  ASSERT_TRUE(remote_copy.ok());
  ASSERT_EQ(remote_copy->row_count(), 1u);
  for (size_t c = 1; c < remote_copy->column_count(); ++c) {
    EXPECT_EQ(remote_copy->Value(0, c), remote_rows->Value(0, c)) << remote_rows->columns()[c].name;
  }
}

TEST_F(SessionConformanceTest, PreparedWithPositionalAndNamedValues) {
  Both("CREATE TABLE p (pk int, ck text, v int, PRIMARY KEY (pk, ck))");
  PreparedPair insert = PrepareBoth("INSERT INTO p (pk, ck, v) VALUES (?, ?, ?)");
  PreparedPair named = PrepareBoth("INSERT INTO p (pk, ck, v) VALUES (:pk, :ck, :value)");
  PreparedPair select = PrepareBoth("SELECT ck, v FROM p WHERE pk = ? AND ck >= ?");
  PreparedPair update = PrepareBoth("UPDATE p SET v = ? WHERE pk = ? AND ck = ?");
  QueryOptions options;
  for (int i = 0; i < 5; ++i) {
    options.values = {Int(1), Text("c" + std::to_string(i)), Int(i * 10)};
    ExecuteBoth(insert, options, "positional insert");
  }
  options.values = {Text("named"), Int(99), Int(2)};
  options.value_names = {"ck", "value", "pk"};
  ExecuteBoth(named, options, "named insert");
  options.value_names.clear();
  options.values = {Int(1), Text("c2")};
  ExecuteBoth(select, options, "select range");
  options.values = {Int(2), Text("")};
  ExecuteBoth(select, options, "select named row");
  options.values = {BoundValue::Null(), Int(1), Text("c1")};
  ExecuteBoth(update, options, "update to null");
  options.values = {BoundValue::Unset(), Int(1), Text("c3")};
  ExecuteBoth(update, options, "update unset");
  options.values = {Int(1), Text("c0")};
  ExecuteBoth(select, options, "select after updates");
  // Errors of bound values.
  options.values = {Int(1)};
  ExecuteBoth(select, options, "too few values");
  options.values = {Text("xyz"), Text("c0")};
  ExecuteBoth(select, options, "value of the wrong size");
  options.values = {BoundValue::Null(), Text("c0")};
  ExecuteBoth(select, options, "null partition key");
  PrepareBoth("SELECT nope FROM p");
  PrepareBoth("SELEC * FROM p");
}

TEST_F(SessionConformanceTest, PagingAtSeveralPageSizes) {
  Both("CREATE TABLE pg (pk int, ck int, v text, PRIMARY KEY (pk, ck))");
  PreparedPair insert = PrepareBoth("INSERT INTO pg (pk, ck, v) VALUES (?, ?, ?)");
  QueryOptions options;
  for (int pk = 0; pk < 5; ++pk) {
    for (int ck = 0; ck < 7; ++ck) {
      options.values = {Int(pk), Int(ck), Text(std::string(static_cast<size_t>(ck), 'x'))};
      ExecuteBoth(insert, options, "insert");
    }
  }
  for (int page_size : {1, 2, 3, 7, 10, 35, 100}) {
    ComparePages("SELECT * FROM pg", page_size);
    ComparePages("SELECT * FROM pg WHERE pk = 3", page_size);
    ComparePages("SELECT pk, ck FROM pg WHERE pk IN (1, 4) ORDER BY ck DESC", page_size);
  }
  ComparePages("SELECT count(*) FROM pg", 5);

  // Prepared statements page the same way, and resume from a remote paging state.
  PreparedPair select = PrepareBoth("SELECT * FROM pg WHERE pk = ?");
  QueryOptions a;
  a.values = {Int(2)};
  a.page_size = 3;
  QueryOptions b = a;
  for (int page = 0; page < 10; ++page) {
    Result<ResultSet> x = embedded_->ExecutePrepared(*select.embedded, a);
    Result<ResultSet> y = remote_->ExecutePrepared(*select.remote, b);
    ExpectSame(x, y, "prepared page " + std::to_string(page));
    if (!x.ok() || !y.ok() || !x->paging_state()) break;
    a.paging_state = x->paging_state();
    b.paging_state = y->paging_state();
  }

  // A paging state that is not one: the same error.
  QueryOptions bad;
  bad.page_size = 2;
  bad.paging_state = common::Bytes("garbage");
  Fails("SELECT * FROM pg", bad);

  // Transparent paging returns everything.
  QueryOptions all;
  all.page_size = 4;
  Result<ResultSet> everything = remote_->ExecuteAll("SELECT * FROM pg", all);
  ASSERT_TRUE(everything.ok()) << everything.status().ToString();
  EXPECT_EQ(everything->row_count(), 35u);
  EXPECT_FALSE(everything->paging_state());
  Result<ResultSet> unpaged = embedded_->Execute("SELECT * FROM pg");
  ASSERT_TRUE(unpaged.ok());
  ExpectSame(unpaged, everything, "ExecuteAll");
}

TEST_F(SessionConformanceTest, Batches) {
  Both("CREATE TABLE b (pk int, ck int, v text, PRIMARY KEY (pk, ck))");
  Both("CREATE TABLE c (pk int PRIMARY KEY, n counter)");
  PreparedPair insert = PrepareBoth("INSERT INTO b (pk, ck, v) VALUES (?, ?, ?)");
  PreparedPair count = PrepareBoth("UPDATE c SET n = n + ? WHERE pk = ?");
  ASSERT_TRUE(insert.embedded && count.embedded);

  auto run = [&](cql::BatchType type, bool with_prepared, const std::string& what,
                 const std::vector<std::pair<std::string, std::vector<BoundValue>>>& texts,
                 const std::vector<std::vector<BoundValue>>& prepared_values,
                 const PreparedPair& prepared, std::optional<int64_t> timestamp = std::nullopt) {
    cql::BatchRequest a;
    a.type = type;
    a.timestamp = timestamp;
    for (const auto& [query, values] : texts) a.entries.push_back({query, nullptr, values, {}});
    cql::BatchRequest b = a;
    if (with_prepared) {
      for (const auto& values : prepared_values) {
        a.entries.push_back({"", prepared.embedded, values, {}});
        b.entries.push_back({"", prepared.remote, values, {}});
      }
    }
    ExpectSame(embedded_->ExecuteBatch(a), remote_->ExecuteBatch(b), what);
  };
  run(cql::BatchType::kLogged, true, "logged",
      {{"INSERT INTO b (pk, ck, v) VALUES (1, 1, 'one')", {}},
       {"INSERT INTO b (pk, ck, v) VALUES (?, ?, ?)", {Int(2), Int(1), Text("two")}}},
      {{Int(1), Int(2), Text("p")}, {Int(3), Int(3), Text("q")}}, insert);
  run(cql::BatchType::kUnlogged, true, "unlogged with timestamp",
      {{"DELETE FROM b WHERE pk = 3 AND ck = 3", {}}}, {{Int(4), Int(4), Text("r")}}, insert,
      int64_t{1000});
  run(cql::BatchType::kCounter, true, "counter", {{"UPDATE c SET n = n + 5 WHERE pk = 1", {}}},
      {{BoundValue::Of(cql::SerializeBigint(3)), Int(1)},
       {BoundValue::Of(cql::SerializeBigint(-1)), Int(2)}},
      count);
  run(cql::BatchType::kLogged, false, "counter in a logged batch",
      {{"UPDATE c SET n = n + 1 WHERE pk = 1", {}}}, {}, count);
  run(cql::BatchType::kLogged, false, "select in a batch", {{"SELECT * FROM b", {}}}, {}, insert);
  Both("SELECT * FROM b");
  Both("SELECT * FROM c");
  Both("SELECT pk, ck, writetime(v) FROM b WHERE pk = 4");
  Both(
      "BEGIN BATCH INSERT INTO b (pk, ck, v) VALUES (9, 9, 'nine'); "
      "UPDATE b SET v = 'ten' WHERE pk = 9 AND ck = 10; APPLY BATCH");
  Both("SELECT * FROM b WHERE pk = 9");
}

TEST_F(SessionConformanceTest, LightweightTransactions) {
  Both("CREATE TABLE l (pk int, ck int, v text, PRIMARY KEY (pk, ck))");
  QueryOptions serial;
  serial.serial_consistency = cql::Consistency::kLocalSerial;
  Both("INSERT INTO l (pk, ck, v) VALUES (1, 1, 'a') IF NOT EXISTS", serial);
  Both("INSERT INTO l (pk, ck, v) VALUES (1, 1, 'b') IF NOT EXISTS", serial);
  Both("UPDATE l SET v = 'c' WHERE pk = 1 AND ck = 1 IF v = 'zzz'");
  Both("UPDATE l SET v = 'c' WHERE pk = 1 AND ck = 1 IF v = 'a'");
  Both("UPDATE l SET v = 'd' WHERE pk = 1 AND ck = 2 IF EXISTS");
  Both("DELETE FROM l WHERE pk = 1 AND ck = 1 IF v IN ('x', 'c')");
  Both("DELETE FROM l WHERE pk = 1 AND ck = 1 IF EXISTS");
  Both(
      "BEGIN BATCH INSERT INTO l (pk, ck, v) VALUES (2, 1, 'x') IF NOT EXISTS; "
      "INSERT INTO l (pk, ck, v) VALUES (2, 2, 'y') IF NOT EXISTS; APPLY BATCH");
  Both(
      "BEGIN BATCH UPDATE l SET v = 'z' WHERE pk = 2 AND ck = 1 IF v = 'nope'; "
      "INSERT INTO l (pk, ck, v) VALUES (2, 3, 'w'); APPLY BATCH");
  Fails(
      "BEGIN BATCH UPDATE l SET v = 'z' WHERE pk = 2 AND ck = 1 IF v = 'x'; "
      "INSERT INTO l (pk, ck, v) VALUES (3, 3, 'w') IF NOT EXISTS; APPLY BATCH");
  Both("SELECT * FROM l");
  QueryOptions bad_serial;
  bad_serial.serial_consistency = cql::Consistency::kQuorum;
  Both("INSERT INTO l (pk, ck, v) VALUES (5, 1, 'a') IF NOT EXISTS", bad_serial,
       /*must_succeed=*/false);
}

TEST_F(SessionConformanceTest, UseAndKeyspaces) {
  Both(
      "CREATE KEYSPACE other WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}");
  Both("CREATE TABLE other.t (k int PRIMARY KEY, v int)");
  Both("INSERT INTO other.t (k, v) VALUES (1, 2)");
  Fails("SELECT * FROM t");
  Both("USE other");
  EXPECT_EQ(remote_->keyspace(), "other");
  EXPECT_EQ(embedded_->keyspace(), "other");
  Both("SELECT * FROM t");
  Fails("USE missing");
  EXPECT_EQ(remote_->keyspace(), embedded_->keyspace());
  Both(
      "CREATE KEYSPACE \"Quoted\" WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}");
  Both("USE \"Quoted\"");
  Both("CREATE TABLE t (k int PRIMARY KEY)");
  Both("SELECT * FROM t");
  Both("SELECT keyspace_name, table_name FROM system_schema.tables WHERE keyspace_name = 'other'");
}

TEST_F(SessionConformanceTest, ErrorsKeepCodeAndMessage) {
  Both("CREATE TABLE e (pk int, ck int, v text, PRIMARY KEY (pk, ck))");
  for (const char* query : {
           "SELEC * FROM e",
           "SELECT * FROM missing",
           "SELECT nope FROM e",
           "CREATE TABLE e (k int PRIMARY KEY)",
           "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
           "'replication_factor': 1}",
           "INSERT INTO e (pk, v) VALUES (1, 'a')",
           "INSERT INTO e (pk, ck, v) VALUES (1, 1, 2)",
           "SELECT * FROM e WHERE v = 'a'",
           "SELECT * FROM e WHERE pk = 1 ORDER BY v",
           "UPDATE e SET pk = 2 WHERE pk = 1 AND ck = 1",
           "DROP TABLE nothing",
           "DROP KEYSPACE nothing",
           "SELECT * FROM e WHERE pk = ?",
       }) {
    Fails(query);
  }
}

TEST_F(SessionConformanceTest, SchemaChangeResults) {
  for (const char* query : {
           "CREATE TABLE s (k int PRIMARY KEY, v int)",
           "ALTER TABLE s ADD w text",
           "CREATE TABLE IF NOT EXISTS s (k int PRIMARY KEY)",
           "CREATE INDEX s_v ON s (v)",
           "DROP INDEX s_v",
           "CREATE TYPE pair (a int, b int)",
           "ALTER TYPE pair ADD c int",
           "DROP TYPE pair",
           "CREATE MATERIALIZED VIEW sv AS SELECT * FROM s WHERE v IS NOT NULL AND k IS NOT NULL "
           "PRIMARY KEY (v, k)",
           "DROP MATERIALIZED VIEW sv",
           "DROP TABLE s",
           "CREATE KEYSPACE k2 WITH replication = {'class': 'SimpleStrategy', "
           "'replication_factor': 1}",
           "ALTER KEYSPACE k2 WITH durable_writes = false",
           "DROP KEYSPACE k2",
           "DROP KEYSPACE IF EXISTS k2",
       }) {
    Both(query);
  }
}

TEST_F(SessionConformanceTest, ClientTimestampsAndConsistency) {
  Both("CREATE TABLE w (k int PRIMARY KEY, v int)");
  QueryOptions options;
  options.timestamp = 12345;
  options.consistency = cql::Consistency::kLocalQuorum;
  Both("INSERT INTO w (k, v) VALUES (1, 1)", options);
  options.timestamp = 100;  // older: loses
  Both("INSERT INTO w (k, v) VALUES (1, 2)", options);
  Both("SELECT k, v, writetime(v) FROM w");
  Both("INSERT INTO w (k, v) VALUES (2, 2) USING TIMESTAMP 777", options);
  Both("SELECT k, v, writetime(v) FROM w WHERE k = 2");
  QueryOptions all;
  all.consistency = cql::Consistency::kAll;
  Both("SELECT * FROM w", all);
}

TEST_F(SessionConformanceTest, PreparedSelectStarFollowsSchemaChanges) {
  // Protocol v5 (negotiated by default): the server flags Metadata_changed with the new
  // result_metadata_id, and the driver decodes with, and caches, the new columns.
  ASSERT_EQ(remote_->protocol_version(), 5);
  Both("CREATE TABLE m (k int PRIMARY KEY, a int)");
  Both("INSERT INTO m (k, a) VALUES (1, 10)");
  PreparedPair select = PrepareBoth("SELECT * FROM m WHERE k = ?");
  QueryOptions options;
  options.values = {Int(1)};
  ExecuteBoth(select, options, "before ALTER");
  Both("ALTER TABLE m ADD b text");
  Both("UPDATE m SET b = 'new' WHERE k = 1");
  ExecuteBoth(select, options, "after ALTER");
  ExecuteBoth(select, options, "after ALTER, cached metadata");
}

}  // namespace
}  // namespace client
