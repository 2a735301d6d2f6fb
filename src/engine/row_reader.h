// RowReader: reads a table's partitions from storage and assembles CQL rows — the read half
// of docs/dev/architecture.md
//
// A partition's entries (docs/dev/storage_format.md) are its partition tombstone, static row,
// range tombstones and clustered rows. The reader applies, at read time, what merging within one
// entry cannot: the partition tombstone and covering range tombstones shadow older cells and
// liveness markers; TTL expiry against "now"; row liveness (a marker or a live regular cell);
// and it rebuilds non-frozen collections and UDTs from their per-element cells.
//
// Clustering ranges are given as storage-key intervals [start, end) inside the partition (see
// storage::RowBoundKey); the reader visits them in order, forwards or in reverse. A partition
// of a table without clustering columns (at most a partition tombstone and one row) is read
// with two point reads instead of an iterator, unless paging, DISTINCT or several intervals.
//
// With a row cache (`set_row_cache`, row_cache.h), a partition is read from a cached slice
// when one covers the intervals, and a read from storage that covers them whole (no paging,
// not DISTINCT) leaves its fragments in the cache; the same steps assemble rows from either,
// so results and counts are the same. A partition without clustering columns is cached whole
// by its point read (its one row, or none).
//
// Counting (docs/operations.md §7): the reader counts the live rows it returns and the
// tombstones it scans as Cassandra's ReadCommand does — each tombstone or expired cell of a row
// it assembles, a row tombstone of a row left with nothing live and no such cell, and both
// bounds of each range tombstone of a partition it reads (cells a deletion shadows are not
// counted: merging has removed them in Cassandra). Past `ReadLimits::tombstone_failure` the
// read stops with ReadFailure (TombstoneFailure). Counting costs an increment per counted item.
//
// Thread-safety: a RowReader is used by one thread; the Store it reads is thread-safe.

#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "engine/table_schema.h"
#include "schema/system_tables.h"
#include "storage/row_fragment.h"
#include "storage/store.h"

namespace engine {

// One column's value in an assembled row.
struct CellData {
  std::optional<common::Bytes> value;  // nullopt: null (no live cell)
  int64_t timestamp = 0;               // write time of a simple cell (for writetime())
  int32_t ttl = 0;                     // remaining seconds of an expiring simple cell, else 0
};

// One assembled row, with a value for every column of the table (in table->columns order);
// key columns always have values, except the clustering columns of a static-only row.
struct RowData {
  common::Bytes key;  // storage key of the row (the static row's for static-only rows)
  bool static_only = false;
  std::vector<CellData> cells;
};

// A range tombstone as the row keys it covers: start <= key < end.
struct RangeDeletion {
  common::Bytes start;
  common::Bytes end;
  storage::DeletionTime deletion;
};

// What a partition's partition-level entries (they sort before its rows) say about every row.
struct PartitionLevel {
  std::optional<storage::DeletionTime> deletion;  // the partition tombstone
  std::optional<storage::RowFragment> statics;    // the static row, canonical (cell_merge.h)
  std::vector<RangeDeletion> ranges;              // in key order
};

// Reads the partition-level entries of the partition `prefix` of a table with key shape
// `shape` from `it` (an iterator over that partition), leaving it on the first row entry (or
// invalid). Shared by reads (RowReader) and change capture (change_capture.h).
// Errors: the iterator's, Corruption for an unparsable range tombstone key.
common::Status ReadPartitionLevel(storage::FragmentIterator* it, const storage::KeyShape& shape,
                                  std::string_view prefix, PartitionLevel* level);

// The strongest of `*current` and `candidate` (DeletionTime::Supersedes) into `*current`.
void KeepStrongest(std::optional<storage::DeletionTime>* current,
                   const storage::DeletionTime& candidate);

// A clustering interval as storage keys within one partition: [start, end).
struct KeyInterval {
  common::Bytes start;
  common::Bytes end;
};

// Returning false stops the read.
using RowCallback = std::function<common::Result<bool>(RowData&)>;

struct PartitionReadOptions {
  // Intervals sorted by start key, not overlapping.
  std::span<const KeyInterval> intervals;
  bool reverse = false;
  // Emit the static row alone when the partition has live static cells but no live row in the
  // intervals (Cassandra does so when the query does not restrict clustering columns).
  bool static_only_when_empty = false;
  // Skip rows at or before (after, when reversed) this storage key (paging); empty: none.
  std::string_view resume_after;
  // Only the partition-level part: emit one row with the partition key and static columns when
  // the partition has any live data (SELECT DISTINCT).
  bool distinct = false;
};

// What a read counted (see Counting above).
struct ReadCounts {
  int64_t live_rows = 0;
  int64_t tombstones = 0;
};

// The ReadFailure a read gets once it has scanned more than `failure_threshold` tombstones,
// with Cassandra 4's message ("Operation failed - received 0 responses and 1 failures:
// READ_TOO_MANY_TOMBSTONES from /<address>:<port>"); protocol/messages.h turns the reason
// into the error body's failure map.
common::Status TombstoneFailure(std::string_view address, int32_t port);

class RowCache;
struct CachedSlice;

class RowReader {
 public:
  // REQUIRES: `store` and `table` outlive the reader.
  RowReader(const storage::Store* store, const TableSchema* table, int64_t now_seconds)
      : store_(store), table_(table), now_seconds_(now_seconds) {}

