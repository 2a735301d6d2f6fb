#include "engine/batch_statement.h"
#include "engine/request_metrics.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/logging.h"
#include "cql/types/value_codec.h"
#include "engine/maintenance_plan.h"
#include "engine/modification_statement.h"
#include "engine/tracing.h"
#include "storage/cell_merge.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;

namespace {

// Refuses counter and non-counter statements in the wrong kind of batch, as Cassandra does
// (UNLOGGED and COUNTER batches take counter updates, LOGGED ones do not; none mixes them).
Status CheckBatchType(cql::BatchType type,
                      const std::vector<const ModificationStatement*>& statements) {
  bool counters = false;
  bool non_counters = false;
  bool conditional = false;
  for (const ModificationStatement* stmt : statements) {
    (stmt->is_counter() ? counters : non_counters) = true;
    if (stmt->has_conditions()) conditional = true;
  }
  if (type == cql::BatchType::kCounter && non_counters) {
    return Status::Invalid("Cannot include non-counter statement in a counter batch");
  }
  if (counters && non_counters) {
    return Status::Invalid("Counter and non-counter mutations cannot exist in the same batch");
  }
  if (type == cql::BatchType::kLogged && counters) {
    return Status::Invalid("Cannot include a counter statement in a logged batch");
  }
  if (conditional && counters) {
    return Status::Invalid("Cannot include a counter statement in a conditional batch");
  }
  return Status::Ok();
}

// The checks of BEGIN BATCH's own USING clause, in Cassandra's order.
Status CheckBatchUsing(const cql::Batch& batch,
                       const std::vector<std::unique_ptr<ModificationStatement>>& statements) {
  if (batch.using_attributes.ttl) {
    return Status::Invalid("Global TTL on the BATCH statement is not supported.");
  }
  if (!batch.using_attributes.timestamp) return Status::Ok();
  bool counters = false;
  for (const auto& stmt : statements) {
    if (stmt->has_conditions()) {
      return Status::Invalid("Cannot provide custom timestamp for conditional BATCH");
    }
  }
  if (batch.type == cql::Batch::Type::kCounter) {
    return Status::Invalid("Cannot provide custom timestamp for counter BATCH");
  }
  for (const auto& stmt : statements) {
    if (stmt->has_custom_timestamp()) {
      return Status::Invalid("Timestamp must be set either on BATCH or individual statements");
    }
    if (stmt->is_counter()) counters = true;
  }
  if (counters) {
    return Status::Invalid("Cannot provide custom timestamp for a BATCH containing counters");
  }
  return Status::Ok();
}

// Locks every partition the batch writes, in address order; for a conditional batch also
// checks that they are one partition of one table.
Result<std::vector<std::unique_lock<std::mutex>>> LockPartitions(
    const ExecutionContext& context, const std::vector<const ModificationStatement*>& statements,
    const std::vector<std::span<const cql::BoundValue>>& values, bool conditional) {
  std::set<std::mutex*> mutexes;
  std::string table_id;
  Bytes partition;
  for (size_t i = 0; i < statements.size(); ++i) {
    ASSIGN_OR_RETURN(std::vector<PartitionKey> partitions,
                     statements[i]->Partitions(context, values[i]));
    for (const PartitionKey& p : partitions) {
      if (conditional) {
        if (!table_id.empty() && table_id != statements[i]->table().storage_id) {
          return Status::Invalid("Batch with conditions cannot span multiple tables");
        }
        if (!partition.empty() && partition != p.prefix) {
          return Status::Invalid("Batch with conditions cannot span multiple partitions");
        }
        table_id = statements[i]->table().storage_id;
        partition = p.prefix;
      }
      mutexes.insert(&context.locks->For(statements[i]->table().storage_id, p.prefix));
    }
  }
  std::vector<std::unique_lock<std::mutex>> guards;
  for (std::mutex* m : mutexes) {
    guards.emplace_back(*m, std::try_to_lock);
    if (!guards.back().owns_lock()) {
      RecordPartitionLockContention();
      guards.back().lock();
    }
  }
  return guards;
}

// The answer of a conditional batch whose conditions fail, as Cassandra builds it: `[applied]`
// false, then the primary key columns and the conditioned columns (every column when a
// statement has IF EXISTS or IF NOT EXISTS), one row per existing conditioned row, in
// clustering order.
cql::ResultSet FailedConditionsReport(const ModificationStatement& first,
                                      const std::vector<int>& columns,
                                      const std::map<Bytes, RowData>& rows) {
  const schema::TableMetadata& table = *first.table().table;
  std::vector<cql::ColumnSpec> specs{
      cql::ColumnSpec{table.keyspace, table.name, "[applied]", cql::CqlType::Boolean()}};
  for (int index : columns) {
    const schema::ColumnMetadata& column = first.table().column(index);
    specs.push_back(cql::ColumnSpec{table.keyspace, table.name, column.name, column.type});
  }
  cql::ResultSet report = cql::ResultSet::Rows(specs);
  for (const auto& [key, row] : rows) {
    report.AddCell(cql::SerializeBoolean(false));
    for (int index : columns) report.AddCell(row.cells[index].value);
  }
  if (rows.empty()) {
    report = cql::ResultSet::Rows({specs[0]});
    report.AddCell(cql::SerializeBoolean(false));
  }
  return report;
}

// Checks every condition of a conditional batch (one partition of one table, locked). Returns
// nullopt when they all hold, else the report to answer with.
Result<std::optional<cql::ResultSet>> CheckBatchConditions(
    const ExecutionContext& context, const std::vector<const ModificationStatement*>& statements,
    const std::vector<std::span<const cql::BoundValue>>& values) {
  const ModificationStatement* first = nullptr;
  bool applied = true;
  bool every_column = false;
  std::vector<int> columns;
  std::map<Bytes, RowData> rows;  // by storage key: clustering order
  for (size_t i = 0; i < statements.size(); ++i) {
    const ModificationStatement& stmt = *statements[i];
    if (!stmt.has_conditions()) continue;
    if (first == nullptr) {
      first = &stmt;
      for (int index : stmt.table().partition_key) columns.push_back(index);
      for (int index : stmt.table().clustering) columns.push_back(index);
    }
    ASSIGN_OR_RETURN(ModificationStatement::ConditionCheck check,
                     stmt.CheckConditions(context, values[i]));
    applied = applied && check.applied;
    every_column = every_column || stmt.has_exists_condition();
    for (int index : stmt.ConditionColumns()) {
      if (std::find(columns.begin(), columns.end(), index) == columns.end()) {
        columns.push_back(index);
      }
    }
    if (check.exists) rows.emplace(check.row->key, std::move(*check.row));
  }
  if (applied) return std::optional<cql::ResultSet>();
  if (every_column) {
    columns.clear();
    for (size_t i = 0; i < first->table().table->columns.size(); ++i) {
      columns.push_back(static_cast<int>(i));
    }
  }
  return std::optional<cql::ResultSet>(FailedConditionsReport(*first, columns, rows));
}

// The size Cassandra counts for a mutation (PartitionUpdate.dataSize): per row its liveness
// and deletion, per cell its timestamp, TTL and local deletion time, value and path.
int64_t MutationDataSize(const Mutation& m) {
  int64_t size = 0;
  for (const Bytes& v : m.partition_key) size += static_cast<int64_t>(v.size());
  if (m.fragment.liveness) size += m.fragment.liveness->ttl > 0 ? 16 : 8;
  if (m.fragment.deletion) size += 12;
  for (const storage::Cell& cell : m.fragment.cells) {
    size += 16 + static_cast<int64_t>(cell.value.size());
    if (cell.path) size += static_cast<int64_t>(cell.path->size());
  }
  return size;
}

// A size as Cassandra prints it (FBUtilities.prettyPrintMemory): "5.123KiB".
std::string PrettyMemory(int64_t bytes) {
  const double size = static_cast<double>(bytes);
  if (bytes >= (int64_t{1} << 30)) return fmt::format("{:.3f}GiB", size / (1 << 30));
  if (bytes >= (int64_t{1} << 20)) return fmt::format("{:.3f}MiB", size / (1 << 20));
  return fmt::format("{:.3f}KiB", size / (1 << 10));
}

// Tallies a batch's size, the partitions and the tables it writes, to judge it as Cassandra
// does (BatchStatement.verifyBatchSize, verifyBatchType): a batch over more than one partition
// fails above batch_size_fail_threshold and is warned about above batch_size_warn_threshold; an
// unlogged batch over more than unlogged_batch_across_partitions_warn_threshold partitions is
// warned about. A single-partition batch is neither.
class BatchSize {
 public:
  explicit BatchSize(const BatchThresholds& thresholds) : thresholds_(thresholds) {}
  // Called for every row of the batch: names are formatted only by Check, and only for a
  // batch over several partitions; consecutive rows of one partition are counted once.
  void Add(const schema::TableMetadata& table, const Mutation& m) {
    if (last_partition_ == nullptr || last_partition_->second != m.partition_prefix ||
        last_partition_->first != table.keyspace) {
      last_partition_ = &*partitions_.emplace(table.keyspace, m.partition_prefix).first;
    }
    tables_.insert(&table);
    size_ += MutationDataSize(m);
  }
  // The batch's verdict: an error, or Ok with the warnings (also logged) added to `warnings`.
  Status Check(cql::BatchType type, std::vector<std::string>* warnings) const {
    if (partitions_.size() <= 1) return Status::Ok();
    std::set<std::string> names;
    for (const schema::TableMetadata* table : tables_) {
      names.insert(fmt::format("{}.{}", cql::QuoteIdentifierIfNeeded(table->keyspace),
                               cql::QuoteIdentifierIfNeeded(table->name)));
    }
    const std::string tables = fmt::format("[{}]", fmt::join(names, ", "));
    const int64_t fail = thresholds_.fail_bytes;
    const int64_t warn = thresholds_.warn_bytes;
    if (size_ > fail) {
      LOG_ERROR(
          "Batch for {} is of size {}, exceeding specified threshold of {} by {}. (see "
          "batch_size_fail_threshold)",
          tables, PrettyMemory(size_), PrettyMemory(fail), PrettyMemory(size_ - fail));
      return Status::Invalid("Batch too large");
    }
    if (size_ > warn) {
      // As Cassandra 4's BatchStatement.verifyBatchSize: the log line pretty-prints the sizes,
      // the client warning gives them in bytes.
      LOG_WARNING("Batch for {} is of size {}, exceeding specified threshold of {} by {}.", tables,
                  PrettyMemory(size_), PrettyMemory(warn), PrettyMemory(size_ - warn));
      warnings->push_back(
          fmt::format("Batch for {} is of size {}, exceeding specified threshold of {} by {}.",
                      tables, size_, warn, size_ - warn));
    }
    if (type == cql::BatchType::kUnlogged &&
        partitions_.size() > thresholds_.unlogged_partitions_warn) {
      Warn(fmt::format("Unlogged batch covering {} partitions detected against table{} {}. You "
                       "should use a logged batch for atomicity, or asynchronous writes for "
                       "performance.",
                       partitions_.size(), names.size() == 1 ? "" : "s", tables),
           warnings);
    }
    return Status::Ok();
  }

