#include "engine/row_reader.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "cql/types/value_codec.h"
#include "engine/row_cache.h"
#include "storage/cell_merge.h"
#include "storage/key_layout.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;
using cql::TypeKind;
using storage::DeletionTime;
using storage::KeySection;
using storage::RowFragment;

namespace {

// Whether the row marker (liveness info) of `fragment` is live at `now_seconds` and not shadowed
// by `deletion`.
bool MarkerIsLive(const RowFragment& fragment, const std::optional<DeletionTime>& deletion,
                  int64_t now_seconds) {
  return fragment.liveness && fragment.liveness->IsLive(now_seconds) &&
         !(deletion && deletion->Deletes(fragment.liveness->timestamp));
}

// Sets the partition key cells of `row` (sized for every column of `table`) to `partition_key`.
void SetPartitionKey(const TableSchema& table, std::span<const Bytes> partition_key, RowData* row) {
  for (size_t i = 0; i < table.partition_key.size() && i < partition_key.size(); ++i) {
    row->cells[table.partition_key[i]].value = partition_key[i];
  }
}

// `*to = from`, in place when the sizes match (the keys and clustering values of consecutive
// rows mostly do), as std::string::assign's general replace is not. REQUIRES: `from` does not
// point into `*to`.
void AssignInPlace(Bytes* to, std::string_view from) {
  if (to->size() != from.size()) {
    to->assign(from);
  } else if (!from.empty()) {
    std::memcpy(to->data(), from.data(), from.size());
  }
}

// `values` in CachedRow::clustering's packed form: each as the protocol's [bytes].
Bytes PackClustering(const std::vector<Bytes>& values) {
  common::ByteWriter writer;
  for (const Bytes& value : values) writer.PutIntBytes(value);
  return writer.Release();
}

// Sets the clustering cells of `row` from `packed` (CachedRow::clustering's form), in
// `table.clustering` order; those it holds no value for to null.
void UnpackClustering(const TableSchema& table, std::string_view packed, RowData* row) {
  size_t at = 0;  // never past packed.size()
  for (int index : table.clustering) {
    std::optional<Bytes>& value = row->cells[index].value;
    if (packed.size() - at < 4) {
      value.reset();
      continue;
    }
    const size_t size = common::LoadBigEndian32(packed.data() + at);
    at += 4;
    if (packed.size() - at < size) {
      value.reset();
      at = packed.size();
      continue;
    }
    if (value) {
      AssignInPlace(&*value, packed.substr(at, size));
    } else {
      value.emplace(packed.substr(at, size));
    }
    at += size;
  }
}

}  // namespace

void KeepStrongest(std::optional<DeletionTime>* current, const DeletionTime& candidate) {
  if (!*current || candidate.Supersedes(**current)) *current = candidate;
}

Status ReadPartitionLevel(storage::FragmentIterator* it, const storage::KeyShape& shape,
                          std::string_view prefix, PartitionLevel* level) {
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string_view key = it->key();
    if (key.size() <= prefix.size()) continue;
    auto section = static_cast<KeySection>(static_cast<uint8_t>(key[prefix.size()]));
    if (section == KeySection::kRow) break;
    ASSIGN_OR_RETURN(RowFragment fragment, it->fragment());
    if (section == KeySection::kPartitionDeletion) {
      if (fragment.deletion) KeepStrongest(&level->deletion, *fragment.deletion);
    } else if (section == KeySection::kStaticRow) {
      level->statics = storage::Canonical(std::move(fragment));
    } else if (section == KeySection::kRangeTombstone && fragment.deletion) {
      ASSIGN_OR_RETURN(storage::ParsedKey parsed, storage::ParseKey(shape, key));
      level->ranges.push_back(RangeDeletion{storage::RowBoundKey(shape, prefix, parsed.range_start),
                                            storage::RowBoundKey(shape, prefix, parsed.range_end),
                                            *fragment.deletion});
    }
  }
  return it->status();
}

