#include "engine/request_metrics.h"

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <utility>
#include <variant>
#include <vector>

#include "engine/authorizer.h"
#include "engine/modification_statement.h"
#include "engine/query_processor.h"
#include "engine/role_manager.h"
#include "engine/schema_manager.h"
#include "engine/select_statement.h"

namespace engine {
namespace {

using common::metrics::Counter;
using common::metrics::Histogram;
using common::metrics::Registry;

constexpr std::array<std::string_view, 11> kKinds = {"SELECT", "INSERT", "UPDATE",   "DELETE",
                                                     "BATCH",  "USE",    "TRUNCATE", "DESCRIBE",
                                                     "DDL",    "DCL",    "OTHER"};

enum Scope : size_t { kRead, kRangeSlice, kWrite, kCasRead, kCasWrite, kScopes };
constexpr std::array<std::string_view, kScopes> kScopeNames = {"Read", "RangeSlice", "Write",
                                                               "CASRead", "CASWrite"};
constexpr std::array<std::string_view, 3> kBatchTypes = {"logged", "unlogged", "counter"};

// The process-wide metrics, looked up once (header item 1).
struct GlobalMetrics {
  std::array<Counter*, kKinds.size()> statements{};
  std::array<Histogram*, kScopes> latency{};
  std::array<Counter*, kScopes> failures{};
  std::array<Histogram*, kBatchTypes.size()> batch_latency{};
  std::array<Counter*, kBatchTypes.size()> batch_failures{};
  Counter* condition_not_met = nullptr;
  Counter* lock_contention = nullptr;

