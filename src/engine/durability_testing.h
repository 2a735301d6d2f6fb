// Test helpers for the engine's durability, TTL and reclaim tests (ttl_test.cc,
// reclaim_test.cc, crash_test.cc): a scratch data directory, its size on disk, an embedded
// database fixture driven by an optional manual clock, and a census of the raw RocksDB entries
// of one table, read through `storage::Store` after the `Database` is closed.
//
// Only *_test.cc files include this header.
//
// Thread-safety: not thread-safe; each helper belongs to one test.

#pragma once

#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>

#include <gtest/gtest.h>

#include "common/clock.h"
#include "engine/database.h"
#include "engine/table_schema.h"
#include "storage/store.h"

namespace engine::testing {

// A fresh directory under the system temp directory, removed with everything in it when the
// object dies. `path()` is empty if mkdtemp failed (the constructor records a test failure).
class ScratchDirectory {
 public:
  explicit ScratchDirectory(std::string_view prefix) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / (std::string(prefix) + "-XXXXXX")).string();
    if (mkdtemp(pattern.data()) == nullptr) {
      ADD_FAILURE() << "mkdtemp failed for " << pattern;
      return;
    }
    path_ = pattern;
  }
  ~ScratchDirectory() {
    if (path_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Sum of the sizes of the regular files under `directory` (recursively), in bytes: what the
// data directory costs on disk (RocksDB's SST files, write-ahead logs, MANIFEST, info logs).
inline uint64_t DirectorySize(const std::string& directory) {
  uint64_t total = 0;
  std::error_code error;
  for (std::filesystem::recursive_directory_iterator it(directory, error), end; !error && it != end;
       it.increment(error)) {
    std::error_code size_error;
    if (it->is_regular_file(size_error)) {
      uintmax_t size = it->file_size(size_error);
      if (!size_error) total += size;
    }
  }
  return total;
}

// The storage id (column family) of table `keyspace.table` in `database`'s catalogue, or ""
// (with a test failure) when there is no such table.
inline std::string TableStorageId(const Database& database, std::string_view keyspace,
                                  std::string_view table) {
  const schema::TableMetadata* metadata = database.catalog()->FindTable(keyspace, table);
  if (metadata == nullptr) {
    ADD_FAILURE() << "no table " << keyspace << "." << table;
    return "";
  }
  return StorageId(metadata->id);
}

// What the raw entries of one column family hold, merged as a read sees them (before any
// read-time expiry or shadowing by the engine).
struct RawTableStats {
  int entries = 0;               // RocksDB keys
  int liveness_markers = 0;      // rows with an INSERT's primary-key marker
  int row_deletions = 0;         // partition, range or row tombstones (fragment deletions)
  int collection_deletions = 0;  // per-column collection tombstones
  int live_cells = 0;
  int expiring_cells = 0;
  int tombstone_cells = 0;

  // Every kind of tombstone the compaction filter may purge.
  int tombstones() const { return row_deletions + collection_deletions + tombstone_cells; }
};

inline std::ostream& operator<<(std::ostream& out, const RawTableStats& stats) {
  return out << "{entries " << stats.entries << ", markers " << stats.liveness_markers
             << ", row deletions " << stats.row_deletions << ", collection deletions "
             << stats.collection_deletions << ", live " << stats.live_cells << ", expiring "
             << stats.expiring_cells << ", tombstone cells " << stats.tombstone_cells << "}";
}

// Scans every entry of `table_id` in `store`. Errors: NotFound for an unknown table, the
// iterator's error, or Corruption for an entry that does not decode.
inline common::Result<RawTableStats> ScanRawTable(const storage::Store& store,
                                                  std::string_view table_id) {
  ASSIGN_OR_RETURN(std::unique_ptr<storage::FragmentIterator> it,
                   store.NewIterator(table_id, storage::KeyRange{}));
  RawTableStats stats;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    ASSIGN_OR_RETURN(storage::RowFragment fragment, it->fragment());
    ++stats.entries;
    if (fragment.liveness) ++stats.liveness_markers;
    if (fragment.deletion) ++stats.row_deletions;
    stats.collection_deletions += static_cast<int>(fragment.collection_deletions.size());
    for (const storage::Cell& cell : fragment.cells) {
      switch (cell.kind) {
        case storage::CellKind::kLive:
          ++stats.live_cells;
          break;
        case storage::CellKind::kExpiring:
          ++stats.expiring_cells;
          break;
        case storage::CellKind::kTombstone:
          ++stats.tombstone_cells;
          break;
      }
    }
  }
  RETURN_IF_ERROR(it->status());
  return stats;
}

// A test fixture owning a scratch directory and an embedded Database on it, opened with the
// manual clock `clock_` (starting at kStartMicros) and the durability mode `durability_`.
class DatabaseFixture : public ::testing::Test {
 protected:
  // 2025-01-01T00:00:00Z: a whole second, so TTL arithmetic in tests is exact.
  static constexpr int64_t kStartMicros = 1'735'689'600LL * 1'000'000;

  DatabaseFixture() : directory_("cqld-durability"), clock_(kStartMicros) {}

  void SetUp() override { ASSERT_NO_FATAL_FAILURE(Open()); }
  void TearDown() override { Close(); }

  // (Re)opens the database on the directory.
  void Open() {
    Close();
    DatabaseOptions options;
    options.clock = &clock_;
    options.durability = durability_;
    auto db = Database::Open(directory_.path(), options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    session_ = db_->NewSession();
  }
  void Close() {
    session_.reset();
    db_.reset();
  }
  // Opens the raw store of the (closed) database directory with the same clock.
  std::unique_ptr<storage::Store> OpenRawStore() {
    EXPECT_EQ(db_, nullptr) << "close the Database first";
    storage::StoreOptions options;
    options.clock = &clock_;
    options.create_if_missing = false;
    auto store = storage::Store::Open(directory_.path(), options);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::move(store).value() : nullptr;
  }

  // Raw entry statistics of the table family `storage_id`, without compacting: the database
  // is closed, the raw store read, and the database reopened.
  RawTableStats RawStats(const std::string& storage_id) {
    Close();
    RawTableStats stats;
    {
      std::unique_ptr<storage::Store> store = OpenRawStore();
      if (store != nullptr) {
        auto scanned = ScanRawTable(*store, storage_id);
        EXPECT_TRUE(scanned.ok()) << scanned.status().ToString();
        if (scanned.ok()) stats = *scanned;
      }
    }
    Open();
    return stats;
  }

  void Run(std::string_view query) {
    auto result = session_->Execute(query);
    ASSERT_TRUE(result.ok()) << query << ": " << result.status().ToString();
  }
  cql::ResultSet Query(std::string_view query) {
    auto result = session_->Execute(query);
    EXPECT_TRUE(result.ok()) << query << ": " << result.status().ToString();
    return result.ok() ? std::move(result).value() : cql::ResultSet();
  }
  // The status of running `query` (for expected errors).
  common::Status Fail(std::string_view query) {
    auto result = session_->Execute(query);
    return result.ok() ? common::Status::Ok() : result.status();
  }
  void AdvanceSeconds(double seconds) {
    clock_.AdvanceMicros(static_cast<int64_t>(seconds * 1'000'000));
  }
  void CreateKeyspace(std::string_view name = "ks") {
    Run("CREATE KEYSPACE " + std::string(name) +
        " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  }

  ScratchDirectory directory_;
  common::ManualClock clock_;
  DatabaseOptions::Durability durability_ = DatabaseOptions::Durability::kPeriodic;
  std::unique_ptr<Database> db_;
  std::unique_ptr<cql::Session> session_;
};

}  // namespace engine::testing
