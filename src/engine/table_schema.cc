#include "engine/table_schema.h"

#include <algorithm>

#include "storage/key_encoding.h"

namespace engine {

using common::Bytes;
using common::Result;
using schema::ColumnKind;

std::string StorageId(const common::Uuid& id) { return id.ToString(); }

TableSchema::TableSchema(const schema::TableMetadata* t) : table(t), storage_id(StorageId(t->id)) {
  uint32_t max_id = 0;
  for (const schema::ColumnMetadata& column : t->columns) {
    max_id = std::max(max_id, column.column_id);
  }
  index_by_column_id_.assign(static_cast<size_t>(max_id) + 1, -1);
  std::vector<std::pair<int, int>> pk;  // (position, index)
  std::vector<std::pair<int, int>> ck;
  for (size_t i = 0; i < t->columns.size(); ++i) {
    const schema::ColumnMetadata& column = t->columns[i];
    int index = static_cast<int>(i);
    index_by_column_id_[column.column_id] = index;
    switch (column.kind) {
      case ColumnKind::kPartitionKey:
        pk.emplace_back(column.position, index);
        break;
      case ColumnKind::kClustering:
        ck.emplace_back(column.position, index);
        break;
      case ColumnKind::kStatic:
        statics.push_back(index);
        break;
      case ColumnKind::kRegular:
        regulars.push_back(index);
        break;
    }
  }
  std::sort(pk.begin(), pk.end());
  std::sort(ck.begin(), ck.end());
  for (auto [position, index] : pk) {
    partition_key.push_back(index);
    shape.partition_key.push_back(t->columns[index].type);
  }
  for (auto [position, index] : ck) {
    clustering.push_back(index);
    shape.clustering.push_back(storage::ClusteringColumn{
        t->columns[index].type, t->columns[index].order == schema::ClusteringOrder::kDesc});
  }
}

int TableSchema::IndexOfColumnId(uint32_t column_id) const {
  if (column_id >= index_by_column_id_.size()) return -1;
  return index_by_column_id_[column_id];
}

int TableSchema::IndexOfColumn(std::string_view name) const {
  for (size_t i = 0; i < table->columns.size(); ++i) {
    if (table->columns[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

Bytes ElementPath(const cql::CqlType& element_type, std::string_view element) {
  Bytes path;
  storage::AppendKeyComponent(element_type, element, /*descending=*/false, &path);
  return path;
}

Result<Bytes> PathElement(const cql::CqlType& element_type, std::string_view path) {
  std::string_view in = path;
  ASSIGN_OR_RETURN(Bytes element, storage::ReadKeyComponent(element_type, false, &in));
  if (!in.empty()) return common::Status::Corruption("trailing bytes in a collection cell path");
  return element;
}

Bytes FieldPath(int index) {
  Bytes path(2, '\0');
  path[0] = static_cast<char>((index >> 8) & 0xFF);
  path[1] = static_cast<char>(index & 0xFF);
  return path;
}

int PathField(std::string_view path) {
  if (path.size() != 2) return -1;
  return common::LoadBigEndian16(path.data());
}

namespace {

Bytes ListPath(uint64_t high, uint64_t low) {
  common::ByteWriter writer;
  writer.PutU64(high);
  writer.PutU64(low);
  return writer.Release();
}

}  // namespace

// Appends: high = 2^63 + raw timestamp (increasing). Prepends: high = 2^63 - 1 - raw timestamp
// (decreasing as time goes on, always below every append). The low word is the generator's
// clock-sequence-and-node, which keeps paths of concurrent writers distinct.
std::vector<Bytes> ListPathAllocator::Append(size_t count) {
  std::vector<Bytes> paths;
  paths.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    common::Uuid id = timeuuids_->Next();
    paths.push_back(
        ListPath((uint64_t{1} << 63) + static_cast<uint64_t>(id.RawTimestamp()), id.lsb()));
  }
  return paths;
}

std::vector<Bytes> ListPathAllocator::Prepend(size_t count) {
  std::vector<Bytes> paths(count);
  // Later timestamps give smaller paths: fill from the last element to the first so the
  // first element gets the smallest path.
  for (size_t i = 0; i < count; ++i) {
    common::Uuid id = timeuuids_->Next();
    paths[count - 1 - i] =
        ListPath((uint64_t{1} << 63) - 1 - static_cast<uint64_t>(id.RawTimestamp()), id.lsb());
  }
  return paths;
}

}  // namespace engine
