#include "engine/row_reader.h"

#include <algorithm>
#include <utility>

#include "cql/types/value_codec.h"
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
    if (!cell.IsLive(now_seconds_)) continue;
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

Result<bool> RowReader::ReadSingleRowPartition(std::string_view prefix,
                                               std::span<const Bytes> partition_key,
                                               const KeyInterval& interval,
                                               const RowCallback& callback) {
  // Without clustering columns a partition holds at most its one row and, in a family from
  // before single_row_partitions, a partition tombstone (no static columns, no range
  // tombstones), so point reads replace an iterator.
  Bytes row_key = storage::RowKey(table_->shape, prefix, std::span<const Bytes>());
  if (row_key < interval.start || !(row_key < interval.end)) return true;
  ASSIGN_OR_RETURN(
      storage::Store::PartitionRow read,
      store_->GetPartitionRow(table_->storage_id, storage::PartitionDeletionKey(prefix), row_key));
  std::optional<RowFragment>& fragment = read.row;
  if (!fragment) return true;
  std::optional<DeletionTime> deletion;
  if (read.deletion && read.deletion->deletion) deletion = *read.deletion->deletion;
  if (fragment->deletion) KeepStrongest(&deletion, *fragment->deletion);
  RowData row;
  row.cells.resize(table_->table->columns.size());
  for (size_t i = 0; i < table_->partition_key.size() && i < partition_key.size(); ++i) {
    row.cells[table_->partition_key[i]].value = partition_key[i];
  }
  bool live_cell = false;
  AssembleCells(*fragment, deletion, /*is_static=*/false, &row, &live_cell);
  bool marker_live = fragment->liveness && fragment->liveness->IsLive(now_seconds_) &&
                     !(deletion && deletion->Deletes(fragment->liveness->timestamp));
  if (!marker_live && !live_cell) return true;
  row.key = std::move(row_key);
  row.static_only = false;
  return callback(row);
}

