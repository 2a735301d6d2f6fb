// What a statement needs to be allowed to run under CassandraAuthorizer (Cassandra 4.1's
// `authorize` of each statement): a list of permissions on resources (auth/permissions.h), all
// of which the logged-in role must hold, directly, through a granted role, or on a parent.
//
//   SELECT                      SELECT on the table (system keyspaces: nothing; anyone reads
//                               them, as drivers need)
//   INSERT, UPDATE, DELETE      MODIFY on the table; with IF conditions also SELECT
//   BATCH                       each statement's
//   TRUNCATE                    MODIFY on the table
//   CREATE KEYSPACE             CREATE on all keyspaces
//   ALTER / DROP KEYSPACE       ALTER / DROP on the keyspace
//   CREATE TABLE, TYPE          CREATE on the keyspace; ALTER/DROP TYPE: ALTER/DROP on it
//   ALTER / DROP TABLE          ALTER / DROP on the table
//   CREATE / DROP INDEX         ALTER on the base table
//   CREATE / ALTER / DROP VIEW  ALTER on the base table
//   CREATE ROLE                 CREATE on all roles
//   ALTER ROLE (another's)      ALTER on the role; DROP ROLE: DROP on the role
//   GRANT / REVOKE role         AUTHORIZE on the role granted
//   GRANT / REVOKE permission   AUTHORIZE on the resource, and each permission given
//   USE, DESCRIBE, LIST ...     nothing here (LIST PERMISSIONS checks what it shows)
//
// Thread-safety: pure functions.

#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "cql/parser/statement.h"
#include "schema/catalog.h"

namespace engine {

struct AccessRequirement {
  cql::Permission permission;
  std::string resource;  // auth/permissions.h names
};

// The requirements of `statement`, run by `user` in session keyspace `keyspace` on `catalog`.
// Names that do not resolve (a missing table) need nothing here: the statement fails on its
// own with its usual error.
std::vector<AccessRequirement> RequiredAccess(const cql::Statement& statement,
                                              std::string_view keyspace,
                                              const schema::Catalog& catalog,
                                              std::string_view user);

// The resource a GRANT/REVOKE/LIST PERMISSIONS names, its table's keyspace resolved with the
// session keyspace. Errors: Invalid for a resource kind this server does not have (functions,
// MBeans) or a table without a keyspace and no session keyspace.
common::Result<std::string> ResourceOf(const cql::Resource& resource, std::string_view keyspace);

}  // namespace engine
