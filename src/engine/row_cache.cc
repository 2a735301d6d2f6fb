#include "engine/row_cache.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <utility>

#include "storage/cell_merge.h"
#include "storage/key_layout.h"

namespace engine {

namespace {

// Per-object overheads of the estimate: a heap block's header and rounding, a cell's fixed
// part, a row's vector and key.
constexpr size_t kAllocation = 16;

size_t BytesOf(const common::Bytes& bytes) {
  // Short strings live inside the object (counted with it).
  return bytes.capacity() > 15 ? bytes.capacity() + kAllocation : 0;
}

size_t BytesOf(const storage::RowFragment& fragment) {
  size_t total = fragment.cells.capacity() * sizeof(storage::Cell) + kAllocation;
  for (const storage::Cell& cell : fragment.cells) {
    total += BytesOf(cell.value);
    if (cell.path) total += BytesOf(*cell.path);
  }
  // std::map nodes: the pair plus three pointers and a colour.
  total += fragment.collection_deletions.size() *
           (sizeof(std::pair<const uint32_t, storage::DeletionTime>) + 32 + kAllocation);
  return total;
}

bool Contains(const KeyInterval& outer, const KeyInterval& inner) {
  return outer.start <= inner.start && inner.end <= outer.end;
}

// Whether two snapshots are the same moment of the same stripe: slices tagged with them hold
// the same data.
bool SameVersion(const storage::PartitionVersions::Snapshot& a,
                 const storage::PartitionVersions::Snapshot& b) {
  return a.stripe == b.stripe && a.started == b.started && a.finished == b.finished &&
         a.all_started == b.all_started && a.all_finished == b.all_finished;
}

// The intervals of `a` and `b` (each sorted, not overlapping) as one such list: overlapping
// and touching intervals become one.
std::vector<KeyInterval> UniteIntervals(const std::vector<KeyInterval>& a,
                                        const std::vector<KeyInterval>& b) {
  std::vector<KeyInterval> all;
  all.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(all),
             [](const KeyInterval& x, const KeyInterval& y) { return x.start < y.start; });
  std::vector<KeyInterval> united;
  for (KeyInterval& interval : all) {
    if (!united.empty() && interval.start <= united.back().end) {
      if (united.back().end < interval.end) united.back().end = std::move(interval.end);
    } else {
      united.push_back(std::move(interval));
    }
  }
  return united;
}

// The rows of `a` and `b` (each in key order, each key once) in key order, each key once.
// Slices of one version hold the same entry under the same key, so either will do.
std::vector<CachedRow> UniteRows(std::vector<CachedRow> a, std::vector<CachedRow> b) {
  std::vector<CachedRow> united;
  united.reserve(a.size() + b.size());
  std::set_union(std::make_move_iterator(a.begin()), std::make_move_iterator(a.end()),
                 std::make_move_iterator(b.begin()), std::make_move_iterator(b.end()),
                 std::back_inserter(united),
                 [](const CachedRow& x, const CachedRow& y) { return x.key < y.key; });
  return united;
}

// A slice that may be changed, holding what `old` holds: `old` itself when nothing else holds
// it (it is out of the cache, so nothing can start to), which spares copying every row on
// every write; a copy otherwise. Every slice is made as a mutable CachedSlice (RowReader), so
// changing it through the cast is defined.
std::shared_ptr<CachedSlice> Writable(std::shared_ptr<const CachedSlice> old) {
  if (old.use_count() == 1) {
    // The last other holder's release of its reference happens before what follows.
    std::atomic_thread_fence(std::memory_order_acquire);
    return std::const_pointer_cast<CachedSlice>(std::move(old));
  }
  auto copy = std::make_shared<CachedSlice>(*old);
  // Recounted: the copy's vectors and strings hold no spare capacity, which the estimate counts.
  copy->bytes = copy->EstimateBytes();
  return copy;
}

// The rows of `slice`: moved out of it when nothing else holds it, else copied.
std::vector<CachedRow> TakeRows(std::shared_ptr<const CachedSlice> slice) {
  return std::move(Writable(std::move(slice))->rows);
}

// The lowest write timestamp anywhere in `fragment` (max when it holds nothing).
int64_t LowestTimestamp(const storage::RowFragment& fragment) {
  int64_t lowest = std::numeric_limits<int64_t>::max();
  if (fragment.liveness) lowest = std::min(lowest, fragment.liveness->timestamp);
  if (fragment.deletion) lowest = std::min(lowest, fragment.deletion->timestamp);
  for (const auto& [column, deletion] : fragment.collection_deletions) {
    lowest = std::min(lowest, deletion.timestamp);
  }
  for (const storage::Cell& cell : fragment.cells) lowest = std::min(lowest, cell.timestamp);
  return lowest;
}

// The highest timestamp of what compaction may rewrite or purge in `fragment` (row_cache.h
// invariant W3): expiring cells and markers, tombstone cells, row and collection deletions.
// Min when there is none.
int64_t HighestRewritableTimestamp(const storage::RowFragment& fragment) {
  int64_t highest = std::numeric_limits<int64_t>::min();
  if (fragment.liveness && fragment.liveness->expiring()) highest = fragment.liveness->timestamp;
  if (fragment.deletion) highest = std::max(highest, fragment.deletion->timestamp);
  for (const auto& [column, deletion] : fragment.collection_deletions) {
    highest = std::max(highest, deletion.timestamp);
  }
  for (const storage::Cell& cell : fragment.cells) {
    if (cell.kind != storage::CellKind::kLive) highest = std::max(highest, cell.timestamp);
  }
  return highest;
}

// Merges the written fragment into the cached one as a read after the write would see it
// (invariants W2, W3): false, leaving `*cached` as it was, when that is not sure.
bool MergeWritten(const storage::RowFragment& written, storage::RowFragment* cached) {
  if (LowestTimestamp(written) <= HighestRewritableTimestamp(*cached)) return false;
  *cached = storage::MergeFragments(*cached, written);
  return true;
}

// Whether the storage key `key` lies in one of `intervals` (sorted, not overlapping).
bool InIntervals(const std::vector<KeyInterval>& intervals, std::string_view key) {
  auto after = std::upper_bound(
      intervals.begin(), intervals.end(), key,
      [](std::string_view k, const KeyInterval& interval) { return k < interval.start; });
  return after != intervals.begin() && key < std::string_view(std::prev(after)->end);
}

// The length of the partition prefix `merge.key` starts with; nullopt when it cannot be told.
std::optional<size_t> PrefixSize(const storage::WrittenMerge& merge) {
  if (merge.shape == nullptr) return std::nullopt;
  common::Result<size_t> size = storage::PartitionPrefixSize(*merge.shape, merge.key);
  return size.ok() ? std::optional<size_t>(*size) : std::nullopt;
}

// One written entry of a partition, decoded.
struct WrittenEntry {
  std::string_view key;
  storage::RowFragment fragment;
};

// `slice` with `entries` (all of partition `prefix`) applied, tagged `version`; null (and
// `slice` left half changed) when that cannot be done exactly (invariants W2-W4).
std::shared_ptr<CachedSlice> UpdatedSlice(std::shared_ptr<CachedSlice> slice,
                                          std::string_view prefix,
                                          std::span<const WrittenEntry> entries,
                                          const storage::PartitionVersions::Snapshot& version) {
  // The slice's size is kept as EstimateBytes() computes it, by what each entry changes, rather
  // than recomputed over every row of the slice on every write. (Unsigned arithmetic: the
  // running total may pass below a size it will get back to, the result is exact.)
  size_t bytes = slice->bytes;
  for (const WrittenEntry& entry : entries) {
    if (entry.key.size() <= prefix.size()) return nullptr;
    auto section = static_cast<storage::KeySection>(static_cast<uint8_t>(entry.key[prefix.size()]));
    if (section == storage::KeySection::kStaticRow) {
      if (entry.key.size() != prefix.size() + 1) return nullptr;
      if (!slice->level.statics) {
        slice->level.statics = storage::Canonical(entry.fragment);
      } else {
        bytes -= BytesOf(*slice->level.statics);
        if (!MergeWritten(entry.fragment, &*slice->level.statics)) return nullptr;
      }
      bytes += BytesOf(*slice->level.statics);
      continue;
    }
    if (section != storage::KeySection::kRow) return nullptr;  // partition or range tombstone
    if (!InIntervals(slice->intervals, entry.key)) continue;
    auto at = std::lower_bound(
        slice->rows.begin(), slice->rows.end(), entry.key,
        [](const CachedRow& row, std::string_view key) { return std::string_view(row.key) < key; });
    if (at != slice->rows.end() && std::string_view(at->key) == entry.key) {
      bytes -= BytesOf(at->fragment);
      if (!MergeWritten(entry.fragment, &at->fragment)) return nullptr;
      bytes += BytesOf(at->fragment);
    } else {
      const size_t capacity = slice->rows.capacity();
      at = slice->rows.insert(
          at, CachedRow{common::Bytes(entry.key), storage::Canonical(entry.fragment), {}});
      bytes += (slice->rows.capacity() - capacity) * sizeof(CachedRow) + BytesOf(at->key) +
               BytesOf(at->fragment) + BytesOf(at->clustering);
    }
  }
  slice->version = version;
  slice->bytes = bytes;
  return slice;
}

// `entry` (a single-row entry of partition `prefix`, whose row key is `row_key`) with
// `entries` applied, tagged `version`: the entry as a slice of the whole partition, updated
// by UpdatedSlice, and back; null when that cannot be done exactly.
std::shared_ptr<const CachedPartitionRow> UpdatedRow(
    const CachedPartitionRow& entry, std::string_view prefix, std::string_view row_key,
    std::span<const WrittenEntry> entries, const storage::PartitionVersions::Snapshot& version) {
  auto slice = std::make_shared<CachedSlice>();
  slice->level.deletion = entry.deletion;
  slice->intervals.push_back(KeyInterval{common::Bytes(prefix), storage::PartitionEndKey(prefix)});
  if (entry.has_row) {
    common::Result<storage::RowFragment> row = storage::DecodeRowFragment(entry.encoded_row());
    if (!row.ok()) return nullptr;
    slice->rows.push_back(CachedRow{common::Bytes(row_key), std::move(row).value(), {}});
  }
  slice->bytes = slice->EstimateBytes();
  slice = UpdatedSlice(std::move(slice), prefix, entries, version);
  // A table without clustering columns has one row key; anything else is not this entry's.
  if (slice == nullptr || slice->rows.size() > 1 ||
      (!slice->rows.empty() && slice->rows[0].key != row_key)) {
    return nullptr;
  }
  return CachedPartitionRow::Make(PartitionName::Of(entry.key()), version, slice->level.deletion,
                                  slice->rows.empty() ? nullptr : &slice->rows[0].fragment);
}

}  // namespace

