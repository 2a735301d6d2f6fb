// Name resolution shared by the statements: a possibly unqualified table name to the table
// (or view, or system table) it designates, with Cassandra 4.1's messages.
//
// Thread-safety: pure functions over an immutable catalogue.

#pragma once

#include <string>
#include <string_view>

#include "common/result.h"
#include "cql/parser/statement_parts.h"
#include "schema/catalog.h"

namespace engine {

struct TableRef {
  const schema::TableMetadata* table = nullptr;
  bool is_system = false;  // a read-only table generated from the catalogue
  bool is_view = false;
};

// The keyspace a statement names: its own, else the session's; Invalid "No keyspace has been
// specified. USE a keyspace, or explicitly specify keyspace.tablename" when neither.
common::Result<std::string> ResolveKeyspace(const cql::QualifiedName& name,
                                            std::string_view session_keyspace);

// Errors: Invalid "keyspace ks does not exist", "table t does not exist".
common::Result<TableRef> LookupTable(const schema::Catalog& catalog, const cql::QualifiedName& name,
                                     std::string_view session_keyspace);

}  // namespace engine
