// Tests of StoreOptions::block_cache_bytes: whatever the shared block cache's size (none, far
// too small for the data, ample), every table reads back exactly what was written, from the
// memtable and from files, by Get and by iterator, also after reopening.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common/clock.h"
#include "storage/key_layout.h"
#include "storage/storage_testing.h"
#include "storage/store.h"

namespace storage {
namespace {

constexpr int64_t kTimestamp = 1'700'000'000'000'000;
constexpr int kRows = 600;

common::Bytes Int(int32_t v) {
  common::ByteWriter w;
  w.PutI32(v);
  return w.Release();
}

KeyShape Shape() {
  KeyShape shape;
  shape.partition_key = {cql::CqlType::Int()};
  shape.clustering = {{cql::CqlType::Int(), false}};
  return shape;
}

// Ten partitions of kRows / 10 rows each.
common::Bytes Key(int32_t row) {
  KeyShape shape = Shape();
  common::Bytes prefix = PartitionPrefix(shape, std::vector<common::Bytes>{Int(row % 10)});
  return RowKey(shape, prefix, std::vector<common::Bytes>{Int(row / 10)});
}

// A value distinct per table and row, long enough that the rows span many blocks.
std::string Value(const std::string& table, int32_t row) {
  return table + ":" + std::to_string(row) + ":" +
         std::string(200, static_cast<char>('a' + row % 26));
}

class StoreBlockCacheTest : public ::testing::TestWithParam<size_t> {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("cqld_store_cache_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Open() {
    store_.reset();
    StoreOptions options;
    options.clock = &clock_;
    options.block_cache_bytes = GetParam();
    auto store = Store::Open(dir_.string(), options);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(*store);
  }
  void Write(const std::string& table) {
    WriteBatch batch;
    for (int32_t row = 0; row < kRows; ++row) {
      RowFragment fragment;
      fragment.cells.push_back(testing::LiveCell(1, kTimestamp, Value(table, row)));
      batch.Merge(table, Key(row), fragment);
    }
    ASSERT_TRUE(store_->Write(batch).ok());
  }
  void ExpectContents(const std::string& table) {
    for (int32_t row = 0; row < kRows; ++row) {
      auto got = store_->Get(table, Key(row));
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      ASSERT_TRUE(got->has_value()) << table << " " << row;
      ASSERT_EQ((*got)->cells.size(), 1u);
      EXPECT_EQ((*got)->cells[0].value, Value(table, row));
    }
    auto it = store_->NewIterator(table, KeyRange{});
    ASSERT_TRUE(it.ok());
    int count = 0;
    for ((*it)->SeekToFirst(); (*it)->Valid(); (*it)->Next()) {
      auto fragment = (*it)->fragment();
      ASSERT_TRUE(fragment.ok());
      ASSERT_EQ(fragment->cells.size(), 1u);
      EXPECT_EQ(fragment->cells[0].value.substr(0, table.size() + 1), table + ":");
      ++count;
    }
    EXPECT_TRUE((*it)->status().ok());
    EXPECT_EQ(count, kRows);
  }

  std::filesystem::path dir_;
  common::ManualClock clock_{kTimestamp};
  std::unique_ptr<Store> store_;
};

TEST_P(StoreBlockCacheTest, EveryTableReadsBackWhatWasWritten) {
  ASSERT_NO_FATAL_FAILURE(Open());
  const std::vector<std::string> tables = {"t1", "t2", "t3"};
  for (const std::string& table : tables) {
    TableOptions options;
    options.shape = Shape();
    ASSERT_TRUE(store_->CreateTable(table, options).ok());
    ASSERT_NO_FATAL_FAILURE(Write(table));
  }
  for (const std::string& table : tables)
    ASSERT_NO_FATAL_FAILURE(ExpectContents(table));  // memtables
  for (const std::string& table : tables) ASSERT_TRUE(store_->FlushTable(table).ok());
  for (const std::string& table : tables) ASSERT_NO_FATAL_FAILURE(ExpectContents(table));  // files
  // Reopened: the families found on disk get the shared cache too.
  ASSERT_NO_FATAL_FAILURE(Open());
  for (const std::string& table : tables) ASSERT_NO_FATAL_FAILURE(ExpectContents(table));
  // A table created after reopening.
  TableOptions options;
  options.shape = Shape();
  ASSERT_TRUE(store_->CreateTable("t4", options).ok());
  ASSERT_NO_FATAL_FAILURE(Write("t4"));
  ASSERT_TRUE(store_->FlushTable("t4").ok());
  ASSERT_NO_FATAL_FAILURE(ExpectContents("t4"));
  ASSERT_NO_FATAL_FAILURE(ExpectContents("t1"));
}

// 0: RocksDB's per-family default; 4 KiB: smaller than the data, so blocks are evicted all the
// time; 256 MiB: the default.
INSTANTIATE_TEST_SUITE_P(Sizes, StoreBlockCacheTest,
                         ::testing::Values(size_t{0}, size_t{4} << 10, size_t{256} << 20));

TEST(StoreOptionsTest, DefaultBlockCacheIs256MiB) {
  EXPECT_EQ(StoreOptions().block_cache_bytes, size_t{256} << 20);
}

}  // namespace
}  // namespace storage
