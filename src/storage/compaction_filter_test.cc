#include "storage/compaction_filter.h"

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "storage/cell_merge.h"
#include "storage/key_layout.h"
#include "storage/merge_operator.h"
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

TEST(PurgeFragmentTest, DeletionKeptWhenNotAllowed) {
  RowFragment f;
  f.deletion = DeletionTime{3, 500};
  f.cells = {TombstoneCell(1, 5, 550)};
  EXPECT_TRUE(PurgeFragment(10000, kGrace, true, &f, /*may_drop_deletion=*/false));
  EXPECT_EQ(f.deletion, (DeletionTime{3, 500}));
  EXPECT_TRUE(f.cells.empty());
}

TEST(DropShadowedTest, DropsWhatTheDeletionShadowsOnly) {
  RowFragment f;
  f.liveness = LivenessInfo{20, 0, 0};
  f.deletion = DeletionTime{15, 900};
  f.collection_deletions[3] = DeletionTime{20, 100};
  f.collection_deletions[4] = DeletionTime{21, 100};
  f.cells = {LiveCell(1, 20, "a"), TombstoneCell(2, 19, 100), WithPath(LiveCell(3, 25, "x"), "k"),
             ExpiringCell(5, 21, "e", 10, 2000)};
  EXPECT_TRUE(DropShadowed(DeletionTime{20, 50}, &f));
  EXPECT_FALSE(f.liveness.has_value());
  EXPECT_FALSE(f.deletion.has_value());  // timestamp 15 <= 20, whatever its deletion time
  ASSERT_EQ(f.collection_deletions.size(), 1u);
  EXPECT_TRUE(f.collection_deletions.contains(4));
  std::vector<Cell> expected = {WithPath(LiveCell(3, 25, "x"), "k"),
                                ExpiringCell(5, 21, "e", 10, 2000)};
  EXPECT_EQ(f.cells, expected);
  RowFragment again = f;
  EXPECT_FALSE(DropShadowed(DeletionTime{20, 50}, &again));
  EXPECT_EQ(again, f);
}

// What a read of a row merged with `deletion` depends on: the local deletion time of the row
// deletion only times its purge, and collection deletions it covers shadow nothing more.
RowFragment ReadView(const RowFragment& fragment, const DeletionTime& deletion) {
  RowFragment with_deletion;
  with_deletion.deletion = deletion;
  RowFragment merged = MergeFragments(fragment, with_deletion);
  int64_t timestamp = merged.deletion->timestamp;
  merged.deletion->local_deletion_time = 0;
  std::erase_if(merged.collection_deletions,
                [&](const auto& entry) { return entry.second.timestamp <= timestamp; });
  return merged;
}

// What reads see is the same before and after DropShadowed when the deletion applies to the
// row anyway (random fragments, fixed seed).
TEST(DropShadowedTest, NeverChangesWhatTheCoveredRowReads) {
  testing::RandomFragments random(7);
  for (int i = 0; i < 2000; ++i) {
    RowFragment f = random.Fragment();
    DeletionTime covering{random.Small(6), 100 + random.Small(3)};
    RowFragment dropped = f;
    DropShadowed(covering, &dropped);
    EXPECT_EQ(ReadView(f, covering), ReadView(dropped, covering)) << i;
  }
}

TEST(CompactionFilterFactoryTest, OptionsAreAdjustable) {
  common::ManualClock clock(0);
  RowFragmentCompactionFilterFactory factory(&clock, TableOptions{.gc_grace_seconds = 10});
  EXPECT_EQ(factory.gc_grace_seconds(), 10);
  factory.set_options(TableOptions{.gc_grace_seconds = 0, .row_entries_only = true});
  EXPECT_EQ(factory.gc_grace_seconds(), 0);
  EXPECT_TRUE(factory.options().row_entries_only);
  EXPECT_FALSE(factory.purge_partition_tombstones());
  factory.set_purge_partition_tombstones(true);
  EXPECT_TRUE(factory.purge_partition_tombstones());
  EXPECT_STREQ(factory.Name(), "cqld.RowFragmentPurge.v1");
}

