// Table statistics: what `nodetool tablestats` and `nodetool tablehistograms` print, as plain
// values (docs/operations.md §4; docs/compatibility.md, "tablestats"). `Database::TableStatistics`
// and `Database::TableHistograms` return them; the admin tool formats them, and the Database's
// metrics collector exports the same figures to /metrics.
//
// Sources: the store (storage/store_statistics.h: RocksDB properties and the partition
// statistics every SST file records, partition_statistics.h) and the engine's per-table local
// latencies (request_metrics.h). Partition figures are estimates over SST files, as Cassandra's
// are: data in memtables is not counted until flushed, and a partition spread over several
// files counts once per file until compaction merges them. Latency percentiles are the
// interpolated values of histogram buckets (10 per decade), so within ~26% of the true value.
//
// Thread-safety: plain values and pure functions.

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/metrics.h"
#include "engine/request_metrics.h"
#include "storage/store_statistics.h"

namespace engine {

// One table (or materialized view), as `nodetool tablestats` shows it.
struct TableStatisticsResult {
  std::string keyspace;
  std::string table;
  bool is_view = false;
  // "SSTable count": live SST files; "SSTables in each level": per RocksDB level, index level.
  uint64_t sstable_count = 0;
  std::vector<uint64_t> sstables_per_level;
  // "Space used (live)": bytes of the live SST files; "Space used (total)": also files still
  // held by snapshots or open iterators.
  uint64_t space_used_live_bytes = 0;
  uint64_t space_used_total_bytes = 0;
  // "Memtable data size": bytes of the table's memtables (active and being flushed);
  // "Memtable cell count": entries in them (each write of a row is one entry).
  uint64_t memtable_data_bytes = 0;
  uint64_t memtable_cell_count = 0;
  // "Number of partitions (estimate)": partitions in the live SST files (see header).
  uint64_t estimated_partition_count = 0;
  // "Compacted partition minimum/mean/maximum bytes": bytes (keys + values, uncompressed) of
  // the partitions of the live SST files; 0 when there is none.
  uint64_t partition_min_bytes = 0;
  uint64_t partition_mean_bytes = 0;
  uint64_t partition_max_bytes = 0;
  // "Average live cells per slice" is not tracked; this is the mean rows (row entries, static
  // rows and tombstones included) per partition in the live SST files.
  double mean_rows_per_partition = 0;
  // "Local read count" / "Local read latency" (mean, milliseconds; NaN when none, as nodetool
  // prints "NaN ms"); the same for writes. Since the Database opened.
  uint64_t local_read_count = 0;
  double local_read_latency_ms = 0;
  uint64_t local_write_count = 0;
  double local_write_latency_ms = 0;
  // "Pending flushes": 1 when a memtable flush is due. "Pending compactions": 1 when RocksDB
  // has a compaction due (it does not count tasks); with the bytes it estimates it will rewrite.
  uint64_t pending_flushes = 0;
  uint64_t pending_compactions = 0;
  uint64_t pending_compaction_bytes = 0;
  // "Bloom filter space used": filter blocks of the live SST files. False positives are not
  // tracked (RocksDB counts them only store-wide, at a costlier statistics level).
  uint64_t bloom_filter_space_used_bytes = 0;
  // Index blocks of the live SST files ("Index summary off heap memory used" has no exact
  // counterpart).
  uint64_t index_bytes = 0;
  // Entries and deletions in the live SST files; RocksDB's estimate of distinct keys.
  uint64_t sstable_entries = 0;
  uint64_t sstable_deletions = 0;
  uint64_t estimated_keys = 0;
  // "SSTable Compression Ratio": data block bytes on disk / bytes before compression; -1 with
  // no SST file (nodetool prints -1.0 too).
  double compression_ratio = -1;
  // Live SST files without partition statistics (written before they existed): the partition
  // figures then leave them out.
  uint64_t sstables_without_partition_statistics = 0;
};

// One table's `nodetool tablehistograms`: for each row (50%, 75%, 95%, 98%, 99%, Min, Max).
struct TableHistogramsResult {
  struct Row {
    std::string percentile;           // "50%", ..., "99%", "Min", "Max"
    double read_latency_micros = 0;   // local read latency
    double write_latency_micros = 0;  // local write latency
    double partition_size_bytes = 0;  // partition sizes of the live SST files
    double cell_count = 0;            // rows per partition (see mean_rows_per_partition)
  };
  std::string keyspace;
  std::string table;
  std::vector<Row> rows;
  // What the rows were computed from (the admin tool may want counts or other percentiles).
  common::metrics::HistogramSnapshot read_latency_seconds;
  common::metrics::HistogramSnapshot write_latency_seconds;
  common::metrics::HistogramSnapshot partition_size_bytes;
  common::metrics::HistogramSnapshot cell_count;
};

// The figures of one table from its storage statistics and its latencies (null: none yet).
TableStatisticsResult MakeTableStatistics(std::string keyspace, std::string table, bool is_view,
                                          const storage::TableStorageStatistics& storage,
                                          const EngineMetrics::TableLatencies* latencies);
TableHistogramsResult MakeTableHistograms(std::string keyspace, std::string table,
                                          const storage::TableStorageStatistics& storage,
                                          const EngineMetrics::TableLatencies* latencies);

// The samples /metrics shows for one table (labels keyspace, table) and for the store.
void WriteTableMetrics(common::metrics::SampleWriter& writer, const TableStatisticsResult& table,
                       const storage::TableStorageStatistics& storage,
                       const EngineMetrics::TableLatencies* latencies);
void WriteStoreMetrics(common::metrics::SampleWriter& writer,
                       const storage::StoreStatistics& store);

}  // namespace engine
