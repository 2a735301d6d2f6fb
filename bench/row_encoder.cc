#include "bench/row_encoder.h"

#include <algorithm>
#include <utility>

#include "storage/key_layout.h"
#include "storage/row_fragment.h"

namespace bench {

common::Result<std::unique_ptr<RowEncoder>> RowEncoder::ForTable(const engine::Database& database,
                                                                 std::string_view keyspace,
                                                                 std::string_view table,
                                                                 std::vector<std::string> columns) {
  auto encoder = std::make_unique<RowEncoder>();
  encoder->catalog_ = database.catalog();
  const schema::TableMetadata* metadata = encoder->catalog_->FindTable(keyspace, table);
  if (metadata == nullptr) return common::Status::NotFound("Unknown table " + std::string(table));
  encoder->schema_ = std::make_unique<engine::TableSchema>(metadata);
  size_t key_columns = 0;
  for (const std::string& name : columns) {
    int index = encoder->schema_->IndexOfColumn(name);
    if (index < 0) return common::Status::Invalid("Unknown column " + name);
    schema::ColumnKind kind = encoder->schema_->column(index).kind;
    if (kind == schema::ColumnKind::kPartitionKey || kind == schema::ColumnKind::kClustering) {
      ++key_columns;
    }
    encoder->column_indexes_.push_back(index);
  }
  if (key_columns != encoder->schema_->partition_key.size() + encoder->schema_->clustering.size()) {
    return common::Status::Invalid("Every primary key column must be given");
  }
  return encoder;
}

common::Bytes RowEncoder::PartitionPrefix(std::span<const common::Bytes> partition_key) const {
  return storage::PartitionPrefix(schema_->shape, partition_key);
}

EncodedRow RowEncoder::Encode(std::span<const common::Bytes> values, int64_t timestamp) const {
  const engine::TableSchema& table = *schema_;
  std::vector<common::Bytes> partition_key(table.partition_key.size());
  std::vector<common::Bytes> clustering(table.clustering.size());
  storage::RowFragment fragment;
  fragment.liveness = storage::LivenessInfo{.timestamp = timestamp};
  for (size_t i = 0; i < values.size(); ++i) {
    int index = column_indexes_[i];
    const schema::ColumnMetadata& column = table.column(index);
    switch (column.kind) {
      case schema::ColumnKind::kPartitionKey:
        partition_key[column.position] = values[i];
        break;
      case schema::ColumnKind::kClustering:
        clustering[column.position] = values[i];
        break;
      default: {
        storage::Cell cell;
        cell.column_id = column.column_id;
        cell.timestamp = timestamp;
        cell.value = values[i];
        fragment.cells.push_back(std::move(cell));
        break;
      }
    }
  }
  storage::SortCells(&fragment);
  EncodedRow row;
  row.key = storage::RowKey(table.shape, storage::PartitionPrefix(table.shape, partition_key),
                            clustering);
  row.value = storage::EncodeRowFragment(fragment);
  return row;
}

}  // namespace bench
