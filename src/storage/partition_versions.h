// PartitionVersions: write counters per partition stripe, so that a cache above the store
// (engine/row_cache.h) can tell whether what it read from RocksDB is still what a read would
// return now, without the store knowing about the cache.
//
// A partition of a table maps to one of `kStripes` stripes by a hash of the table id and the
// partition's token (the first 8 bytes of every key of the partition: key_layout.h), so
// partitions sharing a stripe only cost each other spurious misses. Each stripe, and one
// table-wide stripe for operations that change many partitions at once, holds two counters:
// `started` and `finished`.
//
// Invariants (numbered because the cache's correctness rests on them):
//  1. Every change of a table's visible data is bracketed: `started` of each stripe it touches
//     is incremented before RocksDB sees the change and `finished` after the change is visible
//     to reads (or has failed). Store::Write brackets the stripes of the partitions it merges
//     into; DropTable, TruncateTable, CompactTable and AlterTable bracket the table-wide
//     stripe (`BeginAll`/`EndAll`), which every snapshot includes.
//  2. A `Snapshot` taken before a read is `Quiet()` when no bracketed change was in progress:
//     every change that had started had also finished, so the read that follows sees them all.
//  3. If `Current(snapshot)` holds after the read, no change started since the snapshot, so
//     the read returned the data as of that moment: a cache may keep it, tagged with the
//     snapshot.
//  4. A cached copy tagged with a snapshot is current while `Current(snapshot)` holds; once any
//     change to the stripe (or table-wide) starts, it is not, and it never becomes so again
//     (counters only grow).
//  5. Write-through (engine/row_cache.h `ApplyWrite`). A change that Begin numbered `n` is the
//     only change of its stripe that started after a snapshot with `started == n - 1`. So a
//     copy tagged with such a snapshot (quiet, and with the table-wide counters unchanged),
//     with exactly this change applied to it, is the data as of this change: it may be tagged
//     {started = finished = n} while the change is still bracketed (after it is visible, before
//     its End). By (4) that copy is current exactly while no later change has started.
// Counters are sequentially consistent atomics, so (3) cannot see an unchanged `started` while
// the read missed a change that incremented it first.
//
// Thread-safety: thread-safe; lock-free.

#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace storage {

class PartitionVersions {
 public:
  static constexpr size_t kStripes = 4096;

  // The counters of one stripe and of the table-wide stripe at one moment.
  struct Snapshot {
    size_t stripe = 0;
    uint64_t started = 0;
    uint64_t finished = 0;
    uint64_t all_started = 0;
    uint64_t all_finished = 0;

    // No bracketed change was in progress when it was taken (invariant 2).
    bool Quiet() const { return started == finished && all_started == all_finished; }
  };

  // The stripe of the partition whose keys start with `key_or_prefix` (any key of the
  // partition, or its prefix) in table `table_id`.
  static size_t StripeOf(std::string_view table_id, std::string_view key_or_prefix);

  Snapshot Take(size_t stripe) const {
    Snapshot snapshot;
    snapshot.stripe = stripe;
    snapshot.all_started = all_.started.load();
    snapshot.all_finished = all_.finished.load();
    snapshot.started = stripes_[stripe].started.load();
    snapshot.finished = stripes_[stripe].finished.load();
    return snapshot;
  }
  // No change of the snapshot's stripe, nor a table-wide one, has started since it was taken
  // (invariants 3 and 4).
  bool Current(const Snapshot& snapshot) const {
    return stripes_[snapshot.stripe].started.load() == snapshot.started &&
           all_.started.load() == snapshot.all_started;
  }

  // Bracket a change of the partitions of `stripe` (invariant 1). Every Begin needs its End.
  // Begin returns the stripe's `started` as this change made it: its own number, which no
  // other change of the stripe gets (invariant 5).
  uint64_t Begin(size_t stripe) { return stripes_[stripe].started.fetch_add(1) + 1; }
  void End(size_t stripe) { stripes_[stripe].finished.fetch_add(1); }
  // Bracket a change of any number of partitions of any table.
  void BeginAll() { all_.started.fetch_add(1); }
  void EndAll() { all_.finished.fetch_add(1); }

 private:
  struct Stripe {
    std::atomic<uint64_t> started{0};
    std::atomic<uint64_t> finished{0};
  };
  std::array<Stripe, kStripes> stripes_;
  Stripe all_;
};

}  // namespace storage
