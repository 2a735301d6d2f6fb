// The nesting-depth limit (cql/types/type_depth.h) as the parser enforces it, and the type
// decoders accepting the deepest type the parser does.
#include <gtest/gtest.h>

#include <string>

#include "cql/parser/parser.h"
#include "cql/types/type_codec.h"
#include "cql/types/type_depth.h"

namespace cql {
namespace {

// `depth` levels of frozen<list<...>> around `leaf`, as the finding wrote it.
std::string FrozenLists(int depth, const std::string& leaf = "int") {
  std::string text = leaf;
  for (int i = 0; i < depth; ++i) text = "frozen<list<" + text + ">>";
  return text;
}

TEST(TypeDepthTest, ParserAcceptsTheLimitAndRejectsOneMore) {
  auto at_limit = ParseType(FrozenLists(kMaxTypeDepth));
  ASSERT_TRUE(at_limit.ok()) << at_limit.status().ToString();
  EXPECT_EQ(TypeDepth(*at_limit), kMaxTypeDepth);

  auto deeper = ParseType(FrozenLists(kMaxTypeDepth + 1));
  ASSERT_FALSE(deeper.ok());
  EXPECT_EQ(deeper.status().code(), common::StatusCode::kSyntaxError);
  EXPECT_EQ(deeper.status().message(),
            "line 1:391 type nested too deeply (more than 32 levels of collections, tuples, "
            "vectors and user types) at input 'list'");

  // A user type reference is one level; tuples, maps and vectors count like lists.
  EXPECT_TRUE(ParseType(FrozenLists(kMaxTypeDepth - 1, "frozen<address>")).ok());
  EXPECT_FALSE(ParseType(FrozenLists(kMaxTypeDepth, "frozen<address>")).ok());
  EXPECT_FALSE(ParseType(FrozenLists(kMaxTypeDepth, "tuple<int>")).ok());
  EXPECT_FALSE(ParseType(FrozenLists(kMaxTypeDepth, "frozen<map<int, int>>")).ok());
  EXPECT_FALSE(ParseType(FrozenLists(kMaxTypeDepth, "vector<int, 2>")).ok());
  EXPECT_TRUE(ParseType(FrozenLists(kMaxTypeDepth - 1, "vector<int, 2>")).ok());
}

TEST(TypeDepthTest, TheFindingsStatementIsASyntaxError) {
  auto statement =
      ParseStatement("CREATE TABLE k.t (k int PRIMARY KEY, v " + FrozenLists(65) + ")");
  ASSERT_FALSE(statement.ok());
  EXPECT_EQ(statement.status().code(), common::StatusCode::kSyntaxError);
  EXPECT_NE(statement.status().message().find("type nested too deeply"), std::string::npos)
      << statement.status().message();
  EXPECT_TRUE(
      ParseStatement("CREATE TABLE k.t (k int PRIMARY KEY, v " + FrozenLists(kMaxTypeDepth) + ")")
          .ok());
}

TEST(TypeDepthTest, EveryTypeDecoderAcceptsWhatTheSchemaAccepts) {
  auto deepest = ParseType(FrozenLists(kMaxTypeDepth - 1));
  ASSERT_TRUE(deepest.ok());
  // The deepest column type, with a non-frozen map outside: its marshal name adds FrozenType.
  CqlType type = CqlType::Map(CqlType::Int(), *deepest);
  common::ByteWriter out;
  EncodeTypeOption(type, &out);
  common::ByteReader in(out.data());
  auto decoded = DecodeTypeOption(&in);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(TypeDepth(*decoded), kMaxTypeDepth);
  auto parsed = ParseMarshalClassName(MarshalClassName(type));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(TypeDepth(*parsed), kMaxTypeDepth);
}

}  // namespace
}  // namespace cql
