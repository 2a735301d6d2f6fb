#include "common/base64.h"

#include <gtest/gtest.h>

namespace common {
namespace {

TEST(Base64Test, RoundTripsWithPadding) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("cassandra:secret"), "Y2Fzc2FuZHJhOnNlY3JldA==");
  std::string all;
  for (int c = 0; c < 256; ++c) all.push_back(static_cast<char>(c));
  EXPECT_EQ(Base64Decode(Base64Encode(all)), all);
  EXPECT_EQ(Base64Decode("Zm8="), "fo");
}

TEST(Base64Test, RefusesMalformedText) {
  for (const char* bad : {"Zg=", "Z===", "Zg=a", "=Zg=", "Zm9v!A==", "%%%", "Zg==Zg=="}) {
    EXPECT_EQ(Base64Decode(bad), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace common
