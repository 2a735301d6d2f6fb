#include "storage/index_key_layout.h"

#include <iterator>
#include <utility>

#include "cql/types/value_codec.h"
#include "storage/key_encoding.h"

namespace storage {

using common::Bytes;
using common::Result;
using common::Status;
using cql::CqlType;

IndexKeyLayout::IndexKeyLayout(std::vector<CqlType> part_types, const KeyShape& base,
                               bool partition_level)
    : part_types_(std::move(part_types)),
      partition_key_size_(base.partition_key.size()),
      partition_level_(partition_level) {
  shape_.clustering.push_back(ClusteringColumn{CqlType::Bigint(), false});
  for (const CqlType& pk_type : base.partition_key) {
    shape_.clustering.push_back(ClusteringColumn{pk_type, false});
  }
  if (!partition_level_) {
    for (const ClusteringColumn& ck : base.clustering) shape_.clustering.push_back(ck);
  }
}

Bytes IndexKeyLayout::ValuePrefix(std::span<const Bytes> parts) const {
  Bytes prefix;
  for (size_t i = 0; i < parts.size() && i < part_types_.size(); ++i) {
    AppendKeyComponent(part_types_[i], parts[i], /*descending=*/false, &prefix);
  }
  return prefix;
}

std::vector<Bytes> IndexKeyLayout::Clustering(int64_t token, std::span<const Bytes> partition_key,
                                              std::span<const Bytes> clustering) const {
  std::vector<Bytes> values;
  values.reserve(shape_.clustering.size());
  values.push_back(cql::SerializeBigint(token));
  values.insert(values.end(), partition_key.begin(), partition_key.end());
  if (!partition_level_) values.insert(values.end(), clustering.begin(), clustering.end());
  return values;
}

Bytes IndexKeyLayout::EntryKey(std::string_view value_prefix, int64_t token,
                               std::span<const Bytes> partition_key,
                               std::span<const Bytes> clustering) const {
  return RowKey(shape_, value_prefix, Clustering(token, partition_key, clustering));
}

Bytes IndexKeyLayout::ValueBound(std::string_view value_prefix, BoundSide side) const {
  return RowBoundKey(shape_, value_prefix, ClusteringBound{{}, side});
}

Bytes IndexKeyLayout::TokenBound(std::string_view value_prefix, int64_t token) const {
  return RowBoundKey(shape_, value_prefix,
                     ClusteringBound{{cql::SerializeBigint(token)}, BoundSide::kBefore});
}

Bytes IndexKeyLayout::PartitionBound(std::string_view value_prefix, int64_t token,
                                     std::span<const Bytes> partition_key, BoundSide side) const {
  std::vector<Bytes> prefix = Clustering(token, partition_key, {});
  prefix.resize(1 + partition_key.size());
  return RowBoundKey(shape_, value_prefix, ClusteringBound{prefix, side});
}

Bytes IndexKeyLayout::AfterRow(std::string_view value_prefix, int64_t token,
                               std::span<const Bytes> partition_key,
                               std::span<const Bytes> clustering) const {
  return RowBoundKey(
      shape_, value_prefix,
      ClusteringBound{Clustering(token, partition_key, clustering), BoundSide::kAfter});
}

Result<IndexEntryLocation> IndexKeyLayout::ParseEntryKey(std::string_view value_prefix,
                                                         std::string_view key) const {
  ASSIGN_OR_RETURN(ClusteringBound bound, ParseRowBoundKey(shape_, value_prefix, key));
  if (bound.side != BoundSide::kBefore || bound.prefix.size() != shape_.clustering.size()) {
    return Status::Corruption("not a secondary index entry key");
  }
  IndexEntryLocation location;
  ASSIGN_OR_RETURN(location.token, cql::DeserializeBigint(bound.prefix[0]));
  location.partition_key.assign(
      std::make_move_iterator(bound.prefix.begin() + 1),
      std::make_move_iterator(bound.prefix.begin() + 1 + partition_key_size_));
  location.clustering.assign(
      std::make_move_iterator(bound.prefix.begin() + 1 + partition_key_size_),
      std::make_move_iterator(bound.prefix.end()));
  return location;
}

}  // namespace storage