 private:
  static void Warn(std::string warning, std::vector<std::string>* warnings) {
    LOG_WARNING("{}", warning);
    warnings->push_back(std::move(warning));
  }

  const BatchThresholds& thresholds_;
  std::set<std::pair<std::string, Bytes>> partitions_;
  const std::pair<std::string, Bytes>* last_partition_ = nullptr;  // in partitions_
  std::set<const schema::TableMetadata*> tables_;
  int64_t size_ = 0;
};

// Builds every statement's mutations into one write batch with the view and index mutations
// `plans` imply, and writes it.
Status WriteBatchMutations(const ExecutionContext& context, cql::BatchType type,
                           const std::vector<const ModificationStatement*>& statements,
                           const std::vector<std::span<const cql::BoundValue>>& values,
                           const std::vector<std::shared_ptr<const MaintenancePlan>>& plans,
                           const WriteParams& params, std::vector<std::string>* warnings) {
  storage::WriteBatch batch;
  // The mutations of each table that has something to maintain, with its plan.
  std::map<std::string, std::pair<const MaintenancePlan*, std::vector<Mutation>>> maintained;
  std::vector<Mutation> mutations;
  // Counter rows, combined before they are written: a later update of a counter carries the
  // batch's running total (CounterTotals) and must replace the earlier cell, which has the same
  // timestamp and would otherwise win the merge whenever its value is greater.
  std::map<std::pair<std::string, Bytes>, storage::RowFragment> counter_rows;
  BatchSize size(context.batch_thresholds);
  for (size_t i = 0; i < statements.size(); ++i) {
    mutations.clear();
    RETURN_IF_ERROR(statements[i]->AddMutations(context, values[i], params, &mutations));
    const std::string& table = statements[i]->table().storage_id;
    for (const Mutation& m : mutations) {
      size.Add(*statements[i]->table().table, m);
      if (!statements[i]->is_counter()) {
        batch.Merge(table, m.key, m.fragment);
        continue;
      }
      auto [row, added] = counter_rows.try_emplace({table, m.key}, m.fragment);
      if (added) continue;
      std::vector<storage::Cell>& cells = row->second.cells;
      for (const storage::Cell& cell : m.fragment.cells) {
        std::erase_if(cells, [&](const storage::Cell& old) {
          return old.column_id == cell.column_id && old.path == cell.path;
        });
        cells.push_back(cell);
      }
      if (m.fragment.liveness) row->second.liveness = m.fragment.liveness;
      if (m.fragment.deletion) row->second.deletion = m.fragment.deletion;
    }
    if (plans[i] != nullptr) {
      auto& [plan, table_mutations] = maintained[table];
      plan = plans[i].get();
      for (Mutation& m : mutations) table_mutations.push_back(std::move(m));
    }
  }
  RETURN_IF_ERROR(size.Check(type, warnings));
  for (auto& [key, fragment] : counter_rows) {
    batch.Merge(key.first, key.second, storage::Canonical(std::move(fragment)));
  }
  if (batch.empty()) return Status::Ok();
  for (const auto& [table, entry] : maintained) {
    RETURN_IF_ERROR(entry.first->AddMutations(*context.store, entry.second, params, &batch));
  }
  Trace("Appending the batch of {} statements to the write-ahead log and memtable",
        statements.size());
  RETURN_IF_ERROR(context.store->Write(batch));
  Trace("Batch applied");
  return Status::Ok();
}

}  // namespace

