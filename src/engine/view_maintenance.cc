#include "engine/view_maintenance.h"

#include <algorithm>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "cql/parser/statement.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_compare.h"
#include "engine/value_expr.h"
#include "storage/cell_merge.h"
#include "storage/key_layout.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;
using cql::Operator;
using storage::Cell;
using storage::CellKind;
using storage::DeletionTime;
using storage::LivenessInfo;
using storage::RowFragment;

namespace {

// The smallest timestamp above `timestamp` (saturating).
int64_t Above(int64_t timestamp) {
  return timestamp == std::numeric_limits<int64_t>::max() ? timestamp : timestamp + 1;
}

// The value of a WHERE term for a receiver of `type`.
Result<Bytes> EvaluateTerm(const cql::Term& term, const cql::CqlType& type, std::string_view name,
                           const cql::FunctionContext& functions) {
  ASSIGN_OR_RETURN(ValueExpr expr, ValueExpr::Prepare(term, type, name, nullptr));
  EvalContext context{{}, &functions};
  ASSIGN_OR_RETURN(cql::BoundValue value, expr.Evaluate(context));
  if (!value.is_value()) {
    return Status::Invalid(fmt::format("Invalid null value in condition for column {}", name));
  }
  return std::move(value.bytes);
}

// Compares two tuples of values of `types`, lexicographically.
int CompareTuples(const std::vector<cql::CqlType>& types, const std::vector<Bytes>& a,
                  const std::vector<Bytes>& b) {
  for (size_t i = 0; i < types.size() && i < a.size() && i < b.size(); ++i) {
    int c = cql::CompareValues(types[i], a[i], b[i]);
    if (c != 0) return c;
  }
  return 0;
}

// Whether `fragment` (canonical) reads as a live row at `now_seconds`.
bool HasLiveContent(const RowFragment& fragment, int64_t now_seconds) {
  if (fragment.liveness && fragment.liveness->IsLive(now_seconds)) return true;
  return std::any_of(fragment.cells.begin(), fragment.cells.end(),
                     [&](const Cell& cell) { return cell.IsLive(now_seconds); });
}

// The highest timestamp anything in `fragment` carries.
int64_t MaxTimestamp(const RowFragment& fragment) {
  int64_t max = std::numeric_limits<int64_t>::min();
  if (fragment.liveness) max = std::max(max, fragment.liveness->timestamp);
  if (fragment.deletion) max = std::max(max, fragment.deletion->timestamp);
  for (const auto& [column, deletion] : fragment.collection_deletions) {
    max = std::max(max, deletion.timestamp);
  }
  for (const Cell& cell : fragment.cells) max = std::max(max, cell.timestamp);
  return max;
}

// Invariant 5: the same view row content (the marker's timestamp is never read back).
bool SameViewRow(const ViewRow& a, const ViewRow& b) {
  if (a.key != b.key || a.fragment.cells != b.fragment.cells) return false;
  const std::optional<LivenessInfo>& x = a.fragment.liveness;
  const std::optional<LivenessInfo>& y = b.fragment.liveness;
  if (x.has_value() != y.has_value()) return false;
  return !x ||
         (x->expiring() == y->expiring() && x->local_expiration_time == y->local_expiration_time);
}

// The index among `base`'s columns of the column `view` names; Internal when the base lacks it.
Result<int> BaseIndex(const TableSchema& base, const schema::TableMetadata& view,
                      const std::string& name) {
  int index = base.IndexOfColumn(name);
  if (index < 0) {
    return Status::Internal(
        fmt::format("materialized view {}.{} names column {} that its base table lacks",
                    view.keyspace, view.name, name));
  }
  return index;
}

}  // namespace

ViewMaintainer::ViewMaintainer(const TableSchema* base, const schema::TableMetadata* view)
    : base_(base), view_(view) {}

ViewMaintainer::~ViewMaintainer() = default;

Result<std::unique_ptr<ViewMaintainer>> ViewMaintainer::Create(
    const TableSchema& base, const schema::TableMetadata* view,
    const cql::FunctionContext& functions) {
  auto maintainer = std::make_unique<ViewMaintainer>(&base, view);
  const TableSchema& schema = maintainer->view_;
  auto base_index = [&](const std::string& name) { return BaseIndex(base, *view, name); };
  uint32_t max_id = 0;
  for (const schema::ColumnMetadata& column : base.table->columns) {
    max_id = std::max(max_id, column.column_id);
  }
  maintainer->view_column_of_base_id_.assign(static_cast<size_t>(max_id) + 1, -1);
  auto add_key = [&](int view_index, std::vector<int>* out) -> Status {
    ASSIGN_OR_RETURN(int index, base_index(schema.column(view_index).name));
    out->push_back(index);
    if (base.column(index).kind == schema::ColumnKind::kRegular) {
      maintainer->regular_key_column_ = index;
      maintainer->required_columns_.push_back(index);
    }
    return Status::Ok();
  };
  for (int index : schema.partition_key)
    RETURN_IF_ERROR(add_key(index, &maintainer->partition_key_));
  for (int index : schema.clustering) RETURN_IF_ERROR(add_key(index, &maintainer->clustering_));
  for (int index : schema.regulars) {
    ASSIGN_OR_RETURN(int base_column, base_index(schema.column(index).name));
    maintainer->view_column_of_base_id_[base.column(base_column).column_id] =
        schema.column(index).column_id;
  }

  for (const cql::Relation& relation : view->view->where) {
    RETURN_IF_ERROR(maintainer->AddWhereRelation(relation, *view, functions));
  }
  return maintainer;
}

