#include "cql/types/types.h"

#include <gtest/gtest.h>

namespace cql {
namespace {

TEST(CqlTypeTest, NativeNamesAndAliases) {
  CqlType t;
  ASSERT_TRUE(CqlType::FromNativeName("VARCHAR", &t));
  EXPECT_EQ(t, CqlType::Text());
  EXPECT_EQ(t.ToCql(), "text");
  ASSERT_TRUE(CqlType::FromNativeName("timeuuid", &t));
  EXPECT_EQ(t.kind(), TypeKind::kTimeuuid);
  EXPECT_TRUE(t.IsNative());
  EXPECT_FALSE(CqlType::FromNativeName("address", &t));
  EXPECT_EQ(CqlType().kind(), TypeKind::kBlob);
}

TEST(CqlTypeTest, ParameterizedTypesPrintAsCql) {
  CqlType address = CqlType::UdtRef("hotel", "address", /*frozen=*/true);
  CqlType addresses = CqlType::Map(CqlType::Text(), address);
  EXPECT_EQ(addresses.ToCql(), "map<text, frozen<address>>");
  EXPECT_TRUE(addresses.IsMultiCell());
  EXPECT_FALSE(addresses.IsResolved());
  EXPECT_EQ(CqlType::List(CqlType::Int(), true).ToCql(), "frozen<list<int>>");
  EXPECT_EQ(CqlType::Tuple({CqlType::Int(), CqlType::Text()}).ToCql(), "frozen<tuple<int, text>>");
  EXPECT_EQ(CqlType::Vector(CqlType::Float(), 3).ToCql(), "vector<float, 3>");
  EXPECT_EQ(CqlType::Custom("org.example.It's").ToCql(), "'org.example.It''s'");
  EXPECT_EQ(CqlType::UdtRef("", "Address").ToCql(), "\"Address\"");
}

TEST(CqlTypeTest, FreezingAndEquality) {
  CqlType set = CqlType::Set(CqlType::Text());
  EXPECT_TRUE(set.IsMultiCell());
  CqlType frozen = set.WithFrozen(true);
  EXPECT_FALSE(frozen.IsMultiCell());
  EXPECT_NE(set, frozen);
  EXPECT_EQ(frozen.WithFrozen(false), set);
  EXPECT_EQ(CqlType::Int().WithFrozen(true), CqlType::Int());
  CqlType udt =
      CqlType::Udt("ks", "address", {"street", "city"}, {CqlType::Text(), CqlType::Text()});
  EXPECT_TRUE(udt.IsResolved());
  EXPECT_TRUE(udt.IsMultiCell());
  EXPECT_EQ(udt.field_names().size(), 2u);
  EXPECT_NE(udt, CqlType::UdtRef("ks", "address"));
}

TEST(CqlTypeTest, IdentifierQuoting) {
  EXPECT_EQ(QuoteIdentifierIfNeeded("hotel_id"), "hotel_id");
  EXPECT_EQ(QuoteIdentifierIfNeeded("HotelId"), "\"HotelId\"");
  EXPECT_EQ(QuoteIdentifierIfNeeded("select"), "\"select\"");
  EXPECT_EQ(QuoteIdentifierIfNeeded("date"), "date");  // unreserved keyword
  EXPECT_EQ(QuoteIdentifierIfNeeded("a\"b"), "\"a\"\"b\"");
  EXPECT_EQ(QuoteIdentifierIfNeeded("1abc"), "\"1abc\"");
  EXPECT_EQ(QuoteIdentifierIfNeeded(""), "\"\"");
  EXPECT_TRUE(IsReservedKeyword("FROM"));
  EXPECT_FALSE(IsReservedKeyword("key"));
}

}  // namespace
}  // namespace cql
