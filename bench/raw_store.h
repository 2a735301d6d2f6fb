// RawStore: the raw RocksDB baseline of the engine benchmarks (docs/benchmarks.md).
//
// A plain `rocksdb::DB` whose table column family carries the options `storage::Store` gives a
// table's family (store.cc: the row-fragment merge operator, the token prefix extractor,
// universal compaction, 10-bit Bloom filters, the default 8 MiB block cache), except the purge
// compaction filter (nothing is ever deleted in the benchmarks).
// Benchmarks write it with `Put` and read it with `Get` and iterators of the same key and
// value bytes the engine stores, so engine/raw is the engine's overhead over RocksDB itself.
//
// Also: `CompactDirectory` fully compacts a closed engine data directory (table families with
// the options above), so engine and raw are both measured in the steady state after a full
// compaction, with no background compaction running during a timed read.
//
// Thread-safety: RawStore is thread-safe (RocksDB is); it must outlive its iterators.

#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"

namespace rocksdb {
class DB;
class ColumnFamilyHandle;
}  // namespace rocksdb

namespace bench {

class RawStore {
 public:
  // Opens (creating) the database at `path`. `sync` fsyncs the write-ahead log on every write
  // (the engine's Durability::kBatch); otherwise the engine's kPeriodic.
  static common::Result<std::unique_ptr<RawStore>> Open(const std::string& path, bool sync);
  RawStore() = default;  // use Open
  ~RawStore();
  RawStore(const RawStore&) = delete;
  RawStore& operator=(const RawStore&) = delete;

  rocksdb::DB* db() const { return db_.get(); }
  // The table column family (options as above).
  rocksdb::ColumnFamilyHandle* table() const { return table_; }
  bool sync() const { return sync_; }

  // Flushes the memtable and compacts the whole table family into the bottom level; returns
  // when done.
  common::Status CompactAll();

  // Opens the closed engine data directory `path` (every column family, table families with
  // the options above), compacts each family fully, reads the values stored under `keys` in
  // family `family` (nullopt where there is none), and closes it.
  static common::Result<std::vector<std::optional<common::Bytes>>> CompactDirectory(
      const std::string& path, const std::string& family, std::span<const common::Bytes> keys);

 private:
  std::unique_ptr<rocksdb::DB> db_;
  rocksdb::ColumnFamilyHandle* table_ = nullptr;  // owned by db_ (destroyed before it closes)
  bool sync_ = false;
};

}  // namespace bench
