// RowCache: the row cache of the read path (docs/dev/architecture.md "Read path"; Cassandra's
// row_cache_size, ScyllaDB's row cache). It keeps, per partition, slices of what RowReader
// read from storage — the partition-level entries (partition tombstone, static row, range
// tombstones) and the decoded row fragments of the clustering intervals the read covered — so
// that a repeated single-partition SELECT (the hotel's Q4: one hotel's availability over a
// week) is served without a RocksDB iterator and without decoding a fragment per row. A
// partition of a table without clustering columns read by key
// (RowReader::ReadSingleRowPartition) is cached as a compact entry of its own, in a flat index
// beside the slices (partition_row_table.h): its partition tombstone and its one row entry's
// encoded fragment, or no row when it is absent. A repeated point read then needs no RocksDB
// Get, and a write that creates the partition makes the "absent" entry stale like any other.
// Such entries follow every rule below that slices follow (coherence, write-through, bytes);
// a point read of the partition uses only its entry, a paged or multi-interval read only
// slices.
//
// Fragments are cached as stored, not as assembled rows: the reader applies tombstones, TTL
// expiry against its own "now", dropped columns and tombstone counting to cached fragments
// with the very code it applies to fragments read from RocksDB, so a hit returns exactly what
// a miss would, at any later time, with no expiry bookkeeping.
//
// Coherence (storage/partition_versions.h): every slice carries the version snapshot of its
// partition taken before it was read; it is inserted only if that snapshot was quiet and is
// still current after the read, and served only while it is current. Any write to the
// partition (including LWT and batches), and any drop, truncate, option change or full
// compaction of any table, makes it stale (unless the cache brings it up to date: write-through,
// below); stale slices are dropped when met.
//
// Slices of one partition that are current share their version, so they hold the same data:
// Insert unites a new slice with the partition's current ones (their intervals joined where
// they overlap or touch, their rows merged by key) when the union fits in one slice, so that
// reads of shifting windows over a partition (the hotel's availability) come to hit; when it
// does not fit, the new slice is kept alone beside them.
//
// Write-through (`ApplyWrite`, ScyllaDB's cache update on write): the store tells the cache of
// every write (storage::WriteObserver) while the write is visible and still bracketed, and the
// cache applies it to the written partitions' slices instead of leaving them stale, so that a
// partition read between writes (the hotel's availability) keeps hitting. Invariants:
//  W1. Only a slice the write can bring up to date exactly is replaced: its snapshot was quiet,
//      this write's `started` for the stripe is the slice's + 1 (no other change of the stripe
//      began in between: partition_versions.h invariant 5) and the table-wide counters are
//      the slice's and quiet. Any other slice of the partition is stale and dropped.
//  W2. The old slice, once out of the cache and held by no reader, is reused; else copied.
//      Each written fragment of a row inside its intervals is merged into the cached one with
//      MergeFragments, the function RocksDB's merge operator folds operands with; commutative,
//      associative (cell_merge.h invariant 5): so merging the cached merged value with the
//      operand gives the bytes a read would get. A row not cached but inside an interval had
//      no entry (the slice is complete there), so it becomes Canonical(operand), which is what
//      a read of a lone operand gets. Static row: merged into `level.statics` alike. Rows
//      outside the intervals are not the slice's business.
//  W3. What the cache holds may differ from what RocksDB holds in read-equivalent ways only:
//      compaction rewrites expired cells as tombstones and purges tombstones and dead markers
//      past gc_grace (compaction_filter.h). Merging a write into the two forms gives the same
//      read unless the write holds a timestamp at or below one of those rewritable items, so
//      such a write drops the partition's slices instead. Data dropped because a partition or
//      range tombstone shadows it is shadowed in both forms, before and after the write.
//  W4. Partition and range tombstones, keys that do not parse, tables without a key shape and
//      a result above `max_slice_bytes` drop the slices instead (a later read fills again).
//  W5. The new slice is tagged {started = finished = the write's number, table-wide counters
//      unchanged} and goes in through `Insert`, which keeps it only while it is current: so a
//      second writer of the stripe that began meanwhile leaves it non-current for good, and a
//      reader's slice of the old version can no longer go in (its snapshot is not current).
// Doing nothing is always safe: the write's Begin has already made the slices stale.
//
// Bounded by bytes (an estimate of the memory a slice or entry holds); least recently used
// slices are evicted first, single-row entries by CLOCK (partition_row_table.h), each shard
// evicting from whichever of the two holds more of its bytes. Sharded by partition, each
// shard with its own lock, LRU list, row table and hit/miss counters. The capacity is the
// cache's, not a shard's: a shard may hold more than its share (capacity / kShards) while the
// cache as a whole has room, since a few large partitions (the hotel's availability, one per
// hotel) rarely hash evenly over 16 shards; with a capacity per shard they evicted each other
// while most of the cache stood empty. When the cache is over its capacity, entries are
// evicted from shards holding more than their share (one exists whenever the cache is over):
// first from the inserting shard, then from the others in turn, each under its own lock, the
// inserting shard's released first. Concurrent inserts may pass the capacity by what they
// insert at the same moment, until their eviction passes run. Find and
// FindRow look a partition up by its (table id, prefix) pair as given, without building the
// PartitionKey string the shard's map is keyed by.
//
// Thread-safety: thread-safe. Slices are immutable once inserted and shared: a reader keeps
// its slice alive while it reads it, even if it is evicted meanwhile.

