// The `system_views` virtual keyspace of Cassandra 4 (docs/operations.md "system_views"): what
// its tables show, as plain data, and their rows. The tables are defined with the other system
// tables (`SystemTables()`, system_table_definitions.cc) as Cassandra 4.1 declares them in
// db/virtual/*Table.java; the engine gathers the figures (engine/system_views.h: its own
// statistics plus what the server registers: connections, network settings, threads) and the
// SELECT path turns them into rows here.
//
// Thread-safety: plain values and pure functions.

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "common/uuid.h"
#include "schema/system_tables.h"

namespace schema {

inline constexpr std::string_view kSystemViewsKeyspace = "system_views";

// Everything the system_views tables show; the engine fills the part the table read needs.
struct SystemViewsData {
  // system_views.settings: name -> value (null: the setting exists but has no value).
  std::map<std::string, std::optional<std::string>> settings;

  // system_views.clients: one connected client.
  struct Client {
    std::string address;  // IPv4 or IPv6 text
    int32_t port = 0;
    std::string hostname;                 // the address as text (no reverse DNS)
    std::optional<std::string> username;  // null before login or without authentication
    std::string connection_stage;         // "established", "authenticating" or "ready"
    int32_t protocol_version = 0;         // 0: not negotiated yet (null)
    std::map<std::string, std::string> client_options;  // the STARTUP options
    std::optional<std::string> driver_name;
    std::optional<std::string> driver_version;
    int64_t request_count = 0;
    bool ssl_enabled = false;
    std::optional<std::string> ssl_protocol;  // "TLSv1.3", ... when ssl_enabled
    std::optional<std::string> ssl_cipher_suite;
  };
  std::vector<Client> clients;

  // system_views.caches: one cache.
  struct Cache {
    std::string name;
    std::optional<int64_t> capacity_bytes;  // null when the cache is not bounded in bytes
    std::optional<int64_t> size_bytes;      // null when its bytes are not measured
    int32_t entry_count = 0;
    int64_t request_count = 0;
    int64_t hit_count = 0;
  };
  std::vector<Cache> caches;

  // The latency tables: a latency histogram's figures.
  struct Latency {
    int64_t count = 0;
    double p50_ms = 0;
    double p99_ms = 0;
    double max_ms = 0;
  };
  // disk_usage, max_partition_size and the four latency tables: one user table or view.
  struct TableMetrics {
    std::string keyspace;
    std::string table;
    int64_t disk_usage_bytes = 0;
    int64_t max_partition_bytes = 0;
    Latency local_read;
    Latency local_write;
    Latency coordinator_read;
    Latency coordinator_write;
  };
  std::vector<TableMetrics> tables;

  // system_views.sstable_tasks: one running compaction or flush.
  struct SSTableTask {
    std::string keyspace;  // "*" when it is not one table's
    std::string table;
    common::Uuid task_id;
    std::string kind;  // "compaction", "flush"
    int64_t progress = 0;
    int64_t total = 0;
    std::string unit;  // "bytes"
  };
  std::vector<SSTableTask> sstable_tasks;

  // system_views.thread_pools: one pool of threads.
  struct ThreadPool {
    std::string name;
    int32_t active_tasks = 0;
    int32_t active_tasks_limit = 0;
    int32_t pending_tasks = 0;
    std::optional<int64_t> completed_tasks;  // null when the pool does not count them
    int64_t blocked_tasks = 0;
    int64_t blocked_tasks_all_time = 0;
  };
  std::vector<ThreadPool> thread_pools;
};

// The rows of `table`, a system_views table of `SystemTables()`, in key order (the keyspace
// uses Cassandra's LocalPartitioner: partitions sort by key, not by token). Invalid when
// `table` is not one, or a client's address does not parse.
common::Result<std::vector<SystemRow>> SystemViewsRows(const TableMetadata& table,
                                                       const SystemViewsData& data);

}  // namespace schema
