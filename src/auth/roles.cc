#include "auth/roles.h"

#include <utility>

namespace auth {
namespace {

constexpr uint8_t kFormat = 1;
constexpr uint8_t kSuperuser = 1;
constexpr uint8_t kCanLogin = 2;
constexpr uint8_t kHasHash = 4;

void PutText(common::ByteWriter* out, std::string_view text) {
  out->PutUnsignedVInt(text.size());
  out->PutRaw(text);
}

common::Status Corrupt(std::string_view what) {
  return common::Status::Corruption("Corrupted role table: " + std::string(what));
}

common::Result<std::string> ReadText(common::ByteReader* in) {
  ASSIGN_OR_RETURN(uint64_t size, in->ReadMinimalUnsignedVInt());
  if (size > in->remaining()) return Corrupt("truncated");
  ASSIGN_OR_RETURN(std::string_view text, in->ReadRaw(size));
  return std::string(text);
}

common::Result<Role> ReadRole(common::ByteReader* in) {
  Role role;
  ASSIGN_OR_RETURN(role.name, ReadText(in));
  ASSIGN_OR_RETURN(uint8_t flags, in->ReadU8());
  if ((flags & ~(kSuperuser | kCanLogin | kHasHash)) != 0) return Corrupt("unknown flags");
  role.is_superuser = (flags & kSuperuser) != 0;
  role.can_login = (flags & kCanLogin) != 0;
  if ((flags & kHasHash) != 0) {
    ASSIGN_OR_RETURN(role.salted_hash, ReadText(in));
  }
  ASSIGN_OR_RETURN(uint64_t granted, in->ReadMinimalUnsignedVInt());
  if (granted > in->remaining()) return Corrupt("truncated");
  std::string previous;
  for (uint64_t i = 0; i < granted; ++i) {
    ASSIGN_OR_RETURN(std::string name, ReadText(in));
    if (i > 0 && name <= previous) return Corrupt("granted roles out of order");
    previous = name;
    role.member_of.insert(std::move(name));
  }
  return role;
}

}  // namespace

const Role* RoleTable::Find(std::string_view name) const {
  auto it = roles_.find(std::string(name));
  return it == roles_.end() ? nullptr : &it->second;
}

std::set<std::string> RoleTable::RolesOf(std::string_view name) const {
  std::set<std::string> found;
  std::vector<std::string> pending = {std::string(name)};
  while (!pending.empty()) {
    std::string next = std::move(pending.back());
    pending.pop_back();
    const Role* role = Find(next);
    if (role == nullptr || !found.insert(next).second) continue;
    for (const std::string& granted : role->member_of) pending.push_back(granted);
  }
  return found;
}

bool RoleTable::IsSuperuser(std::string_view name) const {
  for (const std::string& role : RolesOf(name)) {
    if (Find(role)->is_superuser) return true;
  }
  return false;
}

common::Bytes RoleTable::Encode() const {
  common::ByteWriter out;
  out.PutU8(kFormat);
  out.PutUnsignedVInt(roles_.size());
  for (const auto& [name, role] : roles_) {
    PutText(&out, name);
    out.PutU8(static_cast<uint8_t>((role.is_superuser ? kSuperuser : 0) |
                                   (role.can_login ? kCanLogin : 0) |
                                   (role.salted_hash ? kHasHash : 0)));
    if (role.salted_hash) PutText(&out, *role.salted_hash);
    out.PutUnsignedVInt(role.member_of.size());
    for (const std::string& granted : role.member_of) PutText(&out, granted);
  }
  return out.Release();
}

common::Result<RoleTable> RoleTable::Decode(std::string_view bytes) {
  common::ByteReader in(bytes);
  ASSIGN_OR_RETURN(uint8_t format, in.ReadU8());
  if (format != kFormat) return Corrupt("unknown format");
  ASSIGN_OR_RETURN(uint64_t count, in.ReadMinimalUnsignedVInt());
  if (count > in.remaining()) return Corrupt("truncated");
  std::map<std::string, Role> roles;
  for (uint64_t i = 0; i < count; ++i) {
    ASSIGN_OR_RETURN(Role role, ReadRole(&in));
    if (!roles.empty() && role.name <= roles.rbegin()->first) return Corrupt("roles out of order");
    std::string name = role.name;
    roles.emplace(std::move(name), std::move(role));
  }
  if (in.remaining() != 0) return Corrupt("trailing bytes");
  for (const auto& [name, role] : roles) {
    for (const std::string& granted : role.member_of) {
      if (roles.find(granted) == roles.end()) return Corrupt("granted role does not exist");
    }
  }
  return RoleTable(std::move(roles));
}

}  // namespace auth
