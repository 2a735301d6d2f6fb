#include "engine/database.h"

#include <atomic>
#include <filesystem>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/clock.h"
#include "cql/types/value_codec.h"
#include "engine/session_testing.h"
#include "engine/table_schema.h"
#include "storage/store.h"

namespace engine {
namespace {

class DatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "cqld-db-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
    Open();
  }
  void TearDown() override {
    session_.reset();
    db_.reset();
    std::filesystem::remove_all(directory_);
  }
  void Open(const DatabaseOptions& options = DatabaseOptions()) {
    session_.reset();
    db_.reset();
    auto db = Database::Open(directory_, options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    session_ = db_->NewSession();
  }
  void Run(std::string_view query) {
    auto result = session_->Execute(query);
    ASSERT_TRUE(result.ok()) << query << ": " << result.status().ToString();
  }
  cql::ResultSet Query(std::string_view query, const cql::QueryOptions& options = {}) {
    auto result = session_->Execute(query, options);
    EXPECT_TRUE(result.ok()) << query << ": " << result.status().ToString();
    return result.ok() ? std::move(result).value() : cql::ResultSet();
  }

  std::string directory_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<cql::Session> session_;
};

TEST_F(DatabaseTest, SchemaAndDataSurviveRestart) {
  Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  Run("CREATE TYPE ks.addr (city text)");
  Run("CREATE TABLE ks.t (k int, c int, v frozen<addr>, PRIMARY KEY (k, c)) WITH CLUSTERING "
      "ORDER BY (c DESC)");
  Run("INSERT INTO ks.t (k, c, v) VALUES (1, 1, {city: 'Paris'})");
  Run("INSERT INTO ks.t (k, c, v) VALUES (1, 2, {city: 'Rome'})");
  common::Uuid version = db_->catalog()->schema_version();
  Open();
  EXPECT_EQ(db_->catalog()->schema_version(), version);
  cql::ResultSet rows = Query("SELECT c, v.city FROM ks.t WHERE k = 1");
  ASSERT_EQ(rows.row_count(), 2u);
  EXPECT_EQ(*rows.GetInteger(0, 0), 2);
  EXPECT_EQ(*rows.GetText(0, 1), "Rome");
  EXPECT_EQ(*rows.GetText(1, 1), "Paris");
  Run("DROP TABLE ks.t");
  Open();
  EXPECT_FALSE(session_->Execute("SELECT * FROM ks.t").ok());
}

// Bulk-load durability (`hotel load`): the schema goes through the write-ahead log, the rows
// do not, and closing the database flushes them, so all of it is there on the next open.
TEST_F(DatabaseTest, BulkLoadRowsSkipTheLogAndSurviveClose) {
  DatabaseOptions bulk;
  bulk.durability = DatabaseOptions::Durability::kBulkLoad;
  Open(bulk);
  Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  Run("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))");
  auto log_bytes = [&] {
    uint64_t bytes = 0;
    for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
      if (entry.path().extension() == ".log") bytes += entry.file_size();
    }
    return bytes;
  };
  const uint64_t before = log_bytes();
  const std::string value(1000, 'v');
  for (int c = 0; c < 1000; ++c) {
    Run(fmt::format("INSERT INTO ks.t (k, c, v) VALUES (1, {}, '{}')", c, value));
  }
  EXPECT_LT(log_bytes() - before, 100'000u) << "the rows went through the log";
  Open();
  cql::ResultSet rows = Query("SELECT count(*) FROM ks.t WHERE k = 1");
  ASSERT_EQ(rows.row_count(), 1u);
  EXPECT_EQ(*rows.GetInteger(0, 0), 1000);
}

TEST_F(DatabaseTest, OpenGivesOldFamiliesTheirKeyShape) {
  Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c)) WITH gc_grace_seconds = 50");
  Run("CREATE INDEX v_idx ON ks.t (v)");
  Run("CREATE MATERIALIZED VIEW ks.mv AS SELECT * FROM ks.t WHERE v IS NOT NULL AND k IS NOT "
      "NULL AND c IS NOT NULL PRIMARY KEY (v, k, c)");
  std::shared_ptr<const schema::Catalog> catalog = db_->catalog();
  const schema::TableMetadata* table = catalog->FindTable("ks", "t");
  ASSERT_NE(table, nullptr);
  const schema::KeyspaceMetadata* keyspace = catalog->FindKeyspace("ks");
  ASSERT_NE(keyspace, nullptr);
  std::vector<const schema::TableMetadata*> views = keyspace->ViewsOf(table->id);
  ASSERT_EQ(views.size(), 1u);
  std::string table_id = StorageId(table->id);
  std::string view_id = StorageId(views[0]->id);
  std::string index_id = StorageId(table->indexes.at("v_idx").id);
  session_.reset();
  db_.reset();

  // Rewrite the families' options as version 1 stored them: gc_grace only.
  common::SystemClock clock;
  auto open_store = [&]() {
    auto store = storage::Store::Open(directory_, storage::StoreOptions{&clock});
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::move(store).value() : nullptr;
  };
  {
    std::unique_ptr<storage::Store> store = open_store();
    ASSERT_NE(store, nullptr);
    for (const std::string& id : {table_id, view_id, index_id}) {
      ASSERT_TRUE(store->AlterTable(id, storage::TableOptions{.gc_grace_seconds = 50}).ok());
      auto options = store->TableOptionsOf(id);
      ASSERT_TRUE(options.ok());
      EXPECT_FALSE(options->shape.has_value());
    }
  }
  Open();
  session_.reset();
  db_.reset();
  std::unique_ptr<storage::Store> store = open_store();
  ASSERT_NE(store, nullptr);
  auto stored = store->TableOptionsOf(table_id);
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->gc_grace_seconds, 50);
  ASSERT_TRUE(stored->shape.has_value());
  EXPECT_EQ(*stored->shape, TableSchema(table).shape);
  auto view = store->TableOptionsOf(view_id);
  ASSERT_TRUE(view.ok());
  ASSERT_TRUE(view->shape.has_value());
  EXPECT_EQ(*view->shape, TableSchema(views[0]).shape);
  auto index = store->TableOptionsOf(index_id);
  ASSERT_TRUE(index.ok());
  EXPECT_FALSE(index->shape.has_value());
  EXPECT_TRUE(index->row_entries_only);
}

