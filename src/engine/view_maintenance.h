// View maintenance: the materialized-view rows a base-table write adds, changes and removes
// (docs/dev/storage_format.md §7-8). Each view has its own column family (StorageId(view.id)); its
// rows are written in the same atomic WriteBatch as the base write, so a view is never stale.
//
// Pipeline position: change capture (change_capture.h) hands the base rows a write changed,
// under the base partition locks; `ViewMaintainer::AddMutations` adds the view mutations.
// CREATE MATERIALIZED VIEW backfills with changes that have no `before`.
//
// Design (numbered invariants):
//  1. A view row is a function of its base row: the view key is made of the base row's values
//     (every base key column plus at most one regular column); the row exists when the base
//     row is live, every view key value is non-null and the base row passes the view's WHERE;
//     its regular cells are the base row's live cells of the selected columns, element by
//     element for non-frozen collections and UDTs, with the base cells' values, timestamps and
//     expiry (so view rows expire with the base).
//  2. View row liveness: with a regular base column in the view key, the view row lives
//     exactly while that base cell lives (Cassandra's rule): its marker copies that cell's
//     timestamp and expiry, and no view cell outlives it. Otherwise the view row lives while
//     the base row does: its marker is live while any of the base row's marker or live
//     regular cells is (so also when the base row lives only through unselected columns).
//  3. All writes to one view row are serialized by the base partition lock, because the view
//     key holds the whole base key: one base row maps to at most one view row, and no other
//     base row maps to it. So maintenance may read the stored view row and write exactly what
//     makes it read as the desired row (`ReconcileViewRow`).
//  4. Reconciling never relies on timestamps being ordered: a desired cell or marker that the
//     stored row would shadow (an older base timestamp after a key move, a view-row tombstone,
//     a cell tombstone) is written one microsecond above what shadows it; a stored live cell
//     that must go gets a cell tombstone at its own timestamp (a tombstone wins a timestamp
//     tie); a view row that must go gets a row tombstone at the highest timestamp it holds.
//     So a deletion shadows everything the old view row had, and a later re-created row is
//     never shadowed by it.
//  5. Unchanged rows cost nothing: when the desired view row before and after the base write
//     are the same (key, cells and the marker's expiry), the view is left alone, since by
//     invariants 1–4 it already reads as that row.
//
// Thread-safety: a ViewMaintainer is immutable once built; AddMutations is const and safe
// from many threads (it reads a thread-safe Store).

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "common/result.h"
#include "cql/functions/functions.h"
#include "engine/row_change.h"
#include "engine/table_schema.h"
#include "schema/catalog.h"
#include "storage/row_fragment.h"
#include "storage/store.h"

namespace engine {

// The view row a base row maps to.
struct ViewRow {
  common::Bytes key;  // the view row's storage key (in the view's column family)
  // Its liveness marker and regular cells (view column ids), nothing else.
  storage::RowFragment fragment;
};

class ViewMaintainer {
 public:
  // Prepares the maintenance of `view` (a materialized view of `base`). `functions` evaluates
  // the constant terms of the view's WHERE clause.
  // Errors: Invalid when the WHERE clause holds a relation view maintenance cannot evaluate
  // (CONTAINS, LIKE, a map element; `!=` with Cassandra's message) or a null where a value is
  // needed; Internal when the view names a column the base table lacks.
  // REQUIRES: `base` and `view` outlive the maintainer (holders keep the catalogue alive).
  static common::Result<std::unique_ptr<ViewMaintainer>> Create(
      const TableSchema& base, const schema::TableMetadata* view,
      const cql::FunctionContext& functions);
  // Use Create. REQUIRES: `base` and `view` outlive the maintainer.
  ViewMaintainer(const TableSchema* base, const schema::TableMetadata* view);
  ~ViewMaintainer();
  ViewMaintainer(const ViewMaintainer&) = delete;
  ViewMaintainer& operator=(const ViewMaintainer&) = delete;

  // Adds to `batch` the view mutations implied by `changes` (invariants 1–5), reading the
  // stored view rows it changes from `store`. `now_seconds`: the capture's "now".
  // REQUIRES: the base partition locks of the changes' partitions are held.
  common::Status AddMutations(const storage::Store& store, std::span<const RowChange> changes,
                              int64_t now_seconds, storage::WriteBatch* batch) const;

  // The view row of a base row (`row` as assembled, `live` its live storage state, see
  // row_change.h), or nullopt when there is none (invariant 1). A static-only row has none: a
  // view's key holds every base clustering column, and views select no static column.
  std::optional<ViewRow> DesiredRow(const std::optional<RowData>& row,
                                    const storage::RowFragment& live) const;

  const TableSchema& view() const { return view_; }
  // Whether the view's WHERE clause restricts a static column (then a change to the static
  // row alone changes the view rows of every row of the partition).
  bool depends_on_statics() const { return depends_on_statics_; }

 private:
  // One relation of the view's WHERE clause on base columns.
  struct Filter {
    std::vector<int> columns;  // base column indexes (several for (a, b) relations)
    cql::Operator op = cql::Operator::kIsNot;
    // The right-hand side: one tuple of columns.size() values per value (several for IN).
    std::vector<std::vector<common::Bytes>> values;
  };
  common::Status AddWhereRelation(const cql::Relation& relation, const schema::TableMetadata& view,
                                  const cql::FunctionContext& functions);
  bool Matches(const RowData& row) const;

  const TableSchema* base_ = nullptr;
  TableSchema view_;
  // Base column index of each view key column, in view key order.
  std::vector<int> partition_key_;
  std::vector<int> clustering_;
  // Index in base columns of the regular base column in the view key, or -1.
  int regular_key_column_ = -1;
  // Indexes in base columns of the simple regular columns the view row needs non-null (the
  // regular key column, `IS NOT NULL` restrictions): no view cell or marker outlives them.
  std::vector<int> required_columns_;
  // View column id of each base column id (-1: not selected, or a key column).
  std::vector<int64_t> view_column_of_base_id_;
  std::vector<Filter> filters_;
  bool depends_on_statics_ = false;
};

// The fragment to merge into a stored view row (`stored`, nullopt when there is no entry) so
// that it reads as `desired` (nullopt: no live row) at `now_seconds` and later, following
// invariant 4; nullopt when nothing needs to be written.
// REQUIRES: `desired` holds a marker and only cells live at `now_seconds`.
std::optional<storage::RowFragment> ReconcileViewRow(
    const std::optional<storage::RowFragment>& stored,
    const std::optional<storage::RowFragment>& desired, int64_t now_seconds);

}  // namespace engine
