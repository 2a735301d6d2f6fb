#include "engine/access_requirements.h"

#include <variant>

#include "auth/permissions.h"
#include "engine/schema_lookup.h"
#include "schema/system_tables.h"

namespace engine {
namespace {

using cql::Permission;

std::string Keyspace(const cql::QualifiedName& name, std::string_view session) {
  return name.keyspace.empty() ? std::string(session) : name.keyspace;
}

std::string Table(const cql::QualifiedName& name, std::string_view session) {
  return auth::TableResource(Keyspace(name, session), name.name);
}

// The base table of view `name`, as a table resource; empty when there is no such view.
std::string BaseOfView(const cql::QualifiedName& name, std::string_view session,
                       const schema::Catalog& catalog) {
  const std::string keyspace = Keyspace(name, session);
  const schema::TableMetadata* view = catalog.FindTableOrView(keyspace, name.name);
  if (view == nullptr || !view->view.has_value()) return "";
  return auth::TableResource(keyspace, view->view->base_table_name);
}

class Collector {
 public:
  Collector(std::string_view keyspace, const schema::Catalog& catalog, std::string_view user)
      : keyspace_(keyspace), catalog_(catalog), user_(user) {}

  void Need(Permission permission, std::string resource) {
    if (resource.empty()) return;
    out_.push_back(AccessRequirement{permission, std::move(resource)});
  }
  void Modification(const cql::QualifiedName& table, bool conditional) {
    if (schema::IsSystemKeyspace(Keyspace(table, keyspace_))) return;  // refused on its own
    Need(Permission::kModify, Table(table, keyspace_));
    if (conditional) Need(Permission::kSelect, Table(table, keyspace_));
  }
  void Visit(const cql::Select& s) {
    // system_auth holds password hashes: as in Cassandra, only a superuser or a role granted
    // SELECT on it reads it. The other system keyspaces are readable by everyone logged in.
    const std::string keyspace = Keyspace(s.table, keyspace_);
    if (schema::IsSystemKeyspace(keyspace) && keyspace != schema::kSystemAuthKeyspace) return;
    Need(Permission::kSelect, Table(s.table, keyspace_));
  }
  void Visit(const cql::Insert& s) { Modification(s.table, s.if_not_exists); }
  void Visit(const cql::Update& s) { Modification(s.table, !s.conditions.empty() || s.if_exists); }
  void Visit(const cql::Delete& s) { Modification(s.table, !s.conditions.empty() || s.if_exists); }
  void Visit(const cql::Batch& s) {
    for (const auto& entry : s.statements) std::visit([&](const auto& e) { Visit(e); }, entry);
  }
  void Visit(const cql::Truncate& s) { Need(Permission::kModify, Table(s.table, keyspace_)); }
  void Visit(const cql::CreateKeyspace&) {
    Need(Permission::kCreate, auth::AllKeyspacesResource());
  }
  void Visit(const cql::AlterKeyspace& s) {
    Need(Permission::kAlter, auth::KeyspaceResource(s.keyspace));
  }
  void Visit(const cql::DropKeyspace& s) {
    Need(Permission::kDrop, auth::KeyspaceResource(s.keyspace));
  }
  void Visit(const cql::CreateTable& s) {
    Need(Permission::kCreate, auth::KeyspaceResource(Keyspace(s.table, keyspace_)));
  }
  void Visit(const cql::AlterTable& s) { Need(Permission::kAlter, Table(s.table, keyspace_)); }
  void Visit(const cql::DropTable& s) { Need(Permission::kDrop, Table(s.table, keyspace_)); }
  void Visit(const cql::CreateType& s) {
    Need(Permission::kCreate, auth::KeyspaceResource(Keyspace(s.type, keyspace_)));
  }
  void Visit(const cql::AlterType& s) {
    Need(Permission::kAlter, auth::KeyspaceResource(Keyspace(s.type, keyspace_)));
  }
  void Visit(const cql::DropType& s) {
    Need(Permission::kDrop, auth::KeyspaceResource(Keyspace(s.type, keyspace_)));
  }
  void Visit(const cql::CreateIndex& s) { Need(Permission::kAlter, Table(s.table, keyspace_)); }
  void Visit(const cql::DropIndex& s) {
    const std::string keyspace = Keyspace(s.index, keyspace_);
    const schema::KeyspaceMetadata* ks = catalog_.FindKeyspace(keyspace);
    const schema::TableMetadata* base = ks ? ks->FindIndexedTable(s.index.name) : nullptr;
    if (base != nullptr) Need(Permission::kAlter, auth::TableResource(keyspace, base->name));
  }
  void Visit(const cql::CreateMaterializedView& s) {
    cql::QualifiedName base = s.base_table;
    if (base.keyspace.empty()) base.keyspace = Keyspace(s.view, keyspace_);
    Need(Permission::kAlter, Table(base, keyspace_));
  }
  void Visit(const cql::AlterMaterializedView& s) {
    Need(Permission::kAlter, BaseOfView(s.view, keyspace_, catalog_));
  }
  void Visit(const cql::DropMaterializedView& s) {
    Need(Permission::kAlter, BaseOfView(s.view, keyspace_, catalog_));
  }
  void Visit(const cql::CreateRole&) { Need(Permission::kCreate, auth::AllRolesResource()); }
  void Visit(const cql::CreateUser&) { Need(Permission::kCreate, auth::AllRolesResource()); }
  void Visit(const cql::AlterRole& s) { AlterRole(s.role); }
  void Visit(const cql::AlterUser& s) { AlterRole(s.user); }
  void Visit(const cql::DropRole& s) { Need(Permission::kDrop, auth::RoleResource(s.role)); }
  void Visit(const cql::DropUser& s) { Need(Permission::kDrop, auth::RoleResource(s.user)); }
  void Visit(const cql::Grant& s) {
    if (s.role_grant) {
      Need(Permission::kAuthorize, auth::RoleResource(s.role));
    } else {
      PermissionChange(s.permissions, s.resource);
    }
  }
  void Visit(const cql::Revoke& s) {
    if (s.role_revoke) {
      Need(Permission::kAuthorize, auth::RoleResource(s.role));
    } else {
      PermissionChange(s.permissions, s.resource);
    }
  }
  template <typename Other>
  void Visit(const Other&) {}

