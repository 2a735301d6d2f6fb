// Evaluation half of restrictions.h: keys, clustering intervals, token ranges, filters.
//
// Clustering intervals (what SELECT reads and a range DELETE tombstones, so both must agree):
//   1. Each EQ/IN prefix (single columns, or one tuple's components) gives one row prefix.
//   2. A slice bound (v1..vn) over the columns after the prefix is the union, over i, of
//      "columns 1..i-1 equal v1..v(i-1), column i beyond vi" (plus "all n equal" when
//      inclusive): lexicographic comparison of values, as Cassandra's. Each piece is one storage
//      interval whichever order column i has, so mixed ASC/DESC slices are exact.
//   3. The start and end bounds' unions are intersected with the prefix's interval; the result
//      is sorted and merged, so duplicate IN values never read or delete a row twice.

#include "engine/restrictions.h"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "cql/parser/statement.h"
#include "cql/types/murmur3.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_compare.h"
#include "storage/key_encoding.h"
#include "storage/key_layout.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;
using cql::CqlType;
using cql::Operator;
using cql::Relation;
using schema::ColumnKind;

namespace {

// Cartesian product of per-column value lists.
std::vector<std::vector<Bytes>> Product(const std::vector<std::vector<Bytes>>& lists) {
  std::vector<std::vector<Bytes>> result(1);
  for (const std::vector<Bytes>& values : lists) {
    std::vector<std::vector<Bytes>> next;
    next.reserve(result.size() * values.size());
    for (const std::vector<Bytes>& prefix : result) {
      for (const Bytes& v : values) {
        std::vector<Bytes> row = prefix;
        row.push_back(v);
        next.push_back(std::move(row));
      }
    }
    result = std::move(next);
  }
  return result;
}

}  // namespace

Result<std::vector<PartitionKey>> EvaluatePartitionKeys(const TableSchema& table,
                                                        const Restrictions& restrictions,
                                                        const EvalContext& context) {
  std::vector<std::vector<Bytes>> lists;
  for (size_t i = 0; i < restrictions.partition_values.size(); ++i) {
    const schema::ColumnMetadata& column = table.column(table.partition_key[i]);
    ASSIGN_OR_RETURN(std::vector<Bytes> values,
                     restrictions.partition_values[i].Evaluate(context, column.type, column.name));
    for (const Bytes& v : values) {
      if (v.empty() && table.partition_key.size() == 1) {
        return Status::Invalid("Key may not be empty");
      }
    }
    lists.push_back(std::move(values));
  }
  // One value per column (a point read) is the only key: taken as it is, without Product's
  // copies.
  std::vector<std::vector<Bytes>> combinations;
  if (std::all_of(lists.begin(), lists.end(), [](const auto& l) { return l.size() == 1; })) {
    std::vector<Bytes>& only = combinations.emplace_back();
    only.reserve(lists.size());
    for (std::vector<Bytes>& values : lists) only.push_back(std::move(values[0]));
  } else {
    combinations = Product(lists);
  }
  std::vector<PartitionKey> keys;
  keys.reserve(combinations.size());
  for (std::vector<Bytes>& values : combinations) {
    if (values.size() > 1) {
      std::vector<std::string_view> views(values.begin(), values.end());
      RETURN_IF_ERROR(cql::ValidatePartitionKeyComponentSizes(views));
    } else if (!values.empty() && values[0].size() > 65535) {
      return Status::Invalid(
          fmt::format("Key length of {} is longer than maximum of 65535", values[0].size()));
    }
    PartitionKey key;
    key.prefix = storage::PartitionPrefix(table.shape, values);
    key.values = std::move(values);
    keys.push_back(std::move(key));
  }
  // Each list is sorted and deduplicated, so the product is in key-value order with no
  // duplicates.
  return keys;
}