Result<std::vector<cql::BoundValue>> BatchEntryValues(const cql::BatchEntry& entry,
                                                      const std::vector<cql::ColumnSpec>& specs) {
  std::vector<cql::BoundValue> values = entry.values;
  if (!entry.value_names.empty()) {
    std::vector<cql::BoundValue> named(specs.size(), cql::BoundValue::Unset());
    for (size_t i = 0; i < entry.value_names.size() && i < entry.values.size(); ++i) {
      for (size_t j = 0; j < specs.size(); ++j) {
        if (specs[j].name == entry.value_names[i]) named[j] = entry.values[i];
      }
    }
    values = std::move(named);
  }
  if (values.size() != specs.size()) {
    return Status::Invalid(fmt::format("There were {} markers(?) in CQL but {} bound variables",
                                       specs.size(), values.size()));
  }
  return values;
}

cql::BatchType BatchTypeOf(const cql::Batch& batch) {
  switch (batch.type) {
    case cql::Batch::Type::kCounter:
      return cql::BatchType::kCounter;
    case cql::Batch::Type::kUnlogged:
      return cql::BatchType::kUnlogged;
    default:
      return cql::BatchType::kLogged;
  }
}

Status ValidateBatchStatement(const cql::Batch& batch,
                              const std::vector<std::unique_ptr<ModificationStatement>>& prepared) {
  RETURN_IF_ERROR(CheckBatchUsing(batch, prepared));
  std::vector<const ModificationStatement*> statements;
  for (const auto& stmt : prepared) statements.push_back(stmt.get());
  return CheckBatchType(BatchTypeOf(batch), statements);
}

