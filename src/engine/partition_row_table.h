// PartitionRowTable: the row cache's index of single-row partitions (row_cache.h). A partition
// of a table without clustering columns holds at most one row and a partition tombstone, so a
// point read of it (RowReader::ReadSingleRowPartition) is cached as one compact entry — the
// partition's key, its partition tombstone and its row's encoded fragment (the bytes RocksDB
// stores, storage/row_fragment.h) — instead of a CachedSlice with its interval, its row vector
// and a decoded fragment (~1.5 KiB for a row of five 34-byte values, against ~0.4 KiB here).
//
// The index is flat: open addressing with linear probing over slots that hold the partition's
// 64-bit hash inline beside the entry's pointer, so a hit costs one slot, the entry and its
// bytes (its key, then the fragment beside it) instead of a hash chain, a list node, a slice
// and its vectors. Eviction is CLOCK (second chance): a hit sets the slot's `referenced` bit
// (written only when it was clear), and the hand evicts the first slot it meets with the bit
// clear, clearing the bits it passes. An LRU list would move a node to its head on every hit,
// writing three nodes' links each time; CLOCK keeps a read a read and still protects entries
// read since the hand last passed them, which is what LRU buys for a point-read working set.
//
// Invariants:
//  1. Slot i is empty (`entry` null) or holds an entry whose hash's home slot is h, with no
//     empty slot between h and i (cyclically): Find stops at the first empty slot.
//  2. Removal shifts the following slots of the run back (no tombstones), keeping 1.
//  3. At most 7/8 of the slots are used; the table doubles past that.
//  4. `bytes()` is the sum of the entries' `bytes` (which count their share of the slots).
//
// Thread-safety: not thread-safe; RowCache guards each shard's table with the shard's mutex.
// Entries are immutable once in and shared: a reader keeps its entry alive while it reads it.

#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "storage/partition_versions.h"
#include "storage/row_fragment.h"

namespace engine {

// A partition as (table id, prefix): an entry's key is `table_id`, NUL, `prefix` (table ids
// hold no NUL byte, so the separator keeps pairs apart), compared in place.
struct PartitionName {
  std::string_view table_id;
  std::string_view prefix;

  bool Matches(std::string_view key) const {
    const size_t table = table_id.size();
    return key.size() == table + 1 + prefix.size() && key[table] == '\0' &&
           key.substr(table + 1) == prefix && key.substr(0, table) == table_id;
  }
  // The name whose key is `key`.
  static PartitionName Of(std::string_view key) {
    const size_t separator = key.find('\0');
    return PartitionName{key.substr(0, separator), key.substr(separator + 1)};
  }
};

// One cached partition of a table without clustering columns, as a point read (or a write
// merged into one, row_cache.h W1-W5) saw it. Made only by Make, as one block: this header,
// then the partition key (table id, NUL, prefix: PartitionName) and the row entry's encoded
// fragment (empty without a row) right behind it, under the shared_ptr's control block — so
// a hit reads one allocation.
struct CachedPartitionRow {
  storage::PartitionVersions::Snapshot version;   // taken before the read; quiet
  std::optional<storage::DeletionTime> deletion;  // the partition tombstone
  bool has_row = false;                           // the partition has a row entry
  uint32_t key_size = 0;
  uint32_t row_size = 0;
  size_t bytes = 0;  // EstimateBytes()

  std::string_view key() const { return std::string_view(data(), key_size); }
  std::string_view encoded_row() const { return std::string_view(data() + key_size, row_size); }
  // The entry for `partition` with `row` (null: none) encoded, its bytes estimated.
  static std::shared_ptr<const CachedPartitionRow> Make(
      const PartitionName& partition, const storage::PartitionVersions::Snapshot& version,
      const std::optional<storage::DeletionTime>& deletion, const storage::RowFragment* row);
  // The memory the entry holds: its block (control block, this header, key and row, rounded
  // to 16 bytes, plus the heap's header) and its share of the index's slots (two: the table
  // holds between 8/7 and 16/7 slots per entry, invariant 3).
  size_t EstimateBytes() const;

 private:
  CachedPartitionRow() = default;  // in Make's block only
  const char* data() const { return reinterpret_cast<const char*>(this + 1); }
};

class PartitionRowTable {
 public:
  PartitionRowTable() = default;
  PartitionRowTable(const PartitionRowTable&) = delete;
  PartitionRowTable& operator=(const PartitionRowTable&) = delete;

  // The entry of `partition` (hash `hash`), or null; marks it referenced.
  std::shared_ptr<const CachedPartitionRow> Find(uint64_t hash, const PartitionName& partition);
  // Whether it holds an entry for `partition`.
  bool Contains(uint64_t hash, const PartitionName& partition) const;
  // Puts `entry` (whose partition hashes to `hash`) in, unreferenced; returns the entry it replaced
  // under the same key, or null.
  std::shared_ptr<const CachedPartitionRow> Put(uint64_t hash,
                                                std::shared_ptr<const CachedPartitionRow> entry);
  // Takes the entry of `partition` out; null when there is none.
  std::shared_ptr<const CachedPartitionRow> Take(uint64_t hash, const PartitionName& partition);
  // Takes out the entry the CLOCK hand picks (see the file comment). REQUIRES: size() > 0.
  std::shared_ptr<const CachedPartitionRow> Evict();

  size_t size() const { return size_; }
  // The entries' bytes (invariant 4).
  size_t bytes() const { return entry_bytes_; }
  // The memory of one slot, for CachedPartitionRow::EstimateBytes.
  static constexpr size_t kSlotBytes = 32;

 private:
  struct Slot {
    uint64_t hash = 0;
    bool referenced = false;
    std::shared_ptr<const CachedPartitionRow> entry;  // null: empty
  };
  static constexpr size_t kInitialSlots = 16;

  // Mixed first: RowCache picks a shard by the hash's low bits, the same in every entry here.
  size_t Home(uint64_t hash) const {
    return ((hash * 0x9e3779b97f4a7c15ull) >> 32) & (slots_.size() - 1);
  }
  // The slot holding `partition`, or the empty slot ending its probe run (REQUIRES: slots exist).
  size_t Probe(uint64_t hash, const PartitionName& partition) const;
  // Empties slot `i` and shifts the run after it back (invariant 2); returns its entry.
  std::shared_ptr<const CachedPartitionRow> RemoveAt(size_t i);
  void Grow();

  std::vector<Slot> slots_;  // a power of two of them, or none
  size_t size_ = 0;
  size_t entry_bytes_ = 0;
  size_t hand_ = 0;  // the CLOCK hand
};

}  // namespace engine
