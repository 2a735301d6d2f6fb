// system.size_estimates and system_views.partition_histograms (size_estimates.h).

#include "engine/size_estimates.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>

#include "cql/types/value_codec.h"
#include "engine/table_schema.h"
#include "schema/system_row_set.h"
#include "schema/system_views.h"
#include "storage/store.h"

namespace engine {
namespace {

using common::Bytes;
using common::metrics::HistogramSnapshot;

Bytes BigintOf(double value) { return cql::SerializeBigint(std::llround(std::max(value, 0.0))); }

void AddSizeEstimateRow(schema::SystemRowSet& rows, const TablePartitionFigures& figures) {
  schema::SystemRow& row = rows.Add();
  rows.Set(row, "keyspace_name", Bytes(figures.keyspace));
  rows.Set(row, "table_name", Bytes(figures.table));
  rows.Set(row, "range_start", Bytes(std::string_view(kMinTokenText)));
  rows.Set(row, "range_end", Bytes(std::string_view(kMaxTokenText)));
  const storage::PartitionDistribution& partitions = figures.partitions;
  rows.Set(row, "mean_partition_size", BigintOf(partitions.bytes.Mean()));
  rows.Set(row, "partitions_count",
           cql::SerializeBigint(static_cast<int64_t>(partitions.partitions)));
}

// One histogram's seven figures under `suffix` ("bytes", "rows"); `min` and `max` replace the
// bucket bounds when exact ones are known.
void SetPercentiles(schema::SystemRowSet& rows, schema::SystemRow& row, std::string_view suffix,
                    const HistogramSnapshot& histogram, double min, double max) {
  static constexpr std::pair<std::string_view, double> kPercentiles[] = {
      {"p50", 0.50}, {"p75", 0.75}, {"p95", 0.95}, {"p98", 0.98}, {"p99", 0.99}};
  auto column = [&](std::string_view at) { return std::string(at) + "_" + std::string(suffix); };
  rows.Set(row, column("min"), BigintOf(min));
  for (const auto& [name, q] : kPercentiles) {
    // An interpolated percentile never passes the exact maximum.
    rows.Set(row, column(name), BigintOf(std::min(histogram.Percentile(q), max)));
  }
  rows.Set(row, column("max"), BigintOf(max));
}

void AddHistogramRow(schema::SystemRowSet& rows, const TablePartitionFigures& figures) {
  schema::SystemRow& row = rows.Add();
  rows.Set(row, "keyspace_name", Bytes(figures.keyspace));
  rows.Set(row, "table_name", Bytes(figures.table));
  const storage::PartitionDistribution& partitions = figures.partitions;
  rows.Set(row, "partitions", cql::SerializeBigint(static_cast<int64_t>(partitions.partitions)));
  rows.Set(row, "sstables_without_statistics",
           cql::SerializeBigint(static_cast<int64_t>(figures.sstables_without_statistics)));
  rows.Set(row, "mean_bytes", BigintOf(partitions.bytes.Mean()));
  rows.Set(row, "mean_rows", cql::SerializeDouble(partitions.rows.Mean()));
  SetPercentiles(rows, row, "bytes", partitions.bytes, static_cast<double>(partitions.min_bytes),
                 static_cast<double>(partitions.max_bytes));
  SetPercentiles(rows, row, "rows", partitions.rows, partitions.rows.Min(), partitions.rows.Max());
}

}  // namespace

bool IsStorageEstimateTable(const schema::TableMetadata& table) {
  return (table.keyspace == schema::kSystemKeyspace && table.name == "size_estimates") ||
         (table.keyspace == schema::kSystemViewsKeyspace && table.name == "partition_histograms");
}

std::vector<TablePartitionFigures> CollectPartitionFigures(const schema::Catalog& catalog,
                                                           const storage::Store& store) {
  std::vector<TablePartitionFigures> out;
  for (const auto& [keyspace_name, keyspace] : catalog.keyspaces()) {
    if (schema::IsSystemKeyspace(keyspace_name)) continue;
    std::vector<const schema::TableMetadata*> tables;
    for (const auto& [name, table] : keyspace->tables) tables.push_back(table.get());
    for (const auto& [name, view] : keyspace->views) tables.push_back(view.get());
    std::sort(tables.begin(), tables.end(),
              [](const auto* a, const auto* b) { return a->name < b->name; });
    for (const schema::TableMetadata* table : tables) {
      common::Result<storage::TableStorageStatistics> statistics =
          store.TableStatistics(StorageId(table->id));
      if (!statistics.ok()) continue;  // dropped meanwhile
      TablePartitionFigures figures;
      figures.keyspace = table->keyspace;
      figures.table = table->name;
      figures.partitions = std::move(statistics->partitions);
      figures.sstables_without_statistics = statistics->sstables_without_partition_statistics;
      out.push_back(std::move(figures));
    }
  }
  return out;
}

std::vector<schema::SystemRow> StorageEstimateRows(
    const schema::TableMetadata& table, const std::vector<TablePartitionFigures>& figures) {
  schema::SystemRowSet rows(table);
  const bool size_estimates = table.keyspace == schema::kSystemKeyspace;
  for (const TablePartitionFigures& one : figures) {
    if (size_estimates) {
      AddSizeEstimateRow(rows, one);
    } else {
      AddHistogramRow(rows, one);
    }
  }
  // system is partitioned by Murmur3 token, system_views (LocalPartitioner) by key.
  return std::move(rows).Sorted(/*by_token=*/size_estimates);
}

}  // namespace engine
