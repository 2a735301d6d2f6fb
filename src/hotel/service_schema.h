// The hotel service's CQL schema (schema/hotel_service.cql, compiled in so the binary needs no
// file at run time) and the code that loads it through a `cql::Session`.
//
// The schema's keyspace names carry a prefix (`--keyspace-prefix`), so several service
// instances can share one cluster: prefix "test_" gives keyspaces `test_hotel` and
// `test_reservation`. Every statement is idempotent (IF NOT EXISTS), so loading it on every
// start is safe.
//
// Thread-safety: stateless free functions; `CreateServiceSchema` issues DDL through the given
// session (the session decides thread-safety).

#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "cql/session.h"

namespace hotel {

// The replication map used when none is given: one replica (the embedded engine, a dev node).
inline constexpr std::string_view kDefaultReplication =
    "{'class': 'SimpleStrategy', 'replication_factor': 1}";

// The keyspace names of one service instance.
struct Keyspaces {
  std::string hotel;        // prefix + "hotel"
  std::string reservation;  // prefix + "reservation"
};

// Keyspaces for `prefix`. Errors: kInvalid unless the prefix is at most 24 characters of
// [a-z0-9_] (so the names are valid unquoted CQL identifiers under 48 characters).
common::Result<Keyspaces> KeyspacesForPrefix(std::string_view prefix);

// The text of schema/hotel_service.cql, with its `${prefix}` and `${replication}` placeholders.
std::string_view ServiceSchemaTemplate();

// The schema's statements (comments dropped, split at ';') with the placeholders replaced.
// Errors: as KeyspacesForPrefix.
common::Result<std::vector<std::string>> ServiceSchemaStatements(std::string_view prefix,
                                                                 std::string_view replication);

// Executes ServiceSchemaStatements on `session`, then adds the columns newer than a table's
// first release to the tables of an older database that lack them (ALTER TABLE ... ADD, after
// a read of system_schema.columns), so a database written by an older `hotel` keeps working.
// Returns the first failing statement's error, prefixed with the statement.
common::Status CreateServiceSchema(cql::Session& session, std::string_view prefix,
                                   std::string_view replication = kDefaultReplication);

}  // namespace hotel
