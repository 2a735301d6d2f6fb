#include "engine/change_capture.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "engine/row_reader.h"
#include "storage/cell_merge.h"
#include "storage/key_layout.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;
using storage::DeletionTime;
using storage::KeySection;
using storage::RowFragment;

namespace {

// The mutations of one partition, merged per key.
struct PartitionMutations {
  std::vector<Bytes> values;
  PartitionLevel level;
  std::map<Bytes, RowFragment> rows;
};

void MergeInto(std::optional<RowFragment>* target, const RowFragment& fragment) {
  *target = *target ? storage::MergeFragments(**target, fragment) : storage::Canonical(fragment);
}

Result<RangeDeletion> ParseRangeDeletion(const TableSchema& base, std::string_view prefix,
                                         std::string_view key, const DeletionTime& deletion) {
  ASSIGN_OR_RETURN(storage::ParsedKey parsed, storage::ParseKey(base.shape, key));
  return RangeDeletion{storage::RowBoundKey(base.shape, prefix, parsed.range_start),
                       storage::RowBoundKey(base.shape, prefix, parsed.range_end), deletion};
}

// Reads the stored row entries with keys in [start, end) into `rows`.
Status ReadRows(storage::FragmentIterator* it, std::string_view start, std::string_view end,
                std::map<Bytes, RowFragment>* rows) {
  for (it->Seek(start); it->Valid(); it->Next()) {
    std::string_view key = it->key();
    if (key >= end) break;
    if (rows->contains(Bytes(key))) continue;
    ASSIGN_OR_RETURN(RowFragment fragment, it->fragment());
    rows->emplace(Bytes(key), storage::Canonical(std::move(fragment)));
  }
  return it->status();
}

// Assembles the rows of one partition under one partition-level state, as RowReader does.
class RowAssembler {
 public:
  RowAssembler(const storage::Store& store, const TableSchema& base, int64_t now_seconds,
               std::span<const Bytes> partition_key, const PartitionLevel& level)
      : reader_(&store, &base, now_seconds), base_(base), now_seconds_(now_seconds), level_(level) {
    template_.cells.resize(base.table->columns.size());
    for (size_t i = 0; i < base.partition_key.size() && i < partition_key.size(); ++i) {
      template_.cells[base.partition_key[i]].value = partition_key[i];
    }
    if (level.statics) {
      std::optional<DeletionTime> deletion = level.deletion;
      if (level.statics->deletion) KeepStrongest(&deletion, *level.statics->deletion);
      bool static_live = false;
      reader_.AssembleCells(*level.statics, deletion, /*is_static=*/true, &template_, &static_live);
      if (static_live) {
        for (const storage::Cell& cell : level.statics->cells) {
          if (IsLiveCell(cell, deletion, schema::ColumnKind::kStatic)) {
            static_live_.cells.push_back(cell);
          }
        }
      }
    }
  }

  // Whether the partition has live static cells.
  bool has_live_statics() const { return !static_live_.cells.empty(); }
  // The live static cells (row_change.h).
  const RowFragment& static_live() const { return static_live_; }

  // The partition's static-only row (row_change.h), with key `static_key`.
  // REQUIRES: has_live_statics().
  RowData StaticOnly(const Bytes& static_key) const {
    RowData row = template_;
    row.key = static_key;
    row.static_only = true;
    return row;
  }

  // The live row stored under `key` as `fragment` (nullopt when it is not live), and its live
  // cells and marker in `*live` (row_change.h).
  std::optional<RowData> Assemble(std::string_view key, const std::vector<Bytes>& clustering,
                                  const RowFragment& fragment, RowFragment* live) const {
    *live = RowFragment();
    std::optional<DeletionTime> deletion = level_.deletion;
    for (const RangeDeletion& range : level_.ranges) {
      if (range.start <= key && key < range.end) KeepStrongest(&deletion, range.deletion);
    }
    if (fragment.deletion) KeepStrongest(&deletion, *fragment.deletion);
    RowData row = template_;
    bool live_cell = false;
    reader_.AssembleCells(fragment, deletion, /*is_static=*/false, &row, &live_cell);
    if (fragment.liveness && fragment.liveness->IsLive(now_seconds_) &&
        !(deletion && deletion->Deletes(fragment.liveness->timestamp))) {
      live->liveness = fragment.liveness;
    }
    if (live_cell) {
      for (const storage::Cell& cell : fragment.cells) {
        if (IsLiveCell(cell, deletion, schema::ColumnKind::kRegular)) live->cells.push_back(cell);
      }
    }
    if (!live->liveness && live->cells.empty()) return std::nullopt;
    for (size_t i = 0; i < base_.clustering.size() && i < clustering.size(); ++i) {
      row.cells[base_.clustering[i]].value = clustering[i];
    }
    row.key.assign(key);
    row.static_only = false;
    return row;
  }

