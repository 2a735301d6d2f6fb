// Database's statistics and metrics: the facade of table_statistics.h and the per-database
// metrics collector (request_metrics.h item 2, docs/operations.md §4).

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "engine/database.h"
#include "engine/table_schema.h"
#include "schema/system_tables.h"

namespace engine {
namespace {

using common::Result;
using common::Status;

// Every table and view of one keyspace, by name.
std::vector<const schema::TableMetadata*> TablesOf(const schema::KeyspaceMetadata& keyspace) {
  std::vector<const schema::TableMetadata*> tables;
  for (const auto& [name, table] : keyspace.tables) tables.push_back(table.get());
  for (const auto& [name, view] : keyspace.views) tables.push_back(view.get());
  std::sort(tables.begin(), tables.end(),
            [](const auto* a, const auto* b) { return a->name < b->name; });
  return tables;
}

// Every table and view of every non-system keyspace.
std::vector<const schema::TableMetadata*> UserTables(const schema::Catalog& catalog) {
  std::vector<const schema::TableMetadata*> tables;
  for (const auto& [name, keyspace] : catalog.keyspaces()) {
    if (schema::IsSystemKeyspace(name)) continue;
    for (const schema::TableMetadata* table : TablesOf(*keyspace)) tables.push_back(table);
  }
  return tables;
}

Result<const schema::TableMetadata*> FindTableOrView(const schema::Catalog& catalog,
                                                     std::string_view keyspace,
                                                     std::string_view table) {
  const schema::TableMetadata* found = catalog.FindTableOrView(keyspace, table);
  if (found == nullptr) {
    return Status::Invalid(fmt::format("Unknown table '{}.{}'", keyspace, table));
  }
  return found;
}

// What the statistics of one table are made from. `table` belongs to a catalogue snapshot the
// caller holds.
struct TableSources {
  const schema::TableMetadata* table;
  storage::TableStorageStatistics storage;
  const EngineMetrics::TableLatencies* latencies;  // null: no statement ran yet
};

// NotFound when the table's storage is gone (dropped meanwhile).
Result<TableSources> SourcesOf(const storage::Store& store, const EngineMetrics& metrics,
                               const schema::TableMetadata* table) {
  const std::string id = StorageId(table->id);
  ASSIGN_OR_RETURN(storage::TableStorageStatistics storage, store.TableStatistics(id));
  return TableSources{table, std::move(storage), metrics.FindTable(id)};
}

TableStatisticsResult StatisticsOf(const TableSources& sources) {
  const schema::TableMetadata& table = *sources.table;
  return MakeTableStatistics(table.keyspace, table.name, table.view.has_value(), sources.storage,
                             sources.latencies);
}

}  // namespace

void Database::StartMetrics() {
  PublishTableNames();
  schema_->AddListener([this](const cql::SchemaChangeEvent&) { PublishTableNames(); });
  metrics_collector_ = common::metrics::Registry::Global().AddCollector(
      [this](common::metrics::SampleWriter& writer) { CollectMetrics(writer); });
}

void Database::PublishTableNames() {
  std::map<std::string, std::string, std::less<>> names;
  std::shared_ptr<const schema::Catalog> current = catalog();
  for (const schema::TableMetadata* table : UserTables(*current)) {
    names[StorageId(table->id)] = table->keyspace + "/" + table->name;
  }
  store_->SetTableDisplayNames(std::move(names));
}

void Database::CollectMetrics(common::metrics::SampleWriter& writer) const {
  std::shared_ptr<const schema::Catalog> current = catalog();
  for (const schema::TableMetadata* table : UserTables(*current)) {
    Result<TableSources> sources = SourcesOf(*store_, *metrics_, table);
    if (!sources.ok()) continue;  // dropped meanwhile
    WriteTableMetrics(writer, StatisticsOf(*sources), sources->storage, sources->latencies);
  }
  WriteStoreMetrics(writer, store_->Statistics());
  if (row_cache_ != nullptr) WriteRowCacheMetrics(writer, row_cache_->statistics());
  const PreparedStatementCache& cache = processor_->cache();
  writer.Gauge("cqld_prepared_statements_count", "Statements in the prepared-statement cache.", {},
               static_cast<double>(cache.size()));
  writer.Gauge("cqld_prepared_statements_capacity", "Capacity of the prepared-statement cache.", {},
               static_cast<double>(cache.capacity()));
  writer.Counter("cqld_prepared_statements_cache_hits_total",
                 "Look-ups (EXECUTE, and text queries) that found their statement cached.", {},
                 static_cast<double>(cache.hits()));
  writer.Counter("cqld_prepared_statements_cache_misses_total",
                 "Look-ups that did not find their statement (text queries then prepare it; "
                 "EXECUTE gets Unprepared).",
                 {}, static_cast<double>(cache.misses()));
  writer.Counter("cqld_prepared_statements_evicted_total",
                 "Statements evicted from the prepared-statement cache to make room.", {},
                 static_cast<double>(cache.evictions()));
}

Result<TableStatisticsResult> Database::TableStatistics(std::string_view keyspace,
                                                        std::string_view table) const {
  std::shared_ptr<const schema::Catalog> current = catalog();
  ASSIGN_OR_RETURN(const schema::TableMetadata* found, FindTableOrView(*current, keyspace, table));
  ASSIGN_OR_RETURN(TableSources sources, SourcesOf(*store_, *metrics_, found));
  return StatisticsOf(sources);
}

Result<std::vector<TableStatisticsResult>> Database::AllTableStatistics(
    std::string_view keyspace) const {
  std::shared_ptr<const schema::Catalog> current = catalog();
  std::vector<const schema::TableMetadata*> tables;
  if (keyspace.empty()) {
    tables = UserTables(*current);
  } else {
    const schema::KeyspaceMetadata* found = current->FindKeyspace(keyspace);
    if (found == nullptr) return Status::Invalid(fmt::format("Unknown keyspace '{}'", keyspace));
    tables = TablesOf(*found);
  }
  std::vector<TableStatisticsResult> out;
  for (const schema::TableMetadata* table : tables) {
    Result<TableSources> sources = SourcesOf(*store_, *metrics_, table);
    if (sources.ok()) out.push_back(StatisticsOf(*sources));  // else dropped meanwhile
  }
  return out;
}

Result<TableHistogramsResult> Database::TableHistograms(std::string_view keyspace,
                                                        std::string_view table) const {
  std::shared_ptr<const schema::Catalog> current = catalog();
  ASSIGN_OR_RETURN(const schema::TableMetadata* found, FindTableOrView(*current, keyspace, table));
  ASSIGN_OR_RETURN(TableSources sources, SourcesOf(*store_, *metrics_, found));
  return MakeTableHistograms(found->keyspace, found->name, sources.storage, sources.latencies);
}

}  // namespace engine