void RowReader::AssembleCells(const RowFragment& fragment,
                              const std::optional<DeletionTime>& deletion, bool is_static,
                              RowData* row, bool* has_live_cell) const {
  *has_live_cell = false;
  const std::vector<schema::ColumnMetadata>& columns = table_->table->columns;
  // Elements of the multi-cell column being gathered.
  int multi_index = -1;
  std::vector<Bytes> elements;                   // list values / set elements
  std::vector<std::pair<Bytes, Bytes>> entries;  // map entries
  std::vector<std::optional<Bytes>> fields;      // UDT fields
  bool any_element = false;
  auto flush = [&]() {
    if (multi_index < 0) return;
    const cql::CqlType& type = columns[multi_index].type;
    CellData& cell = row->cells[multi_index];
    if (any_element) {
      switch (type.kind()) {
        case TypeKind::kList:
        case TypeKind::kSet:
          cell.value = cql::SerializeCollection(type, std::move(elements));
          break;
        case TypeKind::kMap:
          cell.value = cql::SerializeMap(type, std::move(entries));
          break;
        case TypeKind::kUdt:
          cell.value = cql::SerializeTupleOrUdt(fields);
          break;
        default:
          break;
      }
    }
    elements.clear();
    entries.clear();
    fields.clear();
    any_element = false;
    multi_index = -1;
  };
  for (const storage::Cell& cell : fragment.cells) {
    int index = table_->IndexOfColumnId(cell.column_id);
    if (index < 0) continue;  // a dropped column
    const schema::ColumnMetadata& column = columns[index];
    bool column_is_static = column.kind == schema::ColumnKind::kStatic;
    if (column_is_static != is_static) continue;
    if (column.kind == schema::ColumnKind::kPartitionKey ||
        column.kind == schema::ColumnKind::kClustering) {
      continue;
    }
    if (deletion && deletion->Deletes(cell.timestamp)) continue;
    if (!cell.IsLive(now_seconds_)) {
      ++counts_.tombstones;  // a tombstone or expired cell
      continue;
    }
    if (auto dropped = table_->table->dropped_columns.find(column.name);
        dropped != table_->table->dropped_columns.end() &&
        cell.timestamp <= dropped->second.dropped_time_micros) {
      continue;
    }
    *has_live_cell = true;
    if (!cell.path) {
      if (multi_index >= 0) flush();
      CellData& data = row->cells[index];
      data.value = cell.value;
      data.timestamp = cell.timestamp;
      data.ttl =
          cell.is_expiring()
              ? static_cast<int32_t>(std::max<int64_t>(1, cell.local_deletion_time - now_seconds_))
              : 0;
      continue;
    }
    if (index != multi_index) {
      flush();
      multi_index = index;
      if (column.type.kind() == TypeKind::kUdt) {
        fields.assign(column.type.params().size(), std::nullopt);
      }
    }
    const cql::CqlType& type = column.type;
    switch (type.kind()) {
      case TypeKind::kList:
        elements.push_back(cell.value);
        any_element = true;
        break;
      case TypeKind::kSet: {
        Result<Bytes> element = PathElement(type.element(), *cell.path);
        if (element.ok()) {
          elements.push_back(std::move(element).value());
          any_element = true;
        }
        break;
      }
      case TypeKind::kMap: {
        Result<Bytes> key = PathElement(type.key(), *cell.path);
        if (key.ok()) {
          entries.emplace_back(std::move(key).value(), cell.value);
          any_element = true;
        }
        break;
      }
      case TypeKind::kUdt: {
        int field = PathField(*cell.path);
        if (field >= 0 && static_cast<size_t>(field) < fields.size()) {
          fields[field] = cell.value;
          any_element = true;
        }
        break;
      }
      default:
        break;
    }
  }
  flush();
}

Status TombstoneFailure(std::string_view address, int32_t port) {
  return Status(common::StatusCode::kReadFailure,
                fmt::format("Operation failed - received 0 responses and 1 failures: "
                            "READ_TOO_MANY_TOMBSTONES from /{}:{}",
                            address, port));
}

Status RowReader::CountRowTombstone(const RowFragment& fragment, bool live,
                                    int64_t tombstones_before) const {
  // Cassandra counts a row's own deletion only when nothing in it is live and it had no
  // tombstone cell of its own.
  if (!live && fragment.deletion && counts_.tombstones == tombstones_before) {
    return CountTombstones(1);
  }
  return CountTombstones(0);
}

