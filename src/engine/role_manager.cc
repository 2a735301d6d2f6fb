#include "engine/role_manager.h"

#include <map>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "common/password_hash.h"
#include "cql/types/value_codec.h"

namespace engine {

using common::Result;
using common::Status;

Status NotLoggedIn() {
  return Status::Unauthorized("You have to be logged in and not anonymous to perform this request");
}

namespace {

Status DoesNotExist(std::string_view role) {
  return Status::Invalid(fmt::format("{} doesn't exist", role));
}

// The options of CREATE USER / ALTER USER as role options (a user is a role that may log in).
cql::RoleOptions UserOptions(const std::optional<std::string>& password,
                             std::optional<bool> superuser, bool creating) {
  cql::RoleOptions options;
  options.password = password;
  options.superuser = superuser;
  if (creating) options.login = true;
  return options;
}

bool IsEmpty(const cql::RoleOptions& options) {
  return !options.password && !options.login && !options.superuser && !options.options &&
         options.datacenter_access == cql::RoleOptions::DatacenterAccess::kUnspecified;
}

// Applies the options of CREATE/ALTER ROLE to `role`.
Status ApplyOptions(const cql::RoleOptions& options, auth::Role* role) {
  if (options.options && !options.options->empty()) {
    return Status::Invalid("Custom options are not supported by CassandraRoleManager");
  }
  if (options.superuser) role->is_superuser = *options.superuser;
  if (options.login) role->can_login = *options.login;
  if (options.password) {
    ASSIGN_OR_RETURN(std::string hash, common::HashPassword(*options.password));
    role->salted_hash = std::move(hash);
  }
  return Status::Ok();
}

cql::ColumnSpec Column(std::string_view table, std::string_view name, cql::CqlType type) {
  return cql::ColumnSpec{"system_auth", std::string(table), std::string(name), std::move(type)};
}

}  // namespace

Status RoleManager::Load() { return table_.Load(); }

std::shared_ptr<const auth::RoleTable> RoleManager::roles() const { return table_.Get(); }

Status RoleManager::Commit(auth::RoleTable next) { return table_.Commit(std::move(next)); }

Result<bool> RoleManager::Bootstrap(std::string_view password) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!roles()->empty()) return false;
  auth::Role role;
  role.name = std::string(kDefaultSuperuser);
  role.is_superuser = true;
  role.can_login = true;
  ASSIGN_OR_RETURN(role.salted_hash, common::HashPassword(password));
  std::map<std::string, auth::Role> table;
  table.emplace(role.name, std::move(role));
  RETURN_IF_ERROR(Commit(auth::RoleTable(std::move(table))));
  return true;
}

Result<std::string> RoleManager::Authenticate(std::string_view username,
                                              std::string_view password) const {
  std::shared_ptr<const auth::RoleTable> table = roles();
  const auth::Role* role = table->Find(username);
  const Status incorrect =
      Status(common::StatusCode::kAuthenticationError,
             fmt::format("Provided username {} and/or password are incorrect", username));
  if (role == nullptr || !role->salted_hash) {
    // The same work as a real check, so the answer's timing does not say whether the role
    // exists.
    common::VerifyPassword(password,
                           "$2a$10$abcdefghijklmnopqrstuuMT6jIrRxvLkY0bnTb4h0A3gqPHd5H6e");
    return incorrect;
  }
  if (!common::VerifyPassword(password, *role->salted_hash)) return incorrect;
  if (!role->can_login) {
    return Status(common::StatusCode::kAuthenticationError,
                  fmt::format("{} is not permitted to log in", username));
  }
  return role->name;
}

bool RoleManager::IsRoleStatement(const cql::Statement& statement) {
  return std::holds_alternative<cql::CreateRole>(statement) ||
         std::holds_alternative<cql::AlterRole>(statement) ||
         std::holds_alternative<cql::DropRole>(statement) ||
         std::holds_alternative<cql::CreateUser>(statement) ||
         std::holds_alternative<cql::AlterUser>(statement) ||
         std::holds_alternative<cql::DropUser>(statement) ||
         std::holds_alternative<cql::ListRoles>(statement) ||
         std::holds_alternative<cql::ListUsers>(statement) ||
         (std::holds_alternative<cql::Grant>(statement) &&
          std::get<cql::Grant>(statement).role_grant) ||
         (std::holds_alternative<cql::Revoke>(statement) &&
          std::get<cql::Revoke>(statement).role_revoke);
}

