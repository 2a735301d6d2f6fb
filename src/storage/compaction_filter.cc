#include "storage/compaction_filter.h"

#include <string>
#include <utility>
#include <vector>

#include "storage/cell_merge.h"
#include "storage/key_layout.h"

namespace storage {
namespace {

// What an entry is, from its key (invariants 8 and 11).
enum class EntryKind {
  kUnknown,  // no shape, or a key that does not parse under it
  kPartitionDeletion,
  kStaticRow,
  kRangeTombstone,
  kRow,
};

struct RangeTombstone {
  common::Bytes start;  // row keys k with start <= k < end are covered
  common::Bytes end;
  DeletionTime deletion;
};

void Strongest(std::optional<DeletionTime>* current, const DeletionTime& candidate) {
  if (!*current || candidate.Supersedes(**current)) *current = candidate;
}

class RowFragmentCompactionFilter final : public rocksdb::CompactionFilter {
 public:
  RowFragmentCompactionFilter(int64_t now_seconds, std::shared_ptr<const TableOptions> options,
                              bool full_compaction, bool purge_partition_tombstones)
      : now_seconds_(now_seconds),
        options_(std::move(options)),
        full_compaction_(full_compaction),
        purge_partition_tombstones_(purge_partition_tombstones) {}

  const char* Name() const override { return "cqld.RowFragmentPurge.v1"; }

  // RocksDB calls this from the one thread running the compaction, key by key in order, so
  // the mutable per-partition state below needs no lock.
  Decision FilterV2(int /*level*/, const rocksdb::Slice& rocks_key, ValueType value_type,
                    const rocksdb::Slice& existing_value, std::string* new_value,
                    std::string* /*skip_until*/) const override {
    if (value_type != ValueType::kValue && value_type != ValueType::kMergeOperand) {
      return Decision::kKeep;
    }
    std::string_view key(rocks_key.data(), rocks_key.size());
    std::string_view value(existing_value.data(), existing_value.size());
    EntryKind kind = Locate(key);
    // An operand changes only in the pass that purges partition and range tombstones
    // (FilterOperand); outside it, one that records no deletion (invariant 8) is kept
    // undecoded: every row of a bulk load is such an operand until a merge folds it.
    if (value_type == ValueType::kMergeOperand && !purge_partition_tombstones_ &&
        kind != EntryKind::kPartitionDeletion && kind != EntryKind::kRangeTombstone) {
      return Decision::kKeep;
    }
    common::Result<RowFragment> fragment = DecodeRowFragment(value);
    if (!fragment.ok()) return Decision::kKeep;  // invariant 7

    // Record the partition's deletions before anything is decided (invariant 9).
    bool tombstone_known = true;
    if (kind == EntryKind::kPartitionDeletion && fragment->deletion) {
      Strongest(&partition_deletion_, *fragment->deletion);
    } else if (kind == EntryKind::kRangeTombstone) {
      tombstone_known = RecordRange(key, *fragment);
    }

    if (value_type == ValueType::kMergeOperand) {
      return FilterOperand(key, kind, std::move(*fragment), value, new_value);
    }

    bool changed = false;
    bool may_drop_deletion = false;
    switch (kind) {
      case EntryKind::kPartitionDeletion:
      case EntryKind::kRangeTombstone:
        may_drop_deletion = purge_partition_tombstones_ && tombstone_known;
        break;
      case EntryKind::kStaticRow:
      case EntryKind::kRow: {
        std::optional<DeletionTime> covering = Covering(key, kind);
        if (covering) changed |= DropShadowed(*covering, &*fragment);
        may_drop_deletion = true;  // the row's own deletion: row-level purge
        break;
      }
      case EntryKind::kUnknown:
        may_drop_deletion = !options_->shape && options_->row_entries_only;
        break;
    }
    changed |= PurgeFragment(now_seconds_, options_->gc_grace_seconds, full_compaction_, &*fragment,
                             may_drop_deletion);
    if (!changed) return Decision::kKeep;
    if (fragment->empty()) return Decision::kRemove;  // invariant 4
    new_value->clear();
    EncodeRowFragment(*fragment, new_value);
    return Decision::kChangeValue;
  }

 private:
  // Invariant 10: in the pass that purges partition and range tombstones, a covered row's
  // operand carries the covering deletion into the merge.
  Decision FilterOperand(std::string_view key, EntryKind kind, RowFragment operand,
                         std::string_view value, std::string* new_value) const {
    if (!purge_partition_tombstones_) return Decision::kKeep;
    if (kind != EntryKind::kRow && kind != EntryKind::kStaticRow) return Decision::kKeep;
    std::optional<DeletionTime> covering = Covering(key, kind);
    if (!covering) return Decision::kKeep;
    RowFragment deletion;
    deletion.deletion = *covering;
    RowFragment merged = MergeFragments(operand, deletion);
    new_value->clear();
    EncodeRowFragment(merged, new_value);
    if (*new_value == value) return Decision::kKeep;
    return Decision::kChangeValue;
  }

  // Classifies `key`, moving the per-partition state to its partition.
  EntryKind Locate(std::string_view key) const {
    if (!options_->shape) return EntryKind::kUnknown;
    if (prefix_.empty() || key.size() <= prefix_.size() || !key.starts_with(prefix_)) {
      // A new partition (components are prefix-free, so a key that starts with the current
      // prefix belongs to the current partition).
      prefix_.clear();
      partition_deletion_.reset();
      ranges_.clear();
      common::Result<size_t> size = PartitionPrefixSize(*options_->shape, key);
      if (!size.ok() || *size >= key.size()) return EntryKind::kUnknown;
      prefix_.assign(key.substr(0, *size));
    }
    switch (static_cast<uint8_t>(key[prefix_.size()])) {
      case static_cast<uint8_t>(KeySection::kPartitionDeletion):
        return EntryKind::kPartitionDeletion;
      case static_cast<uint8_t>(KeySection::kStaticRow):
        return EntryKind::kStaticRow;
      case static_cast<uint8_t>(KeySection::kRangeTombstone):
        return EntryKind::kRangeTombstone;
      case static_cast<uint8_t>(KeySection::kRow):
        return EntryKind::kRow;
      default:
        return EntryKind::kUnknown;
    }
  }

