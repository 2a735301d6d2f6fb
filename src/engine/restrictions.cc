#include "engine/restrictions.h"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "cql/parser/statement.h"
#include "cql/types/murmur3.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_compare.h"
#include "engine/index_schema.h"
#include "engine/restriction_kinds.h"
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

constexpr std::string_view kFilteringMessage =
    "Cannot execute this query as it might involve data filtering and thus may have "
    "unpredictable performance. If you want to execute this query despite the performance "
    "unpredictability, use ALLOW FILTERING";

std::string QualifiedTableName(const TableSchema& table) {
  return fmt::format("{}.{}", table.table->keyspace, table.table->name);
}

Status UndefinedColumn(const TableSchema& table, std::string_view name) {
  return Status::Invalid(fmt::format("Undefined column name {} in table {}",
                                     cql::QuoteIdentifierIfNeeded(name),
                                     QualifiedTableName(table)));
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
    if (v.is_null()) {
      return Status::Invalid(fmt::format("Invalid null value for column {}", column));
    }
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

namespace {

// PrepareRestrictions in named steps, in the order of Cassandra's StatementRestrictions:
//   1. Collect: each relation into its typed restriction (restriction_kinds.h), merged per
//      column, per clustering tuple, or into the token restriction; each type refuses what it
//      cannot hold. Single-column slices then merge with a tuple slice on the same column.
//   2. CountIndexRestrictions: what a secondary index could serve, and what needFiltering()
//      counts.
//   3. BindPartitionKey: EQ/IN on every column, a token range, or a scan needing filtering.
//   4. BindClustering: the EQ/IN prefix (single columns or a tuple), then at most one slice;
//      CheckClusteringTail refuses or filters what follows.
//   5. BindFilters: every other restriction becomes a row filter.
//   6. Finish: the secondary index, if any, and whether ALLOW FILTERING is required.
class RestrictionsBuilder {
 public:
  RestrictionsBuilder(const TableSchema& table, StatementKind kind, bool allow_filtering,
                      BindCollector* binds)
      : table_(table), kind_(kind), allow_filtering_(allow_filtering), binds_(binds) {}

  Result<Restrictions> Build(const std::vector<Relation>& where) {
    RETURN_IF_ERROR(Collect(where));
    CountIndexRestrictions(where);
    RETURN_IF_ERROR(BindPartitionKey());
    RETURN_IF_ERROR(BindClustering());
    RETURN_IF_ERROR(BindFilters());
    RETURN_IF_ERROR(Finish());
    return std::move(out_);
  }

 private:
  bool is_select() const { return kind_ == StatementKind::kSelect; }
  const schema::ColumnMetadata& column(int index) const { return table_.column(index); }
  // The multi-column restriction on `index`'s column not used by the clustering prefix or
  // slice, if any.
  const TupleRestriction* UnboundTuple(int index) const {
    for (size_t i = 0; i < tuples_.size(); ++i) {
      std::vector<int> columns = tuples_[i].columns();
      if (!tuple_bound_[i] && std::find(columns.begin(), columns.end(), index) != columns.end()) {
        return &tuples_[i];
      }
    }
    return nullptr;
  }

  Status Collect(const std::vector<Relation>& where);
  Status CollectToken(const Relation& relation);
  Status CollectTuple(const Relation& relation);
  Status CheckTupleOverlap(const TupleRestriction& tuple);
  void CountIndexRestrictions(const std::vector<Relation>& where);
  Status BindPartitionKey();
  Status RefusePartitionKey();
  Status BindClustering();
  Result<bool> BindTuple(const TupleRestriction& tuple, size_t* position);
  Status BindTupleSliceBound(const std::optional<TupleBound>& bound, SliceBound* out);
  Status CheckClusteringTail(size_t position, const std::string& stop_column, bool stop_was_slice);
  Status BindFilters();
  Status AddColumnFilters(int index, ColumnRestriction& r);
  Status AddTupleFilter(const TupleRestriction& tuple);
  Status Finish();

  const TableSchema& table_;
  StatementKind kind_;
  bool allow_filtering_;
  BindCollector* binds_;
  Restrictions out_;

  std::map<int, ColumnRestriction> by_column_;
  // Multi-column restrictions, one per set of overlapping columns.
  std::vector<TupleRestriction> tuples_;
  std::vector<bool> tuple_bound_;  // per tuple: it serves the clustering prefix or slice
  std::optional<TokenRestriction> token_;

  std::vector<IndexCandidate> candidates_;
  bool has_index_ = false;
  bool has_clustering_index_ = false;
  size_t pk_restricted_ = 0;
  size_t ck_restricted_ = 0;
  size_t other_restricted_ = 0;
  bool multiple_contains_ = false;
  bool any_pk_ = false;
  bool pk_filtering_ = false;
  bool clustering_needs_filtering_ = false;
};

Status RestrictionsBuilder::Collect(const std::vector<Relation>& where) {
  for (const Relation& relation : where) {
    switch (relation.kind) {
      case Relation::Kind::kCustomIndex:
        return Status::Invalid("Custom index expressions are not supported");
      case Relation::Kind::kToken:
        RETURN_IF_ERROR(CollectToken(relation));
        break;
      case Relation::Kind::kMultiColumn:
        RETURN_IF_ERROR(CollectTuple(relation));
        break;
      case Relation::Kind::kColumn: {
        int index = table_.IndexOfColumn(relation.columns[0]);
        if (index < 0) return UndefinedColumn(table_, relation.columns[0]);
        RETURN_IF_ERROR(by_column_[index].Add(relation, column(index), binds_));
        break;
      }
    }
  }
  for (const TupleRestriction& tuple : tuples_) RETURN_IF_ERROR(CheckTupleOverlap(tuple));
  tuple_bound_.assign(tuples_.size(), false);
  return Status::Ok();
}

Status RestrictionsBuilder::CollectToken(const Relation& relation) {
  if (!is_select()) {
    return Status::Invalid(
        fmt::format("The token function cannot be used in WHERE clauses for {} statements",
                    kind_ == StatementKind::kUpdate ? "UPDATE" : "DELETE"));
  }
  for (const std::string& name : relation.columns) {
    if (table_.IndexOfColumn(name) < 0) return UndefinedColumn(table_, name);
  }
  if (!token_) token_.emplace();
  RETURN_IF_ERROR(token_->Add(relation, table_, binds_));
  out_.has_token_restriction = true;
  out_.token_start = token_->start;
  out_.token_end = token_->end;
  return Status::Ok();
}

Status RestrictionsBuilder::CollectTuple(const Relation& relation) {
  std::vector<int> indexes;
  for (const std::string& name : relation.columns) {
    int index = table_.IndexOfColumn(name);
    if (index < 0) return UndefinedColumn(table_, name);
    if (column(index).kind != ColumnKind::kClustering) {
      return Status::Invalid(fmt::format(
          "Multi-column relations can only be applied to clustering columns but was applied "
          "to: {}",
          cql::QuoteIdentifierIfNeeded(name)));
    }
    indexes.push_back(index);
  }
  for (size_t i = 1; i < indexes.size(); ++i) {
    if (column(indexes[i]).position != column(indexes[i - 1]).position + 1) {
      return Status::Invalid(fmt::format(
          "Clustering columns must appear in the PRIMARY KEY order in multi-column relations: "
          "{}",
          cql::ToCql(relation)));
    }
  }
  for (TupleRestriction& tuple : tuples_) {
    std::vector<int> columns = tuple.columns();
    for (int index : indexes) {
      if (std::find(columns.begin(), columns.end(), index) != columns.end()) {
        return tuple.Add(relation, std::move(indexes), table_);
      }
    }
  }
  tuples_.emplace_back();
  return tuples_.back().Add(relation, std::move(indexes), table_);
}

// A single-column restriction on a column of the tuple: a slice on the tuple slice's first
// column merges with it (Cassandra converts it to a one-column tuple); anything else conflicts.
Status RestrictionsBuilder::CheckTupleOverlap(const TupleRestriction& tuple) {
  for (int index : tuple.columns()) {
    auto it = by_column_.find(index);
    if (it == by_column_.end() || !it->second.any()) continue;
    const ColumnRestriction& r = it->second;
    std::string name = cql::QuoteIdentifierIfNeeded(column(index).name);
    if (!tuple.is_slice()) {
      return Status::Invalid(
          fmt::format("{} cannot be restricted by more than one relation if it includes {}", name,
                      tuple.equality->op == Operator::kIn ? "a IN" : "an Equal"));
    }
    if (!r.is_slice()) {
      return Status::Invalid(fmt::format(
          "Column \"{}\" cannot be restricted by both an equality and an inequality relation",
          column(index).name));
    }
    if (index != tuple.first_column()) {
      return Status::Invalid(
          fmt::format("Column \"{}\" cannot be restricted by two inequalities not starting with "
                      "the same column",
                      column(index).name));
    }
    if ((r.start && tuple.start) || (r.end && tuple.end)) {
      return Status::Invalid(
          fmt::format("More than one restriction was found for the {} bound on {}",
                      r.start && tuple.start ? "start" : "end", name));
    }
  }
  return Status::Ok();
}

// Cassandra 4.x StatementRestrictions: restrictions an index supports ("hasQueriableIndex"),
// and what needFiltering() counts: the restricted columns of each kind, and whether one
// collection has several CONTAINS-like restrictions.
void RestrictionsBuilder::CountIndexRestrictions(const std::vector<Relation>& where) {
  if (is_select()) candidates_ = FindIndexCandidates(table_, where);
  has_index_ = !candidates_.empty();
  for (const IndexCandidate& c : candidates_) {
    if (column(c.column).kind == ColumnKind::kClustering) has_clustering_index_ = true;
  }
  for (const TupleRestriction& tuple : tuples_) ck_restricted_ += tuple.columns().size();
  for (const auto& [index, r] : by_column_) {
    if (!r.any()) continue;
    switch (column(index).kind) {
      case ColumnKind::kPartitionKey:
        ++pk_restricted_;
        break;
      case ColumnKind::kClustering:
        ++ck_restricted_;
        break;
      default:
        ++other_restricted_;
        multiple_contains_ = multiple_contains_ || r.others.size() > 1;
        break;
    }
  }
}

Status RestrictionsBuilder::BindPartitionKey() {
  bool all_pk_eq = true;
  for (int index : table_.partition_key) {
    auto it = by_column_.find(index);
    bool has = it != by_column_.end() && it->second.any();
    any_pk_ = any_pk_ || has;
    if (!has || !it->second.eq_or_in || !it->second.others.empty()) all_pk_eq = false;
  }
  if (token_ && any_pk_) {
    if (!allow_filtering_) return Status::Invalid(std::string(kFilteringMessage));
    pk_filtering_ = true;
  } else if (all_pk_eq && !table_.partition_key.empty()) {
    for (int index : table_.partition_key) {
      ColumnRestriction& r = by_column_[index];
      out_.has_pk_in = out_.has_pk_in || r.is_in;
      out_.partition_values.push_back(std::move(*r.eq_or_in));
      by_column_.erase(index);
    }
  } else if (!is_select()) {
    return RefusePartitionKey();
  } else if (any_pk_) {
    // A partial partition key, or a slice on it: a filtered scan (Cassandra 4.x).
    if (!allow_filtering_ && !has_index_) return Status::Invalid(std::string(kFilteringMessage));
    pk_filtering_ = true;
  }
  return Status::Ok();
}

// UPDATE and DELETE name their partitions: every partition key column by EQ or IN.
Status RestrictionsBuilder::RefusePartitionKey() {
  std::vector<std::string> unrestricted;
  std::vector<std::string> without_eq;
  bool has_slice = false;
  for (int index : table_.partition_key) {
    auto it = by_column_.find(index);
    std::string name = cql::QuoteIdentifierIfNeeded(column(index).name);
    if (it == by_column_.end() || !it->second.any()) unrestricted.push_back(name);
    if (it == by_column_.end() || !it->second.eq_or_in) without_eq.push_back(name);
    if (it != by_column_.end() && (it->second.start || it->second.end)) has_slice = true;
  }
  if (unrestricted.empty() && has_slice) {
    return Status::Invalid(fmt::format(
        "Only EQ and IN relation are supported on the partition key (unless you use the token() "
        "function) for {} statements",
        kind_ == StatementKind::kUpdate ? "UPDATE" : "DELETE"));
  }
  return Status::Invalid(
      fmt::format("Some partition key parts are missing: {}",
                  fmt::join(unrestricted.empty() ? without_eq : unrestricted, ", ")));
}

Status RestrictionsBuilder::BindClustering() {
  size_t position = 0;
  std::string stop_column;
  bool stop_was_slice = false;
  while (position < table_.clustering.size()) {
    int index = table_.clustering[position];
    stop_column = column(index).name;
    auto tuple = std::find_if(tuples_.begin(), tuples_.end(),
                              [&](const TupleRestriction& t) { return t.first_column() == index; });
    if (tuple != tuples_.end()) {
      ASSIGN_OR_RETURN(bool slice, BindTuple(*tuple, &position));
      tuple_bound_[tuple - tuples_.begin()] = true;
      if (slice) {
        stop_was_slice = true;
        break;
      }
      continue;
    }
    auto it = by_column_.find(index);
    // Unrestricted, or CONTAINS on a clustering column: the prefix ends here.
    if (it == by_column_.end() || !it->second.any() || !it->second.others.empty()) break;
    ColumnRestriction& r = it->second;
    out_.restricts_clustering = true;
    ++position;
    if (r.eq_or_in) {
      out_.has_clustering_in = out_.has_clustering_in || r.is_in;
      out_.clustering_prefix.push_back(std::move(*r.eq_or_in));
      by_column_.erase(it);
      continue;
    }
    out_.slice_columns = 1;
    if (r.start) out_.slice_start = std::move(*r.start);
    if (r.end) out_.slice_end = std::move(*r.end);
    by_column_.erase(it);
    stop_was_slice = true;
    break;
  }
  if (position >= table_.clustering.size()) return Status::Ok();
  return CheckClusteringTail(position, stop_column, stop_was_slice);
}

// The tuple at `*position`: EQ/IN values (returns false) or a slice (returns true, and any
// single-column slice on the same first column joins it).
Result<bool> RestrictionsBuilder::BindTuple(const TupleRestriction& t, size_t* position) {
  out_.restricts_clustering = true;
  if (t.is_slice()) {
    RETURN_IF_ERROR(BindTupleSliceBound(t.start, &out_.slice_start));
    RETURN_IF_ERROR(BindTupleSliceBound(t.end, &out_.slice_end));
    auto it = by_column_.find(t.first_column());
    if (it != by_column_.end()) {
      if (it->second.start) out_.slice_start = std::move(*it->second.start);
      if (it->second.end) out_.slice_end = std::move(*it->second.end);
      by_column_.erase(it);
    }
    out_.slice_columns = static_cast<int>(t.columns().size());
    *position += t.columns().size();
    return true;
  }
  std::vector<CqlType> types;
  std::vector<std::string> names;
  for (int i : t.equality_columns) {
    types.push_back(column(i).type);
    names.push_back(column(i).name);
  }
  CqlType tuple_type = CqlType::Tuple(types);
  std::string receiver = fmt::format("({})", fmt::join(names, ","));
  const Relation& relation = *t.equality;
  if (out_.multi_column_prefix) {
    return Status::Invalid(
        fmt::format("{} cannot be restricted by more than one relation if it includes an Equal",
                    cql::QuoteIdentifierIfNeeded(column(t.first_column()).name)));
  }
  out_.multi_column_prefix = true;
  out_.multi_column_first = *position;
  out_.multi_column_width = t.equality_columns.size();
  out_.multi_column_is_in = relation.op == Operator::kIn;
  out_.has_clustering_in = out_.has_clustering_in || out_.multi_column_is_in;
  if (relation.op == Operator::kIn && !relation.in_list) {
    ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(relation.value, CqlType::List(tuple_type),
                                                     "in" + receiver, binds_));
    out_.multi_column_in_list = std::move(v);
  } else {
    const std::vector<cql::Term> single{relation.value};
    for (const cql::Term& term : relation.op == Operator::kIn ? relation.in_values : single) {
      ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(term, tuple_type, receiver, binds_));
      out_.multi_column_in.push_back(std::move(v));
    }
  }
  // Tuple columns hold no single-column values in the prefix.
  for (size_t i = 0; i < t.equality_columns.size(); ++i) out_.clustering_prefix.emplace_back();
  *position += t.equality_columns.size();
  return false;
}

