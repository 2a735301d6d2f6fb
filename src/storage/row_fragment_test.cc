#include "storage/row_fragment.h"

#include <gtest/gtest.h>

#include "storage/cell_merge.h"
#include "storage/storage_testing.h"

namespace storage {
namespace {

int Sign(std::strong_ordering o) { return o < 0 ? -1 : (o > 0 ? 1 : 0); }

using testing::ExpiringCell;
using testing::LiveCell;
using testing::TombstoneCell;
using testing::WithPath;

RowFragment SampleFragment() {
  RowFragment f;
  f.liveness = LivenessInfo{1000, 60, 1700000060};
  f.deletion = DeletionTime{900, 1700000000};
  f.collection_deletions[3] = DeletionTime{950, 1700000001};
  f.cells.push_back(LiveCell(1, 1001, std::string("\x00\x00\x00\x2a", 4)));
  f.cells.push_back(ExpiringCell(2, 1002, "hello", 60, 1700000060));
  f.cells.push_back(WithPath(LiveCell(3, 1003, "v"), "key1"));
  f.cells.push_back(WithPath(TombstoneCell(3, 1004, 1700000002), "key2"));
  return f;
}

TEST(RowFragmentTest, RoundTripsEveryField) {
  RowFragment f = SampleFragment();
  ASSERT_TRUE(ValidateRowFragment(f).ok());
  common::Bytes bytes = EncodeRowFragment(f);
  auto decoded = DecodeRowFragment(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, f);
}

TEST(RowFragmentTest, EmptyFragmentIsFourBytes) {
  common::Bytes bytes = EncodeRowFragment(RowFragment{});
  EXPECT_EQ(common::ToHex(bytes), "01000000");
  auto decoded = DecodeRowFragment(bytes);
  ASSERT_TRUE(decoded.ok());
  EXPECT_TRUE(decoded->empty());
}

TEST(RowFragmentTest, KnownEncodingOfOneLiveCell) {
  RowFragment f;
  f.cells.push_back(LiveCell(5, 3, "ab"));
  // version 01, flags 00, 0 collection deletions, 1 cell: column 05, flags 00, zig-zag ts 06,
  // value length 02, "ab".
  EXPECT_EQ(common::ToHex(EncodeRowFragment(f)),
            "010000010500060261"
            "62");
}

TEST(RowFragmentTest, EveryTruncationIsCorruption) {
  common::Bytes bytes = EncodeRowFragment(SampleFragment());
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto decoded = DecodeRowFragment(std::string_view(bytes).substr(0, n));
    ASSERT_FALSE(decoded.ok()) << n;
    EXPECT_EQ(decoded.status().code(), common::StatusCode::kCorruption);
  }
}

TEST(RowFragmentTest, RejectsBadBytes) {
  common::Bytes good = EncodeRowFragment(SampleFragment());
  auto expect_corrupt = [](const common::Bytes& b) {
    auto r = DecodeRowFragment(b);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), common::StatusCode::kCorruption) << r.status().ToString();
  };
  common::Bytes bad_version = good;
  bad_version[0] = 2;
  expect_corrupt(bad_version);
  common::Bytes bad_flags = good;
  bad_flags[1] = static_cast<char>(0x80);
  expect_corrupt(bad_flags);
  expect_corrupt(good + "x");  // trailing bytes
  // Unsorted cells.
  RowFragment unsorted;
  unsorted.cells = {LiveCell(2, 1, "a"), LiveCell(1, 1, "b")};
  expect_corrupt(EncodeRowFragment(unsorted));
  EXPECT_FALSE(ValidateRowFragment(unsorted).ok());
  // Duplicate position.
  RowFragment duplicate;
  duplicate.cells = {LiveCell(1, 1, "a"), LiveCell(1, 2, "b")};
  expect_corrupt(EncodeRowFragment(duplicate));
  // Huge counts and lengths must not allocate or overread.
  expect_corrupt(common::FromHex("0100ffffffffffffffffff01").value());
  expect_corrupt(common::FromHex("010000ffffffffff0f").value());
  expect_corrupt(common::FromHex("01000001050006ffffffff0f61").value());
  // Unknown cell kind 3.
  expect_corrupt(common::FromHex("0100000105030602").value());
}

