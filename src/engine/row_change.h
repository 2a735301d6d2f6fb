// RowChange: one base-table row as it was before a write and as it is after it — what
// materialized views and secondary indexes are maintained from (ARCHITECTURE.md §5).
//
// Pipeline position: a write to a table that has views or indexes takes its partition locks,
// builds its mutations (modification_statement.h), reads the rows those mutations touch
// (change_capture.h), merges the mutations into them in memory, and hands the resulting
// RowChanges to view maintenance (view_maintenance.h) and to index maintenance
// (index_maintenance.h), which add their own mutations to the same atomic WriteBatch.
// Backfill (CREATE MATERIALIZED VIEW / CREATE INDEX on a table with data) produces RowChanges
// with no `before`.
//
// Thread-safety: plain data.

#pragma once

#include <optional>
#include <vector>

#include "common/bytes.h"
#include "engine/restrictions.h"
#include "engine/row_reader.h"
#include "storage/row_fragment.h"

namespace engine {

struct RowChange {
  // The base partition (storage prefix and partition key values).
  PartitionKey partition;
  // The clustering values of the row (empty for a table without clustering columns).
  std::vector<common::Bytes> clustering;
  // The live row before and after the write, as a SELECT would assemble it now (statics
  // included); nullopt when there is no live row. Static-only rows never appear here: a
  // change to a partition's static columns shows as a change of each of its rows.
  std::optional<RowData> before;
  std::optional<RowData> after;
  // The live part of the row's storage state before and after the write, cell by cell: the
  // row's liveness marker when it is live, and every live regular (non-static) cell — simple
  // cells and the per-element cells of non-frozen collections and UDTs — with its timestamp,
  // TTL and expiry, once partition, range and row deletions, TTL expiry (at the capture's
  // "now") and dropped columns are applied. Column ids are the base table's; cells are sorted
  // by position. Empty (no marker, no cells) exactly when `before` / `after` is nullopt.
  // Materialized views copy these so view rows carry the base cells' timestamps and expire
  // with them.
  storage::RowFragment before_live;
  storage::RowFragment after_live;
};

}  // namespace engine
