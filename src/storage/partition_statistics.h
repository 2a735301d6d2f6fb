// Partition statistics: what each SST file of a table holds, partition by partition, recorded
// as the file is written (flush and compaction) and summed over a table's live files for
// `nodetool tablestats` / `tablehistograms` and /metrics (docs/operations.md §4).
//
// Pipeline position: `Store` adds a `PartitionStatisticsCollectorFactory` to every table column
// family (not to the meta family). RocksDB creates one collector per SST file it writes and
// feeds it every entry in key order; the collector groups consecutive entries whose keys share
// a partition prefix (`token ‖ pk-components`, key_layout.h) and, in `Finish`, stores a
// `PartitionDistribution` in the file's user-collected table properties (kPropertyName).
// `store_statistics.h` decodes and merges them across the live files of a table.
//
// Like Cassandra's estimated partition count and partition size histogram, these are estimates
// over SST files:
//   1. Data still in a memtable is not counted until it is flushed.
//   2. A partition with entries in several files is counted once per file, each time with only
//      the bytes of that file (so counts are too high and sizes too low until compaction merges
//      the files). Merge operands of one key in one file count as one row but all their bytes.
//   3. Sizes are the bytes of keys and values as written (before RocksDB's block compression).
//   4. Only families with a key shape are understood. Secondary index families (no shape,
//      `row_entries_only`) and tables created before shapes were stored record nothing; a
//      table's statistics say when some of its files had no statistics.
//
// Large partitions: when one partition written to a file exceeds the factory's threshold
// (Cassandra's `compaction_large_partition_warning_threshold_mb`), the collector records its
// key and size (at most kMaxLargePartitions per file) in the property kLargePartitionsName, for
// the store's listener to log Cassandra's warning once it knows the file's name.
//
// Thread-safety: the factory is thread-safe; each collector is used by one thread at a time.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rocksdb/table_properties.h>

#include "common/metrics.h"
#include "common/result.h"

namespace storage {

class RowFragmentCompactionFilterFactory;

// The partitions of one SST file (or, merged, of several).
struct PartitionDistribution {
  uint64_t partitions = 0;
  // Exact smallest and largest partition, bytes of keys + values; 0 when there is none.
  uint64_t min_bytes = 0;
  uint64_t max_bytes = 0;
  // Bytes per partition and rows (entries with distinct keys: rows, static rows, tombstones)
  // per partition, on common::metrics::Histogram::SizeBounds().
  common::metrics::HistogramSnapshot bytes;
  common::metrics::HistogramSnapshot rows;

  // Empty histograms on SizeBounds().
  PartitionDistribution();
  // Adds `other` (another file's partitions).
  void Merge(const PartitionDistribution& other);
};

// A partition over the large-partition threshold, as recorded in a file's properties.
struct LargePartition {
  std::string key;  // as Cassandra prints it: pk values, ':'-separated (hex if unparsable)
  uint64_t bytes = 0;
};

inline constexpr char kPartitionStatisticsPropertyName[] = "cqld.partitions.v1";
inline constexpr char kLargePartitionsPropertyName[] = "cqld.large_partitions.v1";
inline constexpr size_t kMaxLargePartitions = 16;

// The property's bytes and back. Decode fails with Corruption on bytes Encode did not make.
std::string EncodePartitionDistribution(const PartitionDistribution& distribution);
common::Result<PartitionDistribution> DecodePartitionDistribution(std::string_view bytes);
std::string EncodeLargePartitions(const std::vector<LargePartition>& partitions);
common::Result<std::vector<LargePartition>> DecodeLargePartitions(std::string_view bytes);

// Cassandra's FBUtilities.prettyPrintMemory: "512B", "1.500KiB", "100.000MiB".
std::string PrettyPrintMemory(uint64_t bytes);

class PartitionStatisticsCollectorFactory final : public rocksdb::TablePropertiesCollectorFactory {
 public:
  // `table` gives the family's current options (its key shape) when a file starts.
  // `large_partition_bytes`: the warning threshold; 0 turns the warning off.
  PartitionStatisticsCollectorFactory(
      std::shared_ptr<const RowFragmentCompactionFilterFactory> table,
      uint64_t large_partition_bytes);

  rocksdb::TablePropertiesCollector* CreateTablePropertiesCollector(
      rocksdb::TablePropertiesCollectorFactory::Context context) override;
  const char* Name() const override { return "cqld.PartitionStatistics.v1"; }

 private:
  std::shared_ptr<const RowFragmentCompactionFilterFactory> table_;
  uint64_t large_partition_bytes_;
};

}  // namespace storage
