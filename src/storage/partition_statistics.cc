#include "storage/partition_statistics.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "common/bytes.h"
#include "cql/types/value_format.h"
#include "storage/compaction_filter.h"
#include "storage/key_layout.h"

namespace storage {
namespace {

constexpr uint8_t kDistributionVersion = 1;

// Histogram buckets as (index, count) pairs of the non-empty ones.
void PutBuckets(const common::metrics::HistogramSnapshot& snapshot, common::ByteWriter* out) {
  uint64_t non_empty = 0;
  for (uint64_t n : snapshot.buckets) non_empty += n > 0 ? 1 : 0;
  out->PutUnsignedVInt(non_empty);
  for (size_t i = 0; i < snapshot.buckets.size(); ++i) {
    if (snapshot.buckets[i] == 0) continue;
    out->PutUnsignedVInt(i);
    out->PutUnsignedVInt(snapshot.buckets[i]);
  }
  out->PutUnsignedVInt(static_cast<uint64_t>(snapshot.sum));
}

common::Status ReadBuckets(common::ByteReader* in, common::metrics::HistogramSnapshot* snapshot) {
  ASSIGN_OR_RETURN(uint64_t non_empty, in->ReadUnsignedVInt());
  if (non_empty > snapshot->buckets.size()) {
    return common::Status::Corruption("partition statistics: too many buckets");
  }
  for (uint64_t i = 0; i < non_empty; ++i) {
    ASSIGN_OR_RETURN(uint64_t index, in->ReadUnsignedVInt());
    ASSIGN_OR_RETURN(uint64_t count, in->ReadUnsignedVInt());
    if (index >= snapshot->buckets.size()) {
      return common::Status::Corruption("partition statistics: bucket out of range");
    }
    snapshot->buckets[index] += count;
    snapshot->count += count;
  }
  ASSIGN_OR_RETURN(uint64_t sum, in->ReadUnsignedVInt());
  snapshot->sum = static_cast<double>(sum);
  return common::Status::Ok();
}

common::metrics::HistogramSnapshot EmptySizeSnapshot() {
  common::metrics::HistogramSnapshot snapshot;
  snapshot.bounds = common::metrics::Histogram::SizeBounds();
  snapshot.buckets.assign(snapshot.bounds.size() + 1, 0);
  return snapshot;
}

size_t BucketOf(const std::vector<double>& bounds, uint64_t value) {
  return static_cast<size_t>(
      std::lower_bound(bounds.begin(), bounds.end(), static_cast<double>(value)) - bounds.begin());
}

void Observe(common::metrics::HistogramSnapshot* snapshot, uint64_t value) {
  ++snapshot->buckets[BucketOf(snapshot->bounds, value)];
  ++snapshot->count;
  snapshot->sum += static_cast<double>(value);
}

// A partition prefix as Cassandra's partitionKeyType.getString prints it: the values of the
// partition key columns, ':'-separated; hex when it does not parse.
std::string FormatPartitionKey(const std::optional<KeyShape>& shape, std::string_view prefix) {
  if (shape) {
    common::Result<ParsedKey> parsed = ParseKey(*shape, PartitionDeletionKey(prefix));
    if (parsed.ok()) {
      std::string out;
      for (size_t i = 0; i < parsed->partition_key.size(); ++i) {
        if (i > 0) out.push_back(':');
        out += cql::FormatValue(shape->partition_key[i], parsed->partition_key[i]);
      }
      return out;
    }
  }
  return "0x" + common::ToHex(prefix);
}

// One SST file's partitions, fed in key order (header: "Pipeline position").
//
// Invariants:
//   1. `prefix_` is the partition prefix of the last entry added (empty before the first and
//      when the family has no shape), `bytes_`/`rows_` what that partition holds so far.
//   2. A key that starts with `prefix_` belongs to the same partition: partition key
//      components are prefix-free (key_encoding.h), so a longer or different pk cannot share
//      the whole prefix.
class PartitionStatisticsCollector final : public rocksdb::TablePropertiesCollector {
 public:
  PartitionStatisticsCollector(std::optional<KeyShape> shape, uint64_t large_partition_bytes)
      : shape_(std::move(shape)), large_partition_bytes_(large_partition_bytes) {}

  rocksdb::Status AddUserKey(const rocksdb::Slice& key, const rocksdb::Slice& value,
                             rocksdb::EntryType /*type*/, rocksdb::SequenceNumber /*seq*/,
                             uint64_t /*file_size*/) override {
    if (!shape_) return rocksdb::Status::OK();
    std::string_view k(key.data(), key.size());
    if (prefix_.empty() || !k.starts_with(prefix_)) {
      common::Result<size_t> size = PartitionPrefixSize(*shape_, k);
      if (!size.ok()) {
        ++unparsed_;  // not a table key: counted nowhere, never fails the flush
        return rocksdb::Status::OK();
      }
      EndPartition();
      prefix_.assign(k.substr(0, *size));
      last_key_.clear();
    }
    bytes_ += key.size() + value.size();
    if (k != last_key_) {  // merge operands of one key follow each other
      ++rows_;
      last_key_.assign(k);
    }
    return rocksdb::Status::OK();
  }

  rocksdb::Status Finish(rocksdb::UserCollectedProperties* properties) override {
    if (!shape_) return rocksdb::Status::OK();
    EndPartition();
    (*properties)[kPartitionStatisticsPropertyName] = EncodePartitionDistribution(distribution_);
    if (!large_.empty())
      (*properties)[kLargePartitionsPropertyName] = EncodeLargePartitions(large_);
    return rocksdb::Status::OK();
  }