Result<bool> RowReader::ReadSingleRowPartition(std::string_view prefix,
                                               std::span<const Bytes> partition_key,
                                               const KeyInterval& interval,
                                               const RowCallback& callback) {
  // Without clustering columns a partition holds at most its one row and, in a family from
  // before single_row_partitions, a partition tombstone (no static columns, no range
  // tombstones), so point reads replace an iterator.
  Bytes row_key = storage::RowKey(table_->shape, prefix, std::span<const Bytes>());
  if (row_key < interval.start || !(row_key < interval.end)) return true;
  auto read_uncached = [&]() -> Result<bool> {
    ASSIGN_OR_RETURN(storage::Store::PartitionRow read,
                     store_->GetPartitionRow(table_->storage_id,
                                             storage::PartitionDeletionKey(prefix), row_key));
    std::optional<DeletionTime> deletion;
    if (read.deletion && read.deletion->deletion) deletion = *read.deletion->deletion;
    return EmitSingleRow(partition_key, std::move(row_key), deletion,
                         read.row ? &*read.row : nullptr, callback);
  };
  if (cache_ == nullptr) return read_uncached();
  const storage::PartitionVersions& versions = store_->partition_versions();
  std::shared_ptr<const CachedPartitionRow> cached =
      cache_->FindRow(table_->storage_id, prefix, versions);
  if (cached != nullptr) {
    if (!cached->has_row) return true;  // the partition has no row
    ASSIGN_OR_RETURN(RowFragment fragment, storage::DecodeRowFragment(cached->encoded_row()));
    return EmitSingleRow(partition_key, std::move(row_key), cached->deletion, &fragment, callback);
  }
  // A partition missed for the first time (lately) is read as without a cache.
  if (!cache_->Admit(table_->storage_id, prefix)) return read_uncached();
  // An admitted miss: Get as without a cache, then keep what it read as the partition's
  // entry — its partition tombstone and its row, or that it has none (a later write to it
  // makes that entry stale like any other). The snapshot comes before the Gets, which see
  // every write finished by then (partition_versions.h invariant 2).
  const storage::PartitionVersions::Snapshot version =
      versions.Take(storage::PartitionVersions::StripeOf(table_->storage_id, prefix));
  ASSIGN_OR_RETURN(
      storage::Store::PartitionRow read,
      store_->GetPartitionRow(table_->storage_id, storage::PartitionDeletionKey(prefix), row_key));
  std::optional<DeletionTime> deletion;
  if (read.deletion && read.deletion->deletion) deletion = *read.deletion->deletion;
  const RowFragment* row = read.row ? &*read.row : nullptr;
  if (version.Quiet()) {
    cache_->InsertRow(
        CachedPartitionRow::Make(PartitionName{table_->storage_id, prefix}, version, deletion, row),
        versions);
  }
  return EmitSingleRow(partition_key, std::move(row_key), deletion, row, callback);
}

Result<bool> RowReader::EmitSingleRow(std::span<const Bytes> partition_key, Bytes row_key,
                                      const std::optional<DeletionTime>& partition_deletion,
                                      const RowFragment* fragment,
                                      const RowCallback& callback) const {
  if (fragment == nullptr) return true;
  std::optional<DeletionTime> deletion = partition_deletion;
  if (fragment->deletion) KeepStrongest(&deletion, *fragment->deletion);
  RowData row;
  row.cells.resize(table_->table->columns.size());
  SetPartitionKey(*table_, partition_key, &row);
  bool live_cell = false;
  const int64_t before = counts_.tombstones;
  AssembleCells(*fragment, deletion, /*is_static=*/false, &row, &live_cell);
  const bool live = live_cell || MarkerIsLive(*fragment, deletion, now_seconds_);
  RETURN_IF_ERROR(CountRowTombstone(*fragment, live, before));
  if (!live) return true;
  row.key = std::move(row_key);
  row.static_only = false;
  ++counts_.live_rows;
  return callback(row);
}

// The state of one ReadPartition, shared by its steps. `row` is handed to the callback for
// every row of the partition: its partition key cells are set once, and ResetRow restores the
// static cells before each row.
struct RowReader::PartitionScan {
  std::string_view prefix;
  const PartitionLevel* level = nullptr;  // partition tombstone, static row, range tombstones
  RowData row;
  std::vector<CellData> static_cells;  // in table_->statics order; empty without a static row
  bool static_live = false;            // the static row has a live cell
  std::vector<Bytes> clustering;       // reused by AssembleRow across rows
  Bytes static_key;                    // the key of a static-only row
  bool emitted = false;                // a row of the intervals went to the callback
};

