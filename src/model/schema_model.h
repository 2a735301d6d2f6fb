// The schema model of `cqlmodel` (docs/cqlmodel.md): keyspaces, user types, tables, materialized
// views and secondary indexes as a data modeler reads them, loaded from a CQL schema file with the
// project's own parser (cql/parser/parser.h). It is the input of every analysis of this layer:
// the partition-size estimate (partition_size.h), the lint rules (lint.h) and the Chebotko
// diagram (diagram.h).
//
// Unlike the engine's catalogue (schema/), the model validates only what the analyses need: a
// table must have a primary key whose columns are defined, and an unqualified name needs a
// keyspace from `USE`. A keyspace a table names without a CREATE KEYSPACE is implied, so a file
// holding only tables loads. Statements other than schema definitions (INSERT, SELECT, ...) are
// skipped.
//
// Thread-safety: plain data; `LoadSchema` is pure.

#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "cql/session.h"
#include "cql/types/types.h"

namespace model {

enum class ColumnKind { kPartitionKey, kClustering, kStatic, kRegular };

struct Column {
  std::string name;
  cql::CqlType type;
  ColumnKind kind = ColumnKind::kRegular;
  bool descending = false;  // clustering columns: CLUSTERING ORDER BY (c DESC)
};

// A table or a materialized view. `columns` lists the partition key in key order, then the
// clustering columns in key order, then the static and the regular columns in source order.
struct Table {
  std::string keyspace;
  std::string name;
  std::vector<Column> columns;
  std::string comment;     // WITH comment = '...', "" when none
  bool is_view = false;    // CREATE MATERIALIZED VIEW
  std::string base_table;  // views: the base table's name (same keyspace)
  int default_ttl = 0;     // WITH default_time_to_live

  // The columns of one kind, in the order of `columns`.
  std::vector<const Column*> ColumnsOf(ColumnKind kind) const;
  // The column named `name`, or nullptr.
  const Column* Find(std::string_view name) const;
  // Whether any column is a counter.
  bool HasCounters() const;
  // "keyspace.name".
  std::string QualifiedName() const { return keyspace + "." + name; }
};

struct UserType {
  std::string keyspace;
  std::string name;
  std::vector<std::string> field_names;
  std::vector<cql::CqlType> field_types;
};

struct Index {
  std::string keyspace;
  std::string name;  // as given, or Cassandra's default `<table>_<column>_idx`
  std::string table;
  std::string column;
  std::string target;   // "", "keys", "values", "entries" or "full"
  bool custom = false;  // CREATE CUSTOM INDEX (e.g. SASI, SAI)
};

struct Keyspace {
  std::string name;
  int replication_factor = 0;  // from SimpleStrategy's replication_factor; 0 when not given
};

// A whole schema, objects in the order the file defines them.
struct SchemaModel {
  std::vector<Keyspace> keyspaces;
  std::vector<UserType> types;
  std::vector<Table> tables;  // tables and views
  std::vector<Index> indexes;

  // The table or view `keyspace.name`, or nullptr.
  const Table* FindTable(std::string_view keyspace, std::string_view name) const;
  // The user type `keyspace.name`, or nullptr.
  const UserType* FindType(std::string_view keyspace, std::string_view name) const;
  // The indexes on `table`.
  std::vector<const Index*> IndexesOf(const Table& table) const;
  // The views whose base is `table`.
  std::vector<const Table*> ViewsOf(const Table& table) const;
};

// Loads the schema in `cql_text` (a script of ';'-separated statements). Fails with the parser's
// SyntaxError, or Invalid with Cassandra's wording when a table has no primary key, names an
// unknown column in it, is defined twice, or has no keyspace.
common::Result<SchemaModel> LoadSchema(std::string_view cql_text);

// Reads and loads the file at `path`; IOError when it cannot be read.
common::Result<SchemaModel> LoadSchemaFile(const std::string& path);

// The CQL of the schema of the server behind `session`: the `create_statement`s of its
// `DESCRIBE SCHEMA` (of `DESCRIBE KEYSPACE keyspace` when `keyspace` is not empty), the
// server-side DESCRIBE of Cassandra 4.0 and later and of cqld, in its order. Fails with the
// server's error (an unknown keyspace, a server without server-side DESCRIBE).
common::Result<std::string> DescribeServerSchema(cql::Session& session,
                                                 const std::string& keyspace);

}  // namespace model