  rocksdb::UserCollectedProperties GetReadableProperties() const override {
    if (!shape_) return {};
    return {{"cqld.partitions", fmt::format("{}", distribution_.partitions)},
            {"cqld.partition_max_bytes", fmt::format("{}", distribution_.max_bytes)},
            {"cqld.unparsed_keys", fmt::format("{}", unparsed_)}};
  }

  const char* Name() const override { return "cqld.PartitionStatistics.v1"; }

 private:
  void EndPartition() {
    if (prefix_.empty()) return;
    PartitionDistribution& d = distribution_;
    d.min_bytes = d.partitions == 0 ? bytes_ : std::min(d.min_bytes, bytes_);
    d.max_bytes = std::max(d.max_bytes, bytes_);
    ++d.partitions;
    Observe(&d.bytes, bytes_);
    Observe(&d.rows, rows_);
    if (large_partition_bytes_ > 0 && bytes_ > large_partition_bytes_ &&
        large_.size() < kMaxLargePartitions) {
      large_.push_back(LargePartition{FormatPartitionKey(shape_, prefix_), bytes_});
    }
    prefix_.clear();
    bytes_ = 0;
    rows_ = 0;
  }

  const std::optional<KeyShape> shape_;
  const uint64_t large_partition_bytes_;
  PartitionDistribution distribution_;
  std::vector<LargePartition> large_;
  std::string prefix_;
  std::string last_key_;
  uint64_t bytes_ = 0;
  uint64_t rows_ = 0;
  uint64_t unparsed_ = 0;
};

}  // namespace

PartitionDistribution::PartitionDistribution()
    : bytes(EmptySizeSnapshot()), rows(EmptySizeSnapshot()) {}

void PartitionDistribution::Merge(const PartitionDistribution& other) {
  if (other.partitions == 0) return;
  min_bytes = partitions == 0 ? other.min_bytes : std::min(min_bytes, other.min_bytes);
  max_bytes = std::max(max_bytes, other.max_bytes);
  partitions += other.partitions;
  bytes.Merge(other.bytes);
  rows.Merge(other.rows);
}

std::string EncodePartitionDistribution(const PartitionDistribution& distribution) {
  common::ByteWriter out;
  out.PutU8(kDistributionVersion);
  out.PutUnsignedVInt(distribution.partitions);
  out.PutUnsignedVInt(distribution.min_bytes);
  out.PutUnsignedVInt(distribution.max_bytes);
  PutBuckets(distribution.bytes, &out);
  PutBuckets(distribution.rows, &out);
  return out.Release();
}

common::Result<PartitionDistribution> DecodePartitionDistribution(std::string_view bytes) {
  common::ByteReader in(bytes);
  ASSIGN_OR_RETURN(uint8_t version, in.ReadU8());
  if (version != kDistributionVersion) {
    return common::Status::Corruption(
        fmt::format("partition statistics: unknown version {}", version));
  }
  PartitionDistribution d;
  ASSIGN_OR_RETURN(d.partitions, in.ReadUnsignedVInt());
  ASSIGN_OR_RETURN(d.min_bytes, in.ReadUnsignedVInt());
  ASSIGN_OR_RETURN(d.max_bytes, in.ReadUnsignedVInt());
  RETURN_IF_ERROR(ReadBuckets(&in, &d.bytes));
  RETURN_IF_ERROR(ReadBuckets(&in, &d.rows));
  if (!in.empty() || d.bytes.count != d.partitions || d.rows.count != d.partitions) {
    return common::Status::Corruption("partition statistics: inconsistent counts");
  }
  return d;
}

std::string EncodeLargePartitions(const std::vector<LargePartition>& partitions) {
  common::ByteWriter out;
  out.PutUnsignedVInt(partitions.size());
  for (const LargePartition& p : partitions) {
    out.PutUnsignedVInt(p.key.size());
    out.PutRaw(p.key);
    out.PutUnsignedVInt(p.bytes);
  }
  return out.Release();
}

common::Result<std::vector<LargePartition>> DecodeLargePartitions(std::string_view bytes) {
  common::ByteReader in(bytes);
  ASSIGN_OR_RETURN(uint64_t count, in.ReadUnsignedVInt());
  if (count > kMaxLargePartitions) {
    return common::Status::Corruption("large partitions: too many entries");
  }
  std::vector<LargePartition> partitions;
  for (uint64_t i = 0; i < count; ++i) {
    LargePartition p;
    ASSIGN_OR_RETURN(uint64_t size, in.ReadUnsignedVInt());
    ASSIGN_OR_RETURN(std::string_view key, in.ReadRaw(size));
    p.key.assign(key);
    ASSIGN_OR_RETURN(p.bytes, in.ReadUnsignedVInt());
    partitions.push_back(std::move(p));
  }
  if (!in.empty()) return common::Status::Corruption("large partitions: trailing bytes");
  return partitions;
}

std::string PrettyPrintMemory(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return fmt::format("{}B", bytes);
  double value = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  return fmt::format("{:.3f}{}", value, kUnits[unit]);
}

PartitionStatisticsCollectorFactory::PartitionStatisticsCollectorFactory(
    std::shared_ptr<const RowFragmentCompactionFilterFactory> table, uint64_t large_partition_bytes)
    : table_(std::move(table)), large_partition_bytes_(large_partition_bytes) {}

rocksdb::TablePropertiesCollector*
PartitionStatisticsCollectorFactory::CreateTablePropertiesCollector(
    rocksdb::TablePropertiesCollectorFactory::Context /*context*/) {
  // RocksDB takes ownership of the collector it is handed (its interface is a raw pointer).
  return std::make_unique<PartitionStatisticsCollector>(table_->options().shape,
                                                        large_partition_bytes_)
      .release();
}

}  // namespace storage