// The row entries of a partition as ReadIntervalForward/Reverse walk them: a storage iterator
// (which can also collect what it decodes, to fill the row cache) or a cached slice. Both
// expose the FragmentIterator calls the walks make and `Fragment()`, the current entry's
// fragment, valid until the cursor moves.
class RowReader::IteratorCursor {
 public:
  // `collect`: where to append every fragment decoded (null: nowhere), until more than
  // `budget` bytes (roughly) were appended; then collecting stops and `collected()` is false.
  IteratorCursor(storage::FragmentIterator* it, std::vector<CachedRow>* collect, size_t budget)
      : it_(it), collect_(collect), budget_(budget) {}
  void Seek(std::string_view target) { it_->Seek(target); }
  void SeekForPrev(std::string_view target) { it_->SeekForPrev(target); }
  void Next() { it_->Next(); }
  void Prev() { it_->Prev(); }
  bool Valid() const { return it_->Valid(); }
  std::string_view key() const { return it_->key(); }
  Status status() const { return it_->status(); }
  Result<const RowFragment*> Fragment() {
    ASSIGN_OR_RETURN(current_, it_->fragment());
    current_collected_ = false;
    if (collect_ == nullptr) return &current_;
    size_t bytes = 64 + it_->key().size();
    for (const storage::Cell& cell : current_.cells) bytes += 64 + cell.value.size();
    if (bytes > budget_) {
      collect_ = nullptr;
      return &current_;
    }
    budget_ -= bytes;
    collect_->push_back(CachedRow{Bytes(it_->key()), std::move(current_), {}});
    current_collected_ = true;
    return &collect_->back().fragment;
  }
  // Storage rows have no decoded clustering values.
  std::string_view Clustering() const { return {}; }
  // Where to keep the current entry's decoded clustering values: in its cached row when the
  // entry is being collected.
  Bytes* KeepClustering() { return current_collected_ ? &collect_->back().clustering : nullptr; }
  bool collected() const { return collect_ != nullptr; }
  // Bounds the walk at `end` (exclusive): InLimit is then whether the cursor is on an entry
  // before it.
  void LimitTo(std::string_view end) { limit_ = end; }
  bool InLimit() const { return it_->Valid() && it_->key() < limit_; }

 private:
  storage::FragmentIterator* it_;
  std::string_view limit_;
  std::vector<CachedRow>* collect_;
  size_t budget_;
  RowFragment current_;
  bool current_collected_ = false;  // the last Fragment() went into `collect_`
};

class RowReader::SliceCursor {
 public:
  explicit SliceCursor(const std::vector<CachedRow>* rows) : rows_(rows) {}
  void Seek(std::string_view target) {
    position_ = static_cast<size_t>(std::lower_bound(rows_->begin(), rows_->end(), target, Less) -
                                    rows_->begin());
  }
  // Past the last entry (invalid) when every key is after `target`: position_ wraps to
  // SIZE_MAX, which Valid rejects.
  void SeekForPrev(std::string_view target) {
    position_ = static_cast<size_t>(std::upper_bound(rows_->begin(), rows_->end(), target,
                                                     [](std::string_view t, const CachedRow& row) {
                                                       return t < std::string_view(row.key);
                                                     }) -
                                    rows_->begin()) -
                1;
  }
  void Next() { ++position_; }
  void Prev() { --position_; }
  bool Valid() const { return position_ < rows_->size(); }
  std::string_view key() const { return (*rows_)[position_].key; }
  Status status() const { return Status::Ok(); }
  Result<const RowFragment*> Fragment() const { return &(*rows_)[position_].fragment; }
  std::string_view Clustering() const { return (*rows_)[position_].clustering; }
  Bytes* KeepClustering() const { return nullptr; }  // the slice is immutable
  // As IteratorCursor's, but the bound is found once (a binary search from the current entry)
  // rather than compared with every key: the slice is sorted and complete for the interval.
  // REQUIRES: the cursor was positioned by Seek (so not before the first entry).
  void LimitTo(std::string_view end) {
    if (position_ >= rows_->size()) {
      limit_ = position_;
      return;
    }
    limit_ = static_cast<size_t>(
        std::lower_bound(rows_->begin() + static_cast<std::ptrdiff_t>(position_), rows_->end(), end,
                         Less) -
        rows_->begin());
  }
  bool InLimit() const { return position_ < limit_; }

 private:
  static bool Less(const CachedRow& row, std::string_view target) {
    return std::string_view(row.key) < target;
  }
  const std::vector<CachedRow>* rows_;
  size_t position_ = SIZE_MAX;
  size_t limit_ = 0;  // LimitTo's: the first entry at or past its bound
};

