// Restrictions: a WHERE clause bound to a table and sorted into what the read path can use —
// partition keys (EQ/IN), a token range, a clustering prefix (EQ/IN) with an optional slice, and
// the filters left to check on each row — with Cassandra's rules on which combinations are
// legal and which need ALLOW FILTERING (Cassandra 4.1 StatementRestrictions; messages as its).
//
// Used by SELECT (all of it) and by UPDATE/DELETE (keys and clustering only). Values are
// ValueExprs evaluated per execution into storage keys (partition prefixes and key intervals).
//
// Thread-safety: immutable after Prepare; the evaluation functions are const.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/parser/statement_parts.h"
#include "engine/row_reader.h"
#include "engine/table_schema.h"
#include "engine/value_expr.h"

namespace engine {

// "= v", "IN (a, b)" or "IN ?".
struct ValueSet {
  std::vector<ValueExpr> values;
  std::optional<ValueExpr> list;  // IN ? (a list<T> marker)

  // The values, deduplicated, sorted by `type`'s order. Null/unset values give Cassandra's
  // errors naming `column`.
  common::Result<std::vector<common::Bytes>> Evaluate(const EvalContext& context,
                                                      const cql::CqlType& type,
                                                      std::string_view column) const;
};

// One side of a slice.
struct SliceBound {
  std::optional<ValueExpr> value;  // single column, or a tuple for multi-column slices
  bool inclusive = false;
  // 0: `value` is of the first sliced column's type (`c > v`); n >= 1: a tuple over n
  // clustering columns from the first sliced one (`(c, d) > (v, w)`, `(c) > (v)`).
  size_t width = 0;
};

// A restriction checked row by row (a filter), or, with an index, served by it.
struct Filter {
  enum class Kind : uint8_t { kColumn, kMultiColumn };
  Kind kind = Kind::kColumn;
  std::vector<int> columns;  // indexes into table->columns
  cql::Operator op = cql::Operator::kEq;
  std::optional<ValueExpr> map_key;  // m[k] = v
  ValueSet values;                   // EQ/IN/comparison right-hand side (one value unless IN)
};

// The secondary index a SELECT reads through (Cassandra's "usesSecondaryIndexing"), and which
// of `Restrictions::filters` it serves; the filter is still checked on every row read.
struct IndexQuery {
  const schema::IndexMetadata* index = nullptr;  // lives in the statement's catalogue snapshot
  size_t filter = 0;                             // index into Restrictions::filters
};

struct Restrictions {
  // Partition key: EQ/IN per partition key column (all restricted), or a token range, or
  // neither (a scan).
  std::vector<ValueSet> partition_values;  // empty unless every pk column has EQ/IN
  std::optional<SliceBound> token_start;
  std::optional<SliceBound> token_end;
  bool has_token_restriction = false;

  // Clustering prefix restricted by EQ/IN, then an optional slice on the next column (or a
  // multi-column slice starting at the prefix's end). One tuple EQ/IN may stand for several
  // prefix columns, from `multi_column_first`: their ValueSets are empty.
  std::vector<ValueSet> clustering_prefix;
  bool multi_column_prefix = false;               // (a, b) = / IN (...): values are tuples
  std::vector<ValueExpr> multi_column_in;         // (a, b) IN ((..), (..)) tuples
  std::optional<ValueExpr> multi_column_in_list;  // (a, b) IN ?
  size_t multi_column_first = 0;                  // position of the tuple's first column
  size_t multi_column_width = 0;                  // columns the tuple covers
  bool multi_column_is_in = false;
  // 0: no slice; otherwise how many clustering columns the slice covers, from position
  // clustering_prefix.size(). Each bound has its own width (SliceBound::width).
  int slice_columns = 0;
  SliceBound slice_start;
  SliceBound slice_end;

  std::vector<Filter> filters;
  bool needs_filtering = false;  // true when filters must run (the query used ALLOW FILTERING)
  // True when the query restricts any clustering column (so no static-only rows).
  bool restricts_clustering = false;
  bool has_pk_in = false;  // an IN on the partition key (for ORDER BY/paging rules)
  bool has_clustering_in = false;
  // Set when the query reads through a secondary index (SELECT only).
  std::optional<IndexQuery> index;

