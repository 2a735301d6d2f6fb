#include "auth/permissions.h"

#include <gtest/gtest.h>

namespace auth {
namespace {

using cql::Permission;

TEST(PermissionsTest, ResourcesNameTheirParents) {
  EXPECT_EQ(ResourceChain(TableResource("ks", "t")),
            (std::vector<std::string>{"data/ks/t", "data/ks", "data"}));
  EXPECT_EQ(ResourceChain(RoleResource("bob")), (std::vector<std::string>{"roles/bob", "roles"}));
  EXPECT_EQ(ResourceDisplay(TableResource("ks", "t")), "<table ks.t>");
  EXPECT_EQ(ResourceDisplay(KeyspaceResource("ks")), "<keyspace ks>");
  EXPECT_EQ(ResourceDisplay(AllKeyspacesResource()), "<all keyspaces>");
  EXPECT_EQ(ResourceDisplay(AllRolesResource()), "<all roles>");
  EXPECT_EQ(ResourceDisplay(RoleResource("a/b")), "<role a/b>");
  EXPECT_EQ(ApplicablePermissions(TableResource("ks", "t")) & Bit(Permission::kCreate), 0);
  EXPECT_NE(ApplicablePermissions(KeyspaceResource("ks")) & Bit(Permission::kCreate), 0);
  EXPECT_NE(ApplicablePermissions(AllRolesResource()) & Bit(Permission::kDescribe), 0);
}

TEST(PermissionsTest, GrantsRevokesAndDropsRoundTrip) {
  PermissionTable table = PermissionTable()
                              .WithGrant("bob", TableResource("ks", "t"), Bit(Permission::kSelect))
                              .WithGrant("bob", KeyspaceResource("ks"), Bit(Permission::kModify))
                              .WithGrant("amy", RoleResource("bob"), Bit(Permission::kAlter));
  EXPECT_EQ(table.Granted("bob", TableResource("ks", "t")), Bit(Permission::kSelect));
  common::Result<PermissionTable> decoded = PermissionTable::Decode(table.Encode());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->grants(), table.grants());
  PermissionTable revoked =
      table.WithRevoke("bob", TableResource("ks", "t"), Bit(Permission::kSelect));
  EXPECT_EQ(revoked.Granted("bob", TableResource("ks", "t")), 0);
  EXPECT_EQ(table.WithoutResource(KeyspaceResource("ks")).grants().count("bob"), 0u);
  EXPECT_TRUE(table.WithoutRole("bob").grants().empty());  // amy's grant was on role bob
  const common::Bytes bytes = table.Encode();
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    EXPECT_FALSE(PermissionTable::Decode(std::string_view(bytes).substr(0, cut)).ok()) << cut;
  }
  EXPECT_FALSE(PermissionTable::Decode(bytes + "x").ok());
}

}  // namespace
}  // namespace auth
