// The RocksDB merge operator of every table column family: writes are blind `Merge` calls
// carrying an encoded RowFragment (row_fragment.h), and this operator folds them with the
// reconcile rules of cell_merge.h.
//
// Design (numbered invariants):
//
//  1. Every operand and every base value is an encoded RowFragment. A `Put` is a base value;
//     a `Delete` (or no base) is the empty fragment.
//  2. FullMergeV2 = encode(MergeAllFragments(base, operands...)); PartialMergeMulti =
//     encode(MergeAllFragments(operands...)). Because MergeFragments is commutative and
//     associative (cell_merge.h invariant 5), any grouping RocksDB picks gives the same bytes.
//  3. The operator never reads a clock: merging is deterministic. Time-dependent purging is the
//     compaction filter's job (compaction_filter.h).
//  4. A corrupt operand or base fails the merge (returns false), which RocksDB surfaces as a
//     Corruption status on the read or compaction; nothing is silently dropped.
//  5. The operator's name ("cqld.RowFragmentMerge.v1") is stored in the OPTIONS file; a change
//     of the fragment encoding that old code cannot read needs a new name.
//  6. A single operand without a base that is already canonical (cell_merge.h IsCanonical) is
//     returned as itself through `existing_operand`: the fragment encoding is one-to-one
//     (DecodeRowFragment accepts only what EncodeRowFragment writes), so these are the bytes
//     invariant 2 would produce, without re-encoding. This is the common case of a point read
//     of a row written once since its last compaction. An operand without row or collection
//     deletions that decodes is canonical, so it is recognized without decoding it into
//     memory (row_fragment.h IsEncodedWithoutDeletions).
//
// Thread-safety: stateless; RocksDB calls it from many threads at once.

#pragma once

#include <memory>

#include <rocksdb/merge_operator.h>

namespace storage {

class RowFragmentMergeOperator final : public rocksdb::MergeOperator {
 public:
  const char* Name() const override { return "cqld.RowFragmentMerge.v1"; }

  // Invariant 2 (with a base) and 4.
  bool FullMergeV2(const MergeOperationInput& merge_in,
                   MergeOperationOutput* merge_out) const override;

  // Invariant 2 (operands only) and 4.
  bool PartialMergeMulti(const rocksdb::Slice& key, const std::deque<rocksdb::Slice>& operand_list,
                         std::string* new_value, rocksdb::Logger* logger) const override;

  // Merging is cheap and order-free: let RocksDB merge even single operands.
  bool AllowSingleOperand() const override { return true; }
};

// A shared instance for ColumnFamilyOptions::merge_operator.
std::shared_ptr<rocksdb::MergeOperator> MakeRowFragmentMergeOperator();

}  // namespace storage
