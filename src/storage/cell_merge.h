// Cell-by-cell merging of row fragments: the reconcile rules every read and every RocksDB merge
// applies (docs/dev/storage_format.md §4-5). Pure functions over row_fragment.h types.
//
// Design (numbered invariants; tests in cell_merge_test.cc check each):
//
//  1. Cell reconcile (Cassandra 4 `Cells.reconcile` for regular cells, after CASSANDRA-14592):
//     a. the higher write timestamp wins;
//     b. equal timestamps: a tombstone or expiring cell beats a live (non-expiring) cell;
//     c. then a tombstone beats an expiring cell;
//     d. both tombstones or both expiring: the later local deletion/expiration time wins;
//     e. then the greater value bytes (unsigned lexicographic compare) win;
//     f. still tied (only possible for equal-valued expiring cells with different TTLs, or
//        exact duplicates): the larger TTL wins. Cassandra returns its left argument here;
//        we break the tie so that merging is commutative.
//     The rule never consults "now", so reconcile gives the same answer on every node and at
//     every time, which is what makes blind writes converge.
//  2. Deletions (row, collection, partition, range) merge by `DeletionTime::Supersedes`: the
//     higher timestamp, then the later local deletion time.
//  3. Liveness markers (Cassandra `LivenessInfo.supersedes`): the higher timestamp wins; equal
//     timestamps: an expiring marker beats a non-expiring one; both expiring: the later
//     expiration wins; then the larger TTL.
//  4. Shadowing: a row deletion D removes every cell and the liveness marker with timestamp
//     <= D.timestamp, and every collection deletion it supersedes. A collection deletion C of
//     column k removes the cells of column k that have a path and timestamp <= C.timestamp.
//     Shadowed data is dropped from the merged fragment (it can never become visible again,
//     because deletions only grow under merge).
//  5. `MergeFragments` is commutative and associative, and `MergeFragments(a, a) ==
//     Canonical(a)`: the result is a function of the multiset of inputs, so RocksDB may merge
//     operands in any grouping (PartialMergeMulti, FullMergeV2, across compactions) and reach
//     the same bytes.
//  6. No clock is read here: expiry-dependent purging belongs to the compaction filter
//     (compaction_filter.h), which may only turn an expired cell into an equivalent tombstone
//     or drop data that is past gc_grace.
//
// Thread-safety: pure functions.

#pragma once

#include <compare>
#include <span>

#include "storage/row_fragment.h"

namespace storage {

// Orders two cells at the same position by invariant 1: `greater` means `a` wins.
// `equal` only when the cells are identical in every field the order looks at.
std::strong_ordering CompareForReconcile(const Cell& a, const Cell& b);

// The winner of two cells at the same position (invariant 1).
// REQUIRES: CompareCellPosition(a, b) == equal.
const Cell& ReconcileCells(const Cell& a, const Cell& b);

// The later of two deletions (invariant 2).
const DeletionTime& MergeDeletion(const DeletionTime& a, const DeletionTime& b);

// True when marker `a` wins over marker `b` (invariant 3).
bool LivenessSupersedes(const LivenessInfo& a, const LivenessInfo& b);

// Drops data shadowed inside `fragment` itself (invariant 4) and sorts its cells, merging
// cells that share a position. The result is the canonical form MergeFragments returns.
RowFragment Canonical(RowFragment fragment);

// True when `fragment` is already in canonical form (Canonical(fragment) == fragment): its
// cells sorted and unique and nothing in it shadowed by its own deletions (invariant 4).
bool IsCanonical(const RowFragment& fragment);

// Merges two fragments of the same key (invariants 1–5). Inputs need not be canonical; the
// result is canonical. Taken by value: callers done with their fragments move them in, and
// the cells are moved rather than copied.
RowFragment MergeFragments(RowFragment a, RowFragment b);

// Merges any number of fragments (same result as folding MergeFragments); empty input gives an
// empty fragment.
RowFragment MergeAllFragments(std::span<const RowFragment> fragments);

}  // namespace storage
