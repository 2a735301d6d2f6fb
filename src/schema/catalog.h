// Catalog: an immutable snapshot of the schema (keyspaces, user types, tables), the schema
// layer's central data structure (docs/dev/architecture.md §1, §4).
//
// Prepare binds statements against one snapshot; DDL (`ddl.h`) never modifies a snapshot but
// builds a new one (sharing unchanged keyspaces and tables by pointer) with a fresh
// `schema_version`. Holders keep snapshots as `std::shared_ptr<const Catalog>`; the engine
// publishes the current one behind an atomic pointer.
//
// Names are stored exactly as they are in the schema (the parser lower-cases unquoted names).
// User types are stored resolved (`cql::CqlType::Udt`, non-frozen form); table column types
// are fully resolved (no `UdtRef` anywhere).
//
// Thread-safety: every type here is immutable once built and shared as const; reading from
// many threads is safe.

#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/uuid.h"
#include "cql/parser/statement_parts.h"
#include "cql/types/types.h"

namespace schema {

enum class ColumnKind : uint8_t { kPartitionKey, kClustering, kRegular, kStatic };

enum class ClusteringOrder : uint8_t { kAsc, kDesc };

struct ColumnMetadata {
  std::string name;
  cql::CqlType type;
  ColumnKind kind = ColumnKind::kRegular;
  // Index within the partition key or the clustering key; 0 for regular and static columns.
  int position = 0;
  // Meaningful for clustering columns only (others are kAsc).
  ClusteringOrder order = ClusteringOrder::kAsc;
  // Stable for the life of the table (never reused after a column is dropped).
  uint32_t column_id = 0;
  bool operator==(const ColumnMetadata&) const = default;
};

struct TableOptions {
  std::string comment;
  int32_t default_time_to_live = 0;
  int32_t gc_grace_seconds = 864000;
  // Every other valid option (compaction, caching, ...) as given, in source order.
  std::vector<cql::Property> other;
  bool operator==(const TableOptions&) const = default;
};

// A column removed by ALTER TABLE DROP: its cells written at or before `dropped_time_micros`
// are dead, and it may only be re-added with a compatible type and the same kind.
struct DroppedColumn {
  std::string name;
  cql::CqlType type;
  ColumnKind kind = ColumnKind::kRegular;
  int64_t dropped_time_micros = 0;
  bool operator==(const DroppedColumn&) const = default;
};

// A secondary index (CREATE INDEX) on one column of a table. Stored in Cassandra's form
// (system_schema.indexes): `kind` is "COMPOSITES" for built-in indexes and "CUSTOM" for
// CREATE CUSTOM INDEX; `options` holds "target" ("col" for a non-collection column,
// "values(col)" for a collection's values, even when written `ON t (col)`, "keys(col)",
// "entries(col)", "full(col)") and, for custom ones, "class_name" and the WITH OPTIONS entries.
struct IndexMetadata {
  enum class Target : uint8_t { kValues, kKeys, kEntries, kFull };
  // The index's storage id (its own column family).
  common::Uuid id;
  std::string name;
  std::string column;  // the indexed column's name
  Target target = Target::kValues;
  std::string kind = "COMPOSITES";
  std::map<std::string, std::string> options;
  bool operator==(const IndexMetadata&) const = default;
};

// What makes a table a materialized view (CREATE MATERIALIZED VIEW). The view's own columns,
// key and options are in its TableMetadata like any table's.
struct ViewInfo {
  common::Uuid base_table_id;
  std::string base_table_name;  // in the same keyspace
  bool include_all_columns = false;
  // The WHERE clause as Cassandra stores it in system_schema.views.where_clause, e.g.
  // `confirm_number IS NOT NULL AND hotel_id IS NOT NULL`, and its parsed relations.
  std::string where_clause;
  std::vector<cql::Relation> where;
  bool operator==(const ViewInfo&) const = default;
};

struct TableMetadata {
  common::Uuid id;
  std::string keyspace;
  std::string name;
  // Partition key columns in key order, then clustering columns in key order, then static
  // columns, then regular columns (each of the last two sorted by name, as Cassandra lists them).
  std::vector<ColumnMetadata> columns;
  bool is_counter = false;
  TableOptions options;
  // The column_id the next added column gets.
  uint32_t next_column_id = 0;
  // Columns dropped by ALTER TABLE, by name.
  std::map<std::string, DroppedColumn, std::less<>> dropped_columns;
  // Secondary indexes on this table, by index name (unique within the keyspace).
  std::map<std::string, IndexMetadata, std::less<>> indexes;
  // Set when this is a materialized view (then it lives in KeyspaceMetadata::views).
  std::optional<ViewInfo> view;

  // The column named `name`, or nullptr.
  const ColumnMetadata* FindColumn(std::string_view name) const;
  // The columns of one kind, in the order of `columns`.
  std::vector<const ColumnMetadata*> ColumnsOfKind(ColumnKind kind) const;
  size_t PartitionKeySize() const;
  size_t ClusteringSize() const;

