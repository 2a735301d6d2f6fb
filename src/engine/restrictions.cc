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
#include "engine/index_schema.h"
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

constexpr std::string_view kFilteringMessage =
    "Cannot execute this query as it might involve data filtering and thus may have "
    "unpredictable performance. If you want to execute this query despite the performance "
    "unpredictability, use ALLOW FILTERING";

bool IsSlice(Operator op) {
  return op == Operator::kLt || op == Operator::kLte || op == Operator::kGt || op == Operator::kGte;
}

std::string QualifiedTableName(const TableSchema& table) {
  return fmt::format("{}.{}", table.table->keyspace, table.table->name);
}

Status UnsupportedRelation(const Relation& relation) {
  return Status::Invalid(fmt::format("Unsupported \"{}\" relation: {}",
                                     cql::OperatorToCql(relation.op), cql::ToCql(relation)));
}

Status UndefinedColumn(const TableSchema& table, std::string_view name) {
  return Status::Invalid(fmt::format("Undefined column name {} in table {}",
                                     cql::QuoteIdentifierIfNeeded(name),
                                     QualifiedTableName(table)));
}

// The restrictions found on one column, before classification.
struct ColumnRestrictions {
  std::optional<ValueSet> eq_or_in;  // EQ or IN
  bool is_in = false;
  std::optional<SliceBound> start;      // > / >=
  std::optional<SliceBound> end;        // < / <=
  std::vector<const Relation*> others;  // CONTAINS, CONTAINS KEY, m[k] =, ...
  bool any() const { return eq_or_in || start || end || !others.empty(); }
};

Result<ValueSet> PrepareValueSet(const Relation& relation, const CqlType& type,
                                 std::string_view receiver, BindCollector* binds) {
  ValueSet set;
  if (relation.op == Operator::kIn) {
    if (relation.in_list) {
      for (const cql::Term& term : relation.in_values) {
        ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(term, type, receiver, binds));
        set.values.push_back(std::move(v));
      }
    } else {
      std::string in_receiver = fmt::format("in({})", receiver);
      ASSIGN_OR_RETURN(ValueExpr v,
                       ValueExpr::Prepare(relation.value, CqlType::List(type), in_receiver, binds));
      set.list = std::move(v);
    }
    return set;
  }
  ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(relation.value, type, receiver, binds));
  set.values.push_back(std::move(v));
  return set;
}

Status AddSlice(ColumnRestrictions* r, const Relation& relation, ValueExpr value,
                std::string_view column) {
  bool is_start = relation.op == Operator::kGt || relation.op == Operator::kGte;
  bool inclusive = relation.op == Operator::kGte || relation.op == Operator::kLte;
  std::optional<SliceBound>& bound = is_start ? r->start : r->end;
  if (r->eq_or_in) {
    return Status::Invalid(
        fmt::format("Column \"{}\" cannot be restricted by both an equality and an inequality "
                    "relation",
                    column));
  }
  if (bound) {
    return Status::Invalid(fmt::format("More than one restriction was found for the {} bound on {}",
                                       is_start ? "start" : "end", column));
  }
  bound = SliceBound{std::move(value), inclusive};
  return Status::Ok();
}

Status AddEquality(ColumnRestrictions* r, const Relation& relation, ValueSet values,
                   std::string_view column) {
  if (r->eq_or_in) {
    if (relation.op == Operator::kIn || r->is_in) {
      return Status::Invalid(fmt::format(
          "{} cannot be restricted by more than one relation if it includes a IN", column));
    }
    return Status::Invalid(fmt::format(
        "{} cannot be restricted by more than one relation if it includes an Equal", column));
  }
  if (r->start || r->end) {
    return Status::Invalid(fmt::format(
        "Column \"{}\" cannot be restricted by both an equality and an inequality relation",
        column));
  }
  r->eq_or_in = std::move(values);
  r->is_in = relation.op == Operator::kIn;
  return Status::Ok();
}

