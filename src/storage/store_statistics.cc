#include "storage/store_statistics.h"

#include <filesystem>
#include <utility>

#include <fmt/format.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/listener.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table_properties.h>

#include "common/bytes.h"
#include "common/logging.h"

namespace storage {
namespace {

uint64_t IntProperty(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* family,
                     const std::string& name) {
  uint64_t value = 0;
  if (!db->GetIntProperty(family, name, &value)) return 0;
  return value;
}

// The table properties of the live files: their sizes, and their partitions.
void AddFileProperties(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* family,
                       TableStorageStatistics* out) {
  rocksdb::TablePropertiesCollection files;
  if (!db->GetPropertiesOfAllTables(family, &files).ok()) return;
  for (const auto& [name, properties] : files) {
    out->sstable_entries += properties->num_entries;
    out->sstable_deletions += properties->num_deletions;
    out->bloom_filter_bytes += properties->filter_size;
    out->index_bytes += properties->index_size;
    out->data_bytes += properties->data_size;
    out->raw_bytes += properties->raw_key_size + properties->raw_value_size;
    const auto& user = properties->user_collected_properties;
    auto found = user.find(kPartitionStatisticsPropertyName);
    common::Result<PartitionDistribution> decoded =
        found == user.end() ? common::Status::NotFound("")
                            : DecodePartitionDistribution(found->second);
    if (decoded.ok()) {
      out->partitions.Merge(*decoded);
    } else {
      ++out->sstables_without_partition_statistics;
    }
  }
}

class LargePartitionListener final : public rocksdb::EventListener {
 public:
  explicit LargePartitionListener(std::shared_ptr<const TableDisplayNames> names)
      : names_(std::move(names)) {}

  void OnTableFileCreated(const rocksdb::TableFileCreationInfo& info) override {
    if (!info.status.ok()) return;
    const auto& user = info.table_properties.user_collected_properties;
    auto found = user.find(kLargePartitionsPropertyName);
    if (found == user.end()) return;
    common::Result<std::vector<LargePartition>> large = DecodeLargePartitions(found->second);
    if (!large.ok()) return;
    std::string table = names_->Get(info.cf_name);
    for (const LargePartition& partition : *large) {
      LOG_WARNING("Writing large partition {}:{} ({}) to sstable {}", table, partition.key,
                  PrettyPrintMemory(partition.bytes), info.file_path);
    }
  }