  // Fail reads past `threshold` tombstones with TombstoneFailure naming `node` (default:
  // never). REQUIRES: `node` outlives the reader.
  void set_tombstone_failure(int64_t threshold, const schema::LocalNodeInfo* node) {
    tombstone_failure_threshold_ = threshold;
    node_ = node;
  }
  // Serve single-partition reads from `cache` and fill it on misses (row_cache.h); null (the
  // default): read storage every time. REQUIRES: `cache` outlives the reader.
  void set_row_cache(RowCache* cache) { cache_ = cache; }
  // What the reader has counted since it was made (or since the last TakeCounts).
  const ReadCounts& counts() const { return counts_; }
  ReadCounts TakeCounts() { return std::exchange(counts_, ReadCounts()); }

  // Reads the partition with key prefix `prefix` (storage::PartitionPrefix) and values
  // `partition_key`, calling `callback` for each live row in order. Returns false when the
  // callback stopped the read.
  common::Result<bool> ReadPartition(std::string_view prefix,
                                     std::span<const common::Bytes> partition_key,
                                     const PartitionReadOptions& options,
                                     const RowCallback& callback);

  // Visits the partitions whose keys lie in [start_key, end_key) (storage keys; empty end =
  // unbounded) in token order, calling `visit(prefix, partition_key)` for each. Returning false
  // from visit stops the scan.
  common::Status ScanPartitions(
      std::string_view start_key, std::string_view end_key,
      const std::function<common::Result<bool>(const common::Bytes& prefix,
                                               std::vector<common::Bytes>& partition_key)>& visit);

  // Assembles the live value of every regular or static column of `fragment` after applying
  // `deletion` (the strongest partition/range deletion covering it, if any). Also used by LWT
  // and view maintenance to read the current row.
  void AssembleCells(const storage::RowFragment& fragment,
                     const std::optional<storage::DeletionTime>& deletion, bool is_static,
                     RowData* row, bool* has_live_cell) const;

 private:
  // ReadPartition for a table without clustering columns, reading `interval` of the partition
  // with point reads instead of an iterator.
  common::Result<bool> ReadSingleRowPartition(std::string_view prefix,
                                              std::span<const common::Bytes> partition_key,
                                              const KeyInterval& interval,
                                              const RowCallback& callback);
  // Assembles the row entry `fragment` (null: none) of a partition without clustering columns
  // under its partition tombstone `partition_deletion`, and passes it to `callback` if live.
  common::Result<bool> EmitSingleRow(std::span<const common::Bytes> partition_key,
                                     common::Bytes row_key,
                                     const std::optional<storage::DeletionTime>& partition_deletion,
                                     const storage::RowFragment* fragment,
                                     const RowCallback& callback) const;

  // The state of one ReadPartition, shared by its steps.
  struct PartitionScan;
  // The row entries the steps walk: a storage iterator or a cached slice (row_reader.cc).
  class IteratorCursor;
  class SliceCursor;