#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/bytes.h"
#include "common/metrics.h"
#include "engine/partition_row_table.h"
#include "engine/row_reader.h"
#include "storage/partition_versions.h"
#include "storage/row_fragment.h"
#include "storage/store.h"

namespace engine {

// One row entry of a cached slice, as stored, with its clustering values decoded from `key`
// when the read that filled the slice found the row live (empty otherwise: a hit decodes them
// from the key then). They depend on the key alone, so they stay true for the slice's life.
// They are packed in one string, each value as the protocol's [bytes] (its length as 4 bytes,
// big-endian, then the value), which short values keep inline: no allocation per row to fill
// or free.
struct CachedRow {
  common::Bytes key;
  storage::RowFragment fragment;
  common::Bytes clustering;
};

// What one read of a partition saw: complete for `intervals` (every row entry whose key lies
// in one of them is in `rows`, in key order).
struct CachedSlice {
  storage::PartitionVersions::Snapshot version;  // taken before the read; quiet
  std::vector<KeyInterval> intervals;            // sorted, not overlapping
  PartitionLevel level;
  std::vector<CachedRow> rows;
  size_t bytes = 0;  // EstimateBytes(): set by the reader, kept by write-through

  // Whether every interval of `wanted` lies inside one of `intervals`.
  bool Covers(std::span<const KeyInterval> wanted) const;
  // The memory the slice holds, roughly (keys, values, per-cell and per-row overheads).
  size_t EstimateBytes() const;
};

// One slice holding what `newest` and each of `others` hold: their intervals united
// (overlapping and touching ones joined) and their rows merged by key, each key once. A slice
// that nothing else holds gives its rows up (moved, not copied); `newest` then becomes the
// union itself.
// REQUIRES: every slice has the same version as `newest` (so the same partition level, and
// the same entry under any key two of them hold).
std::shared_ptr<const CachedSlice> UniteSlices(
    std::shared_ptr<const CachedSlice> newest,
    std::vector<std::shared_ptr<const CachedSlice>> others);

class RowCache : public storage::WriteObserver {
 public:
  struct Statistics {
    uint64_t hits = 0;
    uint64_t misses = 0;
    uint64_t evictions = 0;  // slices and entries dropped for room (not stale ones)
    uint64_t used_bytes = 0;
    uint64_t capacity_bytes = 0;
    uint64_t slices = 0;  // slices and single-row entries
  };

  // REQUIRES: `capacity_bytes` > 0 (a database without a row cache has no RowCache).
  explicit RowCache(size_t capacity_bytes);
  RowCache(const RowCache&) = delete;
  RowCache& operator=(const RowCache&) = delete;

