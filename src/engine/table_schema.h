// TableSchema: what the engine derives once from a table's catalogue entry to read and write
// its storage — the storage id (column family), the key shape, the columns by kind, and the
// cell paths of non-frozen collections and UDTs.
//
// Cell paths (docs/dev/storage_format.md "Cells"): a set element or a map key is stored as its
// order-preserving key encoding (storage/key_encoding.h, ascending), so the cells of a collection
// come out of storage in CQL order; a UDT field is its index as 2 big-endian bytes; a list
// element is 16 bytes that sort in list order (ListPathAllocator).
//
// Thread-safety: TableSchema is immutable once built; ListPathAllocator is thread-safe.

#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "common/uuid.h"
#include "schema/catalog.h"
#include "storage/key_layout.h"

namespace engine {

struct TableSchema {
  // REQUIRES: `table` outlives this object (holders keep the catalogue snapshot alive).
  explicit TableSchema(const schema::TableMetadata* table);

  const schema::TableMetadata* table;
  std::string storage_id;  // the column family: the table id as text
  storage::KeyShape shape;
  // Indexes into table->columns, by kind, in key order / column order.
  std::vector<int> partition_key;
  std::vector<int> clustering;
  std::vector<int> statics;
  std::vector<int> regulars;

  const schema::ColumnMetadata& column(int index) const { return table->columns[index]; }
  // The index in table->columns of the column with `column_id`, or -1.
  int IndexOfColumnId(uint32_t column_id) const;
  int IndexOfColumn(std::string_view name) const;
  bool has_statics() const { return !statics.empty(); }

 private:
  std::vector<int> index_by_column_id_;  // column_id -> index, -1 where none
};

// The storage id (column family name) of a table, view or index id.
std::string StorageId(const common::Uuid& id);

// Cell path of a set element or map key: its ascending key encoding.
common::Bytes ElementPath(const cql::CqlType& element_type, std::string_view element);
// The element (or map key) back from its path; Corruption when the path does not decode.
common::Result<common::Bytes> PathElement(const cql::CqlType& element_type, std::string_view path);
// Cell path of UDT field `index`.
common::Bytes FieldPath(int index);
// The field index of a UDT cell path, or -1 when malformed.
int PathField(std::string_view path);

// Allocates list element paths: 16 bytes, compared as unsigned bytes. Appends get increasing
// paths above every prepend; prepends get decreasing paths below every append, so
// `prepend [a, b]` puts a, b (in that order) before the current elements.
class ListPathAllocator {
 public:
  explicit ListPathAllocator(common::TimeuuidGenerator* timeuuids) : timeuuids_(timeuuids) {}
  // `count` increasing paths, after all earlier append paths.
  std::vector<common::Bytes> Append(size_t count);
  // `count` increasing paths, before all earlier prepend and append paths.
  std::vector<common::Bytes> Prepend(size_t count);

 private:
  common::TimeuuidGenerator* timeuuids_;
};

}  // namespace engine
