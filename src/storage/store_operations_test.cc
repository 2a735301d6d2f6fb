#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <set>
#include <string>

#include "storage/storage_testing.h"
#include "storage/store.h"

namespace storage {
namespace {

using testing::LiveCell;

class StoreOperationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("cqld_store_ops_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    store_ = Open(dir_, std::nullopt);
    ASSERT_NE(store_, nullptr);
    ASSERT_TRUE(store_->CreateTable("t1", TableOptions()).ok());
    ASSERT_TRUE(store_->CreateTable("t2", TableOptions()).ok());
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  std::unique_ptr<Store> Open(const std::filesystem::path& dir, std::optional<uint64_t> floor) {
    StoreOptions options;
    options.clock = &clock_;
    options.min_free_space_bytes = floor;
    auto store = Store::Open(dir.string(), options);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? std::move(*store) : nullptr;
  }
  void Put(std::string_view table, std::string_view key, std::string value) {
    RowFragment fragment;
    fragment.cells.push_back(LiveCell(1, ++timestamp_, std::move(value)));
    WriteBatch batch;
    batch.Merge(table, key, fragment);
    batch.PutMeta("catalogue", "v1");
    ASSERT_TRUE(store_->Write(batch).ok());
  }
  std::string Value(Store& store, std::string_view table, std::string_view key) {
    auto fragment = store.Get(table, key);
    if (!fragment.ok() || !*fragment || (*fragment)->cells.empty()) return "";
    return (*fragment)->cells[0].value;
  }
  size_t SstFiles(const std::filesystem::path& dir) {
    size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() == ".sst") ++count;
    }
    return count;
  }

  common::ManualClock clock_{1'700'000'000'000'000};
  std::filesystem::path dir_;
  std::unique_ptr<Store> store_;
  int64_t timestamp_ = 0;
};

TEST_F(StoreOperationsTest, FlushAllWritesEveryFamilyToFiles) {
  Put("t1", "a", "one");
  Put("t2", "b", "two");
  EXPECT_EQ(SstFiles(dir_), 0u);
  ASSERT_TRUE(store_->FlushAll().ok());
  EXPECT_EQ(SstFiles(dir_), 3u);  // t1, t2 and the meta family
}

TEST_F(StoreOperationsTest, CheckpointHoldsEveryTableAndTheMetaFamily) {
  Put("t1", "a", "one");
  Put("t2", "b", "two");
  const std::filesystem::path checkpoint = dir_ / "snapshots" / "s1";
  std::filesystem::create_directories(checkpoint.parent_path());
  auto files = store_->Checkpoint(checkpoint.string());
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  std::set<std::string> families;
  for (const auto& file : *files) {
    families.insert(file.column_family);
    EXPECT_TRUE(std::filesystem::exists(checkpoint / file.name)) << file.name;
    EXPECT_EQ(std::filesystem::file_size(checkpoint / file.name), file.bytes);
  }
  EXPECT_EQ(families, (std::set<std::string>{"meta", "t1", "t2"}));
  // A table file of the checkpoint is a hard link to the live one.
  EXPECT_EQ(std::filesystem::hard_link_count(checkpoint / files->front().name), 2u);

  // Later changes are not in it; the checkpoint opens as a database of its own.
  Put("t1", "a", "changed");
  auto again = store_->Checkpoint(checkpoint.string());
  EXPECT_FALSE(again.ok());
  const std::filesystem::path restored = dir_.string() + "-restored";
  std::filesystem::copy(checkpoint, restored);
  {
    std::unique_ptr<Store> copy = Open(restored, std::nullopt);
    ASSERT_NE(copy, nullptr);
    EXPECT_EQ(Value(*copy, "t1", "a"), "one");
    EXPECT_EQ(Value(*copy, "t2", "b"), "two");
    auto meta = copy->GetMeta("catalogue");
    ASSERT_TRUE(meta.ok() && *meta);
    EXPECT_EQ(**meta, "v1");
  }
  std::filesystem::remove_all(restored);
  // The live database is untouched by the folder inside it, and reopens.
  store_.reset();
  store_ = Open(dir_, std::nullopt);
  ASSERT_NE(store_, nullptr);
  EXPECT_EQ(Value(*store_, "t1", "a"), "changed");
}

TEST_F(StoreOperationsTest, CheckpointOnAFullDiskFailsAndLeavesNothing) {
  Put("t1", "a", "one");
  store_.reset();
  store_ = Open(dir_, uint64_t{1} << 62);  // a floor no disk has: opened read-only
  ASSERT_NE(store_, nullptr);
  ASSERT_TRUE(store_->read_only());
  const std::filesystem::path checkpoint = dir_ / "full";
  auto files = store_->Checkpoint(checkpoint.string());
  ASSERT_FALSE(files.ok());
  EXPECT_EQ(files.status().code(), common::StatusCode::kWriteFailure);
  EXPECT_FALSE(std::filesystem::exists(checkpoint));
  EXPECT_EQ(store_->FlushAll().code(), common::StatusCode::kWriteFailure);
}

TEST_F(StoreOperationsTest, BlockCacheUsageReportsTheSharedCache) {
  Store::CacheUsage usage = store_->BlockCacheUsage();
  EXPECT_EQ(usage.capacity_bytes, StoreOptions().block_cache_bytes);
  EXPECT_LE(usage.used_bytes, usage.capacity_bytes);
  // A real count of blocks held, not RocksDB's "unsupported" SIZE_MAX.
  EXPECT_LT(usage.entries, uint64_t{1} << 40);
}

}  // namespace
}  // namespace storage
