// What the system_views tables show (schema/system_views.h; docs/operations.md "system_views")
// and where the engine gets it. `Database::SystemViews(table)` (system_views.cc) gathers the
// figures one table needs at read time:
//   - settings: the engine's (DatabaseOptions, under cassandra.yaml's names) and the source's;
//   - clients: the source's (the server's connections);
//   - caches: the RocksDB block cache (store statistics) and the prepared-statement cache;
//   - disk_usage, max_partition_size, *_latency: every user table and view, from the same
//     figures `Database::TableStatistics` reports (table_statistics.h);
//   - sstable_tasks: none listed (see docs/operations.md);
//   - thread_pools: RocksDB's background pools and the purge thread, plus the source's.
//
// The layer above (server/) registers a `SystemViewsSource` for what only it knows, so the
// engine never includes it.
//
// Thread-safety: a SystemViewsSource's functions are called from any request thread, at any
// time until it is replaced; they must be thread-safe and must not call back into the Database.

#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "schema/system_views.h"

namespace engine {

// One connected client, as system_views.clients shows it.
using ClientInfo = schema::SystemViewsData::Client;

struct SystemViewsSource {
  using ThreadPoolList = std::vector<schema::SystemViewsData::ThreadPool>;
  // The connected clients (system_views.clients); null: none.
  std::function<std::vector<schema::SystemViewsData::Client>()> clients;
  // Settings the engine does not know (network, TLS, limits), merged into system_views.settings;
  // null: none.
  std::function<std::map<std::string, std::optional<std::string>>()> settings;
  // Thread pools of the layer above (system_views.thread_pools); null: none.
  std::function<ThreadPoolList()> thread_pools;
};

}  // namespace engine