Result<bool> RowReader::ReadPartition(std::string_view prefix, std::span<const Bytes> partition_key,
                                      const PartitionReadOptions& options,
                                      const RowCallback& callback) {
  if (table_->clustering.empty() && !options.distinct && options.resume_after.empty() &&
      options.intervals.size() == 1) {
    return ReadSingleRowPartition(prefix, partition_key, options.intervals[0], callback);
  }
  if (cache_ == nullptr || options.distinct) {
    return ReadThroughIterator(prefix, partition_key, options, nullptr, callback);
  }
  const storage::PartitionVersions& versions = store_->partition_versions();
  std::shared_ptr<const CachedSlice> cached =
      cache_->Find(table_->storage_id, prefix, options.intervals, versions);
  if (cached != nullptr) {
    PartitionScan scan;
    scan.level = &cached->level;
    SliceCursor cursor(&cached->rows);
    return ReadRows(scan, cursor, prefix, partition_key, options, callback);
  }
  // A miss: read from storage, keeping what it reads for the cache when the read covers its
  // intervals whole (no paging). The snapshot comes before the iterator, which sees every
  // write finished by then (partition_versions.h invariant 2).
  if (!options.resume_after.empty()) {
    return ReadThroughIterator(prefix, partition_key, options, nullptr, callback);
  }
  auto slice = std::make_shared<CachedSlice>();
  slice->version = versions.Take(storage::PartitionVersions::StripeOf(table_->storage_id, prefix));
  if (!slice->version.Quiet()) {
    return ReadThroughIterator(prefix, partition_key, options, nullptr, callback);
  }
  ASSIGN_OR_RETURN(bool complete,
                   ReadThroughIterator(prefix, partition_key, options, slice.get(), callback));
  if (!slice->intervals.empty()) {
    slice->bytes = slice->EstimateBytes();
    cache_->Insert(table_->storage_id, prefix, std::move(slice), versions);
  }
  return complete;
}

Result<bool> RowReader::ReadThroughIterator(std::string_view prefix,
                                            std::span<const Bytes> partition_key,
                                            const PartitionReadOptions& options, CachedSlice* fill,
                                            const RowCallback& callback) {
  storage::KeyRange range{Bytes(prefix), storage::PartitionEndKey(prefix)};
  ASSIGN_OR_RETURN(std::unique_ptr<storage::FragmentIterator> it,
                   store_->NewIterator(table_->storage_id, range));
  PartitionLevel level;
  PartitionLevel& read_level = fill != nullptr ? fill->level : level;
  // Partition-level entries sort first: partition tombstone, static row, range tombstones.
  RETURN_IF_ERROR(ReadPartitionLevel(it.get(), table_->shape, prefix, &read_level));
  PartitionScan scan;
  scan.level = &read_level;
  IteratorCursor cursor(it.get(), fill != nullptr ? &fill->rows : nullptr,
                        fill != nullptr ? cache_->max_slice_bytes() : 0);
  if (options.distinct) {
    StartScan(scan, prefix, partition_key);
    RETURN_IF_ERROR(CountRangeTombstones(scan));
    return ReadDistinct(scan, cursor, options, callback);
  }
  ASSIGN_OR_RETURN(bool complete, ReadRows(scan, cursor, prefix, partition_key, options, callback));
  // The slice is whole when the read went through every interval and every row was kept;
  // it then says which intervals it holds (and otherwise none).
  if (fill != nullptr && complete && cursor.collected()) {
    if (options.reverse) std::reverse(fill->rows.begin(), fill->rows.end());
    fill->intervals.assign(options.intervals.begin(), options.intervals.end());
  }
  return complete;
}

void RowReader::StartScan(PartitionScan& scan, std::string_view prefix,
                          std::span<const Bytes> partition_key) const {
  scan.prefix = prefix;
  scan.row.cells.resize(table_->table->columns.size());
  SetPartitionKey(*table_, partition_key, &scan.row);
  AssembleStaticRow(scan);
  scan.static_key = storage::StaticRowKey(prefix);
}

Status RowReader::CountRangeTombstones(const PartitionScan& scan) const {
  // Each range tombstone is two markers to Cassandra: its open and its close bound.
  return CountTombstones(2 * static_cast<int64_t>(scan.level->ranges.size()));
}

