#include "engine/authorizer.h"

#include <set>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "engine/access_requirements.h"

namespace engine {

using common::Result;
using common::Status;

namespace {

cql::ColumnSpec Column(std::string_view name) {
  return cql::ColumnSpec{"system_auth", "permissions", std::string(name), cql::CqlType::Text()};
}

// Whether the data or role resource `name` exists.
bool ResourceExists(std::string_view name, const schema::Catalog& catalog,
                    const auth::RoleTable& roles) {
  if (name == auth::AllKeyspacesResource() || name == auth::AllRolesResource()) return true;
  if (name.starts_with("roles/")) return roles.Find(name.substr(6)) != nullptr;
  const std::string_view rest = name.substr(5);  // after "data/"
  const size_t slash = rest.find('/');
  if (slash == std::string_view::npos) {
    return catalog.FindKeyspace(rest) != nullptr || rest == schema::kSystemAuthKeyspace;
  }
  const std::string_view keyspace = rest.substr(0, slash), table = rest.substr(slash + 1);
  if (keyspace == schema::kSystemAuthKeyspace) {  // its tables may be granted, as in Cassandra
    return schema::FindSystemTable(keyspace, table) != nullptr;
  }
  return catalog.FindTableOrView(keyspace, table) != nullptr;
}

auth::PermissionBits RequestedBits(const cql::PermissionSet& permissions,
                                   std::string_view resource) {
  if (permissions.all) return auth::ApplicablePermissions(resource);
  auth::PermissionBits bits = 0;
  for (cql::Permission p : permissions.permissions) bits |= auth::Bit(p);
  return bits;
}

// The resource a successful `statement` created (for its creator's grants) or dropped.
struct Created {
  std::string resource;
  bool dropped = false;
  bool role = false;  // a role: drop its own grants too
};

std::optional<Created> ChangedResource(const cql::Statement& statement, std::string_view ks) {
  auto keyspace_of = [&](const cql::QualifiedName& name) {
    return name.keyspace.empty() ? std::string(ks) : name.keyspace;
  };
  if (const auto* s = std::get_if<cql::CreateKeyspace>(&statement)) {
    return Created{auth::KeyspaceResource(s->keyspace)};
  }
  if (const auto* s = std::get_if<cql::CreateTable>(&statement)) {
    return Created{auth::TableResource(keyspace_of(s->table), s->table.name)};
  }
  if (const auto* s = std::get_if<cql::CreateRole>(&statement)) {
    return Created{auth::RoleResource(s->role)};
  }
  if (const auto* s = std::get_if<cql::CreateUser>(&statement)) {
    return Created{auth::RoleResource(s->user)};
  }
  if (const auto* s = std::get_if<cql::DropKeyspace>(&statement)) {
    return Created{auth::KeyspaceResource(s->keyspace), true};
  }
  if (const auto* s = std::get_if<cql::DropTable>(&statement)) {
    return Created{auth::TableResource(keyspace_of(s->table), s->table.name), true};
  }
  if (const auto* s = std::get_if<cql::DropRole>(&statement)) {
    return Created{s->role, true, true};
  }
  if (const auto* s = std::get_if<cql::DropUser>(&statement)) {
    return Created{s->user, true, true};
  }
  return std::nullopt;
}

}  // namespace

Status Authorizer::Load() { return table_.Load(); }

schema::AuthTablesData AuthTablesSnapshot(const RoleManager& roles, const Authorizer& authorizer) {
  schema::AuthTablesData data;
  for (const auto& [name, role] : roles.roles()->roles()) {
    data.roles.push_back(
        {role.name, role.is_superuser, role.can_login, role.salted_hash, role.member_of});
  }
  for (const auto& [role, resources] : authorizer.permissions()->grants()) {
    for (const auto& [resource, bits] : resources) {
      std::set<std::string>& names = data.permissions[role][resource];
      for (cql::Permission p : auth::PermissionsOf(bits)) {
        names.insert(std::string(auth::PermissionName(p)));
      }
    }
  }
  return data;
}

std::shared_ptr<const auth::PermissionTable> Authorizer::permissions() const {
  return table_.Get();
}

Status Authorizer::Commit(auth::PermissionTable next) { return table_.Commit(std::move(next)); }

Status Authorizer::Check(std::string_view user, cql::Permission permission,
                         std::string_view resource) const {
  if (!enabled_) return Status::Ok();
  if (user.empty()) return NotLoggedIn();
  std::shared_ptr<const auth::RoleTable> roles = roles_->roles();
  if (roles->IsSuperuser(user)) return Status::Ok();
  std::shared_ptr<const auth::PermissionTable> table = permissions();
  const std::vector<std::string> chain = auth::ResourceChain(resource);
  for (const std::string& role : roles->RolesOf(user)) {
    for (const std::string& r : chain) {
      if ((table->Granted(role, r) & auth::Bit(permission)) != 0) return Status::Ok();
    }
  }
  return Status::Unauthorized(
      fmt::format("User {} has no {} permission on {} or any of its parents", user,
                  auth::PermissionName(permission), auth::ResourceDisplay(resource)));
}

Status Authorizer::CheckAccess(const cql::Statement& statement, std::string_view keyspace,
                               const schema::Catalog& catalog, std::string_view user) const {
  if (!enabled_) return Status::Ok();
  for (const AccessRequirement& need : RequiredAccess(statement, keyspace, catalog, user)) {
    RETURN_IF_ERROR(Check(user, need.permission, need.resource));
  }
  return Status::Ok();
}

bool Authorizer::IsPermissionStatement(const cql::Statement& statement) {
  if (const auto* grant = std::get_if<cql::Grant>(&statement)) return !grant->role_grant;
  if (const auto* revoke = std::get_if<cql::Revoke>(&statement)) return !revoke->role_revoke;
  return std::holds_alternative<cql::ListPermissions>(statement);
}

Result<cql::ResultSet> Authorizer::Execute(const cql::Statement& statement,
                                           std::string_view keyspace,
                                           const schema::Catalog& catalog, std::string_view user) {
  if (user.empty()) return NotLoggedIn();
  const auto* grant = std::get_if<cql::Grant>(&statement);
  const auto* revoke = std::get_if<cql::Revoke>(&statement);
  if (!enabled_) {
    const char* operation = grant ? "GRANT" : revoke ? "REVOKE" : "LIST PERMISSIONS";
    return Status::Invalid(
        fmt::format("{} operation is not supported by AllowAllAuthorizer", operation));
  }
  if (grant) {
    return Change(true, grant->permissions, grant->resource, grant->grantee, keyspace, catalog);
  }
  if (revoke) {
    return Change(false, revoke->permissions, revoke->resource, revoke->revokee, keyspace, catalog);
  }
  return List(std::get<cql::ListPermissions>(statement), keyspace, user);
}

Result<cql::ResultSet> Authorizer::Change(bool grant, const cql::PermissionSet& permissions,
                                          const cql::Resource& resource, const std::string& role,
                                          std::string_view keyspace,
                                          const schema::Catalog& catalog) {
  ASSIGN_OR_RETURN(std::string name, ResourceOf(resource, keyspace));
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<const auth::RoleTable> roles = roles_->roles();
  if (roles->Find(role) == nullptr) {
    return Status::Invalid(fmt::format("Role {} doesn't exist", role));
  }
  if (!ResourceExists(name, catalog, *roles)) {
    return Status::Invalid(fmt::format("Resource {} doesn't exist", auth::ResourceDisplay(name)));
  }
  const auth::PermissionBits bits = RequestedBits(permissions, name);
  if ((bits & ~auth::ApplicablePermissions(name)) != 0) {
    return Status::Invalid(
        fmt::format("Resource type {} does not support any of the requested permissions",
                    auth::ResourceKind(name)));
  }
  std::shared_ptr<const auth::PermissionTable> table = this->permissions();
  RETURN_IF_ERROR(
      Commit(grant ? table->WithGrant(role, name, bits) : table->WithRevoke(role, name, bits)));
  return cql::ResultSet::Void();
}

Result<cql::ResultSet> Authorizer::List(const cql::ListPermissions& list, std::string_view keyspace,
                                        std::string_view user) const {
  std::shared_ptr<const auth::RoleTable> roles = roles_->roles();
  const bool may_see_all = Check(user, cql::Permission::kDescribe, auth::AllRolesResource()).ok();
  std::set<std::string> in_scope;
  if (list.of_role) {
    if (roles->Find(*list.of_role) == nullptr) {
      return Status::Invalid(fmt::format("{} doesn't exist", *list.of_role));
    }
    if (!may_see_all && !roles->RolesOf(user).contains(*list.of_role)) {
      return Status::Unauthorized(
          fmt::format("You are not authorized to view {}'s permissions", *list.of_role));
    }
    in_scope =
        list.recursive ? roles->RolesOf(*list.of_role) : std::set<std::string>{*list.of_role};
  } else if (!may_see_all) {
    return Status::Unauthorized("You are not authorized to view everyone's permissions");
  }
  std::set<std::string> resources;
  if (list.resource) {
    ASSIGN_OR_RETURN(std::string name, ResourceOf(*list.resource, keyspace));
    if (list.recursive) {
      for (std::string& r : auth::ResourceChain(name)) resources.insert(std::move(r));
    } else {
      resources.insert(std::move(name));
    }
  }
  cql::ResultSet result = cql::ResultSet::Rows(
      {Column("role"), Column("username"), Column("resource"), Column("permission")});
  std::shared_ptr<const auth::PermissionTable> table = permissions();
  for (const auto& [role, granted] : table->grants()) {
    if (list.of_role && !in_scope.contains(role)) continue;
    for (const auto& [resource, bits] : granted) {
      if (list.resource && !resources.contains(resource)) continue;
      const auth::PermissionBits shown =
          list.permissions.all ? bits : bits & RequestedBits(list.permissions, resource);
      for (cql::Permission p : auth::PermissionsOf(shown)) {
        result.AddRow({common::Bytes(role), common::Bytes(role),
                       common::Bytes(auth::ResourceDisplay(resource)),
                       common::Bytes(auth::PermissionName(p))});
      }
    }
  }
  return result;
}

Status Authorizer::AfterChange(const cql::Statement& statement, std::string_view keyspace,
                               std::string_view user) {
  std::optional<Created> changed = ChangedResource(statement, keyspace);
  if (!changed) return Status::Ok();
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<const auth::PermissionTable> table = permissions();
  if (changed->dropped) {
    auth::PermissionTable next = changed->role ? table->WithoutRole(changed->resource)
                                               : table->WithoutResource(changed->resource);
    if (next.grants() == table->grants()) return Status::Ok();
    return Commit(std::move(next));
  }
  if (!enabled_ || user.empty()) return Status::Ok();
  return Commit(
      table->WithGrant(user, changed->resource, auth::ApplicablePermissions(changed->resource)));
}

}  // namespace engine
