#include "storage/merge_operator.h"

#include <gtest/gtest.h>

#include <deque>
#include <vector>

#include "storage/cell_merge.h"
#include "storage/storage_testing.h"

namespace storage {
namespace {

using testing::LiveCell;
using testing::RandomFragments;

RowFragment Decode(const std::string& bytes) {
  auto r = DecodeRowFragment(bytes);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : RowFragment{};
}

std::string FullMerge(const rocksdb::MergeOperator& op, const std::string* base,
                      const std::vector<std::string>& operands, bool* ok) {
  std::vector<rocksdb::Slice> slices(operands.begin(), operands.end());
  rocksdb::Slice base_slice = base ? rocksdb::Slice(*base) : rocksdb::Slice();
  rocksdb::MergeOperator::MergeOperationInput in("key", base ? &base_slice : nullptr, slices,
                                                 nullptr);
  std::string out;
  rocksdb::Slice existing(nullptr, 0);  // as RocksDB passes it: null until an operand is chosen
  rocksdb::MergeOperator::MergeOperationOutput merge_out(out, existing);
  *ok = op.FullMergeV2(in, &merge_out);
  // As RocksDB does: a result that is one of the operands comes back through `existing`.
  return existing.data() != nullptr ? existing.ToString() : out;
}

TEST(MergeOperatorTest, FullMergeEqualsMergeAll) {
  RowFragmentMergeOperator op;
  RandomFragments gen(11);
  for (int round = 0; round < 300; ++round) {
    std::vector<RowFragment> fragments;
    std::vector<std::string> operands;
    for (int i = 0; i < 4; ++i) {
      fragments.push_back(Canonical(gen.Fragment()));
      operands.push_back(EncodeRowFragment(fragments.back()));
    }
    std::string base = operands[0];
    std::vector<std::string> rest(operands.begin() + 1, operands.end());
    bool ok = false;
    std::string merged = FullMerge(op, &base, rest, &ok);
    ASSERT_TRUE(ok);
    EXPECT_EQ(Decode(merged), MergeAllFragments(fragments));
    // No base (Delete or end of data): the same as merging the operands alone.
    std::string no_base = FullMerge(op, nullptr, operands, &ok);
    ASSERT_TRUE(ok);
    EXPECT_EQ(no_base, merged);
  }
}

TEST(MergeOperatorTest, PartialThenFullEqualsFull) {
  RowFragmentMergeOperator op;
  RandomFragments gen(12);
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string> operands;
    for (int i = 0; i < 5; ++i) operands.push_back(EncodeRowFragment(Canonical(gen.Fragment())));
    std::deque<rocksdb::Slice> tail(operands.begin() + 2, operands.end());
    std::string partial;
    ASSERT_TRUE(op.PartialMergeMulti("key", tail, &partial, nullptr));
    bool ok = false;
    std::string grouped = FullMerge(op, nullptr, {operands[0], operands[1], partial}, &ok);
    ASSERT_TRUE(ok);
    EXPECT_EQ(grouped, FullMerge(op, nullptr, operands, &ok));
  }
}

// Invariant 6: one canonical operand without a base comes back as itself, the very bytes the
// full merge would write; a non-canonical one is still merged.
TEST(MergeOperatorTest, LoneOperandIsItsOwnMerge) {
  RowFragmentMergeOperator op;
  RandomFragments gen(13);
  int lone = 0;
  for (int round = 0; round < 500; ++round) {
    RowFragment fragment = gen.Fragment();
    std::string operand = EncodeRowFragment(Canonical(fragment));
    std::vector<rocksdb::Slice> slices = {rocksdb::Slice(operand)};
    rocksdb::MergeOperator::MergeOperationInput in("key", nullptr, slices, nullptr);
    std::string out;
    rocksdb::Slice existing(nullptr, 0);  // as RocksDB passes it: null until an operand is chosen
    rocksdb::MergeOperator::MergeOperationOutput merge_out(out, existing);
    ASSERT_TRUE(op.FullMergeV2(in, &merge_out));
    ASSERT_EQ(existing.data(), operand.data()) << round;
    ASSERT_EQ(existing.size(), operand.size()) << round;
    EXPECT_TRUE(out.empty());
    // The same fragment with its cells sorted and unique but its shadowed data kept: valid,
    // not canonical, and the merge drops what it shadows.
    RowFragment cells_only;
    cells_only.cells = fragment.cells;
    RowFragment shadowing = fragment;
    shadowing.cells = Canonical(cells_only).cells;
    if (IsCanonical(shadowing)) continue;
    std::string raw = EncodeRowFragment(shadowing);
    bool ok = false;
    std::string merged = FullMerge(op, nullptr, {raw}, &ok);
    ASSERT_TRUE(ok);
    EXPECT_EQ(merged, operand) << round;
    ++lone;
  }
  EXPECT_GT(lone, 50);
}

TEST(MergeOperatorTest, CorruptOperandFailsTheMerge) {
  RowFragmentMergeOperator op;
  RowFragment f;
  f.cells = {LiveCell(1, 1, "a")};
  bool ok = true;
  FullMerge(op, nullptr, {EncodeRowFragment(f), "\x01\x80"}, &ok);
  EXPECT_FALSE(ok);
  FullMerge(op, nullptr, {"\x01\x80"}, &ok);  // alone, too
  EXPECT_FALSE(ok);
  FullMerge(op, nullptr, {EncodeRowFragment(f) + "junk"}, &ok);
  EXPECT_FALSE(ok) << "a lone operand is checked too";
  std::string base = "junk";
  FullMerge(op, &base, {EncodeRowFragment(f)}, &ok);
  EXPECT_FALSE(ok);
  std::string out;
  std::deque<rocksdb::Slice> operands = {rocksdb::Slice("\x02")};
  operands.push_back(rocksdb::Slice("\x02"));
  EXPECT_FALSE(op.PartialMergeMulti("key", operands, &out, nullptr));
}

TEST(MergeOperatorTest, Name) {
  EXPECT_STREQ(MakeRowFragmentMergeOperator()->Name(), "cqld.RowFragmentMerge.v1");
}

}  // namespace
}  // namespace storage
