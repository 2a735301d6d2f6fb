// Permissions as Cassandra's CassandraAuthorizer keeps them (system_auth.role_permissions): for
// each role, the permissions granted to it on each resource. Resources are named as Cassandra
// names them ("data", "data/ks", "data/ks/table", "roles", "roles/name") and form a hierarchy:
// a permission on a resource's parent applies to the resource.
//
// Persistence: one value in the storage meta family under kPermissionsMetaKey:
//   u8 format (1) ‖ uvint role count ‖ per role, in name order: uvint-prefixed name ‖
//   uvint resource count ‖ per resource, in name order: uvint-prefixed name ‖ u8 permission bits
// (bit i: cql::Permission value i). Strict decoding; anything else is Corruption.
//
// Thread-safety: a PermissionTable is immutable once built; share it freely.

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/parser/statement.h"

namespace auth {

inline constexpr std::string_view kPermissionsMetaKey = "auth/permissions";

// A set of cql::Permission as bits (bit i: the permission whose value is i).
using PermissionBits = uint8_t;

inline PermissionBits Bit(cql::Permission permission) {
  return static_cast<PermissionBits>(1u << static_cast<unsigned>(permission));
}

// "SELECT", "MODIFY", ...
std::string_view PermissionName(cql::Permission permission);
// Every permission of `bits`, in enum order.
std::vector<cql::Permission> PermissionsOf(PermissionBits bits);

// Resource names.
std::string AllKeyspacesResource();
std::string KeyspaceResource(std::string_view keyspace);
std::string TableResource(std::string_view keyspace, std::string_view table);
std::string AllRolesResource();
std::string RoleResource(std::string_view role);

// How Cassandra shows a resource in messages and LIST PERMISSIONS: "<all keyspaces>",
// "<keyspace ks>", "<table ks.t>", "<all roles>", "<role r>".
std::string ResourceDisplay(std::string_view resource);
// The resource and its parents, the resource first ("data/ks/t", "data/ks", "data").
std::vector<std::string> ResourceChain(std::string_view resource);
// The permissions that mean something on `resource` (Cassandra's applicablePermissions).
PermissionBits ApplicablePermissions(std::string_view resource);
// Cassandra's class name of the resource's kind, for messages: "DataResource", "RoleResource".
std::string_view ResourceKind(std::string_view resource);

class PermissionTable {
 public:
  using Grants = std::map<std::string, std::map<std::string, PermissionBits>>;

  PermissionTable() = default;
  explicit PermissionTable(Grants grants) : grants_(std::move(grants)) {}

  // role -> resource -> permissions granted directly.
  const Grants& grants() const { return grants_; }
  // What `role` was granted directly on exactly `resource`.
  PermissionBits Granted(std::string_view role, std::string_view resource) const;

  // A copy with `bits` added to (or removed from) what `role` has on `resource`.
  PermissionTable WithGrant(std::string_view role, std::string_view resource,
                            PermissionBits bits) const;
  PermissionTable WithRevoke(std::string_view role, std::string_view resource,
                             PermissionBits bits) const;
  // A copy without `role`'s grants, and without every grant on `resource` and the resources
  // under it (a dropped keyspace's tables).
  PermissionTable WithoutRole(std::string_view role) const;
  PermissionTable WithoutResource(std::string_view resource) const;

  common::Bytes Encode() const;
  static common::Result<PermissionTable> Decode(std::string_view bytes);

 private:
  Grants grants_;
};

}  // namespace auth
