// ModificationStatement: a prepared INSERT, UPDATE or DELETE and its execution — the write
// half of docs/dev/storage_format.md §4-5, §7-8.
//
// A statement turns into mutations: one RowFragment per touched storage key (a row, the
// static row, a range tombstone or the partition tombstone), merged blindly into a
// storage::WriteBatch, so a plain write never reads. The exceptions read the current row under
// the partition lock first: counter updates (read, add, write), list operations by index or
// value, and conditional statements (lightweight transactions), which answer with `[applied]`
// and the current values as Cassandra does. Writes to a table with materialized views or
// secondary indexes (in the current catalogue) also take the partition locks, capture the rows
// they change and write the view and index mutations in the same batch (maintenance_plan.h).
//
// Thread-safety: immutable after Prepare (the maintenance plan of the statement's own
// catalogue is built once, on first use, under a std::once_flag); Execute is const and safe
// from many threads.

#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "common/result.h"
#include "cql/parser/statement_dml.h"
#include "cql/session.h"
#include "engine/execution_context.h"
#include "engine/restrictions.h"
#include "engine/row_reader.h"
#include "engine/table_schema.h"
#include "engine/value_expr.h"
#include "schema/catalog.h"
#include "storage/row_fragment.h"
#include "storage/store.h"

namespace engine {

class MaintenancePlan;

// One storage entry to merge.
struct Mutation {
  common::Bytes partition_prefix;
  std::vector<common::Bytes> partition_key;
  common::Bytes key;
  storage::RowFragment fragment;
};

// The counter values a batch has computed so far, by table, row key and column: a counter is
// read, incremented and written under its partition lock, and a later update of the same
// counter in the same batch must start from the earlier one's value, so that the updates add up
// as in Cassandra.
using CounterTotals = std::map<std::tuple<std::string, common::Bytes, uint32_t>, int64_t>;

// The write-time parameters shared by every mutation of an execution.
struct WriteParams {
  int64_t timestamp = 0;                    // microseconds
  int64_t now_seconds = 0;                  // local deletion time / TTL base
  CounterTotals* counter_totals = nullptr;  // a batch's; null for a single statement
};

class ModificationStatement {
 public:
  enum class Kind : uint8_t { kInsert, kUpdate, kDelete };

  static common::Result<std::unique_ptr<ModificationStatement>> PrepareInsert(
      std::shared_ptr<const schema::Catalog> catalog, const cql::Insert& insert,
      std::string_view keyspace, BindCollector* binds);
  static common::Result<std::unique_ptr<ModificationStatement>> PrepareUpdate(
      std::shared_ptr<const schema::Catalog> catalog, const cql::Update& update,
      std::string_view keyspace, BindCollector* binds);
  static common::Result<std::unique_ptr<ModificationStatement>> PrepareDelete(
      std::shared_ptr<const schema::Catalog> catalog, const cql::Delete& del,
      std::string_view keyspace, BindCollector* binds);
  ~ModificationStatement();

  // Executes the statement alone (conditional or not).
  common::Result<cql::ResultSet> Execute(const ExecutionContext& context,
                                         const cql::QueryOptions& options,
                                         std::span<const cql::BoundValue> values) const;

  // The statement's mutations for a batch. `params.timestamp` applies unless the statement
  // has USING TIMESTAMP. Counter and list read-modify-write operations read the store.
  common::Status AddMutations(const ExecutionContext& context,
                              std::span<const cql::BoundValue> values, const WriteParams& params,
                              std::vector<Mutation>* out) const;

  // A conditional statement's check: whether its conditions hold, and the current row they
  // were evaluated against (nullopt when absent).
  struct ConditionCheck {
    bool applied = true;
    bool exists = false;  // the row (or, for a static-only statement, the partition) exists
    std::optional<RowData> row;
  };
  // For conditional batches: this statement's check. REQUIRES: has_conditions(); the partition
  // lock held. Errors: Invalid for IN on the key of a conditional statement.
  common::Result<ConditionCheck> CheckConditions(const ExecutionContext& context,
                                                 std::span<const cql::BoundValue> values) const;
  // The columns a failed check reports, in IF order without repeats; empty for IF EXISTS and
  // IF NOT EXISTS, which report every column.
  std::vector<int> ConditionColumns() const;
  bool has_exists_condition() const { return if_exists_ || if_not_exists_; }
  // The partitions the statement writes (for batch validation and locking), sorted by prefix.
  common::Result<std::vector<PartitionKey>> Partitions(
      const ExecutionContext& context, std::span<const cql::BoundValue> values) const;

  // What a write through this statement must maintain (views, indexes) under `current`, the
  // catalogue the write runs against; nullptr when nothing. Built once for the statement's own
  // catalogue, per call for any other. Errors: MaintenancePlan::Build's.
  // REQUIRES: the caller holds the write gate shared until its Store::Write returns.
  common::Result<std::shared_ptr<const MaintenancePlan>> Maintenance(
      const ExecutionContext& context, const std::shared_ptr<const schema::Catalog>& current) const;