TEST(RowFragmentTest, LongerThanShortestVIntsAreCorruption) {
  // The one-cell encoding above with each number widened to two bytes in turn: cell count 1,
  // column id 5, timestamp 6, value length 2; and the collection deletion count 0.
  for (const char* hex :
       {"0100008001050006026162", "0100000180050006026162", "0100000105008006026162",
        "0100000105000680026162", "0100800001050006026162"}) {
    auto r = DecodeRowFragment(common::FromHex(hex).value());
    ASSERT_FALSE(r.ok()) << hex;
    EXPECT_EQ(r.status().code(), common::StatusCode::kCorruption) << hex;
    EXPECT_FALSE(IsEncodedWithoutDeletions(common::FromHex(hex).value())) << hex;
  }
  // The widest form of a value that needs it decodes (a timestamp of 2^62).
  RowFragment f;
  f.cells.push_back(LiveCell(5, int64_t{1} << 62, "ab"));
  auto decoded = DecodeRowFragment(EncodeRowFragment(f));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, f);
}

TEST(RowFragmentTest, EncodedWithoutDeletions) {
  RowFragment plain;
  plain.liveness = LivenessInfo{1000, 60, 1700000060};
  plain.cells.push_back(LiveCell(1, 1001, "a value longer than fifteen bytes"));
  plain.cells.push_back(WithPath(LiveCell(3, 1003, "v"), "key1"));
  plain.cells.push_back(WithPath(TombstoneCell(3, 1004, 1700000002), "key2"));
  common::Bytes bytes = EncodeRowFragment(plain);
  EXPECT_TRUE(IsEncodedWithoutDeletions(bytes));
  EXPECT_TRUE(IsEncodedWithoutDeletions(EncodeRowFragment(RowFragment{})));
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(IsEncodedWithoutDeletions(std::string_view(bytes).substr(0, n))) << n;
  }
  EXPECT_FALSE(IsEncodedWithoutDeletions(bytes + "x"));
  RowFragment deleted = plain;
  deleted.deletion = DeletionTime{900, 1700000000};
  EXPECT_FALSE(IsEncodedWithoutDeletions(EncodeRowFragment(deleted)));
  RowFragment collection_deleted = plain;
  collection_deleted.collection_deletions[3] = DeletionTime{950, 1700000001};
  EXPECT_FALSE(IsEncodedWithoutDeletions(EncodeRowFragment(collection_deleted)));
}

TEST(RowFragmentTest, FuzzedBytesNeverCrash) {
  std::mt19937 engine(42);
  common::Bytes good = EncodeRowFragment(SampleFragment());
  for (int i = 0; i < 5000; ++i) {
    common::Bytes b = good;
    int flips = 1 + static_cast<int>(engine() % 4);
    for (int k = 0; k < flips; ++k) b[engine() % b.size()] = static_cast<char>(engine());
    auto r = DecodeRowFragment(b);
    EXPECT_EQ(IsEncodedWithoutDeletions(b),
              r.ok() && !r->deletion && r->collection_deletions.empty());
    if (r.ok()) {
      // Whatever decodes must survive a re-encode (varints may shrink, the value may not
      // change).
      auto again = DecodeRowFragment(EncodeRowFragment(*r));
      ASSERT_TRUE(again.ok());
      EXPECT_EQ(*again, *r);
    }
  }
}

TEST(RowFragmentTest, RandomFragmentsRoundTrip) {
  testing::RandomFragments gen(7);
  for (int i = 0; i < 500; ++i) {
    RowFragment f = Canonical(gen.Fragment());
    ASSERT_TRUE(ValidateRowFragment(f).ok());
    auto decoded = DecodeRowFragment(EncodeRowFragment(f));
    ASSERT_TRUE(decoded.ok());
    EXPECT_EQ(*decoded, f);
  }
}

TEST(RowFragmentTest, CellPositionOrder) {
  Cell simple = LiveCell(1, 0, "");
  Cell element_a = WithPath(LiveCell(1, 0, ""), "a");
  Cell element_b = WithPath(LiveCell(1, 0, ""), "b");
  Cell other_column = LiveCell(2, 0, "");
  EXPECT_LT(Sign(CompareCellPosition(simple, element_a)), 0);
  EXPECT_LT(Sign(CompareCellPosition(element_a, element_b)), 0);
  EXPECT_LT(Sign(CompareCellPosition(element_b, other_column)), 0);
  EXPECT_EQ(Sign(CompareCellPosition(element_a, WithPath(LiveCell(1, 9, "x"), "a"))), 0);
}

}  // namespace
}  // namespace storage
