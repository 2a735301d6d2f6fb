#include "cql/type_depth.h"

#include <gtest/gtest.h>

#include <string>

#include "cql/parser.h"
#include "cql/type_codec.h"

namespace cql {
namespace {

// `depth` levels of frozen<list<...>> around `leaf`, as the finding wrote it.
std::string FrozenLists(int depth, const std::string& leaf = "int") {
  std::string text = leaf;
  for (int i = 0; i < depth; ++i) text = "frozen<list<" + text + ">>";
  return text;
}

TEST(TypeDepthTest, CountsParameterizedTypesNotFrozen) {
  EXPECT_EQ(TypeDepth(CqlType::Int()), 0);
  EXPECT_EQ(TypeDepth(CqlType::Custom("org.example.T")), 0);
  EXPECT_EQ(TypeDepth(CqlType::List(CqlType::Int())), 1);
  EXPECT_EQ(TypeDepth(CqlType::List(CqlType::Int(), true)), 1);
  EXPECT_EQ(TypeDepth(CqlType::Map(CqlType::Int(), CqlType::List(CqlType::Int(), true))), 2);
  EXPECT_EQ(TypeDepth(CqlType::Tuple({CqlType::Int(), CqlType::Vector(CqlType::Float(), 3)})), 2);
  EXPECT_EQ(TypeDepth(CqlType::UdtRef("", "address")), 1);
  CqlType inner = CqlType::Udt("ks", "inner", {"a"}, {CqlType::Int()});
  CqlType outer = CqlType::Udt("ks", "outer", {"i"}, {inner.WithFrozen(true)});
  EXPECT_EQ(TypeDepth(inner), 1);
  EXPECT_EQ(TypeDepth(outer), 2);
  EXPECT_EQ(TypeDepth(CqlType::Udt("ks", "empty", {}, {})), 1);
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
