// RowCache::ApplyWrite (write-through) against the partition version counters directly, without
// a database: which writes may update a cached slice (row_cache.h invariants W1 and W5).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/row_cache.h"
#include "storage/key_layout.h"
#include "storage/partition_versions.h"
#include "storage/row_fragment.h"
#include "storage/store.h"

namespace engine {
namespace {

using common::Bytes;

// ApplyWrite against the version counters directly (invariants W1, W5).
class RowCacheApplyWriteTest : public ::testing::Test {
 protected:
  RowCacheApplyWriteTest() {
    shape_.partition_key = {cql::CqlType::Int()};
    shape_.clustering = {storage::ClusteringColumn{cql::CqlType::Int(), false}};
    prefix_ = storage::PartitionPrefix(shape_, std::vector<Bytes>{Int(1)});
    stripe_ = storage::PartitionVersions::StripeOf("t", prefix_);
  }
  static Bytes Int(int32_t value) {
    Bytes bytes(4, '\0');
    for (int i = 0; i < 4; ++i) bytes[i] = static_cast<char>((value >> (24 - 8 * i)) & 0xff);
    return bytes;
  }
  Bytes Key(int32_t c) const {
    return storage::RowKey(shape_, prefix_, std::vector<Bytes>{Int(c)});
  }
  // Caches a slice of the partition holding row 1 (value "a" at timestamp 1), for every row.
  void CacheSlice() {
    auto slice = std::make_shared<CachedSlice>();
    slice->version = versions_.Take(stripe_);
    slice->intervals = {KeyInterval{Bytes(prefix_), storage::PartitionEndKey(prefix_)}};
    slice->rows.push_back(CachedRow{Key(1), Fragment(1, "a"), {}});
    slice->bytes = slice->EstimateBytes();
    ASSERT_TRUE(cache_.Insert("t", prefix_, std::move(slice), versions_));
  }
  static storage::RowFragment Fragment(int64_t timestamp, std::string value) {
    storage::RowFragment fragment;
    storage::Cell cell;
    cell.column_id = 3;
    cell.timestamp = timestamp;
    cell.value = std::move(value);
    fragment.cells.push_back(std::move(cell));
    return fragment;
  }
  struct Write {
    int32_t c;
    int64_t timestamp;
    std::string value;
  };
  // Tells the cache of one store write, numbered `started` by Begin, of `writes` (a value at a
  // timestamp into row c each).
  void Apply(uint64_t started, const std::vector<Write>& writes) {
    std::vector<Bytes> keys, values;
    for (const Write& write : writes) {
      keys.push_back(Key(write.c));
      values.push_back(storage::EncodeRowFragment(Fragment(write.timestamp, write.value)));
    }
    std::vector<storage::WrittenMerge> merges;
    for (size_t i = 0; i < writes.size(); ++i) {
      merges.push_back(storage::WrittenMerge{"t", &shape_, keys[i], values[i], stripe_, started});
    }
    cache_.ApplyWrite(merges, versions_);
  }
  std::shared_ptr<const CachedSlice> Find() {
    return cache_.Find("t", prefix_, std::vector{KeyInterval{Key(0), Key(9)}}, versions_);
  }

  storage::KeyShape shape_;
  Bytes prefix_;
  size_t stripe_ = 0;
  storage::PartitionVersions versions_;
  RowCache cache_{size_t{16} << 20};
};

TEST_F(RowCacheApplyWriteTest, TheOnlyWriteSinceTheSnapshotUpdatesTheSlice) {
  ASSERT_NO_FATAL_FAILURE(CacheSlice());
  const uint64_t started = versions_.Begin(stripe_);
  Apply(started, {{2, 5, "b"}, {1, 5, "c"}});
  versions_.End(stripe_);
  std::shared_ptr<const CachedSlice> slice = Find();
  ASSERT_NE(slice, nullptr);
  ASSERT_EQ(slice->rows.size(), 2u);
  EXPECT_EQ(slice->rows[0].fragment, Fragment(5, "c"));
  EXPECT_EQ(slice->rows[1].key, Key(2));
  EXPECT_EQ(slice->rows[1].fragment, Fragment(5, "b"));
  EXPECT_EQ(slice->version.started, started);
  EXPECT_EQ(slice->bytes, slice->EstimateBytes());
  EXPECT_EQ(cache_.statistics().slices, 1u);
}

// A write keeps the slice's size up to date by what it changes (new rows, the vector's growth,
// merged cells that grow or shrink), as a full recount would give it, on the slice itself or
// on a copy when a reader still holds it.
TEST_F(RowCacheApplyWriteTest, WritesKeepTheSlicesSizeExact) {
  ASSERT_NO_FATAL_FAILURE(CacheSlice());
  const std::vector<std::vector<Write>> writes = {
      {{2, 5, "b"}},
      {{3, 6, std::string(300, 'x')}, {4, 6, "d"}},
      {{3, 7, "short again"}, {1, 7, std::string(50, 'y')}, {5, 7, "e"}},
      {{6, 8, "f"}, {7, 8, "g"}, {8, 8, "h"}, {2, 8, ""}},
  };
  size_t rows = 1;
  // Every other write finds the slice still held by a reader, so it updates a copy.
  std::shared_ptr<const CachedSlice> reader;
  for (const std::vector<Write>& write : writes) {
    const uint64_t started = versions_.Begin(stripe_);
    Apply(started, write);
    versions_.End(stripe_);
    std::shared_ptr<const CachedSlice> slice = Find();
    ASSERT_NE(slice, nullptr);
    for (const Write& one : write) rows = std::max<size_t>(rows, static_cast<size_t>(one.c));
    EXPECT_EQ(slice->rows.size(), rows);
    EXPECT_EQ(slice->bytes, slice->EstimateBytes()) << "after " << write.size() << " writes";
    EXPECT_EQ(cache_.statistics().used_bytes, slice->bytes);
    reader = reader == nullptr ? slice : nullptr;
  }
}

TEST_F(RowCacheApplyWriteTest, ASecondWriterOfTheStripeLeavesNoSlice) {
  for (bool later_applies_first : {true, false}) {
    ASSERT_NO_FATAL_FAILURE(CacheSlice());
    const uint64_t first = versions_.Begin(stripe_);
    const uint64_t second = versions_.Begin(stripe_);
    // The later writer applying first finds a slice that is not its predecessor's: it goes.
    // The earlier one applying first makes a slice that is not current (the second began).
    Apply(later_applies_first ? second : first, {{1, 6, "y"}});
    EXPECT_EQ(cache_.statistics().slices, 0u) << later_applies_first;
    Apply(later_applies_first ? first : second, {{1, 5, "x"}});
    versions_.End(stripe_);
    versions_.End(stripe_);
    EXPECT_EQ(Find(), nullptr) << later_applies_first;
  }
}

TEST_F(RowCacheApplyWriteTest, ATableWideChangeInProgressDropsTheSlice) {
  ASSERT_NO_FATAL_FAILURE(CacheSlice());
  versions_.BeginAll();
  const uint64_t started = versions_.Begin(stripe_);
  Apply(started, {{1, 5, "c"}});
  versions_.End(stripe_);
  versions_.EndAll();
  EXPECT_EQ(cache_.statistics().slices, 0u);
  EXPECT_EQ(Find(), nullptr);
}

}  // namespace
}  // namespace engine