 private:
  // The filter RowReader::AssembleCells applies to the cells of a clustered row (`kind` =
  // kRegular) or of the static row (kStatic).
  bool IsLiveCell(const storage::Cell& cell, const std::optional<DeletionTime>& deletion,
                  schema::ColumnKind kind) const {
    int index = base_.IndexOfColumnId(cell.column_id);
    if (index < 0) return false;
    const schema::ColumnMetadata& column = base_.column(index);
    if (column.kind != kind) return false;
    if (deletion && deletion->Deletes(cell.timestamp)) return false;
    if (!cell.IsLive(now_seconds_)) return false;
    auto dropped = base_.table->dropped_columns.find(column.name);
    return dropped == base_.table->dropped_columns.end() ||
           cell.timestamp > dropped->second.dropped_time_micros;
  }

  RowReader reader_;
  const TableSchema& base_;
  int64_t now_seconds_;
  const PartitionLevel& level_;
  RowData template_;  // partition key and static values, shared by every row
  RowFragment static_live_;
};

// The changes of one partition, appended to `out`. `mutations` may be empty with `whole` set
// (backfill: every row, unchanged). With `statics_matter`, a static-only row is reported too
// (row_change.h).
Status CapturePartition(const storage::Store& store, const TableSchema& base, const Bytes& prefix,
                        const PartitionMutations& mutations, bool whole, bool statics_matter,
                        int64_t now_seconds, std::vector<RowChange>* out) {
  storage::KeyRange range{prefix, storage::PartitionEndKey(prefix)};
  ASSIGN_OR_RETURN(std::unique_ptr<storage::FragmentIterator> it,
                   store.NewIterator(base.storage_id, range));
  PartitionLevel before_level;
  RETURN_IF_ERROR(ReadPartitionLevel(it.get(), base.shape, prefix, &before_level));

  std::map<Bytes, RowFragment> stored;
  if (whole) {
    Bytes rows_start = prefix;
    rows_start.push_back(static_cast<char>(KeySection::kRow));
    RETURN_IF_ERROR(ReadRows(it.get(), rows_start, range.upper, &stored));
  } else {
    for (const RangeDeletion& covered : mutations.level.ranges) {
      RETURN_IF_ERROR(ReadRows(it.get(), covered.start, covered.end, &stored));
    }
    for (const auto& [key, fragment] : mutations.rows) {
      Bytes end = key;
      end.push_back('\0');
      RETURN_IF_ERROR(ReadRows(it.get(), key, end, &stored));
    }
  }

  PartitionLevel after_level = before_level;
  if (mutations.level.deletion) KeepStrongest(&after_level.deletion, *mutations.level.deletion);
  if (mutations.level.statics) MergeInto(&after_level.statics, *mutations.level.statics);
  for (const RangeDeletion& added : mutations.level.ranges) after_level.ranges.push_back(added);

  std::map<Bytes, std::pair<const RowFragment*, const RowFragment*>> keys;  // stored, mutation
  for (const auto& [key, fragment] : stored) keys[key].first = &fragment;
  for (const auto& [key, fragment] : mutations.rows) keys[key].second = &fragment;

  RowAssembler before(store, base, now_seconds, mutations.values, before_level);
  RowAssembler after(store, base, now_seconds, mutations.values, after_level);
  const RowFragment empty;
  const size_t first = out->size();
  bool live_row_before = false;
  bool live_row_after = false;
  for (const auto& [key, fragments] : keys) {
    ASSIGN_OR_RETURN(storage::ParsedKey parsed, storage::ParseKey(base.shape, key));
    const RowFragment& stored_fragment = fragments.first ? *fragments.first : empty;
    RowChange change;
    change.before = before.Assemble(key, parsed.clustering, stored_fragment, &change.before_live);
    if (fragments.second) {
      RowFragment merged = storage::MergeFragments(stored_fragment, *fragments.second);
      change.after = after.Assemble(key, parsed.clustering, merged, &change.after_live);
    } else {
      change.after = after.Assemble(key, parsed.clustering, stored_fragment, &change.after_live);
    }
    if (!change.before && !change.after) continue;
    live_row_before = live_row_before || change.before.has_value();
    live_row_after = live_row_after || change.after.has_value();
    if (change.before) change.before_static_live = before.static_live();
    if (change.after) change.after_static_live = after.static_live();
    change.partition = PartitionKey{prefix, mutations.values};
    change.clustering = std::move(parsed.clustering);
    out->push_back(std::move(change));
  }
  if (!statics_matter || !(before.has_live_statics() || after.has_live_statics())) {
    return Status::Ok();
  }

  // The static-only row, on each side where the partition has live statics and no live row.
  // Rows that were not read are untouched: live on both sides or on neither (whatever could
  // change their liveness — a range or partition tombstone — made them read), so one live
  // untouched row settles both sides.
  bool need_before = before.has_live_statics() && !live_row_before;
  bool need_after = after.has_live_statics() && !live_row_after;
  if (!whole && (need_before || need_after)) {
    Bytes rows_start = prefix;
    rows_start.push_back(static_cast<char>(KeySection::kRow));
    bool live_untouched = false;
    for (it->Seek(rows_start); it->Valid() && !live_untouched; it->Next()) {
      std::string_view key = it->key();
      if (keys.contains(Bytes(key))) continue;
      ASSIGN_OR_RETURN(RowFragment fragment, it->fragment());
      ASSIGN_OR_RETURN(storage::ParsedKey parsed, storage::ParseKey(base.shape, key));
      RowFragment live;
      live_untouched =
          before.Assemble(key, parsed.clustering, storage::Canonical(std::move(fragment)), &live)
              .has_value();
    }
    RETURN_IF_ERROR(it->status());
    if (live_untouched) need_before = need_after = false;
  }
  if (!need_before && !need_after) return Status::Ok();
  RowChange change;
  Bytes static_key = storage::StaticRowKey(prefix);
  if (need_before) {
    change.before = before.StaticOnly(static_key);
    change.before_static_live = before.static_live();
  }
  if (need_after) {
    change.after = after.StaticOnly(static_key);
    change.after_static_live = after.static_live();
  }
  change.partition = PartitionKey{prefix, mutations.values};
  out->insert(out->begin() + static_cast<std::ptrdiff_t>(first), std::move(change));
  return Status::Ok();
}

}  // namespace

