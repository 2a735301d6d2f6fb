// The kinds of restriction a WHERE clause can hold, one type each, as Cassandra 4.1 and
// ScyllaDB model them: a single-column restriction (EQ / IN / slice / CONTAINS / CONTAINS KEY /
// map entry, merged per column), a multi-column restriction on clustering columns (tuple EQ /
// IN / slice) and a token restriction. Each type validates the relations merged into it, with
// Cassandra's messages; restrictions.cc composes them into the partition-key, clustering and
// filter sets and checks the combinations once.
//
// Pipeline: parser (cql::Relation) -> these types (PrepareRestrictions, step "collect") ->
// engine::Restrictions (restrictions.h), evaluated per execution by restrictions_eval.cc.
//
// Thread-safety: plain values, built by one thread during PREPARE.

#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "cql/parser/statement_parts.h"
#include "engine/restrictions.h"
#include "engine/table_schema.h"
#include "engine/value_expr.h"

namespace engine {

// Whether `op` is <, <=, > or >=.
bool IsSliceOperator(cql::Operator op);
// Whether `op` is > or >= (the start of a slice).
bool IsStartOperator(cql::Operator op);

// The right-hand side of `relation` (EQ, IN list, IN ?, or a CONTAINS-like value) as values
// of `type`; `receiver` names them in errors.
common::Result<ValueSet> PrepareValueSet(const cql::Relation& relation, const cql::CqlType& type,
                                         std::string_view receiver, BindCollector* binds);

// Everything restricting one column: EQ or IN, a start and an end bound, and the relations
// checked element-wise (CONTAINS, CONTAINS KEY, `m[k] = v`).
struct ColumnRestriction {
  std::optional<ValueSet> eq_or_in;
  bool is_in = false;
  std::optional<SliceBound> start;  // > / >=
  std::optional<SliceBound> end;    // < / <=
  std::vector<const cql::Relation*> others;

  bool any() const { return eq_or_in || start || end || !others.empty(); }
  bool is_slice() const { return !eq_or_in && (start || end) && others.empty(); }

  // Merges `relation` (on `column`) in. Errors, as Cassandra: unsupported operators (!=,
  // IS NOT, LIKE), CONTAINS on a non-collection, a map entry on a non-map or frozen map, slices
  // on durations, EQ on a non-frozen collection, and conflicting EQ/IN/slice bounds.
  common::Status Add(const cql::Relation& relation, const schema::ColumnMetadata& column,
                     BindCollector* binds);
};

// One bound of a multi-column slice: `(c1, ..., cn) > (v1, ..., vn)`.
struct TupleBound {
  const cql::Relation* relation = nullptr;
  std::vector<int> columns;  // indexes into table->columns, consecutive clustering columns
};

// A multi-column relation on clustering columns: EQ/IN on a tuple, or a slice whose two bounds
// may have different lengths (`(b, c) <= (3, 1) AND (b) > (1)`). Both bounds start at the same
// column.
struct TupleRestriction {
  const cql::Relation* equality = nullptr;  // EQ or IN
  std::vector<int> equality_columns;
  std::optional<TupleBound> start;
  std::optional<TupleBound> end;

  bool is_slice() const { return equality == nullptr; }
  // The first clustering column restricted (a column index).
  int first_column() const;
  // Every column restricted by either part (a column index), in clustering order.
  std::vector<int> columns() const;

  // Merges a multi-column `relation` on `columns` in (already checked to be consecutive
  // clustering columns). Errors: an operator other than EQ/IN/slice, "(b) != (0)", two bounds
  // on one side, EQ with anything else, slices not starting at the same column.
  common::Status Add(const cql::Relation& relation, std::vector<int> columns,
                     const TableSchema& table);
};

// token(pk...) restrictions.
struct TokenRestriction {
  std::optional<SliceBound> start;
  std::optional<SliceBound> end;

  // Merges `relation` in. Errors: the token function on other than all partition-key columns
  // in order, unknown columns, conflicting bounds.
  common::Status Add(const cql::Relation& relation, const TableSchema& table, BindCollector* binds);
};

}  // namespace engine
