#include "engine/modification_statement.h"
#include "engine/request_metrics.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <utility>

#include <fmt/format.h>

#include "cql/functions/json.h"
#include "cql/parser/statement.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_compare.h"
#include "engine/maintenance_plan.h"
#include "engine/modification_internal.h"
#include "engine/schema_lookup.h"
#include "engine/tracing.h"
#include "schema/system_tables.h"
#include "storage/key_layout.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;
using cql::BoundValue;
using cql::CqlType;
using cql::Operator;
using cql::TypeKind;
using schema::ColumnKind;
using storage::Cell;
using storage::CellKind;
using storage::DeletionTime;
using storage::RowFragment;

ModificationStatement::~ModificationStatement() = default;

// --- Execution -----------------------------------------------------------------------------

Result<WriteParams> ModificationStatement::Params(const ExecutionContext& context,
                                                  const cql::QueryOptions& options,
                                                  const EvalContext& eval) const {
  WriteParams params;
  params.now_seconds = context.NowSeconds();
  if (timestamp_) {
    ASSIGN_OR_RETURN(BoundValue v, timestamp_->Evaluate(eval));
    if (v.is_null()) return Status::Invalid("Invalid null value of timestamp");
    if (v.is_value()) {
      ASSIGN_OR_RETURN(params.timestamp, cql::DeserializeBigint(v.bytes));
      return params;
    }
  }
  params.timestamp = options.timestamp ? *options.timestamp : context.timestamps->Next();
  return params;
}

Result<std::vector<PartitionKey>> ModificationStatement::Partitions(
    const ExecutionContext& context, std::span<const BoundValue> values) const {
  cql::FunctionContext functions = context.function_context();
  EvalContext eval{values, &functions};
  return PartitionsOf(context, eval);
}

Result<std::vector<PartitionKey>> ModificationStatement::PartitionsOf(
    const ExecutionContext& context, const EvalContext& eval) const {
  if (!json_) return EvaluatePartitionKeys(*table_, restrictions_, eval);
  // INSERT JSON: the key is in the JSON value (building its mutations reads nothing).
  ASSIGN_OR_RETURN(std::vector<Mutation> mutations, BuildMutations(context, eval, WriteParams{}));
  std::vector<PartitionKey> partitions;
  for (Mutation& m : mutations) {
    if (!partitions.empty() && partitions.back().prefix == m.partition_prefix) continue;
    partitions.push_back(PartitionKey{std::move(m.partition_prefix), std::move(m.partition_key)});
  }
  return partitions;
}

Result<std::shared_ptr<const MaintenancePlan>> ModificationStatement::Maintenance(
    const ExecutionContext& context, const std::shared_ptr<const schema::Catalog>& current) const {
  cql::FunctionContext functions = context.function_context();
  if (current != nullptr && current != catalog_) {
    return MaintenancePlan::Build(current, *table_->table, functions);
  }
  std::call_once(maintenance_once_, [&]() {
    Result<std::shared_ptr<const MaintenancePlan>> plan =
        MaintenancePlan::Build(catalog_, *table_->table, functions);
    if (plan.ok()) {
      maintenance_ = std::move(plan).value();
    } else {
      maintenance_status_ = plan.status();
    }
  });
  if (!maintenance_status_.ok()) return maintenance_status_;
  return maintenance_;
}

common::Status ModificationStatement::AddMutations(const ExecutionContext& context,
                                                   std::span<const BoundValue> values,
                                                   const WriteParams& params,
                                                   std::vector<Mutation>* out) const {
  cql::FunctionContext functions = context.function_context();
  EvalContext eval{values, &functions};
  WriteParams p = params;
  if (timestamp_) {
    ASSIGN_OR_RETURN(BoundValue v, timestamp_->Evaluate(eval));
    if (v.is_value()) {
      ASSIGN_OR_RETURN(p.timestamp, cql::DeserializeBigint(v.bytes));
    }
  }
  ASSIGN_OR_RETURN(std::vector<Mutation> mutations, BuildMutations(context, eval, p));
  for (Mutation& m : mutations) out->push_back(std::move(m));
  return Status::Ok();
}

namespace {

// Locks the stripes of `partitions` of `table` in a fixed order.
class PartitionGuard {
 public:
  PartitionGuard(PartitionLocks* locks, const std::string& table_id,
                 const std::vector<PartitionKey>& partitions) {
    std::set<std::mutex*> mutexes;
    for (const PartitionKey& p : partitions) mutexes.insert(&locks->For(table_id, p.prefix));
    for (std::mutex* m : mutexes) {
      if (!m->try_lock()) {
        RecordPartitionLockContention();
        m->lock();
      }
      held_.push_back(m);
    }
  }
  ~PartitionGuard() {
    for (auto it = held_.rbegin(); it != held_.rend(); ++it) (*it)->unlock();
  }
  PartitionGuard(const PartitionGuard&) = delete;
  PartitionGuard& operator=(const PartitionGuard&) = delete;

