// Client-side DESCRIBE for servers without the DESCRIBE statement (Cassandra before 4.0): the
// shell reads `system_schema` (keyspaces, types, tables, columns, views, indexes) through its
// `cql::Session`, rebuilds a `schema::Catalog` from those rows, and runs the same
// `schema::Describe` the engine runs server-side, so the output is the same either way.
//
// Pipeline position: SessionShell::RunDescribe sends DESCRIBE to the server first; when the
// server answers with a syntax error, it calls DescribeFromSystemSchema.
//
// Limits: dropped columns are not in `system_schema` as CQL, so `DESCRIBE ... WITH INTERNALS`
// does not show them; functions and aggregates are not read; tables of virtual keyspaces are
// not listed.
//
// Thread-safety: pure functions (they only use the session, which must be usable from the
// calling thread).

#pragma once

#include <memory>
#include <string_view>

#include "common/result.h"
#include "cql/session.h"
#include "schema/catalog.h"

namespace shell {

// The user keyspaces, types, tables, views and indexes `session` reports in `system_schema`.
// Errors: the session's, or Invalid when a row does not make sense (an unknown type name).
common::Result<std::shared_ptr<const schema::Catalog>> ReadSystemSchema(cql::Session& session);

// Runs DESCRIBE `statement` against `ReadSystemSchema(session)` (plus the system keyspaces)
// with `keyspace` as the current keyspace, and returns the rows in the server's shape
// (keyspace_name, type, name[, create_statement]; or cluster, partitioner, snitch).
// Errors: SyntaxError when `statement` is not a DESCRIBE statement; DESCRIBE's own errors
// ("'ks' not found in keyspaces", ...).
common::Result<cql::ResultSet> DescribeFromSystemSchema(cql::Session& session,
                                                        std::string_view statement,
                                                        std::string_view keyspace);

}  // namespace shell