// Adds one relation of the view's WHERE clause as a filter on base rows (an `IS NOT NULL` on a
// simple regular column also makes that column required).
Status ViewMaintainer::AddWhereRelation(const cql::Relation& relation,
                                        const schema::TableMetadata& view,
                                        const cql::FunctionContext& functions) {
  const TableSchema& base = *base_;
  Filter filter;
  filter.op = relation.op;
  std::vector<cql::CqlType> types;
  for (const std::string& name : relation.columns) {
    ASSIGN_OR_RETURN(int index, BaseIndex(base, view, name));
    filter.columns.push_back(index);
    types.push_back(base.column(index).type);
    if (base.column(index).kind == schema::ColumnKind::kStatic) {
      depends_on_statics_ = true;
    }
  }
  bool supported = !filter.columns.empty() && !relation.map_key &&
                   (relation.kind == cql::Relation::Kind::kColumn ||
                    relation.kind == cql::Relation::Kind::kMultiColumn);
  std::string name = relation.columns.empty() ? "" : relation.columns[0];
  switch (relation.op) {
    case Operator::kIsNot:
      supported = supported && filter.columns.size() == 1;
      if (supported) {
        int index = filter.columns[0];
        const schema::ColumnMetadata& column = base.column(index);
        if (column.kind == schema::ColumnKind::kRegular && !column.type.IsMultiCell() &&
            index != regular_key_column_) {
          required_columns_.push_back(index);
        }
      }
      break;
    case Operator::kNeq:
      // As Cassandra's SELECT restrictions, which a view's WHERE clause is prepared as.
      return Status::Invalid(fmt::format("Unsupported \"!=\" relation: {}", cql::ToCql(relation)));
    case Operator::kEq:
    case Operator::kLt:
    case Operator::kLte:
    case Operator::kGt:
    case Operator::kGte:
    case Operator::kIn:
      break;
    default:
      supported = false;
      break;
  }
  if (!supported) {
    return Status::Invalid(
        fmt::format("Unsupported restriction in the WHERE clause of materialized view '{}': {}",
                    view.name, cql::ToCql(relation)));
  }
  if (relation.op == Operator::kIsNot) {
    filters_.push_back(std::move(filter));
    return Status::Ok();
  }
  bool multi = relation.kind == cql::Relation::Kind::kMultiColumn;
  cql::CqlType type = multi ? cql::CqlType::Tuple(types) : types[0];
  // One right-hand-side value as a tuple of column values.
  auto add_value = [&](std::string_view bytes) -> Status {
    if (!multi) {
      filter.values.push_back({Bytes(bytes)});
      return Status::Ok();
    }
    ASSIGN_OR_RETURN(auto elements, cql::SplitTupleOrUdt(bytes, types.size()));
    std::vector<Bytes> tuple;
    for (const auto& element : elements) {
      if (!element) {
        return Status::Invalid(fmt::format("Invalid null value in condition for column {}", name));
      }
      tuple.emplace_back(*element);
    }
    filter.values.push_back(std::move(tuple));
    return Status::Ok();
  };
  if (relation.op == Operator::kIn && relation.in_list) {
    for (const cql::Term& term : relation.in_values) {
      ASSIGN_OR_RETURN(Bytes value, EvaluateTerm(term, type, name, functions));
      RETURN_IF_ERROR(add_value(value));
    }
  } else if (relation.op == Operator::kIn) {
    cql::CqlType list = cql::CqlType::List(type);
    ASSIGN_OR_RETURN(Bytes value, EvaluateTerm(relation.value, list, name, functions));
    ASSIGN_OR_RETURN(auto elements, cql::SplitListOrSet(list, value));
    for (std::string_view element : elements) RETURN_IF_ERROR(add_value(element));
  } else {
    ASSIGN_OR_RETURN(Bytes value, EvaluateTerm(relation.value, type, name, functions));
    RETURN_IF_ERROR(add_value(value));
  }
  filters_.push_back(std::move(filter));
  return Status::Ok();
}

