#include "storage/key_layout.h"

#include <string>

#include "cql/types/murmur3.h"
#include "storage/key_encoding.h"

namespace storage {
namespace {

constexpr size_t kTokenSize = 8;

void AppendClustering(const KeyShape& shape, std::span<const common::Bytes> values,
                      common::Bytes* out) {
  for (size_t i = 0; i < values.size() && i < shape.clustering.size(); ++i) {
    AppendKeyComponent(shape.clustering[i].type, values[i], shape.clustering[i].descending, out);
  }
}

void AppendBound(const KeyShape& shape, const ClusteringBound& bound, common::Bytes* out) {
  AppendClustering(shape, bound.prefix, out);
  out->push_back(static_cast<char>(bound.side));
}

common::Status Corrupt(std::string_view what) {
  return common::Status::Corruption("Corrupt key: " + std::string(what));
}

bool IsBoundTerminator(char c) {
  return static_cast<uint8_t>(c) == static_cast<uint8_t>(BoundSide::kBefore) ||
         static_cast<uint8_t>(c) == static_cast<uint8_t>(BoundSide::kAfter);
}

common::Result<ClusteringBound> ReadBound(const KeyShape& shape, std::string_view* in) {
  ClusteringBound bound;
  while (true) {
    if (in->empty()) return Corrupt("unterminated clustering bound");
    if (IsBoundTerminator(in->front())) {
      bound.side = static_cast<BoundSide>(static_cast<uint8_t>(in->front()));
      in->remove_prefix(1);
      return bound;
    }
    size_t i = bound.prefix.size();
    if (i >= shape.clustering.size()) return Corrupt("clustering bound too long");
    ASSIGN_OR_RETURN(common::Bytes value, ReadKeyComponent(shape.clustering[i].type,
                                                           shape.clustering[i].descending, in));
    bound.prefix.push_back(std::move(value));
  }
}

class TokenPrefixExtractor final : public rocksdb::SliceTransform {
 public:
  const char* Name() const override { return "cqld.TokenPrefix.v1"; }
  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    return rocksdb::Slice(key.data(), kTokenSize);
  }
  bool InDomain(const rocksdb::Slice& key) const override { return key.size() >= kTokenSize; }
};

}  // namespace

int64_t PartitionToken(std::span<const common::Bytes> partition_key) {
  std::vector<std::string_view> views(partition_key.begin(), partition_key.end());
  return cql::Murmur3Token(cql::SerializePartitionKey(views));
}

common::Bytes PartitionPrefix(const KeyShape& shape, int64_t token,
                              std::span<const common::Bytes> partition_key) {
  common::Bytes out = EncodeToken(token);
  for (size_t i = 0; i < partition_key.size() && i < shape.partition_key.size(); ++i) {
    AppendKeyComponent(shape.partition_key[i], partition_key[i], false, &out);
  }
  return out;
}

common::Bytes PartitionPrefix(const KeyShape& shape, std::span<const common::Bytes> partition_key) {
  return PartitionPrefix(shape, PartitionToken(partition_key), partition_key);
}

common::Bytes PartitionDeletionKey(std::string_view partition_prefix) {
  common::Bytes out(partition_prefix);
  out.push_back(static_cast<char>(KeySection::kPartitionDeletion));
  return out;
}

common::Bytes StaticRowKey(std::string_view partition_prefix) {
  common::Bytes out(partition_prefix);
  out.push_back(static_cast<char>(KeySection::kStaticRow));
  return out;
}

common::Bytes RowKey(const KeyShape& shape, std::string_view partition_prefix,
                     std::span<const common::Bytes> clustering) {
  common::Bytes out(partition_prefix);
  out.push_back(static_cast<char>(KeySection::kRow));
  AppendClustering(shape, clustering, &out);
  return out;
}

common::Bytes RangeTombstoneKey(const KeyShape& shape, std::string_view partition_prefix,
                                const ClusteringBound& start, const ClusteringBound& end) {
  common::Bytes out(partition_prefix);
  out.push_back(static_cast<char>(KeySection::kRangeTombstone));
  AppendBound(shape, start, &out);
  AppendBound(shape, end, &out);
  return out;
}

common::Bytes RowBoundKey(const KeyShape& shape, std::string_view partition_prefix,
                          const ClusteringBound& bound) {
  common::Bytes out(partition_prefix);
  out.push_back(static_cast<char>(KeySection::kRow));
  AppendClustering(shape, bound.prefix, &out);
  // A row key with this prefix extends the bare prefix, so the bare prefix already sorts
  // before it; only the "after" side needs a byte (0xFF, above any component's first byte).
  if (bound.side == BoundSide::kAfter) out.push_back(static_cast<char>(BoundSide::kAfter));
  return out;
}