  // Records the range tombstone of entry `key`; false when its bounds do not parse.
  bool RecordRange(std::string_view key, const RowFragment& fragment) const {
    common::Result<ParsedKey> parsed = ParseKey(*options_->shape, key);
    if (!parsed.ok()) return false;
    if (fragment.deletion) {
      ranges_.push_back(RangeTombstone{RowBoundKey(*options_->shape, prefix_, parsed->range_start),
                                       RowBoundKey(*options_->shape, prefix_, parsed->range_end),
                                       *fragment.deletion});
    }
    return true;
  }

  // The strongest recorded deletion covering the row or static row `key`.
  std::optional<DeletionTime> Covering(std::string_view key, EntryKind kind) const {
    std::optional<DeletionTime> covering = partition_deletion_;
    if (kind != EntryKind::kRow) return covering;
    // Rows come in key order: a range that ends at or before this row covers no later one.
    std::erase_if(ranges_, [&](const RangeTombstone& range) { return range.end <= key; });
    for (const RangeTombstone& range : ranges_) {
      if (range.start <= key) Strongest(&covering, range.deletion);
    }
    return covering;
  }

  const int64_t now_seconds_;
  const std::shared_ptr<const TableOptions> options_;
  const bool full_compaction_;
  const bool purge_partition_tombstones_;

  // The partition of the last key seen (empty: none or unparsable) and its deletions.
  mutable common::Bytes prefix_;
  mutable std::optional<DeletionTime> partition_deletion_;
  mutable std::vector<RangeTombstone> ranges_;
};

}  // namespace

bool PurgeFragment(int64_t now_seconds, int64_t gc_grace_seconds, bool drop_purgeable,
                   RowFragment* fragment, bool may_drop_deletion) {
  bool changed = false;
  const int64_t gc_before = now_seconds - gc_grace_seconds;
  for (Cell& cell : fragment->cells) {
    if (cell.is_expiring() && !cell.IsLive(now_seconds)) {  // invariant 1
      cell.kind = CellKind::kTombstone;
      cell.local_deletion_time -= cell.ttl;
      cell.ttl = 0;
      cell.value.clear();
      changed = true;
    }
  }
  if (!drop_purgeable) return changed;
  size_t before = fragment->cells.size();
  std::erase_if(fragment->cells, [&](const Cell& cell) {
    return cell.is_tombstone() && cell.local_deletion_time < gc_before;
  });
  changed |= fragment->cells.size() != before;
  if (may_drop_deletion && fragment->deletion &&
      fragment->deletion->local_deletion_time < gc_before) {
    fragment->deletion.reset();
    changed = true;
  }
  size_t erased = std::erase_if(fragment->collection_deletions, [&](const auto& entry) {
    return entry.second.local_deletion_time < gc_before;
  });
  changed |= erased > 0;
  if (fragment->liveness && !fragment->liveness->IsLive(now_seconds) &&
      fragment->liveness->local_expiration_time < gc_before) {
    fragment->liveness.reset();
    changed = true;
  }
  return changed;
}

bool DropShadowed(const DeletionTime& deletion, RowFragment* fragment) {
  bool changed = false;
  if (fragment->liveness && deletion.Deletes(fragment->liveness->timestamp)) {
    fragment->liveness.reset();
    changed = true;
  }
  if (fragment->deletion && deletion.Deletes(fragment->deletion->timestamp)) {
    fragment->deletion.reset();
    changed = true;
  }
  size_t erased = std::erase_if(fragment->collection_deletions, [&](const auto& entry) {
    return deletion.Deletes(entry.second.timestamp);
  });
  changed |= erased > 0;
  erased = std::erase_if(fragment->cells,
                         [&](const Cell& cell) { return deletion.Deletes(cell.timestamp); });
  changed |= erased > 0;
  return changed;
}

RowFragmentCompactionFilterFactory::RowFragmentCompactionFilterFactory(const common::Clock* clock,
                                                                       TableOptions options)
    : clock_(clock), options_(std::make_shared<const TableOptions>(std::move(options))) {}

void RowFragmentCompactionFilterFactory::set_options(TableOptions options) {
  auto shared = std::make_shared<const TableOptions>(std::move(options));
  std::lock_guard lock(mutex_);
  options_ = std::move(shared);
}

TableOptions RowFragmentCompactionFilterFactory::options() const {
  std::lock_guard lock(mutex_);
  return *options_;
}

int64_t RowFragmentCompactionFilterFactory::gc_grace_seconds() const {
  std::lock_guard lock(mutex_);
  return options_->gc_grace_seconds;
}

std::unique_ptr<rocksdb::CompactionFilter>
RowFragmentCompactionFilterFactory::CreateCompactionFilter(
    const rocksdb::CompactionFilter::Context& context) {
  int64_t now_seconds = clock_->NowMicros() / 1'000'000;  // invariant 6
  std::shared_ptr<const TableOptions> options;
  {
    std::lock_guard lock(mutex_);
    options = options_;
  }
  bool purge_tombstones =
      purge_partition_tombstones() && context.is_full_compaction && context.is_manual_compaction;
  return std::make_unique<RowFragmentCompactionFilter>(
      now_seconds, std::move(options), context.is_full_compaction, purge_tombstones);
}

}  // namespace storage