Result<cql::ResultSet> RoleManager::Execute(const cql::Statement& statement, std::string_view user,
                                            bool describe_all_roles) {
  if (user.empty()) return NotLoggedIn();
  if (const auto* s = std::get_if<cql::CreateRole>(&statement)) {
    return Create(s->role, s->if_not_exists, s->options, user);
  }
  if (const auto* s = std::get_if<cql::CreateUser>(&statement)) {
    return Create(s->user, s->if_not_exists, UserOptions(s->password, s->superuser, true), user);
  }
  if (const auto* s = std::get_if<cql::AlterRole>(&statement)) {
    return Alter(s->role, s->if_exists, s->options, user);
  }
  if (const auto* s = std::get_if<cql::AlterUser>(&statement)) {
    return Alter(s->user, s->if_exists, UserOptions(s->password, s->superuser, false), user);
  }
  if (const auto* s = std::get_if<cql::DropRole>(&statement)) {
    return Drop(s->role, s->if_exists, user);
  }
  if (const auto* s = std::get_if<cql::DropUser>(&statement)) {
    return Drop(s->user, s->if_exists, user);
  }
  if (const auto* s = std::get_if<cql::Grant>(&statement)) return GrantRole(s->role, s->grantee);
  if (const auto* s = std::get_if<cql::Revoke>(&statement)) {
    return RevokeRole(s->role, s->revokee);
  }
  if (const auto* s = std::get_if<cql::ListRoles>(&statement)) {
    return ListRoles(*s, user, describe_all_roles);
  }
  return ListUsers(user, describe_all_roles);
}

Result<cql::ResultSet> RoleManager::Create(std::string_view name, bool if_not_exists,
                                           const cql::RoleOptions& options, std::string_view user) {
  if (name.empty()) return Status::Invalid("Role name can't be an empty string");
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<const auth::RoleTable> table = roles();
  if (options.superuser.value_or(false) && !table->IsSuperuser(user)) {
    return Status::Unauthorized("Only superusers can create a role with superuser status");
  }
  if (table->Find(name) != nullptr) {
    if (if_not_exists) return cql::ResultSet::Void();
    return Status::Invalid(fmt::format("{} already exists", name));
  }
  auth::Role role;
  role.name = std::string(name);
  RETURN_IF_ERROR(ApplyOptions(options, &role));
  std::map<std::string, auth::Role> next = table->roles();
  next.emplace(role.name, std::move(role));
  RETURN_IF_ERROR(Commit(auth::RoleTable(std::move(next))));
  return cql::ResultSet::Void();
}

Result<cql::ResultSet> RoleManager::Alter(std::string_view name, bool if_exists,
                                          const cql::RoleOptions& options, std::string_view user) {
  if (IsEmpty(options)) return Status::Invalid("ALTER [ROLE|USER] can't be empty");
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<const auth::RoleTable> table = roles();
  const auth::Role* existing = table->Find(name);
  if (existing == nullptr) {
    if (if_exists) return cql::ResultSet::Void();
    return DoesNotExist(name);
  }
  const bool is_super = table->IsSuperuser(user);
  if (options.superuser && table->RolesOf(user).contains(std::string(name))) {
    return Status::Unauthorized(
        "You aren't allowed to alter your own superuser status or that of a role granted to you");
  }
  if (options.superuser && !is_super) {
    return Status::Unauthorized("Only superusers are allowed to alter superuser status");
  }
  if (!is_super && name == user) {
    if (options.login) return Status::Unauthorized("You aren't allowed to alter LOGIN");
    if (options.options) return Status::Unauthorized("You aren't allowed to alter OPTIONS");
  }
  auth::Role role = *existing;
  RETURN_IF_ERROR(ApplyOptions(options, &role));
  std::map<std::string, auth::Role> next = table->roles();
  next[role.name] = std::move(role);
  RETURN_IF_ERROR(Commit(auth::RoleTable(std::move(next))));
  return cql::ResultSet::Void();
}

Result<cql::ResultSet> RoleManager::Drop(std::string_view name, bool if_exists,
                                         std::string_view user) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<const auth::RoleTable> table = roles();
  if (table->Find(name) == nullptr) {
    if (if_exists) return cql::ResultSet::Void();
    return DoesNotExist(name);
  }
  if (table->IsSuperuser(name) && !table->IsSuperuser(user)) {
    return Status::Unauthorized("Only superusers can drop a role with superuser status");
  }
  if (name == user) return Status::Invalid("Cannot DROP primary role for current login");
  std::map<std::string, auth::Role> next = table->roles();
  next.erase(std::string(name));
  for (auto& [other, role] : next) role.member_of.erase(std::string(name));
  RETURN_IF_ERROR(Commit(auth::RoleTable(std::move(next))));
  return cql::ResultSet::Void();
}

