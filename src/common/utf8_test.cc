#include "common/utf8.h"

#include <gtest/gtest.h>

#include "common/status.h"

namespace common {
namespace {

TEST(Utf8Test, RecognisesWellFormedSequences) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain"));
  EXPECT_TRUE(IsValidUtf8("\xCE\x8E\xCE\x94\xCE\xB4\xCF\xA0"));  // ΎΔδϠ
  EXPECT_TRUE(IsValidUtf8("\xE2\x82\xAC \xF0\x9F\x98\x80"));     // € 😀
  EXPECT_FALSE(IsValidUtf8("\xCE"));                             // cut two-byte character
  EXPECT_FALSE(IsValidUtf8("\xE2\x82"));                         // cut three-byte character
  EXPECT_FALSE(IsValidUtf8("\x80"));                             // stray continuation
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));                         // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));                     // surrogate
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));                 // beyond U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xFF"));
}

TEST(Utf8Test, ValidUtf8ReplacesEachIllFormedByte) {
  EXPECT_EQ(ValidUtf8("a\xCE"), "a\xEF\xBF\xBD");
  EXPECT_EQ(ValidUtf8("\xFF\xFEz"), "\xEF\xBF\xBD\xEF\xBF\xBDz");
  EXPECT_EQ(ValidUtf8("\xCE\x8E"), "\xCE\x8E");
}

TEST(Utf8Test, TruncateNeverCutsACharacter) {
  std::string text = "\xCE\x8E\xCE\x94\xCE\xB4";  // three two-byte characters
  for (size_t max = 0; max <= text.size() + 1; ++max) {
    std::string cut = TruncateUtf8(text, max);
    EXPECT_TRUE(IsValidUtf8(cut)) << max;
    EXPECT_LE(cut.size(), max);
    EXPECT_EQ(cut.size() % 2, 0u) << max;
  }
  EXPECT_EQ(TruncateUtf8("abcdef", 5, "..."), "ab...");
  EXPECT_EQ(TruncateUtf8("abc", 5, "..."), "abc");
  EXPECT_EQ(TruncateUtf8("\xCE\x8E\xCE\x94\xCE\xB4", 4, "."), "\xCE\x8E.");
}

TEST(Utf8Test, StatusMessagesAreAlwaysValid) {
  Status s = Status::Invalid(std::string("Unexpected character '\xCE'"));
  EXPECT_TRUE(IsValidUtf8(s.message()));
  EXPECT_EQ(s.message(), "Unexpected character '\xEF\xBF\xBD'");
  EXPECT_EQ(Status::Invalid("\xCE\x8E").message(), "\xCE\x8E");
}

}  // namespace
}  // namespace common
