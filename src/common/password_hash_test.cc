#include "common/password_hash.h"

#include <gtest/gtest.h>

namespace common {
namespace {

TEST(PasswordHashTest, HashesVerifyAndLookLikeCassandras) {
  Result<std::string> hash = HashPassword("s3cret", 4);
  ASSERT_TRUE(hash.ok()) << hash.status().ToString();
  EXPECT_TRUE(hash->starts_with("$2a$04$")) << *hash;
  EXPECT_EQ(hash->size(), 60u);
  EXPECT_TRUE(VerifyPassword("s3cret", *hash));
  EXPECT_FALSE(VerifyPassword("s3cret ", *hash));
  EXPECT_FALSE(VerifyPassword("", *hash));
  // Salted: the same password hashes differently each time.
  EXPECT_NE(*HashPassword("s3cret", 4), *hash);
}

TEST(PasswordHashTest, VerifiesAHashMadeByCassandra) {
  // The hash Cassandra's PasswordAuthenticator stores for the default superuser's password
  // "cassandra" (jBCrypt, $2a$, 10 rounds), as system_auth.roles shows it on a fresh node.
  const std::string cassandra = "$2a$10$H46haNkcbxlbamyj0OYZr.v4e5L08WTiQ1scrTs9Q3NYy.6B..x4O";
  EXPECT_TRUE(VerifyPassword("cassandra", cassandra));
  EXPECT_FALSE(VerifyPassword("Cassandra", cassandra));
}

TEST(PasswordHashTest, MalformedHashesAndNulBytesNeverVerify) {
  EXPECT_FALSE(VerifyPassword("x", ""));
  EXPECT_FALSE(VerifyPassword("x", "plaintext"));
  EXPECT_FALSE(VerifyPassword("x", "$2a$10$short"));
  const std::string hash = *HashPassword("ab", 4);
  EXPECT_FALSE(VerifyPassword(std::string("ab\0cd", 5), hash));
  EXPECT_FALSE(HashPassword(std::string("a\0b", 3), 4).ok());
}

TEST(PasswordHashTest, VariantsAndRounds) {
  Result<std::string> hash = HashPassword("s3cret-pass", 5, BcryptVariant::k2b);
  ASSERT_TRUE(hash.ok()) << hash.status().ToString();
  EXPECT_TRUE(hash->starts_with("$2b$05$")) << *hash;
  EXPECT_TRUE(VerifyPassword("s3cret-pass", *hash));
  EXPECT_FALSE(HashPassword("x", 3).ok());
  EXPECT_FALSE(HashPassword("x", 32).ok());
}

}  // namespace
}  // namespace common