 private:
  std::shared_ptr<const TableDisplayNames> names_;
};

}  // namespace

void TableDisplayNames::Set(std::map<std::string, std::string, std::less<>> names) {
  std::lock_guard lock(mutex_);
  names_ = std::move(names);
}

std::string TableDisplayNames::Get(std::string_view table_id) const {
  std::lock_guard lock(mutex_);
  auto it = names_.find(table_id);
  return it == names_.end() ? std::string(table_id) : it->second;
}

TableStorageStatistics CollectTableStatistics(rocksdb::DB* db,
                                              rocksdb::ColumnFamilyHandle* family) {
  using Properties = rocksdb::DB::Properties;
  TableStorageStatistics out;
  const int levels = db->NumberLevels(family);
  for (int level = 0; level < levels; ++level) {
    uint64_t files = 0;
    std::string value;
    if (db->GetProperty(family, Properties::kNumFilesAtLevelPrefix + std::to_string(level),
                        &value)) {
      files = std::stoull(value);
    }
    out.sstables_per_level.push_back(files);
    out.live_sstable_count += files;
  }
  while (!out.sstables_per_level.empty() && out.sstables_per_level.back() == 0) {
    out.sstables_per_level.pop_back();
  }
  out.live_sstable_bytes = IntProperty(db, family, Properties::kLiveSstFilesSize);
  out.total_sstable_bytes = IntProperty(db, family, Properties::kTotalSstFilesSize);
  out.memtable_bytes = IntProperty(db, family, Properties::kCurSizeAllMemTables);
  out.memtable_entries = IntProperty(db, family, Properties::kNumEntriesActiveMemTable) +
                         IntProperty(db, family, Properties::kNumEntriesImmMemTables);
  out.estimated_keys = IntProperty(db, family, Properties::kEstimateNumKeys);
  out.pending_compaction_bytes =
      IntProperty(db, family, Properties::kEstimatePendingCompactionBytes);
  out.compaction_pending = IntProperty(db, family, Properties::kCompactionPending) > 0;
  out.flush_pending = IntProperty(db, family, Properties::kMemTableFlushPending) > 0;
  AddFileProperties(db, family, &out);
  return out;
}

void CollectStoreStatistics(rocksdb::DB* db, const rocksdb::Statistics* statistics,
                            const std::string& path, StoreStatistics* out) {
  using Properties = rocksdb::DB::Properties;
  rocksdb::ColumnFamilyHandle* family = db->DefaultColumnFamily();
  // Every family shares one block cache (when there is one), so any family reports it.
  out->block_cache_capacity_bytes = IntProperty(db, family, Properties::kBlockCacheCapacity);
  out->block_cache_usage_bytes = IntProperty(db, family, Properties::kBlockCacheUsage);
  out->block_cache_pinned_bytes = IntProperty(db, family, Properties::kBlockCachePinnedUsage);
  out->running_compactions = IntProperty(db, family, Properties::kNumRunningCompactions);
  out->running_flushes = IntProperty(db, family, Properties::kNumRunningFlushes);
  rocksdb::Env* env = db->GetEnv();
  out->flush_threads = static_cast<uint64_t>(env->GetBackgroundThreads(rocksdb::Env::HIGH));
  out->compaction_threads = static_cast<uint64_t>(env->GetBackgroundThreads(rocksdb::Env::LOW));
  out->flushes_queued = env->GetThreadPoolQueueLen(rocksdb::Env::HIGH);
  out->compactions_queued = env->GetThreadPoolQueueLen(rocksdb::Env::LOW);
  if (statistics != nullptr) {
    out->block_cache_hits = statistics->getTickerCount(rocksdb::BLOCK_CACHE_HIT);
    out->block_cache_misses = statistics->getTickerCount(rocksdb::BLOCK_CACHE_MISS);
    out->bytes_written = statistics->getTickerCount(rocksdb::BYTES_WRITTEN);
    out->bytes_read = statistics->getTickerCount(rocksdb::BYTES_READ);
    out->flush_bytes_written = statistics->getTickerCount(rocksdb::FLUSH_WRITE_BYTES);
    out->compaction_bytes_read = statistics->getTickerCount(rocksdb::COMPACT_READ_BYTES);
    out->compaction_bytes_written = statistics->getTickerCount(rocksdb::COMPACT_WRITE_BYTES);
    out->write_stall_micros = statistics->getTickerCount(rocksdb::STALL_MICROS);
  }
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    if (entry.path().extension() != ".log") continue;
    std::error_code size_error;
    uint64_t size = entry.file_size(size_error);
    if (!size_error) out->wal_bytes += size;
  }
}

std::shared_ptr<rocksdb::Statistics> NewStoreStatistics() {
  std::shared_ptr<rocksdb::Statistics> statistics = rocksdb::CreateDBStatistics();
  // Tickers only: kExceptDetailedTimers (timers and histograms on every write) measured 1.4% to
  // 6.6% fewer writes per CPU second (bench/statistics/statistics_overhead.cc), too close to
  // the 3% budget; every figure the store reports is a ticker.
  statistics->set_stats_level(rocksdb::StatsLevel::kExceptTimers);
  return statistics;
}

std::shared_ptr<rocksdb::EventListener> NewLargePartitionListener(
    std::shared_ptr<const TableDisplayNames> names) {
  return std::make_shared<LargePartitionListener>(std::move(names));
}

}  // namespace storage
