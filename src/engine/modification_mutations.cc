// ModificationStatement::BuildMutations and its steps: turning a bound INSERT, UPDATE or DELETE
// into the storage fragments it writes (see modification_statement.h). The steps, in order:
//
//  1. `EvaluateTtl`: USING TTL, else the table default.
//  2. `EvaluateJson` (INSERT JSON only): the row's values from the JSON object, by column.
//  3. `ResolveTargets`: the partitions and clustering keys written.
//  4. per partition: `AddRowDeletions` (DELETE of rows, ranges or the partition) or
//     `AddRowWrites`, which applies every assignment (`ApplyAssignment` and the `Apply*`
//     helpers, one per operation kind) to the row and static-row fragments.
//  5. `MergeSamePosition`: two operations on one cell in one statement merge at one timestamp,
//     as Cassandra does (the reconcile rules of storage/cell_merge.h; counters keep the running
//     total, which is the last one).

#include <algorithm>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "cql/functions/json.h"
#include "cql/types/murmur3.h"
#include "cql/types/value_codec.h"
#include "engine/modification_internal.h"
#include "storage/cell_merge.h"
#include "storage/key_layout.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;
using cql::BoundValue;
using cql::CqlType;
using cql::TypeKind;
using schema::ColumnKind;
using storage::Cell;
using storage::CellKind;
using storage::DeletionTime;
using storage::RowFragment;
using Op = ModificationStatement::Assignment::Op;

namespace {

constexpr int64_t kMaxTtl = 20 * 365 * 24 * 60 * 60;  // 630720000 s, Cassandra's MAX_TTL

// Elements of a serialized list/set value.
Result<std::vector<std::string_view>> Elements(const CqlType& type, std::string_view bytes) {
  return cql::SplitListOrSet(type, bytes);
}

// The live cell paths of a list column, in order, from the current row's fragment.
Result<std::vector<std::pair<Bytes, Bytes>>> CurrentListCells(const ExecutionContext& context,
                                                              const TableSchema& table,
                                                              const Bytes& key, uint32_t id,
                                                              const WriteParams& params) {
  ASSIGN_OR_RETURN(std::optional<RowFragment> fragment, context.store->Get(table.storage_id, key));
  std::vector<std::pair<Bytes, Bytes>> cells;
  if (!fragment) return cells;
  for (const Cell& cell : fragment->cells) {
    if (cell.column_id != id || !cell.path || !cell.IsLive(params.now_seconds)) continue;
    if (fragment->deletion && fragment->deletion->Deletes(cell.timestamp)) continue;
    cells.emplace_back(*cell.path, cell.value);
  }
  return cells;
}

// Where one assignment's cells go, and how they are stamped.
struct CellTarget {
  const ExecutionContext& context;
  const TableSchema& table;
  const WriteParams& params;
  int64_t ttl;  // the statement's
  const schema::ColumnMetadata& column;
  RowFragment* fragment;
  const Bytes& key;  // the storage key of `fragment`