  // A current slice of the partition `prefix` of table `table_id` that covers `intervals`, or
  // null (a miss). Stale slices of the partition met on the way are dropped.
  std::shared_ptr<const CachedSlice> Find(std::string_view table_id, std::string_view prefix,
                                          std::span<const KeyInterval> intervals,
                                          const storage::PartitionVersions& versions);
  // Keeps `slice` if its version was quiet and is still current and it fits (at most half a
  // shard's capacity), replacing the partition's slices it covers and evicting the least
  // recently used slices for room. When the partition holds current slices of the same
  // version that `slice` does not cover, and all of them together fit, it keeps their union
  // (UniteSlices) instead, so that reads of shifting windows come to hit. Returns whether it
  // kept a slice.
  bool Insert(std::string_view table_id, std::string_view prefix,
              std::shared_ptr<const CachedSlice> slice, const storage::PartitionVersions& versions);

  // The single-row entry of the partition `prefix` of table `table_id` while it is current,
  // or null (a miss). A stale entry met is dropped.
  std::shared_ptr<const CachedPartitionRow> FindRow(std::string_view table_id,
                                                    std::string_view prefix,
                                                    const storage::PartitionVersions& versions);
  // Keeps `entry` (made for this partition) if its version was quiet and is still current and
  // it fits, replacing the partition's entry and evicting for room. Returns whether it kept it.
  bool InsertRow(std::shared_ptr<const CachedPartitionRow> entry,
                 const storage::PartitionVersions& versions);

  // Applies a successful store write to the cached slices of the partitions it wrote
  // (write-through, invariants W1-W5): each such slice is replaced by one with the write
  // merged in, or dropped when that cannot be done exactly. Costs one relaxed load when the
  // cache is empty, one shard lookup per written partition otherwise. REQUIRES: called as
  // storage::WriteObserver is (after the write is visible, before its End).
  void ApplyWrite(std::span<const storage::WrittenMerge> merges,
                  const storage::PartitionVersions& versions);
  void Written(std::span<const storage::WrittenMerge> merges,
               const storage::PartitionVersions& versions) override {
    ApplyWrite(merges, versions);
  }
  // Whether a point read that missed should fill the cache. While the cache has room (more
  // than 1/64 of its capacity free), every miss is: an admission evicts nothing, and a working
  // set that fits comes to be cached in one pass. While it is full, where every admission
  // evicts, the first miss of a partition is only remembered (in a table of recent misses, one
  // hash per slot, lock-free), and only one second miss in kFullAdmission (at random) while it
  // is remembered admits it: a working set far larger than the cache then does not pay an
  // insert and an eviction on every miss for entries that would be evicted unread, and the
  // cached rows keep being served to a working set somewhat larger than the cache instead of
  // being churned.
  bool Admit(std::string_view table_id, std::string_view prefix);
  static constexpr uint32_t kFullAdmission = 8;

  // The largest slice Insert keeps (half a shard's capacity).
  size_t max_slice_bytes() const { return shard_capacity_ / 2; }

  Statistics statistics() const;
  size_t capacity_bytes() const { return capacity_bytes_; }

 private:
  static constexpr size_t kShards = 16;
  // Slices kept per partition at most; an insert beyond it drops the partition's oldest.
  static constexpr size_t kSlicesPerPartition = 8;

  struct Entry {
    std::string partition;  // the key of Shard::partitions
    std::shared_ptr<const CachedSlice> slice;
  };
  using EntryList = std::list<Entry>;
  // A partition as Find is given it: looked up without building its PartitionKey string.
  struct PartitionRef {
    std::string_view table_id;
    std::string_view prefix;
  };
  // Hashes and compares PartitionKey strings and PartitionRefs alike (heterogeneous lookup).
  struct PartitionHash {
    using is_transparent = void;
    size_t operator()(const PartitionRef& partition) const;
    size_t operator()(const std::string& partition) const;
  };
  struct PartitionEqual {
    using is_transparent = void;
    bool operator()(const std::string& a, const std::string& b) const { return a == b; }
    bool operator()(const PartitionRef& a, const std::string& b) const;
    bool operator()(const std::string& a, const PartitionRef& b) const { return (*this)(b, a); }
  };
  struct Shard {
    std::mutex mutex;
    EntryList lru;  // GUARDED_BY(mutex); most recently used first
    // GUARDED_BY(mutex); per partition, its entries in `lru`, oldest insert first.
    std::unordered_map<std::string, std::vector<EntryList::iterator>, PartitionHash, PartitionEqual>
        partitions;
    PartitionRowTable rows;  // GUARDED_BY(mutex); single-row entries
    size_t bytes = 0;        // GUARDED_BY(mutex); of slices and entries
    // Counted under the mutex, per shard, so that readers on different cores do not contend
    // for one counter's cache line; atomic only for statistics(), which reads without it.
    std::atomic<uint64_t> hits{0};
    std::atomic<uint64_t> misses{0};
  };