Result<cql::ResultSet> RoleManager::GrantRole(std::string_view role, std::string_view grantee) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<const auth::RoleTable> table = roles();
  if (table->Find(role) == nullptr) return DoesNotExist(role);
  if (table->Find(grantee) == nullptr) return DoesNotExist(grantee);
  if (table->RolesOf(grantee).contains(std::string(role))) {
    return Status::Invalid(fmt::format("{} is a member of {}", grantee, role));
  }
  if (table->RolesOf(role).contains(std::string(grantee))) {
    return Status::Invalid(fmt::format("{} is a member of {}", role, grantee));
  }
  std::map<std::string, auth::Role> next = table->roles();
  next[std::string(grantee)].member_of.insert(std::string(role));
  RETURN_IF_ERROR(Commit(auth::RoleTable(std::move(next))));
  return cql::ResultSet::Void();
}

Result<cql::ResultSet> RoleManager::RevokeRole(std::string_view role, std::string_view revokee) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<const auth::RoleTable> table = roles();
  if (table->Find(role) == nullptr) return DoesNotExist(role);
  const auth::Role* target = table->Find(revokee);
  if (target == nullptr) return DoesNotExist(revokee);
  if (!target->member_of.contains(std::string(role))) {
    return Status::Invalid(fmt::format("{} is not a member of {}", revokee, role));
  }
  std::map<std::string, auth::Role> next = table->roles();
  next[std::string(revokee)].member_of.erase(std::string(role));
  RETURN_IF_ERROR(Commit(auth::RoleTable(std::move(next))));
  return cql::ResultSet::Void();
}

Result<std::vector<std::string>> RoleManager::ListedRoles(const auth::RoleTable& table,
                                                          const cql::ListRoles& list,
                                                          std::string_view user,
                                                          bool describe_all_roles) {
  if (list.of_role && table.Find(*list.of_role) == nullptr) return DoesNotExist(*list.of_role);
  std::vector<std::string> names;
  if (!list.of_role && describe_all_roles) {
    for (const auto& [name, role] : table.roles()) names.push_back(name);
    return names;
  }
  // Without DESCRIBE on ALL ROLES: the user's own roles, or those of a role the user holds.
  const std::string of = list.of_role ? *list.of_role : std::string(user);
  if (!describe_all_roles && list.of_role && !table.RolesOf(user).contains(of)) {
    return Status::Unauthorized(
        fmt::format("You are not authorized to view roles granted to {} ", of));
  }
  const auth::Role* role = table.Find(of);
  if (role == nullptr) return names;  // the user's own role was dropped
  std::set<std::string> granted;
  if (list.recursive) {
    granted = table.RolesOf(of);
  } else {
    granted = role->member_of;
    granted.insert(role->name);
  }
  names.assign(granted.begin(), granted.end());
  return names;
}

Result<cql::ResultSet> RoleManager::ListRoles(const cql::ListRoles& list, std::string_view user,
                                              bool describe_all_roles) const {
  std::shared_ptr<const auth::RoleTable> table = roles();
  ASSIGN_OR_RETURN(std::vector<std::string> names,
                   ListedRoles(*table, list, user, describe_all_roles));
  const cql::CqlType options_type = cql::CqlType::Map(cql::CqlType::Text(), cql::CqlType::Text());
  cql::ResultSet result = cql::ResultSet::Rows(
      {Column("roles", "role", cql::CqlType::Text()),
       Column("roles", "super", cql::CqlType::Boolean()),
       Column("roles", "login", cql::CqlType::Boolean()), Column("roles", "options", options_type),
       Column("roles", "datacenters", cql::CqlType::Text())});
  for (const std::string& name : names) {
    const auth::Role& role = *table->Find(name);
    result.AddRow({common::Bytes(role.name), cql::SerializeBoolean(role.is_superuser),
                   cql::SerializeBoolean(role.can_login), common::Bytes(4, '\0'),
                   common::Bytes("ALL")});
  }
  return result;
}

Result<cql::ResultSet> RoleManager::ListUsers(std::string_view user,
                                              bool describe_all_roles) const {
  cql::ListRoles all;  // Cassandra's LIST USERS: LIST ROLES, then only those that log in
  all.recursive = false;
  std::shared_ptr<const auth::RoleTable> table = roles();
  ASSIGN_OR_RETURN(std::vector<std::string> names,
                   ListedRoles(*table, all, user, describe_all_roles));
  cql::ResultSet result =
      cql::ResultSet::Rows({Column("users", "name", cql::CqlType::Text()),
                            Column("users", "super", cql::CqlType::Boolean()),
                            Column("users", "datacenters", cql::CqlType::Text())});
  for (const std::string& name : names) {
    const auth::Role* role = table->Find(name);
    if (role == nullptr || !role->can_login) continue;
    result.AddRow({common::Bytes(name), cql::SerializeBoolean(table->IsSuperuser(name)),
                   common::Bytes("ALL")});
  }
  return result;
}

}  // namespace engine