std::shared_ptr<const CachedSlice> UniteSlices(
    std::shared_ptr<const CachedSlice> newest,
    std::vector<std::shared_ptr<const CachedSlice>> others) {
  // Its version and partition level (the same in every slice) are the union's.
  std::shared_ptr<CachedSlice> united = Writable(std::move(newest));
  for (std::shared_ptr<const CachedSlice>& other : others) {
    united->intervals = UniteIntervals(united->intervals, other->intervals);
    united->rows = UniteRows(TakeRows(std::move(other)), std::move(united->rows));
  }
  united->bytes = united->EstimateBytes();
  return united;
}

bool CachedSlice::Covers(std::span<const KeyInterval> wanted) const {
  for (const KeyInterval& interval : wanted) {
    // The last cached interval starting at or before `interval`: the only one that can hold it.
    auto after = std::upper_bound(
        intervals.begin(), intervals.end(), interval.start,
        [](const common::Bytes& start, const KeyInterval& cached) { return start < cached.start; });
    if (after == intervals.begin() || !Contains(*std::prev(after), interval)) return false;
  }
  return true;
}

size_t CachedSlice::EstimateBytes() const {
  size_t total = sizeof(CachedSlice) + kAllocation;
  for (const KeyInterval& interval : intervals) {
    total += sizeof(KeyInterval) + BytesOf(interval.start) + BytesOf(interval.end);
  }
  if (level.statics) total += BytesOf(*level.statics);
  for (const RangeDeletion& range : level.ranges) {
    total += sizeof(RangeDeletion) + BytesOf(range.start) + BytesOf(range.end);
  }
  total += rows.capacity() * sizeof(CachedRow);
  for (const CachedRow& row : rows) {
    total += BytesOf(row.key) + BytesOf(row.fragment) + BytesOf(row.clustering);
  }
  return total;
}