  GlobalMetrics() {
    Registry& registry = Registry::Global();
    for (size_t i = 0; i < kKinds.size(); ++i) {
      statements[i] = &registry.counter("cqld_cql_statements_total",
                                        "CQL statements executed (prepared or not), by kind.",
                                        {{"kind", std::string(kKinds[i])}});
    }
    for (size_t i = 0; i < kScopes; ++i) {
      common::metrics::Labels scope = {{"scope", std::string(kScopeNames[i])}};
      latency[i] = &registry.histogram(
          "cqld_client_request_latency_seconds",
          "Time the engine spent executing requests, by Cassandra ClientRequest scope.", scope,
          Histogram::LatencyBounds());
      failures[i] = &registry.counter("cqld_client_request_failures_total",
                                      "Requests that ended in an error, by scope.", scope);
    }
    for (size_t i = 0; i < kBatchTypes.size(); ++i) {
      common::metrics::Labels type = {{"type", std::string(kBatchTypes[i])}};
      batch_latency[i] =
          &registry.histogram("cqld_batch_latency_seconds", "Time spent executing batches.", type,
                              Histogram::LatencyBounds());
      batch_failures[i] =
          &registry.counter("cqld_batch_failures_total", "Batches that ended in an error.", type);
    }
    condition_not_met = &registry.counter(
        "cqld_client_request_condition_not_met_total",
        "Conditional (CAS) writes and batches whose IF condition was not met ([applied] false).",
        {{"scope", "CASWrite"}});
    lock_contention = &registry.counter(
        "cqld_partition_lock_contended_total",
        "Partition locks (LWT, counter and view writes) that were held by another write when asked "
        "for.");
  }
};

GlobalMetrics& Global() {
  static GlobalMetrics metrics;  // pointers into the global registry, which outlives it
  return metrics;
}

double Seconds(EngineMetrics::Duration elapsed) {
  return std::chrono::duration<double>(elapsed).count();
}

bool IsSerial(cql::Consistency consistency) {
  return consistency == cql::Consistency::kSerial || consistency == cql::Consistency::kLocalSerial;
}

// Whether a conditional statement's result says `[applied] = false`.
bool NotApplied(const common::Result<cql::ResultSet>& result) {
  if (!result.ok() || result->kind() != cql::ResultSet::Kind::kRows || result->empty()) {
    return false;
  }
  if (result->columns().empty() || result->columns()[0].name != "[applied]") return false;
  common::Result<bool> applied = result->GetBoolean(0, 0);
  return applied.ok() && !*applied;
}

size_t KindIndex(std::string_view kind) {
  for (size_t i = 0; i < kKinds.size(); ++i) {
    if (kKinds[i] == kind) return i;
  }
  return kKinds.size() - 1;
}

}  // namespace

void RecordPartitionLockContention() { Global().lock_contention->Increment(); }

std::string_view StatementKindLabel(const PreparedStatement& prepared) {
  const cql::Statement& statement = prepared.statement;
  if (std::holds_alternative<cql::Select>(statement)) return "SELECT";
  if (std::holds_alternative<cql::Insert>(statement)) return "INSERT";
  if (std::holds_alternative<cql::Update>(statement)) return "UPDATE";
  if (std::holds_alternative<cql::Delete>(statement)) return "DELETE";
  if (std::holds_alternative<cql::Batch>(statement)) return "BATCH";
  if (std::holds_alternative<cql::Use>(statement)) return "USE";
  if (std::holds_alternative<cql::Truncate>(statement)) return "TRUNCATE";
  if (std::holds_alternative<cql::Describe>(statement)) return "DESCRIBE";
  if (SchemaManager::IsSchemaStatement(statement)) return "DDL";
  if (RoleManager::IsRoleStatement(statement) || Authorizer::IsPermissionStatement(statement)) {
    return "DCL";
  }
  return "OTHER";
}

void EngineMetrics::RecordStatement(const PreparedStatement& prepared,
                                    const cql::QueryOptions& options, Duration elapsed,
                                    const common::Result<cql::ResultSet>& result) {
  if (!prepared.batch.empty()) {  // BEGIN BATCH ... APPLY BATCH
    std::vector<const ModificationStatement*> statements;
    for (const auto& statement : prepared.batch) statements.push_back(statement.get());
    const auto& batch = std::get<cql::Batch>(prepared.statement);
    RecordBatch(static_cast<cql::BatchType>(batch.type), statements, elapsed, result);
    return;
  }
  GlobalMetrics& global = Global();
  global.statements[KindIndex(StatementKindLabel(prepared))]->Increment();
  const double seconds = Seconds(elapsed);
  std::optional<Scope> scope;
  if (prepared.select) {
    const SelectStatement& select = *prepared.select;
    scope = IsSerial(options.consistency)      ? kCasRead
            : select.reads_partitions_by_key() ? kRead
                                               : kRangeSlice;
    if (!select.is_system() && result.ok()) {
      Table(select.table().storage_id).read.Observe(seconds);
    }
  } else if (prepared.modification) {
    scope = prepared.modification->has_conditions() ? kCasWrite : kWrite;
    if (result.ok()) Table(prepared.modification->table().storage_id).write.Observe(seconds);
    if (NotApplied(result)) global.condition_not_met->Increment();
  }
  if (!scope) return;
  global.latency[*scope]->Observe(seconds);
  if (!result.ok()) global.failures[*scope]->Increment();
}

void EngineMetrics::RecordBatch(cql::BatchType type,
                                std::span<const ModificationStatement* const> statements,
                                Duration elapsed, const common::Result<cql::ResultSet>& result) {
  GlobalMetrics& global = Global();
  global.statements[KindIndex("BATCH")]->Increment();
  const size_t index = std::min(static_cast<size_t>(type), kBatchTypes.size() - 1);
  const double seconds = Seconds(elapsed);
  global.batch_latency[index]->Observe(seconds);
  if (!result.ok()) {
    global.batch_failures[index]->Increment();
    return;
  }
  if (NotApplied(result)) global.condition_not_met->Increment();
  std::set<std::string_view> tables;
  for (const ModificationStatement* statement : statements) {
    tables.insert(statement->table().storage_id);
  }
  for (std::string_view table : tables) Table(table).write.Observe(seconds);
}

const EngineMetrics::TableLatencies* EngineMetrics::FindTable(std::string_view storage_id) const {
  std::shared_lock lock(mutex_);
  auto it = tables_.find(std::string(storage_id));
  return it == tables_.end() ? nullptr : it->second.get();
}

EngineMetrics::TableLatencies& EngineMetrics::Table(std::string_view storage_id) {
  {
    std::shared_lock lock(mutex_);
    auto it = tables_.find(std::string(storage_id));
    if (it != tables_.end()) return *it->second;
  }
  std::unique_lock lock(mutex_);
  std::unique_ptr<TableLatencies>& entry = tables_[std::string(storage_id)];
  if (!entry) entry = std::make_unique<TableLatencies>();
  return *entry;
}

}  // namespace engine
