// The compaction filter of every table column family: turns expired cells into tombstones,
// drops data that partition and range tombstones shadow, and purges tombstones older than the
// table's gc_grace_seconds (docs/dev/storage_format.md §4-5 docs/dev/storage_format.md §5).
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
//  3. Row-level purge. Purgeable data inside an entry is only dropped in a compaction that
//     includes every file of the column family (`Context::is_full_compaction`, e.g.
//     `Store::CompactTable`). A partial compaction cannot know whether an older file still
//     holds data the tombstone shadows, and dropping it there could resurrect that data.
//     (Cassandra checks overlapping sstables instead.)
//  4. An entry whose fragment becomes empty is removed (RocksDB turns a removed value into a
//     deletion marker, so no older version of the key can reappear).
//  5. RocksDB never passes the result of a merge to the filter: a key written only with `Merge`
//     is filtered from the compaction after the one that folded its operands into a value at
//     the bottom. That is why `Store::CompactTable` runs two full compactions: the first
//     collapses every key into a value, the second filters every value. Merge operands are
//     changed only as invariant 10 says; otherwise they are kept as they are.
//  6. "now" is read once per compaction from the injected `common::Clock` (as Cassandra takes
//     one nowInSec per compaction), so one compaction applies one consistent cut-off.
//  7. A value that does not decode is kept unchanged (the read path reports the corruption;
//     compaction never destroys evidence).
//  8. Covering deletions. With the table's key shape (TableOptions::shape) the filter follows
//     the keys of one compaction in order (one filter per compaction: `max_subcompactions` is
//     1, so a partition is never split between filters). Per partition it records the
//     partition deletion (section 0x10) and the range tombstones (0x30, as RowBoundKey start
//     and end, like the read path) from their values and merge operands, and forgets them
//     when the partition prefix changes. A static row (0x20) is covered by the partition
//     deletion, a row (0x40) also by every range tombstone whose [start, end) holds its key.
//     From a row or static value the filter drops everything the strongest covering deletion
//     D shadows (cells, liveness, row deletion and collection deletions with timestamp <=
//     D.timestamp). That data is dead for good (deletions only grow until they are purged),
//     so this happens in every compaction.
//  9. Partition and range tombstone entries are purged (by invariant 2) only in a compaction
//     made while the factory's `purge_partition_tombstones` flag is on and that is manual and
//     full: `Store::CompactTable` sets the flag for its second pass only. There every key is
//     a value (pass 1 collapsed them), the tombstone's deletion is recorded (invariant 8)
//     before the entry is dropped, and every row it covers comes after it in the same
//     compaction and is cleaned. Never in automatic compactions, where a shadowed row may
//     still be an unmerged operand. A tombstone whose key does not parse is never purged.
// 10. A write that lands between the two passes of `CompactTable` reaches the second one as a
//     merge operand on top of a value the first pass left unfiltered, and the merge result is
//     not filtered (invariant 5). So in the second pass every operand of a covered row or
//     static row gets the covering deletion D added as a row deletion (re-encoded with the
//     merge rules): the full merge then drops what D shadows in the old value although the
//     partition or range tombstone itself is purged. Adding D changes no read: the read path
//     applies the strongest of the row's, the range's and the partition's deletions.
// 11. Without a shape the filter cannot tell a partition or range tombstone from a row, so it
//     never drops an entry's deletion (`RowFragment::deletion`), except in families declared
//     `row_entries_only` (secondary indexes), whose deletions are all row-level. Invariant 8
//     does not apply. A key that does not parse under the shape is treated the same way.
//
// Remaining hazard (as with Cassandra's gc_grace): once a tombstone is purged, a write that
// arrives later with an explicit timestamp older than the tombstone is live again. In
// particular such a write that lands between the two passes of `CompactTable` (or during the
// second) is not shadowed by the tombstone that pass purges.
//
// Thread-safety: the factory is thread-safe (options behind a mutex, the flag atomic, the
// clock thread-safe); each filter is used by one compaction thread at a time, as RocksDB
// requires, and keeps per-compaction state.

#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include <rocksdb/compaction_filter.h>

#include "common/clock.h"
#include "storage/row_fragment.h"
#include "storage/table_options.h"

namespace storage {

// Applies invariants 1, 2 and (when `drop_purgeable`) the drops of invariant 3 to `fragment`;
// the row deletion (`fragment->deletion`) is only dropped when `may_drop_deletion`.
// Returns true when anything changed.
bool PurgeFragment(int64_t now_seconds, int64_t gc_grace_seconds, bool drop_purgeable,
                   RowFragment* fragment, bool may_drop_deletion = true);

// Drops from `fragment` everything `deletion` shadows (invariant 8): cells and the liveness
// marker written at or before deletion.timestamp, and the row deletion and collection
// deletions whose timestamp is <= deletion.timestamp. Returns true when anything changed.
bool DropShadowed(const DeletionTime& deletion, RowFragment* fragment);

class RowFragmentCompactionFilterFactory final : public rocksdb::CompactionFilterFactory {
 public:
  // REQUIRES: `clock` outlives the factory and every filter it creates.
  RowFragmentCompactionFilterFactory(const common::Clock* clock, TableOptions options);

  const char* Name() const override { return "cqld.RowFragmentPurge.v1"; }

  std::unique_ptr<rocksdb::CompactionFilter> CreateCompactionFilter(
      const rocksdb::CompactionFilter::Context& context) override;

  // Replaces the table's options (ALTER TABLE ... gc_grace_seconds, a shape given later).
  // Takes effect for compactions that start afterwards.
  void set_options(TableOptions options);
  TableOptions options() const;
  int64_t gc_grace_seconds() const;

  // Invariant 9: while on, manual full compactions that start also purge partition and range
  // tombstones. `Store::CompactTable` turns it on for its second pass only, holding the
  // table's compaction mutex.
  void set_purge_partition_tombstones(bool on) {
    purge_partition_tombstones_.store(on, std::memory_order_seq_cst);
  }
  bool purge_partition_tombstones() const {
    return purge_partition_tombstones_.load(std::memory_order_seq_cst);
  }

 private:
  const common::Clock* clock_;
  mutable std::mutex mutex_;
  std::shared_ptr<const TableOptions> options_;  // GUARDED_BY(mutex_); never null
  std::atomic<bool> purge_partition_tombstones_{false};
};

}  // namespace storage
