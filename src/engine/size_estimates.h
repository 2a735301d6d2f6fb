// The tables that show what the storage knows of each user table's partitions, built from the
// partition statistics every SST file records (storage/partition_statistics.h, the figures of
// `nodetool tablestats` / `tablehistograms`, table_statistics.h):
//   - system.size_estimates, Cassandra's (pre-4.0, still written by 4.1) per-range estimates
//     that drivers and Spark read to split scans: one row per table and token range, with the
//     estimated partition count and mean partition size. cqld is one node owning the whole
//     ring, so each table has ONE row, for the range (-2^63, 2^63 - 1] (Murmur3's minimum
//     token is never a partition's token, so this range holds every partition);
//   - system_views.partition_histograms, cqld's own: per table, the percentiles, extremes and
//     means of partition sizes and rows per partition (`cqlmodel size --source histograms`).
// Both are estimates as Cassandra's are: memtables are not counted until flushed, and a
// partition in several SST files counts once per file until compaction merges them. Rows are
// computed when the table is read (Cassandra recomputes size_estimates every 5 minutes).
// Both tables are read-only: writes fail as on every table of their keyspace.
//
// Pipeline position: the SELECT path (select_statement.cc) asks `IsStorageEstimateTable` and,
// when it is one of these, takes its rows from `StorageEstimateRows` instead of
// schema::SystemTableRows / SystemViewsRows.
//
// Thread-safety: pure functions; `CollectPartitionFigures` reads the store, which is
// thread-safe.

#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "schema/catalog.h"
#include "schema/system_tables.h"
#include "storage/store_statistics.h"

namespace storage {
class Store;
}  // namespace storage

namespace engine {

// Murmur3Partitioner's smallest and largest tokens, as size_estimates writes them.
inline constexpr char kMinTokenText[] = "-9223372036854775808";
inline constexpr char kMaxTokenText[] = "9223372036854775807";

// One user table or view: its partitions in the live SST files.
struct TablePartitionFigures {
  std::string keyspace;
  std::string table;
  storage::PartitionDistribution partitions;
  uint64_t sstables_without_statistics = 0;
};

// Whether `table` is system.size_estimates or system_views.partition_histograms.
bool IsStorageEstimateTable(const schema::TableMetadata& table);

// The figures of every table and view of the non-system keyspaces of `catalog`, by keyspace then
// name; a table whose storage is gone (dropped meanwhile) is left out.
std::vector<TablePartitionFigures> CollectPartitionFigures(const schema::Catalog& catalog,
                                                           const storage::Store& store);

// The rows of `table` for `figures`, in scan order. REQUIRES: IsStorageEstimateTable(table).
std::vector<schema::SystemRow> StorageEstimateRows(
    const schema::TableMetadata& table, const std::vector<TablePartitionFigures>& figures);

}  // namespace engine