TEST_F(DatabaseTest, PartitionDeletionsOfTablesWithoutClustering) {
  Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int) WITH gc_grace_seconds = 50");
  Run("CREATE TABLE ks.legacy (k int PRIMARY KEY, v int)");
  for (const char* table : {"t", "legacy"}) {
    for (int k = 1; k <= 3; ++k) {
      Run(fmt::format("INSERT INTO ks.{} (k, v) VALUES ({}, {}) USING TIMESTAMP 10", table, k, k));
    }
  }
  Run("DELETE FROM ks.t USING TIMESTAMP 20 WHERE k = 1");
  std::string t_id = StorageId(db_->catalog()->FindTable("ks", "t")->id);
  const schema::TableMetadata* legacy = db_->catalog()->FindTable("ks", "legacy");
  std::string legacy_id = StorageId(legacy->id);
  TableSchema legacy_schema(legacy);
  session_.reset();
  db_.reset();
  {
    // `t` is a new family: single_row_partitions, and its DELETE wrote no partition entry.
    // Make `legacy` a family from before that flag, holding a partition deletion entry.
    common::SystemClock clock;
    auto store = storage::Store::Open(directory_, storage::StoreOptions{&clock});
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    auto options = (*store)->TableOptionsOf(t_id);
    ASSERT_TRUE(options.ok());
    EXPECT_TRUE(options->single_row_partitions);
    auto scan = (*store)->NewIterator(t_id, storage::KeyRange{"", ""});
    ASSERT_TRUE(scan.ok());
    int entries = 0;
    for ((*scan)->SeekToFirst(); (*scan)->Valid(); (*scan)->Next()) ++entries;
    EXPECT_EQ(entries, 3);  // three row entries, one of them deleted
    auto legacy_options = (*store)->TableOptionsOf(legacy_id);
    ASSERT_TRUE(legacy_options.ok());
    legacy_options->single_row_partitions = false;
    ASSERT_TRUE((*store)->AlterTable(legacy_id, *legacy_options).ok());
    std::vector<common::Bytes> pk = {cql::SerializeInt(2)};
    storage::RowFragment deletion;
    deletion.deletion = storage::DeletionTime{20, 0};
    storage::WriteBatch batch;
    batch.Merge(legacy_id,
                storage::PartitionDeletionKey(storage::PartitionPrefix(legacy_schema.shape, pk)),
                deletion);
    ASSERT_TRUE((*store)->Write(batch).ok());
  }
  Open();
  EXPECT_EQ(Query("SELECT k FROM ks.t WHERE k = 1").row_count(), 0u);
  EXPECT_EQ(Query("SELECT k FROM ks.t").row_count(), 2u);
  // The legacy family's partition deletion still applies to point reads and scans, and the
  // flag is not added when the gc_grace of the table changes.
  EXPECT_EQ(Query("SELECT k FROM ks.legacy WHERE k = 2").row_count(), 0u);
  EXPECT_EQ(Query("SELECT k FROM ks.legacy WHERE k = 3").row_count(), 1u);
  EXPECT_EQ(Query("SELECT k FROM ks.legacy").row_count(), 2u);
  Run("ALTER TABLE ks.legacy WITH gc_grace_seconds = 60");
  Open();
  EXPECT_EQ(Query("SELECT k FROM ks.legacy WHERE k = 2").row_count(), 0u);
}

