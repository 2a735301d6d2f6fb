#include "engine/modification_statement.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <utility>

#include <fmt/format.h>

#include "cql/json.h"
#include "cql/statement.h"
#include "cql/value_codec.h"
#include "cql/value_compare.h"
#include "engine/maintenance_plan.h"
#include "engine/modification_internal.h"
#include "engine/schema_lookup.h"
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

namespace {
constexpr int64_t kMaxTtl = 20 * 365 * 24 * 60 * 60;  // 630720000 s, Cassandra's MAX_TTL
}  // namespace

ModificationStatement::~ModificationStatement() = default;

namespace {

// Elements of a serialized list/set value.
Result<std::vector<std::string_view>> Elements(const CqlType& type, std::string_view bytes) {
  return cql::SplitListOrSet(type, bytes);
}

}  // namespace

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

namespace {

Cell MakeCell(uint32_t column_id, std::optional<Bytes> path, const WriteParams& params, int64_t ttl,
              std::optional<Bytes> value) {
  Cell cell;
  cell.column_id = column_id;
  cell.path = std::move(path);
  cell.timestamp = params.timestamp;
  if (!value) {
    cell.kind = CellKind::kTombstone;
    cell.local_deletion_time = params.now_seconds;
  } else if (ttl > 0) {
    cell.kind = CellKind::kExpiring;
    cell.ttl = ttl;
    cell.local_deletion_time = params.now_seconds + ttl;
    cell.value = std::move(*value);
  } else {
    cell.value = std::move(*value);
  }
  return cell;
}

// The live cell paths of a list column, in order, from the current row's fragment.
Result<std::vector<std::pair<Bytes, Bytes>>> CurrentListCells(const ExecutionContext& context,
                                                              const TableSchema& table,
                                                              const Bytes& key, int column,
                                                              const WriteParams& params) {
  ASSIGN_OR_RETURN(std::optional<RowFragment> fragment, context.store->Get(table.storage_id, key));
  std::vector<std::pair<Bytes, Bytes>> cells;
  if (!fragment) return cells;
  uint32_t id = table.column(column).column_id;
  for (const Cell& cell : fragment->cells) {
    if (cell.column_id != id || !cell.path || !cell.IsLive(params.now_seconds)) continue;
    if (fragment->deletion && fragment->deletion->Deletes(cell.timestamp)) continue;
    cells.emplace_back(*cell.path, cell.value);
  }
  return cells;
}

}  // namespace