  std::vector<AccessRequirement> Take() { return std::move(out_); }

 private:
  // A role alters its own password without ALTER on itself (RoleManager checks the rest).
  void AlterRole(const std::string& role) {
    if (role != user_) Need(Permission::kAlter, auth::RoleResource(role));
  }
  void PermissionChange(const cql::PermissionSet& permissions, const cql::Resource& resource) {
    common::Result<std::string> name = ResourceOf(resource, keyspace_);
    if (!name.ok()) return;  // refused by the statement itself
    Need(Permission::kAuthorize, *name);
    const auth::PermissionBits bits = permissions.all ? auth::ApplicablePermissions(*name) : [&] {
      auth::PermissionBits b = 0;
      for (Permission p : permissions.permissions) b |= auth::Bit(p);
      return b;
    }();
    for (Permission p : auth::PermissionsOf(bits)) Need(p, *name);
  }

  std::string_view keyspace_;
  const schema::Catalog& catalog_;
  std::string_view user_;
  std::vector<AccessRequirement> out_;
};

}  // namespace

common::Result<std::string> ResourceOf(const cql::Resource& resource, std::string_view keyspace) {
  using Kind = cql::Resource::Kind;
  switch (resource.kind) {
    case Kind::kAllKeyspaces:
      return auth::AllKeyspacesResource();
    case Kind::kKeyspace:
      return auth::KeyspaceResource(resource.keyspace);
    case Kind::kTable: {
      cql::QualifiedName name{resource.keyspace, resource.name};
      ASSIGN_OR_RETURN(std::string ks, ResolveKeyspace(name, keyspace));
      return auth::TableResource(ks, resource.name);
    }
    case Kind::kAllRoles:
      return auth::AllRolesResource();
    case Kind::kRole:
      return auth::RoleResource(resource.name);
    default:
      return common::Status::Invalid(
          "Permissions on functions and MBeans are not supported: cqld has neither");
  }
}

std::vector<AccessRequirement> RequiredAccess(const cql::Statement& statement,
                                              std::string_view keyspace,
                                              const schema::Catalog& catalog,
                                              std::string_view user) {
  Collector collector(keyspace, catalog, user);
  std::visit([&](const auto& s) { collector.Visit(s); }, statement);
  return collector.Take();
}

}  // namespace engine