Status RestrictionsBuilder::BindTupleSliceBound(const std::optional<TupleBound>& bound,
                                                SliceBound* out) {
  if (!bound) return Status::Ok();
  std::vector<CqlType> types;
  std::vector<std::string> names;
  for (int i : bound->columns) {
    types.push_back(column(i).type);
    names.push_back(column(i).name);
  }
  std::string receiver = fmt::format("({})", fmt::join(names, ","));
  ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(bound->relation->value, CqlType::Tuple(types),
                                                   receiver, binds_));
  Operator op = bound->relation->op;
  *out =
      SliceBound{std::move(v), op == Operator::kGte || op == Operator::kLte, bound->columns.size()};
  return Status::Ok();
}

// Restrictions on clustering columns after the usable prefix: refused, or (SELECT with ALLOW
// FILTERING or an index) filtered.
Status RestrictionsBuilder::CheckClusteringTail(size_t position, const std::string& stop_column,
                                                bool stop_was_slice) {
  bool filtering = is_select() && allow_filtering_;
  for (size_t p = position; p < table_.clustering.size(); ++p) {
    int index = table_.clustering[p];
    auto it = by_column_.find(index);
    if (it != by_column_.end() && !it->second.others.empty() && !has_index_ && !filtering) {
      return Status::Invalid(
          "Clustering columns can only be restricted with CONTAINS with a secondary index or "
          "filtering");
    }
  }
  for (size_t p = position; p < table_.clustering.size(); ++p) {
    int index = table_.clustering[p];
    auto it = by_column_.find(index);
    const TupleRestriction* by_tuple = UnboundTuple(index);
    if (by_tuple == nullptr && (it == by_column_.end() || !it->second.any())) continue;
    if (by_tuple != nullptr && filtering && by_tuple->is_slice()) {
      return Status::Invalid("Multi-column slice restrictions cannot be used for filtering.");
    }
    if (filtering) {
      clustering_needs_filtering_ = true;
      continue;
    }
    if (is_select() && has_index_) {
      // Cassandra checks a restriction after a slice when it is added, unless its own column
      // has a supporting index; a gap before it is fine once any index is queriable.
      bool self_indexed = std::any_of(candidates_.begin(), candidates_.end(),
                                      [&](const IndexCandidate& c) { return c.column == index; });
      if (!stop_was_slice || self_indexed) {
        clustering_needs_filtering_ = true;
        continue;
      }
    }
    if (stop_was_slice) {
      return Status::Invalid(fmt::format(
          "Clustering column \"{}\" cannot be restricted (preceding column \"{}\" is restricted "
          "by a non-EQ relation)",
          column(index).name, stop_column));
    }
    return Status::Invalid(fmt::format(
        "PRIMARY KEY column \"{}\" cannot be restricted as preceding column \"{}\" is not "
        "restricted",
        column(index).name, stop_column));
  }
  return Status::Ok();
}