  const CqlType& type() const { return column.type; }
  // A cell of the column: live with `value` (expiring after `ttl` when positive), or a
  // tombstone when `value` is nullopt.
  void Add(std::optional<Bytes> path, std::optional<Bytes> value, int64_t cell_ttl) const {
    Cell cell;
    cell.column_id = column.column_id;
    cell.path = std::move(path);
    cell.timestamp = params.timestamp;
    if (!value) {
      cell.kind = CellKind::kTombstone;
      cell.local_deletion_time = params.now_seconds;
    } else if (cell_ttl > 0) {
      cell.kind = CellKind::kExpiring;
      cell.ttl = cell_ttl;
      cell.local_deletion_time = params.now_seconds + cell_ttl;
      cell.value = std::move(*value);
    } else {
      cell.value = std::move(*value);
    }
    fragment->cells.push_back(std::move(cell));
  }
};

// The cells of a whole collection or UDT value (live, with the statement's TTL).
Status AddMultiCellValue(const CellTarget& t, std::string_view bytes) {
  const CqlType& type = t.type();
  switch (type.kind()) {
    case TypeKind::kUdt: {
      ASSIGN_OR_RETURN(auto fields, cql::SplitTupleOrUdt(bytes, type.params().size()));
      for (size_t f = 0; f < fields.size(); ++f) {
        if (fields[f]) t.Add(FieldPath(static_cast<int>(f)), Bytes(*fields[f]), t.ttl);
      }
      return Status::Ok();
    }
    case TypeKind::kMap: {
      ASSIGN_OR_RETURN(auto entries, cql::SplitMap(bytes));
      for (const auto& e : entries) t.Add(ElementPath(type.key(), e.key), Bytes(e.value), t.ttl);
      return Status::Ok();
    }
    case TypeKind::kSet: {
      ASSIGN_OR_RETURN(auto elements, Elements(type, bytes));
      for (std::string_view e : elements) t.Add(ElementPath(type.element(), e), Bytes(), t.ttl);
      return Status::Ok();
    }
    default: {  // list: appended (SET appends to the list its collection deletion empties)
      ASSIGN_OR_RETURN(auto elements, Elements(type, bytes));
      std::vector<Bytes> paths = t.context.list_paths->Append(elements.size());
      for (size_t i = 0; i < elements.size(); ++i) {
        t.Add(std::move(paths[i]), Bytes(elements[i]), t.ttl);
      }
      return Status::Ok();
    }
  }
}

// `column = value`.
Status ApplySet(const CellTarget& t, BoundValue value) {
  if (t.type().IsMultiCell()) {
    t.fragment->collection_deletions[t.column.column_id] =
        DeletionTime{t.params.timestamp - 1, t.params.now_seconds};
    if (!value.is_value()) return Status::Ok();
    return AddMultiCellValue(t, value.bytes);
  }
  std::optional<Bytes> bytes;
  if (value.is_value()) bytes = std::move(value.bytes);
  t.Add(std::nullopt, std::move(bytes), t.ttl);
  return Status::Ok();
}

// `counter = counter +/- delta`: the new total, read under the partition lock (or from the
// running totals of the batch or statement).
Status ApplyCounter(const CellTarget& t, bool add, const BoundValue& value) {
  ASSIGN_OR_RETURN(int64_t delta, cql::DeserializeBigint(value.bytes));
  if (!add) delta = static_cast<int64_t>(0 - static_cast<uint64_t>(delta));
  uint32_t id = t.column.column_id;
  CounterTotals::key_type total_key(t.table.storage_id, t.key, id);
  int64_t total = 0;
  auto pending = t.params.counter_totals->find(total_key);
  if (pending != t.params.counter_totals->end()) {
    total = pending->second;
  } else {
    ASSIGN_OR_RETURN(std::optional<RowFragment> current,
                     t.context.store->Get(t.table.storage_id, t.key));
    if (current) {
      for (const Cell& cell : current->cells) {
        if (cell.column_id == id && !cell.path && cell.IsLive(t.params.now_seconds) &&
            !(current->deletion && current->deletion->Deletes(cell.timestamp))) {
          ASSIGN_OR_RETURN(total, cql::DeserializeBigint(cell.value));
        }
      }
    }
  }
  total = static_cast<int64_t>(static_cast<uint64_t>(total) + static_cast<uint64_t>(delta));
  (*t.params.counter_totals)[total_key] = total;
  t.Add(std::nullopt, cql::SerializeBigint(total), 0);
  return Status::Ok();
}

// `collection = collection + value`, `- value`, or `list = value + list`.
Status ApplyCollectionChange(const CellTarget& t, Op op, const BoundValue& value) {
  const CqlType& type = t.type();
  bool add = op != Op::kSubtract;
  if (add && type.kind() != TypeKind::kList) return AddMultiCellValue(t, value.bytes);
  if (type.kind() == TypeKind::kMap) {
    ASSIGN_OR_RETURN(auto keys, Elements(CqlType::Set(type.key()), value.bytes));
    for (std::string_view k : keys) t.Add(ElementPath(type.key(), k), std::nullopt, 0);
    return Status::Ok();
  }
  ASSIGN_OR_RETURN(auto elements, Elements(type, value.bytes));
  if (type.kind() == TypeKind::kSet) {
    for (std::string_view e : elements) t.Add(ElementPath(type.element(), e), std::nullopt, 0);
    return Status::Ok();
  }
  if (op == Op::kSubtract) {
    ASSIGN_OR_RETURN(auto current,
                     CurrentListCells(t.context, t.table, t.key, t.column.column_id, t.params));
    for (const auto& [path, v] : current) {
      // std::find, not a lambda: clang before 16 cannot capture a structured binding.
      if (std::find(elements.begin(), elements.end(), v) != elements.end()) {
        t.Add(path, std::nullopt, 0);
      }
    }
    return Status::Ok();
  }
  std::vector<Bytes> paths = op == Op::kPrepend ? t.context.list_paths->Prepend(elements.size())
                                                : t.context.list_paths->Append(elements.size());
  for (size_t i = 0; i < elements.size(); ++i)
    t.Add(std::move(paths[i]), Bytes(elements[i]), t.ttl);
  return Status::Ok();
}

// `column[key] = value` and `DELETE column[key]`. `value` is nullopt for DELETE.
Status ApplyElement(const CellTarget& t, const BoundValue& key, std::optional<BoundValue> value) {
  const CqlType& type = t.type();
  bool is_list = type.kind() == TypeKind::kList;
  bool is_delete = !value.has_value();
  if (key.is_unset()) {
    if (is_list && is_delete) return Status::Ok();  // Cassandra ignores it
    return Status::Invalid(is_list ? "Invalid unset value for list index"
                                   : "Invalid unset map key");
  }
  if (key.is_null()) {
    return Status::Invalid(is_list ? "Invalid null value for list index" : "Invalid null map key");
  }
  std::optional<Bytes> element_value;
  if (value && value->is_value()) element_value = std::move(value->bytes);
  if (!is_list) {
    const CqlType& key_type = type.kind() == TypeKind::kMap ? type.key() : type.element();
    int64_t ttl = element_value ? t.ttl : 0;
    t.Add(ElementPath(key_type, key.bytes), std::move(element_value), ttl);
    return Status::Ok();
  }
  ASSIGN_OR_RETURN(int32_t index, cql::DeserializeInt(key.bytes));
  ASSIGN_OR_RETURN(auto current,
                   CurrentListCells(t.context, t.table, t.key, t.column.column_id, t.params));
  if (index < 0 || static_cast<size_t>(index) >= current.size()) {
    if (is_delete) return Status::Ok();  // Cassandra ignores it
    return Status::Invalid(
        fmt::format("List index {} out of bound, list has size {}", index, current.size()));
  }
  t.Add(current[index].first, std::move(element_value), t.ttl);
  return Status::Ok();
}

}  // namespace