bool ViewMaintainer::Matches(const RowData& row) const {
  for (const Filter& filter : filters_) {
    std::vector<Bytes> actual;
    std::vector<cql::CqlType> types;
    for (int index : filter.columns) {
      const std::optional<Bytes>& value = row.cells[index].value;
      if (!value) return false;  // IS NOT NULL fails; no comparison holds on null
      actual.push_back(*value);
      types.push_back(base_->column(index).type);
    }
    if (filter.op == Operator::kIsNot) continue;
    if (filter.op == Operator::kIn) {
      bool found = std::any_of(filter.values.begin(), filter.values.end(),
                               [&](const auto& v) { return CompareTuples(types, actual, v) == 0; });
      if (!found) return false;
      continue;
    }
    if (filter.values.empty()) return false;
    int c = CompareTuples(types, actual, filter.values[0]);
    if (filter.op == Operator::kNeq || !ComparisonHolds(filter.op, c)) return false;
  }
  return true;
}

std::optional<ViewRow> ViewMaintainer::DesiredRow(const std::optional<RowData>& row,
                                                  const RowFragment& live) const {
  if (!row || row->static_only || !Matches(*row)) return std::nullopt;
  std::vector<Bytes> partition_key;
  std::vector<Bytes> clustering;
  for (int index : partition_key_) {
    const std::optional<Bytes>& value = row->cells[index].value;
    if (!value) return std::nullopt;
    partition_key.push_back(*value);
  }
  // An empty single-column partition key ('' of a text or blob column) is stored, as Cassandra
  // stores it: under the minimum token (cql::Murmur3Token), so a full scan returns it first;
  // a query by that key is refused ("Key may not be empty").
  for (int index : clustering_) {
    const std::optional<Bytes>& value = row->cells[index].value;
    if (!value) return std::nullopt;
    clustering.push_back(*value);
  }
  auto simple_cell = [&](int index) -> const Cell* {
    uint32_t id = base_->column(index).column_id;
    for (const Cell& cell : live.cells) {
      if (cell.column_id == id && !cell.path) return &cell;
    }
    return nullptr;
  };

  // Invariant 2: the marker.
  std::optional<LivenessInfo> marker;
  auto consider = [&](int64_t timestamp, bool expiring, int64_t ttl, int64_t expiration) {
    if (!marker) {
      marker = LivenessInfo{timestamp, expiring ? ttl : 0, expiring ? expiration : 0};
      return;
    }
    marker->timestamp = std::max(marker->timestamp, timestamp);
    if (!expiring) {
      marker->ttl = 0;
      marker->local_expiration_time = 0;
    } else if (marker->expiring() && expiration > marker->local_expiration_time) {
      marker->ttl = ttl;
      marker->local_expiration_time = expiration;
    }
  };
  if (regular_key_column_ >= 0) {
    const Cell* cell = simple_cell(regular_key_column_);
    if (cell == nullptr) return std::nullopt;
    consider(cell->timestamp, cell->is_expiring(), cell->ttl, cell->local_deletion_time);
  } else {
    if (live.liveness) {
      consider(live.liveness->timestamp, live.liveness->expiring(), live.liveness->ttl,
               live.liveness->local_expiration_time);
    }
    for (const Cell& cell : live.cells) {
      consider(cell.timestamp, cell.is_expiring(), cell.ttl, cell.local_deletion_time);
    }
    if (!marker) return std::nullopt;
  }
  // No part of the view row outlives a cell it requires.
  for (int index : required_columns_) {
    const Cell* cell = simple_cell(index);
    if (cell == nullptr) return std::nullopt;
    if (cell->is_expiring() &&
        (!marker->expiring() || cell->local_deletion_time < marker->local_expiration_time)) {
      marker->ttl = cell->ttl;
      marker->local_expiration_time = cell->local_deletion_time;
    }
  }

  ViewRow out;
  out.fragment.liveness = marker;
  for (const Cell& cell : live.cells) {
    if (cell.column_id >= view_column_of_base_id_.size()) continue;
    int64_t view_id = view_column_of_base_id_[cell.column_id];
    if (view_id < 0) continue;
    Cell copy = cell;
    copy.column_id = static_cast<uint32_t>(view_id);
    if (marker->expiring() &&
        (!copy.is_expiring() || copy.local_deletion_time > marker->local_expiration_time)) {
      copy.kind = CellKind::kExpiring;
      copy.ttl = marker->ttl;
      copy.local_deletion_time = marker->local_expiration_time;
    }
    out.fragment.cells.push_back(std::move(copy));
  }
  storage::SortCells(&out.fragment);
  Bytes prefix = storage::PartitionPrefix(view_.shape, partition_key);
  out.key = storage::RowKey(view_.shape, prefix, clustering);
  return out;
}