Status RestrictionsBuilder::BindFilters() {
  for (auto& [index, r] : by_column_) {
    if (!r.any()) continue;
    const schema::ColumnMetadata& c = column(index);
    bool is_key = c.kind == ColumnKind::kPartitionKey || c.kind == ColumnKind::kClustering;
    if (!is_select() && !is_key) {
      return Status::Invalid(fmt::format("Non PRIMARY KEY columns found in where clause: {}",
                                         cql::QuoteIdentifierIfNeeded(c.name)));
    }
    if (!is_select()) {
      return Status::Invalid(fmt::format("Invalid restrictions on clustering column {}", c.name));
    }
    RETURN_IF_ERROR(AddColumnFilters(index, r));
  }
  for (size_t i = 0; i < tuples_.size(); ++i) {
    if (!tuple_bound_[i]) RETURN_IF_ERROR(AddTupleFilter(tuples_[i]));
  }
  return Status::Ok();
}

Status RestrictionsBuilder::AddColumnFilters(int index, ColumnRestriction& r) {
  const schema::ColumnMetadata& c = column(index);
  auto add = [&](Operator op, ValueSet values, const std::optional<ValueExpr>& map_key) {
    Filter filter;
    filter.columns = {index};
    filter.op = op;
    filter.values = std::move(values);
    filter.map_key = map_key;
    out_.filters.push_back(std::move(filter));
  };
  auto single = [](SliceBound& bound) {
    ValueSet v;
    v.values.push_back(std::move(*bound.value));
    return v;
  };
  if (r.eq_or_in) add(r.is_in ? Operator::kIn : Operator::kEq, std::move(*r.eq_or_in), {});
  if (r.start) add(r.start->inclusive ? Operator::kGte : Operator::kGt, single(*r.start), {});
  if (r.end) add(r.end->inclusive ? Operator::kLte : Operator::kLt, single(*r.end), {});
  for (const Relation* relation : r.others) {
    const CqlType& type = c.type;
    std::optional<ValueExpr> map_key;
    CqlType value_type = type;
    std::string receiver = c.name;
    if (relation->map_key) {
      ASSIGN_OR_RETURN(ValueExpr k, ValueExpr::Prepare(*relation->map_key, type.key(),
                                                       fmt::format("key({})", c.name), binds_));
      map_key = std::move(k);
      value_type = type.value();
      receiver = fmt::format("value({})", c.name);
    } else if (relation->op == Operator::kContainsKey) {
      value_type = type.key();
      receiver = fmt::format("key({})", c.name);
    } else if (relation->op == Operator::kContains) {
      value_type = type.kind() == cql::TypeKind::kMap ? type.value() : type.element();
      receiver = fmt::format("value({})", c.name);
    }
    ASSIGN_OR_RETURN(ValueSet values, PrepareValueSet(*relation, value_type, receiver, binds_));
    add(relation->op, std::move(values), map_key);
  }
  return Status::Ok();
}