struct ModificationStatement::Targets {
  std::vector<PartitionKey> partitions;
  std::vector<std::vector<Bytes>> clusterings;  // the rows written in each partition
  bool static_only = false;
};

Result<int64_t> ModificationStatement::EvaluateTtl(const EvalContext& eval) const {
  int64_t ttl = table_->table->options.default_time_to_live;
  if (!ttl_) return ttl;
  ASSIGN_OR_RETURN(BoundValue v, ttl_->Evaluate(eval));
  if (v.is_null()) return Status::Invalid("Invalid null value of TTL");
  if (!v.is_value()) return ttl;
  ASSIGN_OR_RETURN(int32_t t, cql::DeserializeInt(v.bytes));
  if (t < 0) {
    return Status::Invalid(fmt::format("A TTL must be greater or equal to 0, but was {}", t));
  }
  if (t > kMaxTtl) {
    return Status::Invalid(
        fmt::format("ttl is too large. requested ({}) maximum ({})", t, kMaxTtl));
  }
  return t;
}

Result<std::vector<BoundValue>> ModificationStatement::EvaluateJson(const EvalContext& eval) const {
  const TableSchema& table = *table_;
  ASSIGN_OR_RETURN(BoundValue text, json_->Evaluate(eval));
  if (!text.is_value()) return Status::Invalid("Got null for INSERT JSON values");
  ASSIGN_OR_RETURN(auto object, cql::ParseJsonObject(text.bytes));
  std::vector<BoundValue> values(table.table->columns.size(),
                                 json_default_unset_ ? BoundValue::Unset() : BoundValue::Null());
  for (auto& [name, value] : object) {
    int index = table.IndexOfColumn(name);
    if (index < 0) {
      return Status::Invalid(fmt::format("JSON values map contains unrecognized column: {}", name));
    }
    Result<std::optional<Bytes>> bytes = cql::JsonToValue(table.column(index).type, value);
    if (!bytes.ok()) {
      return Status::Invalid(
          fmt::format("Error decoding JSON value for {}: {}", name, bytes.status().message()));
    }
    values[index] = *bytes ? BoundValue::Of(std::move(**bytes)) : BoundValue::Null();
  }
  return values;
}