namespace {

// Appends each of `parts` to each of `heads` (a cartesian product, in order).
std::vector<std::vector<Bytes>> Extend(const std::vector<std::vector<Bytes>>& heads,
                                       const std::vector<std::vector<Bytes>>& parts) {
  std::vector<std::vector<Bytes>> result;
  result.reserve(heads.size() * parts.size());
  for (const std::vector<Bytes>& head : heads) {
    for (const std::vector<Bytes>& part : parts) {
      std::vector<Bytes> row = head;
      row.insert(row.end(), part.begin(), part.end());
      result.push_back(std::move(row));
    }
  }
  return result;
}

// The tuples of a multi-column EQ/IN, split into their components.
Result<std::vector<std::vector<Bytes>>> EvaluateTuples(const TableSchema& table,
                                                       const Restrictions& r,
                                                       const EvalContext& context) {
  const size_t first = r.multi_column_first;
  const size_t width = r.multi_column_width;
  std::vector<CqlType> types;
  for (size_t i = first; i < first + width; ++i) {
    types.push_back(table.column(table.clustering[i]).type);
  }
  CqlType tuple_type = CqlType::Tuple(types);
  std::vector<Bytes> tuples;
  if (r.multi_column_in_list) {
    ASSIGN_OR_RETURN(cql::BoundValue v, r.multi_column_in_list->Evaluate(context));
    if (!v.is_value()) return Status::Invalid("Invalid null value for IN restriction");
    ASSIGN_OR_RETURN(std::vector<std::string_view> elements,
                     cql::SplitListOrSet(CqlType::List(tuple_type), v.bytes));
    for (std::string_view e : elements) tuples.emplace_back(e);
  } else {
    for (const ValueExpr& expr : r.multi_column_in) {
      ASSIGN_OR_RETURN(cql::BoundValue v, expr.Evaluate(context));
      if (!v.is_value()) return Status::Invalid("Invalid null value in condition for columns");
      tuples.push_back(std::move(v.bytes));
    }
  }
  std::vector<std::vector<Bytes>> result;
  for (const Bytes& tuple : tuples) {
    ASSIGN_OR_RETURN(std::vector<std::optional<std::string_view>> fields,
                     cql::SplitTupleOrUdt(tuple, width));
    std::vector<Bytes> components;
    for (size_t i = 0; i < width; ++i) {
      if (i >= fields.size() || !fields[i]) {
        return Status::Invalid(fmt::format("Invalid null value in condition for column {}",
                                           table.column(table.clustering[first + i]).name));
      }
      components.emplace_back(*fields[i]);
    }
    result.push_back(std::move(components));
  }
  return result;
}

// The clustering prefixes (EQ/IN, single columns and a tuple) as value lists.
Result<std::vector<std::vector<Bytes>>> EvaluatePrefixes(const TableSchema& table,
                                                         const Restrictions& r,
                                                         const EvalContext& context) {
  std::vector<std::vector<Bytes>> result(1);
  size_t i = 0;
  while (i < r.clustering_prefix.size()) {
    std::vector<std::vector<Bytes>> parts;
    if (r.multi_column_prefix && i == r.multi_column_first) {
      ASSIGN_OR_RETURN(parts, EvaluateTuples(table, r, context));
      i += r.multi_column_width;
    } else {
      const schema::ColumnMetadata& column = table.column(table.clustering[i]);
      ASSIGN_OR_RETURN(std::vector<Bytes> values,
                       r.clustering_prefix[i].Evaluate(context, column.type, column.name));
      for (Bytes& v : values) parts.push_back({std::move(v)});
      ++i;
    }
    result = Extend(result, parts);
  }
  return result;
}

// The components of a slice bound: one value (width 0) or a tuple's components.
Result<std::optional<std::vector<Bytes>>> BoundValues(const TableSchema& table,
                                                      const SliceBound& bound, size_t first,
                                                      const EvalContext& context) {
  if (!bound.value) return std::optional<std::vector<Bytes>>();
  ASSIGN_OR_RETURN(cql::BoundValue v, bound.value->Evaluate(context));
  const schema::ColumnMetadata& column = table.column(table.clustering[first]);
  if (v.is_unset()) {
    return Status::Invalid(fmt::format("Invalid unset value for column {}", column.name));
  }
  if (v.is_null()) {
    return Status::Invalid(
        fmt::format("Invalid null value in condition for column {}", column.name));
  }
  std::vector<Bytes> values;
  if (bound.width == 0) {
    values.push_back(std::move(v.bytes));
    return std::optional<std::vector<Bytes>>(std::move(values));
  }
  ASSIGN_OR_RETURN(std::vector<std::optional<std::string_view>> fields,
                   cql::SplitTupleOrUdt(v.bytes, bound.width));
  for (size_t i = 0; i < bound.width; ++i) {
    if (i >= fields.size() || !fields[i]) {
      return Status::Invalid(fmt::format("Invalid null value in condition for column {}",
                                         table.column(table.clustering[first + i]).name));
    }
    values.emplace_back(*fields[i]);
  }
  return std::optional<std::vector<Bytes>>(std::move(values));
}

// Sorts `intervals` and merges those that overlap or touch; drops empty ones.
std::vector<KeyInterval> Normalize(std::vector<KeyInterval> intervals) {
  std::sort(intervals.begin(), intervals.end(),
            [](const KeyInterval& a, const KeyInterval& b) { return a.start < b.start; });
  std::vector<KeyInterval> merged;
  for (KeyInterval& interval : intervals) {
    if (!(interval.start < interval.end)) continue;
    if (!merged.empty() && interval.start <= merged.back().end) {
      if (interval.end > merged.back().end) merged.back().end = std::move(interval.end);
      continue;
    }
    merged.push_back(std::move(interval));
  }
  return merged;
}

// The intersection of two normalized interval lists.
std::vector<KeyInterval> Intersect(const std::vector<KeyInterval>& a,
                                   const std::vector<KeyInterval>& b) {
  std::vector<KeyInterval> result;
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const Bytes& start = std::max(a[i].start, b[j].start);
    const Bytes& end = std::min(a[i].end, b[j].end);
    if (start < end) result.push_back(KeyInterval{start, end});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return result;
}

// The rows under clustering prefix `head` whose columns from position `first` compare to
// `values` (lexicographically, over values.size() columns) as a start bound (> / >=) or an end
// bound (< / <=) says. Each column's own order decides where its greater values lie, so a
// slice over ASC and DESC columns becomes several storage intervals, exactly:
//   (x1..xn) > (v1..vn)  <=>  OR over i of (x1..x(i-1)) = (v1..v(i-1)) AND xi > vi.
std::vector<KeyInterval> SliceIntervals(const TableSchema& table, std::string_view prefix,
                                        const std::vector<Bytes>& head, size_t first,
                                        const std::vector<Bytes>& values, bool is_start,
                                        bool inclusive) {
  using storage::BoundSide;
  auto key = [&](size_t n, BoundSide side) {
    std::vector<Bytes> v = head;
    v.insert(v.end(), values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n));
    return storage::RowBoundKey(table.shape, prefix, storage::ClusteringBound{v, side});
  };
  std::vector<KeyInterval> pieces;
  for (size_t i = 0; i < values.size(); ++i) {
    bool descending = table.shape.clustering[first + i].descending;
    if (is_start != descending) {
      pieces.push_back(KeyInterval{key(i + 1, BoundSide::kAfter), key(i, BoundSide::kAfter)});
    } else {
      pieces.push_back(KeyInterval{key(i, BoundSide::kBefore), key(i + 1, BoundSide::kBefore)});
    }
  }
  if (inclusive) {
    pieces.push_back(
        KeyInterval{key(values.size(), BoundSide::kBefore), key(values.size(), BoundSide::kAfter)});
  }
  return Normalize(std::move(pieces));
}

}  // namespace

