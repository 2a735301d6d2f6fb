// EngineMetrics: what the engine records about the statements it runs (docs/operations.md §4;
// docs/dev/architecture.md §5).
//
// Two kinds of figures:
//   1. Process-wide, in common::metrics::Registry::Global() (every Database of the process adds
//      to them; tests compare deltas): statements by kind (`cqld_cql_statements_total{kind}`),
//      and Cassandra's ClientRequest latencies and failures by scope — Read (a SELECT of
//      partitions by key), RangeSlice (any other SELECT: token ranges, whole table, index),
//      Write, CASRead (a SELECT at SERIAL/LOCAL_SERIAL), CASWrite (a conditional write) — plus
//      batches by type and CAS writes whose condition was not met.
//   2. Per table of one Database: local read and write latencies (Cassandra's Table metrics
//      ReadLatency/WriteLatency), kept here and exported by the Database's collector with
//      keyspace and table labels, and reported by `Database::TableStatistics`. A batch counts
//      one write, with the batch's latency, for each distinct table it writes.
//
// Latency is the time the engine spends running the statement, after parsing, binding and
// access checks, so on a single node it is both coordinator and local latency.
//
// Thread-safety: thread-safe. Recording costs a few relaxed atomic adds and, for the per-table
// histograms, a shared lock and one hash look-up.

#pragma once

#include <chrono>
#include <memory>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/metrics.h"
#include "common/result.h"
#include "cql/session.h"

namespace engine {

struct PreparedStatement;
class ModificationStatement;

class EngineMetrics {
 public:
  using Duration = std::chrono::steady_clock::duration;

  // One table's local latencies (seconds, Histogram::LatencyBounds()).
  struct TableLatencies {
    common::metrics::Histogram read{common::metrics::Histogram::LatencyBounds()};
    common::metrics::Histogram write{common::metrics::Histogram::LatencyBounds()};
  };

  EngineMetrics() = default;
  EngineMetrics(const EngineMetrics&) = delete;
  EngineMetrics& operator=(const EngineMetrics&) = delete;

  // One statement `prepared` that ran for `elapsed` with `result` (header: what is recorded).
  void RecordStatement(const PreparedStatement& prepared, const cql::QueryOptions& options,
                       Duration elapsed, const common::Result<cql::ResultSet>& result);
  // One batch of `statements` (a BATCH request or BEGIN BATCH), counted as a BATCH statement.
  void RecordBatch(cql::BatchType type, std::span<const ModificationStatement* const> statements,
                   Duration elapsed, const common::Result<cql::ResultSet>& result);

  // The latencies of the table stored as `storage_id`; nullptr when it never ran a statement.
  // The pointer stays valid as long as this object.
  const TableLatencies* FindTable(std::string_view storage_id) const;

 private:
  TableLatencies& Table(std::string_view storage_id);

  mutable std::shared_mutex mutex_;
  // GUARDED_BY(mutex_); entries are never removed (a dropped table's stay until close).
  std::unordered_map<std::string, std::unique_ptr<TableLatencies>> tables_;
};

// Counts a partition lock (execution_context.h: LWT, counter and view writes) that was held by
// another write when asked for: `cqld_partition_lock_contended_total`, what cqld has in place
// of Cassandra's Paxos contention.
void RecordPartitionLockContention();

// "SELECT", "INSERT", "UPDATE", "DELETE", "BATCH", "USE", "TRUNCATE", "DESCRIBE", "DDL" (schema
// statements), "DCL" (roles and permissions) or "OTHER": the `kind` label of
// cqld_cql_statements_total.
std::string_view StatementKindLabel(const PreparedStatement& prepared);

}  // namespace engine