namespace {

// The checks EvaluatePartitionKeys makes on a partition key, for one taken from INSERT JSON.
Status CheckJsonPartitionKey(const std::vector<Bytes>& pk) {
  if (pk.size() == 1 && pk[0].empty()) return Status::Invalid("Key may not be empty");
  if (pk.size() == 1 && pk[0].size() > 65535) {
    return Status::Invalid(
        fmt::format("Key length of {} is longer than maximum of 65535", pk[0].size()));
  }
  if (pk.size() > 1) {
    std::vector<std::string_view> views(pk.begin(), pk.end());
    return cql::ValidatePartitionKeyComponentSizes(views);
  }
  return Status::Ok();
}

// INSERT JSON: the key comes from the JSON values.
Result<ModificationStatement::Targets> JsonTargets(const TableSchema& table,
                                                   std::span<const BoundValue> json_values) {
  ModificationStatement::Targets targets;
  std::vector<Bytes> pk;
  for (int index : table.partition_key) {
    const BoundValue& v = json_values[index];
    if (!v.is_value()) {
      return Status::Invalid(
          fmt::format("Invalid null value in condition for column {}", table.column(index).name));
    }
    pk.push_back(v.bytes);
  }
  RETURN_IF_ERROR(CheckJsonPartitionKey(pk));
  std::vector<Bytes> ck;
  bool any_ck = false;
  for (int index : table.clustering) {
    const BoundValue& v = json_values[index];
    if (!v.is_value()) continue;
    any_ck = true;
    ck.push_back(v.bytes);
  }
  if (ck.size() != table.clustering.size()) {
    if (any_ck) return Status::Invalid("Some clustering keys are missing");
    targets.static_only = true;
    ck.clear();
  }
  targets.partitions.push_back(PartitionKey{storage::PartitionPrefix(table.shape, pk), pk});
  targets.clusterings.push_back(std::move(ck));
  return targets;
}

}  // namespace

Result<ModificationStatement::Targets> ModificationStatement::ResolveTargets(
    const EvalContext& eval, std::span<const BoundValue> json_values) const {
  const TableSchema& table = *table_;
  if (json_) return JsonTargets(table, json_values);
  Targets targets;
  targets.static_only = static_only_;
  ASSIGN_OR_RETURN(targets.partitions, EvaluatePartitionKeys(table, restrictions_, eval));
  if (targets.static_only) {
    targets.clusterings.emplace_back();
  } else if (restrictions_.slice_columns == 0 &&
             restrictions_.clustering_prefix.size() == table.clustering.size()) {
    ASSIGN_OR_RETURN(targets.clusterings, EvaluateClusteringKeys(table, restrictions_, eval));
  }
  return targets;
}

Status ModificationStatement::AddRowDeletions(const Targets& targets, const PartitionKey& partition,
                                              const EvalContext& eval, const WriteParams& params,
                                              std::vector<Mutation>* out) const {
  const TableSchema& table = *table_;
  auto add = [&](Bytes key) {
    Mutation m{partition.prefix, partition.values, std::move(key), {}};
    m.fragment.deletion = DeletionTime{params.timestamp, params.now_seconds};
    out->push_back(std::move(m));
  };
  bool full = restrictions_.slice_columns == 0 &&
              restrictions_.clustering_prefix.size() == table.clustering.size();
  if (table.clustering.empty()) {
    // The partition is its one row: delete the row, so reads need not look for a partition
    // deletion entry (storage::TableOptions::single_row_partitions).
    add(storage::RowKey(table.shape, partition.prefix, std::span<const Bytes>()));
  } else if (restrictions_.clustering_prefix.empty() && restrictions_.slice_columns == 0) {
    add(storage::PartitionDeletionKey(partition.prefix));
  } else if (full) {
    for (const std::vector<Bytes>& ck : targets.clusterings) {
      add(storage::RowKey(table.shape, partition.prefix, ck));
    }
  } else {
    // A range tombstone per clustering interval, its bounds the interval's keys.
    ASSIGN_OR_RETURN(std::vector<KeyInterval> intervals,
                     EvaluateClusteringIntervals(table, restrictions_, partition.prefix, eval));
    for (const KeyInterval& interval : intervals) {
      ASSIGN_OR_RETURN(storage::ClusteringBound start,
                       storage::ParseRowBoundKey(table.shape, partition.prefix, interval.start));
      ASSIGN_OR_RETURN(storage::ClusteringBound end,
                       storage::ParseRowBoundKey(table.shape, partition.prefix, interval.end));
      add(storage::RangeTombstoneKey(table.shape, partition.prefix, start, end));
    }
  }
  return Status::Ok();
}

