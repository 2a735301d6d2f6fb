// Authorizer: Cassandra's CassandraAuthorizer over the permission table of auth/permissions.h
// (docs/security.md). When enabled, every statement's requirements (access_requirements.h) are
// checked before it runs: a superuser may do anything; anyone else needs each permission on the
// resource or a parent, granted to their role or a role granted to it, else Unauthorized "User
// NAME has no PERMISSION permission on <RESOURCE> or any of its parents". It also runs GRANT and
// REVOKE of permissions and LIST PERMISSIONS, gives a role that creates a keyspace, table or
// role every permission on it (as Cassandra does), and forgets the grants on what is dropped.
//
// When disabled (AllowAllAuthorizer) every check passes and permission statements are refused
// as Cassandra refuses them.
//
// Thread-safety: thread-safe; changes are serialized by an internal mutex.

#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "auth/permissions.h"
#include "auth/stored_table.h"
#include "common/result.h"
#include "cql/parser/statement.h"
#include "cql/session.h"
#include "engine/role_manager.h"
#include "schema/catalog.h"
#include "schema/system_tables.h"
#include "storage/store.h"

namespace engine {

class Authorizer;

// What the system_auth tables show now: `roles`' roles and `authorizer`'s grants.
schema::AuthTablesData AuthTablesSnapshot(const RoleManager& roles, const Authorizer& authorizer);

class Authorizer {
 public:
  // REQUIRES: `store` and `roles` outlive the authorizer.
  Authorizer(storage::Store* store, const RoleManager* roles, bool enabled)
      : roles_(roles), enabled_(enabled), table_(store, auth::kPermissionsMetaKey) {}

  bool enabled() const { return enabled_; }
  // Reads the permission table of the store (none yet: empty).
  common::Status Load();

  // Checks what `statement` requires of `user` (see above). Ok when disabled.
  common::Status CheckAccess(const cql::Statement& statement, std::string_view keyspace,
                             const schema::Catalog& catalog, std::string_view user) const;
  // Ok when `user` holds `permission` on `resource` (or it is a superuser).
  common::Status Check(std::string_view user, cql::Permission permission,
                       std::string_view resource) const;

  // Whether `statement` is GRANT/REVOKE of permissions or LIST PERMISSIONS.
  static bool IsPermissionStatement(const cql::Statement& statement);
  // Runs one. REQUIRES: IsPermissionStatement(statement); access already checked.
  common::Result<cql::ResultSet> Execute(const cql::Statement& statement, std::string_view keyspace,
                                         const schema::Catalog& catalog, std::string_view user);

  // After `statement` succeeded: the creator's grants, or forgetting what was dropped.
  common::Status AfterChange(const cql::Statement& statement, std::string_view keyspace,
                             std::string_view user);

  // The current grants (a snapshot).
  std::shared_ptr<const auth::PermissionTable> permissions() const;

 private:
  common::Status Commit(auth::PermissionTable next);
  common::Result<cql::ResultSet> Change(bool grant, const cql::PermissionSet& permissions,
                                        const cql::Resource& resource, const std::string& role,
                                        std::string_view keyspace, const schema::Catalog& catalog);
  common::Result<cql::ResultSet> List(const cql::ListPermissions& list, std::string_view keyspace,
                                      std::string_view user) const;

  const RoleManager* roles_;
  const bool enabled_;
  std::mutex mutex_;  // serializes changes
  auth::StoredTable<auth::PermissionTable> table_;
};

}  // namespace engine
