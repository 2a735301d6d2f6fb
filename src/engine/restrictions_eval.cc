// Evaluation half of restrictions.h: keys, clustering intervals, token ranges, filters.

#include "engine/restrictions.h"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "cql/key_encoding.h"
#include "cql/murmur3.h"
#include "cql/statement.h"
#include "cql/value_codec.h"
#include "cql/value_compare.h"
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
  std::vector<PartitionKey> keys;
  for (std::vector<Bytes>& values : Product(lists)) {
    std::vector<std::string_view> views(values.begin(), values.end());
    if (views.size() > 1)
      RETURN_IF_ERROR(cql::ValidatePartitionKeyComponentSizes(views));
    else if (!views.empty() && views[0].size() > 65535) {
      return Status::Invalid(
          fmt::format("Key length of {} is longer than maximum of 65535", views[0].size()));
    }
    PartitionKey key;
    key.prefix = storage::PartitionPrefix(table.shape, values);
    key.values = std::move(values);
    keys.push_back(std::move(key));
  }
  std::sort(keys.begin(), keys.end(),
            [](const PartitionKey& a, const PartitionKey& b) { return a.prefix < b.prefix; });
  keys.erase(std::unique(
                 keys.begin(), keys.end(),
                 [](const PartitionKey& a, const PartitionKey& b) { return a.prefix == b.prefix; }),
             keys.end());
  return keys;
}

namespace {

// The clustering prefixes (EQ/IN) as value lists.
Result<std::vector<std::vector<Bytes>>> EvaluatePrefixes(const TableSchema& table,
                                                         const Restrictions& r,
                                                         const EvalContext& context) {
  if (r.multi_column_prefix) {
    // Single-column EQ/IN before the tuple, then the tuple's values.
    size_t width = 0;
    std::vector<std::vector<Bytes>> lists;
    size_t single = 0;
    for (size_t i = 0; i < r.clustering_prefix.size(); ++i) {
      const ValueSet& set = r.clustering_prefix[i];
      if (set.values.empty() && !set.list) break;
      const schema::ColumnMetadata& column = table.column(table.clustering[i]);
      ASSIGN_OR_RETURN(std::vector<Bytes> values, set.Evaluate(context, column.type, column.name));
      lists.push_back(std::move(values));
      ++single;
    }
    width = r.clustering_prefix.size() - single;
    std::vector<CqlType> types;
    for (size_t i = single; i < single + width; ++i) {
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
        if (!v.is_value()) {
          return Status::Invalid("Invalid null value in condition for columns");
        }
        tuples.push_back(std::move(v.bytes));
      }
    }
    std::vector<std::vector<Bytes>> result;
    for (std::vector<Bytes>& head : Product(lists)) {
      for (const Bytes& tuple : tuples) {
        ASSIGN_OR_RETURN(std::vector<std::optional<std::string_view>> fields,
                         cql::SplitTupleOrUdt(tuple, width));
        std::vector<Bytes> key = head;
        for (size_t i = 0; i < width; ++i) {
          if (i >= fields.size() || !fields[i]) {
            return Status::Invalid(fmt::format("Invalid null value in condition for column {}",
                                               table.column(table.clustering[single + i]).name));
          }
          key.emplace_back(*fields[i]);
        }
        result.push_back(std::move(key));
      }
    }
    return result;
  }
  std::vector<std::vector<Bytes>> lists;
  for (size_t i = 0; i < r.clustering_prefix.size(); ++i) {
    const schema::ColumnMetadata& column = table.column(table.clustering[i]);
    ASSIGN_OR_RETURN(std::vector<Bytes> values,
                     r.clustering_prefix[i].Evaluate(context, column.type, column.name));
    lists.push_back(std::move(values));
  }
  return Product(lists);
}

