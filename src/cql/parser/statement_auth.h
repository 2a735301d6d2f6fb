// Raw AST of the security statements: roles, users, GRANT/REVOKE of permissions and roles,
// LIST ROLES / USERS / permissions. Part of `statement.h`.
//
// Thread-safety: plain data.

#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cql/parser/statement_dml.h"

namespace cql {

// Options of CREATE/ALTER ROLE; absent ones were not given.
struct RoleOptions {
  std::optional<std::string> password;
  std::optional<bool> login;
  std::optional<bool> superuser;
  std::optional<std::vector<std::pair<Constant, Constant>>> options;  // OPTIONS = {...}
  enum class DatacenterAccess : uint8_t { kUnspecified, kAll, kListed };
  DatacenterAccess datacenter_access = DatacenterAccess::kUnspecified;
  std::vector<std::string> datacenters;  // kListed: ACCESS TO DATACENTERS {'dc1', ...}
  bool operator==(const RoleOptions&) const = default;
};

struct CreateRole : StatementBase {
  std::string role;
  bool if_not_exists = false;
  RoleOptions options;
  bool operator==(const CreateRole&) const = default;
};

struct AlterRole : StatementBase {
  std::string role;
  bool if_exists = false;
  RoleOptions options;
  bool operator==(const AlterRole&) const = default;
};

struct DropRole : StatementBase {
  std::string role;
  bool if_exists = false;
  bool operator==(const DropRole&) const = default;
};

// CREATE USER: user names keep their case (Cassandra's legacy behaviour).
struct CreateUser : StatementBase {
  std::string user;
  bool if_not_exists = false;
  std::optional<std::string> password;
  std::optional<bool> superuser;  // SUPERUSER / NOSUPERUSER
  bool operator==(const CreateUser&) const = default;
};

struct AlterUser : StatementBase {
  std::string user;
  bool if_exists = false;
  std::optional<std::string> password;
  std::optional<bool> superuser;
  bool operator==(const AlterUser&) const = default;
};

struct DropUser : StatementBase {
  std::string user;
  bool if_exists = false;
  bool operator==(const DropUser&) const = default;
};

enum class Permission : uint8_t {
  kCreate,
  kAlter,
  kDrop,
  kSelect,
  kModify,
  kAuthorize,
  kDescribe,
  kExecute,
};

// The resource of GRANT/REVOKE/LIST permissions.
struct Resource {
  enum class Kind : uint8_t {
    kAllKeyspaces,            // ALL KEYSPACES
    kKeyspace,                // KEYSPACE keyspace
    kTable,                   // [TABLE] keyspace.name
    kAllRoles,                // ALL ROLES
    kRole,                    // ROLE name
    kAllFunctions,            // ALL FUNCTIONS
    kAllFunctionsInKeyspace,  // ALL FUNCTIONS IN KEYSPACE keyspace
    kFunction,                // FUNCTION keyspace.name(argument_types)
    kAllMBeans,               // ALL MBEANS
    kMBean,                   // MBEAN 'name'
    kMBeans,                  // MBEANS 'pattern'
  };
  Kind kind = Kind::kAllKeyspaces;
  std::string keyspace;
  std::string name;
  std::vector<CqlType> argument_types;
  bool operator==(const Resource&) const = default;
};

// The permissions of GRANT/REVOKE/LIST: ALL [PERMISSIONS] or a set. The set is kept as
// written (deduplicated, in enum order); the engine intersects it with what the resource
// supports, as Cassandra does.
struct PermissionSet {
  bool all = false;
  std::vector<Permission> permissions;
  bool operator==(const PermissionSet&) const = default;
};

// GRANT permissions ON resource TO grantee, or GRANT role TO grantee (`role_grant`).
struct Grant : StatementBase {
  bool role_grant = false;
  PermissionSet permissions;  // permission grant
  Resource resource;          // permission grant
  std::string role;           // role grant: the role granted
  std::string grantee;
  bool operator==(const Grant&) const = default;
};

// REVOKE permissions ON resource FROM revokee, or REVOKE role FROM revokee (`role_revoke`).
struct Revoke : StatementBase {
  bool role_revoke = false;
  PermissionSet permissions;
  Resource resource;
  std::string role;
  std::string revokee;
  bool operator==(const Revoke&) const = default;
};

struct ListRoles : StatementBase {
  std::optional<std::string> of_role;
  bool recursive = true;  // false with NORECURSIVE
  bool operator==(const ListRoles&) const = default;
};

struct ListUsers : StatementBase {
  bool operator==(const ListUsers&) const = default;
};

struct ListPermissions : StatementBase {
  PermissionSet permissions;
  std::optional<Resource> resource;
  std::optional<std::string> of_role;
  bool recursive = true;
  bool operator==(const ListPermissions&) const = default;
};

}  // namespace cql
