// Store statistics: what RocksDB knows about the store and each table, as plain values for the
// engine's `TableStatistics` (nodetool tablestats / tablehistograms) and /metrics
// (docs/operations.md §4). `Store::Statistics` and `Store::TableStatistics` fill them; the
// functions below are their RocksDB side, kept out of store.cc.
//
// Costs: everything is read when asked (RocksDB properties, the statistics object's tickers,
// the table properties of live SST files, which RocksDB keeps cached for open files); nothing
// here is on the write or read path except `rocksdb::Statistics` itself, kept at
// `kExceptTimers`: tickers, no timers or histograms (docs/benchmarks.md has the measured write
// overhead).
//
// Thread-safety: plain values; the functions are thread-safe (RocksDB's are).

#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "storage/partition_statistics.h"

namespace rocksdb {
class ColumnFamilyHandle;
class DB;
class EventListener;
class Statistics;
}  // namespace rocksdb

namespace storage {

// One table column family.
struct TableStorageStatistics {
  uint64_t live_sstable_count = 0;
  std::vector<uint64_t> sstables_per_level;  // index: level; trailing empty levels dropped
  uint64_t live_sstable_bytes = 0;           // files of the current version
  uint64_t total_sstable_bytes = 0;          // also files still held by snapshots/iterators
  uint64_t memtable_bytes = 0;               // active + immutable memtables
  uint64_t memtable_entries = 0;             // entries (merge operands included) in them
  uint64_t estimated_keys = 0;               // RocksDB's estimate of distinct keys
  uint64_t sstable_entries = 0;              // entries in the live files
  uint64_t sstable_deletions = 0;            // deletion entries in the live files
  uint64_t bloom_filter_bytes = 0;           // filter blocks of the live files
  uint64_t index_bytes = 0;                  // index blocks of the live files
  uint64_t data_bytes = 0;                   // data blocks (compressed) of the live files
  uint64_t raw_bytes = 0;                    // keys + values before compression
  uint64_t pending_compaction_bytes = 0;     // RocksDB's estimate of bytes to rewrite
  bool compaction_pending = false;           // a compaction is due
  bool flush_pending = false;                // a memtable flush is due
  // Partitions of the live files (partition_statistics.h: an estimate).
  PartitionDistribution partitions;
  // Live files whose properties hold no partition statistics (written before they existed,
  // or a family without a key shape).
  uint64_t sstables_without_partition_statistics = 0;
};

// The whole store.
struct StoreStatistics {
  uint64_t block_cache_capacity_bytes = 0;  // 0 without a shared cache
  uint64_t block_cache_usage_bytes = 0;
  uint64_t block_cache_pinned_bytes = 0;
  uint64_t block_cache_hits = 0;  // since open
  uint64_t block_cache_misses = 0;
  uint64_t bytes_written = 0;  // through the write path (WAL + memtable), since open
  uint64_t bytes_read = 0;     // by point lookups and iterators, since open
  uint64_t flush_bytes_written = 0;
  uint64_t compaction_bytes_read = 0;
  uint64_t compaction_bytes_written = 0;
  uint64_t write_stall_micros = 0;  // time writes were delayed or stopped, since open
  uint64_t wal_bytes = 0;           // write-ahead log files in the directory
  uint64_t running_compactions = 0;
  uint64_t running_flushes = 0;
  // RocksDB's background thread pools (the Env's, shared by the process's RocksDB instances):
  // threads in each, and jobs queued for a thread.
  uint64_t flush_threads = 0;       // the HIGH priority pool
  uint64_t compaction_threads = 0;  // the LOW priority pool
  uint64_t flushes_queued = 0;
  uint64_t compactions_queued = 0;
  uint64_t disk_free_bytes = 0;   // at the last probe (disk_space.h)
  uint64_t disk_floor_bytes = 0;  // free-space floor (0: off)
  bool read_only = false;
};

// ks/table names of table ids for the large-partition warning, set by the engine.
// Thread-safe.
class TableDisplayNames {
 public:
  void Set(std::map<std::string, std::string, std::less<>> names);
  // "ks/table", or the id itself when unknown.
  std::string Get(std::string_view table_id) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::string, std::less<>> names_;  // GUARDED_BY(mutex_)
};

// The RocksDB side of Store::TableStatistics.
TableStorageStatistics CollectTableStatistics(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* family);
// The RocksDB side of Store::Statistics: the cache, the tickers, running jobs and WAL files.
void CollectStoreStatistics(rocksdb::DB* db, const rocksdb::Statistics* statistics,
                            const std::string& path, StoreStatistics* out);
// The statistics object a Store's RocksDB instances share (kExceptTimers).
std::shared_ptr<rocksdb::Statistics> NewStoreStatistics();

// Logs Cassandra's warning for every large partition a new SST file recorded
// (partition_statistics.h): "Writing large partition ks/table:key (size) to sstable FILE".
// It takes no store lock (RocksDB may call it while a Store call holding one waits for a flush).
std::shared_ptr<rocksdb::EventListener> NewLargePartitionListener(
    std::shared_ptr<const TableDisplayNames> names);

}  // namespace storage