TEST_F(DatabaseTest, PagingResumesExactlyAtEveryPageSize) {
  Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  Run("CREATE TABLE ks.w (k int, c int, v int, PRIMARY KEY (k, c))");
  constexpr int kPartitions = 4;
  constexpr int kRows = 9;
  for (int k = 0; k < kPartitions; ++k) {
    for (int c = 0; c < kRows; ++c) {
      Run("INSERT INTO ks.w (k, c, v) VALUES (" + std::to_string(k) + ", " + std::to_string(c) +
          ", 0)");
    }
  }
  struct Case {
    std::string query;
    int expected;
  };
  std::vector<Case> cases = {{"SELECT k, c FROM ks.w", kPartitions * kRows},
                             {"SELECT k, c FROM ks.w WHERE k = 2", kRows},
                             {"SELECT k, c FROM ks.w WHERE k = 2 ORDER BY c DESC", kRows},
                             {"SELECT k, c FROM ks.w WHERE k IN (1, 3) AND c > 3", 10},
                             {"SELECT k, c FROM ks.w PER PARTITION LIMIT 2", kPartitions * 2},
                             {"SELECT k, c FROM ks.w LIMIT 7", 7}};
  for (const Case& test : cases) {
    cql::ResultSet all = Query(test.query);
    ASSERT_EQ(static_cast<int>(all.row_count()), test.expected) << test.query;
    for (int page_size = 1; page_size <= test.expected + 1; ++page_size) {
      cql::QueryOptions options;
      options.page_size = page_size;
      std::vector<std::pair<int64_t, int64_t>> seen;
      for (int pages = 0; pages < 100; ++pages) {
        cql::ResultSet page = Query(test.query, options);
        ASSERT_LE(static_cast<int>(page.row_count()), page_size);
        for (size_t r = 0; r < page.row_count(); ++r) {
          seen.emplace_back(*page.GetInteger(r, 0), *page.GetInteger(r, 1));
        }
        if (!page.paging_state()) break;
        options.paging_state = page.paging_state();
      }
      ASSERT_EQ(static_cast<int>(seen.size()), test.expected)
          << test.query << " page size " << page_size;
      for (size_t i = 0; i < seen.size(); ++i) {
        EXPECT_EQ(seen[i].first, *all.GetInteger(i, 0)) << test.query << " row " << i;
        EXPECT_EQ(seen[i].second, *all.GetInteger(i, 1)) << test.query << " row " << i;
      }
    }
  }
}

TEST_F(DatabaseTest, TamperedPagingStateIsInvalid) {
  Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  Run("CREATE TABLE ks.t (k int PRIMARY KEY)");
  Run("INSERT INTO ks.t (k) VALUES (1)");
  Run("INSERT INTO ks.t (k) VALUES (2)");
  testing::ExpectTamperedPagingStatesRejected(session_.get(), "SELECT k FROM ks.t", 1);
}

TEST_F(DatabaseTest, ConcurrentLightweightTransactionsApplyExactlyOnce) {
  Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  Run("CREATE TABLE ks.seats (seat int PRIMARY KEY, owner int, version int)");
  constexpr int kThreads = 8;
  constexpr int kSeats = 20;
  std::atomic<int> claimed{0};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t]() {
      auto session = db_->NewSession();
      for (int seat = 0; seat < kSeats; ++seat) {
        auto result = session->Execute("INSERT INTO ks.seats (seat, owner, version) VALUES (" +
                                       std::to_string(seat) + ", " + std::to_string(t) +
                                       ", 0) IF NOT EXISTS");
        if (!result.ok()) {
          ++errors;
          continue;
        }
        if (*result->GetBoolean(0, 0)) ++claimed;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(claimed.load(), kSeats);

  // Compare-and-set increments: every successful update moves version by exactly one.
  std::atomic<int> applied{0};
  threads.clear();
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&]() {
      auto session = db_->NewSession();
      for (int attempt = 0; attempt < 25; ++attempt) {
        auto current = session->Execute("SELECT version FROM ks.seats WHERE seat = 0");
        if (!current.ok()) continue;
        int64_t version = *current->GetInteger(0, 0);
        auto result =
            session->Execute("UPDATE ks.seats SET version = " + std::to_string(version + 1) +
                             " WHERE seat = 0 IF version = " + std::to_string(version));
        if (result.ok() && *result->GetBoolean(0, 0)) ++applied;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  cql::ResultSet final_version = Query("SELECT version FROM ks.seats WHERE seat = 0");
  EXPECT_EQ(*final_version.GetInteger(0, 0), applied.load());
}

}  // namespace
}  // namespace engine
