// The compaction filter of every table column family: turns expired cells into tombstones and
// purges tombstones older than the table's gc_grace_seconds (ARCHITECTURE.md §4.1).
//
// Design (numbered invariants):
//
//  1. Expiry. An expiring cell with local expiration time <= now is dead; it is rewritten as a
//     tombstone with the same write timestamp and local deletion time = expiration - ttl (the
//     write time), as Cassandra's `AbstractCell.purge` does. The rewrite is equivalent for
//     reads and for reconcile against older data, so it is done in every compaction.
//  2. gc_before = now - gc_grace_seconds. A tombstone cell, row deletion or collection deletion
//     whose local deletion time < gc_before is purgeable; so is a dead expiring liveness
//     marker whose expiration < gc_before.
//  3. Purgeable data is only dropped in a compaction that includes every file of the column
//     family (`Context::is_full_compaction`, e.g. `Store::CompactTable`). A partial compaction
//     cannot know whether an older file still holds data the tombstone shadows, and dropping
//     it there could resurrect that data. (Cassandra checks overlapping sstables instead.)
//  4. An entry whose fragment becomes empty is removed.
//  5. Merge operands are never changed or dropped; only fully merged values are (the merge
//     operator folds operands into a value at the bottom of the tree).
//  6. "now" is read once per compaction from the injected `common::Clock` (as Cassandra takes
//     one nowInSec per compaction), so one compaction applies one consistent cut-off.
//  7. A value that does not decode is kept unchanged (the read path reports the corruption;
//     compaction never destroys evidence).
//
// Thread-safety: the factory is thread-safe (gc_grace is atomic, the clock is thread-safe);
// each filter is used by one compaction thread at a time, as RocksDB requires.

#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include <rocksdb/compaction_filter.h>

#include "common/clock.h"
#include "storage/row_fragment.h"

namespace storage {

// Applies invariants 1, 2 and (when `drop_purgeable`) the drops of invariant 3 to `fragment`.
// Returns true when anything changed.
bool PurgeFragment(int64_t now_seconds, int64_t gc_grace_seconds, bool drop_purgeable,
                   RowFragment* fragment);

class RowFragmentCompactionFilterFactory final : public rocksdb::CompactionFilterFactory {
 public:
  // REQUIRES: `clock` outlives the factory and every filter it creates.
  RowFragmentCompactionFilterFactory(const common::Clock* clock, int64_t gc_grace_seconds)
      : clock_(clock), gc_grace_seconds_(gc_grace_seconds) {}

  const char* Name() const override { return "cqld.RowFragmentPurge.v1"; }

  std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
      const rocksdb::CompactionFilter::Context& context) override;

  // Takes effect for compactions that start afterwards (ALTER TABLE ... gc_grace_seconds).
  void set_gc_grace_seconds(int64_t seconds) {
    gc_grace_seconds_.store(seconds, std::memory_order_relaxed);
  }
  int64_t gc_grace_seconds() const { return gc_grace_seconds_.load(std::memory_order_relaxed); }

 private:
  const common::Clock* clock_;
  std::atomic<int64_t> gc_grace_seconds_;
};

}  // namespace storage