template <typename Cursor>
Result<bool> RowReader::ReadRows(PartitionScan& scan, Cursor& cursor, std::string_view prefix,
                                 std::span<const Bytes> partition_key,
                                 const PartitionReadOptions& options,
                                 const RowCallback& callback) const {
  StartScan(scan, prefix, partition_key);
  RETURN_IF_ERROR(CountRangeTombstones(scan));
  const size_t n = options.intervals.size();
  for (size_t step = 0; step < n; ++step) {
    ASSIGN_OR_RETURN(bool more,
                     options.reverse
                         ? ReadIntervalReverse(scan, cursor, options, n - 1 - step, callback)
                         : ReadIntervalForward(scan, cursor, options, step, callback));
    if (!more) return false;
  }
  if (!scan.emitted && options.static_only_when_empty && scan.static_live &&
      (options.resume_after.empty() || options.resume_after < scan.static_key)) {
    return EmitStaticOnlyRow(scan, callback);
  }
  return true;
}

void RowReader::AssembleStaticRow(PartitionScan& scan) const {
  const std::optional<RowFragment>& statics = scan.level->statics;
  if (!statics) return;
  std::optional<DeletionTime> deletion = scan.level->deletion;
  if (statics->deletion) KeepStrongest(&deletion, *statics->deletion);
  AssembleCells(*statics, deletion, /*is_static=*/true, &scan.row, &scan.static_live);
  for (int index : table_->statics) scan.static_cells.push_back(scan.row.cells[index]);
}

void RowReader::ResetRow(PartitionScan& scan, bool clustering) const {
  RowData& row = scan.row;
  if (clustering) {
    for (int index : table_->clustering) row.cells[index] = CellData();
  }
  for (int index : table_->regulars) row.cells[index] = CellData();
  for (size_t i = 0; i < table_->statics.size(); ++i) {
    row.cells[table_->statics[i]] = scan.static_cells.empty() ? CellData() : scan.static_cells[i];
  }
}

Result<bool> RowReader::AssembleRow(PartitionScan& scan, std::string_view key,
                                    const RowFragment& fragment, std::string_view clustering,
                                    Bytes* keep_clustering) const {
  std::optional<DeletionTime> deletion = scan.level->deletion;
  for (const RangeDeletion& rt : scan.level->ranges) {
    if (rt.start <= key && key < rt.end) KeepStrongest(&deletion, rt.deletion);
  }
  if (fragment.deletion) KeepStrongest(&deletion, *fragment.deletion);
  // The clustering cells are left as they are: a live row sets them all below, and a row that
  // is not live is not passed on.
  ResetRow(scan, /*clustering=*/false);
  bool live_cell = false;
  const int64_t before = counts_.tombstones;
  AssembleCells(fragment, deletion, /*is_static=*/false, &scan.row, &live_cell);
  const bool live = live_cell || MarkerIsLive(fragment, deletion, now_seconds_);
  // A live row counts nothing itself: only a count already past the threshold fails it (the
  // common case makes no Status).
  if (!live || counts_.tombstones > tombstone_failure_threshold_) {
    RETURN_IF_ERROR(CountRowTombstone(fragment, live, before));
  }
  if (!live) return false;
  if (!clustering.empty()) {
    UnpackClustering(*table_, clustering, &scan.row);
  } else {
    // Only the clustering values follow the known prefix; no need to re-parse the whole key.
    RETURN_IF_ERROR(
        storage::ParseRowClustering(table_->shape, scan.prefix.size(), key, &scan.clustering));
    if (keep_clustering != nullptr) *keep_clustering = PackClustering(scan.clustering);
    for (size_t i = 0; i < table_->clustering.size(); ++i) {
      CellData& cell = scan.row.cells[table_->clustering[i]];
      if (i < scan.clustering.size()) {
        cell.value = std::move(scan.clustering[i]);
      } else {
        cell.value.reset();
      }
    }
  }
  AssignInPlace(&scan.row.key, key);
  scan.row.static_only = false;
  return true;
}

template <typename Cursor>
Result<bool> RowReader::LoadRow(PartitionScan& scan, Cursor& cursor) const {
  ASSIGN_OR_RETURN(const RowFragment* fragment, cursor.Fragment());
  return AssembleRow(scan, cursor.key(), *fragment, cursor.Clustering(), cursor.KeepClustering());
}

