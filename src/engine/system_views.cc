// Database::SystemViews: the figures of the system_views tables (system_views.h).

#include "engine/system_views.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "engine/database.h"
#include "engine/table_schema.h"

namespace engine {
namespace {

using Data = schema::SystemViewsData;

Data::Latency LatencyOf(const common::metrics::Histogram* histogram) {
  Data::Latency latency;
  if (histogram == nullptr) return latency;
  const common::metrics::HistogramSnapshot snapshot = histogram->snapshot();
  latency.count = static_cast<int64_t>(snapshot.count);
  latency.p50_ms = snapshot.Percentile(0.5) * 1000;  // the histogram is in seconds
  latency.p99_ms = snapshot.Percentile(0.99) * 1000;
  latency.max_ms = snapshot.Max() * 1000;
  return latency;
}

// A size setting under its cassandra.yaml 4.1 name ("5KiB") and its older one ("5").
void AddSizeSetting(Data& data, std::string_view name, std::string_view old_name, int64_t kib) {
  data.settings[std::string(name)] = fmt::format("{}KiB", kib);
  data.settings[std::string(old_name)] = std::to_string(kib);
}

int32_t ToInt(uint64_t value) { return static_cast<int32_t>(std::min<uint64_t>(value, INT32_MAX)); }

}  // namespace

void Database::SetSystemViewsSource(std::shared_ptr<const SystemViewsSource> source) {
  std::lock_guard<std::mutex> lock(system_views_mutex_);
  system_views_source_ = std::move(source);
}

std::shared_ptr<const SystemViewsSource> Database::system_views_source() const {
  std::lock_guard<std::mutex> lock(system_views_mutex_);
  return system_views_source_;
}

void Database::AddEngineSettings(Data& data) const {
  const schema::LocalNodeInfo& node = options_.local_node;
  auto set = [&](std::string_view name, std::string value) {
    data.settings[std::string(name)] = std::move(value);
  };
  set("cluster_name", node.cluster_name);
  set("partitioner", node.partitioner);
  set("num_tokens", std::to_string(node.tokens.size()));
  set("endpoint_snitch", "SimpleSnitch");
  set("data_file_directories", fmt::format("[{}]", directory_));
  set("commitlog_sync",
      options_.durability == DatabaseOptions::Durability::kBatch ? "batch" : "periodic");
  const bool password = options_.authenticator == DatabaseOptions::Authenticator::kPassword;
  set("authenticator", password ? "PasswordAuthenticator" : "AllowAllAuthenticator");
  set("authorizer", options_.authorizer == DatabaseOptions::Authorizer::kCassandra
                        ? "CassandraAuthorizer"
                        : "AllowAllAuthorizer");
  set("role_manager", "CassandraRoleManager");
  set("network_authorizer", "AllowAllNetworkAuthorizer");
  set("tombstone_warn_threshold", std::to_string(options_.tombstone_warn_threshold));
  set("tombstone_failure_threshold", std::to_string(options_.tombstone_failure_threshold));
  const BatchThresholds& batch = options_.batch_thresholds;
  AddSizeSetting(data, "batch_size_warn_threshold", "batch_size_warn_threshold_in_kb",
                 batch.warn_bytes / 1024);
  AddSizeSetting(data, "batch_size_fail_threshold", "batch_size_fail_threshold_in_kb",
                 batch.fail_bytes / 1024);
  set("unlogged_batch_across_partitions_warn_threshold",
      std::to_string(batch.unlogged_partitions_warn));
  const int64_t row_cache_mib = static_cast<int64_t>(options_.row_cache_bytes >> 20);
  data.settings["row_cache_size"] = fmt::format("{}MiB", row_cache_mib);
  data.settings["row_cache_size_in_mb"] = std::to_string(row_cache_mib);
  const int64_t slow_ms = options_.slow_query_log_threshold.count();
  set("slow_query_log_timeout", fmt::format("{}ms", slow_ms));
  set("slow_query_log_timeout_in_ms", std::to_string(slow_ms));
  // cqld's own settings, under their config-file names (server/config.h).
  set("min-free-space-mb", std::to_string(store_->Statistics().disk_floor_bytes >> 20));
}

void Database::AddEngineCaches(Data& data) const {
  const storage::StoreStatistics store = store_->Statistics();
  const storage::Store::CacheUsage usage = store_->BlockCacheUsage();
  if (usage.capacity_bytes > 0) {
    Data::Cache cache;
    cache.name = "block_cache";  // RocksDB's: data, index and filter blocks of SST files
    cache.capacity_bytes = static_cast<int64_t>(usage.capacity_bytes);
    cache.size_bytes = static_cast<int64_t>(usage.used_bytes);
    cache.entry_count = ToInt(usage.entries);
    cache.hit_count = static_cast<int64_t>(store.block_cache_hits);
    cache.request_count = static_cast<int64_t>(store.block_cache_hits + store.block_cache_misses);
    data.caches.push_back(std::move(cache));
  }
  if (row_cache_) {
    const RowCache::Statistics rows = row_cache_->statistics();
    Data::Cache cache;
    cache.name = "rows";  // Cassandra's name for the row cache; entries are partition slices
    cache.capacity_bytes = static_cast<int64_t>(row_cache_->capacity_bytes());
    cache.size_bytes = static_cast<int64_t>(rows.used_bytes);
    cache.entry_count = ToInt(rows.slices);
    cache.hit_count = static_cast<int64_t>(rows.hits);
    cache.request_count = static_cast<int64_t>(rows.hits + rows.misses);
    data.caches.push_back(std::move(cache));
  }
  const PreparedStatementCache& prepared = processor_->cache();
  Data::Cache cache;
  cache.name = "prepared_statements";  // bounded in statements, not bytes
  cache.entry_count = ToInt(prepared.size());
  cache.hit_count = static_cast<int64_t>(prepared.hits());
  cache.request_count = static_cast<int64_t>(prepared.hits() + prepared.misses());
  data.caches.push_back(std::move(cache));
}

void Database::AddEngineThreadPools(Data& data) const {
  const storage::StoreStatistics store = store_->Statistics();
  // RocksDB's background pools: high priority for flushes, low for compactions.
  auto rocksdb_pool = [&](std::string name, uint64_t running, uint64_t threads, uint64_t queued) {
    Data::ThreadPool pool;
    pool.name = std::move(name);
    pool.active_tasks = ToInt(running);
    pool.active_tasks_limit = ToInt(threads);
    pool.pending_tasks = ToInt(queued);
    data.thread_pools.push_back(std::move(pool));
  };
  rocksdb_pool("MemtableFlushWriter", store.running_flushes, store.flush_threads,
               store.flushes_queued);
  rocksdb_pool("CompactionExecutor", store.running_compactions, store.compaction_threads,
               store.compactions_queued);
  if (purge_scheduler_) {
    Data::ThreadPool purge;
    purge.name = "PurgeScheduler";  // purge_scheduler.h: one thread, one run at a time
    purge.active_tasks = purge_scheduler_->running() ? 1 : 0;
    purge.active_tasks_limit = 1;
    purge.completed_tasks = static_cast<int64_t>(purge_scheduler_->completed_runs());
    data.thread_pools.push_back(std::move(purge));
  }
}

void Database::AddTableMetrics(Data& data) const {
  common::Result<std::vector<TableStatisticsResult>> tables = AllTableStatistics();
  if (!tables.ok()) return;  // only fails for an unknown keyspace, not asked here
  for (const TableStatisticsResult& statistics : *tables) {
    Data::TableMetrics table;
    table.keyspace = statistics.keyspace;
    table.table = statistics.table;
    table.disk_usage_bytes = static_cast<int64_t>(statistics.space_used_total_bytes);
    table.max_partition_bytes = static_cast<int64_t>(statistics.partition_max_bytes);
    const schema::TableMetadata* metadata =
        catalog()->FindTableOrView(statistics.keyspace, statistics.table);
    const EngineMetrics::TableLatencies* latencies =
        metadata == nullptr ? nullptr : metrics_->FindTable(StorageId(metadata->id));
    if (latencies != nullptr) {
      // One node: the time the engine runs a statement is both its local and its coordinator
      // latency (request_metrics.h), so both tables show the same histograms.
      table.local_read = LatencyOf(&latencies->read);
      table.local_write = LatencyOf(&latencies->write);
      table.coordinator_read = table.local_read;
      table.coordinator_write = table.local_write;
    }
    data.tables.push_back(std::move(table));
  }
}

Data Database::SystemViews(std::string_view table) const {
  Data data;
  std::shared_ptr<const SystemViewsSource> source = system_views_source();
  if (table == "settings") {
    AddEngineSettings(data);
    if (source && source->settings) data.settings.merge(source->settings());
  } else if (table == "clients") {
    if (source && source->clients) data.clients = source->clients();
  } else if (table == "caches") {
    AddEngineCaches(data);
  } else if (table == "thread_pools") {
    AddEngineThreadPools(data);
    if (source && source->thread_pools) {
      for (Data::ThreadPool& pool : source->thread_pools()) {
        data.thread_pools.push_back(std::move(pool));
      }
    }
  } else if (table != "sstable_tasks") {
    AddTableMetrics(data);
  }
  return data;
}

}  // namespace engine
