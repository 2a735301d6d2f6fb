#include "auth/roles.h"

#include <gtest/gtest.h>

namespace auth {
namespace {

RoleTable Sample() {
  std::map<std::string, Role> roles;
  roles["cassandra"] = Role{"cassandra", true, true, "$2a$10$hash", {}};
  roles["reader"] = Role{"reader", false, false, std::nullopt, {}};
  roles["admin"] = Role{"admin", true, false, std::nullopt, {}};
  roles["bob"] = Role{"bob", false, true, "$2a$10$bob", {"reader"}};
  roles["carol"] = Role{"carol", false, true, std::nullopt, {"bob", "admin"}};
  return RoleTable(std::move(roles));
}

TEST(RoleTableTest, RolesAreInheritedThroughGrants) {
  RoleTable table = Sample();
  EXPECT_EQ(table.RolesOf("carol"), (std::set<std::string>{"admin", "bob", "carol", "reader"}));
  EXPECT_EQ(table.RolesOf("bob"), (std::set<std::string>{"bob", "reader"}));
  EXPECT_TRUE(table.RolesOf("nobody").empty());
  EXPECT_TRUE(table.IsSuperuser("carol"));  // through admin
  EXPECT_FALSE(table.IsSuperuser("bob"));
  EXPECT_TRUE(table.IsSuperuser("cassandra"));
}

TEST(RoleTableTest, EncodesAndDecodesExactly) {
  RoleTable table = Sample();
  common::Result<RoleTable> decoded = RoleTable::Decode(table.Encode());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->roles(), table.roles());
  EXPECT_EQ(decoded->Encode(), table.Encode());
  EXPECT_TRUE(RoleTable::Decode(RoleTable().Encode())->empty());
}

TEST(RoleTableTest, DamagedBytesAreCorruption) {
  const common::Bytes good = Sample().Encode();
  for (size_t cut = 0; cut < good.size(); ++cut) {
    EXPECT_FALSE(RoleTable::Decode(std::string_view(good).substr(0, cut)).ok()) << cut;
  }
  EXPECT_FALSE(RoleTable::Decode(good + "x").ok());
  common::Bytes bad_format = good;
  bad_format[0] = 2;
  EXPECT_EQ(RoleTable::Decode(bad_format).status().code(), common::StatusCode::kCorruption);
  // A grant naming a role that is not there.
  std::map<std::string, Role> dangling;
  dangling["a"] = Role{"a", false, false, std::nullopt, {"zz"}};
  EXPECT_FALSE(RoleTable::Decode(RoleTable(dangling).Encode()).ok());
}

}  // namespace
}  // namespace auth
