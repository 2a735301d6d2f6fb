#include "storage/compaction_filter.h"

#include <gtest/gtest.h>

#include "storage/storage_testing.h"

namespace storage {
namespace {

using testing::ExpiringCell;
using testing::LiveCell;
using testing::TombstoneCell;
using testing::WithPath;

constexpr int64_t kGrace = 100;

TEST(PurgeFragmentTest, LiveDataIsUntouched) {
  RowFragment f;
  f.liveness = LivenessInfo{5, 0, 0};
  f.cells = {LiveCell(1, 5, "a"), ExpiringCell(2, 5, "b", 10, 1010)};
  RowFragment before = f;
  EXPECT_FALSE(PurgeFragment(1009, kGrace, true, &f));
  EXPECT_EQ(f, before);
}

TEST(PurgeFragmentTest, ExpiredCellBecomesTombstoneAtWriteTime) {
  RowFragment f;
  f.cells = {ExpiringCell(2, 5, "b", 10, 1010)};
  EXPECT_TRUE(PurgeFragment(1010, kGrace, false, &f));  // expiration == now: dead
  ASSERT_EQ(f.cells.size(), 1u);
  EXPECT_EQ(f.cells[0], TombstoneCell(2, 5, 1000));
}

TEST(PurgeFragmentTest, ExpiredCellIsPurgedOnlyAfterGraceFromWriteTime) {
  RowFragment f;
  f.cells = {ExpiringCell(2, 5, "b", 10, 1010)};
  // Write time 1000; purgeable when 1000 < now - grace, i.e. now > 1100.
  RowFragment at_1100 = f;
  EXPECT_TRUE(PurgeFragment(1100, kGrace, true, &at_1100));
  EXPECT_EQ(at_1100.cells.size(), 1u);
  RowFragment at_1101 = f;
  EXPECT_TRUE(PurgeFragment(1101, kGrace, true, &at_1101));
  EXPECT_TRUE(at_1101.empty());
}

TEST(PurgeFragmentTest, TombstonesPurgedAfterGraceOnlyWhenAllowed) {
  RowFragment f;
  f.deletion = DeletionTime{3, 500};
  f.collection_deletions[4] = DeletionTime{4, 700};
  f.cells = {TombstoneCell(1, 5, 550), WithPath(LiveCell(4, 9, "x"), "k")};
  RowFragment kept = f;
  EXPECT_FALSE(PurgeFragment(10000, kGrace, false, &kept));
  EXPECT_EQ(kept, f);

  RowFragment partial = f;
  EXPECT_TRUE(PurgeFragment(651, kGrace, true, &partial));  // gc_before = 551
  EXPECT_FALSE(partial.deletion.has_value());
  EXPECT_TRUE(partial.cells.size() == 1 && partial.cells[0].is_tombstone() == false);
  EXPECT_EQ(partial.collection_deletions.size(), 1u);

  RowFragment all = f;
  EXPECT_TRUE(PurgeFragment(801, kGrace, true, &all));
  EXPECT_TRUE(all.collection_deletions.empty());
  EXPECT_EQ(all.cells.size(), 1u);  // the live element stays
}

TEST(PurgeFragmentTest, ExpiredLivenessDroppedAfterGraceFromExpiration) {
  RowFragment f;
  f.liveness = LivenessInfo{5, 10, 1010};
  RowFragment early = f;
  EXPECT_FALSE(PurgeFragment(1110, kGrace, true, &early));
  EXPECT_TRUE(early.liveness.has_value());
  RowFragment late = f;
  EXPECT_TRUE(PurgeFragment(1111, kGrace, true, &late));
  EXPECT_TRUE(late.empty());
}

TEST(CompactionFilterFactoryTest, GcGraceIsAdjustable) {
  common::ManualClock clock(0);
  RowFragmentCompactionFilterFactory factory(&clock, 10);
  EXPECT_EQ(factory.gc_grace_seconds(), 10);
  factory.set_gc_grace_seconds(0);
  EXPECT_EQ(factory.gc_grace_seconds(), 0);
  EXPECT_STREQ(factory.Name(), "cqld.RowFragmentPurge.v1");
}

}  // namespace
}  // namespace storage
