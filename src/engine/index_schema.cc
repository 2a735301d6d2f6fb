#include "engine/index_schema.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "cql/value_codec.h"
#include "storage/key_encoding.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;
using cql::CqlType;
using cql::Operator;
using cql::TypeKind;
using schema::ColumnKind;
using Target = schema::IndexMetadata::Target;

namespace {

constexpr std::string_view kBuiltinIndexKind = "COMPOSITES";

bool IsMultiCellCollection(const CqlType& type) {
  return type.IsCollection() && type.IsMultiCell();
}

bool IsMultiCellMap(const CqlType& type) {
  return type.kind() == TypeKind::kMap && type.IsMultiCell();
}

bool IsFrozenCollection(const CqlType& type) { return type.IsCollection() && !type.IsMultiCell(); }

}  // namespace

bool IndexSupports(const schema::IndexMetadata& index, const schema::ColumnMetadata& column,
                   Operator op, bool map_key) {
  if (index.kind != kBuiltinIndexKind || index.column != column.name) return false;
  const CqlType& type = column.type;
  if (map_key)
    return op == Operator::kEq && index.target == Target::kEntries && IsMultiCellMap(type);
  switch (op) {
    case Operator::kEq:
      return (index.target == Target::kValues && !type.IsCollection()) ||
             (index.target == Target::kFull && IsFrozenCollection(type));
    case Operator::kContains:
      return index.target == Target::kValues && IsMultiCellCollection(type);
    case Operator::kContainsKey:
      return index.target == Target::kKeys && IsMultiCellMap(type);
    default:
      return false;
  }
}

Result<IndexSchema> IndexSchema::Make(const TableSchema& base, const schema::IndexMetadata& index) {
  if (index.kind != kBuiltinIndexKind) {
    return Status::Invalid(fmt::format("Index {} is a custom index", index.name));
  }
  int column = base.IndexOfColumn(index.column);
  if (column < 0) {
    return Status::Invalid(
        fmt::format("Index {} names a missing column {}", index.name, index.column));
  }
  const schema::ColumnMetadata& metadata = base.column(column);
  const CqlType& type = metadata.type;
  IndexSchema schema;
  schema.base_ = &base;
  schema.index_ = &index;
  schema.storage_id_ = StorageId(index.id);
  schema.column_ = column;
  auto unsupported = [&]() {
    return Status::Invalid(fmt::format("Index {} cannot serve column {} of type {}", index.name,
                                       index.column, type.ToCql()));
  };
  switch (index.target) {
    case Target::kFull:
      if (!IsFrozenCollection(type)) return unsupported();
      schema.part_ = IndexedPart::kCell;
      schema.part_types_ = {type};
      break;
    case Target::kValues:
      if (!type.IsCollection()) {
        if (type.IsMultiCell()) return unsupported();  // a non-frozen UDT
        schema.part_ = IndexedPart::kCell;
        schema.part_types_ = {type};
      } else if (!type.IsMultiCell()) {
        return unsupported();  // frozen collections take FULL indexes only
      } else {
        schema.part_ = IndexedPart::kElements;
        schema.part_types_ = {type.kind() == TypeKind::kMap ? type.value() : type.element()};
      }
      break;
    case Target::kKeys:
      if (!IsMultiCellMap(type)) return unsupported();
      schema.part_ = IndexedPart::kMapKeys;
      schema.part_types_ = {type.key()};
      break;
    case Target::kEntries:
      if (!IsMultiCellMap(type)) return unsupported();
      schema.part_ = IndexedPart::kMapEntries;
      schema.part_types_ = {type.key(), type.value()};
      break;
  }
  schema.partition_level_ = metadata.kind == ColumnKind::kStatic;
  schema.shape_.clustering.push_back(storage::ClusteringColumn{CqlType::Bigint(), false});
  for (const CqlType& pk_type : base.shape.partition_key) {
    schema.shape_.clustering.push_back(storage::ClusteringColumn{pk_type, false});
  }
  if (!schema.partition_level_) {
    for (const storage::ClusteringColumn& ck : base.shape.clustering) {
      schema.shape_.clustering.push_back(ck);
    }
  }
  return schema;
}