// A restriction a secondary index can serve (Cassandra's "supporting index").
struct IndexCandidate {
  int column = -1;
  const Relation* relation = nullptr;
  const schema::IndexMetadata* index = nullptr;
};

// The single-column restrictions of `where` that an index of the table supports, in WHERE
// order.
std::vector<IndexCandidate> FindIndexCandidates(const TableSchema& table,
                                                const std::vector<Relation>& where) {
  std::vector<IndexCandidate> candidates;
  if (table.table->indexes.empty()) return candidates;
  for (const Relation& relation : where) {
    if (relation.kind != Relation::Kind::kColumn) continue;
    int column = table.IndexOfColumn(relation.columns[0]);
    if (column < 0) continue;
    for (const auto& [name, index] : table.table->indexes) {
      if (IndexSupports(index, table.column(column), relation.op, relation.map_key.has_value())) {
        candidates.push_back(IndexCandidate{column, &relation, &index});
        break;
      }
    }
  }
  return candidates;
}

// The filter of `filters` that checks `candidate`'s relation, or -1.
int FindCandidateFilter(const std::vector<Filter>& filters, const IndexCandidate& candidate) {
  for (size_t i = 0; i < filters.size(); ++i) {
    const Filter& f = filters[i];
    if (f.kind != Filter::Kind::kColumn || f.columns[0] != candidate.column) continue;
    if (f.op == candidate.relation->op &&
        f.map_key.has_value() == candidate.relation->map_key.has_value()) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

// Picks the first candidate whose relation became a filter (one served by the clustering
// prefix gets a filter too: the index needs its value) and records it in `out->index`. Leaves
// `out->index` unset when no candidate is usable.
void ChooseIndex(const TableSchema& table, const std::vector<IndexCandidate>& candidates,
                 Restrictions* out) {
  for (const IndexCandidate& candidate : candidates) {
    int filter = FindCandidateFilter(out->filters, candidate);
    if (filter < 0) {
      const schema::ColumnMetadata& column = table.column(candidate.column);
      size_t position = static_cast<size_t>(column.position);
      if (column.kind != ColumnKind::kClustering || out->multi_column_prefix ||
          position >= out->clustering_prefix.size() || candidate.relation->op != Operator::kEq) {
        continue;
      }
      Filter copy;
      copy.columns = {candidate.column};
      copy.op = Operator::kEq;
      copy.values = out->clustering_prefix[position];
      out->filters.push_back(std::move(copy));
      filter = static_cast<int>(out->filters.size()) - 1;
    }
    out->index = IndexQuery{candidate.index, static_cast<size_t>(filter)};
    return;
  }
}

}  // namespace

Result<std::vector<Bytes>> ValueSet::Evaluate(const EvalContext& context, const CqlType& type,
                                              std::string_view column) const {
  std::vector<Bytes> result;
  if (list) {
    ASSIGN_OR_RETURN(cql::BoundValue v, list->Evaluate(context));
    if (v.is_null()) return Status::Invalid("Invalid null value for IN restriction");
    if (v.is_unset()) {
      return Status::Invalid(fmt::format("Invalid unset value for column {}", column));
    }
    ASSIGN_OR_RETURN(std::vector<std::string_view> elements,
                     cql::SplitListOrSet(CqlType::List(type), v.bytes));
    for (std::string_view e : elements) result.emplace_back(e);
  } else {
    for (const ValueExpr& expr : values) {
      ASSIGN_OR_RETURN(cql::BoundValue v, expr.Evaluate(context));
      if (v.is_null()) {
        return Status::Invalid(
            fmt::format("Invalid null value in condition for column {}", column));
      }
      if (v.is_unset()) {
        return Status::Invalid(fmt::format("Invalid unset value for column {}", column));
      }
      result.push_back(std::move(v.bytes));
    }
  }
  if (result.size() > 1) {
    std::sort(result.begin(), result.end(),
              [&](const Bytes& a, const Bytes& b) { return cql::CompareValues(type, a, b) < 0; });
    result.erase(std::unique(result.begin(), result.end(),
                             [&](const Bytes& a, const Bytes& b) {
                               return cql::CompareValues(type, a, b) == 0;
                             }),
                 result.end());
  }
  return result;
}

Result<Restrictions> PrepareRestrictions(const TableSchema& table,
                                         const std::vector<Relation>& where, StatementKind kind,
                                         bool allow_filtering, BindCollector* binds) {
  Restrictions out;
  const auto& columns = table.table->columns;
  std::map<int, ColumnRestrictions> by_column;
  // Multi-column relations on clustering columns.
  const Relation* multi = nullptr;
  std::vector<int> multi_columns;
  const Relation* multi_slice_start = nullptr;
  const Relation* multi_slice_end = nullptr;

  for (const Relation& relation : where) {
    switch (relation.kind) {
      case Relation::Kind::kCustomIndex:
        return Status::Invalid("Custom index expressions are not supported");
      case Relation::Kind::kToken: {
        if (kind != StatementKind::kSelect) {
          return Status::Invalid(
              fmt::format("The token function cannot be used in WHERE clauses for {} statements",
                          kind == StatementKind::kUpdate ? "UPDATE" : "DELETE"));
        }
        std::vector<std::string> pk_names;
        for (int index : table.partition_key) pk_names.push_back(columns[index].name);
        for (const std::string& name : relation.columns) {
          if (table.IndexOfColumn(name) < 0) return UndefinedColumn(table, name);
        }
        if (relation.columns != pk_names) {
          std::vector<std::string> quoted;
          for (const std::string& n : pk_names) quoted.push_back(cql::QuoteIdentifierIfNeeded(n));
          if (relation.columns.size() != pk_names.size()) {
            return Status::Invalid(
                "The token() function must be applied to all partition key components or none "
                "of them");
          }
          return Status::Invalid(
              fmt::format("The token function arguments must be in the partition key order: {}",
                          fmt::join(quoted, ", ")));
        }
        ASSIGN_OR_RETURN(ValueExpr value, ValueExpr::Prepare(relation.value, CqlType::Bigint(),
                                                             "partition key token", binds));
        out.has_token_restriction = true;
        if (relation.op == Operator::kEq) {
          if (out.token_start || out.token_end) {
            return Status::Invalid(
                "Columns \"token\" cannot be restricted by both an equality and an inequality "
                "relation");
          }
          out.token_start = SliceBound{value, true};
          out.token_end = SliceBound{std::move(value), true};
        } else if (relation.op == Operator::kGt || relation.op == Operator::kGte) {
          if (out.token_start) {
            return Status::Invalid(
                "More than one restriction was found for the start bound on token");
          }
          out.token_start = SliceBound{std::move(value), relation.op == Operator::kGte};
        } else if (relation.op == Operator::kLt || relation.op == Operator::kLte) {
          if (out.token_end) {
            return Status::Invalid(
                "More than one restriction was found for the end bound on token");
          }
          out.token_end = SliceBound{std::move(value), relation.op == Operator::kLte};
        } else {
          return UnsupportedRelation(relation);
        }
        break;
      }
      case Relation::Kind::kMultiColumn: {
        std::vector<int> indexes;
        for (const std::string& name : relation.columns) {
          int index = table.IndexOfColumn(name);
          if (index < 0) return UndefinedColumn(table, name);
          if (columns[index].kind != ColumnKind::kClustering) {
            return Status::Invalid(fmt::format(
                "Multi-column relations can only be applied to clustering columns but was "
                "applied to: {}",
                cql::QuoteIdentifierIfNeeded(name)));
          }
          indexes.push_back(index);
        }
        for (size_t i = 1; i < indexes.size(); ++i) {
          if (columns[indexes[i]].position != columns[indexes[i - 1]].position + 1) {
            return Status::Invalid(fmt::format(
                "Clustering columns must appear in the PRIMARY KEY order in multi-column "
                "relations: {}",
                cql::ToCql(relation)));
          }
        }
        if (relation.op == Operator::kEq || relation.op == Operator::kIn) {
          if (multi != nullptr || multi_slice_start != nullptr || multi_slice_end != nullptr) {
            return Status::Invalid(fmt::format(
                "{} cannot be restricted by more than one relation if it includes an Equal",
                cql::QuoteIdentifierIfNeeded(relation.columns[0])));
          }
          multi = &relation;
          multi_columns = indexes;
        } else if (IsSlice(relation.op)) {
          bool is_start = relation.op == Operator::kGt || relation.op == Operator::kGte;
          const Relation*& slot = is_start ? multi_slice_start : multi_slice_end;
          if (slot != nullptr) {
            return Status::Invalid(fmt::format(
                "More than one restriction was found for the {} bound on {}",
                is_start ? "start" : "end", cql::QuoteIdentifierIfNeeded(relation.columns[0])));
          }
          slot = &relation;
          if (multi_columns.empty() || multi == nullptr) multi_columns = indexes;
        } else {
          return UnsupportedRelation(relation);
        }
        break;
      }
      case Relation::Kind::kColumn: {
        const std::string& name = relation.columns[0];
        int index = table.IndexOfColumn(name);
        if (index < 0) return UndefinedColumn(table, name);
        const schema::ColumnMetadata& column = columns[index];
        std::string quoted = cql::QuoteIdentifierIfNeeded(name);
        ColumnRestrictions& r = by_column[index];
        if (relation.op == Operator::kNeq) {
          return Status::Invalid(
              fmt::format("Unsupported \"!=\" relation: {}", cql::ToCql(relation)));
        }
        if (relation.op == Operator::kIsNot) {
          return Status::Invalid(fmt::format("Unsupported restriction: {}", cql::ToCql(relation)));
        }
        if (relation.op == Operator::kLike) {
          return Status::Invalid(fmt::format(
              "LIKE restriction is only supported on properly indexed columns. {} is not valid.",
              cql::ToCql(relation)));
        }
        if (relation.map_key || relation.op == Operator::kContains ||
            relation.op == Operator::kContainsKey) {
          if (relation.op == Operator::kContainsKey && column.type.kind() != cql::TypeKind::kMap) {
            return Status::Invalid(
                fmt::format("Cannot use CONTAINS KEY on non-map column {}", quoted));
          }
          if (relation.op == Operator::kContains && !column.type.IsCollection()) {
            return Status::Invalid(
                fmt::format("Cannot use CONTAINS on non-collection column {}", quoted));
          }
          if (relation.map_key && column.type.kind() != cql::TypeKind::kMap) {
            return Status::Invalid(fmt::format("Column {} cannot be used as a map", quoted));
          }
          r.others.push_back(&relation);
          break;
        }
        if (column.type.IsMultiCell() && column.type.IsCollection()) {
          return Status::Invalid(
              fmt::format("Collection column '{}' ({}) cannot be restricted by a '{}' relation",
                          name, column.type.ToCql(), cql::OperatorToCql(relation.op)));
        }
        if (IsSlice(relation.op)) {
          ASSIGN_OR_RETURN(ValueExpr v,
                           ValueExpr::Prepare(relation.value, column.type, name, binds));
          RETURN_IF_ERROR(AddSlice(&r, relation, std::move(v), quoted));
        } else {
          ASSIGN_OR_RETURN(ValueSet values, PrepareValueSet(relation, column.type, name, binds));
          RETURN_IF_ERROR(AddEquality(&r, relation, std::move(values), quoted));
        }
        break;
      }
    }
  }

  // --- Secondary indexes (Cassandra 4.x StatementRestrictions) ---
  // Restrictions an index supports ("hasQueriableIndex"), and what needFiltering() counts: the
  // restricted columns of each kind, and whether one collection has several CONTAINS-like
  // restrictions.
  std::vector<IndexCandidate> candidates;
  if (kind == StatementKind::kSelect) candidates = FindIndexCandidates(table, where);
  const bool has_index = !candidates.empty();
  bool has_clustering_index = false;
  for (const IndexCandidate& c : candidates) {
    if (columns[c.column].kind == ColumnKind::kClustering) has_clustering_index = true;
  }
  size_t pk_restricted = 0;
  size_t ck_restricted = multi_columns.size();
  size_t other_restricted = 0;
  bool multiple_contains = false;
  for (const auto& [index, r] : by_column) {
    if (!r.any()) continue;
    switch (columns[index].kind) {
      case ColumnKind::kPartitionKey:
        ++pk_restricted;
        break;
      case ColumnKind::kClustering:
        ++ck_restricted;
        break;
      default:
        ++other_restricted;
        multiple_contains = multiple_contains || r.others.size() > 1;
        break;
    }
  }

  // --- Partition key ---
  bool all_pk_eq = true;
  bool any_pk = false;
  for (int index : table.partition_key) {
    auto it = by_column.find(index);
    bool has = it != by_column.end() && it->second.any();
    any_pk = any_pk || has;
    if (!has || !it->second.eq_or_in || !it->second.others.empty()) all_pk_eq = false;
  }
  bool pk_filtering = false;
  if (out.has_token_restriction && any_pk) {
    if (kind == StatementKind::kSelect && !allow_filtering) {
      return Status::Invalid(std::string(kFilteringMessage));
    }
    pk_filtering = true;
  } else if (all_pk_eq && !table.partition_key.empty()) {
    for (int index : table.partition_key) {
      ColumnRestrictions& r = by_column[index];
      out.has_pk_in = out.has_pk_in || r.is_in;
      out.partition_values.push_back(std::move(*r.eq_or_in));
      by_column.erase(index);
    }
  } else if (kind != StatementKind::kSelect) {
    std::vector<std::string> missing;
    for (int index : table.partition_key) {
      auto it = by_column.find(index);
      if (it == by_column.end() || !it->second.eq_or_in) {
        missing.push_back(cql::QuoteIdentifierIfNeeded(columns[index].name));
      }
    }
    for (int index : table.partition_key) {
      auto it = by_column.find(index);
      if (it != by_column.end() && (it->second.start || it->second.end)) {
        return Status::Invalid(
            "Only EQ and IN relation are supported on the partition key (unless you use the "
            "token() function)");
      }
    }
    return Status::Invalid(
        fmt::format("Some partition key parts are missing: {}", fmt::join(missing, ", ")));
  } else if (any_pk) {
    if (!allow_filtering && !has_index) {
      for (int index : table.partition_key) {
        auto it = by_column.find(index);
        if (it != by_column.end() && (it->second.start || it->second.end)) {
          return Status::Invalid(
              "Only EQ and IN relation are supported on the partition key (unless you use the "
              "token() function)");
        }
      }
      std::vector<std::string> missing;
      for (int index : table.partition_key) {
        if (!by_column.contains(index)) {
          missing.push_back(cql::QuoteIdentifierIfNeeded(columns[index].name));
        }
      }
      if (!missing.empty()) {
        return Status::Invalid(
            fmt::format("Partition key parts: {} must be restricted as other parts are",
                        fmt::join(missing, ", ")));
      }
      return Status::Invalid(std::string(kFilteringMessage));
    }
    pk_filtering = true;
  }
  bool partition_restricted = out.is_single_partitions();

  // --- Clustering columns ---
  bool clustering_needs_filtering = false;
  if (multi != nullptr || multi_slice_start != nullptr || multi_slice_end != nullptr) {
    for (int index : multi_columns) {
      if (by_column.contains(index)) {
        return Status::Invalid(fmt::format(
            "Column \"{}\" cannot be restricted by both a single-column and a multi-column "
            "relation",
            columns[index].name));
      }
    }
    if (columns[multi_columns[0]].position != 0 && !by_column.contains(table.clustering[0])) {
      if (kind != StatementKind::kSelect || !allow_filtering) {
        return Status::Invalid(fmt::format(
            "PRIMARY KEY column \"{}\" cannot be restricted as preceding column \"{}\" is not "
            "restricted",
            columns[multi_columns[0]].name, columns[table.clustering[0]].name));
      }
    }
  }
  size_t position = 0;
  std::string stop_column;
  bool stop_was_slice = false;
  while (position < table.clustering.size()) {
    int index = table.clustering[position];
    if (multi != nullptr && index == multi_columns[0]) {
      // (a, b) = (..) or IN: a prefix of several columns at once.
      out.restricts_clustering = true;
      out.multi_column_prefix = true;
      CqlType tuple_type;
      {
        std::vector<CqlType> types;
        for (int i : multi_columns) types.push_back(columns[i].type);
        tuple_type = CqlType::Tuple(types);
      }
      std::string receiver = "(";
      for (size_t i = 0; i < multi_columns.size(); ++i) {
        if (i > 0) receiver += ",";
        receiver += columns[multi_columns[i]].name;
      }
      receiver += ")";
      if (multi->op == Operator::kIn) {
        out.has_clustering_in = true;
        if (multi->in_list) {
          for (const cql::Term& term : multi->in_values) {
            ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(term, tuple_type, receiver, binds));
            out.multi_column_in.push_back(std::move(v));
          }
        } else {
          ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(multi->value, CqlType::List(tuple_type),
                                                           "in" + receiver, binds));
          out.multi_column_in_list = std::move(v);
        }
      } else {
        ASSIGN_OR_RETURN(ValueExpr v,
                         ValueExpr::Prepare(multi->value, tuple_type, receiver, binds));
        out.multi_column_in.push_back(std::move(v));
      }
      // Each multi-column tuple stands for multi_columns.size() prefix columns.
      for (size_t i = 0; i < multi_columns.size(); ++i) out.clustering_prefix.emplace_back();
      position += multi_columns.size();
      // The tuple ends the usable prefix (later columns are filtered or refused below).
      stop_column = columns[index].name;
      break;
    }
    if ((multi_slice_start != nullptr || multi_slice_end != nullptr) && multi == nullptr &&
        index == multi_columns[0]) {
      out.restricts_clustering = true;
      std::vector<CqlType> types;
      for (int i : multi_columns) types.push_back(columns[i].type);
      CqlType tuple_type = CqlType::Tuple(types);
      out.slice_columns = static_cast<int>(multi_columns.size());
      if (multi_slice_start != nullptr) {
        ASSIGN_OR_RETURN(ValueExpr v,
                         ValueExpr::Prepare(multi_slice_start->value, tuple_type, "tuple", binds));
        out.slice_start = SliceBound{std::move(v), multi_slice_start->op == Operator::kGte};
      }
      if (multi_slice_end != nullptr) {
        ASSIGN_OR_RETURN(ValueExpr v,
                         ValueExpr::Prepare(multi_slice_end->value, tuple_type, "tuple", binds));
        out.slice_end = SliceBound{std::move(v), multi_slice_end->op == Operator::kLte};
      }
      position += multi_columns.size();
      stop_was_slice = true;
      stop_column = columns[index].name;
      break;
    }
    auto it = by_column.find(index);
    if (it == by_column.end() || !it->second.any()) {
      stop_column = columns[index].name;
      break;
    }
    ColumnRestrictions& r = it->second;
    if (!r.others.empty()) {
      // CONTAINS on a clustering column: a filter, and the prefix ends here.
      stop_column = columns[index].name;
      break;
    }
    out.restricts_clustering = true;
    if (r.eq_or_in) {
      out.has_clustering_in = out.has_clustering_in || r.is_in;
      out.clustering_prefix.push_back(std::move(*r.eq_or_in));
      by_column.erase(it);
      ++position;
      continue;
    }
    // A slice on this column ends the prefix.
    out.slice_columns = 1;
    if (r.start) out.slice_start = std::move(*r.start);
    if (r.end) out.slice_end = std::move(*r.end);
    by_column.erase(it);
    ++position;
    stop_was_slice = true;
    stop_column = columns[index].name;
    break;
  }
  // Restrictions on clustering columns after the usable prefix.
  for (size_t p = position; p < table.clustering.size(); ++p) {
    int index = table.clustering[p];
    auto it = by_column.find(index);
    if (it == by_column.end() || !it->second.any()) continue;
    if (kind == StatementKind::kSelect && allow_filtering) {
      clustering_needs_filtering = true;
      continue;
    }
    if (kind == StatementKind::kSelect && has_index) {
      // Cassandra checks a restriction after a slice when it is added, unless its own column
      // has a supporting index; a gap before it is fine once any index is queriable.
      bool self_indexed = std::any_of(candidates.begin(), candidates.end(),
                                      [&](const IndexCandidate& c) { return c.column == index; });
      if (stop_was_slice && !self_indexed) {
        return Status::Invalid(
            fmt::format("Clustering column \"{}\" cannot be restricted (preceding column \"{}\" is "
                        "restricted by a non-EQ relation)",
                        columns[index].name, stop_column));
      }
      clustering_needs_filtering = true;
      continue;
    }
    if (stop_was_slice) {
      return Status::Invalid(fmt::format(
          "Clustering column \"{}\" cannot be restricted (preceding column \"{}\" is restricted "
          "by a non-EQ relation)",
          columns[index].name, stop_column));
    }
    if (!it->second.others.empty() && columns[index].name == stop_column) {
      if (kind == StatementKind::kSelect) {
        return Status::Invalid(std::string(kFilteringMessage));
      }
      return Status::Invalid(
          fmt::format("Invalid restrictions on clustering column {}", columns[index].name));
    }
    return Status::Invalid(fmt::format(
        "PRIMARY KEY column \"{}\" cannot be restricted as preceding column \"{}\" is not "
        "restricted",
        columns[index].name, stop_column));
  }

  // --- Everything else becomes a filter ---
  for (auto& [index, r] : by_column) {
    const schema::ColumnMetadata& column = columns[index];
    bool is_key =
        column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering;
    if (kind != StatementKind::kSelect && !is_key) {
      return Status::Invalid(fmt::format("Non PRIMARY KEY columns found in where clause: {}",
                                         cql::QuoteIdentifierIfNeeded(column.name)));
    }
    if (kind != StatementKind::kSelect) {
      return Status::Invalid(
          fmt::format("Invalid restrictions on clustering column {}", column.name));
    }
    // `index` by init-capture: clang before 16 cannot capture a structured binding.
    auto add = [&, column_index = index](Operator op, ValueSet values,
                                         const std::optional<ValueExpr>& map_key) {
      Filter filter;
      filter.columns = {column_index};
      filter.op = op;
      filter.values = std::move(values);
      filter.map_key = map_key;
      out.filters.push_back(std::move(filter));
    };
    if (r.eq_or_in) add(r.is_in ? Operator::kIn : Operator::kEq, std::move(*r.eq_or_in), {});
    if (r.start) {
      ValueSet v;
      v.values.push_back(std::move(*r.start->value));
      add(r.start->inclusive ? Operator::kGte : Operator::kGt, std::move(v), {});
    }
    if (r.end) {
      ValueSet v;
      v.values.push_back(std::move(*r.end->value));
      add(r.end->inclusive ? Operator::kLte : Operator::kLt, std::move(v), {});
    }
    for (const Relation* relation : r.others) {
      const CqlType& type = column.type;
      std::optional<ValueExpr> map_key;
      CqlType value_type = type;
      std::string receiver = column.name;
      if (relation->map_key) {
        ASSIGN_OR_RETURN(ValueExpr k,
                         ValueExpr::Prepare(*relation->map_key, type.key(),
                                            fmt::format("key({})", column.name), binds));
        map_key = std::move(k);
        value_type = type.value();
        receiver = fmt::format("value({})", column.name);
      } else if (relation->op == Operator::kContainsKey) {
        value_type = type.key();
        receiver = fmt::format("key({})", column.name);
      } else if (relation->op == Operator::kContains) {
        value_type = type.kind() == cql::TypeKind::kMap ? type.value() : type.element();
        receiver = fmt::format("value({})", column.name);
      }
      ASSIGN_OR_RETURN(ValueSet values, PrepareValueSet(*relation, value_type, receiver, binds));
      add(relation->op, std::move(values), map_key);
    }
  }
  if (multi_slice_start != nullptr || multi_slice_end != nullptr) {
    // Also check multi-column slices row by row: exact for mixed ASC/DESC columns.
    auto add_tuple_filter = [&](const Relation* relation) -> Status {
      if (relation == nullptr) return Status::Ok();
      std::vector<CqlType> types;
      for (int i : multi_columns) types.push_back(columns[i].type);
      Filter filter;
      filter.kind = Filter::Kind::kMultiColumn;
      filter.columns = multi_columns;
      filter.op = relation->op;
      ASSIGN_OR_RETURN(ValueExpr v,
                       ValueExpr::Prepare(relation->value, CqlType::Tuple(types), "tuple", binds));
      filter.values.values.push_back(std::move(v));
      out.filters.push_back(std::move(filter));
      return Status::Ok();
    };
    RETURN_IF_ERROR(add_tuple_filter(multi_slice_start));
    RETURN_IF_ERROR(add_tuple_filter(multi_slice_end));
  }

  if (kind == StatementKind::kSelect && has_index) {
    // Cassandra's usesSecondaryIndexing, decided in its order: an unrestricted or filtered
    // partition key, clustering restrictions beyond the prefix, a clustering index on a range
    // query, or any restriction on other columns; then needFiltering() counts the restrictions
    // handed to the index query.
    const bool key_range = !partition_restricted;
    const bool pk_unrestricted = !any_pk && !out.has_token_restriction;
    bool uses_index = pk_unrestricted || pk_filtering;
    size_t count = uses_index || pk_filtering ? pk_restricted : 0;
    if (clustering_needs_filtering || (key_range && has_clustering_index)) uses_index = true;
    if (uses_index || clustering_needs_filtering) count += ck_restricted;
    if (other_restricted > 0) {
      uses_index = true;
      count += other_restricted;
    }
    if (uses_index) {
      ChooseIndex(table, candidates, &out);
      if (out.index) {
        if (out.has_pk_in) {
          return Status::Invalid(
              "Select on indexed columns and with IN clause for the PRIMARY KEY are not "
              "supported");
        }
        bool needs =
            count > 1 || (count == 0 && ck_restricted > 0) || (count != 0 && multiple_contains);
        if (needs && !allow_filtering) return Status::Invalid(std::string(kFilteringMessage));
        out.needs_filtering = true;
        return out;
      }
    }
  }

  bool has_real_filters = false;
  for (const Filter& f : out.filters) {
    if (f.kind == Filter::Kind::kColumn) has_real_filters = true;
  }
  if (kind == StatementKind::kSelect) {
    bool needs = has_real_filters || pk_filtering || clustering_needs_filtering;
    if (!partition_restricted && !out.has_token_restriction && out.restricts_clustering) {
      needs = true;
    }
    if (needs && !allow_filtering) return Status::Invalid(std::string(kFilteringMessage));
    out.needs_filtering = needs;
  }
  return out;
}

std::vector<uint16_t> PartitionKeyBindIndexes(const Restrictions& restrictions) {
  std::vector<uint16_t> indexes;
  for (const ValueSet& set : restrictions.partition_values) {
    if (set.values.size() != 1 || set.values[0].kind() != ValueExpr::Kind::kMarker) return {};
    indexes.push_back(static_cast<uint16_t>(set.values[0].marker_index()));
  }
  return indexes;
}

}  // namespace engine
