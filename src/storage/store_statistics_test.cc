#include "storage/store_statistics.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "storage/key_layout.h"
#include "storage/partition_statistics.h"
#include "storage/storage_testing.h"
#include "storage/store.h"

namespace storage {
namespace {

common::Bytes Int(int32_t v) {
  common::ByteWriter w;
  w.PutI32(v);
  return w.Release();
}

class StoreStatisticsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("cqld_store_statistics_test_" + std::to_string(getpid()) + "_" +
            std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    Open(StoreOptions());
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Open(StoreOptions options) {
    store_.reset();
    options.clock = &clock_;
    options.block_cache_bytes = 8 << 20;
    auto store = Store::Open(dir_.string(), options);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = std::move(*store);
    if (!store_->HasTable("t")) {
      ASSERT_TRUE(store_->CreateTable("t", TableOptions{.shape = shape_}).ok());
    }
  }
  common::Bytes Key(int32_t pk, int32_t ck) const {
    std::vector<common::Bytes> pk_values = {Int(pk)};
    std::vector<common::Bytes> ck_values = {Int(ck)};
    return RowKey(shape_, PartitionPrefix(shape_, pk_values), ck_values);
  }
  // Writes rows `first_ck`.. of `rows` to partitions 0..partitions-1, each value `value_size`
  // bytes; returns the bytes (key + encoded value) each partition got.
  uint64_t Write(std::string_view table, int partitions, int first_ck, int rows,
                 size_t value_size) {
    uint64_t bytes = 0;
    for (int pk = 0; pk < partitions; ++pk) {
      WriteBatch batch;
      uint64_t partition_bytes = 0;
      for (int ck = first_ck; ck < first_ck + rows; ++ck) {
        RowFragment fragment;
        fragment.cells = {testing::LiveCell(1, 1, std::string(value_size, 'x'))};
        common::Bytes key = Key(pk, ck);
        partition_bytes += key.size() + EncodeRowFragment(fragment).size();
        batch.Merge(table, key, fragment);
      }
      EXPECT_TRUE(store_->Write(batch).ok());
      bytes = partition_bytes;
    }
    return bytes;
  }
  TableStorageStatistics Statistics(std::string_view table) const {
    auto statistics = store_->TableStatistics(table);
    EXPECT_TRUE(statistics.ok()) << statistics.status().ToString();
    return statistics.ok() ? *statistics : TableStorageStatistics();
  }

  common::ManualClock clock_{1'700'000'000'000'000};
  std::filesystem::path dir_;
  std::unique_ptr<Store> store_;
  KeyShape shape_{{cql::CqlType::Int()}, {{cql::CqlType::Int(), false}}};
};

TEST_F(StoreStatisticsTest, CountsPartitionsOfFlushedFilesOnly) {
  const uint64_t bytes = Write("t", 10, 0, 3, 100);
  TableStorageStatistics memtable_only = Statistics("t");
  EXPECT_EQ(memtable_only.partitions.partitions, 0u);  // not flushed: not counted
  EXPECT_EQ(memtable_only.live_sstable_count, 0u);
  EXPECT_EQ(memtable_only.memtable_entries, 30u);
  EXPECT_GT(memtable_only.memtable_bytes, 0u);

  ASSERT_TRUE(store_->FlushTable("t").ok());
  TableStorageStatistics flushed = Statistics("t");
  EXPECT_EQ(flushed.live_sstable_count, 1u);
  EXPECT_EQ(flushed.sstable_entries, 30u);
  EXPECT_GT(flushed.live_sstable_bytes, 0u);
  EXPECT_GT(flushed.bloom_filter_bytes, 0u);
  EXPECT_EQ(flushed.sstables_without_partition_statistics, 0u);
  const PartitionDistribution& partitions = flushed.partitions;
  EXPECT_EQ(partitions.partitions, 10u);
  EXPECT_EQ(partitions.min_bytes, bytes);
  EXPECT_EQ(partitions.max_bytes, bytes);
  EXPECT_EQ(partitions.bytes.count, 10u);
  EXPECT_DOUBLE_EQ(partitions.bytes.Mean(), static_cast<double>(bytes));
  // Every partition is in the bucket that holds `bytes`.
  EXPECT_GE(partitions.bytes.Percentile(0.99), partitions.bytes.Min());
  EXPECT_LE(partitions.bytes.Min(), static_cast<double>(bytes));
  EXPECT_GE(partitions.bytes.Max(), static_cast<double>(bytes));
  EXPECT_DOUBLE_EQ(partitions.rows.Mean(), 3.0);
  EXPECT_GE(partitions.rows.Max(), 3.0);
  EXPECT_LE(partitions.rows.Min(), 3.0);
}

TEST_F(StoreStatisticsTest, PartitionsInTwoFilesCountTwiceUntilCompacted) {
  const uint64_t first = Write("t", 10, 0, 2, 50);
  ASSERT_TRUE(store_->FlushTable("t").ok());
  const uint64_t second = Write("t", 10, 2, 2, 50);
  ASSERT_TRUE(store_->FlushTable("t").ok());
  TableStorageStatistics two_files = Statistics("t");
  EXPECT_EQ(two_files.live_sstable_count, 2u);
  EXPECT_EQ(two_files.partitions.partitions, 20u);
  EXPECT_EQ(two_files.partitions.max_bytes, std::max(first, second));

  ASSERT_TRUE(store_->CompactTable("t").ok());
  TableStorageStatistics compacted = Statistics("t");
  EXPECT_EQ(compacted.live_sstable_count, 1u);
  EXPECT_EQ(compacted.partitions.partitions, 10u);
  EXPECT_EQ(compacted.partitions.max_bytes, first + second);
  EXPECT_DOUBLE_EQ(compacted.partitions.rows.Mean(), 4.0);
}

TEST_F(StoreStatisticsTest, IndexFamiliesRecordNoPartitions) {
  ASSERT_TRUE(store_->CreateTable("index", TableOptions{.row_entries_only = true}).ok());
  WriteBatch batch;
  RowFragment fragment;
  fragment.cells = {testing::LiveCell(1, 1, "v")};
  batch.Merge("index", "some index entry", fragment);
  ASSERT_TRUE(store_->Write(batch).ok());
  ASSERT_TRUE(store_->FlushTable("index").ok());
  TableStorageStatistics statistics = Statistics("index");
  EXPECT_EQ(statistics.live_sstable_count, 1u);
  EXPECT_EQ(statistics.partitions.partitions, 0u);
  EXPECT_EQ(statistics.sstables_without_partition_statistics, 1u);
  EXPECT_EQ(store_->TableStatistics("missing").status().code(), common::StatusCode::kNotFound);
}

TEST_F(StoreStatisticsTest, LargePartitionIsLoggedWithCassandrasWords) {
  StoreOptions options;
  options.large_partition_warning_bytes = 2000;
  Open(options);
  store_->SetTableDisplayNames({{"t", "ks/tbl"}});
  Write("t", 1, 0, 30, 100);  // partition 0: about 3.5 KB
  ::testing::internal::CaptureStderr();
  ASSERT_TRUE(store_->FlushTable("t").ok());
  std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("Writing large partition ks/tbl:0 ("), std::string::npos) << log;
  EXPECT_NE(log.find("KiB) to sstable " + dir_.string()), std::string::npos) << log;
  EXPECT_NE(log.find(".sst"), std::string::npos) << log;

  Write("t", 3, 100, 2, 10);  // small partitions: no warning
  ::testing::internal::CaptureStderr();
  ASSERT_TRUE(store_->FlushTable("t").ok());
  log = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(log.find("Writing large partition"), std::string::npos) << log;
}

TEST_F(StoreStatisticsTest, StoreWideFigures) {
  Write("t", 5, 0, 2, 10);
  StoreStatistics before = store_->Statistics();
  EXPECT_EQ(before.block_cache_capacity_bytes, 8u << 20);
  EXPECT_GT(before.bytes_written, 0u);
  EXPECT_GT(before.wal_bytes, 0u);
  EXPECT_GT(before.disk_free_bytes, 0u);
  EXPECT_FALSE(before.read_only);
  ASSERT_TRUE(store_->FlushTable("t").ok());
  ASSERT_TRUE(store_->Get("t", Key(1, 1)).ok());
  StoreStatistics after = store_->Statistics();
  EXPECT_GT(after.block_cache_hits + after.block_cache_misses,
            before.block_cache_hits + before.block_cache_misses);
  EXPECT_GT(after.flush_bytes_written, 0u);
}

TEST(PartitionStatisticsCodec, RoundTripsAndRejectsOtherBytes) {
  PartitionDistribution d;
  d.partitions = 2;
  d.min_bytes = 10;
  d.max_bytes = 5000;
  d.bytes.buckets[3] = 1;
  d.bytes.buckets[20] = 1;
  d.bytes.count = 2;
  d.bytes.sum = 5010;
  d.rows.buckets[0] = 2;
  d.rows.count = 2;
  d.rows.sum = 2;
  std::string encoded = EncodePartitionDistribution(d);
  auto decoded = DecodePartitionDistribution(encoded);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->partitions, 2u);
  EXPECT_EQ(decoded->max_bytes, 5000u);
  EXPECT_EQ(decoded->bytes.buckets, d.bytes.buckets);
  EXPECT_EQ(decoded->rows.buckets, d.rows.buckets);
  EXPECT_FALSE(DecodePartitionDistribution(encoded + "x").ok());
  EXPECT_FALSE(DecodePartitionDistribution(encoded.substr(0, encoded.size() - 1)).ok());
  EXPECT_FALSE(DecodePartitionDistribution("").ok());

  auto large = DecodeLargePartitions(EncodeLargePartitions({{"1:a", 123}}));
  ASSERT_TRUE(large.ok());
  ASSERT_EQ(large->size(), 1u);
  EXPECT_EQ((*large)[0].key, "1:a");
  EXPECT_EQ((*large)[0].bytes, 123u);
}

TEST(PartitionStatisticsCodec, PrettyPrintsMemoryAsCassandra) {
  EXPECT_EQ(PrettyPrintMemory(512), "512B");
  EXPECT_EQ(PrettyPrintMemory(1536), "1.500KiB");
  EXPECT_EQ(PrettyPrintMemory(uint64_t{100} << 20), "100.000MiB");
  EXPECT_EQ(PrettyPrintMemory(uint64_t{3} << 30), "3.000GiB");
}

}  // namespace
}  // namespace storage