Result<cql::ResultSet> ExecuteBatch(const ExecutionContext& context, cql::BatchType type,
                                    const std::vector<const ModificationStatement*>& statements,
                                    const std::vector<std::span<const cql::BoundValue>>& values,
                                    std::optional<int64_t> timestamp) {
  RETURN_IF_ERROR(CheckBatchType(type, statements));
  Trace("Executing {} batch of {} statements",
        type == cql::BatchType::kUnlogged  ? "unlogged"
        : type == cql::BatchType::kCounter ? "counter"
                                           : "logged",
        statements.size());
  bool conditional = false;
  bool needs_lock = false;
  for (const ModificationStatement* stmt : statements) {
    if (stmt->has_conditions()) conditional = true;
    if (stmt->is_counter()) needs_lock = true;
  }
  // From here to Store::Write: the views and indexes to maintain are the current catalogue's.
  std::shared_lock<std::shared_mutex> gate(*context.write_gate);
  std::shared_ptr<const schema::Catalog> current = context.catalog();
  std::vector<std::shared_ptr<const MaintenancePlan>> plans;
  for (const ModificationStatement* stmt : statements) {
    ASSIGN_OR_RETURN(std::shared_ptr<const MaintenancePlan> plan,
                     stmt->Maintenance(context, current));
    if (plan != nullptr) needs_lock = true;
    plans.push_back(std::move(plan));
  }
  needs_lock = needs_lock || conditional;
  // Partitions touched, for conditional batch validation and locking.
  std::vector<std::unique_lock<std::mutex>> guards;
  if (needs_lock) {
    ASSIGN_OR_RETURN(guards, LockPartitions(context, statements, values, conditional));
  }
  if (conditional) {
    Trace("Reading existing values for CAS precondition");
    ASSIGN_OR_RETURN(std::optional<cql::ResultSet> report,
                     CheckBatchConditions(context, statements, values));
    if (report) {
      Trace("CAS precondition does not match current values");
      return std::move(*report);
    }
    Trace("CAS precondition is met; applying the batch");
  }
  WriteParams params;
  params.now_seconds = context.NowSeconds();
  params.timestamp = timestamp ? *timestamp : context.timestamps->Next();
  CounterTotals counter_totals;
  params.counter_totals = &counter_totals;
  std::vector<std::string> warnings;
  RETURN_IF_ERROR(WriteBatchMutations(context, type, statements, values, plans, params, &warnings));
  if (conditional) {
    const ModificationStatement* first = statements.front();
    cql::ResultSet result = cql::ResultSet::Rows(
        {cql::ColumnSpec{first->table().table->keyspace, first->table().table->name, "[applied]",
                         cql::CqlType::Boolean()}});
    result.AddCell(cql::SerializeBoolean(true));
    return result;
  }
  cql::ResultSet result = cql::ResultSet::Void();
  for (std::string& warning : warnings) result.AddWarning(std::move(warning));
  return result;
}

