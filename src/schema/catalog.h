// Catalog: an immutable snapshot of the schema (keyspaces, user types, tables), the schema
// layer's central data structure (ARCHITECTURE.md §2, §7).
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
#include <string>
#include <string_view>
#include <vector>

#include "common/uuid.h"
#include "cql/statement_parts.h"
#include "cql/types.h"

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

  // The column named `name`, or nullptr.
  const ColumnMetadata* FindColumn(std::string_view name) const;
  // The columns of one kind, in the order of `columns`.
  std::vector<const ColumnMetadata*> ColumnsOfKind(ColumnKind kind) const;
  size_t PartitionKeySize() const;
  size_t ClusteringSize() const;
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

  // nullptr when absent.
  const cql::CqlType* FindType(std::string_view type_name) const;
  const TableMetadata* FindTable(std::string_view table_name) const;
};

class Catalog {
 public:
  using KeyspaceMap = std::map<std::string, std::shared_ptr<const KeyspaceMetadata>, std::less<>>;

  // An empty catalogue with a random schema_version.
  static std::shared_ptr<const Catalog> Empty();

  const common::Uuid& schema_version() const { return schema_version_; }
  const KeyspaceMap& keyspaces() const { return keyspaces_; }

  // Lookups by exact name; nullptr when absent.
  const KeyspaceMetadata* FindKeyspace(std::string_view keyspace) const;
  const TableMetadata* FindTable(std::string_view keyspace, std::string_view table) const;
  const cql::CqlType* FindType(std::string_view keyspace, std::string_view type_name) const;

  // A new snapshot with `keyspace` added or replaced (by name) and a new random
  // schema_version. REQUIRES: keyspace != nullptr.
  std::shared_ptr<const Catalog> WithKeyspace(
      std::shared_ptr<const KeyspaceMetadata> keyspace) const;
  // A new snapshot without the keyspace named `name` (and so without its tables and types)
  // and a new random schema_version. Absent names give an otherwise identical copy.
  std::shared_ptr<const Catalog> WithoutKeyspace(std::string_view name) const;

  // Public for std::make_shared; use Empty()/With*().
  Catalog(KeyspaceMap keyspaces, common::Uuid schema_version)
      : keyspaces_(std::move(keyspaces)), schema_version_(schema_version) {}

 private:
  KeyspaceMap keyspaces_;
  common::Uuid schema_version_;
};

}  // namespace schema
