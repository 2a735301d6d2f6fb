// Raw AST of the schema statements (keyspaces, tables, types, indexes, materialized views,
// functions, aggregates, triggers) and DESCRIBE. Part of `statement.h`.
//
// Thread-safety: plain data.

#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cql/parser/statement_dml.h"

namespace cql {

struct CreateKeyspace : StatementBase {
  std::string keyspace;
  bool if_not_exists = false;
  std::vector<Property> properties;
  bool operator==(const CreateKeyspace&) const = default;
};

struct AlterKeyspace : StatementBase {
  std::string keyspace;
  bool if_exists = false;
  std::vector<Property> properties;
  bool operator==(const AlterKeyspace&) const = default;
};

struct DropKeyspace : StatementBase {
  std::string keyspace;
  bool if_exists = false;
  bool operator==(const DropKeyspace&) const = default;
};

struct CreateTable : StatementBase {
  QualifiedName table;
  bool if_not_exists = false;
  std::vector<ColumnDefinition> columns;  // in source order
  // Empty when the statement has no PRIMARY KEY (an error the engine reports at prepare:
  // "No PRIMARY KEY specifed for table ...").
  std::vector<std::string> partition_key;
  std::vector<std::string> clustering_columns;
  std::vector<ClusteringOrder> clustering_order;
  bool compact_storage = false;
  std::vector<Property> properties;
  bool operator==(const CreateTable&) const = default;
};

struct AlterTable : StatementBase {
  enum class Kind : uint8_t {
    kAlterColumnType,     // ALTER c TYPE t
    kAddColumns,          // ADD [IF NOT EXISTS] c t [STATIC] | ADD (c t, ...)
    kDropColumns,         // DROP [IF EXISTS] c | DROP (c, ...) [USING TIMESTAMP n]
    kRenameColumns,       // RENAME [IF EXISTS] a TO b [AND c TO d ...]
    kWithOptions,         // WITH properties
    kDropCompactStorage,  // DROP COMPACT STORAGE
  };
  QualifiedName table;
  bool if_exists = false;
  Kind kind = Kind::kWithOptions;
  bool if_column_exists = false;      // DROP/RENAME IF EXISTS
  bool if_column_not_exists = false;  // ADD IF NOT EXISTS
  std::string column;                 // kAlterColumnType
  CqlType type;                       // kAlterColumnType
  std::vector<ColumnDefinition> added_columns;
  std::vector<std::string> dropped_columns;
  std::optional<int64_t> drop_timestamp;
  std::vector<std::pair<std::string, std::string>> renames;
  std::vector<Property> properties;
  bool operator==(const AlterTable&) const = default;
};

struct DropTable : StatementBase {
  QualifiedName table;
  bool if_exists = false;
  bool operator==(const DropTable&) const = default;
};

struct UserTypeField {
  std::string name;
  CqlType type;
  bool operator==(const UserTypeField&) const = default;
};

struct CreateType : StatementBase {
  QualifiedName type;
  bool if_not_exists = false;
  std::vector<UserTypeField> fields;
  bool operator==(const CreateType&) const = default;
};

struct AlterType : StatementBase {
  enum class Kind : uint8_t { kAlterFieldType, kAddField, kRenameFields };
  QualifiedName type;
  bool if_exists = false;
  Kind kind = Kind::kAddField;
  bool if_field_exists = false;      // RENAME IF EXISTS
  bool if_field_not_exists = false;  // ADD IF NOT EXISTS
  std::string field;                 // kAlterFieldType, kAddField
  CqlType field_type;                // kAlterFieldType, kAddField
  std::vector<std::pair<std::string, std::string>> renames;
  bool operator==(const AlterType&) const = default;
};

struct DropType : StatementBase {
  QualifiedName type;
  bool if_exists = false;
  bool operator==(const DropType&) const = default;
};

struct IndexTarget {
  enum class Kind : uint8_t { kSimple, kValues, kKeys, kEntries, kFull };
  Kind kind = Kind::kSimple;
  std::string column;
  bool operator==(const IndexTarget&) const = default;
};

struct CreateIndex : StatementBase {
  bool custom = false;
  bool if_not_exists = false;
  std::string name;  // empty when not given
  QualifiedName table;
  std::vector<IndexTarget> targets;
  std::optional<std::string> using_class;  // USING 'class'
  std::vector<Property> properties;        // WITH OPTIONS = {...}
  bool operator==(const CreateIndex&) const = default;
};

struct DropIndex : StatementBase {
  QualifiedName index;
  bool if_exists = false;
  bool operator==(const DropIndex&) const = default;
};

struct CreateMaterializedView : StatementBase {
  QualifiedName view;
  bool if_not_exists = false;
  std::vector<Selector> selectors;  // empty means `*`
  QualifiedName base_table;
  std::vector<Relation> where;
  std::vector<std::string> partition_key;
  std::vector<std::string> clustering_columns;
  std::vector<ClusteringOrder> clustering_order;
  std::vector<Property> properties;
  bool operator==(const CreateMaterializedView&) const = default;
};

struct AlterMaterializedView : StatementBase {
  QualifiedName view;
  bool if_exists = false;
  std::vector<Property> properties;
  bool operator==(const AlterMaterializedView&) const = default;
};

struct DropMaterializedView : StatementBase {
  QualifiedName view;
  bool if_exists = false;
  bool operator==(const DropMaterializedView&) const = default;
};

struct CreateFunction : StatementBase {
  QualifiedName function;
  bool or_replace = false;
  bool if_not_exists = false;
  std::vector<std::string> argument_names;
  std::vector<CqlType> argument_types;
  bool called_on_null_input = false;  // CALLED ON NULL INPUT vs RETURNS NULL ON NULL INPUT
  CqlType return_type;
  std::string language;  // lower-cased
  std::string body;
  bool operator==(const CreateFunction&) const = default;
};

struct DropFunction : StatementBase {
  QualifiedName function;
  bool if_exists = false;
  bool arguments_specified = false;  // `f()` vs `f`
  std::vector<CqlType> argument_types;
  bool operator==(const DropFunction&) const = default;
};

struct CreateAggregate : StatementBase {
  QualifiedName aggregate;
  bool or_replace = false;
  bool if_not_exists = false;
  std::vector<CqlType> argument_types;
  std::string state_function;  // SFUNC (no keyspace in CQL)
  CqlType state_type;          // STYPE
  std::optional<std::string> final_function;
  std::optional<Term> initial_condition;  // INITCOND
  bool operator==(const CreateAggregate&) const = default;
};

struct DropAggregate : StatementBase {
  QualifiedName aggregate;
  bool if_exists = false;
  bool arguments_specified = false;
  std::vector<CqlType> argument_types;
  bool operator==(const DropAggregate&) const = default;
};

struct CreateTrigger : StatementBase {
  std::string name;
  bool if_not_exists = false;
  QualifiedName table;
  std::string using_class;
  bool operator==(const CreateTrigger&) const = default;
};

struct DropTrigger : StatementBase {
  std::string name;
  bool if_exists = false;
  QualifiedName table;
  bool operator==(const DropTrigger&) const = default;
};

// DESCRIBE / DESC, as Cassandra 4.0 accepts it server-side.
struct Describe : StatementBase {
  enum class Kind : uint8_t {
    kCluster,
    kSchema,  // [FULL] SCHEMA
    kKeyspaces,
    kKeyspace,  // [ONLY] KEYSPACE [name]; `name.keyspace` empty means the current one
    kTables,
    kTable,
    kIndex,
    kMaterializedView,
    kTypes,
    kType,
    kFunctions,
    kFunction,
    kAggregates,
    kAggregate,
    kGeneric,  // DESCRIBE [ks.]name
  };
  Kind kind = Kind::kCluster;
  QualifiedName name;  // for kKeyspace only `keyspace` is used
  bool full = false;   // FULL SCHEMA
  bool only = false;   // ONLY KEYSPACE
  bool with_internals = false;
  bool operator==(const Describe&) const = default;
};

}  // namespace cql