std::vector<ModificationStatement::Assignment> ModificationStatement::JsonAssignments(
    std::span<const BoundValue> json_values) const {
  const TableSchema& table = *table_;
  std::vector<Assignment> assignments;
  for (size_t i = 0; i < table.table->columns.size(); ++i) {
    const schema::ColumnMetadata& column = table.column(static_cast<int>(i));
    const BoundValue& v = json_values[i];
    if (IsKeyColumn(column) || v.is_unset()) continue;  // DEFAULT UNSET leaves it alone
    Assignment a;
    a.op = Op::kSet;
    a.column = static_cast<int>(i);
    a.value = ValueExpr::Constant(column.type,
                                  v.is_value() ? std::optional<Bytes>(v.bytes) : std::nullopt);
    assignments.push_back(std::move(a));
  }
  return assignments;
}

namespace {

// Applies one assignment of the statement to `target`'s fragment.
Status ApplyAssignment(const ModificationStatement::Assignment& a, const CellTarget& target,
                       const EvalContext& eval) {
  std::optional<BoundValue> value;
  if (a.value) {
    ASSIGN_OR_RETURN(BoundValue v, a.value->Evaluate(eval));
    if (v.is_unset()) return Status::Ok();
    value = std::move(v);
  }
  const CqlType& type = target.type();
  switch (a.op) {
    case Op::kSet:
      return ApplySet(target, std::move(*value));
    case Op::kAdd:
    case Op::kSubtract:
    case Op::kPrepend:
      if (!value->is_value()) {
        if (type.IsCounter()) return Status::Invalid("Invalid null value for counter increment");
        return Status::Ok();  // adding/removing null changes nothing
      }
      if (type.IsCounter()) return ApplyCounter(target, a.op != Op::kSubtract, *value);
      return ApplyCollectionChange(target, a.op, *value);
    case Op::kSetElement:
    case Op::kDeleteElement: {
      ASSIGN_OR_RETURN(BoundValue key, a.key->Evaluate(eval));
      if (a.op == Op::kDeleteElement) value.reset();
      return ApplyElement(target, key, std::move(value));
    }
    case Op::kSetField:
    case Op::kDeleteField: {
      std::optional<Bytes> field_value;
      if (a.op == Op::kSetField && value->is_value()) field_value = std::move(value->bytes);
      int64_t ttl = field_value ? target.ttl : 0;
      target.Add(FieldPath(a.field), std::move(field_value), ttl);
      return Status::Ok();
    }
    case Op::kDeleteColumn:
      if (type.IsMultiCell()) {
        target.fragment->collection_deletions[target.column.column_id] =
            DeletionTime{target.params.timestamp, target.params.now_seconds};
      } else {
        target.Add(std::nullopt, std::nullopt, 0);
      }
      return Status::Ok();
  }
  return Status::Internal("unknown assignment");
}

}  // namespace

