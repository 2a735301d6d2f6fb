// Change capture: the base-table rows a write changes, before and after it (row_change.h),
// computed without writing anything — the input of view and index maintenance
// (docs/dev/storage_format.md §7-8).
//
// Pipeline position: a write to a table with views or indexes holds the write gate (shared)
// and the partition locks of every partition it touches, builds its mutations, and calls
// `CaptureChanges`; the maintenance code turns the changes into more mutations for the same
// WriteBatch. Backfill (`ForEachBaseRow`) walks a table's existing rows the same way.
//
// How "after" is computed: the stored entries of each touched partition are read — always its
// partition-level entries (partition tombstone, static row, range tombstones); then the row
// entries the mutations can affect: the row itself for a row mutation, every stored row in the
// covered slice for a range tombstone, every stored row for a partition tombstone (and for a
// static-row change when `statics_matter`). The mutations' fragments are merged into those
// entries in memory with the merge operator's own rules (storage/cell_merge.h), and both
// versions are assembled exactly as RowReader assembles rows for SELECT. When statics matter
// and a side has live static cells but none of the rows read is live on it, the rest of the
// partition's rows are scanned up to the first live one, to tell whether the partition shows a
// static-only row on that side (row_change.h).
//
// Invariants:
//  1. The caller holds the partition locks of every partition of `mutations`, so nothing else
//     writes those partitions between the read here and the caller's Store::Write, and
//     "after" is what a SELECT will read once the batch is written (at the same "now").
//  2. One RowChange per touched row key at most, ordered by partition then row key; a row
//     that is absent both before and after is left out. With `statics_matter`, a partition
//     that shows a static-only row before or after the write gets one RowChange for it, first
//     among the partition's changes (the static row's key sorts first).
//
// Thread-safety: pure functions over a thread-safe Store.

#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "common/result.h"
#include "engine/execution_context.h"
#include "engine/modification_statement.h"
#include "engine/row_change.h"
#include "engine/table_schema.h"
#include "storage/store.h"

namespace engine {

// The rows `mutations` change. `now_seconds` decides TTL expiry for both versions.
// `statics_matter`: whether a change to the static row alone must report every row of the
// partition, and static-only rows must be reported (true when something maintained depends on
// static columns).
// REQUIRES: every mutation is for `base`'s table (same key shape and storage id); the
// partition locks of their partitions are held (invariant 1).
// Errors: the store's (IOError, Corruption).
common::Result<std::vector<RowChange>> CaptureChanges(const storage::Store& store,
                                                      const TableSchema& base,
                                                      std::span<const Mutation> mutations,
                                                      int64_t now_seconds, bool statics_matter);

// Called by ForEachBaseRow with the rows of one partition (RowChanges with no `before`), the
// "now" they were read at, and the batch that is written once it returns.
using BackfillFunction = std::function<common::Status(
    std::span<const RowChange> rows, int64_t now_seconds, storage::WriteBatch* batch)>;

// Backfill: for each partition of `base` in token order, takes its partition lock, reads its
// live rows (or its static-only row), calls `fill`, writes the batch `fill` filled (when not empty)
// and releases the lock. Stops at the first error. REQUIRES: context.store, context.locks and
// context.clock set; `base` outlives the call.
common::Status ForEachBaseRow(const ExecutionContext& context, const TableSchema& base,
                              const BackfillFunction& fill);

}  // namespace engine
