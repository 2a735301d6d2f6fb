// The row cache's single-row entries: PartitionRowTable's index (probing, removal, CLOCK) and
// RowCache's FindRow/InsertRow (coherence, bytes, eviction beside slices). Their reads through
// a database are compared with uncached reads in row_cache_test.cc (SingleRowCacheTest).

#include "engine/partition_row_table.h"

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/row_cache.h"

namespace engine {
namespace {

// A row like cqld_load's: five 34-byte values, a row marker.
storage::RowFragment LoadRow() {
  storage::RowFragment row;
  row.liveness = storage::LivenessInfo{1'700'000'000'000'000, 0, 0};
  for (uint32_t column = 1; column <= 5; ++column) {
    storage::Cell cell;
    cell.column_id = column;
    cell.timestamp = 1'700'000'000'000'000;
    cell.value.assign(34, static_cast<char>('a' + column));
    row.cells.push_back(std::move(cell));
  }
  return row;
}

// A 36-character table id, as the schema layer's UUIDs are.
constexpr const char* kTable = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";

std::shared_ptr<const CachedPartitionRow> Entry(const std::string& prefix,
                                                const storage::RowFragment* row = nullptr) {
  return CachedPartitionRow::Make(PartitionName{kTable, prefix}, {}, std::nullopt, row);
}

TEST(CachedPartitionRowTest, HoldsItsKeyAndTheEncodedRow) {
  const storage::RowFragment row = LoadRow();
  const storage::DeletionTime deletion{5, 6};
  auto entry = CachedPartitionRow::Make(PartitionName{kTable, "prefix"}, {}, deletion, &row);
  EXPECT_TRUE(PartitionName({kTable, "prefix"}).Matches(entry->key()));
  EXPECT_FALSE(PartitionName({kTable, "prefi"}).Matches(entry->key()));
  EXPECT_FALSE(PartitionName({"3f2504e0", "prefix"}).Matches(entry->key()));
  EXPECT_EQ(PartitionName::Of(entry->key()).prefix, "prefix");
  EXPECT_EQ(entry->deletion, deletion);
  ASSERT_TRUE(entry->has_row);
  common::Result<storage::RowFragment> decoded = storage::DecodeRowFragment(entry->encoded_row());
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, row);
  auto absent = Entry("prefix");
  EXPECT_FALSE(absent->has_row);
  EXPECT_TRUE(absent->encoded_row().empty());
}

TEST(CachedPartitionRowTest, EstimatesWhatItHoldsAndIsSmall) {
  const storage::RowFragment row = LoadRow();
  auto entry = Entry(std::string(20, 'p'), &row);
  // At least the object and its bytes; a cqld_load row (170 bytes of values) well under the
  // ~1.5 KiB a single-row CachedSlice took.
  EXPECT_GE(entry->bytes,
            sizeof(CachedPartitionRow) + entry->key().size() + entry->encoded_row().size());
  EXPECT_EQ(entry->bytes, entry->EstimateBytes());
  EXPECT_LT(entry->bytes, 600u);
  auto slice = std::make_shared<CachedSlice>();
  slice->intervals.push_back(KeyInterval{std::string(20, 'p'), std::string(20, 'q')});
  slice->rows.push_back(CachedRow{std::string(21, 'p'), row, {}});
  EXPECT_GT(slice->EstimateBytes(), 2 * entry->bytes);
}

TEST(PartitionRowTableTest, FindsPutsReplacesAndTakes) {
  PartitionRowTable table;
  EXPECT_EQ(table.Find(1, {kTable, "a"}), nullptr);
  EXPECT_EQ(table.Put(1, Entry("a")), nullptr);
  // Same hash, another key: both kept apart.
  EXPECT_EQ(table.Put(1, Entry("b")), nullptr);
  EXPECT_EQ(table.size(), 2u);
  EXPECT_EQ(table.bytes(), Entry("a")->bytes + Entry("b")->bytes);
  ASSERT_NE(table.Find(1, {kTable, "b"}), nullptr);
  EXPECT_TRUE(PartitionName({kTable, "b"}).Matches(table.Find(1, {kTable, "b"})->key()));
  EXPECT_EQ(table.Find(1, {"other", "b"}), nullptr);
  EXPECT_EQ(table.Find(2, {kTable, "b"}), nullptr);  // a hash that does not match
  const storage::RowFragment row = LoadRow();
  std::shared_ptr<const CachedPartitionRow> replaced = table.Put(1, Entry("a", &row));
  ASSERT_NE(replaced, nullptr);
  EXPECT_FALSE(replaced->has_row);
  EXPECT_TRUE(table.Find(1, {kTable, "a"})->has_row);
  EXPECT_EQ(table.size(), 2u);
  EXPECT_NE(table.Take(1, {kTable, "a"}), nullptr);
  EXPECT_EQ(table.Take(1, {kTable, "a"}), nullptr);
  EXPECT_NE(table.Find(1, {kTable, "b"}), nullptr);
  EXPECT_TRUE(table.Contains(1, {kTable, "b"}));
  EXPECT_FALSE(table.Contains(1, {kTable, "a"}));
  EXPECT_EQ(table.bytes(), Entry("b")->bytes);
}

// Random puts and takes over few hash values (long probe runs, wrapping around the end)
// against a map: every entry stays reachable after removals shift runs back.
TEST(PartitionRowTableTest, StaysConsistentWithAMapUnderCollisions) {
  PartitionRowTable table;
  std::map<std::string, uint64_t> model;  // prefix -> hash
  std::mt19937 random(7);
  for (int step = 0; step < 20'000; ++step) {
    const std::string prefix = "p" + std::to_string(random() % 300);
    // Hashes share low bits, as one shard's do, and collide often.
    const uint64_t hash = (random() % 2 == 0 ? 16 : 32) * (1 + prefix.size() % 5);
    const uint64_t real_hash = model.contains(prefix) ? model[prefix] : hash;
    if (random() % 3 == 0) {
      EXPECT_EQ(table.Take(real_hash, {kTable, prefix}) != nullptr, model.erase(prefix) == 1);
    } else {
      table.Put(real_hash, Entry(prefix));
      model[prefix] = real_hash;
    }
    ASSERT_EQ(table.size(), model.size());
  }
  for (const auto& [prefix, hash] : model) {
    EXPECT_NE(table.Find(hash, {kTable, prefix}), nullptr) << prefix;
  }
  for (int i = 0; i < 300; ++i) {
    const std::string prefix = "p" + std::to_string(i);
    if (!model.contains(prefix)) {
      EXPECT_FALSE(table.Contains(16, {kTable, prefix}));
    }
  }
}

TEST(PartitionRowTableTest, EvictsUnreferencedEntriesFirst) {
  PartitionRowTable table;
  for (uint64_t i = 0; i < 100; ++i) table.Put(i * 7919, Entry("p" + std::to_string(i)));
  // Entries read since they went in get a second chance; the others go first.
  for (uint64_t i = 0; i < 100; i += 2) {
    ASSERT_NE(table.Find(i * 7919, {kTable, "p" + std::to_string(i)}), nullptr);
  }
  for (int evicted = 0; evicted < 50; ++evicted) {
    std::shared_ptr<const CachedPartitionRow> victim = table.Evict();
    const int number = std::stoi(std::string(PartitionName::Of(victim->key()).prefix.substr(1)));
    EXPECT_EQ(number % 2, 1) << number;
  }
  EXPECT_EQ(table.size(), 50u);
  // The hand cleared their bits as it passed: now they go too.
  for (int evicted = 0; evicted < 50; ++evicted) table.Evict();
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.bytes(), 0u);
}

std::shared_ptr<const CachedPartitionRow> VersionedEntry(const storage::PartitionVersions& versions,
                                                         const std::string& prefix) {
  const storage::RowFragment row = LoadRow();
  return CachedPartitionRow::Make(
      PartitionName{kTable, prefix},
      versions.Take(storage::PartitionVersions::StripeOf(kTable, prefix)), std::nullopt, &row);
}

TEST(RowCacheRowsTest, ServesCurrentEntriesAndDropsStaleOnes) {
  storage::PartitionVersions versions;
  RowCache cache(size_t{16} << 20);
  EXPECT_EQ(cache.FindRow(kTable, "p", versions), nullptr);
  ASSERT_TRUE(cache.InsertRow(VersionedEntry(versions, "p"), versions));
  EXPECT_NE(cache.FindRow(kTable, "p", versions), nullptr);
  EXPECT_EQ(cache.FindRow("other", "p", versions), nullptr);
  RowCache::Statistics statistics = cache.statistics();
  EXPECT_EQ(statistics.hits, 1u);
  EXPECT_EQ(statistics.misses, 2u);
  EXPECT_EQ(statistics.slices, 1u);
  EXPECT_EQ(statistics.used_bytes, VersionedEntry(versions, "p")->bytes);
  // Replacing an entry keeps one.
  ASSERT_TRUE(cache.InsertRow(VersionedEntry(versions, "p"), versions));
  EXPECT_EQ(cache.statistics().slices, 1u);

  const size_t stripe = storage::PartitionVersions::StripeOf(kTable, "p");
  versions.Begin(stripe);
  EXPECT_EQ(cache.FindRow(kTable, "p", versions), nullptr);
  EXPECT_EQ(cache.statistics().slices, 0u);
  EXPECT_EQ(cache.statistics().used_bytes, 0u);
  // Read while the write is in progress: not kept.
  EXPECT_FALSE(cache.InsertRow(VersionedEntry(versions, "p"), versions));
  versions.End(stripe);
  // Read before a write that started (and finished) before the insert: not kept either.
  std::shared_ptr<const CachedPartitionRow> early = VersionedEntry(versions, "p");
  versions.Begin(stripe);
  versions.End(stripe);
  EXPECT_FALSE(cache.InsertRow(early, versions));
  ASSERT_TRUE(cache.InsertRow(VersionedEntry(versions, "p"), versions));
  versions.BeginAll();
  versions.EndAll();
  EXPECT_EQ(cache.FindRow(kTable, "p", versions), nullptr);
}

TEST(RowCacheRowsTest, HoldsCqldLoadsRowsInTheDefaultSizeAndEvictsForRoom) {
  storage::PartitionVersions versions;
  // cqld_load's 100,000 rows in the default 64 MiB: no eviction.
  RowCache cache(size_t{64} << 20);
  for (int i = 0; i < 100'000; ++i) {
    ASSERT_TRUE(
        cache.InsertRow(VersionedEntry(versions, "partition" + std::to_string(i)), versions));
  }
  RowCache::Statistics statistics = cache.statistics();
  EXPECT_EQ(statistics.evictions, 0u);
  EXPECT_EQ(statistics.slices, 100'000u);
  EXPECT_LE(statistics.used_bytes, statistics.capacity_bytes);
  // A smaller cache evicts and stays within its capacity, keeping what is read.
  RowCache small(size_t{1} << 20);
  for (int i = 0; i < 10'000; ++i) {
    ASSERT_TRUE(
        small.InsertRow(VersionedEntry(versions, "partition" + std::to_string(i)), versions));
    EXPECT_NE(small.FindRow(kTable, "partition0", versions), nullptr) << i;
  }
  statistics = small.statistics();
  EXPECT_GT(statistics.evictions, 0u);
  EXPECT_LE(statistics.used_bytes, statistics.capacity_bytes);
  EXPECT_EQ(statistics.slices + statistics.evictions, 10'000u);
}

}  // namespace
}  // namespace engine