Status ModificationStatement::AddRowWrites(const ExecutionContext& context, const EvalContext& eval,
                                           const WriteParams& params, const Targets& targets,
                                           const PartitionKey& partition,
                                           std::span<const Assignment> assignments, int64_t ttl,
                                           std::vector<Mutation>* out) const {
  const TableSchema& table = *table_;
  // Only a table with static columns writes the static row.
  Bytes static_key = table.has_statics() ? storage::StaticRowKey(partition.prefix) : Bytes();
  for (const std::vector<Bytes>& ck : targets.clusterings) {
    Bytes row_key = storage::RowKey(table.shape, partition.prefix, ck);
    RowFragment row;
    RowFragment statics;
    if (kind_ == Kind::kInsert && !targets.static_only) {
      storage::LivenessInfo liveness;
      liveness.timestamp = params.timestamp;
      if (ttl > 0) {
        liveness.ttl = ttl;
        liveness.local_expiration_time = params.now_seconds + ttl;
      }
      row.liveness = liveness;
    }
    for (const Assignment& a : assignments) {
      const schema::ColumnMetadata& column = table.column(a.column);
      bool is_static = column.kind == ColumnKind::kStatic;
      CellTarget target{context,
                        table,
                        params,
                        ttl,
                        column,
                        is_static ? &statics : &row,
                        is_static ? static_key : row_key};
      RETURN_IF_ERROR(ApplyAssignment(a, target, eval));
    }
    if (!row.empty() && !targets.static_only) {
      out->push_back(
          Mutation{partition.prefix, partition.values, std::move(row_key), std::move(row)});
    }
    if (!statics.empty()) {
      out->push_back(Mutation{partition.prefix, partition.values, static_key, std::move(statics)});
    }
  }
  return Status::Ok();
}

namespace {

// Two operations on one cell of one statement share its timestamp and merge as Cassandra
// merges them (storage::ReconcileCells: a tombstone beats a live cell, then the greater value
// wins), except counters, whose later cell carries the running total.
void MergeSamePosition(bool counters, std::vector<Mutation>* mutations) {
  for (Mutation& m : *mutations) {
    storage::SortCells(&m.fragment);
    std::vector<Cell>& cells = m.fragment.cells;
    auto same = [](const Cell& a, const Cell& b) {
      return storage::CompareCellPosition(a, b) == 0;
    };
    // The common case, one operation per cell, keeps the cells where they are.
    if (std::adjacent_find(cells.begin(), cells.end(), same) == cells.end()) continue;
    std::vector<Cell> unique;
    for (Cell& cell : m.fragment.cells) {
      if (unique.empty() || storage::CompareCellPosition(unique.back(), cell) != 0) {
        unique.push_back(std::move(cell));
      } else if (counters) {
        unique.back() = std::move(cell);
      } else {
        unique.back() = Cell(storage::ReconcileCells(unique.back(), cell));
      }
    }
    m.fragment.cells = std::move(unique);
  }
}

}  // namespace

Result<std::vector<Mutation>> ModificationStatement::BuildMutations(
    const ExecutionContext& context, const EvalContext& eval, const WriteParams& params) const {
  if (params.timestamp == std::numeric_limits<int64_t>::min()) {
    // Cassandra keeps Long.MIN_VALUE to mean "no timestamp".
    return Status::Invalid(fmt::format("Out of bound timestamp, must be in [{}, {}]",
                                       std::numeric_limits<int64_t>::min() + 1,
                                       std::numeric_limits<int64_t>::max()));
  }
  ASSIGN_OR_RETURN(int64_t ttl, EvaluateTtl(eval));
  std::vector<BoundValue> json_values;
  if (json_) {
    ASSIGN_OR_RETURN(json_values, EvaluateJson(eval));
  }
  ASSIGN_OR_RETURN(Targets targets, ResolveTargets(eval, json_values));
  // A statement's counter updates add up like a batch's.
  CounterTotals statement_totals;
  WriteParams write_params = params;
  if (write_params.counter_totals == nullptr) write_params.counter_totals = &statement_totals;
  std::vector<Assignment> json_assignments;
  if (json_) json_assignments = JsonAssignments(json_values);
  std::span<const Assignment> assignments = json_ ? json_assignments : assignments_;
  std::vector<Mutation> out;
  for (const PartitionKey& partition : targets.partitions) {
    if (kind_ == Kind::kDelete && delete_row_) {
      RETURN_IF_ERROR(AddRowDeletions(targets, partition, eval, write_params, &out));
    } else {
      RETURN_IF_ERROR(
          AddRowWrites(context, eval, write_params, targets, partition, assignments, ttl, &out));
    }
  }
  MergeSamePosition(is_counter(), &out);
  return out;
}

}  // namespace engine