namespace {

// Admit's table: a slot per KiB of capacity (a point-read row takes 0.3–1 KiB), 8 bytes each.
size_t RecentMissSlots(size_t capacity_bytes) {
  return std::bit_ceil(std::max<size_t>(1024, capacity_bytes / 1024));
}

}  // namespace

RowCache::RowCache(size_t capacity_bytes)
    : capacity_bytes_(capacity_bytes),
      shard_capacity_(std::max<size_t>(1, capacity_bytes / kShards)),
      recent_miss_slots_(RecentMissSlots(capacity_bytes)),
      recent_misses_(std::make_unique<std::atomic<uint64_t>[]>(recent_miss_slots_)) {}

bool RowCache::Admit(std::string_view table_id, std::string_view prefix) {
  // Room left: admitting evicts nothing, so there is nothing to churn.
  if (used_bytes_.load(std::memory_order_relaxed) + capacity_bytes_ / 64 < capacity_bytes_) {
    return true;
  }
  const uint64_t hash = PartitionHash()(PartitionRef{table_id, prefix}) | 1;  // never 0
  // Other bits than ShardOf's, so that one shard's partitions spread over every slot.
  std::atomic<uint64_t>& slot = recent_misses_[(hash >> 8) & (recent_miss_slots_ - 1)];
  if (slot.load(std::memory_order_relaxed) != hash) {
    slot.store(hash, std::memory_order_relaxed);
    return false;
  }
  // Full: admit one in kFullAdmission, drawn per thread (xorshift32), with no shared state.
  thread_local uint32_t state = 0x9e3779b9u ^ static_cast<uint32_t>(hash);
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return state % kFullAdmission == 0;
}

