#include "common/ascii.h"

#include <gtest/gtest.h>

namespace common {
namespace {

TEST(AsciiTest, FoldsOnlyAsciiLetters) {
  EXPECT_EQ(AsciiLower("SELECT Hotel_1 ;"), "select hotel_1 ;");
  EXPECT_EQ(AsciiUpper("select hotel_1 ;"), "SELECT HOTEL_1 ;");
  // UTF-8 bytes of non-ASCII letters are not touched.
  EXPECT_EQ(AsciiLower("CAFÉ"), "cafÉ");
  EXPECT_EQ(AsciiUpper("café"), "CAFé");
  EXPECT_EQ(AsciiLower(""), "");
  EXPECT_EQ(AsciiUpper(std::string("a\0b", 3)), std::string("A\0B", 3));
}

}  // namespace
}  // namespace common
