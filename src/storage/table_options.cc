#include "storage/table_options.h"

#include <string>
#include <utility>

#include "cql/types/type_codec.h"

namespace storage {
namespace {

constexpr uint8_t kHasShape = 0x01;
constexpr uint8_t kRowEntriesOnly = 0x02;
constexpr uint8_t kSingleRowPartitions = 0x04;
constexpr uint8_t kKnownFlags = kHasShape | kRowEntriesOnly | kSingleRowPartitions;
constexpr uint8_t kAscending = 0;
constexpr uint8_t kDescending = 1;

common::Status Corrupt(std::string_view what) {
  return common::Status::Corruption("Bad table options: " + std::string(what));
}

common::Result<cql::CqlType> ReadType(common::ByteReader* in) {
  common::Result<cql::CqlType> type = cql::DecodeTypeOption(in);
  if (!type.ok()) return Corrupt(type.status().message());
  return type;
}

// A count no larger than what the remaining bytes could hold (each item takes >= 2 bytes).
common::Result<uint64_t> ReadCount(common::ByteReader* in) {
  common::Result<uint64_t> count = in->ReadUnsignedVInt();
  if (!count.ok() || *count > in->remaining()) return Corrupt("bad count");
  return count;
}

}  // namespace

common::Result<common::Bytes> EncodeTableOptions(const TableOptions& options) {
  common::ByteWriter out;
  out.PutU8(kTableOptionsVersion);
  out.PutVInt(options.gc_grace_seconds);
  uint8_t flags = 0;
  if (options.shape) flags |= kHasShape;
  if (options.row_entries_only) flags |= kRowEntriesOnly;
  if (options.single_row_partitions) flags |= kSingleRowPartitions;
  out.PutU8(flags);
  if (!options.shape) return out.Release();
  const KeyShape& shape = *options.shape;
  auto check = [](const cql::CqlType& type) {
    return type.IsResolved()
               ? common::Status::Ok()
               : common::Status::Invalid("Key type " + type.ToCql() + " is not resolved");
  };
  out.PutUnsignedVInt(shape.partition_key.size());
  for (const cql::CqlType& type : shape.partition_key) {
    RETURN_IF_ERROR(check(type));
    cql::EncodeTypeOption(type, &out);
  }
  out.PutUnsignedVInt(shape.clustering.size());
  for (const ClusteringColumn& column : shape.clustering) {
    RETURN_IF_ERROR(check(column.type));
    out.PutU8(column.descending ? kDescending : kAscending);
    cql::EncodeTypeOption(column.type, &out);
  }
  return out.Release();
}

common::Result<TableOptions> DecodeTableOptions(std::string_view bytes) {
  common::ByteReader in(bytes);
  common::Result<uint8_t> version = in.ReadU8();
  if (!version.ok() || (*version != 1 && *version != 2)) return Corrupt("unknown version");
  TableOptions options;
  common::Result<int64_t> gc_grace = in.ReadVInt();
  if (!gc_grace.ok()) return Corrupt("truncated");
  options.gc_grace_seconds = *gc_grace;
  if (*version == 1) {
    if (!in.empty()) return Corrupt("trailing bytes");
    return options;
  }
  common::Result<uint8_t> flags = in.ReadU8();
  if (!flags.ok() || (*flags & ~kKnownFlags) != 0) return Corrupt("bad flags");
  options.row_entries_only = (*flags & kRowEntriesOnly) != 0;
  options.single_row_partitions = (*flags & kSingleRowPartitions) != 0;
  if ((*flags & kHasShape) != 0) {
    KeyShape shape;
    ASSIGN_OR_RETURN(uint64_t partition_columns, ReadCount(&in));
    for (uint64_t i = 0; i < partition_columns; ++i) {
      ASSIGN_OR_RETURN(cql::CqlType type, ReadType(&in));
      shape.partition_key.push_back(std::move(type));
    }
    ASSIGN_OR_RETURN(uint64_t clustering_columns, ReadCount(&in));
    for (uint64_t i = 0; i < clustering_columns; ++i) {
      common::Result<uint8_t> order = in.ReadU8();
      if (!order.ok() || (*order != kAscending && *order != kDescending)) {
        return Corrupt("bad clustering order");
      }
      ASSIGN_OR_RETURN(cql::CqlType type, ReadType(&in));
      shape.clustering.push_back(ClusteringColumn{std::move(type), *order == kDescending});
    }
    options.shape = std::move(shape);
  }
  if (!in.empty()) return Corrupt("trailing bytes");
  return options;
}

}  // namespace storage