Result<std::vector<RowChange>> CaptureChanges(const storage::Store& store, const TableSchema& base,
                                              std::span<const Mutation> mutations,
                                              int64_t now_seconds, bool statics_matter) {
  std::map<Bytes, PartitionMutations> partitions;  // by prefix: token order
  for (const Mutation& m : mutations) {
    const Bytes& prefix = m.partition_prefix;
    if (m.key.size() <= prefix.size() || m.key.compare(0, prefix.size(), prefix) != 0) {
      return Status::Internal("mutation key outside its partition");
    }
    auto [it, inserted] = partitions.try_emplace(prefix);
    PartitionMutations& partition = it->second;
    if (inserted) partition.values = m.partition_key;
    switch (static_cast<KeySection>(static_cast<uint8_t>(m.key[prefix.size()]))) {
      case KeySection::kPartitionDeletion:
        if (m.fragment.deletion) KeepStrongest(&partition.level.deletion, *m.fragment.deletion);
        break;
      case KeySection::kStaticRow:
        MergeInto(&partition.level.statics, m.fragment);
        break;
      case KeySection::kRangeTombstone:
        if (m.fragment.deletion) {
          ASSIGN_OR_RETURN(RangeDeletion range,
                           ParseRangeDeletion(base, prefix, m.key, *m.fragment.deletion));
          partition.level.ranges.push_back(std::move(range));
        }
        break;
      case KeySection::kRow: {
        auto [row, added] = partition.rows.try_emplace(m.key, m.fragment);
        if (!added) row->second = storage::MergeFragments(row->second, m.fragment);
        break;
      }
      default:
        return Status::Internal("mutation key with an unknown section");
    }
  }
  std::vector<RowChange> changes;
  for (const auto& [prefix, partition] : partitions) {
    bool whole = partition.level.deletion.has_value() ||
                 (statics_matter && partition.level.statics.has_value());
    if (!whole && partition.level.ranges.empty() && partition.rows.empty()) continue;
    RETURN_IF_ERROR(CapturePartition(store, base, prefix, partition, whole, statics_matter,
                                     now_seconds, &changes));
  }
  return changes;
}

Status ForEachBaseRow(const ExecutionContext& context, const TableSchema& base,
                      const BackfillFunction& fill) {
  RowReader scanner(context.store, &base, context.NowSeconds());
  return scanner.ScanPartitions(
      "", "", [&](const Bytes& prefix, std::vector<Bytes>& partition_key) -> Result<bool> {
        std::lock_guard<std::mutex> lock(context.locks->For(base.storage_id, prefix));
        PartitionMutations none;
        none.values = partition_key;
        std::vector<RowChange> rows;
        int64_t now_seconds = context.NowSeconds();
        RETURN_IF_ERROR(CapturePartition(*context.store, base, prefix, none, /*whole=*/true,
                                         /*statics_matter=*/true, now_seconds, &rows));
        if (rows.empty()) return true;
        for (RowChange& row : rows) {
          row.before.reset();
          row.before_live = RowFragment();
          row.before_static_live = RowFragment();
        }
        storage::WriteBatch batch;
        RETURN_IF_ERROR(fill(rows, now_seconds, &batch));
        if (!batch.empty()) RETURN_IF_ERROR(context.store->Write(batch));
        return true;
      });
}

}  // namespace engine
