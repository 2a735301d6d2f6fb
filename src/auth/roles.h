// Roles as Cassandra's CassandraRoleManager keeps them (system_auth.roles): a name, whether it
// is a superuser and may log in, its password hash, and the roles granted to it. `RoleTable` is
// an immutable snapshot of them all; the engine's role manager replaces it on every change.
//
// Persistence: the whole table is one value in the storage meta family under kRolesMetaKey
// (roles are few and change rarely; one value makes every change atomic). Bytes:
//   u8 format (1) ‖ uvint count ‖ per role, in name order:
//     uvint-prefixed name ‖ u8 flags (1: superuser, 2: can login, 4: has hash) ‖
//     [uvint-prefixed hash] ‖ uvint count ‖ uvint-prefixed names of the roles granted to it
// Decoding is strict (no trailing bytes, names in order, granted roles that exist): anything
// else is Corruption.
//
// Thread-safety: a RoleTable is immutable; share it freely.

#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"

namespace auth {

inline constexpr std::string_view kRolesMetaKey = "auth/roles";

struct Role {
  std::string name;
  bool is_superuser = false;
  bool can_login = false;
  std::optional<std::string> salted_hash;
  std::set<std::string> member_of;  // roles granted directly to this one
  bool operator==(const Role&) const = default;
};

class RoleTable {
 public:
  RoleTable() = default;
  explicit RoleTable(std::map<std::string, Role> roles) : roles_(std::move(roles)) {}

  const std::map<std::string, Role>& roles() const { return roles_; }
  const Role* Find(std::string_view name) const;
  bool empty() const { return roles_.empty(); }

  // `name` and every role granted to it, directly or through others (Cassandra's getRoles
  // with recursion), in name order. Empty when `name` does not exist.
  std::set<std::string> RolesOf(std::string_view name) const;
  // Whether `name` or a role granted to it is a superuser.
  bool IsSuperuser(std::string_view name) const;

  common::Bytes Encode() const;
  static common::Result<RoleTable> Decode(std::string_view bytes);

 private:
  std::map<std::string, Role> roles_;
};

}  // namespace auth
