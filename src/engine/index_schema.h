// IndexSchema: how one secondary index lays out its entries in its own column family
// (StorageId(index.id)), derived once from the index's catalogue entry and its base table.
// Maintenance (index_maintenance.h) writes entries with it; queries (index_scan.h) read them.
// This class knows which values a base row indexes; the bytes of the entry keys are laid out
// by storage/index_key_layout.h (docs/dev/storage_format.md, "Secondary index entries").
//
// Thread-safety: immutable after Make; every method is const and pure.

#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/parser/statement_parts.h"
#include "engine/row_reader.h"
#include "engine/table_schema.h"
#include "schema/catalog.h"
#include "storage/index_key_layout.h"
#include "storage/key_layout.h"
#include "storage/row_fragment.h"

namespace engine {

// What of its column an index holds.
enum class IndexedPart : uint8_t {
  kCell,        // the whole value: a non-collection column, a frozen collection (FULL), a key
  kElements,    // the elements of a list or set, the values of a map (VALUES)
  kMapKeys,     // the keys of a map (KEYS)
  kMapEntries,  // each key with its value (ENTRIES)
};

// One value an index holds for a row, with the write time of what holds it there.
struct IndexedValue {
  // The value's parts in protocol bytes: one, or a map key and its value for entries.
  std::vector<common::Bytes> parts;
  // Whether one cell, determined by the value, holds it: the cell of a simple (or frozen)
  // column, a set element, a map key (KEYS) or a map entry (ENTRIES). Then `timestamp`, `ttl`
  // and `expiration` are that cell's. Otherwise several cells may hold it (a list element, a
  // map value) or the row's liveness does (a key column): `timestamp` is the newest of them and
  // the value does not expire.
  bool single_cell = false;
  int64_t timestamp = 0;
  int64_t ttl = 0;         // seconds; > 0 only for an expiring single cell
  int64_t expiration = 0;  // seconds since the epoch, when ttl > 0
};

// Whether a built-in index `index` on `column` can find the rows of the relation
// `column <op> value` (`map_key`: the relation is `column[key] = value`): `=` on a simple or FULL
// index, CONTAINS on a VALUES index of a non-frozen collection, CONTAINS KEY on a KEYS index,
// `m[k] =` on an ENTRIES index (Cassandra 4.x CassandraIndex.supportsOperator). Custom indexes
// serve nothing (they are catalogued but not maintained).
bool IndexSupports(const schema::IndexMetadata& index, const schema::ColumnMetadata& column,
                   cql::Operator op, bool map_key);

class IndexSchema {
 public:
  // The layout of `index` on `base`. Invalid when it cannot be maintained or read (a custom
  // index, a column that no longer exists, a target that does not fit the column's type).
  // REQUIRES: `base` and `index` outlive the result (holders keep the catalogue snapshot).
  static common::Result<IndexSchema> Make(const TableSchema& base,
                                          const schema::IndexMetadata& index);

  const schema::IndexMetadata& index() const { return *index_; }
  const TableSchema& base() const { return *base_; }
  // The index's column family.
  const std::string& storage_id() const { return storage_id_; }
  // The indexed column, as an index into base().table->columns.
  int column() const { return column_; }
  IndexedPart part() const { return part_; }
  // The types of an indexed value's parts (two for entries).
  const std::vector<cql::CqlType>& part_types() const { return layout_.part_types(); }
  // One entry per base partition rather than per row: indexes on static columns.
  bool partition_level() const { return partition_level_; }
  // The values the index holds for a row, sorted by parts (bytewise) without duplicates; empty
  // when the column is null. `row` is the row as assembled, `live` and `static_live` its live
  // regular and static cells and liveness (row_change.h): values of regular and static
  // columns come from the cells, key column values from `row` with the row's liveness (its
  // marker or newest live regular cell; for a static-only row the newest live static cell).
  // Corruption when a stored collection element does not parse.
  common::Result<std::vector<IndexedValue>> ValuesOf(const RowData& row,
                                                     const storage::RowFragment& live,
                                                     const storage::RowFragment& static_live) const;

  // The bytes of its entry keys: storage::IndexKeyLayout's functions (each contract is there).
  common::Bytes ValuePrefix(std::span<const common::Bytes> parts) const {
    return layout_.ValuePrefix(parts);
  }
  common::Bytes EntryKey(std::string_view value_prefix, int64_t token,
                         std::span<const common::Bytes> partition_key,
                         std::span<const common::Bytes> clustering) const {
    return layout_.EntryKey(value_prefix, token, partition_key, clustering);
  }
  common::Bytes ValueBound(std::string_view value_prefix, storage::BoundSide side) const {
    return layout_.ValueBound(value_prefix, side);
  }
  common::Bytes TokenBound(std::string_view value_prefix, int64_t token) const {
    return layout_.TokenBound(value_prefix, token);
  }
  common::Bytes PartitionBound(std::string_view value_prefix, int64_t token,
                               std::span<const common::Bytes> partition_key,
                               storage::BoundSide side) const {
    return layout_.PartitionBound(value_prefix, token, partition_key, side);
  }
  common::Bytes AfterRow(std::string_view value_prefix, int64_t token,
                         std::span<const common::Bytes> partition_key,
                         std::span<const common::Bytes> clustering) const {
    return layout_.AfterRow(value_prefix, token, partition_key, clustering);
  }
  common::Result<storage::IndexEntryLocation> ParseEntryKey(std::string_view value_prefix,
                                                            std::string_view key) const {
    return layout_.ParseEntryKey(value_prefix, key);
  }

 private:
  IndexSchema() = default;

  const TableSchema* base_ = nullptr;
  const schema::IndexMetadata* index_ = nullptr;
  std::string storage_id_;
  int column_ = -1;
  IndexedPart part_ = IndexedPart::kCell;
  bool partition_level_ = false;
  storage::IndexKeyLayout layout_;
};

}  // namespace engine
