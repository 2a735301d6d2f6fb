#include "engine/index_scan.h"

#include <memory>
#include <utility>

#include "storage/key_encoding.h"
#include "storage/key_layout.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;
using storage::BoundSide;

namespace {

Status BadPagingState() { return Status::Invalid("Invalid value for the paging state"); }

// An entry is present while its newest marker is live and not shadowed by its deletion (the
// merge already drops shadowed markers; the check keeps reads right on any fragment).
bool IsLive(const storage::RowFragment& fragment, int64_t now_seconds) {
  return fragment.liveness && fragment.liveness->IsLive(now_seconds) &&
         !(fragment.deletion && fragment.deletion->Deletes(fragment.liveness->timestamp));
}

}  // namespace

Status IndexScan::Scan(std::span<const Bytes> parts, const IndexScanOptions& options,
                       const IndexHitCallback& visit) const {
  const IndexSchema& index = *index_;
  const TableSchema& base = index.base();
  const Bytes value = index.ValuePrefix(parts);
  const bool per_partition = options.per_partition || index.partition_level();

  // Where a paged query resumes: after the entry of its last row, or at its partition.
  Bytes seek;
  if (!options.resume_after.empty()) {
    Result<storage::ParsedKey> parsed = storage::ParseKey(base.shape, options.resume_after);
    if (!parsed.ok()) return BadPagingState();
    if (!per_partition && parsed->section == storage::KeySection::kRow) {
      seek = index.AfterRow(value, parsed->token, parsed->partition_key, parsed->clustering);
    } else {
      seek = index.PartitionBound(value, parsed->token, parsed->partition_key, BoundSide::kBefore);
    }
  }

  std::vector<storage::KeyRange> ranges;
  if (options.single_partitions) {
    for (const PartitionKey& partition : options.partitions) {
      ASSIGN_OR_RETURN(int64_t token, storage::DecodeToken(partition.prefix));
      ranges.push_back(storage::KeyRange{
          index.PartitionBound(value, token, partition.values, BoundSide::kBefore),
          index.PartitionBound(value, token, partition.values, BoundSide::kAfter)});
    }
  } else {
    storage::KeyRange range{index.ValueBound(value, BoundSide::kBefore),
                            index.ValueBound(value, BoundSide::kAfter)};
    if (!options.token_start.empty()) {
      ASSIGN_OR_RETURN(int64_t token, storage::DecodeToken(options.token_start));
      range.lower = index.TokenBound(value, token);
    }
    if (!options.token_end.empty()) {
      ASSIGN_OR_RETURN(int64_t token, storage::DecodeToken(options.token_end));
      range.upper = index.TokenBound(value, token);
    }
    ranges.push_back(std::move(range));
  }

  IndexHit hit;
  int64_t hit_token = 0;
  bool has_hit = false;
  // Hands the pending hit to `visit`; false when it asked to stop.
  auto flush = [&]() -> Result<bool> {
    if (!has_hit) return true;
    has_hit = false;
    ASSIGN_OR_RETURN(bool more, visit(hit));
    hit = IndexHit();
    return more;
  };
  for (storage::KeyRange& range : ranges) {
    if (!seek.empty() && seek > range.lower) range.lower = seek;
    if (range.lower >= range.upper) continue;
    ASSIGN_OR_RETURN(std::unique_ptr<storage::FragmentIterator> it,
                     store_->NewIterator(index.storage_id(), range));
    it->SeekToFirst();
    while (it->Valid()) {
      ASSIGN_OR_RETURN(storage::RowFragment fragment, it->fragment());
      if (!IsLive(fragment, now_seconds_)) {
        it->Next();
        continue;
      }
      ASSIGN_OR_RETURN(storage::IndexEntryLocation location, index.ParseEntryKey(value, it->key()));
      if (per_partition) {
        // One hit per partition; skip the partition's other entries.
        has_hit = true;
        hit.prefix = storage::PartitionPrefix(base.shape, location.token, location.partition_key);
        hit.partition_key = location.partition_key;
        ASSIGN_OR_RETURN(bool more, flush());
        if (!more) return Status::Ok();
        it->Seek(
            index.PartitionBound(value, location.token, location.partition_key, BoundSide::kAfter));
        continue;
      }
      bool same_partition =
          has_hit && location.token == hit_token && location.partition_key == hit.partition_key;
      if (!same_partition || hit.rows.size() >= kMaxRowsPerHit) {
        ASSIGN_OR_RETURN(bool more, flush());
        if (!more) return Status::Ok();
        has_hit = true;
        hit_token = location.token;
        hit.prefix = storage::PartitionPrefix(base.shape, location.token, location.partition_key);
        hit.partition_key = std::move(location.partition_key);
      }
      hit.rows.push_back(storage::RowKey(base.shape, hit.prefix, location.clustering));
      it->Next();
    }
    RETURN_IF_ERROR(it->status());
  }
  return flush().status();
}

}  // namespace engine