Status ViewMaintainer::AddMutations(const storage::Store& store, std::span<const RowChange> changes,
                                    int64_t now_seconds, storage::WriteBatch* batch) const {
  auto reconcile = [&](const Bytes& key, const std::optional<RowFragment>& desired) -> Status {
    ASSIGN_OR_RETURN(std::optional<RowFragment> stored, store.Get(view_.storage_id, key));
    std::optional<RowFragment> mutation = ReconcileViewRow(stored, desired, now_seconds);
    if (mutation) batch->Merge(view_.storage_id, key, *mutation);
    return Status::Ok();
  };
  for (const RowChange& change : changes) {
    std::optional<ViewRow> before = DesiredRow(change.before, change.before_live);
    std::optional<ViewRow> after = DesiredRow(change.after, change.after_live);
    if (!before && !after) continue;
    if (before && after && SameViewRow(*before, *after)) continue;
    if (before && (!after || before->key != after->key)) {
      RETURN_IF_ERROR(reconcile(before->key, std::nullopt));
    }
    if (after) RETURN_IF_ERROR(reconcile(after->key, after->fragment));
  }
  return Status::Ok();
}

std::optional<RowFragment> ReconcileViewRow(const std::optional<RowFragment>& stored_in,
                                            const std::optional<RowFragment>& desired,
                                            int64_t now_seconds) {
  RowFragment stored = stored_in ? storage::Canonical(*stored_in) : RowFragment();
  RowFragment out;
  if (!desired) {
    if (!HasLiveContent(stored, now_seconds)) return std::nullopt;
    out.deletion = DeletionTime{MaxTimestamp(stored), now_seconds};
    return out;
  }
  // Everything at or below `floor` is shadowed by the stored row tombstone.
  std::optional<int64_t> floor;
  if (stored.deletion) floor = stored.deletion->timestamp;

  if (desired->liveness && !(stored.liveness && *stored.liveness == *desired->liveness)) {
    LivenessInfo marker = *desired->liveness;
    bool shadowed = floor && marker.timestamp <= *floor;
    bool loses = stored.liveness && !storage::LivenessSupersedes(marker, *stored.liveness);
    if (shadowed || loses) {
      int64_t top = floor.value_or(std::numeric_limits<int64_t>::min());
      if (stored.liveness) top = std::max(top, stored.liveness->timestamp);
      marker.timestamp = Above(top);
    }
    out.liveness = marker;
  }

  // The timestamp at or below which a cell at `cell`'s position is shadowed.
  auto threshold = [&](const Cell& cell) -> std::optional<int64_t> {
    std::optional<int64_t> t = floor;
    if (cell.path) {
      auto it = stored.collection_deletions.find(cell.column_id);
      if (it != stored.collection_deletions.end()) {
        t = std::max(t.value_or(it->second.timestamp), it->second.timestamp);
      }
    }
    return t;
  };
  auto write = [&](Cell cell, const Cell* existing) {
    std::optional<int64_t> t = threshold(cell);
    bool shadowed = t && cell.timestamp <= *t;
    bool loses = existing != nullptr && storage::CompareForReconcile(cell, *existing) <= 0;
    if (shadowed || loses) {
      int64_t top = t.value_or(std::numeric_limits<int64_t>::min());
      if (existing != nullptr) top = std::max(top, existing->timestamp);
      cell.timestamp = Above(top);
    }
    out.cells.push_back(std::move(cell));
  };
  auto remove = [&](const Cell& cell) {
    if (!cell.IsLive(now_seconds)) return;
    Cell tombstone;
    tombstone.column_id = cell.column_id;
    tombstone.path = cell.path;
    tombstone.timestamp = cell.timestamp;  // a tombstone wins a timestamp tie
    tombstone.kind = CellKind::kTombstone;
    tombstone.local_deletion_time = now_seconds;
    out.cells.push_back(std::move(tombstone));
  };
  const std::vector<Cell>& want = desired->cells;
  const std::vector<Cell>& have = stored.cells;
  size_t i = 0;
  size_t j = 0;
  while (i < want.size() || j < have.size()) {
    if (j == have.size()) {
      write(want[i++], nullptr);
    } else if (i == want.size()) {
      remove(have[j++]);
    } else {
      std::strong_ordering c = storage::CompareCellPosition(want[i], have[j]);
      if (c < 0) {
        write(want[i++], nullptr);
      } else if (c > 0) {
        remove(have[j++]);
      } else {
        if (!(want[i] == have[j])) write(want[i], &have[j]);
        ++i;
        ++j;
      }
    }
  }
  if (!out.liveness && out.cells.empty()) return std::nullopt;
  storage::SortCells(&out);
  return out;
}

}  // namespace engine
