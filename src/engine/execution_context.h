// ExecutionContext: what executing a prepared statement needs from the database — storage,
// clocks and generators, the lock table for lightweight transactions and view/index
// maintenance, the write gate, and the data the system tables show. One per Database, shared
// by all executions.
//
// Thread-safety: every member is thread-safe (or immutable) and outlives executions.

#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <span>
#include <string_view>

#include "common/clock.h"
#include "common/uuid.h"
#include "cql/functions/functions.h"
#include "engine/table_schema.h"
#include "schema/catalog.h"
#include "schema/system_tables.h"
#include "schema/system_views.h"
#include "storage/store.h"

namespace engine {

class EngineMetrics;
class RowCache;

// Striped mutexes serializing lightweight transactions, counter updates and view maintenance
// per partition (docs/dev/storage_format.md §7-8).
class PartitionLocks {
 public:
  static constexpr size_t kStripes = 1024;
  // The mutex of the partition with storage prefix `partition_prefix` in `table_id`.
  std::mutex& For(std::string_view table_id, std::string_view partition_prefix);

 private:
  std::array<std::mutex, kStripes> stripes_;
};

// What a batch may be before the client is warned or the batch refused (cassandra.yaml's
// batch_size_warn_threshold, batch_size_fail_threshold and
// unlogged_batch_across_partitions_warn_threshold, with their defaults).
struct BatchThresholds {
  int64_t warn_bytes = 5 * 1024;
  int64_t fail_bytes = 50 * 1024;
  size_t unlogged_partitions_warn = 10;
};

struct ExecutionContext {
  storage::Store* store = nullptr;
  const common::Clock* clock = nullptr;
  common::TimeuuidGenerator* timeuuids = nullptr;
  common::WriteTimestampGenerator* timestamps = nullptr;
  ListPathAllocator* list_paths = nullptr;
  PartitionLocks* locks = nullptr;
  // The row cache single-partition SELECTs read through (row_cache.h); null: none.
  RowCache* row_cache = nullptr;
  // The write gate (maintenance_plan.h): every write holds it shared from looking up the views
  // and indexes of the tables it writes in the current catalogue until Store::Write returns;
  // CREATE MATERIALIZED VIEW / CREATE INDEX take it exclusively once, after publishing the new
  // catalogue, to drain the writes that did not see the new view or index. Null: no gate.
  std::shared_mutex* write_gate = nullptr;
  const schema::LocalNodeInfo* local_node = nullptr;
  // The current catalogue (system tables show the latest schema).
  std::function<std::shared_ptr<const schema::Catalog>()> catalog;
  // The roles and grants the system_auth tables show (null: they are empty).
  std::function<schema::AuthTablesData()> auth_tables;
  // Where executions are recorded (request_metrics.h); null: nowhere.
  EngineMetrics* metrics = nullptr;
  // The traces the system_traces tables show: the sessions `ids`, or all when empty (null:
  // they are empty).
  std::function<schema::TraceTablesData(std::span<const common::Uuid> ids)> trace_tables;
  // What the system_views table named by the argument shows (null: they are empty).
  std::function<schema::SystemViewsData(std::string_view table)> system_views;
  // DatabaseOptions::tombstone_warn_threshold and tombstone_failure_threshold.
  int64_t tombstone_warn_threshold = 1000;
  int64_t tombstone_failure_threshold = 100000;
  // DatabaseOptions::batch_thresholds.
  BatchThresholds batch_thresholds;

  cql::FunctionContext function_context() const { return cql::FunctionContext{clock, timeuuids}; }
  int64_t NowSeconds() const { return clock->NowMicros() / 1000000; }
};

}  // namespace engine