Result<std::vector<KeyInterval>> EvaluateClusteringIntervals(const TableSchema& table,
                                                             const Restrictions& r,
                                                             std::string_view prefix,
                                                             const EvalContext& context) {
  using storage::BoundSide;
  using storage::ClusteringBound;
  ASSIGN_OR_RETURN(std::vector<std::vector<Bytes>> prefixes, EvaluatePrefixes(table, r, context));
  const size_t first = r.clustering_prefix.size();
  std::optional<std::vector<Bytes>> low;
  std::optional<std::vector<Bytes>> high;
  if (r.slice_columns > 0) {
    ASSIGN_OR_RETURN(low, BoundValues(table, r.slice_start, first, context));
    ASSIGN_OR_RETURN(high, BoundValues(table, r.slice_end, first, context));
  }
  std::vector<KeyInterval> intervals;
  for (const std::vector<Bytes>& head : prefixes) {
    std::vector<KeyInterval> rows{KeyInterval{
        storage::RowBoundKey(table.shape, prefix, ClusteringBound{head, BoundSide::kBefore}),
        storage::RowBoundKey(table.shape, prefix, ClusteringBound{head, BoundSide::kAfter})}};
    if (low) {
      rows = Intersect(
          rows, SliceIntervals(table, prefix, head, first, *low, true, r.slice_start.inclusive));
    }
    if (high) {
      rows = Intersect(
          rows, SliceIntervals(table, prefix, head, first, *high, false, r.slice_end.inclusive));
    }
    for (KeyInterval& interval : rows) intervals.push_back(std::move(interval));
  }
  // Sorted and merged (duplicate IN values give overlaps).
  return Normalize(std::move(intervals));
}

