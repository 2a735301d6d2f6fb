// The row cache's bookkeeping: coverage, staleness, uniting slices, eviction within the
// cache's capacity and admission (RowCache alone, without a database; row_cache_test.cc checks
// reads through a database against an uncached one).

#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "engine/row_cache.h"
#include "storage/partition_versions.h"

namespace engine {
namespace {

KeyInterval Interval(std::string start, std::string end) {
  return KeyInterval{std::move(start), std::move(end)};
}

std::shared_ptr<CachedSlice> Slice(const storage::PartitionVersions& versions,
                                   std::string_view prefix, std::vector<KeyInterval> intervals,
                                   size_t rows = 1) {
  auto slice = std::make_shared<CachedSlice>();
  slice->version = versions.Take(storage::PartitionVersions::StripeOf("t", prefix));
  slice->intervals = std::move(intervals);
  for (size_t i = 0; i < rows; ++i) {
    CachedRow row;
    row.key = std::string(prefix) + "row" + std::to_string(i);
    row.fragment.cells.resize(1);
    row.fragment.cells[0].value.assign(100, 'v');
    slice->rows.push_back(std::move(row));
  }
  slice->bytes = slice->EstimateBytes();
  return slice;
}

TEST(CachedSliceTest, CoversOnlyIntervalsInsideItsOwn) {
  CachedSlice slice;
  slice.intervals = {Interval("b", "d"), Interval("f", "h")};
  EXPECT_TRUE(slice.Covers(std::vector{Interval("b", "d")}));
  EXPECT_TRUE(slice.Covers(std::vector{Interval("bb", "c"), Interval("f", "g")}));
  EXPECT_TRUE(slice.Covers({}));
  EXPECT_FALSE(slice.Covers(std::vector{Interval("a", "c")}));
  EXPECT_FALSE(slice.Covers(std::vector{Interval("c", "e")}));  // runs past the first
  EXPECT_FALSE(slice.Covers(std::vector{Interval("b", "h")}));  // spans the gap
  EXPECT_FALSE(slice.Covers(std::vector{Interval("b", "c"), Interval("g", "i")}));
}

TEST(RowCacheTest, ServesCurrentCoveringSlicesAndDropsStaleOnes) {
  storage::PartitionVersions versions;
  RowCache cache(size_t{16} << 20);
  const std::string prefix = "partition1";
  EXPECT_EQ(cache.Find("t", prefix, std::vector{Interval("a", "z")}, versions), nullptr);
  ASSERT_TRUE(cache.Insert("t", prefix, Slice(versions, prefix, {Interval("a", "m")}), versions));
  EXPECT_NE(cache.Find("t", prefix, std::vector{Interval("b", "c")}, versions), nullptr);
  EXPECT_EQ(cache.Find("t", prefix, std::vector{Interval("b", "n")}, versions), nullptr);
  EXPECT_EQ(cache.Find("u", prefix, std::vector{Interval("b", "c")}, versions), nullptr);
  EXPECT_EQ(cache.Find("t", "partition2", std::vector{Interval("b", "c")}, versions), nullptr);
  RowCache::Statistics statistics = cache.statistics();
  EXPECT_EQ(statistics.hits, 1u);
  EXPECT_EQ(statistics.misses, 4u);
  EXPECT_EQ(statistics.slices, 1u);
  EXPECT_GT(statistics.used_bytes, 100u);

  // A write to the partition makes the slice stale: a miss, and the slice is gone.
  const size_t stripe = storage::PartitionVersions::StripeOf("t", prefix);
  versions.Begin(stripe);
  EXPECT_EQ(cache.Find("t", prefix, std::vector{Interval("b", "c")}, versions), nullptr);
  EXPECT_EQ(cache.statistics().slices, 0u);
  EXPECT_EQ(cache.statistics().used_bytes, 0u);
  // Read while the write is in progress: not kept.
  EXPECT_FALSE(cache.Insert("t", prefix, Slice(versions, prefix, {Interval("a", "m")}), versions));
  versions.End(stripe);
  // Read before a write that started (and finished) before the insert: not kept either.
  std::shared_ptr<CachedSlice> early = Slice(versions, prefix, {Interval("a", "m")});
  versions.Begin(stripe);
  versions.End(stripe);
  EXPECT_FALSE(cache.Insert("t", prefix, early, versions));
  // A table-wide change makes every slice stale.
  ASSERT_TRUE(cache.Insert("t", prefix, Slice(versions, prefix, {Interval("a", "m")}), versions));
  versions.BeginAll();
  versions.EndAll();
  EXPECT_EQ(cache.Find("t", prefix, std::vector{Interval("b", "c")}, versions), nullptr);
}

// A slice whose rows are `keys` (one cell each), for `intervals`.
std::shared_ptr<CachedSlice> SliceOf(const storage::PartitionVersions& versions,
                                     std::vector<KeyInterval> intervals,
                                     const std::vector<std::string>& keys) {
  auto slice = Slice(versions, "p", std::move(intervals), keys.size());
  for (size_t i = 0; i < keys.size(); ++i) slice->rows[i].key = keys[i];
  slice->bytes = slice->EstimateBytes();
  return slice;
}

std::vector<std::string> KeysOf(const CachedSlice& slice) {
  std::vector<std::string> keys;
  for (const CachedRow& row : slice.rows) keys.push_back(row.key);
  return keys;
}

std::vector<std::string> IntervalsOf(const CachedSlice& slice) {
  std::vector<std::string> intervals;
  for (const KeyInterval& interval : slice.intervals) {
    intervals.push_back(interval.start + "-" + interval.end);
  }
  return intervals;
}

TEST(RowCacheTest, UnitesSlicesOfOneVersionAndReplacesCoveredOnes) {
  storage::PartitionVersions versions;
  RowCache cache(size_t{16} << 20);
  ASSERT_TRUE(
      cache.Insert("t", "p", SliceOf(versions, {Interval("a", "c")}, {"a1", "b1"}), versions));
  ASSERT_TRUE(cache.Insert("t", "p", SliceOf(versions, {Interval("x", "z")}, {"x1"}), versions));
  EXPECT_EQ(cache.statistics().slices, 1u);
  // Touching intervals join; overlapping ones too, their common rows kept once.
  ASSERT_TRUE(
      cache.Insert("t", "p", SliceOf(versions, {Interval("c", "e")}, {"c1", "d1"}), versions));
  ASSERT_TRUE(cache.Insert(
      "t", "p", SliceOf(versions, {Interval("d", "f"), Interval("w", "y")}, {"d1", "e1", "x1"}),
      versions));
  std::shared_ptr<const CachedSlice> united =
      cache.Find("t", "p", std::vector{Interval("a", "f"), Interval("w", "z")}, versions);
  ASSERT_NE(united, nullptr);
  EXPECT_EQ(IntervalsOf(*united), (std::vector<std::string>{"a-f", "w-z"}));
  EXPECT_EQ(KeysOf(*united), (std::vector<std::string>{"a1", "b1", "c1", "d1", "e1", "x1"}));
  EXPECT_EQ(united->bytes, united->EstimateBytes());
  EXPECT_EQ(cache.statistics().slices, 1u);
  EXPECT_EQ(cache.statistics().used_bytes, united->bytes);
  EXPECT_EQ(cache.Find("t", "p", std::vector{Interval("a", "g")}, versions), nullptr);
  // A slice inside the union changes nothing; one covering it replaces it.
  ASSERT_TRUE(cache.Insert("t", "p", SliceOf(versions, {Interval("b", "c")}, {"b1"}), versions));
  EXPECT_EQ(IntervalsOf(*cache.Find("t", "p", std::vector{Interval("a", "b")}, versions)),
            (std::vector<std::string>{"a-f", "w-z"}));
  ASSERT_TRUE(cache.Insert("t", "p", SliceOf(versions, {Interval("a", "z")}, {"a1"}), versions));
  EXPECT_EQ(KeysOf(*cache.Find("t", "p", std::vector{Interval("a", "b")}, versions)),
            (std::vector<std::string>{"a1"}));
  EXPECT_EQ(cache.statistics().slices, 1u);
  EXPECT_EQ(cache.statistics().evictions, 0u);
}

TEST(RowCacheTest, DoesNotUniteAcrossAWrite) {
  storage::PartitionVersions versions;
  RowCache cache(size_t{16} << 20);
  std::shared_ptr<CachedSlice> before = SliceOf(versions, {Interval("a", "c")}, {"a1"});
  ASSERT_TRUE(cache.Insert("t", "p", before, versions));
  const size_t stripe = storage::PartitionVersions::StripeOf("t", "p");
  versions.Begin(stripe);
  versions.End(stripe);
  ASSERT_TRUE(cache.Insert("t", "p", SliceOf(versions, {Interval("c", "e")}, {"c2"}), versions));
  EXPECT_EQ(cache.statistics().slices, 1u);
  EXPECT_EQ(cache.Find("t", "p", std::vector{Interval("a", "b")}, versions), nullptr);
  std::shared_ptr<const CachedSlice> after =
      cache.Find("t", "p", std::vector{Interval("c", "d")}, versions);
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(KeysOf(*after), (std::vector<std::string>{"c2"}));
  EXPECT_NE(after->version.started, before->version.started);
}

TEST(RowCacheTest, KeepsTheNewestAloneWhenTheUnionWouldNotFit) {
  storage::PartitionVersions versions;
  // 16 shards of 64 KiB: the largest slice is 32 KiB; two of these fit in it, three do not.
  RowCache cache(size_t{1} << 20);
  auto slice = [&](std::string start, std::string end) {
    std::vector<std::string> keys;
    for (int i = 0; i < 30; ++i) keys.push_back(start + fmt::format("{:03}", i));
    return SliceOf(versions, {Interval(start, end)}, keys);
  };
  std::shared_ptr<CachedSlice> first = slice("a", "b");
  ASSERT_LE(2 * first->bytes, cache.max_slice_bytes());
  ASSERT_GT(3 * first->bytes, cache.max_slice_bytes());
  ASSERT_TRUE(cache.Insert("t", "p", first, versions));
  ASSERT_TRUE(cache.Insert("t", "p", slice("c", "d"), versions));
  EXPECT_EQ(cache.statistics().slices, 1u);  // united: two fit
  ASSERT_TRUE(cache.Insert("t", "p", slice("e", "f"), versions));
  EXPECT_EQ(cache.statistics().slices, 2u);  // three do not: the newest alone
  EXPECT_NE(cache.Find("t", "p", std::vector{Interval("a", "b"), Interval("c", "d")}, versions),
            nullptr);
  EXPECT_NE(cache.Find("t", "p", std::vector{Interval("e", "f")}, versions), nullptr);
  EXPECT_EQ(cache.Find("t", "p", std::vector{Interval("c", "d"), Interval("e", "f")}, versions),
            nullptr);
}

TEST(RowCacheTest, EvictsLeastRecentlyUsedForRoomAndRefusesHugeSlices) {
  storage::PartitionVersions versions;
  // 16 shards of 64 KiB: one slice of ~20 KiB fits three times per shard.
  RowCache cache(size_t{1} << 20);
  std::vector<std::string> prefixes;
  for (int i = 0; i < 200; ++i) {
    prefixes.push_back("partition" + std::to_string(i));
    ASSERT_TRUE(cache.Insert("t", prefixes.back(),
                             Slice(versions, prefixes.back(), {Interval("a", "z")}, 50), versions));
    // Keep the first partition recently used.
    EXPECT_NE(cache.Find("t", prefixes[0], std::vector{Interval("b", "c")}, versions), nullptr);
  }
  RowCache::Statistics statistics = cache.statistics();
  EXPECT_GT(statistics.evictions, 0u);
  EXPECT_LE(statistics.used_bytes, statistics.capacity_bytes);
  EXPECT_EQ(statistics.slices + statistics.evictions, 200u);
  EXPECT_NE(cache.Find("t", prefixes[0], std::vector{Interval("b", "c")}, versions), nullptr);
  EXPECT_FALSE(
      cache.Insert("t", "huge", Slice(versions, "huge", {Interval("a", "z")}, 2000), versions));
}

TEST(RowCacheTest, AdmitsEveryMissWhileItHasRoom) {
  RowCache cache(size_t{1} << 20);
  EXPECT_TRUE(cache.Admit("t", "p1"));
  EXPECT_TRUE(cache.Admit("u", "p1"));
  EXPECT_TRUE(cache.Admit("t", "p2"));
}

// While the cache is full, a first miss is only remembered, and a second miss is admitted
// about one time in kFullAdmission.
TEST(RowCacheTest, AdmitsFewSecondMissesWhileFull) {
  RowCache cache(size_t{1} << 20);
  storage::PartitionVersions versions;
  // Second misses admitted of 800 partitions named `name`N, each missed twice; the first
  // miss of each is not.
  auto admitted = [&cache](const std::string& name) {
    int count = 0;
    for (int i = 0; i < 800; ++i) {
      const std::string partition = name + std::to_string(i);
      EXPECT_FALSE(cache.Admit("t", partition));
      count += cache.Admit("t", partition) ? 1 : 0;
    }
    return count;
  };
  // Fill the cache with slices of other partitions until it is full.
  for (int i = 0; cache.statistics().used_bytes + (size_t{1} << 20) / 64 < (size_t{1} << 20); ++i) {
    ASSERT_LT(i, 100000);
    const std::string prefix = "f" + std::to_string(i);
    auto slice = Slice(versions, prefix, {Interval(prefix, prefix + "~")});
    slice->rows[0].fragment.cells[0].value.assign(2000, 'x');
    slice->bytes = slice->EstimateBytes();
    cache.Insert("t", prefix, std::move(slice), versions);
  }
  const int full = admitted("q");
  EXPECT_GT(full, 800 / static_cast<int>(RowCache::kFullAdmission) / 3);
  EXPECT_LT(full, 800 / static_cast<int>(RowCache::kFullAdmission) * 3);
}

// The capacity is the cache's: a shard holds more than its share while the whole cache has
// room (partitions rarely hash evenly over the shards), and once the cache is full, inserts
// evict until it fits again, from whichever shards hold more than their share.
TEST(RowCacheTest, ShardsShareTheCapacityAndEvictOnlyWhenTheCacheIsFull) {
  storage::PartitionVersions versions;
  // 16 shards' shares of 64 KiB; slices of ~25 KiB, so three in a shard pass its share.
  RowCache cache(size_t{1} << 20);
  auto insert = [&](int i) {
    const std::string prefix = "p" + std::to_string(i);
    auto slice = Slice(versions, prefix, {Interval(prefix, prefix + "~")});
    slice->rows[0].fragment.cells[0].value.assign(25000, 'x');
    slice->bytes = slice->EstimateBytes();
    ASSERT_TRUE(cache.Insert("t", prefix, std::move(slice), versions));
  };
  // 30 slices: three quarters of the capacity, more than a share in some shard.
  for (int i = 0; i < 30; ++i) ASSERT_NO_FATAL_FAILURE(insert(i));
  EXPECT_EQ(cache.statistics().evictions, 0u);
  EXPECT_EQ(cache.statistics().slices, 30u);
  for (int i = 0; i < 30; ++i) {
    const std::string prefix = "p" + std::to_string(i);
    EXPECT_NE(cache.Find("t", prefix, std::vector{Interval(prefix, prefix + "a")}, versions),
              nullptr)
        << prefix;
  }
  for (int i = 30; i < 100; ++i) {
    ASSERT_NO_FATAL_FAILURE(insert(i));
    EXPECT_LE(cache.statistics().used_bytes, cache.statistics().capacity_bytes) << i;
  }
  EXPECT_GT(cache.statistics().evictions, 0u);
  EXPECT_GT(cache.statistics().used_bytes, cache.statistics().capacity_bytes * 3 / 4);
}

}  // namespace
}  // namespace engine