// A tuple EQ after a gap in the clustering key (SELECT ... ALLOW FILTERING): each of its
// columns equal to its component, checked row by row.
Status RestrictionsBuilder::AddTupleFilter(const TupleRestriction& t) {
  if (t.equality->op == Operator::kIn) {
    // Cassandra 4.1 (MultiColumnRestriction.INRestriction) cannot filter with a tuple IN.
    return Status::Invalid("IN restrictions are not supported on indexed columns");
  }
  std::vector<CqlType> types;
  std::vector<std::string> names;
  for (int i : t.equality_columns) {
    types.push_back(column(i).type);
    names.push_back(column(i).name);
  }
  ASSIGN_OR_RETURN(ValueExpr v,
                   ValueExpr::Prepare(t.equality->value, CqlType::Tuple(types),
                                      fmt::format("({})", fmt::join(names, ",")), binds_));
  Filter filter;
  filter.kind = Filter::Kind::kMultiColumn;
  filter.columns = t.equality_columns;
  filter.op = Operator::kEq;
  filter.values.values.push_back(std::move(v));
  out_.filters.push_back(std::move(filter));
  return Status::Ok();
}

Status RestrictionsBuilder::Finish() {
  const bool partition_restricted = out_.is_single_partitions();
  if (is_select() && has_index_) {
    // Cassandra's usesSecondaryIndexing, decided in its order: an unrestricted or filtered
    // partition key, clustering restrictions beyond the prefix, a clustering index on a range
    // query, or any restriction on other columns; then needFiltering() counts the restrictions
    // handed to the index query.
    const bool pk_unrestricted = !any_pk_ && !out_.has_token_restriction;
    bool uses_index = pk_unrestricted || pk_filtering_;
    size_t count = uses_index ? pk_restricted_ : 0;
    if (clustering_needs_filtering_ || (!partition_restricted && has_clustering_index_)) {
      uses_index = true;
    }
    if (uses_index || clustering_needs_filtering_) count += ck_restricted_;
    if (other_restricted_ > 0) {
      uses_index = true;
      count += other_restricted_;
    }
    if (uses_index) {
      ChooseIndex(table_, candidates_, &out_);
      if (out_.index) {
        if (out_.has_pk_in) {
          return Status::Invalid(
              "Select on indexed columns and with IN clause for the PRIMARY KEY are not "
              "supported");
        }
        bool needs =
            count > 1 || (count == 0 && ck_restricted_ > 0) || (count != 0 && multiple_contains_);
        if (needs && !allow_filtering_) return Status::Invalid(std::string(kFilteringMessage));
        out_.needs_filtering = true;
        return Status::Ok();
      }
    }
  }
  if (!is_select()) return Status::Ok();
  // A key range (token or scan) with clustering restrictions filters (needFiltering()).
  bool needs = !out_.filters.empty() || pk_filtering_ || clustering_needs_filtering_ ||
               (!partition_restricted && out_.restricts_clustering);
  if (needs && !allow_filtering_) return Status::Invalid(std::string(kFilteringMessage));
  out_.needs_filtering = needs;
  return Status::Ok();
}

}  // namespace

Result<Restrictions> PrepareRestrictions(const TableSchema& table,
                                         const std::vector<Relation>& where, StatementKind kind,
                                         bool allow_filtering, BindCollector* binds) {
  return RestrictionsBuilder(table, kind, allow_filtering, binds).Build(where);
}

bool Restrictions::ClusteringRestrictedByEq(size_t position) const {
  if (position >= clustering_prefix.size()) return false;
  if (multi_column_prefix && position >= multi_column_first &&
      position < multi_column_first + multi_column_width) {
    return !multi_column_is_in;
  }
  const ValueSet& set = clustering_prefix[position];
  return !set.list && set.values.size() == 1;
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
