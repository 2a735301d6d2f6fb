#include "engine/table_statistics.h"

#include <cmath>
#include <limits>
#include <utility>

namespace engine {
namespace {

using common::metrics::HistogramSnapshot;
using common::metrics::Labels;
using common::metrics::SampleWriter;

HistogramSnapshot EmptyLatencies() {
  return common::metrics::Histogram(common::metrics::Histogram::LatencyBounds()).snapshot();
}

// Mean in milliseconds, NaN without observations (nodetool prints "NaN ms").
double MeanMillis(const HistogramSnapshot& snapshot) {
  if (snapshot.count == 0) return std::numeric_limits<double>::quiet_NaN();
  return snapshot.Mean() * 1000;
}

struct Latencies {
  HistogramSnapshot read;
  HistogramSnapshot write;
};

Latencies SnapshotLatencies(const EngineMetrics::TableLatencies* latencies) {
  if (latencies == nullptr) return {EmptyLatencies(), EmptyLatencies()};
  return {latencies->read.snapshot(), latencies->write.snapshot()};
}

double At(const HistogramSnapshot& snapshot, std::string_view row, double q) {
  if (row == "Min") return snapshot.Min();
  if (row == "Max") return snapshot.Max();
  return snapshot.Percentile(q);
}

}  // namespace

TableStatisticsResult MakeTableStatistics(std::string keyspace, std::string table, bool is_view,
                                          const storage::TableStorageStatistics& storage,
                                          const EngineMetrics::TableLatencies* latencies) {
  TableStatisticsResult out;
  out.keyspace = std::move(keyspace);
  out.table = std::move(table);
  out.is_view = is_view;
  out.sstable_count = storage.live_sstable_count;
  out.sstables_per_level = storage.sstables_per_level;
  out.space_used_live_bytes = storage.live_sstable_bytes;
  out.space_used_total_bytes = storage.total_sstable_bytes;
  out.memtable_data_bytes = storage.memtable_bytes;
  out.memtable_cell_count = storage.memtable_entries;
  const storage::PartitionDistribution& partitions = storage.partitions;
  out.estimated_partition_count = partitions.partitions;
  out.partition_min_bytes = partitions.min_bytes;
  out.partition_max_bytes = partitions.max_bytes;
  out.partition_mean_bytes = static_cast<uint64_t>(std::llround(partitions.bytes.Mean()));
  out.mean_rows_per_partition = partitions.rows.Mean();
  Latencies snapshots = SnapshotLatencies(latencies);
  out.local_read_count = snapshots.read.count;
  out.local_read_latency_ms = MeanMillis(snapshots.read);
  out.local_write_count = snapshots.write.count;
  out.local_write_latency_ms = MeanMillis(snapshots.write);
  out.pending_flushes = storage.flush_pending ? 1 : 0;
  out.pending_compactions = storage.compaction_pending ? 1 : 0;
  out.pending_compaction_bytes = storage.pending_compaction_bytes;
  out.bloom_filter_space_used_bytes = storage.bloom_filter_bytes;
  out.index_bytes = storage.index_bytes;
  out.sstable_entries = storage.sstable_entries;
  out.sstable_deletions = storage.sstable_deletions;
  out.estimated_keys = storage.estimated_keys;
  if (storage.raw_bytes > 0) {
    out.compression_ratio =
        static_cast<double>(storage.data_bytes) / static_cast<double>(storage.raw_bytes);
  }
  out.sstables_without_partition_statistics = storage.sstables_without_partition_statistics;
  return out;
}

TableHistogramsResult MakeTableHistograms(std::string keyspace, std::string table,
                                          const storage::TableStorageStatistics& storage,
                                          const EngineMetrics::TableLatencies* latencies) {
  TableHistogramsResult out;
  out.keyspace = std::move(keyspace);
  out.table = std::move(table);
  Latencies snapshots = SnapshotLatencies(latencies);
  out.read_latency_seconds = std::move(snapshots.read);
  out.write_latency_seconds = std::move(snapshots.write);
  out.partition_size_bytes = storage.partitions.bytes;
  out.cell_count = storage.partitions.rows;
  static constexpr std::pair<std::string_view, double> kRows[] = {
      {"50%", 0.50}, {"75%", 0.75}, {"95%", 0.95}, {"98%", 0.98},
      {"99%", 0.99}, {"Min", 0.0},  {"Max", 1.0}};
  for (const auto& [name, q] : kRows) {
    TableHistogramsResult::Row row;
    row.percentile = std::string(name);
    row.read_latency_micros = At(out.read_latency_seconds, name, q) * 1e6;
    row.write_latency_micros = At(out.write_latency_seconds, name, q) * 1e6;
    row.partition_size_bytes = At(out.partition_size_bytes, name, q);
    row.cell_count = At(out.cell_count, name, q);
    out.rows.push_back(std::move(row));
  }
  // The exact extremes are known for partition sizes: better than a bucket bound.
  if (storage.partitions.partitions > 0) {
    out.rows[5].partition_size_bytes = static_cast<double>(storage.partitions.min_bytes);
    out.rows[6].partition_size_bytes = static_cast<double>(storage.partitions.max_bytes);
  }
  return out;
}

void WriteTableMetrics(SampleWriter& writer, const TableStatisticsResult& table,
                       const storage::TableStorageStatistics& storage,
                       const EngineMetrics::TableLatencies* latencies) {
  const Labels labels = {{"keyspace", table.keyspace}, {"table", table.table}};
  auto gauge = [&](std::string_view name, std::string_view help, double value) {
    writer.Gauge(name, help, labels, value);
  };
  gauge("cqld_table_live_sstable_count", "Live SST files of the table.",
        static_cast<double>(table.sstable_count));
  gauge("cqld_table_live_disk_space_used_bytes", "Bytes of the table's live SST files.",
        static_cast<double>(table.space_used_live_bytes));
  gauge("cqld_table_total_disk_space_used_bytes",
        "Bytes of the table's SST files, including those only snapshots or iterators hold.",
        static_cast<double>(table.space_used_total_bytes));
  gauge("cqld_table_memtable_live_data_size_bytes", "Bytes in the table's memtables.",
        static_cast<double>(table.memtable_data_bytes));
  gauge("cqld_table_memtable_columns_count", "Entries in the table's memtables.",
        static_cast<double>(table.memtable_cell_count));
  gauge("cqld_table_estimated_partition_count",
        "Partitions in the table's live SST files (an estimate: memtables not counted, a "
        "partition in several files counted in each).",
        static_cast<double>(table.estimated_partition_count));
  gauge("cqld_table_estimated_keys", "RocksDB's estimate of the table's distinct keys.",
        static_cast<double>(table.estimated_keys));
  gauge("cqld_table_pending_compactions", "1 when a compaction of the table is due.",
        static_cast<double>(table.pending_compactions));
  gauge("cqld_table_pending_compaction_bytes", "Bytes RocksDB estimates compactions will rewrite.",
        static_cast<double>(table.pending_compaction_bytes));
  gauge("cqld_table_pending_flushes", "1 when a flush of the table's memtable is due.",
        static_cast<double>(table.pending_flushes));
  gauge("cqld_table_bloom_filter_disk_space_used_bytes",
        "Bytes of Bloom filter blocks in the table's live SST files.",
        static_cast<double>(table.bloom_filter_space_used_bytes));
  writer.Histogram("cqld_table_estimated_partition_size_bytes",
                   "Partition sizes (keys + values) in the table's live SST files.", labels,
                   storage.partitions.bytes);
  writer.Histogram("cqld_table_estimated_row_count",
                   "Rows per partition in the table's live SST files.", labels,
                   storage.partitions.rows);
  Latencies snapshots = SnapshotLatencies(latencies);
  writer.Histogram("cqld_table_read_latency_seconds", "Local read latency of the table.", labels,
                   snapshots.read);
  writer.Histogram("cqld_table_write_latency_seconds", "Local write latency of the table.", labels,
                   snapshots.write);
}

void WriteStoreMetrics(SampleWriter& writer, const storage::StoreStatistics& store) {
  auto gauge = [&](std::string_view name, std::string_view help, uint64_t value) {
    writer.Gauge(name, help, {}, static_cast<double>(value));
  };
  auto counter = [&](std::string_view name, std::string_view help, uint64_t value) {
    writer.Counter(name, help, {}, static_cast<double>(value));
  };
  gauge("cqld_storage_block_cache_capacity_bytes", "Capacity of the shared block cache.",
        store.block_cache_capacity_bytes);
  gauge("cqld_storage_block_cache_usage_bytes", "Bytes in the shared block cache.",
        store.block_cache_usage_bytes);
  gauge("cqld_storage_block_cache_pinned_bytes", "Bytes pinned in the block cache.",
        store.block_cache_pinned_bytes);
  counter("cqld_storage_block_cache_hits_total", "Block cache hits.", store.block_cache_hits);
  counter("cqld_storage_block_cache_misses_total", "Block cache misses.", store.block_cache_misses);
  counter("cqld_storage_bytes_written_total", "Bytes written through the write path.",
          store.bytes_written);
  counter("cqld_storage_bytes_read_total", "Bytes read by lookups and iterators.",
          store.bytes_read);
  counter("cqld_storage_flush_bytes_written_total", "Bytes written by memtable flushes.",
          store.flush_bytes_written);
  counter("cqld_storage_compaction_bytes_read_total", "Bytes read by compactions.",
          store.compaction_bytes_read);
  counter("cqld_storage_compaction_bytes_written_total", "Bytes written by compactions.",
          store.compaction_bytes_written);
  writer.Counter("cqld_storage_write_stall_seconds_total",
                 "Time writes were delayed or stopped by RocksDB.", {},
                 static_cast<double>(store.write_stall_micros) / 1e6);
  gauge("cqld_storage_wal_size_bytes", "Bytes of write-ahead log files.", store.wal_bytes);
  gauge("cqld_storage_running_compactions", "Compactions running now.", store.running_compactions);
  gauge("cqld_storage_running_flushes", "Memtable flushes running now.", store.running_flushes);
  gauge("cqld_storage_disk_free_bytes", "Free bytes on the data directory's disk (last probe).",
        store.disk_free_bytes);
  gauge("cqld_storage_disk_free_floor_bytes",
        "Free bytes below which writes are refused (0: never).", store.disk_floor_bytes);
  gauge("cqld_storage_read_only", "1 while the store is read-only for lack of disk space.",
        store.read_only ? 1 : 0);
}

}  // namespace engine
