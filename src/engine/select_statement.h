// SelectStatement: a prepared SELECT and its execution (docs/dev/architecture.md §2).
//
// Prepare binds the statement to one catalogue snapshot: the table (or system table), the
// WHERE restrictions (restrictions.h), the selection (selection.h), ORDER BY (which direction
// to read), LIMIT and PER PARTITION LIMIT, DISTINCT and GROUP BY, with Cassandra 4.1's rules
// and messages. Execution reads the selected partitions in token order (or the whole table),
// or, when the restrictions chose a secondary index, the partitions and rows its entries name
// (index_scan.h), in the same order; then it filters, selects, aggregates, and pages: a page
// ends after `page_size` rows (groups, with GROUP BY; an aggregate without GROUP BY is never
// paged) with a paging state (paging_state.h) from which the next execution resumes exactly
// after the last row (the last group). The design block of `RowSink` in select_statement.cc
// states the invariants.
//
// Thread-safety: immutable after Prepare; Execute is const and safe from many threads.

#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "common/result.h"
#include "cql/parser/statement_dml.h"
#include "cql/session.h"
#include "engine/execution_context.h"
#include "engine/index_schema.h"
#include "engine/restrictions.h"
#include "engine/selection.h"
#include "engine/table_schema.h"
#include "engine/value_expr.h"
#include "schema/catalog.h"

namespace engine {

class SelectStatement {
 public:
  // `catalog` must stay alive as long as the statement (the statement keeps it).
  static common::Result<std::unique_ptr<SelectStatement>> Prepare(
      std::shared_ptr<const schema::Catalog> catalog, const cql::Select& select,
      std::string_view keyspace, BindCollector* binds);

  common::Result<cql::ResultSet> Execute(const ExecutionContext& context,
                                         const cql::QueryOptions& options,
                                         std::span<const cql::BoundValue> values) const;

  const std::vector<cql::ColumnSpec>& result_columns() const {
    return selection_->result_columns();
  }
  const TableSchema& table() const { return *table_; }
  // Partition key column -> bind marker index, when every pk column is bound by `= ?`.
  const std::vector<uint16_t>& partition_key_bind_indexes() const { return pk_bind_indexes_; }
  // Whether it reads partitions named by their keys (Cassandra's Read scope), not a range.
  bool reads_partitions_by_key() const { return restrictions_.is_single_partitions(); }
  bool is_system() const { return is_system_; }

 private:
  SelectStatement() = default;
  // Prepare's steps, in order; each checks its clause with Cassandra's rules and messages.
  common::Status PrepareDistinct(const cql::Select& select);
  common::Status PrepareOrderBy(const cql::Select& select);
  common::Status PrepareGroupBy(const cql::Select& select);
  common::Status PrepareLimits(const cql::Select& select, BindCollector* binds);
  // After a read: the client warnings Cassandra gives (an aggregation without partition key
  // or over an IN; more tombstones than tombstone_warn_threshold) and the read's trace event.
  void WarnAfterRead(const ExecutionContext& context, const ReadCounts& counts,
                     cql::ResultSet* result) const;

  std::shared_ptr<const schema::Catalog> catalog_;
  std::unique_ptr<TableSchema> table_;
  bool is_system_ = false;
  // The statement as CQL (for the tombstone warning and failure messages).
  std::string query_text_;
  // An aggregate selection or GROUP BY: Cassandra warns when it spans partitions.
  bool aggregation_ = false;
  Restrictions restrictions_;
  std::unique_ptr<Selection> selection_;
  bool reversed_ = false;
  bool has_order_by_ = false;
  bool distinct_ = false;
  size_t group_by_size_ = 0;  // number of primary key columns in GROUP BY
  std::optional<ValueExpr> limit_;
  std::optional<ValueExpr> per_partition_limit_;
  std::vector<uint16_t> pk_bind_indexes_;
  // The layout of the index the query reads through (restrictions_.index), if any.
  std::unique_ptr<IndexSchema> index_;
};

}  // namespace engine