  static std::string PartitionKey(std::string_view table_id, std::string_view prefix);
  // The (table id, prefix) pair of a PartitionKey string.
  static PartitionRef Split(const std::string& partition);
  // Takes out of the cache the partition's current slices of `slice`'s version that it does
  // not cover, if they fit in one slice with it (by the sum of their bytes); else none.
  // Locks the shard.
  std::vector<std::shared_ptr<const CachedSlice>> SlicesToUnite(
      Shard& shard, const std::string& partition, const CachedSlice& slice,
      const storage::PartitionVersions& versions);
  Shard& ShardOf(const PartitionRef& partition);
  Shard& ShardOf(const std::string& partition) { return ShardOf(Split(partition)); }
  // Evicts slices (into `dropped`) and entries (into `dropped_rows`) from `shard` while the
  // cache is over its capacity and the shard over its share. REQUIRES: shard.mutex held.
  void EvictForRoom(Shard& shard, std::vector<std::shared_ptr<const CachedSlice>>& dropped,
                    std::vector<std::shared_ptr<const CachedPartitionRow>>& dropped_rows);
  // Evicts one slice or entry of `shard`, from whichever kind holds more of its bytes.
  // REQUIRES: shard.mutex held, shard.bytes > 0.
  void EvictOne(Shard& shard, std::vector<std::shared_ptr<const CachedSlice>>& dropped,
                std::vector<std::shared_ptr<const CachedPartitionRow>>& dropped_rows);
  // While the cache is over its capacity, EvictForRoom on the other shards in turn, one pass
  // at most. REQUIRES: no shard's mutex held.
  void EvictFromOtherShards();
  // Takes the single-row entry of `partition` out of `shard`; null when it has none.
  // REQUIRES: shard.mutex held.
  std::shared_ptr<const CachedPartitionRow> TakeRow(Shard& shard, const PartitionRef& partition);
  // Removes the entry `position` of `slices` (the partition's list in `shard`), and the list
  // when it becomes empty; returns its slice, for the caller to release after unlocking.
  // REQUIRES: shard.mutex held.
  std::shared_ptr<const CachedSlice> Remove(Shard& shard, const std::string& partition,
                                            size_t position);

  // The merge operations of one store write to one partition with cached slices.
  struct WrittenPartition {
    std::string partition;  // PartitionKey
    std::string_view table_id;
    std::string_view prefix;
    const storage::KeyShape* shape = nullptr;  // the table's
    size_t stripe = 0;
    uint64_t started = 0;  // the write's number in `stripe`
    std::vector<const storage::WrittenMerge*> merges;
  };
  // Whether the cache holds a slice or a single-row entry of `partition`.
  bool Holds(const std::string& partition);
  // ApplyWrite for one partition: takes its slices and entry out, and puts back those W1
  // allows, updated.
  void ApplyToPartition(const WrittenPartition& written,
                        const storage::PartitionVersions& versions);

  const size_t capacity_bytes_;
  const size_t shard_capacity_;
  std::array<Shard, kShards> shards_;
  // Admit's table: partition hashes (0: empty slot), a power of two of them.
  const size_t recent_miss_slots_;
  std::unique_ptr<std::atomic<uint64_t>[]> recent_misses_;
  std::atomic<uint64_t> evictions_{0};
  std::atomic<uint64_t> used_bytes_{0};
  std::atomic<size_t> next_eviction_shard_{0};  // EvictFromOtherShards' turn
  std::atomic<uint64_t> slices_{0};
};

// The cache's figures as metrics: cqld_row_cache_{hits,misses,evictions}_total and
// cqld_row_cache_{size,capacity}_bytes, cqld_row_cache_entries.
void WriteRowCacheMetrics(common::metrics::SampleWriter& writer,
                          const RowCache::Statistics& statistics);

}  // namespace engine