Result<std::vector<std::vector<Bytes>>> EvaluateClusteringKeys(const TableSchema& table,
                                                               const Restrictions& r,
                                                               const EvalContext& context) {
  ASSIGN_OR_RETURN(std::vector<std::vector<Bytes>> keys, EvaluatePrefixes(table, r, context));
  for (const std::vector<Bytes>& key : keys) {
    for (const Bytes& v : key) {
      if (v.size() > 65535) {
        return Status::Invalid(
            fmt::format("Key length of {} is longer than maximum of 65535", v.size()));
      }
    }
  }
  return keys;
}

Status EvaluateTokenRange(const Restrictions& r, const EvalContext& context, Bytes* start,
                          Bytes* end, bool* empty) {
  *empty = false;
  start->clear();
  end->clear();
  std::optional<int64_t> low;
  std::optional<int64_t> high;
  bool low_inclusive = true;
  bool high_inclusive = true;
  auto eval = [&](const std::optional<SliceBound>& bound, std::optional<int64_t>* out,
                  bool* inclusive) -> Status {
    if (!bound || !bound->value) return Status::Ok();
    ASSIGN_OR_RETURN(cql::BoundValue v, bound->value->Evaluate(context));
    if (!v.is_value()) return Status::Invalid("Invalid null token value");
    ASSIGN_OR_RETURN(int64_t token, cql::DeserializeBigint(v.bytes));
    *out = token;
    *inclusive = bound->inclusive;
    return Status::Ok();
  };
  RETURN_IF_ERROR(eval(r.token_start, &low, &low_inclusive));
  RETURN_IF_ERROR(eval(r.token_end, &high, &high_inclusive));
  constexpr int64_t kMin = INT64_MIN;
  // The minimum token means "unbounded" on either side, as in Cassandra.
  if (low && *low == kMin) low.reset();
  if (high && *high == kMin) high.reset();
  if (low && high && (*low > *high || (*low == *high && (!low_inclusive || !high_inclusive)))) {
    *empty = true;
    return Status::Ok();
  }
  if (low) {
    if (low_inclusive) {
      *start = storage::EncodeToken(*low);
    } else if (*low == INT64_MAX) {
      *empty = true;
      return Status::Ok();
    } else {
      *start = storage::EncodeToken(*low + 1);
    }
  }
  if (high) {
    if (high_inclusive) {
      if (*high != INT64_MAX) *end = storage::EncodeToken(*high + 1);
    } else {
      *end = storage::EncodeToken(*high);
    }
  }
  return Status::Ok();
}

namespace {

Result<bool> Compare(const CqlType& type, std::string_view actual, Operator op,
                     std::string_view expected) {
  switch (op) {
    case Operator::kEq:
    case Operator::kNeq:
    case Operator::kLt:
    case Operator::kLte:
    case Operator::kGt:
    case Operator::kGte:
      return ComparisonHolds(op, cql::CompareValues(type, actual, expected));
    default:
      return Status::Invalid("unsupported comparison");
  }
}

}  // namespace

bool ComparisonHolds(Operator op, int cmp) {
  switch (op) {
    case Operator::kEq:
      return cmp == 0;
    case Operator::kNeq:
      return cmp != 0;
    case Operator::kLt:
      return cmp < 0;
    case Operator::kLte:
      return cmp <= 0;
    case Operator::kGt:
      return cmp > 0;
    case Operator::kGte:
      return cmp >= 0;
    default:
      return false;
  }
}

Status ValidateFilterValues(const TableSchema& table, const std::vector<Filter>& filters,
                            const EvalContext& context) {
  for (const Filter& filter : filters) {
    if (filter.kind != Filter::Kind::kColumn) continue;
    const schema::ColumnMetadata& column = table.column(filter.columns[0]);
    if (column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering) {
      continue;
    }
    auto check = [&](const ValueExpr& expr, std::string_view what) -> Status {
      ASSIGN_OR_RETURN(cql::BoundValue v, expr.Evaluate(context));
      if (v.is_null()) {
        return Status::Invalid(fmt::format("Unsupported null {} for column {}", what, column.name));
      }
      if (v.is_unset()) {
        return Status::Invalid(
            fmt::format("Unsupported unset {} for column {}", what, column.name));
      }
      return Status::Ok();
    };
    if (filter.map_key) RETURN_IF_ERROR(check(*filter.map_key, "map key"));
    for (const ValueExpr& expr : filter.values.values) {
      RETURN_IF_ERROR(check(expr, filter.map_key ? "map value" : "value"));
    }
  }
  return Status::Ok();
}

