#include "engine/index_schema.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

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
  std::vector<CqlType> part_types;
  auto unsupported = [&]() {
    return Status::Invalid(fmt::format("Index {} cannot serve column {} of type {}", index.name,
                                       index.column, type.ToCql()));
  };
  switch (index.target) {
    case Target::kFull:
      if (!IsFrozenCollection(type)) return unsupported();
      schema.part_ = IndexedPart::kCell;
      part_types = {type};
      break;
    case Target::kValues:
      if (!type.IsCollection()) {
        if (type.IsMultiCell()) return unsupported();  // a non-frozen UDT
        schema.part_ = IndexedPart::kCell;
        part_types = {type};
      } else if (!type.IsMultiCell()) {
        return unsupported();  // frozen collections take FULL indexes only
      } else {
        schema.part_ = IndexedPart::kElements;
        part_types = {type.kind() == TypeKind::kMap ? type.value() : type.element()};
      }
      break;
    case Target::kKeys:
      if (!IsMultiCellMap(type)) return unsupported();
      schema.part_ = IndexedPart::kMapKeys;
      part_types = {type.key()};
      break;
    case Target::kEntries:
      if (!IsMultiCellMap(type)) return unsupported();
      schema.part_ = IndexedPart::kMapEntries;
      part_types = {type.key(), type.value()};
      break;
  }
  schema.partition_level_ = metadata.kind == ColumnKind::kStatic;
  schema.layout_ =
      storage::IndexKeyLayout(std::move(part_types), base.shape, schema.partition_level_);
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

}  // namespace engine