Result<bool> RowReader::ReadPartition(std::string_view prefix, std::span<const Bytes> partition_key,
                                      const PartitionReadOptions& options,
                                      const RowCallback& callback) {
  const storage::KeyShape& shape = table_->shape;
  if (table_->clustering.empty() && !options.distinct && options.resume_after.empty() &&
      options.intervals.size() == 1) {
    return ReadSingleRowPartition(prefix, partition_key, options.intervals[0], callback);
  }
  storage::KeyRange range{Bytes(prefix), storage::PartitionEndKey(prefix)};
  ASSIGN_OR_RETURN(std::unique_ptr<storage::FragmentIterator> it,
                   store_->NewIterator(table_->storage_id, range));

  // Partition-level entries sort first: partition tombstone, static row, range tombstones.
  PartitionLevel level;
  RETURN_IF_ERROR(ReadPartitionLevel(it.get(), shape, prefix, &level));
  const std::optional<DeletionTime>& partition_deletion = level.deletion;
  const std::optional<RowFragment>& static_fragment = level.statics;
  const std::vector<RangeDeletion>& range_tombstones = level.ranges;
  Bytes row_section_start(prefix);
  row_section_start.push_back(static_cast<char>(KeySection::kRow));

  const size_t column_count = table_->table->columns.size();
  RowData row;
  row.cells.resize(column_count);
  for (size_t i = 0; i < table_->partition_key.size() && i < partition_key.size(); ++i) {
    row.cells[table_->partition_key[i]].value = partition_key[i];
  }
  // Static cells, shared by every row of the partition.
  std::vector<CellData> static_cells;
  bool static_live = false;
  if (static_fragment) {
    std::optional<DeletionTime> deletion = partition_deletion;
    if (static_fragment->deletion) KeepStrongest(&deletion, *static_fragment->deletion);
    AssembleCells(*static_fragment, deletion, /*is_static=*/true, &row, &static_live);
    for (int index : table_->statics) static_cells.push_back(row.cells[index]);
  }
  auto reset_row = [&]() {
    for (int index : table_->clustering) row.cells[index] = CellData();
    for (int index : table_->regulars) row.cells[index] = CellData();
    for (size_t i = 0; i < table_->statics.size(); ++i) {
      row.cells[table_->statics[i]] = static_cells.empty() ? CellData() : static_cells[i];
    }
  };

  std::vector<Bytes> clustering;  // reused by load_row across rows
  // Whether the row entry at the iterator is live; fills `row` when it is.
  auto load_row = [&](std::string_view key) -> Result<bool> {
    ASSIGN_OR_RETURN(RowFragment fragment, it->fragment());
    std::optional<DeletionTime> deletion = partition_deletion;
    for (const RangeDeletion& rt : range_tombstones) {
      if (rt.start <= key && key < rt.end) KeepStrongest(&deletion, rt.deletion);
    }
    if (fragment.deletion) KeepStrongest(&deletion, *fragment.deletion);
    reset_row();
    bool live_cell = false;
    AssembleCells(fragment, deletion, /*is_static=*/false, &row, &live_cell);
    bool marker_live = fragment.liveness && fragment.liveness->IsLive(now_seconds_) &&
                       !(deletion && deletion->Deletes(fragment.liveness->timestamp));
    if (!marker_live && !live_cell) return false;
    // Only the clustering values follow the known prefix; no need to re-parse the whole key.
    RETURN_IF_ERROR(storage::ParseRowClustering(shape, prefix.size(), key, &clustering));
    for (size_t i = 0; i < table_->clustering.size() && i < clustering.size(); ++i) {
      row.cells[table_->clustering[i]].value = std::move(clustering[i]);
    }
    row.key.assign(key);
    row.static_only = false;
    return true;
  };

  Bytes static_key = storage::StaticRowKey(prefix);
  if (options.distinct) {
    bool live = static_live;
    if (!live) {
      for (it->Seek(row_section_start); it->Valid() && !live; it->Next()) {
        ASSIGN_OR_RETURN(live, load_row(it->key()));
      }
      RETURN_IF_ERROR(it->status());
    }
    if (!live) return true;
    if (!options.resume_after.empty() && options.resume_after >= static_key) return true;
    reset_row();
    row.key = static_key;
    row.static_only = true;
    return callback(row);
  }

  bool emitted = false;
  const size_t n = options.intervals.size();
  for (size_t step = 0; step < n; ++step) {
    const KeyInterval& interval = options.intervals[options.reverse ? n - 1 - step : step];
    if (!options.reverse) {
      std::string_view start = interval.start;
      if (!options.resume_after.empty() && options.resume_after >= start) {
        start = options.resume_after;
      }
      // The iterator is usually already at or past `start`: the partition-level scan leaves
      // it on the first row, an earlier interval at the first key past that interval's end.
      // Then no key lies between `start` and it, so skip the seek (it costs as much as the rest
      // of a single-row read). Only when this interval starts at or after the previous one's
      // end, as PartitionReadOptions requires; otherwise seek as before.
      bool after_previous = step == 0 || options.intervals[step - 1].end <= interval.start;
      if (!after_previous || !it->Valid() || it->key() < start) it->Seek(start);
      for (; it->Valid(); it->Next()) {
        std::string_view key = it->key();
        if (key >= std::string_view(interval.end)) break;
        if (!options.resume_after.empty() && key <= options.resume_after) continue;
        ASSIGN_OR_RETURN(bool live, load_row(key));
        if (!live) continue;
        emitted = true;
        ASSIGN_OR_RETURN(bool more, callback(row));
        if (!more) return false;
      }
    } else {
      std::string_view end = interval.end;
      if (!options.resume_after.empty() && options.resume_after < end) end = options.resume_after;
      for (it->SeekForPrev(end); it->Valid(); it->Prev()) {
        std::string_view key = it->key();
        if (key >= end) continue;  // the end is exclusive
        if (key < std::string_view(interval.start)) break;
        ASSIGN_OR_RETURN(bool live, load_row(key));
        if (!live) continue;
        emitted = true;
        ASSIGN_OR_RETURN(bool more, callback(row));
        if (!more) return false;
      }
    }
    RETURN_IF_ERROR(it->status());
  }
  if (!emitted && options.static_only_when_empty && static_live &&
      (options.resume_after.empty() || options.resume_after < static_key)) {
    reset_row();
    row.key = static_key;
    row.static_only = true;
    return callback(row);
  }
  return true;
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
