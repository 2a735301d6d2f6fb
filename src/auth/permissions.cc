#include "auth/permissions.h"

#include <utility>

#include <fmt/format.h>

namespace auth {
namespace {

constexpr uint8_t kFormat = 1;
constexpr unsigned kPermissionCount = 8;  // cql::Permission kCreate .. kExecute

void PutText(common::ByteWriter* out, std::string_view text) {
  out->PutUnsignedVInt(text.size());
  out->PutRaw(text);
}

common::Status Corrupt(std::string_view what) {
  return common::Status::Corruption("Corrupted permission table: " + std::string(what));
}

common::Result<std::string> ReadText(common::ByteReader* in) {
  ASSIGN_OR_RETURN(uint64_t size, in->ReadMinimalUnsignedVInt());
  if (size > in->remaining()) return Corrupt("truncated");
  ASSIGN_OR_RETURN(std::string_view text, in->ReadRaw(size));
  return std::string(text);
}

common::Result<std::map<std::string, PermissionBits>> ReadResources(common::ByteReader* in) {
  ASSIGN_OR_RETURN(uint64_t count, in->ReadMinimalUnsignedVInt());
  if (count > in->remaining()) return Corrupt("truncated");
  std::map<std::string, PermissionBits> resources;
  for (uint64_t i = 0; i < count; ++i) {
    ASSIGN_OR_RETURN(std::string name, ReadText(in));
    ASSIGN_OR_RETURN(uint8_t bits, in->ReadU8());
    if (bits == 0) return Corrupt("an empty grant");
    if (!resources.empty() && name <= resources.rbegin()->first) return Corrupt("out of order");
    resources.emplace(std::move(name), bits);
  }
  return resources;
}

std::vector<std::string_view> Split(std::string_view resource) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t slash = resource.find('/', start);
    parts.push_back(resource.substr(start, slash - start));
    if (slash == std::string_view::npos) return parts;
    start = slash + 1;
  }
}

PermissionBits Bits(std::initializer_list<cql::Permission> permissions) {
  PermissionBits bits = 0;
  for (cql::Permission p : permissions) bits |= Bit(p);
  return bits;
}

}  // namespace

std::string_view PermissionName(cql::Permission permission) {
  switch (permission) {
    case cql::Permission::kCreate:
      return "CREATE";
    case cql::Permission::kAlter:
      return "ALTER";
    case cql::Permission::kDrop:
      return "DROP";
    case cql::Permission::kSelect:
      return "SELECT";
    case cql::Permission::kModify:
      return "MODIFY";
    case cql::Permission::kAuthorize:
      return "AUTHORIZE";
    case cql::Permission::kDescribe:
      return "DESCRIBE";
    case cql::Permission::kExecute:
      return "EXECUTE";
  }
  return "UNKNOWN";
}

std::vector<cql::Permission> PermissionsOf(PermissionBits bits) {
  std::vector<cql::Permission> permissions;
  for (unsigned i = 0; i < kPermissionCount; ++i) {
    if ((bits & (1u << i)) != 0) permissions.push_back(static_cast<cql::Permission>(i));
  }
  return permissions;
}

std::string AllKeyspacesResource() { return "data"; }
std::string KeyspaceResource(std::string_view keyspace) { return fmt::format("data/{}", keyspace); }
std::string TableResource(std::string_view keyspace, std::string_view table) {
  return fmt::format("data/{}/{}", keyspace, table);
}
std::string AllRolesResource() { return "roles"; }
std::string RoleResource(std::string_view role) { return fmt::format("roles/{}", role); }

std::string ResourceDisplay(std::string_view resource) {
  const std::vector<std::string_view> parts = Split(resource);
  if (parts[0] == "data") {
    if (parts.size() == 1) return "<all keyspaces>";
    if (parts.size() == 2) return fmt::format("<keyspace {}>", parts[1]);
    return fmt::format("<table {}.{}>", parts[1], parts[2]);
  }
  if (parts.size() == 1) return "<all roles>";
  return fmt::format("<role {}>", resource.substr(6));
}

std::vector<std::string> ResourceChain(std::string_view resource) {
  std::vector<std::string> chain;
  if (resource.starts_with("roles/")) {
    chain = {std::string(resource), AllRolesResource()};
    return chain;
  }
  std::string current(resource);
  while (true) {
    chain.push_back(current);
    const size_t slash = current.rfind('/');
    if (slash == std::string::npos) return chain;
    current.resize(slash);
  }
}