std::string RowCache::PartitionKey(std::string_view table_id, std::string_view prefix) {
  // Table ids hold no NUL byte, so the separator keeps (table, prefix) pairs apart.
  std::string key;
  key.reserve(table_id.size() + 1 + prefix.size());
  key.append(table_id);
  key.push_back('\0');
  key.append(prefix);
  return key;
}

RowCache::PartitionRef RowCache::Split(const std::string& partition) {
  const size_t separator = partition.find('\0');
  return PartitionRef{std::string_view(partition).substr(0, separator),
                      std::string_view(partition).substr(separator + 1)};
}

size_t RowCache::PartitionHash::operator()(const PartitionRef& partition) const {
  const size_t table = std::hash<std::string_view>()(partition.table_id);
  return std::hash<std::string_view>()(partition.prefix) ^ (table * 0x9e3779b97f4a7c15ull);
}

size_t RowCache::PartitionHash::operator()(const std::string& partition) const {
  return (*this)(Split(partition));
}

bool RowCache::PartitionEqual::operator()(const PartitionRef& a, const std::string& b) const {
  // PartitionKey's layout, compared in place: table id, NUL, prefix.
  const size_t table = a.table_id.size();
  return b.size() == table + 1 + a.prefix.size() && b[table] == '\0' &&
         std::string_view(b).substr(table + 1) == a.prefix &&
         std::string_view(b).substr(0, table) == a.table_id;
}

RowCache::Shard& RowCache::ShardOf(const PartitionRef& partition) {
  return shards_[PartitionHash()(partition) % kShards];
}

std::shared_ptr<const CachedSlice> RowCache::Remove(Shard& shard, const std::string& partition,
                                                    size_t position) {
  auto found = shard.partitions.find(partition);
  std::vector<EntryList::iterator>& entries = found->second;
  EntryList::iterator entry = entries[position];
  std::shared_ptr<const CachedSlice> slice = std::move(entry->slice);
  shard.bytes -= slice->bytes;
  used_bytes_.fetch_sub(slice->bytes);
  slices_.fetch_sub(1);
  entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(position));
  shard.lru.erase(entry);
  if (entries.empty()) shard.partitions.erase(found);
  return slice;
}

