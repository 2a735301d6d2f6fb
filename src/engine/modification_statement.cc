#include "engine/modification_statement.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "cql/json.h"
#include "cql/statement.h"
#include "cql/value_codec.h"
#include "cql/value_compare.h"
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
  return EvaluatePartitionKeys(*table_, restrictions_, eval);
}

namespace {

// Reads the current row (or the static row when `clustering` is empty and the table has
// clustering columns) for read-before-write operations and conditions.
Result<std::optional<RowData>> ReadCurrentRow(const ExecutionContext& context,
                                              const TableSchema& table,
                                              const PartitionKey& partition,
                                              const std::vector<Bytes>& clustering) {
  RowReader reader(context.store, &table, context.NowSeconds());
  std::vector<KeyInterval> intervals;
  PartitionReadOptions options;
  if (!clustering.empty() || table.clustering.empty()) {
    Bytes key = storage::RowKey(table.shape, partition.prefix, clustering);
    Bytes end = key;
    end.push_back('\0');
    intervals.push_back(KeyInterval{std::move(key), std::move(end)});
  } else {
    options.static_only_when_empty = true;
  }
  options.intervals = intervals;
  std::optional<RowData> found;
  bool static_only_wanted = clustering.empty() && !table.clustering.empty();
  RETURN_IF_ERROR(reader
                      .ReadPartition(partition.prefix, partition.values, options,
                                     [&](RowData& row) -> Result<bool> {
                                       found = row;
                                       return false;
                                     })
                      .status());
  if (!found && static_only_wanted) return found;
  if (!found && !clustering.empty() && table.has_statics()) {
    // The row is absent; its static values still matter to conditions on static columns.
    PartitionReadOptions statics;
    statics.static_only_when_empty = true;
    RETURN_IF_ERROR(reader
                        .ReadPartition(partition.prefix, partition.values, statics,
                                       [&](RowData& row) -> Result<bool> {
                                         row.static_only = true;
                                         found = row;
                                         return false;
                                       })
                        .status());
  }
  return found;
}

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
      if (table.clustering.empty() ||
          (restrictions_.clustering_prefix.empty() && restrictions_.slice_columns == 0)) {
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
              ASSIGN_OR_RETURN(std::optional<RowFragment> current,
                               context.store->Get(table.storage_id, target_key));
              int64_t total = 0;
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
                  bool remove = std::any_of(elements.begin(), elements.end(),
                                            [&](std::string_view e) { return e == v; });
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

Status WriteMutations(const ExecutionContext& context, const TableSchema& table,
                      const std::vector<Mutation>& mutations) {
  storage::WriteBatch batch;
  for (const Mutation& m : mutations) batch.Merge(table.storage_id, m.key, m.fragment);
  if (batch.empty()) return Status::Ok();
  return context.store->Write(batch);
}

}  // namespace

Result<cql::ResultSet> ModificationStatement::Execute(const ExecutionContext& context,
                                                      const cql::QueryOptions& options,
                                                      std::span<const BoundValue> values) const {
  cql::FunctionContext functions = context.function_context();
  EvalContext eval{values, &functions};
  if (has_conditions()) return ExecuteConditional(context, options, eval);
  ASSIGN_OR_RETURN(WriteParams params, Params(context, options, eval));
  bool needs_lock = is_counter() || has_list_read_;
  if (!needs_lock) {
    ASSIGN_OR_RETURN(std::vector<Mutation> mutations, BuildMutations(context, eval, params));
    RETURN_IF_ERROR(WriteMutations(context, *table_, mutations));
    return cql::ResultSet::Void();
  }
  ASSIGN_OR_RETURN(std::vector<PartitionKey> partitions,
                   EvaluatePartitionKeys(*table_, restrictions_, eval));
  PartitionGuard guard(context.locks, table_->storage_id, partitions);
  ASSIGN_OR_RETURN(std::vector<Mutation> mutations, BuildMutations(context, eval, params));
  RETURN_IF_ERROR(WriteMutations(context, *table_, mutations));
  return cql::ResultSet::Void();
}

namespace {

Result<bool> EvaluateCondition(const ModificationStatement::Condition& c, const TableSchema& table,
                               const std::optional<RowData>& row, const EvalContext& eval);

}  // namespace

Result<bool> ModificationStatement::Check(const ExecutionContext& context, const EvalContext& eval,
                                          cql::ResultSet* report) const {
  const TableSchema& table = *table_;
  ASSIGN_OR_RETURN(std::vector<PartitionKey> partitions,
                   EvaluatePartitionKeys(table, restrictions_, eval));
  std::vector<Bytes> ck;
  if (!static_only_ && !json_) {
    ASSIGN_OR_RETURN(std::vector<std::vector<Bytes>> cks,
                     EvaluateClusteringKeys(table, restrictions_, eval));
    if (cks.size() != 1) {
      return Status::Invalid(
          "IN on the clustering key columns is not supported with conditional "
          "updates");
    }
    ck = std::move(cks[0]);
  }
  if (partitions.size() != 1) {
    return Status::Invalid("IN on the partition key is not supported with conditional updates");
  }
  ASSIGN_OR_RETURN(std::optional<RowData> row, ReadCurrentRow(context, table, partitions[0], ck));
  bool exists = row.has_value() && !(row->static_only && !static_only_ && !ck.empty());
  bool applied = true;
  if (if_not_exists_) {
    applied = !exists;
  } else if (if_exists_) {
    applied = exists;
  } else {
    for (const Condition& c : conditions_) {
      ASSIGN_OR_RETURN(bool ok, EvaluateCondition(c, table, row, eval));
      if (!ok) {
        applied = false;
        break;
      }
    }
  }
  if (report == nullptr || applied) return applied;
  // Not applied: report the current values as Cassandra does.
  std::vector<cql::ColumnSpec> columns;
  columns.push_back(
      cql::ColumnSpec{table.table->keyspace, table.table->name, "[applied]", CqlType::Boolean()});
  std::vector<int> shown;
  if (if_not_exists_ || if_exists_) {
    for (size_t i = 0; i < table.table->columns.size(); ++i) shown.push_back(static_cast<int>(i));
  } else {
    std::set<int> seen;
    for (const Condition& c : conditions_) seen.insert(c.column);
    shown.assign(seen.begin(), seen.end());
  }
  if (!row) {
    *report = cql::ResultSet::Rows({columns[0]});
    report->AddCell(cql::SerializeBoolean(false));
    return false;
  }
  for (int index : shown) {
    columns.push_back(cql::ColumnSpec{table.table->keyspace, table.table->name,
                                      table.column(index).name, table.column(index).type});
  }
  *report = cql::ResultSet::Rows(columns);
  report->AddCell(cql::SerializeBoolean(false));
  for (int index : shown) report->AddCell(row->cells[index].value);
  return false;
}

Result<bool> ModificationStatement::CheckConditions(const ExecutionContext& context,
                                                    std::span<const BoundValue> values,
                                                    cql::ResultSet* report) const {
  cql::FunctionContext functions = context.function_context();
  EvalContext eval{values, &functions};
  return Check(context, eval, report);
}

Result<cql::ResultSet> ModificationStatement::ExecuteConditional(const ExecutionContext& context,
                                                                 const cql::QueryOptions& options,
                                                                 const EvalContext& eval) const {
  ASSIGN_OR_RETURN(std::vector<PartitionKey> partitions,
                   EvaluatePartitionKeys(*table_, restrictions_, eval));
  PartitionGuard guard(context.locks, table_->storage_id, partitions);
  cql::ResultSet report;
  ASSIGN_OR_RETURN(bool applied, Check(context, eval, &report));
  if (!applied) return report;
  ASSIGN_OR_RETURN(WriteParams params, Params(context, options, eval));
  ASSIGN_OR_RETURN(std::vector<Mutation> mutations, BuildMutations(context, eval, params));
  RETURN_IF_ERROR(WriteMutations(context, *table_, mutations));
  cql::ResultSet result = cql::ResultSet::Rows({cql::ColumnSpec{
      table_->table->keyspace, table_->table->name, "[applied]", CqlType::Boolean()}});
  result.AddCell(cql::SerializeBoolean(true));
  return result;
}

namespace {

Result<bool> EvaluateCondition(const ModificationStatement::Condition& c, const TableSchema& table,
                               const std::optional<RowData>& row, const EvalContext& eval) {
  const schema::ColumnMetadata& column = table.column(c.column);
  std::optional<Bytes> actual;
  if (row) actual = row->cells[c.column].value;
  const CqlType& type = column.type;
  if (c.element && actual) {
    ASSIGN_OR_RETURN(BoundValue key, c.element->Evaluate(eval));
    std::optional<Bytes> element;
    if (key.is_value()) {
      if (type.kind() == TypeKind::kList) {
        ASSIGN_OR_RETURN(int32_t index, cql::DeserializeInt(key.bytes));
        ASSIGN_OR_RETURN(auto elements, cql::SplitListOrSet(type, *actual));
        if (index >= 0 && static_cast<size_t>(index) < elements.size()) {
          element = Bytes(elements[index]);
        }
      } else {
        ASSIGN_OR_RETURN(auto entries, cql::SplitMap(*actual));
        for (const auto& e : entries) {
          if (cql::CompareValues(type.key(), e.key, key.bytes) == 0) element = Bytes(e.value);
        }
      }
    }
    actual = std::move(element);
  } else if (c.field >= 0 && actual) {
    ASSIGN_OR_RETURN(auto fields, cql::SplitTupleOrUdt(*actual, type.params().size()));
    if (static_cast<size_t>(c.field) < fields.size() && fields[c.field]) {
      actual = Bytes(*fields[c.field]);
    } else {
      actual.reset();
    }
  }
  const CqlType& value_type = c.value_type;
  // Expected values (null allowed for = and !=).
  std::vector<std::optional<Bytes>> expected;
  if (c.values.list) {
    ASSIGN_OR_RETURN(BoundValue v, c.values.list->Evaluate(eval));
    if (v.is_value()) {
      ASSIGN_OR_RETURN(auto elements, cql::SplitListOrSet(CqlType::List(value_type), v.bytes));
      for (std::string_view e : elements) expected.emplace_back(Bytes(e));
    }
  } else {
    for (const ValueExpr& e : c.values.values) {
      ASSIGN_OR_RETURN(BoundValue v, e.Evaluate(eval));
      if (v.is_unset()) {
        return Status::Invalid(fmt::format("Invalid 'unset' value in condition"));
      }
      expected.push_back(v.is_value() ? std::optional<Bytes>(std::move(v.bytes)) : std::nullopt);
    }
  }
  auto equal = [&](const std::optional<Bytes>& a, const std::optional<Bytes>& b) {
    if (!a || !b) return !a && !b;
    return cql::CompareValues(value_type, *a, *b) == 0;
  };
  switch (c.op) {
    case Operator::kEq:
      return equal(actual, expected[0]);
    case Operator::kNeq:
      return !equal(actual, expected[0]);
    case Operator::kIn:
      return std::any_of(expected.begin(), expected.end(),
                         [&](const std::optional<Bytes>& e) { return equal(actual, e); });
    case Operator::kLt:
    case Operator::kLte:
    case Operator::kGt:
    case Operator::kGte: {
      if (!expected[0]) {
        return Status::Invalid(fmt::format("Invalid comparison with null for operator \"{}\"",
                                           cql::OperatorToCql(c.op)));
      }
      if (!actual) return false;
      int cmp = cql::CompareValues(value_type, *actual, *expected[0]);
      if (c.op == Operator::kLt) return cmp < 0;
      if (c.op == Operator::kLte) return cmp <= 0;
      if (c.op == Operator::kGt) return cmp > 0;
      return cmp >= 0;
    }
    case Operator::kContains:
    case Operator::kContainsKey: {
      if (!actual || !expected[0]) return false;
      std::vector<std::string_view> items;
      if (type.kind() == TypeKind::kMap) {
        ASSIGN_OR_RETURN(auto entries, cql::SplitMap(*actual));
        for (const auto& e : entries) {
          items.push_back(c.op == Operator::kContainsKey ? e.key : e.value);
        }
      } else {
        ASSIGN_OR_RETURN(items, cql::SplitListOrSet(type, *actual));
      }
      return std::any_of(items.begin(), items.end(), [&](std::string_view item) {
        return cql::CompareValues(value_type, item, *expected[0]) == 0;
      });
    }
    default:
      return Status::Invalid(
          fmt::format("Unsupported operator {} in condition", cql::OperatorToCql(c.op)));
  }
}

}  // namespace

}  // namespace engine
