#include "storage/merge_operator.h"

#include <utility>
#include <vector>

#include "storage/cell_merge.h"
#include "storage/row_fragment.h"

namespace storage {
namespace {

// Decodes `bytes` and merges it into `*acc`; false on corruption (invariant 4).
bool MergeInto(const rocksdb::Slice& bytes, RowFragment* acc) {
  common::Result<RowFragment> fragment =
      DecodeRowFragment(std::string_view(bytes.data(), bytes.size()));
  if (!fragment.ok()) return false;
  *acc = MergeFragments(std::move(*acc), std::move(fragment).value());
  return true;
}

}  // namespace

bool RowFragmentMergeOperator::FullMergeV2(const MergeOperationInput& merge_in,
                                           MergeOperationOutput* merge_out) const {
  if (merge_in.existing_value == nullptr && merge_in.operand_list.size() == 1) {
    // Invariant 6: a lone canonical operand is its own merge; RocksDB copies it out (or keeps
    // it pinned) instead of our re-encoding it. Decoding still checks it (invariant 4).
    const rocksdb::Slice& operand = merge_in.operand_list.front();
    // Most operands (a row written once) carry no deletion: checked without decoding them.
    if (IsEncodedWithoutDeletions(std::string_view(operand.data(), operand.size()))) {
      merge_out->existing_operand = operand;
      return true;
    }
    common::Result<RowFragment> fragment =
        DecodeRowFragment(std::string_view(operand.data(), operand.size()));
    if (!fragment.ok()) return false;
    if (IsCanonical(*fragment)) {
      merge_out->existing_operand = operand;
      return true;
    }
  }
  RowFragment acc;
  if (merge_in.existing_value != nullptr && !MergeInto(*merge_in.existing_value, &acc)) {
    return false;
  }
  for (const rocksdb::Slice& operand : merge_in.operand_list) {
    if (!MergeInto(operand, &acc)) return false;
  }
  merge_out->new_value.clear();
  EncodeRowFragment(acc, &merge_out->new_value);
  return true;
}

bool RowFragmentMergeOperator::PartialMergeMulti(const rocksdb::Slice& /*key*/,
                                                 const std::deque<rocksdb::Slice>& operand_list,
                                                 std::string* new_value,
                                                 rocksdb::Logger* /*logger*/) const {
  RowFragment acc;
  for (const rocksdb::Slice& operand : operand_list) {
    if (!MergeInto(operand, &acc)) return false;
  }
  new_value->clear();
  EncodeRowFragment(acc, new_value);
  return true;
}

std::shared_ptr<rocksdb::MergeOperator> MakeRowFragmentMergeOperator() {
  return std::make_shared<RowFragmentMergeOperator>();
}

}  // namespace storage
