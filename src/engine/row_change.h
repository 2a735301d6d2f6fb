// RowChange: one base-table row as it was before a write and as it is after it — what
// materialized views and secondary indexes are maintained from (docs/dev/storage_format.md §7-8).
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
  // included); nullopt when there is no live row. A change to a partition's static columns
  // shows as a change of each of its rows (when the capture was asked for it). A partition
  // with live static cells and no live row has a static-only row, as SELECT shows it
  // (RowData::static_only, key = the static row's key, null clustering values, `clustering`
  // empty): it appears in the RowChange of that partition (listed before its rows) on the side
  // where the partition is in that state, e.g. before = static-only and after = nullopt when
  // the write adds the partition's first row.
  std::optional<RowData> before;
  std::optional<RowData> after;
  // The live part of the row's storage state before and after the write, cell by cell: the
  // row's liveness marker when it is live, and every live regular (non-static) cell — simple
  // cells and the per-element cells of non-frozen collections and UDTs — with its timestamp,
  // TTL and expiry, once partition, range and row deletions, TTL expiry (at the capture's
  // "now") and dropped columns are applied. Column ids are the base table's; cells are sorted
  // by position. Empty (no marker, no cells) exactly when `before` / `after` is nullopt or a
  // static-only row.
  // Materialized views copy these so view rows carry the base cells' timestamps and expire
  // with them.
  storage::RowFragment before_live;
  storage::RowFragment after_live;
  // The live static cells of the partition (same filtering, per element for collections),
  // before and after; empty when `before` / `after` is nullopt or the partition has none.
  // Index maintenance takes the timestamps of indexed static values from them.
  storage::RowFragment before_static_live;
  storage::RowFragment after_static_live;
};

}  // namespace engine
