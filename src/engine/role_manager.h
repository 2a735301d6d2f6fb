// RoleManager: Cassandra's CassandraRoleManager and PasswordAuthenticator over the role table
// of auth/roles.h (docs/security.md): CREATE/ALTER/DROP ROLE and USER, GRANT/REVOKE of roles,
// LIST ROLES and LIST USERS, and the check of a login's credentials.
//
// Rules, as Cassandra 4.1 with PasswordAuthenticator and AllowAllAuthorizer (permissions on
// roles come with the authorizer): every role statement needs a logged-in user ("You have to be
// logged in and not anonymous ..."), so with authentication off they all fail as Cassandra's
// do; only a superuser gives or takes superuser status or drops a superuser; no one alters their
// own superuser status or drops the role they are logged in as; a role that is not a superuser
// may change only its own password. The messages are Cassandra's.
//
// Every change replaces the whole role table (RoleTable) in one storage write, then the
// in-memory snapshot; readers take the snapshot without waiting.
//
// Thread-safety: thread-safe; changes are serialized by an internal mutex.

#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "auth/roles.h"
#include "auth/stored_table.h"
#include "common/result.h"
#include "cql/parser/statement.h"
#include "cql/session.h"
#include "storage/store.h"

namespace engine {

// Cassandra's refusal of what needs a login, for an anonymous session.
common::Status NotLoggedIn();

class RoleManager {
 public:
  // The superuser created on the first start with authentication on and no role.
  static constexpr std::string_view kDefaultSuperuser = "cassandra";

  // REQUIRES: `store` outlives the manager.
  explicit RoleManager(storage::Store* store) : table_(store, auth::kRolesMetaKey) {}

  // Reads the role table of the store (none yet: empty). Errors: Corruption, the store's.
  common::Status Load();

  // With no role at all, creates the superuser `cassandra` (LOGIN, SUPERUSER) with `password`.
  // Returns whether it did.
  common::Result<bool> Bootstrap(std::string_view password);

  // The role `username` logs in as, when `password` is its password and it may log in.
  // Errors: AuthenticationError with Cassandra's messages.
  common::Result<std::string> Authenticate(std::string_view username,
                                           std::string_view password) const;

  // Whether `statement` is one this manager runs.
  static bool IsRoleStatement(const cql::Statement& statement);

  // Runs a role statement for the logged-in `user` ("" for anonymous). `describe_all_roles`:
  // whether `user` holds DESCRIBE on ALL ROLES (always with AllowAllAuthorizer); without it,
  // LIST ROLES and LIST USERS show only the user's own roles, as Cassandra's do.
  // REQUIRES: IsRoleStatement(statement).
  common::Result<cql::ResultSet> Execute(const cql::Statement& statement, std::string_view user,
                                         bool describe_all_roles = true);

  std::shared_ptr<const auth::RoleTable> roles() const;

 private:
  common::Result<cql::ResultSet> Create(std::string_view role, bool if_not_exists,
                                        const cql::RoleOptions& options, std::string_view user);
  common::Result<cql::ResultSet> Alter(std::string_view role, bool if_exists,
                                       const cql::RoleOptions& options, std::string_view user);
  common::Result<cql::ResultSet> Drop(std::string_view role, bool if_exists, std::string_view user);
  common::Result<cql::ResultSet> GrantRole(std::string_view role, std::string_view grantee);
  common::Result<cql::ResultSet> RevokeRole(std::string_view role, std::string_view revokee);
  common::Result<cql::ResultSet> ListRoles(const cql::ListRoles& list, std::string_view user,
                                           bool describe_all_roles) const;
  common::Result<cql::ResultSet> ListUsers(std::string_view user, bool describe_all_roles) const;
  // The names LIST ROLES [OF role] [NORECURSIVE] shows `user` (see Execute).
  static common::Result<std::vector<std::string>> ListedRoles(const auth::RoleTable& table,
                                                              const cql::ListRoles& list,
                                                              std::string_view user,
                                                              bool describe_all_roles);
  // Writes `next` and makes it current. REQUIRES: mutex_ held.
  common::Status Commit(auth::RoleTable next);

  std::mutex mutex_;  // serializes changes
  auth::StoredTable<auth::RoleTable> table_;
};

}  // namespace engine
