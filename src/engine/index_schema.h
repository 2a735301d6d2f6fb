// IndexSchema: how one secondary index lays out its entries in its own column family
// (StorageId(index.id)), derived once from the index's catalogue entry and its base table.
// Maintenance (index_maintenance.h) writes entries with it; queries (index_scan.h) read them.
// The bytes are in docs/dev/storage_format.md, "Secondary index entries":
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
// Thread-safety: immutable after Make; every method is const and pure.

#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/statement_parts.h"
#include "engine/row_reader.h"
#include "engine/table_schema.h"
#include "schema/catalog.h"
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

// Where an entry points in the base table.
struct IndexEntryLocation {
  int64_t token = 0;
  std::vector<common::Bytes> partition_key;
  std::vector<common::Bytes> clustering;  // empty for partition-level indexes
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
  const std::vector<cql::CqlType>& part_types() const { return part_types_; }
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

  // The key prefix shared by all entries of the value `parts`.
  // REQUIRES: parts.size() == part_types().size().
  common::Bytes ValuePrefix(std::span<const common::Bytes> parts) const;
  // The key of the entry for the base row at (token, partition_key, clustering); clustering is
  // ignored for partition-level indexes. REQUIRES: the sizes match the base table's key.
  common::Bytes EntryKey(std::string_view value_prefix, int64_t token,
                         std::span<const common::Bytes> partition_key,
                         std::span<const common::Bytes> clustering) const;
  // Seek keys within one value's entries: before/after every entry (kBefore / kAfter).
  common::Bytes ValueBound(std::string_view value_prefix, storage::BoundSide side) const;
  // Before every entry whose base token is >= `token`.
  common::Bytes TokenBound(std::string_view value_prefix, int64_t token) const;
  // Before/after every entry of one base partition.
  common::Bytes PartitionBound(std::string_view value_prefix, int64_t token,
                               std::span<const common::Bytes> partition_key,
                               storage::BoundSide side) const;
  // Just after the entry of one base row (row-level indexes).
  common::Bytes AfterRow(std::string_view value_prefix, int64_t token,
                         std::span<const common::Bytes> partition_key,
                         std::span<const common::Bytes> clustering) const;
  // The base location of an entry key of the value `value_prefix`; Corruption when `key` is not
  // such a key.
  common::Result<IndexEntryLocation> ParseEntryKey(std::string_view value_prefix,
                                                   std::string_view key) const;

 private:
  IndexSchema() = default;
  std::vector<common::Bytes> Clustering(int64_t token, std::span<const common::Bytes> partition_key,
                                        std::span<const common::Bytes> clustering) const;

  const TableSchema* base_ = nullptr;
  const schema::IndexMetadata* index_ = nullptr;
  std::string storage_id_;
  int column_ = -1;
  IndexedPart part_ = IndexedPart::kCell;
  std::vector<cql::CqlType> part_types_;
  bool partition_level_ = false;
  // The synthetic key shape: clustering = token (bigint), base pk, base ck (row-level only).
  // Its partition_key is unused: keys start with the indexed part instead of a token.
  storage::KeyShape shape_;
};

}  // namespace engine
