// The `.test` file reader: `bind` values, and its errors with their line numbers.

#include "tests/logic/logic_test_file.h"

#include <string>

#include <gtest/gtest.h>

namespace logic_test {
namespace {

// The `bind` values of a file that holds `bind_line` before a statement.
common::Result<TestFile> ParseBind(const std::string& bind_line) {
  return ParseTestFile("t.test", "require engine\n\n" + bind_line + "\nstatement ok\nSELECT 1\n");
}

TEST(LogicTestFileTest, BindLiteralsAndForms) {
  auto file = ParseBind(
      "bind 1, null, unset, [1, 2], raw(0x0001fF), raw (0x), "
      "repeat('a,''b)', 3), repeat( 'x' ,0 )");
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_EQ(file->records.size(), 1u);
  const std::vector<BindValue>& binds = *file->records[0].options.binds;
  ASSERT_EQ(binds.size(), 8u);
  for (int i : {0, 1, 2, 3}) EXPECT_EQ(binds[i].kind, BindValue::Kind::kLiteral);
  EXPECT_EQ(binds[0].text, "1");
  EXPECT_EQ(binds[3].text, "[1, 2]");
  EXPECT_EQ(binds[4].kind, BindValue::Kind::kRaw);
  EXPECT_EQ(binds[4].text, std::string("\x00\x01\xff", 3));
  EXPECT_EQ(binds[4].source, "raw(0x0001fF)");
  EXPECT_EQ(binds[5].kind, BindValue::Kind::kRaw);
  EXPECT_EQ(binds[5].text, "");
  EXPECT_EQ(binds[6].kind, BindValue::Kind::kRepeat);
  EXPECT_EQ(binds[6].text, "a,'b)");
  EXPECT_EQ(binds[6].count, 3);
  EXPECT_EQ(binds[7].kind, BindValue::Kind::kRepeat);
  EXPECT_EQ(binds[7].text, "x");
  EXPECT_EQ(binds[7].count, 0);
}

// A malformed value fails the whole file, naming the file, the line and the value.
TEST(LogicTestFileTest, MalformedBindValuesAreFileErrors) {
  const struct {
    std::string bind;
    std::string message;
  } cases[] = {
      {"bind 1, foo(1)",
       "t.test:3: bind value 'foo(1)': unknown form 'foo(...)'; a bind value is a CQL literal, "
       "null, unset, raw(0x<hex>) or repeat('<text>', N)"},
      {"bind textAsBlob('a')", "t.test:3: bind value 'textAsBlob('a')': unknown form"},
      {"bind RAW(0x00)", "unknown form 'RAW(...)'"},
      {"bind raw(0x123)", "t.test:3: bind value 'raw(0x123)': raw() takes 0x and an even number"},
      {"bind raw(0x0g)", "raw() takes 0x and an even number of hex digits"},
      {"bind raw(12)", "raw() takes 0x and an even number of hex digits"},
      {"bind raw('ab')", "raw() takes 0x and an even number of hex digits"},
      {"bind raw(0x00) 1", "bind value 'raw(0x00) 1': expected ')' at its end"},
      {"bind repeat('a')", "repeat() takes a quoted text and a count: repeat('<text>', N)"},
      {"bind repeat(a, 2)", "repeat() takes a quoted text and a count"},
      {"bind repeat('a', -1)", "repeat() takes a quoted text and a count"},
      {"bind repeat('a', 2x)", "repeat() takes a quoted text and a count"},
      {"bind repeat('a', 2, 3)", "repeat() takes a quoted text and a count"},
      {"bind repeat('a' 2)", "repeat() takes a quoted text and a count"},
      {"bind repeat('a, 2)", "t.test:3: unbalanced quotes or brackets in bind"},
      {"bind repeat('ab', 40000000)", "repeat() makes more than 67108864 bytes"},
      {"bind 1, , 2", "t.test:3: empty value in bind"},
  };
  for (const auto& c : cases) {
    auto file = ParseBind(c.bind);
    ASSERT_FALSE(file.ok()) << c.bind;
    EXPECT_NE(file.status().message().find(c.message), std::string::npos)
        << c.bind << "\n  got: " << file.status().message();
  }
}

}  // namespace
}  // namespace logic_test