Result<bool> MatchesFilters(const TableSchema& table, const std::vector<Filter>& filters,
                            const RowData& row, const EvalContext& context) {
  for (const Filter& filter : filters) {
    if (filter.kind == Filter::Kind::kMultiColumn) {
      ASSIGN_OR_RETURN(cql::BoundValue v, filter.values.values[0].Evaluate(context));
      if (!v.is_value()) return Status::Invalid("Invalid null value in condition for columns");
      ASSIGN_OR_RETURN(std::vector<std::optional<std::string_view>> fields,
                       cql::SplitTupleOrUdt(v.bytes, filter.columns.size()));
      int c = 0;
      for (size_t i = 0; i < filter.columns.size() && c == 0; ++i) {
        const CellData& cell = row.cells[filter.columns[i]];
        if (!cell.value) return false;  // static-only row
        if (i >= fields.size() || !fields[i]) {
          return Status::Invalid("Invalid null value in condition for columns");
        }
        c = cql::CompareValues(table.column(filter.columns[i]).type, *cell.value, *fields[i]);
      }
      bool slice = filter.op == Operator::kLt || filter.op == Operator::kLte ||
                   filter.op == Operator::kGt || filter.op == Operator::kGte;
      if (!ComparisonHolds(slice ? filter.op : Operator::kEq, c)) return false;
      continue;
    }
    int index = filter.columns[0];
    const schema::ColumnMetadata& column = table.column(index);
    const CellData& cell = row.cells[index];
    const CqlType& type = column.type;
    if (filter.map_key) {
      if (!cell.value) return false;
      ASSIGN_OR_RETURN(cql::BoundValue key, filter.map_key->Evaluate(context));
      if (!key.is_value()) {
        return Status::Invalid(fmt::format("Invalid null value for map key of {}", column.name));
      }
      ASSIGN_OR_RETURN(std::vector<Bytes> expected,
                       filter.values.Evaluate(context, type.value(), column.name));
      ASSIGN_OR_RETURN(std::vector<cql::MapEntryView> entries, cql::SplitMap(*cell.value));
      bool found = false;
      for (const cql::MapEntryView& e : entries) {
        if (cql::CompareValues(type.key(), e.key, key.bytes) == 0) {
          ASSIGN_OR_RETURN(found, Compare(type.value(), e.value, filter.op, expected[0]));
          break;
        }
      }
      if (!found) return false;
      continue;
    }
    if (filter.op == Operator::kContains || filter.op == Operator::kContainsKey) {
      if (!cell.value) return false;
      bool key = filter.op == Operator::kContainsKey;
      const CqlType& element_type =
          key ? type.key() : (type.kind() == cql::TypeKind::kMap ? type.value() : type.element());
      ASSIGN_OR_RETURN(std::vector<Bytes> expected,
                       filter.values.Evaluate(context, element_type, column.name));
      std::vector<std::string_view> elements;
      if (type.kind() == cql::TypeKind::kMap) {
        ASSIGN_OR_RETURN(std::vector<cql::MapEntryView> entries, cql::SplitMap(*cell.value));
        for (const auto& e : entries) elements.push_back(key ? e.key : e.value);
      } else {
        ASSIGN_OR_RETURN(elements, cql::SplitListOrSet(type, *cell.value));
      }
      bool found = false;
      for (std::string_view e : elements) {
        if (cql::CompareValues(element_type, e, expected[0]) == 0) {
          found = true;
          break;
        }
      }
      if (!found) return false;
      continue;
    }
    if (!cell.value) return false;
    ASSIGN_OR_RETURN(std::vector<Bytes> expected,
                     filter.values.Evaluate(context, type, column.name));
    if (filter.op == Operator::kIn) {
      bool found = false;
      for (const Bytes& e : expected) {
        if (cql::CompareValues(type, *cell.value, e) == 0) {
          found = true;
          break;
        }
      }
      if (!found) return false;
      continue;
    }
    ASSIGN_OR_RETURN(bool ok, Compare(type, *cell.value, filter.op, expected[0]));
    if (!ok) return false;
  }
  return true;
}

}  // namespace engine