common::Result<ClusteringBound> ParseRowBoundKey(const KeyShape& shape,
                                                 std::string_view partition_prefix,
                                                 std::string_view key) {
  if (key.size() <= partition_prefix.size() ||
      key.substr(0, partition_prefix.size()) != partition_prefix ||
      static_cast<uint8_t>(key[partition_prefix.size()]) !=
          static_cast<uint8_t>(KeySection::kRow)) {
    return Corrupt("not a row bound of the partition");
  }
  std::string_view in = key.substr(partition_prefix.size() + 1);
  ClusteringBound bound;
  while (!in.empty()) {
    if (static_cast<uint8_t>(in.front()) == static_cast<uint8_t>(BoundSide::kAfter)) {
      if (in.size() != 1) return Corrupt("bytes after a row bound");
      bound.side = BoundSide::kAfter;
      return bound;
    }
    size_t i = bound.prefix.size();
    if (i >= shape.clustering.size()) return Corrupt("row bound too long");
    ASSIGN_OR_RETURN(common::Bytes value, ReadKeyComponent(shape.clustering[i].type,
                                                           shape.clustering[i].descending, &in));
    bound.prefix.push_back(std::move(value));
  }
  bound.side = BoundSide::kBefore;
  return bound;
}

common::Bytes PartitionEndKey(std::string_view partition_prefix) {
  common::Bytes out(partition_prefix);
  out.push_back(static_cast<char>(0xFF));
  return out;
}

common::Result<ParsedKey> ParseKey(const KeyShape& shape, std::string_view key) {
  ParsedKey parsed;
  if (key.size() < kTokenSize) return Corrupt("shorter than a token");
  ASSIGN_OR_RETURN(parsed.token, DecodeToken(key));
  std::string_view in = key.substr(kTokenSize);
  for (const cql::CqlType& type : shape.partition_key) {
    ASSIGN_OR_RETURN(common::Bytes value, ReadKeyComponent(type, false, &in));
    parsed.partition_key.push_back(std::move(value));
  }
  if (in.empty()) return Corrupt("no section byte");
  uint8_t section = static_cast<uint8_t>(in.front());
  in.remove_prefix(1);
  switch (section) {
    case static_cast<uint8_t>(KeySection::kPartitionDeletion):
    case static_cast<uint8_t>(KeySection::kStaticRow):
      break;
    case static_cast<uint8_t>(KeySection::kRangeTombstone): {
      ASSIGN_OR_RETURN(parsed.range_start, ReadBound(shape, &in));
      ASSIGN_OR_RETURN(parsed.range_end, ReadBound(shape, &in));
      break;
    }
    case static_cast<uint8_t>(KeySection::kRow):
      for (const ClusteringColumn& column : shape.clustering) {
        ASSIGN_OR_RETURN(common::Bytes value,
                         ReadKeyComponent(column.type, column.descending, &in));
        parsed.clustering.push_back(std::move(value));
      }
      break;
    default:
      return Corrupt("unknown section byte");
  }
  parsed.section = static_cast<KeySection>(section);
  if (!in.empty()) return Corrupt("trailing bytes");
  return parsed;
}

common::Status ParseRowClustering(const KeyShape& shape, size_t prefix_size, std::string_view key,
                                  std::vector<common::Bytes>* clustering) {
  clustering->clear();
  if (key.size() <= prefix_size) return Corrupt("no section byte");
  if (static_cast<uint8_t>(key[prefix_size]) != static_cast<uint8_t>(KeySection::kRow)) {
    return Corrupt("not a row key");
  }
  std::string_view in = key.substr(prefix_size + 1);
  for (const ClusteringColumn& column : shape.clustering) {
    ASSIGN_OR_RETURN(common::Bytes value, ReadKeyComponent(column.type, column.descending, &in));
    clustering->push_back(std::move(value));
  }
  if (!in.empty()) return Corrupt("trailing bytes");
  return common::Status::Ok();
}

common::Result<size_t> PartitionPrefixSize(const KeyShape& shape, std::string_view key) {
  if (key.size() < kTokenSize) return Corrupt("shorter than a token");
  std::string_view in = key.substr(kTokenSize);
  for (const cql::CqlType& type : shape.partition_key) {
    RETURN_IF_ERROR(ReadKeyComponent(type, false, &in).status());
  }
  return key.size() - in.size();
}

std::shared_ptr<const rocksdb::SliceTransform> NewTokenPrefixExtractor() {
  return std::make_shared<TokenPrefixExtractor>();
}

}  // namespace storage