 private:
  std::vector<std::mutex*> held_;
};

// Writes `mutations` of `table` in one batch, with the view and index mutations of `plan`
// (REQUIRES: the partition locks held when `plan` is set).
Status WriteMutations(const ExecutionContext& context, const TableSchema& table,
                      const std::vector<Mutation>& mutations, const MaintenancePlan* plan,
                      const WriteParams& params) {
  storage::WriteBatch batch;
  for (const Mutation& m : mutations) batch.Merge(table.storage_id, m.key, m.fragment);
  if (batch.empty()) return Status::Ok();
  if (plan != nullptr) {
    RETURN_IF_ERROR(plan->AddMutations(*context.store, mutations, params, &batch));
    Trace("Adding the view and index updates of {} mutations", mutations.size());
  }
  Trace("Appending {} mutations of {}.{} to the write-ahead log and memtable", mutations.size(),
        table.table->keyspace, table.table->name);
  RETURN_IF_ERROR(context.store->Write(batch));
  Trace("Mutations applied");
  return Status::Ok();
}

// Holds the write gate shared (when the context has one).
std::shared_lock<std::shared_mutex> HoldWriteGate(const ExecutionContext& context) {
  if (context.write_gate == nullptr) return std::shared_lock<std::shared_mutex>();
  return std::shared_lock<std::shared_mutex>(*context.write_gate);
}

// The statement's maintenance plan under the current catalogue.
// REQUIRES: the write gate held shared.
Result<std::shared_ptr<const MaintenancePlan>> CurrentMaintenance(
    const ExecutionContext& context, const ModificationStatement& statement) {
  std::shared_ptr<const schema::Catalog> current;
  if (context.catalog) current = context.catalog();
  return statement.Maintenance(context, current);
}

}  // namespace

Result<cql::ResultSet> ModificationStatement::Execute(const ExecutionContext& context,
                                                      const cql::QueryOptions& options,
                                                      std::span<const BoundValue> values) const {
  cql::FunctionContext functions = context.function_context();
  EvalContext eval{values, &functions};
  if (has_conditions()) return ExecuteConditional(context, options, eval);
  ASSIGN_OR_RETURN(WriteParams params, Params(context, options, eval));
  std::shared_lock<std::shared_mutex> gate = HoldWriteGate(context);
  ASSIGN_OR_RETURN(std::shared_ptr<const MaintenancePlan> plan, CurrentMaintenance(context, *this));
  bool needs_lock = is_counter() || has_list_read_ || plan != nullptr;
  if (!needs_lock) {
    ASSIGN_OR_RETURN(std::vector<Mutation> mutations, BuildMutations(context, eval, params));
    RETURN_IF_ERROR(WriteMutations(context, *table_, mutations, nullptr, params));
    return cql::ResultSet::Void();
  }
  ASSIGN_OR_RETURN(std::vector<PartitionKey> partitions, PartitionsOf(context, eval));
  PartitionGuard guard(context.locks, table_->storage_id, partitions);
  ASSIGN_OR_RETURN(std::vector<Mutation> mutations, BuildMutations(context, eval, params));
  RETURN_IF_ERROR(WriteMutations(context, *table_, mutations, plan.get(), params));
  return cql::ResultSet::Void();
}

Result<cql::ResultSet> ModificationStatement::ExecuteConditional(const ExecutionContext& context,
                                                                 const cql::QueryOptions& options,
                                                                 const EvalContext& eval) const {
  std::shared_lock<std::shared_mutex> gate = HoldWriteGate(context);
  ASSIGN_OR_RETURN(std::shared_ptr<const MaintenancePlan> plan, CurrentMaintenance(context, *this));
  ASSIGN_OR_RETURN(std::vector<PartitionKey> partitions, PartitionsOf(context, eval));
  PartitionGuard guard(context.locks, table_->storage_id, partitions);
  cql::ResultSet report;
  Trace("Reading existing values for CAS precondition");
  ASSIGN_OR_RETURN(bool applied, Check(context, eval, &report));
  if (!applied) {
    Trace("CAS precondition does not match current values");
    return report;
  }
  Trace("CAS precondition is met; applying the client's update");
  ASSIGN_OR_RETURN(WriteParams params, Params(context, options, eval));
  ASSIGN_OR_RETURN(std::vector<Mutation> mutations, BuildMutations(context, eval, params));
  RETURN_IF_ERROR(WriteMutations(context, *table_, mutations, plan.get(), params));
  cql::ResultSet result = cql::ResultSet::Rows({cql::ColumnSpec{
      table_->table->keyspace, table_->table->name, "[applied]", CqlType::Boolean()}});
  result.AddCell(cql::SerializeBoolean(true));
  return result;
}

}  // namespace engine
