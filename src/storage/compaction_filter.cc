#include "storage/compaction_filter.h"

#include <string>

namespace storage {
namespace {

class RowFragmentCompactionFilter final : public rocksdb::CompactionFilter {
 public:
  RowFragmentCompactionFilter(int64_t now_seconds, int64_t gc_grace_seconds, bool drop_purgeable)
      : now_seconds_(now_seconds),
        gc_grace_seconds_(gc_grace_seconds),
        drop_purgeable_(drop_purgeable) {}

  const char* Name() const override { return "cqld.RowFragmentPurge.v1"; }

  Decision FilterV2(int /*level*/, const rocksdb::Slice& /*key*/, ValueType value_type,
                    const rocksdb::Slice& existing_value, std::string* new_value,
                    std::string* /*skip_until*/) const override {
    if (value_type != ValueType::kValue) return Decision::kKeep;  // invariant 5
    common::Result<RowFragment> fragment =
        DecodeRowFragment(std::string_view(existing_value.data(), existing_value.size()));
    if (!fragment.ok()) return Decision::kKeep;  // invariant 7
    if (!PurgeFragment(now_seconds_, gc_grace_seconds_, drop_purgeable_, &*fragment)) {
      return Decision::kKeep;
    }
    if (fragment->empty()) return Decision::kRemove;  // invariant 4
    new_value->clear();
    EncodeRowFragment(*fragment, new_value);
    return Decision::kChangeValue;
  }

 private:
  int64_t now_seconds_;
  int64_t gc_grace_seconds_;
  bool drop_purgeable_;
};

}  // namespace

bool PurgeFragment(int64_t now_seconds, int64_t gc_grace_seconds, bool drop_purgeable,
                   RowFragment* fragment) {
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
  if (fragment->deletion && fragment->deletion->local_deletion_time < gc_before) {
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

std::unique_ptr<rocksdb::CompactionFilter>
RowFragmentCompactionFilterFactory::CreateCompactionFilter(
    const rocksdb::CompactionFilter::Context& context) {
  int64_t now_seconds = clock_->NowMicros() / 1'000'000;  // invariant 6
  return std::make_unique<RowFragmentCompactionFilter>(now_seconds, gc_grace_seconds(),
                                                       context.is_full_compaction);
}

}  // namespace storage
