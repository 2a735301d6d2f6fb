// TRUNCATE, DROP TABLE and DROP KEYSPACE give the disk space back: a few MB of incompressible
// data are written and flushed, then removed, and the size of the data directory is compared
// with what it was before the data existed. Also checks that the table's column family is
// gone from (DROP) or empty in (TRUNCATE) the raw store after a restart.

#include <algorithm>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "cql/types/value_codec.h"
#include "engine/durability_testing.h"

namespace engine {
namespace {

using testing::DatabaseFixture;
using testing::DirectorySize;
using testing::RawTableStats;
using testing::ScanRawTable;
using testing::TableStorageId;

constexpr int kRows = 4000;
constexpr int kValueBytes = 1000;
constexpr uint64_t kDataBytes = static_cast<uint64_t>(kRows) * kValueBytes;  // ~4 MB
// What may remain once the data is gone: RocksDB's MANIFEST, OPTIONS and info LOG files
// grow a little with each open and DDL. Far below the data size.
constexpr uint64_t kSlackBytes = uint64_t{512} * 1024;

class ReclaimTest : public DatabaseFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(DatabaseFixture::SetUp());
    ASSERT_NO_FATAL_FAILURE(CreateKeyspace());
  }

  // Inserts kRows rows of kValueBytes random (so incompressible) bytes into `table`
  // (k int PRIMARY KEY, v blob), with a fixed seed.
  void Fill(std::string_view table) {
    auto prepared =
        session_->Prepare("INSERT INTO " + std::string(table) + " (k, v) VALUES (?, ?)");
    ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
    std::mt19937_64 random(42);
    for (int k = 0; k < kRows; ++k) {
      common::Bytes value(kValueBytes, '\0');
      for (char& byte : value) byte = static_cast<char>(random());
      cql::QueryOptions options;
      options.values = {cql::BoundValue::Of(cql::SerializeInt(k)),
                        cql::BoundValue::Of(std::move(value))};
      auto result = session_->ExecutePrepared(**prepared, options);
      ASSERT_TRUE(result.ok()) << result.status().ToString();
    }
  }
  // Closes the database, flushes the memtables of `storage_ids` to files through the raw
  // store (so the data lives in SST files, not only in the write-ahead log), and reopens.
  void FlushThroughRawStore(const std::vector<std::string>& storage_ids) {
    Close();
    {
      std::unique_ptr<storage::Store> store = OpenRawStore();
      ASSERT_NE(store, nullptr);
      for (const std::string& id : storage_ids) ASSERT_TRUE(store->FlushTable(id).ok()) << id;
    }
    ASSERT_NO_FATAL_FAILURE(Open());
  }
  // Directory size with the database closed (every file handle released), then reopened.
  uint64_t ClosedSize() {
    Close();
    uint64_t size = DirectorySize(directory_.path());
    Open();
    return size;
  }
  // The table ids of the raw store (database closed, then reopened).
  std::vector<std::string> RawTableIds() {
    Close();
    std::vector<std::string> ids;
    {
      std::unique_ptr<storage::Store> store = OpenRawStore();
      if (store != nullptr) ids = store->TableIds();
    }
    Open();
    return ids;
  }
  // Fills ks.t (k int PRIMARY KEY, v blob) without flushing, runs `statement` (which removes
  // ks.t's data), restarts, and expects the directory back near its size before the data.
  void ExpectUnflushedDataReclaimedAfter(std::string_view statement) {
    Run("CREATE TABLE ks.t (k int PRIMARY KEY, v blob)");
    uint64_t empty = ClosedSize();
    ASSERT_NO_FATAL_FAILURE(Fill("ks.t"));
    uint64_t full = DirectorySize(directory_.path());
    ASSERT_GE(full, empty + kDataBytes * 9 / 10) << "the write-ahead log should hold the data";
    Run(statement);
    ASSERT_NO_FATAL_FAILURE(Open());  // restart
    uint64_t after = ClosedSize();
    EXPECT_LT(after, empty + kSlackBytes) << "empty " << empty << ", full " << full << ", after "
                                          << statement << " and a restart " << after;
  }
  static bool Contains(const std::vector<std::string>& ids, const std::string& id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
  }
};

TEST_F(ReclaimTest, TruncateOfFlushedDataGivesTheSpaceBack) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v blob)");
  Run("CREATE TABLE ks.other (k int PRIMARY KEY, v int)");
  Run("INSERT INTO ks.other (k, v) VALUES (1, 1)");
  uint64_t empty = ClosedSize();
  ASSERT_NO_FATAL_FAILURE(Fill("ks.t"));
  std::string id = TableStorageId(*db_, "ks", "t");
  ASSERT_NO_FATAL_FAILURE(FlushThroughRawStore({id}));
  uint64_t full = ClosedSize();
  ASSERT_GE(full, empty + kDataBytes * 9 / 10) << "the data did not reach the disk";

  Run("TRUNCATE ks.t");
  EXPECT_EQ(Query("SELECT k FROM ks.t").row_count(), 0u);
  EXPECT_EQ(Query("SELECT k FROM ks.t WHERE k = 7").row_count(), 0u);
  uint64_t open_after = DirectorySize(directory_.path());
  EXPECT_LT(open_after, empty + kSlackBytes)
      << "while open: empty " << empty << ", full " << full << ", after TRUNCATE " << open_after;
  uint64_t closed_after = ClosedSize();
  EXPECT_LT(closed_after, empty + kSlackBytes) << "after restart: empty " << empty << ", full "
                                               << full << ", after TRUNCATE " << closed_after;

  // The table is still there, empty, and usable; the other table is untouched.
  std::vector<std::string> ids = RawTableIds();
  EXPECT_TRUE(Contains(ids, id));
  EXPECT_EQ(RawStats(id).entries, 0);
  Run("INSERT INTO ks.t (k, v) VALUES (1, 0x01)");
  EXPECT_EQ(Query("SELECT k FROM ks.t").row_count(), 1u);
  EXPECT_EQ(Query("SELECT k FROM ks.other").row_count(), 1u);
}