Result<std::vector<IndexedValue>> IndexSchema::ValuesOf(
    const RowData& row, const storage::RowFragment& live,
    const storage::RowFragment& static_live) const {
  std::vector<IndexedValue> values;
  if (static_cast<size_t>(column_) >= row.cells.size()) return values;
  const schema::ColumnMetadata& column = base_->column(column_);
  if (column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering) {
    const CellData& cell = row.cells[column_];
    if (!cell.value) return values;
    // The row's liveness: its marker or newest live cell.
    IndexedValue value;
    value.parts.push_back(*cell.value);
    const storage::RowFragment& holder = row.static_only ? static_live : live;
    if (holder.liveness) value.timestamp = holder.liveness->timestamp;
    for (const storage::Cell& c : holder.cells)
      value.timestamp = std::max(value.timestamp, c.timestamp);
    values.push_back(std::move(value));
    return values;
  }
  const storage::RowFragment& cells = column.kind == ColumnKind::kStatic ? static_live : live;
  const CqlType& type = column.type;
  // One value held by `cell`: exactly (single) or among others (newest timestamp wins).
  auto add = [&](std::vector<Bytes> parts, const storage::Cell& cell, bool single) {
    IndexedValue value;
    value.parts = std::move(parts);
    value.single_cell = single;
    value.timestamp = cell.timestamp;
    if (single && cell.is_expiring()) {
      value.ttl = cell.ttl;
      value.expiration = cell.local_deletion_time;
    }
    values.push_back(std::move(value));
  };
  for (const storage::Cell& cell : cells.cells) {
    if (cell.column_id != column.column_id) continue;
    if (!cell.path) {
      if (part_ == IndexedPart::kCell) add({cell.value}, cell, /*single=*/true);
      continue;
    }
    switch (part_) {
      case IndexedPart::kCell:
        break;  // not a multi-cell column
      case IndexedPart::kElements:
        if (type.kind() == TypeKind::kSet) {
          ASSIGN_OR_RETURN(Bytes element, PathElement(type.element(), *cell.path));
          add({std::move(element)}, cell, /*single=*/true);
        } else {
          add({cell.value}, cell, /*single=*/false);  // a list element or a map value
        }
        break;
      case IndexedPart::kMapKeys: {
        ASSIGN_OR_RETURN(Bytes key, PathElement(type.key(), *cell.path));
        add({std::move(key)}, cell, /*single=*/true);
        break;
      }
      case IndexedPart::kMapEntries: {
        ASSIGN_OR_RETURN(Bytes key, PathElement(type.key(), *cell.path));
        add({std::move(key), cell.value}, cell, /*single=*/true);
        break;
      }
    }
  }
  // Lists and maps may repeat values; an entry exists once, with the newest timestamp.
  std::sort(values.begin(), values.end(), [](const IndexedValue& a, const IndexedValue& b) {
    return a.parts != b.parts ? a.parts < b.parts : a.timestamp > b.timestamp;
  });
  values.erase(
      std::unique(values.begin(), values.end(),
                  [](const IndexedValue& a, const IndexedValue& b) { return a.parts == b.parts; }),
      values.end());
  return values;
}

Bytes IndexSchema::ValuePrefix(std::span<const Bytes> parts) const {
  Bytes prefix;
  for (size_t i = 0; i < parts.size() && i < part_types_.size(); ++i) {
    storage::AppendKeyComponent(part_types_[i], parts[i], /*descending=*/false, &prefix);
  }
  return prefix;
}

std::vector<Bytes> IndexSchema::Clustering(int64_t token, std::span<const Bytes> partition_key,
                                           std::span<const Bytes> clustering) const {
  std::vector<Bytes> values;
  values.reserve(shape_.clustering.size());
  values.push_back(cql::SerializeBigint(token));
  values.insert(values.end(), partition_key.begin(), partition_key.end());
  if (!partition_level_) values.insert(values.end(), clustering.begin(), clustering.end());
  return values;
}

Bytes IndexSchema::EntryKey(std::string_view value_prefix, int64_t token,
                            std::span<const Bytes> partition_key,
                            std::span<const Bytes> clustering) const {
  return storage::RowKey(shape_, value_prefix, Clustering(token, partition_key, clustering));
}

Bytes IndexSchema::ValueBound(std::string_view value_prefix, storage::BoundSide side) const {
  return storage::RowBoundKey(shape_, value_prefix, storage::ClusteringBound{{}, side});
}

Bytes IndexSchema::TokenBound(std::string_view value_prefix, int64_t token) const {
  return storage::RowBoundKey(
      shape_, value_prefix,
      storage::ClusteringBound{{cql::SerializeBigint(token)}, storage::BoundSide::kBefore});
}

Bytes IndexSchema::PartitionBound(std::string_view value_prefix, int64_t token,
                                  std::span<const Bytes> partition_key,
                                  storage::BoundSide side) const {
  std::vector<Bytes> prefix = Clustering(token, partition_key, {});
  prefix.resize(1 + partition_key.size());
  return storage::RowBoundKey(shape_, value_prefix, storage::ClusteringBound{prefix, side});
}

Bytes IndexSchema::AfterRow(std::string_view value_prefix, int64_t token,
                            std::span<const Bytes> partition_key,
                            std::span<const Bytes> clustering) const {
  return storage::RowBoundKey(shape_, value_prefix,
                              storage::ClusteringBound{Clustering(token, partition_key, clustering),
                                                       storage::BoundSide::kAfter});
}

Result<IndexEntryLocation> IndexSchema::ParseEntryKey(std::string_view value_prefix,
                                                      std::string_view key) const {
  ASSIGN_OR_RETURN(storage::ClusteringBound bound,
                   storage::ParseRowBoundKey(shape_, value_prefix, key));
  if (bound.side != storage::BoundSide::kBefore ||
      bound.prefix.size() != shape_.clustering.size()) {
    return Status::Corruption("not a secondary index entry key");
  }
  IndexEntryLocation location;
  ASSIGN_OR_RETURN(location.token, cql::DeserializeBigint(bound.prefix[0]));
  size_t pk_size = base_->shape.partition_key.size();
  location.partition_key.assign(std::make_move_iterator(bound.prefix.begin() + 1),
                                std::make_move_iterator(bound.prefix.begin() + 1 + pk_size));
  location.clustering.assign(std::make_move_iterator(bound.prefix.begin() + 1 + pk_size),
                             std::make_move_iterator(bound.prefix.end()));
  return location;
}

}  // namespace engine