Result<cql::ResultSet> ExecuteBatchStatement(
    const ExecutionContext& context, const cql::Batch& batch,
    const std::vector<std::unique_ptr<ModificationStatement>>& prepared,
    const cql::QueryOptions& options, std::span<const cql::BoundValue> values) {
  std::vector<const ModificationStatement*> statements;
  std::vector<std::span<const cql::BoundValue>> entry_values;
  for (const auto& stmt : prepared) {
    statements.push_back(stmt.get());
    entry_values.push_back(values);
  }
  const cql::BatchType type = BatchTypeOf(batch);
  std::optional<int64_t> timestamp = options.timestamp;
  if (batch.using_attributes.timestamp) {
    cql::FunctionContext functions = context.function_context();
    EvalContext eval{values, &functions};
    ASSIGN_OR_RETURN(ValueExpr ts,
                     ValueExpr::Prepare(*batch.using_attributes.timestamp, cql::CqlType::Bigint(),
                                        "[timestamp]", nullptr));
    ASSIGN_OR_RETURN(cql::BoundValue v, ts.Evaluate(eval));
    if (v.is_value()) {
      ASSIGN_OR_RETURN(timestamp, cql::DeserializeBigint(v.bytes));
    }
  }
  return ExecuteBatch(context, type, statements, entry_values, timestamp);
}

}  // namespace engine