  bool is_single_partitions() const { return !partition_values.empty(); }
  // Whether the clustering column at `position` is restricted to one value by `=` (alone or in
  // a tuple EQ); ORDER BY and GROUP BY may skip such a column.
  bool ClusteringRestrictedByEq(size_t position) const;
};

enum class StatementKind : uint8_t { kSelect, kUpdate, kDelete };

// Binds a WHERE clause. For a SELECT on a table with secondary indexes, a restriction an index
// supports (index_schema.h `IndexSupports`) makes the query use that index as Cassandra 4.x
// does: it then needs no ALLOW FILTERING unless it restricts anything else beyond a partition
// key or clustering prefix (more than one "filter" restriction, StatementRestrictions
// .needFiltering). Errors: Cassandra 4.1's messages, e.g. "Undefined column name x in
// table ks.t", "PRIMARY KEY column "c2" cannot be restricted as preceding column "c1" is not
// restricted", "Cannot execute this query as it might involve data filtering and thus may have
// unpredictable performance. If you want to execute this query despite the performance
// unpredictability, use ALLOW FILTERING", "Some partition key parts are missing: k" (updates),
// "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported",
// "Multi-column slice restrictions cannot be used for filtering.". Relations are first bound
// to their typed restrictions (restriction_kinds.h), which refuse what one kind cannot hold.
common::Result<Restrictions> PrepareRestrictions(const TableSchema& table,
                                                 const std::vector<cql::Relation>& where,
                                                 StatementKind kind, bool allow_filtering,
                                                 BindCollector* binds);

// Whether a comparison result `cmp` (negative, zero, positive) satisfies `op`: one of =, !=,
// <, <=, >, >=; false for any other operator.
bool ComparisonHolds(cql::Operator op, int cmp);

struct PartitionKey {
  common::Bytes prefix;  // storage::PartitionPrefix
  std::vector<common::Bytes> values;
};

// The partition keys the restrictions select, deduplicated, in the order of the key values
// (each component by its type's comparison; Cassandra sorts IN values so). REQUIRES:
// restrictions.is_single_partitions().
common::Result<std::vector<PartitionKey>> EvaluatePartitionKeys(const TableSchema& table,
                                                                const Restrictions& restrictions,
                                                                const EvalContext& context);

// The clustering intervals of one partition, as storage keys, sorted and disjoint.
common::Result<std::vector<KeyInterval>> EvaluateClusteringIntervals(
    const TableSchema& table, const Restrictions& restrictions, std::string_view prefix,
    const EvalContext& context);

// The bind marker index of each partition key column when every one is restricted by a single
// `= ?` (what PREPARE reports for token-aware routing); otherwise empty.
std::vector<uint16_t> PartitionKeyBindIndexes(const Restrictions& restrictions);

// The full clustering keys named by EQ/IN on every clustering column (for UPDATE/INSERT-like
// row writes). Empty tables (no clustering) give one empty key.
common::Result<std::vector<std::vector<common::Bytes>>> EvaluateClusteringKeys(
    const TableSchema& table, const Restrictions& restrictions, const EvalContext& context);

// The storage-key range [start, end) of a token restriction; empty strings are unbounded.
// Sets *empty when the range can hold nothing.
common::Status EvaluateTokenRange(const Restrictions& restrictions, const EvalContext& context,
                                  common::Bytes* start, common::Bytes* end, bool* empty);

// Checks, once per execution, the values of the filters on non-key columns as Cassandra 4's
// RowFilter does: "Unsupported null value for column v", "Unsupported unset value for column
// v", and for `m[k] = v` "Unsupported null map key for column m" / "... map value ...".
common::Status ValidateFilterValues(const TableSchema& table, const std::vector<Filter>& filters,
                                    const EvalContext& context);

// Whether `row` passes every filter.
common::Result<bool> MatchesFilters(const TableSchema& table, const std::vector<Filter>& filters,
                                    const RowData& row, const EvalContext& context);

}  // namespace engine
