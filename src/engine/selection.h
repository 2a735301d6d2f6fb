// Selection: the SELECT clause bound to a table — which values each result row holds and the
// result metadata (column names and types exactly as Cassandra reports them: `count`,
// `writetime(v)`, `system.totimestamp(system.now())`, aliases...).
//
// Selectors: columns, writetime()/ttl(), token(), scalar function calls (cql/functions/functions.h,
// including arithmetic), CAST, UDT field access, collection element and slice selection,
// literals and bind markers, and aggregates (count(*), count/min/max/sum/avg). A selection with
// any aggregate folds all rows of a group into one result row. SELECT JSON wraps the selected
// columns into one `[json]` text column.
//
// Thread-safety: a prepared Selection is immutable; per-execution state lives in a
// SelectionState.

#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/functions/aggregates.h"
#include "cql/parser/statement_parts.h"
#include "cql/session.h"
#include "engine/row_reader.h"
#include "engine/table_schema.h"
#include "engine/value_expr.h"

namespace engine {

class SelectorExpr;

// Per-execution state of aggregate selectors.
class SelectionState {
 public:
  SelectionState() = default;
  SelectionState(SelectionState&&) noexcept = default;
  SelectionState& operator=(SelectionState&&) noexcept = default;
  ~SelectionState();

  size_t aggregates_size() const { return aggregates_.size(); }
  common::Result<std::optional<common::Bytes>> AggregateResult(int slot) const {
    return aggregates_[slot]->Compute();
  }

 private:
  friend class Selection;
  std::vector<std::unique_ptr<cql::Aggregate>> aggregates_;
  // Values of the non-aggregate selectors on the group's first row.
  std::vector<std::optional<common::Bytes>> first_row_;
  bool has_rows_ = false;
};

class Selection {
 public:
  // Binds `selectors` (empty = `*`) to `table`.
  static common::Result<std::unique_ptr<Selection>> Prepare(
      const TableSchema& table, const std::vector<cql::Selector>& selectors, bool json,
      BindCollector* binds);
  ~Selection();

  const std::vector<cql::ColumnSpec>& result_columns() const { return *result_columns_; }
  // The same, shared: results point to it instead of copying it per execution.
  const std::shared_ptr<const std::vector<cql::ColumnSpec>>& shared_result_columns() const {
    return result_columns_;
  }
  bool is_aggregate() const { return is_aggregate_; }
  bool is_wildcard() const { return wildcard_; }

  // Non-aggregate selections: appends the result row for `row` to `out`.
  common::Status AddRow(const RowData& row, const EvalContext& context, cql::ResultSet* out) const;

  // Aggregate selections.
  common::Result<SelectionState> NewState() const;
  common::Status Accumulate(const RowData& row, const EvalContext& context,
                            SelectionState* state) const;
  // Appends the group's result row (also for zero rows: count 0, other aggregates null, plain
  // columns null — except that an empty group with plain columns under GROUP BY emits nothing).
  common::Status Emit(const EvalContext& context, SelectionState* state, bool always,
                      cql::ResultSet* out) const;

 private:
  Selection() = default;
  common::Result<std::optional<common::Bytes>> Evaluate(size_t i, const RowData& row,
                                                        const EvalContext& context) const;
  common::Status AppendJson(std::vector<std::optional<common::Bytes>> values,
                            cql::ResultSet* out) const;

  const TableSchema* table_ = nullptr;
  std::vector<std::unique_ptr<SelectorExpr>> selectors_;
  std::vector<cql::ColumnSpec> selector_specs_;  // one per selector (before JSON wrapping)
  std::shared_ptr<const std::vector<cql::ColumnSpec>> result_columns_;  // never null
  bool is_aggregate_ = false;
  bool wildcard_ = false;
  bool json_ = false;
  // The aggregate selectors at any depth, by slot (filled once by Prepare).
  std::vector<const SelectorExpr*> aggregates_;
  // When every selector is a plain column and the result is not JSON: the columns, in
  // selector order, which AddRow copies without evaluating anything (the common SELECT).
  std::vector<int> plain_columns_;
};

}  // namespace engine