std::shared_ptr<const CachedSlice> RowCache::Find(std::string_view table_id,
                                                  std::string_view prefix,
                                                  std::span<const KeyInterval> intervals,
                                                  const storage::PartitionVersions& versions) {
  // No PartitionKey string is built: the map is searched with the pair as it is given.
  const PartitionRef partition{table_id, prefix};
  Shard& shard = ShardOf(partition);
  // Declared before the lock, so the slices dropped here are destroyed after it is released.
  std::vector<std::shared_ptr<const CachedSlice>> dropped;
  std::lock_guard lock(shard.mutex);
  auto found = shard.partitions.find(partition);
  if (found != shard.partitions.end()) {
    // Newest first: the most likely to be current and to cover.
    for (size_t i = found->second.size(); i-- > 0;) {
      EntryList::iterator entry = found->second[i];
      if (!versions.Current(entry->slice->version)) {
        bool last = found->second.size() == 1;
        const std::string key = found->first;  // Remove may erase the map's copy
        dropped.push_back(Remove(shard, key, i));
        if (last) break;  // the partition's list is gone
        continue;
      }
      if (entry->slice->Covers(intervals)) {
        shard.lru.splice(shard.lru.begin(), shard.lru, entry);
        shard.hits.fetch_add(1, std::memory_order_relaxed);
        return entry->slice;
      }
    }
  }
  shard.misses.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

std::shared_ptr<const CachedPartitionRow> RowCache::TakeRow(Shard& shard,
                                                            const PartitionRef& partition) {
  std::shared_ptr<const CachedPartitionRow> entry = shard.rows.Take(
      PartitionHash()(partition), PartitionName{partition.table_id, partition.prefix});
  if (entry != nullptr) {
    shard.bytes -= entry->bytes;
    used_bytes_.fetch_sub(entry->bytes);
    slices_.fetch_sub(1);
  }
  return entry;
}

std::shared_ptr<const CachedPartitionRow> RowCache::FindRow(
    std::string_view table_id, std::string_view prefix,
    const storage::PartitionVersions& versions) {
  const PartitionRef partition{table_id, prefix};
  const size_t hash = PartitionHash()(partition);
  Shard& shard = shards_[hash % kShards];
  // Declared before the lock, so that a stale entry is freed after it is released.
  std::shared_ptr<const CachedPartitionRow> stale;
  std::lock_guard lock(shard.mutex);
  std::shared_ptr<const CachedPartitionRow> entry =
      shard.rows.Find(hash, PartitionName{table_id, prefix});
  if (entry != nullptr) {
    if (versions.Current(entry->version)) {
      shard.hits.fetch_add(1, std::memory_order_relaxed);
      return entry;
    }
    stale = TakeRow(shard, partition);
  }
  shard.misses.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

bool RowCache::InsertRow(std::shared_ptr<const CachedPartitionRow> entry,
                         const storage::PartitionVersions& versions) {
  if (!entry->version.Quiet() || entry->bytes > max_slice_bytes()) return false;
  const PartitionName name = PartitionName::Of(entry->key());
  const PartitionRef partition{name.table_id, name.prefix};
  const size_t hash = PartitionHash()(partition);
  Shard& shard = shards_[hash % kShards];
  // Declared before the lock: what is replaced or evicted is freed after it is released.
  std::vector<std::shared_ptr<const CachedSlice>> dropped;
  std::vector<std::shared_ptr<const CachedPartitionRow>> dropped_rows;
  std::unique_lock lock(shard.mutex);
  // Checked under the lock, as Insert does.
  if (!versions.Current(entry->version)) return false;
  const size_t bytes = entry->bytes;
  std::shared_ptr<const CachedPartitionRow> old = shard.rows.Put(hash, std::move(entry));
  if (old != nullptr) {
    shard.bytes -= old->bytes;
    used_bytes_.fetch_sub(old->bytes);
    dropped_rows.push_back(std::move(old));
  } else {
    slices_.fetch_add(1);
  }
  shard.bytes += bytes;
  used_bytes_.fetch_add(bytes);
  EvictForRoom(shard, dropped, dropped_rows);
  lock.unlock();
  EvictFromOtherShards();
  return true;
}

void RowCache::EvictForRoom(Shard& shard, std::vector<std::shared_ptr<const CachedSlice>>& dropped,
                            std::vector<std::shared_ptr<const CachedPartitionRow>>& dropped_rows) {
  while (used_bytes_.load() > capacity_bytes_ && shard.bytes > shard_capacity_) {
    EvictOne(shard, dropped, dropped_rows);
  }
}

void RowCache::EvictOne(Shard& shard, std::vector<std::shared_ptr<const CachedSlice>>& dropped,
                        std::vector<std::shared_ptr<const CachedPartitionRow>>& dropped_rows) {
  evictions_.fetch_add(1, std::memory_order_relaxed);
  const size_t row_bytes = shard.rows.bytes();
  if (shard.lru.empty() || (row_bytes > shard.bytes - row_bytes && shard.rows.size() > 0)) {
    std::shared_ptr<const CachedPartitionRow> victim = shard.rows.Evict();
    shard.bytes -= victim->bytes;
    used_bytes_.fetch_sub(victim->bytes);
    slices_.fetch_sub(1);
    dropped_rows.push_back(std::move(victim));
    return;
  }
  const Entry& victim = shard.lru.back();
  std::vector<EntryList::iterator>& victims = shard.partitions.find(victim.partition)->second;
  size_t position = 0;
  while (&*victims[position] != &victim) ++position;
  std::string victim_partition = victim.partition;
  dropped.push_back(Remove(shard, victim_partition, position));
}

void RowCache::EvictFromOtherShards() {
  for (size_t turn = 0; turn < kShards && used_bytes_.load() > capacity_bytes_; ++turn) {
    Shard& shard = shards_[next_eviction_shard_.fetch_add(1, std::memory_order_relaxed) % kShards];
    // Declared before the lock: what is evicted is freed after it is released.
    std::vector<std::shared_ptr<const CachedSlice>> dropped;
    std::vector<std::shared_ptr<const CachedPartitionRow>> dropped_rows;
    std::lock_guard lock(shard.mutex);
    EvictForRoom(shard, dropped, dropped_rows);
  }
}

std::vector<std::shared_ptr<const CachedSlice>> RowCache::SlicesToUnite(
    Shard& shard, const std::string& partition, const CachedSlice& slice,
    const storage::PartitionVersions& versions) {
  std::vector<std::shared_ptr<const CachedSlice>> others;
  std::lock_guard lock(shard.mutex);
  auto found = shard.partitions.find(partition);
  if (found == shard.partitions.end()) return others;
  std::vector<size_t> positions;
  size_t bytes = slice.bytes;
  for (size_t i = 0; i < found->second.size(); ++i) {
    const CachedSlice& old = *found->second[i]->slice;
    if (!versions.Current(old.version) || !SameVersion(old.version, slice.version) ||
        slice.Covers(old.intervals)) {
      continue;
    }
    bytes += old.bytes;
    positions.push_back(i);
  }
  // The sum bounds the union's size (keys both hold count twice).
  if (bytes > max_slice_bytes()) return others;
  // From the last, so the earlier positions stay valid.
  for (size_t k = positions.size(); k-- > 0;) {
    others.push_back(Remove(shard, partition, positions[k]));
  }
  return others;
}

bool RowCache::Insert(std::string_view table_id, std::string_view prefix,
                      std::shared_ptr<const CachedSlice> slice,
                      const storage::PartitionVersions& versions) {
  if (!slice->version.Quiet() || slice->bytes > max_slice_bytes()) return false;
  std::string partition = PartitionKey(table_id, prefix);
  Shard& shard = ShardOf(partition);
  // United outside the lock: the united slice holds what its parts hold, as of their common
  // version, so it goes in like any other slice of that version. Its parts are out of the
  // cache meanwhile (a read of the partition misses), so their rows move unless a reader
  // still holds them.
  std::vector<std::shared_ptr<const CachedSlice>> others =
      SlicesToUnite(shard, partition, *slice, versions);
  if (!others.empty()) {
    // The new slice becomes the union (its rows are not copied). SlicesToUnite bounded the
    // parts' sum, which bounds the union's estimate; were it above anyway, nothing is kept
    // (the parts are out already) and a later read fills again.
    slice = UniteSlices(std::move(slice), std::move(others));
    if (slice->bytes > max_slice_bytes()) return false;
  }
  // Declared before the lock: replaced and evicted slices are destroyed after it is released
  // (a slice of 700 rows takes longer to free than everything else done under the lock).
  std::vector<std::shared_ptr<const CachedSlice>> dropped;
  std::vector<std::shared_ptr<const CachedPartitionRow>> dropped_rows;
  std::unique_lock lock(shard.mutex);
  // Checked under the lock: a Find of the same shard cannot meet a slice that was stale when
  // it went in.
  if (!versions.Current(slice->version)) return false;
  auto found = shard.partitions.find(partition);
  if (found != shard.partitions.end()) {
    // Drop what the new slice makes useless: stale slices and those it covers.
    for (size_t i = found->second.size(); i-- > 0;) {
      const CachedSlice& old = *found->second[i]->slice;
      if (!versions.Current(old.version) || slice->Covers(old.intervals)) {
        bool last = found->second.size() == 1;
        dropped.push_back(Remove(shard, partition, i));
        if (last) break;
      }
    }
  }
  std::vector<EntryList::iterator>& entries = shard.partitions[partition];
  if (entries.size() >= kSlicesPerPartition) {
    dropped.push_back(Remove(shard, partition, 0));
    evictions_.fetch_add(1, std::memory_order_relaxed);
  }
  const size_t bytes = slice->bytes;
  shard.lru.push_front(Entry{partition, std::move(slice)});
  shard.partitions[partition].push_back(shard.lru.begin());
  shard.bytes += bytes;
  used_bytes_.fetch_add(bytes);
  slices_.fetch_add(1);
  EvictForRoom(shard, dropped, dropped_rows);
  lock.unlock();
  EvictFromOtherShards();
  return true;
}

bool RowCache::Holds(const std::string& partition) {
  Shard& shard = ShardOf(partition);
  std::lock_guard lock(shard.mutex);
  return shard.partitions.contains(partition) ||
         shard.rows.Contains(PartitionHash()(partition), PartitionName::Of(partition));
}

void RowCache::ApplyWrite(std::span<const storage::WrittenMerge> merges,
                          const storage::PartitionVersions& versions) {
  if (slices_.load(std::memory_order_relaxed) == 0) return;
  // The written partitions that have slices, with their merges in batch order.
  std::vector<WrittenPartition> written;
  // The index in `written` of the previous merge's partition; kNone when it has no slices.
  constexpr size_t kNone = static_cast<size_t>(-1);
  size_t current = kNone;
  std::string_view current_table, current_prefix;
  // Stripes with a merge whose partition cannot be told (no shape, a key that does not parse):
  // it may belong to any partition of the stripe, so none of them is updated (W4).
  std::vector<size_t> unknown;
  for (const storage::WrittenMerge& merge : merges) {
    std::optional<size_t> prefix_size = PrefixSize(merge);
    if (!prefix_size) {
      unknown.push_back(merge.stripe);
      continue;
    }
    std::string_view prefix = merge.key.substr(0, *prefix_size);
    if (!(merge.table_id == current_table && prefix == current_prefix)) {
      current_table = merge.table_id;
      current_prefix = prefix;
      current = kNone;
      std::string partition = PartitionKey(merge.table_id, prefix);
      for (size_t i = 0; i < written.size(); ++i) {
        if (written[i].partition == partition) current = i;
      }
      if (current == kNone && Holds(partition)) {
        current = written.size();
        written.push_back(WrittenPartition{std::move(partition),
                                           merge.table_id,
                                           prefix,
                                           merge.shape,
                                           merge.stripe,
                                           merge.started,
                                           {}});
      }
    }
    if (current != kNone) written[current].merges.push_back(&merge);
  }
  for (const WrittenPartition& partition : written) {
    // Left as they are, the slices are stale: the write's Begin made them so.
    if (std::find(unknown.begin(), unknown.end(), partition.stripe) != unknown.end()) continue;
    ApplyToPartition(partition, versions);
  }
}

void RowCache::ApplyToPartition(const WrittenPartition& written,
                                const storage::PartitionVersions& versions) {
  // Every slice and entry of the partition is stale since this write began: take them all
  // out, keeping those the write can bring up to date (W1).
  const storage::PartitionVersions::Snapshot now = versions.Take(written.stripe);
  auto exact = [&](const storage::PartitionVersions::Snapshot& version) {
    return version.Quiet() && version.stripe == written.stripe &&
           version.started + 1 == written.started && now.all_started == version.all_started &&
           now.all_finished == now.all_started;
  };
  std::vector<std::shared_ptr<const CachedSlice>> updatable, dropped;
  std::shared_ptr<const CachedPartitionRow> row;
  {
    Shard& shard = ShardOf(written.partition);
    std::lock_guard lock(shard.mutex);
    row = TakeRow(shard, PartitionRef{written.table_id, written.prefix});
    auto found = shard.partitions.find(written.partition);
    for (size_t i = found == shard.partitions.end() ? 0 : found->second.size(); i-- > 0;) {
      std::shared_ptr<const CachedSlice> slice = Remove(shard, written.partition, i);
      (exact(slice->version) ? updatable : dropped).push_back(std::move(slice));
    }
  }
  if (row != nullptr && !exact(row->version)) row = nullptr;
  if (updatable.empty() && row == nullptr) return;
  std::vector<WrittenEntry> entries;
  entries.reserve(written.merges.size());
  for (const storage::WrittenMerge* merge : written.merges) {
    common::Result<storage::RowFragment> fragment = storage::DecodeRowFragment(merge->value);
    if (!fragment.ok()) return;
    entries.push_back(WrittenEntry{merge->key, std::move(fragment).value()});
  }
  storage::PartitionVersions::Snapshot version =
      row != nullptr ? row->version : updatable.front()->version;
  version.started = version.finished = written.started;
  if (row != nullptr && written.shape->clustering.empty()) {
    const common::Bytes row_key = storage::RowKey(*written.shape, written.prefix, {});
    std::shared_ptr<const CachedPartitionRow> updated =
        UpdatedRow(*row, written.prefix, row_key, entries, version);
    if (updated != nullptr) InsertRow(std::move(updated), versions);  // else W3, W4
  }
  // Oldest first, as they were inserted.
  for (size_t i = updatable.size(); i-- > 0;) {
    std::shared_ptr<CachedSlice> slice =
        UpdatedSlice(Writable(std::move(updatable[i])), written.prefix, entries, version);
    if (slice == nullptr) continue;  // W3, W4: this one stays out
    Insert(written.table_id, written.prefix, std::move(slice), versions);
  }
}

RowCache::Statistics RowCache::statistics() const {
  Statistics statistics;
  for (const Shard& shard : shards_) {
    statistics.hits += shard.hits.load(std::memory_order_relaxed);
    statistics.misses += shard.misses.load(std::memory_order_relaxed);
  }
  statistics.evictions = evictions_.load(std::memory_order_relaxed);
  statistics.used_bytes = used_bytes_.load();
  statistics.capacity_bytes = capacity_bytes_;
  statistics.slices = slices_.load();
  return statistics;
}

void WriteRowCacheMetrics(common::metrics::SampleWriter& writer,
                          const RowCache::Statistics& statistics) {
  writer.Counter("cqld_row_cache_hits_total", "Partition reads served from the row cache.", {},
                 static_cast<double>(statistics.hits));
  writer.Counter("cqld_row_cache_misses_total",
                 "Partition reads the row cache could not serve (read from storage).", {},
                 static_cast<double>(statistics.misses));
  writer.Counter("cqld_row_cache_evictions_total", "Cached partition slices evicted to make room.",
                 {}, static_cast<double>(statistics.evictions));
  writer.Gauge("cqld_row_cache_size_bytes", "Bytes the row cache holds (an estimate).", {},
               static_cast<double>(statistics.used_bytes));
  writer.Gauge("cqld_row_cache_capacity_bytes", "Capacity of the row cache.", {},
               static_cast<double>(statistics.capacity_bytes));
  writer.Gauge("cqld_row_cache_entries", "Partition slices and point-read rows in the row cache.",
               {}, static_cast<double>(statistics.slices));
}

}  // namespace engine