PermissionBits ApplicablePermissions(std::string_view resource) {
  using P = cql::Permission;
  const size_t depth = Split(resource).size();
  if (resource.starts_with("data")) {
    if (depth == 3) return Bits({P::kAlter, P::kDrop, P::kSelect, P::kModify, P::kAuthorize});
    return Bits({P::kCreate, P::kAlter, P::kDrop, P::kSelect, P::kModify, P::kAuthorize});
  }
  if (depth == 1) return Bits({P::kCreate, P::kAlter, P::kDrop, P::kAuthorize, P::kDescribe});
  return Bits({P::kAlter, P::kDrop, P::kAuthorize});
}

std::string_view ResourceKind(std::string_view resource) {
  return resource.starts_with("data") ? "DataResource" : "RoleResource";
}

PermissionBits PermissionTable::Granted(std::string_view role, std::string_view resource) const {
  auto by_role = grants_.find(std::string(role));
  if (by_role == grants_.end()) return 0;
  auto found = by_role->second.find(std::string(resource));
  return found == by_role->second.end() ? 0 : found->second;
}

PermissionTable PermissionTable::WithGrant(std::string_view role, std::string_view resource,
                                           PermissionBits bits) const {
  Grants next = grants_;
  next[std::string(role)][std::string(resource)] |= bits;
  return PermissionTable(std::move(next));
}

PermissionTable PermissionTable::WithRevoke(std::string_view role, std::string_view resource,
                                            PermissionBits bits) const {
  Grants next = grants_;
  auto by_role = next.find(std::string(role));
  if (by_role == next.end()) return PermissionTable(std::move(next));
  auto found = by_role->second.find(std::string(resource));
  if (found != by_role->second.end()) {
    found->second &= static_cast<PermissionBits>(~bits);
    if (found->second == 0) by_role->second.erase(found);
  }
  if (by_role->second.empty()) next.erase(by_role);
  return PermissionTable(std::move(next));
}

PermissionTable PermissionTable::WithoutRole(std::string_view role) const {
  PermissionTable next = WithoutResource(RoleResource(role));
  next.grants_.erase(std::string(role));
  return next;
}

PermissionTable PermissionTable::WithoutResource(std::string_view resource) const {
  Grants next;
  const std::string prefix = std::string(resource) + "/";
  for (const auto& [role, resources] : grants_) {
    for (const auto& [name, bits] : resources) {
      // Only data resources have children; a role's name may hold a '/'.
      if (name == resource || (resource.starts_with("data") && name.starts_with(prefix))) {
        continue;
      }
      next[role][name] = bits;
    }
  }
  return PermissionTable(std::move(next));
}

common::Bytes PermissionTable::Encode() const {
  common::ByteWriter out;
  out.PutU8(kFormat);
  out.PutUnsignedVInt(grants_.size());
  for (const auto& [role, resources] : grants_) {
    PutText(&out, role);
    out.PutUnsignedVInt(resources.size());
    for (const auto& [name, bits] : resources) {
      PutText(&out, name);
      out.PutU8(bits);
    }
  }
  return out.Release();
}

common::Result<PermissionTable> PermissionTable::Decode(std::string_view bytes) {
  common::ByteReader in(bytes);
  ASSIGN_OR_RETURN(uint8_t format, in.ReadU8());
  if (format != kFormat) return Corrupt("unknown format");
  ASSIGN_OR_RETURN(uint64_t count, in.ReadMinimalUnsignedVInt());
  if (count > in.remaining()) return Corrupt("truncated");
  Grants grants;
  for (uint64_t i = 0; i < count; ++i) {
    ASSIGN_OR_RETURN(std::string role, ReadText(&in));
    ASSIGN_OR_RETURN(auto resources, ReadResources(&in));
    if (resources.empty()) return Corrupt("a role without grants");
    if (!grants.empty() && role <= grants.rbegin()->first) return Corrupt("roles out of order");
    grants.emplace(std::move(role), std::move(resources));
  }
  if (in.remaining() != 0) return Corrupt("trailing bytes");
  return PermissionTable(std::move(grants));
}

}  // namespace auth