// The filter driven by a bare RocksDB column family, so a test can place writes between the
// two passes that Store::CompactTable runs back to back.
class CompactionFilterDbTest : public ::testing::Test {
 protected:
  static constexpr int64_t kStart = 1'700'000'000;  // seconds
  static constexpr int64_t kSecond = 1'000'000;

  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("cqld_filter_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    factory_ = std::make_shared<RowFragmentCompactionFilterFactory>(
        &clock_, TableOptions{.gc_grace_seconds = kGrace, .shape = shape_});
    rocksdb::Options options;
    options.create_if_missing = true;
    options.merge_operator = MakeRowFragmentMergeOperator();
    options.compaction_filter_factory = factory_;
    options.compaction_style = rocksdb::kCompactionStyleUniversal;
    rocksdb::DB* db = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(options, dir_.string(), &db).ok());
    db_.reset(db);
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }

  static common::Bytes Int(int32_t v) {
    common::ByteWriter w;
    w.PutI32(v);
    return w.Release();
  }
  common::Bytes Prefix(int32_t pk) {
    std::vector<common::Bytes> values = {Int(pk)};
    return PartitionPrefix(shape_, values);
  }
  common::Bytes Row(int32_t pk, int32_t ck) {
    std::vector<common::Bytes> values = {Int(ck)};
    return RowKey(shape_, Prefix(pk), values);
  }
  void Merge(const common::Bytes& key, const RowFragment& fragment) {
    ASSERT_TRUE(db_->Merge(rocksdb::WriteOptions(), key, EncodeRowFragment(fragment)).ok());
  }
  // One manual full compaction, with the factory's tombstone flag as given.
  void Compact(bool purge_partition_tombstones) {
    factory_->set_purge_partition_tombstones(purge_partition_tombstones);
    rocksdb::CompactRangeOptions options;
    options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    options.exclusive_manual_compaction = true;
    ASSERT_TRUE(db_->CompactRange(options, nullptr, nullptr).ok());
    factory_->set_purge_partition_tombstones(false);
  }
  std::optional<RowFragment> Get(const common::Bytes& key) {
    std::string value;
    rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), key, &value);
    if (s.IsNotFound()) return std::nullopt;
    EXPECT_TRUE(s.ok()) << s.ToString();
    auto fragment = DecodeRowFragment(value);
    EXPECT_TRUE(fragment.ok());
    return fragment.ok() ? std::optional<RowFragment>(*fragment) : std::nullopt;
  }

  common::ManualClock clock_{kStart * kSecond};
  KeyShape shape_{{cql::CqlType::Int()}, {{cql::CqlType::Int(), false}}};
  std::filesystem::path dir_;
  std::shared_ptr<RowFragmentCompactionFilterFactory> factory_;
  std::unique_ptr<rocksdb::DB> db_;
};

RowFragment Cells(std::vector<Cell> cells) {
  RowFragment f;
  f.cells = std::move(cells);
  return f;
}

RowFragment OldRow() {
  RowFragment f;
  f.liveness = LivenessInfo{10, 0, 0};
  f.cells = {LiveCell(1, 10, "old-v"), LiveCell(2, 10, "old-w")};
  return f;
}

RowFragment Deletion(int64_t timestamp, int64_t local_deletion_time) {
  RowFragment f;
  f.deletion = DeletionTime{timestamp, local_deletion_time};
  return f;
}

// A write between the passes reaches the purging pass as an operand above a value that still
// holds shadowed data; the covering deletion travels into the merge (invariant 10), so the
// purged partition tombstone takes the old data with it.
TEST_F(CompactionFilterDbTest, WriteBetweenPassesDoesNotResurrectShadowedData) {
  common::Bytes row = Row(1, 1);
  common::Bytes tombstone = PartitionDeletionKey(Prefix(1));
  Merge(row, OldRow());
  Merge(tombstone, Deletion(20, kStart));
  Compact(false);  // pass 1: both keys become values; merge results are not filtered
  RowFragment dirty = Get(row).value();
  EXPECT_TRUE(dirty.liveness.has_value());

  Merge(row, Cells({LiveCell(1, 30, "new-v")}));  // between the passes
  clock_.SetMicros((kStart + kGrace + 1) * kSecond);
  Compact(true);  // pass 2
  EXPECT_FALSE(Get(tombstone).has_value());
  RowFragment merged = Get(row).value();
  EXPECT_FALSE(merged.liveness.has_value());
  std::vector<Cell> expected = {LiveCell(1, 30, "new-v")};
  EXPECT_EQ(merged.cells, expected);
  // The covering deletion now sits in the row, past gc_grace: the next pass purges it.
  EXPECT_EQ(merged.deletion, (DeletionTime{20, kStart}));
  Compact(true);
  EXPECT_EQ(Get(row).value(), Cells(expected));
}

// Without the flag (automatic compactions, pass 1) partition and range tombstones stay, but
// the rows they shadow are cleaned from values in any compaction.
TEST_F(CompactionFilterDbTest, TombstonesStayWithoutTheFlagButShadowedRowsGo) {
  common::Bytes tombstone = PartitionDeletionKey(Prefix(2));
  common::Bytes range = RangeTombstoneKey(shape_, Prefix(2), {{Int(5)}, BoundSide::kBefore},
                                          {{Int(8)}, BoundSide::kBefore});
  Merge(Row(2, 1), OldRow());
  Merge(Row(2, 6), Cells({LiveCell(1, 40, "six")}));
  Merge(Row(2, 8), Cells({LiveCell(1, 40, "eight")}));
  Merge(tombstone, Deletion(20, kStart));
  Merge(range, Deletion(50, kStart));
  Compact(false);
  Compact(false);  // now every key is a value and is filtered
  clock_.SetMicros((kStart + kGrace + 1) * kSecond);
  Compact(false);
  EXPECT_TRUE(Get(tombstone).has_value());
  EXPECT_TRUE(Get(range).has_value());
  EXPECT_FALSE(Get(Row(2, 1)).has_value());  // shadowed by the partition deletion: removed
  EXPECT_FALSE(Get(Row(2, 6)).has_value());  // in [5, 8) and older than the range
  EXPECT_TRUE(Get(Row(2, 8)).has_value());   // the end bound is exclusive
  Compact(true);
  EXPECT_FALSE(Get(tombstone).has_value());
  EXPECT_FALSE(Get(range).has_value());
  EXPECT_EQ(Get(Row(2, 8))->cells, (std::vector<Cell>{LiveCell(1, 40, "eight")}));
}

}  // namespace
}  // namespace storage