Result<bool> RowReader::ReadDistinct(PartitionScan& scan, IteratorCursor& cursor,
                                     const PartitionReadOptions& options,
                                     const RowCallback& callback) const {
  bool live = scan.static_live;
  if (!live) {
    Bytes row_section_start(scan.prefix);
    row_section_start.push_back(static_cast<char>(KeySection::kRow));
    for (cursor.Seek(row_section_start); cursor.Valid() && !live; cursor.Next()) {
      ASSIGN_OR_RETURN(live, LoadRow(scan, cursor));
    }
    RETURN_IF_ERROR(cursor.status());
  }
  if (!live) return true;
  if (!options.resume_after.empty() && options.resume_after >= scan.static_key) return true;
  return EmitStaticOnlyRow(scan, callback);
}

template <typename Cursor>
Result<bool> RowReader::ReadIntervalForward(PartitionScan& scan, Cursor& cursor,
                                            const PartitionReadOptions& options, size_t index,
                                            const RowCallback& callback) const {
  const KeyInterval& interval = options.intervals[index];
  std::string_view start = interval.start;
  if (!options.resume_after.empty() && options.resume_after >= start) {
    start = options.resume_after;
  }
  // The cursor is usually already at or past `start`: the partition-level scan leaves an
  // iterator on the first row, an earlier interval at the first key past that interval's end.
  // Then no key lies between `start` and it, so skip the seek (it costs as much as the rest
  // of a single-row read). Only when this interval starts at or after the previous one's
  // end, as PartitionReadOptions requires; otherwise seek as before.
  bool after_previous = index == 0 || options.intervals[index - 1].end <= interval.start;
  if (!after_previous || !cursor.Valid() || cursor.key() < start) cursor.Seek(start);
  cursor.LimitTo(interval.end);
  for (; cursor.InLimit(); cursor.Next()) {
    if (!options.resume_after.empty() && cursor.key() <= options.resume_after) continue;
    ASSIGN_OR_RETURN(bool live, LoadRow(scan, cursor));
    if (!live) continue;
    scan.emitted = true;
    ++counts_.live_rows;
    ASSIGN_OR_RETURN(bool more, callback(scan.row));
    if (!more) return false;
  }
  RETURN_IF_ERROR(cursor.status());
  return true;
}

template <typename Cursor>
Result<bool> RowReader::ReadIntervalReverse(PartitionScan& scan, Cursor& cursor,
                                            const PartitionReadOptions& options, size_t index,
                                            const RowCallback& callback) const {
  const KeyInterval& interval = options.intervals[index];
  std::string_view end = interval.end;
  if (!options.resume_after.empty() && options.resume_after < end) end = options.resume_after;
  for (cursor.SeekForPrev(end); cursor.Valid(); cursor.Prev()) {
    std::string_view key = cursor.key();
    if (key >= end) continue;  // the end is exclusive
    if (key < std::string_view(interval.start)) break;
    ASSIGN_OR_RETURN(bool live, LoadRow(scan, cursor));
    if (!live) continue;
    scan.emitted = true;
    ++counts_.live_rows;
    ASSIGN_OR_RETURN(bool more, callback(scan.row));
    if (!more) return false;
  }
  RETURN_IF_ERROR(cursor.status());
  return true;
}

Result<bool> RowReader::EmitStaticOnlyRow(PartitionScan& scan, const RowCallback& callback) const {
  ResetRow(scan, /*clustering=*/true);
  scan.row.key = scan.static_key;
  scan.row.static_only = true;
  ++counts_.live_rows;
  return callback(scan.row);
}

Status RowReader::ScanPartitions(
    std::string_view start_key, std::string_view end_key,
    const std::function<Result<bool>(const Bytes& prefix, std::vector<Bytes>& partition_key)>&
        visit) {
  storage::KeyRange range{Bytes(start_key), Bytes(end_key)};
  ASSIGN_OR_RETURN(std::unique_ptr<storage::FragmentIterator> it,
                   store_->NewIterator(table_->storage_id, range));
  it->SeekToFirst();
  while (it->Valid()) {
    ASSIGN_OR_RETURN(storage::ParsedKey parsed, storage::ParseKey(table_->shape, it->key()));
    Bytes prefix = storage::PartitionPrefix(table_->shape, parsed.token, parsed.partition_key);
    ASSIGN_OR_RETURN(bool more, visit(prefix, parsed.partition_key));
    if (!more) return Status::Ok();
    it->Seek(storage::PartitionEndKey(prefix));
  }
  return it->status();
}

}  // namespace engine
