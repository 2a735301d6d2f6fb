// Rows of the system_views tables (`system_views.h`).

#include "schema/system_views.h"

#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "cql/types/value_codec.h"
#include "schema/system_row_set.h"

namespace schema {
namespace {

using common::Bytes;
using cql::CqlType;

Bytes Text(std::string_view text) { return Bytes(text); }

void SetText(SystemRowSet& rows, SystemRow& row, std::string_view column,
             const std::optional<std::string>& value) {
  if (value) rows.Set(row, column, Text(*value));
}

// Cassandra rounds the latency tables' doubles to 3 decimals (for cqlsh's sake).
double Round3(double value) { return std::round(value * 1000) / 1000; }

// Bytes as whole mebibytes, rounded up (Cassandra's StorageTableMetric).
int64_t Mebibytes(int64_t bytes) { return (bytes + (int64_t{1} << 20) - 1) >> 20; }

common::Status AddClientRows(SystemRowSet& rows, const SystemViewsData& data) {
  for (const SystemViewsData::Client& client : data.clients) {
    ASSIGN_OR_RETURN(Bytes address, InetBytes(client.address));
    SystemRow& row = rows.Add();
    rows.Set(row, "address", std::move(address));
    rows.Set(row, "port", cql::SerializeInt(client.port));
    rows.Set(row, "hostname", Text(client.hostname));
    SetText(rows, row, "username", client.username);
    rows.Set(row, "connection_stage", Text(client.connection_stage));
    if (client.protocol_version != 0) {
      rows.Set(row, "protocol_version", cql::SerializeInt(client.protocol_version));
    }
    if (!client.client_options.empty()) {
      std::vector<std::pair<Bytes, Bytes>> entries(client.client_options.begin(),
                                                   client.client_options.end());
      rows.Set(
          row, "client_options",
          cql::SerializeMap(CqlType::Map(CqlType::Text(), CqlType::Text()), std::move(entries)));
    }
    SetText(rows, row, "driver_name", client.driver_name);
    SetText(rows, row, "driver_version", client.driver_version);
    rows.Set(row, "request_count", cql::SerializeBigint(client.request_count));
    rows.Set(row, "ssl_enabled", cql::SerializeBoolean(client.ssl_enabled));
    SetText(rows, row, "ssl_protocol", client.ssl_protocol);
    SetText(rows, row, "ssl_cipher_suite", client.ssl_cipher_suite);
  }
  return common::Status::Ok();
}

void AddCacheRows(SystemRowSet& rows, const SystemViewsData& data) {
  for (const SystemViewsData::Cache& cache : data.caches) {
    SystemRow& row = rows.Add();
    rows.Set(row, "name", Text(cache.name));
    if (cache.capacity_bytes) {
      rows.Set(row, "capacity_bytes", cql::SerializeBigint(*cache.capacity_bytes));
    }
    if (cache.size_bytes) rows.Set(row, "size_bytes", cql::SerializeBigint(*cache.size_bytes));
    rows.Set(row, "entry_count", cql::SerializeInt(cache.entry_count));
    rows.Set(row, "request_count", cql::SerializeBigint(cache.request_count));
    rows.Set(row, "hit_count", cql::SerializeBigint(cache.hit_count));
    // Cassandra's hit ratio is NaN before the first request; so is this one.
    const double ratio = cache.request_count == 0 ? std::nan("")
                                                  : static_cast<double>(cache.hit_count) /
                                                        static_cast<double>(cache.request_count);
    rows.Set(row, "hit_ratio", cql::SerializeDouble(ratio));
    // The recent_*_rate_per_second columns stay null: no rate is measured (docs/operations.md).
  }
}

// disk_usage, max_partition_size and the latency tables: one row per user table.
void AddTableMetricRows(SystemRowSet& rows, std::string_view table_name,
                        const SystemViewsData& data) {
  for (const SystemViewsData::TableMetrics& table : data.tables) {
    SystemRow& row = rows.Add();
    rows.Set(row, "keyspace_name", Text(table.keyspace));
    rows.Set(row, "table_name", Text(table.table));
    if (table_name == "disk_usage" || table_name == "max_partition_size") {
      const int64_t bytes =
          table_name == "disk_usage" ? table.disk_usage_bytes : table.max_partition_bytes;
      rows.Set(row, "mebibytes", cql::SerializeBigint(Mebibytes(bytes)));
      continue;
    }
    const SystemViewsData::Latency& latency =
        table_name == "local_read_latency"         ? table.local_read
        : table_name == "local_write_latency"      ? table.local_write
        : table_name == "coordinator_read_latency" ? table.coordinator_read
                                                   : table.coordinator_write;
    rows.Set(row, "count", cql::SerializeBigint(latency.count));
    rows.Set(row, "50th_ms", cql::SerializeDouble(Round3(latency.p50_ms)));
    rows.Set(row, "99th_ms", cql::SerializeDouble(Round3(latency.p99_ms)));
    rows.Set(row, "max_ms", cql::SerializeDouble(Round3(latency.max_ms)));
    // per_second stays null: no rate is measured (docs/operations.md).
  }
}

void AddTaskRows(SystemRowSet& rows, const SystemViewsData& data) {
  for (const SystemViewsData::SSTableTask& task : data.sstable_tasks) {
    SystemRow& row = rows.Add();
    rows.Set(row, "keyspace_name", Text(task.keyspace));
    rows.Set(row, "table_name", Text(task.table));
    rows.Set(row, "task_id", task.task_id.ToBytes());
    const double ratio = task.total == 0
                             ? 1.0
                             : static_cast<double>(task.progress) / static_cast<double>(task.total);
    rows.Set(row, "completion_ratio", cql::SerializeDouble(ratio));
    rows.Set(row, "kind", Text(task.kind));
    rows.Set(row, "progress", cql::SerializeBigint(task.progress));
    rows.Set(row, "total", cql::SerializeBigint(task.total));
    rows.Set(row, "unit", Text(task.unit));
  }
}

void AddThreadPoolRows(SystemRowSet& rows, const SystemViewsData& data) {
  for (const SystemViewsData::ThreadPool& pool : data.thread_pools) {
    SystemRow& row = rows.Add();
    rows.Set(row, "name", Text(pool.name));
    rows.Set(row, "active_tasks", cql::SerializeInt(pool.active_tasks));
    rows.Set(row, "active_tasks_limit", cql::SerializeInt(pool.active_tasks_limit));
    rows.Set(row, "pending_tasks", cql::SerializeInt(pool.pending_tasks));
    if (pool.completed_tasks) {
      rows.Set(row, "completed_tasks", cql::SerializeBigint(*pool.completed_tasks));
    }
    rows.Set(row, "blocked_tasks", cql::SerializeBigint(pool.blocked_tasks));
    rows.Set(row, "blocked_tasks_all_time", cql::SerializeBigint(pool.blocked_tasks_all_time));
  }
}

}  // namespace

common::Result<std::vector<SystemRow>> SystemViewsRows(const TableMetadata& table,
                                                       const SystemViewsData& data) {
  if (table.keyspace != kSystemViewsKeyspace ||
      FindSystemTable(table.keyspace, table.name) == nullptr) {
    return common::Status::Invalid(
        fmt::format("{}.{} is not a system_views table", table.keyspace, table.name));
  }
  SystemRowSet rows(table);
  const std::string_view name = table.name;
  if (name == "settings") {
    for (const auto& [setting, value] : data.settings) {
      SystemRow& row = rows.Add();
      rows.Set(row, "name", Text(setting));
      SetText(rows, row, "value", value);
    }
  } else if (name == "clients") {
    RETURN_IF_ERROR(AddClientRows(rows, data));
  } else if (name == "caches") {
    AddCacheRows(rows, data);
  } else if (name == "sstable_tasks") {
    AddTaskRows(rows, data);
  } else if (name == "thread_pools") {
    AddThreadPoolRows(rows, data);
  } else {
    AddTableMetricRows(rows, name, data);
  }
  return std::move(rows).Sorted(/*by_token=*/false);
}

}  // namespace schema