// Data that only ever lived in the memtable and the write-ahead log: `statement` hides it at
// once, and after a restart the log that held it must be gone too (RocksDB replays it,
// skipping the dropped column family; nothing else needs it).
TEST_F(ReclaimTest, TruncateOfUnflushedDataGivesTheSpaceBackAfterRestart) {
  ExpectUnflushedDataReclaimedAfter("TRUNCATE ks.t");
  EXPECT_EQ(Query("SELECT k FROM ks.t").row_count(), 0u);
}

TEST_F(ReclaimTest, DropTableOfUnflushedDataGivesTheSpaceBackAfterRestart) {
  ExpectUnflushedDataReclaimedAfter("DROP TABLE ks.t");
}

TEST_F(ReclaimTest, DropKeyspaceOfUnflushedDataGivesTheSpaceBackAfterRestart) {
  ExpectUnflushedDataReclaimedAfter("DROP KEYSPACE ks");
}

TEST_F(ReclaimTest, DropTableRemovesItsColumnFamilyAndGivesTheSpaceBack) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v blob)");
  uint64_t empty = ClosedSize();
  ASSERT_NO_FATAL_FAILURE(Fill("ks.t"));
  std::string id = TableStorageId(*db_, "ks", "t");
  ASSERT_NO_FATAL_FAILURE(FlushThroughRawStore({id}));
  uint64_t full = ClosedSize();
  ASSERT_GE(full, empty + kDataBytes * 9 / 10);
  ASSERT_TRUE(Contains(RawTableIds(), id));

  Run("DROP TABLE ks.t");
  uint64_t open_after = DirectorySize(directory_.path());
  EXPECT_LT(open_after, empty + kSlackBytes)
      << "while open: empty " << empty << ", full " << full << ", after DROP " << open_after;
  EXPECT_FALSE(Contains(RawTableIds(), id));
  uint64_t closed_after = ClosedSize();
  EXPECT_LT(closed_after, empty + kSlackBytes)
      << "after restart: empty " << empty << ", full " << full << ", after DROP " << closed_after;

  // A new table of the same name starts empty (its own column family).
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v blob)");
  EXPECT_NE(TableStorageId(*db_, "ks", "t"), id);
  EXPECT_EQ(Query("SELECT k FROM ks.t").row_count(), 0u);
}

TEST_F(ReclaimTest, DropKeyspaceRemovesEveryTableAndGivesTheSpaceBack) {
  Run("CREATE TABLE ks.a (k int PRIMARY KEY, v blob)");
  Run("CREATE TABLE ks.b (k int PRIMARY KEY, v blob)");
  ASSERT_NO_FATAL_FAILURE(CreateKeyspace("keep"));
  Run("CREATE TABLE keep.t (k int PRIMARY KEY, v int)");
  Run("INSERT INTO keep.t (k, v) VALUES (1, 1)");
  uint64_t empty = ClosedSize();
  ASSERT_NO_FATAL_FAILURE(Fill("ks.a"));
  ASSERT_NO_FATAL_FAILURE(Fill("ks.b"));
  std::string a = TableStorageId(*db_, "ks", "a");
  std::string b = TableStorageId(*db_, "ks", "b");
  std::string kept = TableStorageId(*db_, "keep", "t");
  ASSERT_NO_FATAL_FAILURE(FlushThroughRawStore({a, b}));
  uint64_t full = ClosedSize();
  ASSERT_GE(full, empty + 2 * kDataBytes * 9 / 10);

  Run("DROP KEYSPACE ks");
  uint64_t open_after = DirectorySize(directory_.path());
  EXPECT_LT(open_after, empty + kSlackBytes)
      << "while open: empty " << empty << ", full " << full << ", after DROP " << open_after;
  std::vector<std::string> ids = RawTableIds();
  EXPECT_FALSE(Contains(ids, a));
  EXPECT_FALSE(Contains(ids, b));
  EXPECT_TRUE(Contains(ids, kept));
  uint64_t closed_after = ClosedSize();
  EXPECT_LT(closed_after, empty + kSlackBytes)
      << "after restart: empty " << empty << ", full " << full << ", after DROP " << closed_after;
  EXPECT_EQ(Query("SELECT k FROM keep.t").row_count(), 1u);
  EXPECT_FALSE(session_->Execute("SELECT k FROM ks.a").ok());
}

}  // namespace
}  // namespace engine