Result<std::vector<Mutation>> ModificationStatement::BuildMutations(
    const ExecutionContext& context, const EvalContext& eval, const WriteParams& params) const {
  const TableSchema& table = *table_;
  std::vector<Mutation> out;

  // TTL: USING TTL (0 = none), else the table default.
  int64_t ttl = table.table->options.default_time_to_live;
  if (ttl_) {
    ASSIGN_OR_RETURN(BoundValue v, ttl_->Evaluate(eval));
    if (v.is_null()) return Status::Invalid("Invalid null value of TTL");
    if (v.is_value()) {
      ASSIGN_OR_RETURN(int32_t t, cql::DeserializeInt(v.bytes));
      if (t < 0) {
        return Status::Invalid(fmt::format("A TTL must be greater or equal to 0, but was {}", t));
      }
      if (t > kMaxTtl) {
        return Status::Invalid(
            fmt::format("ttl is too large. requested ({}) maximum ({})", t, kMaxTtl));
      }
      ttl = t;
    }
  }

  // INSERT JSON: the row's values come from the JSON object.
  std::vector<std::optional<BoundValue>> json_values;
  if (json_) {
    ASSIGN_OR_RETURN(BoundValue text, json_->Evaluate(eval));
    if (!text.is_value()) return Status::Invalid("Got null for INSERT JSON values");
    ASSIGN_OR_RETURN(auto object, cql::ParseJsonObject(text.bytes));
    json_values.resize(table.table->columns.size());
    for (auto& [name, value] : object) {
      int index = table.IndexOfColumn(name);
      if (index < 0) {
        return Status::Invalid(
            fmt::format("JSON values map contains unrecognized column: {}", name));
      }
      Result<std::optional<Bytes>> bytes = cql::JsonToValue(table.column(index).type, value);
      if (!bytes.ok()) {
        return Status::Invalid(
            fmt::format("Error decoding JSON value for {}: {}", name, bytes.status().message()));
      }
      json_values[index] = *bytes ? BoundValue::Of(std::move(**bytes)) : BoundValue::Null();
    }
    for (size_t i = 0; i < json_values.size(); ++i) {
      if (!json_values[i]) {
        json_values[i] = json_default_unset_ ? BoundValue::Unset() : BoundValue::Null();
      }
    }
  }

  // Keys.
  std::vector<PartitionKey> partitions;
  std::vector<std::vector<Bytes>> clusterings;
  std::vector<KeyInterval> ranges;  // DELETE ranges (per partition, computed below)
  bool static_only = static_only_;
  if (json_) {
    std::vector<Bytes> pk;
    for (int index : table.partition_key) {
      const BoundValue& v = *json_values[index];
      if (!v.is_value()) {
        return Status::Invalid(
            fmt::format("Invalid null value in condition for column {}", table.column(index).name));
      }
      pk.push_back(v.bytes);
    }
    std::vector<Bytes> ck;
    bool any_ck = false;
    bool all_ck = true;
    for (int index : table.clustering) {
      const BoundValue& v = *json_values[index];
      if (v.is_value()) {
        any_ck = true;
        ck.push_back(v.bytes);
      } else {
        all_ck = false;
      }
    }
    if (!all_ck) {
      if (any_ck) return Status::Invalid("Some clustering keys are missing");
      static_only = true;
      ck.clear();
    }
    partitions.push_back(PartitionKey{storage::PartitionPrefix(table.shape, pk), pk});
    clusterings.push_back(std::move(ck));
  } else {
    ASSIGN_OR_RETURN(partitions, EvaluatePartitionKeys(table, restrictions_, eval));
    if (!static_only) {
      bool full = restrictions_.slice_columns == 0 &&
                  restrictions_.clustering_prefix.size() == table.clustering.size();
      if (full) {
        ASSIGN_OR_RETURN(clusterings, EvaluateClusteringKeys(table, restrictions_, eval));
      }
    } else {
      clusterings.emplace_back();
    }
  }

  for (const PartitionKey& partition : partitions) {
    // DELETE of rows, ranges or the whole partition.
    if (kind_ == Kind::kDelete && delete_row_) {
      DeletionTime deletion{params.timestamp, params.now_seconds};
      bool full = restrictions_.slice_columns == 0 &&
                  restrictions_.clustering_prefix.size() == table.clustering.size();
      if (table.clustering.empty()) {
        // The partition is its one row: delete the row, so reads need not look for a
        // partition deletion entry (storage::TableOptions::single_row_partitions).
        Mutation m{partition.prefix,
                   partition.values,
                   storage::RowKey(table.shape, partition.prefix, std::span<const Bytes>()),
                   {}};
        m.fragment.deletion = deletion;
        out.push_back(std::move(m));
      } else if (restrictions_.clustering_prefix.empty() && restrictions_.slice_columns == 0) {
        Mutation m{partition.prefix,
                   partition.values,
                   storage::PartitionDeletionKey(partition.prefix),
                   {}};
        m.fragment.deletion = deletion;
        out.push_back(std::move(m));
      } else if (full) {
        for (const std::vector<Bytes>& ck : clusterings) {
          Mutation m{partition.prefix,
                     partition.values,
                     storage::RowKey(table.shape, partition.prefix, ck),
                     {}};
          m.fragment.deletion = deletion;
          out.push_back(std::move(m));
        }
      } else {
        ASSIGN_OR_RETURN(std::vector<KeyInterval> intervals,
                         EvaluateClusteringIntervals(table, restrictions_, partition.prefix, eval));
        // Turn each interval back into clustering bounds by re-evaluating with bounds: we
        // store the interval keys themselves as the range tombstone's bounds.
        for (const KeyInterval& interval : intervals) {
          Result<storage::ClusteringBound> start =
              storage::ParseRowBoundKey(table.shape, partition.prefix, interval.start);
          Result<storage::ClusteringBound> end =
              storage::ParseRowBoundKey(table.shape, partition.prefix, interval.end);
          if (!start.ok()) return start.status();
          if (!end.ok()) return end.status();
          Mutation m{partition.prefix,
                     partition.values,
                     storage::RangeTombstoneKey(table.shape, partition.prefix, *start, *end),
                     {}};
          m.fragment.deletion = deletion;
          out.push_back(std::move(m));
        }
      }
      continue;
    }

    for (const std::vector<Bytes>& ck : clusterings) {
      Bytes row_key = storage::RowKey(table.shape, partition.prefix, ck);
      Bytes static_key = storage::StaticRowKey(partition.prefix);
      RowFragment row;
      RowFragment statics;
      if (kind_ == Kind::kInsert && !static_only) {
        storage::LivenessInfo liveness;
        liveness.timestamp = params.timestamp;
        if (ttl > 0) {
          liveness.ttl = ttl;
          liveness.local_expiration_time = params.now_seconds + ttl;
        }
        row.liveness = liveness;
      }
      std::vector<const Assignment*> assignments;
      std::vector<Assignment> json_assignments;
      if (json_) {
        for (size_t i = 0; i < table.table->columns.size(); ++i) {
          if (IsKeyColumn(table.column(static_cast<int>(i)))) continue;
          Assignment a;
          a.op = Assignment::Op::kSet;
          a.column = static_cast<int>(i);
          const BoundValue& v = *json_values[i];
          a.value = v.is_unset()   ? std::nullopt
                    : v.is_value() ? std::optional<ValueExpr>(
                                         ValueExpr::Constant(table.column(a.column).type, v.bytes))
                                   : std::optional<ValueExpr>(ValueExpr::Constant(
                                         table.column(a.column).type, std::nullopt));
          json_assignments.push_back(std::move(a));
        }
        for (const Assignment& a : json_assignments) assignments.push_back(&a);
      } else {
        for (const Assignment& a : assignments_) assignments.push_back(&a);
      }

      for (const Assignment* a : assignments) {
        const schema::ColumnMetadata& column = table.column(a->column);
        const CqlType& type = column.type;
        RowFragment& target = column.kind == ColumnKind::kStatic ? statics : row;
        const Bytes& target_key = column.kind == ColumnKind::kStatic ? static_key : row_key;
        uint32_t id = column.column_id;
        std::optional<BoundValue> value;
        if (a->value) {
          ASSIGN_OR_RETURN(BoundValue v, a->value->Evaluate(eval));
          value = std::move(v);
        } else if (a->op == Assignment::Op::kSet) {
          continue;  // JSON DEFAULT UNSET
        }
        if (value && value->is_unset()) continue;
        switch (a->op) {
          case Assignment::Op::kSet: {
            if (type.IsMultiCell()) {
              target.collection_deletions[id] =
                  DeletionTime{params.timestamp - 1, params.now_seconds};
              if (!value->is_value()) break;
              if (type.kind() == TypeKind::kUdt) {
                ASSIGN_OR_RETURN(auto fields,
                                 cql::SplitTupleOrUdt(value->bytes, type.params().size()));
                for (size_t f = 0; f < fields.size(); ++f) {
                  if (!fields[f]) continue;
                  target.cells.push_back(
                      MakeCell(id, FieldPath(static_cast<int>(f)), params, ttl, Bytes(*fields[f])));
                }
              } else if (type.kind() == TypeKind::kMap) {
                ASSIGN_OR_RETURN(auto entries, cql::SplitMap(value->bytes));
                for (const auto& e : entries) {
                  target.cells.push_back(
                      MakeCell(id, ElementPath(type.key(), e.key), params, ttl, Bytes(e.value)));
                }
              } else if (type.kind() == TypeKind::kSet) {
                ASSIGN_OR_RETURN(auto elements, Elements(type, value->bytes));
                for (std::string_view e : elements) {
                  target.cells.push_back(
                      MakeCell(id, ElementPath(type.element(), e), params, ttl, Bytes()));
                }
              } else {
                ASSIGN_OR_RETURN(auto elements, Elements(type, value->bytes));
                std::vector<Bytes> paths = context.list_paths->Append(elements.size());
                for (size_t i = 0; i < elements.size(); ++i) {
                  target.cells.push_back(
                      MakeCell(id, std::move(paths[i]), params, ttl, Bytes(elements[i])));
                }
              }
              break;
            }
            std::optional<Bytes> bytes;
            if (value->is_value()) bytes = std::move(value->bytes);
            target.cells.push_back(MakeCell(id, std::nullopt, params, ttl, std::move(bytes)));
            break;
          }
          case Assignment::Op::kAdd:
          case Assignment::Op::kSubtract:
          case Assignment::Op::kPrepend: {
            if (!value->is_value()) {
              if (type.IsCounter()) {
                return Status::Invalid(fmt::format("Invalid null value for counter increment"));
              }
              break;  // adding/removing null changes nothing
            }
            bool add = a->op != Assignment::Op::kSubtract;
            if (type.IsCounter()) {
              ASSIGN_OR_RETURN(int64_t delta, cql::DeserializeBigint(value->bytes));
              if (!add) delta = -delta;
              int64_t total = 0;
              std::optional<CounterTotals::key_type> batch_key;
              std::optional<RowFragment> current;
              if (params.counter_totals != nullptr) {
                batch_key.emplace(table.storage_id, target_key, id);
              }
              auto pending =
                  batch_key ? params.counter_totals->find(*batch_key) : CounterTotals::iterator();
              if (batch_key && pending != params.counter_totals->end()) {
                total = pending->second;
              } else {
                ASSIGN_OR_RETURN(current, context.store->Get(table.storage_id, target_key));
              }
              if (current) {
                for (const Cell& cell : current->cells) {
                  if (cell.column_id == id && !cell.path && cell.IsLive(params.now_seconds) &&
                      !(current->deletion && current->deletion->Deletes(cell.timestamp))) {
                    ASSIGN_OR_RETURN(total, cql::DeserializeBigint(cell.value));
                  }
                }
              }
              total =
                  static_cast<int64_t>(static_cast<uint64_t>(total) + static_cast<uint64_t>(delta));
              if (batch_key) (*params.counter_totals)[*batch_key] = total;
              Cell cell = MakeCell(id, std::nullopt, params, 0, cql::SerializeBigint(total));
              target.cells.push_back(std::move(cell));
              // Counter rows exist through their cells; mark liveness so they show up.
              break;
            }
            if (type.kind() == TypeKind::kMap) {
              if (add) {
                ASSIGN_OR_RETURN(auto entries, cql::SplitMap(value->bytes));
                for (const auto& e : entries) {
                  target.cells.push_back(
                      MakeCell(id, ElementPath(type.key(), e.key), params, ttl, Bytes(e.value)));
                }
              } else {
                ASSIGN_OR_RETURN(auto keys, Elements(CqlType::Set(type.key()), value->bytes));
                for (std::string_view k : keys) {
                  target.cells.push_back(
                      MakeCell(id, ElementPath(type.key(), k), params, 0, std::nullopt));
                }
              }
            } else if (type.kind() == TypeKind::kSet) {
              ASSIGN_OR_RETURN(auto elements, Elements(type, value->bytes));
              for (std::string_view e : elements) {
                target.cells.push_back(
                    MakeCell(id, ElementPath(type.element(), e), params, add ? ttl : 0,
                             add ? std::optional<Bytes>(Bytes()) : std::nullopt));
              }
            } else {  // list
              ASSIGN_OR_RETURN(auto elements, Elements(type, value->bytes));
              if (a->op == Assignment::Op::kSubtract) {
                ASSIGN_OR_RETURN(auto current,
                                 CurrentListCells(context, table, target_key, a->column, params));
                for (const auto& [path, v] : current) {
                  // std::find, not a lambda: clang before 16 cannot capture a structured binding.
                  bool remove = std::find(elements.begin(), elements.end(), v) != elements.end();
                  if (remove) {
                    target.cells.push_back(MakeCell(id, path, params, 0, std::nullopt));
                  }
                }
                break;
              }
              std::vector<Bytes> paths = a->op == Assignment::Op::kPrepend
                                             ? context.list_paths->Prepend(elements.size())
                                             : context.list_paths->Append(elements.size());
              for (size_t i = 0; i < elements.size(); ++i) {
                target.cells.push_back(
                    MakeCell(id, std::move(paths[i]), params, ttl, Bytes(elements[i])));
              }
            }
            break;
          }
          case Assignment::Op::kSetElement:
          case Assignment::Op::kDeleteElement: {
            ASSIGN_OR_RETURN(BoundValue key, a->key->Evaluate(eval));
            if (!key.is_value()) {
              return Status::Invalid(fmt::format("Invalid null value for {} element",
                                                 type.kind() == TypeKind::kList ? "list" : "map"));
            }
            std::optional<Bytes> element_value;
            if (a->op == Assignment::Op::kSetElement && value->is_value()) {
              element_value = std::move(value->bytes);
            }
            if (type.kind() == TypeKind::kList) {
              ASSIGN_OR_RETURN(int32_t index, cql::DeserializeInt(key.bytes));
              ASSIGN_OR_RETURN(auto current,
                               CurrentListCells(context, table, target_key, a->column, params));
              if (index < 0 || static_cast<size_t>(index) >= current.size()) {
                if (a->op == Assignment::Op::kDeleteElement) break;  // Cassandra ignores it
                return Status::Invalid(fmt::format("List index {} out of bound, list has size {}",
                                                   index, current.size()));
              }
              target.cells.push_back(
                  MakeCell(id, current[index].first, params, ttl, std::move(element_value)));
              break;
            }
            const CqlType& key_type = type.kind() == TypeKind::kMap ? type.key() : type.element();
            target.cells.push_back(MakeCell(id, ElementPath(key_type, key.bytes), params,
                                            element_value ? ttl : 0, std::move(element_value)));
            break;
          }
          case Assignment::Op::kSetField:
          case Assignment::Op::kDeleteField: {
            std::optional<Bytes> field_value;
            if (a->op == Assignment::Op::kSetField && value->is_value()) {
              field_value = std::move(value->bytes);
            }
            target.cells.push_back(MakeCell(id, FieldPath(a->field), params, field_value ? ttl : 0,
                                            std::move(field_value)));
            break;
          }
          case Assignment::Op::kDeleteColumn: {
            if (type.IsMultiCell()) {
              target.collection_deletions[id] = DeletionTime{params.timestamp, params.now_seconds};
            } else {
              target.cells.push_back(MakeCell(id, std::nullopt, params, 0, std::nullopt));
            }
            break;
          }
        }
      }
      if (!row.empty() && !static_only) {
        storage::SortCells(&row);
        out.push_back(Mutation{partition.prefix, partition.values, row_key, std::move(row)});
      }
      if (!statics.empty()) {
        storage::SortCells(&statics);
        out.push_back(Mutation{partition.prefix, partition.values, static_key, std::move(statics)});
      }
    }
  }
  // Cells at the same position (e.g. `SET m = m + {1: 'a'}, m[1] = 'b'`) are merged by the
  // fragment canonicalizer on write; keep the last one deterministic here.
  for (Mutation& m : out) {
    std::vector<Cell>& cells = m.fragment.cells;
    std::vector<Cell> unique;
    for (Cell& cell : cells) {
      if (!unique.empty() && storage::CompareCellPosition(unique.back(), cell) == 0) {
        unique.back() = std::move(cell);
      } else {
        unique.push_back(std::move(cell));
      }
    }
    cells = std::move(unique);
  }
  return out;
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
      m->lock();
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
  if (plan != nullptr)
    RETURN_IF_ERROR(plan->AddMutations(*context.store, mutations, params, &batch));
  return context.store->Write(batch);
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
  ASSIGN_OR_RETURN(bool applied, Check(context, eval, &report));
  if (!applied) return report;
  ASSIGN_OR_RETURN(WriteParams params, Params(context, options, eval));
  ASSIGN_OR_RETURN(std::vector<Mutation> mutations, BuildMutations(context, eval, params));
  RETURN_IF_ERROR(WriteMutations(context, *table_, mutations, plan.get(), params));
  cql::ResultSet result = cql::ResultSet::Rows({cql::ColumnSpec{
      table_->table->keyspace, table_->table->name, "[applied]", CqlType::Boolean()}});
  result.AddCell(cql::SerializeBoolean(true));
  return result;
}

}  // namespace engine