  // Member-wise equality (tests, change detection).
  bool operator==(const TableMetadata&) const = default;
};

struct KeyspaceMetadata {
  std::string name;
  // Replication options as stored by Cassandra: "class" holds the fully qualified strategy
  // class (e.g. "org.apache.cassandra.locator.SimpleStrategy"), the others as given.
  std::map<std::string, std::string> replication;
  bool durable_writes = true;
  // User types by name, resolved and non-frozen.
  std::map<std::string, cql::CqlType, std::less<>> types;
  std::map<std::string, std::shared_ptr<const TableMetadata>, std::less<>> tables;
  // Materialized views by name (tables and views share one namespace per keyspace).
  std::map<std::string, std::shared_ptr<const TableMetadata>, std::less<>> views;

  // nullptr when absent.
  const cql::CqlType* FindType(std::string_view type_name) const;
  const TableMetadata* FindTable(std::string_view table_name) const;
  const TableMetadata* FindView(std::string_view view_name) const;
  // A table or a view by name.
  const TableMetadata* FindTableOrView(std::string_view name) const;
  // The views whose base table is `base_table_id`.
  std::vector<const TableMetadata*> ViewsOf(const common::Uuid& base_table_id) const;
  // The table holding the index named `index_name`, or nullptr.
  const TableMetadata* FindIndexedTable(std::string_view index_name) const;
};

// The kinds of entry the catalogue is persisted as (catalog_store.h): one per keyspace, user
// type, table and materialized view (a table's indexes are part of its entry).
enum class EntryKind : uint8_t { kKeyspace = 1, kType = 2, kTable = 3, kView = 4 };

// "keyspace", "type", "table" or "view".
std::string_view EntryKindName(EntryKind kind);

// A persisted catalogue entry that could not be read back when the data directory was opened
// (undecodable bytes, a type nested too deeply, a missing keyspace or base table). It is left
// out of the snapshot, so clients see no such object, while its stored definition and its
// data stay untouched on disk; CREATE of the same name is refused (ddl.h).
struct QuarantinedEntry {
  EntryKind kind = EntryKind::kTable;
  std::string keyspace;
  std::string name;  // empty for a keyspace
  common::Uuid id;   // a table's or view's id (its data's column family); nil otherwise
  std::string reason;
  bool operator==(const QuarantinedEntry&) const = default;
};

class Catalog {
 public:
  using KeyspaceMap = std::map<std::string, std::shared_ptr<const KeyspaceMetadata>, std::less<>>;
  using Quarantine = std::vector<QuarantinedEntry>;

  // An empty catalogue with a random schema_version.
  static std::shared_ptr<const Catalog> Empty();

  const common::Uuid& schema_version() const { return schema_version_; }
  const KeyspaceMap& keyspaces() const { return keyspaces_; }

  // Lookups by exact name; nullptr when absent.
  const KeyspaceMetadata* FindKeyspace(std::string_view keyspace) const;
  const TableMetadata* FindTable(std::string_view keyspace, std::string_view table) const;
  const cql::CqlType* FindType(std::string_view keyspace, std::string_view type_name) const;
  // A table or a view.
  const TableMetadata* FindTableOrView(std::string_view keyspace, std::string_view name) const;

  // The entries quarantined when the catalogue was loaded; every later snapshot keeps them.
  const Quarantine& quarantined() const;
  // The quarantined entry of `kind` named `name` in `keyspace` (`name` empty for a keyspace),
  // or nullptr. Tables and views share one namespace: kTable also finds a view and kView a
  // table.
  const QuarantinedEntry* FindQuarantined(EntryKind kind, std::string_view keyspace,
                                          std::string_view name) const;

  // A new snapshot with `keyspace` added or replaced (by name) and a new random
  // schema_version. REQUIRES: keyspace != nullptr.
  std::shared_ptr<const Catalog> WithKeyspace(
      std::shared_ptr<const KeyspaceMetadata> keyspace) const;
  // A new snapshot without the keyspace named `name` (and so without its tables and types)
  // and a new random schema_version. Absent names give an otherwise identical copy.
  std::shared_ptr<const Catalog> WithoutKeyspace(std::string_view name) const;

  // Public for std::make_shared; use Empty()/With*().
  Catalog(KeyspaceMap keyspaces, common::Uuid schema_version,
          std::shared_ptr<const Quarantine> quarantine = nullptr)
      : keyspaces_(std::move(keyspaces)),
        schema_version_(schema_version),
        quarantine_(std::move(quarantine)) {}

 private:
  KeyspaceMap keyspaces_;
  common::Uuid schema_version_;
  std::shared_ptr<const Quarantine> quarantine_;  // null: none
};

}  // namespace schema
