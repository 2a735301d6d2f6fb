// Key layout: the bytes of RocksDB keys in a table's column family (docs/dev/storage_format.md
// "Keys"), built from CQL key values and parsed back.
//
//   key := EncodeToken(token) ‖ pk-component... ‖ section ‖ rest
//   section 0x10  partition tombstone   rest = ""
//   section 0x20  static row            rest = ""
//   section 0x30  range tombstone       rest = bound(start) ‖ bound(end)
//   section 0x40  clustered row         rest = ck-component...   (all clustering columns)
//   bound := ck-component... ‖ 0x00 (before: sorts before every longer bound with that prefix)
//                            | ck-component... ‖ 0xFF (after: sorts after all of them)
//
// Seek keys among rows (`RowBoundKey`, never stored) are `... ‖ 0x40 ‖ ck-component...` for
// "before" (a row key with that prefix extends it, so sorts after it) and the same ‖ 0xFF for
// "after".
//
// Components use storage/key_encoding.h (order-preserving, prefix-free, DESC inverted), whose
// first byte is never 0x00 or 0xFF, so a bound's terminator cannot be mistaken for a
// component. Within a partition, entries sort: partition tombstone < static row < range
// tombstones < rows, and rows in clustering order. All entries of a partition share the prefix
// `token ‖ pk-components`, and the first 8 bytes (the token) are the RocksDB prefix-extractor
// domain (`NewTokenPrefixExtractor`), so prefix Bloom filters serve single-partition reads.
//
// Thread-safety: `KeyShape` is an immutable value; functions are pure. The prefix extractor is
// stateless and thread-safe.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <rocksdb/slice_transform.h>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/types/types.h"

namespace storage {

enum class KeySection : uint8_t {
  kPartitionDeletion = 0x10,
  kStaticRow = 0x20,
  kRangeTombstone = 0x30,
  kRow = 0x40,
};

// Which side of its clustering prefix a bound sorts on.
enum class BoundSide : uint8_t {
  kBefore = 0x00,  // inclusive start, exclusive end
  kAfter = 0xFF,   // exclusive start, inclusive end
};

struct ClusteringColumn {
  cql::CqlType type;
  bool descending = false;

  bool operator==(const ClusteringColumn&) const = default;
};

// The key columns of a table, in order. Values passed to the functions below are the
// native-protocol serializations of these types.
struct KeyShape {
  std::vector<cql::CqlType> partition_key;
  std::vector<ClusteringColumn> clustering;

  bool operator==(const KeyShape&) const = default;
};

// A clustering bound: a prefix of the clustering columns and the side it sorts on.
struct ClusteringBound {
  std::vector<common::Bytes> prefix;
  BoundSide side = BoundSide::kBefore;

  bool operator==(const ClusteringBound&) const = default;
};

// The Murmur3 token of a partition key given as protocol values (cql/types/murmur3.h).
int64_t PartitionToken(std::span<const common::Bytes> partition_key);

// `EncodeToken(token) ‖ pk-components`: the prefix shared by every entry of the partition.
// REQUIRES: partition_key.size() == shape.partition_key.size(); token == PartitionToken(pk).
common::Bytes PartitionPrefix(const KeyShape& shape, int64_t token,
                              std::span<const common::Bytes> partition_key);
// Same, computing the token.
common::Bytes PartitionPrefix(const KeyShape& shape, std::span<const common::Bytes> partition_key);

// Keys of the entries of a partition, given its prefix.
common::Bytes PartitionDeletionKey(std::string_view partition_prefix);
common::Bytes StaticRowKey(std::string_view partition_prefix);
// REQUIRES: clustering.size() == shape.clustering.size().
common::Bytes RowKey(const KeyShape& shape, std::string_view partition_prefix,
                     std::span<const common::Bytes> clustering);
// REQUIRES: each bound's prefix has at most shape.clustering.size() values.
common::Bytes RangeTombstoneKey(const KeyShape& shape, std::string_view partition_prefix,
                                const ClusteringBound& start, const ClusteringBound& end);
// A seek key among the rows of the partition: before/after every row with that clustering
// prefix. An empty prefix with kBefore is the first row position, with kAfter past the last.
common::Bytes RowBoundKey(const KeyShape& shape, std::string_view partition_prefix,
                          const ClusteringBound& bound);
// The bound back from a key made by RowBoundKey(shape, partition_prefix, bound). Corruption
// when `key` is not such a key.
common::Result<ClusteringBound> ParseRowBoundKey(const KeyShape& shape,
                                                 std::string_view partition_prefix,
                                                 std::string_view key);
// A key greater than every entry of the partition and smaller than the next partition's.
common::Bytes PartitionEndKey(std::string_view partition_prefix);

struct ParsedKey {
  int64_t token = 0;
  std::vector<common::Bytes> partition_key;
  KeySection section = KeySection::kRow;
  std::vector<common::Bytes> clustering;  // kRow only
  ClusteringBound range_start;            // kRangeTombstone only
  ClusteringBound range_end;              // kRangeTombstone only
};

// Parses a key built by the functions above for `shape`. Any other bytes give Corruption.
common::Result<ParsedKey> ParseKey(const KeyShape& shape, std::string_view key);

// The clustering values of the row key `key`, whose first `prefix_size` bytes are its
// partition prefix (already known to the caller, e.g. from PartitionPrefix or
// PartitionPrefixSize; not re-parsed or checked here). Replaces the contents of `*clustering`
// (its capacity is reused, so a caller reading many rows may pass the same vector). The same
// values as ParseKey(shape, key)->clustering at a fraction of the cost. Corruption when the
// bytes after the prefix are not `0x40 ‖ ck-component...` for `shape` with nothing after
// them, or when `key` is not longer than `prefix_size`.
common::Status ParseRowClustering(const KeyShape& shape, size_t prefix_size, std::string_view key,
                                  std::vector<common::Bytes>* clustering);

// The length of the partition prefix (`token ‖ pk-components`) that `key` starts with, without
// parsing the rest. Corruption when `key` does not start with such a prefix for `shape`.
common::Result<size_t> PartitionPrefixSize(const KeyShape& shape, std::string_view key);

// A RocksDB prefix extractor whose domain is every key of at least 8 bytes and whose prefix is
// those 8 bytes (the token). Name: "cqld.TokenPrefix.v1".
std::shared_ptr<const rocksdb::SliceTransform> NewTokenPrefixExtractor();

}  // namespace storage