  // ReadPartition from storage. With `fill`, the fragments read are also kept in it, and its
  // `intervals` set when the read covered them whole (the callback never stopped it, every
  // row was kept).
  common::Result<bool> ReadThroughIterator(std::string_view prefix,
                                           std::span<const common::Bytes> partition_key,
                                           const PartitionReadOptions& options, CachedSlice* fill,
                                           const RowCallback& callback);
  // Sets up `scan` for the partition (partition key cells, static row) once `scan.level` is
  // set.
  void StartScan(PartitionScan& scan, std::string_view prefix,
                 std::span<const common::Bytes> partition_key) const;
  // Counts the partition's range tombstones, two bounds each (see Counting).
  common::Status CountRangeTombstones(const PartitionScan& scan) const;
  // The rows of `options.intervals` from `cursor` (and the static-only row when asked),
  // once `scan.level` is set.
  template <typename Cursor>
  common::Result<bool> ReadRows(PartitionScan& scan, Cursor& cursor, std::string_view prefix,
                                std::span<const common::Bytes> partition_key,
                                const PartitionReadOptions& options,
                                const RowCallback& callback) const;

  // Assembles the partition's static row, if any, into `scan.row` and keeps its static cells
  // in `scan.static_cells` for ResetRow.
  void AssembleStaticRow(PartitionScan& scan) const;
  // Clears the regular cells (and with `clustering` the clustering cells) the previous row
  // left in `scan.row` and restores the static cells.
  void ResetRow(PartitionScan& scan, bool clustering) const;
  // Whether the row entry `fragment` with storage key `key` is live (after the partition and
  // range tombstones covering it); fills `scan.row` when it is. `clustering`: the entry's
  // clustering values when the cursor already has them decoded (a cached row: CachedRow's
  // packed form), else empty; `keep_clustering`: where to keep those decoded here, packed (a
  // row being cached), or null.
  common::Result<bool> AssembleRow(PartitionScan& scan, std::string_view key,
                                   const storage::RowFragment& fragment,
                                   std::string_view clustering,
                                   common::Bytes* keep_clustering) const;
  // AssembleRow of the entry at `cursor`.
  template <typename Cursor>
  common::Result<bool> LoadRow(PartitionScan& scan, Cursor& cursor) const;
  // SELECT DISTINCT: emits the static-only row when the partition has a live static cell or a
  // live row, unless `options.resume_after` is at or past it.
  common::Result<bool> ReadDistinct(PartitionScan& scan, IteratorCursor& cursor,
                                    const PartitionReadOptions& options,
                                    const RowCallback& callback) const;
  // Emit the live rows of `options.intervals[index]`, in key order (Forward) or reversed
  // (Reverse), skipping those paging has returned (`options.resume_after`). Return false when
  // the callback stopped the read.
  template <typename Cursor>
  common::Result<bool> ReadIntervalForward(PartitionScan& scan, Cursor& cursor,
                                           const PartitionReadOptions& options, size_t index,
                                           const RowCallback& callback) const;
  template <typename Cursor>
  common::Result<bool> ReadIntervalReverse(PartitionScan& scan, Cursor& cursor,
                                           const PartitionReadOptions& options, size_t index,
                                           const RowCallback& callback) const;
  // Passes the row with only the partition key and static cells, keyed by the static row, to
  // `callback`.
  common::Result<bool> EmitStaticOnlyRow(PartitionScan& scan, const RowCallback& callback) const;

  // Counts the row tombstone of a row that is not `live` and had no tombstone cell counted
  // since `tombstones_before`; the failure once past the threshold.
  common::Status CountRowTombstone(const storage::RowFragment& fragment, bool live,
                                   int64_t tombstones_before) const;
  // Counts `count` more scanned tombstones; the failure once past the threshold.
  common::Status CountTombstones(int64_t count) const {
    counts_.tombstones += count;
    if (counts_.tombstones > tombstone_failure_threshold_) [[unlikely]] {
      return TombstoneFailure(node_->listen_address, node_->listen_port);
    }
    return common::Status::Ok();
  }

  const storage::Store* store_;
  const TableSchema* table_;
  int64_t now_seconds_;
  // Counters: mutable because the const read steps count what they scan.
  mutable ReadCounts counts_;
  int64_t tombstone_failure_threshold_ = INT64_MAX;
  const schema::LocalNodeInfo* node_ = nullptr;
  RowCache* cache_ = nullptr;
};

}  // namespace engine
