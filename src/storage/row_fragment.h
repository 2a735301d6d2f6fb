// RowFragment: the decoded value of one RocksDB entry of a table's column family
// (docs/dev/storage_format.md). One entry holds one row's state (a clustered row, the static
// row, or a partition-level entry such as a partition or range tombstone): an optional row
// liveness marker, an optional row tombstone, per-column collection tombstones and cells.
//
// Pipeline position: the engine builds fragments for each write and hands their encodings to
// `rocksdb::DB::Merge`; the merge operator (merge_operator.h) decodes operands, merges them
// with cell_merge.h and re-encodes; the compaction filter purges; reads decode.
//
// Storage never sees column names or types: a cell names its column by a `uint32_t` id that
// the schema layer assigns, and its value is the native-protocol serialization, verbatim.
//
// Times: write timestamps are microseconds since the epoch (int64); local deletion and
// expiration times are seconds since the epoch (int64, so no 2038 limit); TTLs are seconds.
//
// Thread-safety: plain value types and pure functions.

#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"

namespace storage {

// A deletion: everything with a write timestamp <= `timestamp` is shadowed. The local deletion
// time (seconds) is when the deletion happened on this node; it starts the gc_grace clock.
struct DeletionTime {
  int64_t timestamp = 0;
  int64_t local_deletion_time = 0;

  // Cassandra's DeletionTime.supersedes: a later timestamp, or the same timestamp and a later
  // local deletion time.
  bool Supersedes(const DeletionTime& other) const {
    return timestamp > other.timestamp ||
           (timestamp == other.timestamp && local_deletion_time > other.local_deletion_time);
  }
  // True when this deletion shadows data written at `write_timestamp`.
  bool Deletes(int64_t write_timestamp) const { return write_timestamp <= timestamp; }

  bool operator==(const DeletionTime&) const = default;
};

// The primary-key liveness marker an INSERT writes (docs/dev/storage_format.md §4-5). `ttl` > 0
// makes it expiring at `local_expiration_time` (seconds); otherwise both are 0.
struct LivenessInfo {
  int64_t timestamp = 0;
  int64_t ttl = 0;
  int64_t local_expiration_time = 0;

  bool expiring() const { return ttl > 0; }
  // Live at `now_seconds`: not expiring, or expiring strictly after now.
  bool IsLive(int64_t now_seconds) const {
    return !expiring() || now_seconds < local_expiration_time;
  }

  bool operator==(const LivenessInfo&) const = default;
};

enum class CellKind : uint8_t {
  kLive = 0,       // a regular value
  kExpiring = 1,   // a value with a TTL: `ttl` and `local_deletion_time` = expiration time
  kTombstone = 2,  // a deletion: empty value, `local_deletion_time` = when it was deleted
};

// One cell: a column's value (or one element of a non-frozen collection, named by `path`).
struct Cell {
  uint32_t column_id = 0;
  // Collection element key: the map key, the set element, or the list element's timeuuid, in
  // their native-protocol serialization. Absent for simple (non-collection) columns.
  std::optional<common::Bytes> path;
  int64_t timestamp = 0;
  CellKind kind = CellKind::kLive;
  int64_t ttl = 0;                  // seconds; > 0 iff kind == kExpiring
  int64_t local_deletion_time = 0;  // seconds; expiration (kExpiring) or deletion (kTombstone)
  common::Bytes value;              // empty for tombstones

  bool is_tombstone() const { return kind == CellKind::kTombstone; }
  bool is_expiring() const { return kind == CellKind::kExpiring; }
  // Live at `now_seconds`: a live cell, or an expiring one whose expiration is after now.
  bool IsLive(int64_t now_seconds) const {
    return kind == CellKind::kLive || (is_expiring() && now_seconds < local_deletion_time);
  }

  bool operator==(const Cell&) const = default;
};

// Orders cells by (column_id, path), a simple column's cell (no path) first. Fragments keep
// their cells sorted and unique under this order.
std::strong_ordering CompareCellPosition(const Cell& a, const Cell& b);

struct RowFragment {
  std::optional<LivenessInfo> liveness;
  std::optional<DeletionTime> deletion;
  // Per non-frozen collection column: elements written at or before it are shadowed.
  std::map<uint32_t, DeletionTime> collection_deletions;
  // Sorted and unique by CompareCellPosition.
  std::vector<Cell> cells;

  // True when the fragment holds nothing at all (no marker, tombstone or cell).
  bool empty() const {
    return !liveness && !deletion && collection_deletions.empty() && cells.empty();
  }

  bool operator==(const RowFragment&) const = default;
};

// Fragment encoding version written by EncodeRowFragment.
inline constexpr uint8_t kRowFragmentVersion = 1;

// Sorts `fragment->cells` by position. When two cells share a position the caller must merge
// them first; this function keeps both (stable order).
void SortCells(RowFragment* fragment);

// Checks the invariants Decode enforces: cells sorted and unique, kinds consistent with ttl,
// tombstones without values, ttl within int32. Returns Invalid with the reason.
common::Status ValidateRowFragment(const RowFragment& fragment);

// Appends the binary encoding of `fragment` (format in docs/dev/storage_format.md) to `*out`.
// REQUIRES: ValidateRowFragment(fragment).ok() (otherwise Decode will reject the bytes).
void EncodeRowFragment(const RowFragment& fragment, common::Bytes* out);
common::Bytes EncodeRowFragment(const RowFragment& fragment);

// Decodes an encoding made by EncodeRowFragment. Any malformed input (truncated, unknown
// version or flag bits, unsorted cells, trailing bytes, out-of-range numbers) gives
// Corruption; never reads out of bounds.
common::Result<RowFragment> DecodeRowFragment(std::string_view bytes);

// Whether DecodeRowFragment(bytes) succeeds with a fragment that has no row deletion and no
// collection deletions (such a fragment is canonical when it decodes: cell_merge.h), checked
// without building the fragment.
bool IsEncodedWithoutDeletions(std::string_view bytes);

}  // namespace storage