// The values of a slice bound: one value, or a tuple's components.
Result<std::optional<std::vector<Bytes>>> BoundValues(const TableSchema& table,
                                                      const Restrictions& r,
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
  if (r.slice_columns <= 1) {
    values.push_back(std::move(v.bytes));
  } else {
    ASSIGN_OR_RETURN(std::vector<std::optional<std::string_view>> fields,
                     cql::SplitTupleOrUdt(v.bytes, r.slice_columns));
    for (const auto& f : fields) {
      if (!f) return Status::Invalid("Invalid null value in condition for column");
      values.emplace_back(*f);
    }
  }
  return std::optional<std::vector<Bytes>>(std::move(values));
}

}  // namespace

Result<std::vector<KeyInterval>> EvaluateClusteringIntervals(const TableSchema& table,
                                                             const Restrictions& r,
                                                             std::string_view prefix,
                                                             const EvalContext& context) {
  using storage::BoundSide;
  using storage::ClusteringBound;
  ASSIGN_OR_RETURN(std::vector<std::vector<Bytes>> prefixes, EvaluatePrefixes(table, r, context));
  std::vector<KeyInterval> intervals;
  size_t first = r.clustering_prefix.size();
  std::optional<std::vector<Bytes>> low;
  std::optional<std::vector<Bytes>> high;
  bool same_direction = true;
  bool descending = false;
  if (r.slice_columns > 0) {
    ASSIGN_OR_RETURN(low, BoundValues(table, r, r.slice_start, first, context));
    ASSIGN_OR_RETURN(high, BoundValues(table, r, r.slice_end, first, context));
    descending = table.shape.clustering[first].descending;
    for (int i = 1; i < r.slice_columns; ++i) {
      if (table.shape.clustering[first + i].descending != descending) same_direction = false;
    }
  }
  for (const std::vector<Bytes>& values : prefixes) {
    ClusteringBound start{values, BoundSide::kBefore};
    ClusteringBound end{values, BoundSide::kAfter};
    if (r.slice_columns > 0 && same_direction) {
      auto extend = [&](const std::vector<Bytes>& bound_values) {
        std::vector<Bytes> v = values;
        v.insert(v.end(), bound_values.begin(), bound_values.end());
        return v;
      };
      // CQL's lower bound is the key-space start for ASC columns, the end for DESC ones.
      const std::optional<std::vector<Bytes>>& key_low = descending ? high : low;
      const std::optional<std::vector<Bytes>>& key_high = descending ? low : high;
      bool low_inclusive = descending ? r.slice_end.inclusive : r.slice_start.inclusive;
      bool high_inclusive = descending ? r.slice_start.inclusive : r.slice_end.inclusive;
      if (key_low) {
        start = ClusteringBound{extend(*key_low),
                                low_inclusive ? BoundSide::kBefore : BoundSide::kAfter};
      }
      if (key_high) {
        end = ClusteringBound{extend(*key_high),
                              high_inclusive ? BoundSide::kAfter : BoundSide::kBefore};
      }
    }
    KeyInterval interval{storage::RowBoundKey(table.shape, prefix, start),
                         storage::RowBoundKey(table.shape, prefix, end)};
    if (interval.start < interval.end) intervals.push_back(std::move(interval));
  }
  std::sort(intervals.begin(), intervals.end(),
            [](const KeyInterval& a, const KeyInterval& b) { return a.start < b.start; });
  // Merge overlaps (duplicate IN values).
  std::vector<KeyInterval> merged;
  for (KeyInterval& interval : intervals) {
    if (!merged.empty() && interval.start <= merged.back().end) {
      if (interval.end > merged.back().end) merged.back().end = std::move(interval.end);
      continue;
    }
    merged.push_back(std::move(interval));
  }
  return merged;
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
      *start = cql::EncodeToken(*low);
    } else if (*low == INT64_MAX) {
      *empty = true;
      return Status::Ok();
    } else {
      *start = cql::EncodeToken(*low + 1);
    }
  }
  if (high) {
    if (high_inclusive) {
      if (*high != INT64_MAX) *end = cql::EncodeToken(*high + 1);
    } else {
      *end = cql::EncodeToken(*high);
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
