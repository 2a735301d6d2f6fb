// Server-side DESCRIBE (Cassandra 4.0's DescribeStatement semantics): turns a parsed
// `cql::Describe` and a catalogue snapshot into the rows Cassandra returns, and renders the
// CREATE statement of one schema object exactly as Cassandra prints it. The engine wraps the
// result in a RESULT Rows message; the shell reuses the *Cql functions for client-side
// DESCRIBE against servers without it.
//
// Key property (tested): the create statements, run through `cql::ParseScript` and `ApplyDdl`
// into an empty catalogue, rebuild an equal schema.
//
// Thread-safety: pure functions over immutable data.

#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "cql/parser/statement_ddl.h"
#include "schema/catalog.h"
#include "schema/system_tables.h"

namespace schema {

// One result row. Names are quoted when needed (as Cassandra's *QuotedIfNeeded). `type` is
// "keyspace", "type", "table", "index", "materialized_view", "function" or "aggregate".
struct DescribeRow {
  std::string keyspace_name;
  std::string type;
  std::string name;
  std::string create_statement;  // empty in listings
  bool operator==(const DescribeRow&) const = default;
};

struct DescribeResult {
  enum class Shape : uint8_t {
    // Columns keyspace_name, type, name (all text): KEYSPACES, TABLES, TYPES, FUNCTIONS,
    // AGGREGATES.
    kListing,
    // Columns keyspace_name, type, name, create_statement (all text): everything else but
    // CLUSTER.
    kElements,
    // Columns cluster, partitioner, snitch (text) and, when the session keyspace is a user
    // keyspace, range_ownership map<text, frozen<list<text>>>: DESCRIBE CLUSTER.
    kCluster,
  };
  Shape shape = Shape::kElements;
  std::vector<DescribeRow> rows;
  // kCluster only.
  std::string cluster;
  std::string partitioner;  // without the org.apache.cassandra.dht. prefix
  std::string snitch;       // without the org.apache.cassandra.locator. prefix
  bool has_range_ownership = false;
  std::map<std::string, std::vector<std::string>> range_ownership;  // token -> endpoints
};

// Runs DESCRIBE `statement` against `catalog` plus the system keyspaces
// (`SystemKeyspaceMetadata`). `session_keyspace` is the USE keyspace (empty when none).
// Errors (Invalid, Cassandra's wording): "'ks' not found in keyspaces", "Table 't' not found
// in keyspace 'ks'", "Index 'i' not found in 'ks'", "Materialized view 'v' not found in 'ks'",
// "User defined type 't' not found in 'ks'", "User defined function 'f' not found in 'ks'",
// "'x' not found in keyspace 'ks'", "No keyspace specified and no current keyspace".
common::Result<DescribeResult> Describe(const Catalog& catalog, const cql::Describe& statement,
                                        std::string_view session_keyspace,
                                        const LocalNodeInfo& node = LocalNodeInfo{});

// CREATE KEYSPACE text (a comment block for virtual keyspaces).
std::string DescribeKeyspaceCql(const KeyspaceMetadata& keyspace);
// CREATE TABLE text. `with_internals` adds `ID = ...` and the dropped columns (as column
// definitions followed by ALTER TABLE DROP ... USING TIMESTAMP). Tables of virtual keyspaces
// print as a comment block. REQUIRES: `table` is not a view.
std::string DescribeTableCql(const TableMetadata& table, bool with_internals);
// CREATE TYPE text for `type` (a resolved UDT).
std::string DescribeTypeCql(const cql::CqlType& type);
// CREATE MATERIALIZED VIEW text. REQUIRES: `view.view` is set.
std::string DescribeViewCql(const TableMetadata& view, bool with_internals);
// CREATE [CUSTOM] INDEX text for `index` of `table`.
std::string DescribeIndexCql(const TableMetadata& table, const IndexMetadata& index);

}  // namespace schema