  Kind kind() const { return kind_; }
  bool has_conditions() const { return if_exists_ || if_not_exists_ || !conditions_.empty(); }
  bool is_counter() const { return table_->table->is_counter; }
  bool has_custom_timestamp() const { return timestamp_.has_value(); }
  const TableSchema& table() const { return *table_; }
  const std::vector<uint16_t>& partition_key_bind_indexes() const { return pk_bind_indexes_; }

 public:
  struct Assignment;
  struct Condition;
  struct Targets;  // the partitions and rows an execution writes

 private:
  ModificationStatement() = default;
  // The part every Prepare* shares: resolves and checks the table, records it in `binds`.
  static common::Result<std::unique_ptr<ModificationStatement>> Start(
      Kind kind, std::shared_ptr<const schema::Catalog> catalog, const cql::QualifiedName& name,
      std::string_view keyspace, BindCollector* binds);

  // Prepare steps (modification_prepare.cc).
  common::Status PrepareTimestamp(const std::optional<cql::Term>& timestamp, BindCollector* binds);
  common::Status PrepareTtl(const std::optional<cql::Term>& ttl, BindCollector* binds);
  // DELETE's checks of its WHERE clause against what it deletes and its conditions; sets
  // static_only_. `only_static`: it deletes static columns only; `regular_conditions`: an IF
  // condition names a regular column.
  common::Status CheckDeleteKeys(bool only_static, bool regular_conditions);

  // The statement's mutations (modification_mutations.cc), in steps.
  common::Result<std::vector<Mutation>> BuildMutations(const ExecutionContext& context,
                                                       const EvalContext& eval,
                                                       const WriteParams& params) const;
  common::Result<int64_t> EvaluateTtl(const EvalContext& eval) const;
  // INSERT JSON: the value of every column, by index (unset or null when absent).
  common::Result<std::vector<cql::BoundValue>> EvaluateJson(const EvalContext& eval) const;
  common::Result<Targets> ResolveTargets(const EvalContext& eval,
                                         std::span<const cql::BoundValue> json_values) const;
  common::Status AddRowDeletions(const Targets& targets, const PartitionKey& partition,
                                 const EvalContext& eval, const WriteParams& params,
                                 std::vector<Mutation>* out) const;
  std::vector<Assignment> JsonAssignments(std::span<const cql::BoundValue> json_values) const;
  common::Status AddRowWrites(const ExecutionContext& context, const EvalContext& eval,
                              const WriteParams& params, const Targets& targets,
                              const PartitionKey& partition,
                              std::span<const Assignment> assignments, int64_t ttl,
                              std::vector<Mutation>* out) const;
  common::Result<WriteParams> Params(const ExecutionContext& context,
                                     const cql::QueryOptions& options,
                                     const EvalContext& eval) const;
  common::Result<cql::ResultSet> ExecuteConditional(const ExecutionContext& context,
                                                    const cql::QueryOptions& options,
                                                    const EvalContext& eval) const;
  // The row a conditional statement checks (modification_conditions.cc).
  struct ConditionTarget {
    PartitionKey partition;
    std::vector<common::Bytes> clustering;
    bool static_only = false;
  };
  common::Result<ConditionTarget> ConditionRowKey(const ExecutionContext& context,
                                                  const EvalContext& eval) const;
  common::Result<ConditionCheck> Evaluate(const ExecutionContext& context,
                                          const EvalContext& eval) const;
  common::Result<bool> Check(const ExecutionContext& context, const EvalContext& eval,
                             cql::ResultSet* report) const;
  common::Result<std::vector<PartitionKey>> PartitionsOf(const ExecutionContext& context,
                                                         const EvalContext& eval) const;

  Kind kind_ = Kind::kInsert;
  std::shared_ptr<const schema::Catalog> catalog_;
  std::unique_ptr<TableSchema> table_;
  Restrictions restrictions_;  // UPDATE/DELETE keys; INSERT builds equivalent EQ sets
  std::vector<Assignment> assignments_;
  // INSERT JSON: the JSON text (constant or marker) and DEFAULT UNSET.
  std::optional<ValueExpr> json_;
  bool json_default_unset_ = false;
  // DELETE of the whole row / range / partition (no column targets).
  bool delete_row_ = false;
  bool if_exists_ = false;
  bool if_not_exists_ = false;
  std::vector<Condition> conditions_;
  std::optional<ValueExpr> ttl_;
  std::optional<ValueExpr> timestamp_;
  // Whether the statement writes only static columns (then clustering may be omitted).
  bool static_only_ = false;
  bool has_list_read_ = false;  // needs the current row (list index/discard)
  std::vector<uint16_t> pk_bind_indexes_;
  // The maintenance plan under catalog_, built on first use.
  mutable std::once_flag maintenance_once_;
  mutable common::Status maintenance_status_;
  mutable std::shared_ptr<const MaintenancePlan> maintenance_;
};

}  // namespace engine
