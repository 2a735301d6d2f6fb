// IndexKeyLayout: the bytes of the keys of one secondary index's entries, in the index's own
// column family (docs/dev/storage_format.md, "Secondary index entries"), built from CQL values
// and parsed back. Which values a base row indexes, and with which timestamps, is the engine's
// business (engine/index_schema.h); this file only lays them out:
//
//   entry key    := indexed-part ‖ 0x40 ‖ token ‖ pk-component... ‖ ck-component...
//   indexed-part := the ascending key encoding (storage/key_encoding.h) of each indexed value:
//                   the cell value, a list/set element or map value, a map key, or (entries) a
//                   map key then its value
//   token        := the base partition's Murmur3 token as a bigint key component
//   pk/ck        := the base row's key components as in the base table (ck DESC inverted);
//                   no ck components for partition-level indexes (static columns)
//   entry value  := a RowFragment: a liveness marker (present) and/or a row deletion (removed)
//
// So all entries of one value are contiguous and sorted like the base rows they name (token,
// partition key, clustering), and the entries of one base partition are contiguous within
// them. The key encoding canonicalizes representations that compare equal (booleans, varints,
// NaN), so a query value finds the entries of every equal value with those types; values that
// compare equal but keep different bytes (decimal scales, trailing null tuple fields) are
// distinct entries, as in Cassandra, whose index is keyed by the value bytes too.
//
// An entry key is a row key (storage/key_layout.h) of a synthetic key shape whose clustering is
// (token as bigint, base pk..., base ck...) and whose partition prefix is the indexed part.
//
// Thread-safety: an immutable value; every method is const and pure.

#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/types/types.h"
#include "storage/key_layout.h"

namespace storage {

// Where an entry points in the base table.
struct IndexEntryLocation {
  int64_t token = 0;
  std::vector<common::Bytes> partition_key;
  std::vector<common::Bytes> clustering;  // empty for partition-level indexes
};

class IndexKeyLayout {
 public:
  IndexKeyLayout() = default;
  // The layout of an index whose values have parts of `part_types` (one, or a map key and its
  // value for entries) over a base table of key shape `base`; `partition_level`: one entry per
  // base partition (indexes on static columns), so no clustering components.
  IndexKeyLayout(std::vector<cql::CqlType> part_types, const KeyShape& base, bool partition_level);

  // The types of an indexed value's parts.
  const std::vector<cql::CqlType>& part_types() const { return part_types_; }

  // The key prefix shared by all entries of the value `parts`.
  // REQUIRES: parts.size() == part_types().size().
  common::Bytes ValuePrefix(std::span<const common::Bytes> parts) const;
  // The key of the entry for the base row at (token, partition_key, clustering); clustering is
  // ignored for partition-level indexes. REQUIRES: the sizes match the base table's key.
  common::Bytes EntryKey(std::string_view value_prefix, int64_t token,
                         std::span<const common::Bytes> partition_key,
                         std::span<const common::Bytes> clustering) const;
  // Seek keys within one value's entries: before/after every entry (kBefore / kAfter).
  common::Bytes ValueBound(std::string_view value_prefix, BoundSide side) const;
  // Before every entry whose base token is >= `token`.
  common::Bytes TokenBound(std::string_view value_prefix, int64_t token) const;
  // Before/after every entry of one base partition.
  common::Bytes PartitionBound(std::string_view value_prefix, int64_t token,
                               std::span<const common::Bytes> partition_key, BoundSide side) const;
  // Just after the entry of one base row (row-level indexes).
  common::Bytes AfterRow(std::string_view value_prefix, int64_t token,
                         std::span<const common::Bytes> partition_key,
                         std::span<const common::Bytes> clustering) const;
  // The base location of an entry key of the value `value_prefix`; Corruption when `key` is not
  // such a key.
  common::Result<IndexEntryLocation> ParseEntryKey(std::string_view value_prefix,
                                                   std::string_view key) const;

 private:
  std::vector<common::Bytes> Clustering(int64_t token, std::span<const common::Bytes> partition_key,
                                        std::span<const common::Bytes> clustering) const;

  std::vector<cql::CqlType> part_types_;
  size_t partition_key_size_ = 0;
  bool partition_level_ = false;
  // The synthetic key shape: clustering = token (bigint), base pk, base ck (row-level only).
  // Its partition_key is unused: keys start with the indexed part instead of a token.
  KeyShape shape_;
};

}  // namespace storage
