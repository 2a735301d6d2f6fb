#include "cql/parser/literal.h"

#include <gtest/gtest.h>

#include "cql/types/value_codec.h"

namespace cql {
namespace {

using common::Bytes;
using common::FromHex;
using common::ToHex;

Term Constant_(ConstantKind kind, std::string text) {
  return Term(Constant{kind, std::move(text)});
}
Term Str(std::string text) { return Constant_(ConstantKind::kString, std::move(text)); }
Term Int(std::string text) { return Constant_(ConstantKind::kInteger, std::move(text)); }
Term Float(std::string text) { return Constant_(ConstantKind::kFloat, std::move(text)); }
Term Bool(std::string text) { return Constant_(ConstantKind::kBoolean, std::move(text)); }
Term UuidTerm(std::string text) { return Constant_(ConstantKind::kUuid, std::move(text)); }
Term HexTerm(std::string digits) { return Constant_(ConstantKind::kHex, std::move(digits)); }
Term Dur(std::string text) { return Constant_(ConstantKind::kDuration, std::move(text)); }
Term Null() { return Term(NullLiteral{}); }
Term Marker() { return Term(BindMarker{0, ""}); }

Term ListOf(std::vector<Term> elements) {
  return Term(CollectionLiteral{CollectionLiteral::Kind::kList, std::move(elements), {}});
}
Term SetOf(std::vector<Term> elements) {
  return Term(CollectionLiteral{CollectionLiteral::Kind::kSet, std::move(elements), {}});
}
Term MapOf(std::vector<std::pair<Term, Term>> entries) {
  CollectionLiteral map{CollectionLiteral::Kind::kMap, {}, {}};
  for (auto& [key, value] : entries) {
    map.keys.push_back(std::move(key));
    map.elements.push_back(std::move(value));
  }
  return Term(std::move(map));
}
Term UdtOf(std::vector<std::pair<std::string, Term>> fields) {
  UdtLiteral udt;
  for (auto& [name, value] : fields) {
    udt.field_names.push_back(name);
    udt.values.push_back(std::move(value));
  }
  return Term(std::move(udt));
}
Term TupleOf(std::vector<Term> elements) { return Term(TupleLiteral{std::move(elements)}); }
Term Hint(CqlType type, Term term) {
  return Term(TypeHint{std::move(type), std::make_unique<Term>(std::move(term))});
}

CqlType Address(bool frozen = true) {
  return CqlType::Udt("ks", "address", {"street", "city", "zip"},
                      {CqlType::Text(), CqlType::Text(), CqlType::Int()}, frozen);
}

// The hex of a literal's value ("null" for null); fails the test on an error.
std::string Eval(const CqlType& type, const Term& term, std::string_view receiver = "c") {
  auto result = EvaluateLiteral(type, term, receiver);
  EXPECT_TRUE(result.ok()) << type.ToCql() << " " << term.ToCql() << ": "
                           << result.status().ToString();
  if (!result.ok()) return "<error>";
  return result->has_value() ? ToHex(**result) : "null";
}

// The error message of a literal that must fail with kInvalid.
std::string EvalError(const CqlType& type, const Term& term, std::string_view receiver = "c") {
  auto result = EvaluateLiteral(type, term, receiver);
  EXPECT_FALSE(result.ok()) << type.ToCql() << " " << term.ToCql();
  if (result.ok()) return "<ok>";
  EXPECT_EQ(result.status().code(), common::StatusCode::kInvalid) << result.status().ToString();
  return result.status().message();
}

TEST(LiteralTest, IntegerTypes) {
  EXPECT_EQ(Eval(CqlType::Int(), Int("1")), "00000001");
  EXPECT_EQ(Eval(CqlType::Int(), Int("-2147483648")), "80000000");
  EXPECT_EQ(Eval(CqlType::Int(), Int("2147483647")), "7fffffff");
  EXPECT_EQ(EvalError(CqlType::Int(), Int("2147483648")), "Unable to make int from '2147483648'");
  EXPECT_EQ(Eval(CqlType::Bigint(), Int("-9223372036854775808")), "8000000000000000");
  EXPECT_EQ(EvalError(CqlType::Bigint(), Int("9223372036854775808")),
            "Unable to make long from '9223372036854775808'");
  EXPECT_EQ(Eval(CqlType::Smallint(), Int("-32768")), "8000");
  EXPECT_EQ(EvalError(CqlType::Smallint(), Int("100000")), "Unable to make short from '100000'");
  EXPECT_EQ(EvalError(CqlType::Smallint(), Int("32768")), "Unable to make short from '32768'");
  EXPECT_EQ(Eval(CqlType::Tinyint(), Int("-128")), "80");
  EXPECT_EQ(Eval(CqlType::Tinyint(), Int("127")), "7f");
  EXPECT_EQ(EvalError(CqlType::Tinyint(), Int("128")), "Unable to make byte from '128'");
  EXPECT_EQ(Eval(CqlType::Counter(), Int("5")), "0000000000000005");
  EXPECT_EQ(Eval(CqlType::Varint(), Int("-129")), "ff7f");
  EXPECT_EQ(Eval(CqlType::Varint(), Int("123456789012345678901234567890")),
            "018ee90ff6c373e0ee4e3f0ad2");
  EXPECT_EQ(EvalError(CqlType::Varint(), Float("1.5")),
            "Invalid FLOAT constant (1.5) for \"c\" of type varint");
}

TEST(LiteralTest, FloatingAndDecimalTypes) {
  EXPECT_EQ(Eval(CqlType::Double(), Float("1.5")), "3ff8000000000000");
  EXPECT_EQ(Eval(CqlType::Double(), Int("1")), "3ff0000000000000");
  EXPECT_EQ(Eval(CqlType::Double(), Float("-0.0")), "8000000000000000");
  EXPECT_EQ(Eval(CqlType::Double(), Float("NaN")), "7ff8000000000000");
  EXPECT_EQ(Eval(CqlType::Double(), Float("Infinity")), "7ff0000000000000");
  EXPECT_EQ(Eval(CqlType::Double(), Float("-Infinity")), "fff0000000000000");
  EXPECT_EQ(Eval(CqlType::Double(), Float("1e400")), "7ff0000000000000");
  EXPECT_EQ(EvalError(CqlType::Double(), Float("nan")), "Unable to make double from 'nan'");
  EXPECT_EQ(Eval(CqlType::Float(), Float("1.1")), "3f8ccccd");
  EXPECT_EQ(Eval(CqlType::Float(), Int("16777217")), "4b800000");
  EXPECT_EQ(Eval(CqlType::Float(), Float("NaN")), "7fc00000");
  EXPECT_EQ(Eval(CqlType::Float(), Float("-Infinity")), "ff800000");
  EXPECT_EQ(Eval(CqlType::Float(), Float("1e100")), "7f800000");
  EXPECT_EQ(EvalError(CqlType::Float(), Float("Inf")), "Unable to make float from 'Inf'");
  EXPECT_EQ(Eval(CqlType::Decimal(), Int("1")), "0000000001");
  EXPECT_EQ(Eval(CqlType::Decimal(), Float("1.50")), "000000020096");
  EXPECT_EQ(Eval(CqlType::Decimal(), Float("-1.5E+3")), "fffffffef1");
  EXPECT_EQ(Eval(CqlType::Decimal(), Float("123456789012345678901234567890.5")),
            "00000001"
            "0f951a9fa3a286c94f0e766c39");
  EXPECT_EQ(EvalError(CqlType::Decimal(), Float("NaN")), "unable to make BigDecimal from 'NaN'");
  EXPECT_EQ(EvalError(CqlType::Int(), Float("1.0")),
            "Invalid FLOAT constant (1.0) for \"c\" of type int");
}

TEST(LiteralTest, StringTypes) {
  EXPECT_EQ(Eval(CqlType::Text(), Str("it's")), ToHex("it's"));
  EXPECT_EQ(Eval(CqlType::Text(), Str(std::string("a\0b", 3))), "610062");
  EXPECT_EQ(Eval(CqlType::Text(), Str("")), "");
  EXPECT_EQ(Eval(CqlType::Text(), Str("\xE2\x82\xAC")), "e282ac");
  EXPECT_EQ(Eval(CqlType::Ascii(), Str("abc")), "616263");
  EXPECT_EQ(EvalError(CqlType::Ascii(), Str("caf\xC3\xA9")),
            "Invalid ASCII character in string literal: "
            "java.nio.charset.UnmappableCharacterException: Input length = 1");
  EXPECT_EQ(EvalError(CqlType::Ascii(), Str("\xF0\x9F\x98\x80")),
            "Invalid ASCII character in string literal: "
            "java.nio.charset.UnmappableCharacterException: Input length = 2");
  EXPECT_EQ(EvalError(CqlType::Text(), Str("\xFF")), "String didn't validate.");
  EXPECT_EQ(EvalError(CqlType::Int(), Str("foo"), "age"),
            "Invalid STRING constant (foo) for \"age\" of type int");
  EXPECT_EQ(EvalError(CqlType::Text(), Int("1"), "name"),
            "Invalid INTEGER constant (1) for \"name\" of type text");
  EXPECT_EQ(EvalError(CqlType::Text(), Bool("true"), "name"),
            "Invalid BOOLEAN constant (true) for \"name\" of type text");
}

TEST(LiteralTest, BooleanBlobUuid) {
  EXPECT_EQ(Eval(CqlType::Boolean(), Bool("true")), "01");
  EXPECT_EQ(Eval(CqlType::Boolean(), Bool("false")), "00");
  EXPECT_EQ(EvalError(CqlType::Boolean(), Str("true"), "b"),
            "Invalid STRING constant (true) for \"b\" of type boolean");
  EXPECT_EQ(EvalError(CqlType::Boolean(), Int("1"), "b"),
            "Invalid INTEGER constant (1) for \"b\" of type boolean");
  EXPECT_EQ(Eval(CqlType::Blob(), HexTerm("CAFE")), "cafe");
  EXPECT_EQ(Eval(CqlType::Blob(), HexTerm("")), "");
  EXPECT_EQ(EvalError(CqlType::Blob(), HexTerm("abc")), "cannot parse 'abc' as hex bytes");
  EXPECT_EQ(EvalError(CqlType::Blob(), Str("cafe"), "data"),
            "Invalid STRING constant (cafe) for \"data\" of type blob");
  EXPECT_EQ(EvalError(CqlType::Int(), HexTerm("01"), "age"),
            "Invalid HEX constant (0x01) for \"age\" of type int");
  EXPECT_EQ(Eval(CqlType::Tinyint(), HexTerm("7f")), "7f");
  EXPECT_EQ(EvalError(CqlType::Tinyint(), HexTerm("0102")), "Expected 1 byte for a tinyint (2)");
  const std::string v4 = "550e8400-e29b-41d4-a716-446655440000";
  const std::string v1 = "6bddc89a-5644-11e4-97fc-56847afe9799";
  EXPECT_EQ(Eval(CqlType::Uuid(), UuidTerm(v4)), "550e8400e29b41d4a716446655440000");
  EXPECT_EQ(Eval(CqlType::Uuid(), UuidTerm("550E8400-E29B-41D4-A716-446655440000")),
            "550e8400e29b41d4a716446655440000");
  EXPECT_EQ(Eval(CqlType::Timeuuid(), UuidTerm(v1)), "6bddc89a564411e497fc56847afe9799");
  EXPECT_EQ(EvalError(CqlType::Timeuuid(), UuidTerm(v4)), "TimeUUID supports only version 1 UUIDs");
  EXPECT_EQ(EvalError(CqlType::Uuid(), Str(v4), "id"),
            "Invalid STRING constant (" + v4 + ") for \"id\" of type uuid");
  EXPECT_EQ(EvalError(CqlType::Text(), UuidTerm(v4), "id"),
            "Invalid UUID constant (" + v4 + ") for \"id\" of type text");
}

TEST(LiteralTest, Inet) {
  EXPECT_EQ(Eval(CqlType::Inet(), Str("127.0.0.1")), "7f000001");
  EXPECT_EQ(Eval(CqlType::Inet(), Str("::1")), "00000000000000000000000000000001");
  EXPECT_EQ(Eval(CqlType::Inet(), Str("2001:db8::ff00:42:8329")),
            "20010db8000000000000ff0000428329");
  EXPECT_EQ(Eval(CqlType::Inet(), Str("[fe80::1]")), "fe800000000000000000000000000001");
  EXPECT_EQ(Eval(CqlType::Inet(), Str("::ffff:1.2.3.4")), "01020304");  // Java: an Inet4Address
  EXPECT_EQ(Eval(CqlType::Inet(), Str("::1.2.3.4")), "00000000000000000000000001020304");
  EXPECT_EQ(Eval(CqlType::Inet(), Str("localhost")), "7f000001");
  EXPECT_EQ(Eval(CqlType::Inet(), Str("")), "");
  for (std::string bad : {"not an ip", "1.2.3.256", "1:2", "example.com", "::1%eth0"}) {
    EXPECT_EQ(EvalError(CqlType::Inet(), Str(bad)),
              "Unable to make inet address from '" + bad + "'");
  }
  EXPECT_EQ(EvalError(CqlType::Inet(), Int("1"), "ip"),
            "Invalid INTEGER constant (1) for \"ip\" of type inet");
}

TEST(LiteralTest, Temporal) {
  EXPECT_EQ(Eval(CqlType::Date(), Str("2024-01-31")), "80004d29");
  EXPECT_EQ(Eval(CqlType::Date(), Str("1970-01-01")), "80000000");
  EXPECT_EQ(Eval(CqlType::Date(), Str("1900-03-01")), "7fff9c5c");
  EXPECT_EQ(Eval(CqlType::Date(), Int("2147483648")), "80000000");
  EXPECT_EQ(EvalError(CqlType::Date(), Str("2023-02-29")),
            "Unable to coerce '2023-02-29' to a formatted date (long)");
  EXPECT_EQ(Eval(CqlType::Time(), Str("08:12:54.123456789")), "00001ae5c31f8915");
  EXPECT_EQ(Eval(CqlType::Time(), Int("1")), "0000000000000001");
  EXPECT_EQ(Eval(CqlType::Timestamp(), Str("2015-05-03 13:30:54.234")), "0000014d19f8ef9a");
  EXPECT_EQ(Eval(CqlType::Timestamp(), Str("2015-05-03T13:30:54.234Z")), "0000014d19f8ef9a");
  EXPECT_EQ(Eval(CqlType::Timestamp(), Int("1430659854234")), "0000014d19f8ef9a");
  EXPECT_EQ(Eval(CqlType::Timestamp(), Int("-1")), "ffffffffffffffff");
  EXPECT_EQ(EvalError(CqlType::Timestamp(), Str("yesterday")),
            "Unable to parse a date/time from 'yesterday'");
  EXPECT_EQ(Eval(CqlType::Duration(), Dur("1h30m")), "0000fc09d29229e000");
  EXPECT_EQ(Eval(CqlType::Duration(), Dur("-2d")), "000300");
  EXPECT_EQ(Eval(CqlType::Duration(), Dur("P2W")), "001c00");
  EXPECT_EQ(Eval(CqlType::Duration(), Dur("1y2mo3w4d5h6m7s8ms9us10ns")), "1c32fc2168cdf9d664");
  EXPECT_EQ(Eval(CqlType::Duration(), Dur("P0001-02-03T04:05:06")),
            Eval(CqlType::Duration(), Dur("P1Y2M3DT4H5M6S")));
  EXPECT_EQ(EvalError(CqlType::Duration(), Int("5")), "Unable to convert '5' to a duration");
  EXPECT_EQ(EvalError(CqlType::Duration(), Str("1h"), "d"),
            "Invalid STRING constant (1h) for \"d\" of type duration");
  EXPECT_EQ(EvalError(CqlType::Int(), Dur("1h"), "d"),
            "Invalid DURATION constant (1h) for \"d\" of type int");
}

TEST(LiteralTest, NullAndNonLiterals) {
  EXPECT_EQ(Eval(CqlType::Int(), Null()), "null");
  EXPECT_EQ(Eval(CqlType::List(CqlType::Int()), Null()), "null");
  EXPECT_EQ(EvalError(CqlType::Counter(), Null()),
            "Invalid null value for counter increment/decrement");
  EXPECT_NE(EvalError(CqlType::Int(), Marker()).find("not a literal"), std::string::npos);
  EXPECT_NE(EvalError(CqlType::Timeuuid(), Term(FunctionCall{"", "now", {}})).find("not a literal"),
            std::string::npos);
}

TEST(LiteralTest, IsLiteral) {
  EXPECT_TRUE(IsLiteral(Int("1")));
  EXPECT_TRUE(IsLiteral(Null()));
  EXPECT_TRUE(
      IsLiteral(MapOf({{Str("a"), ListOf({TupleOf({Int("1"), UdtOf({{"f", Null()}})})})}})));
  EXPECT_TRUE(IsLiteral(Hint(CqlType::Int(), Int("1"))));
  EXPECT_FALSE(IsLiteral(Marker()));
  EXPECT_FALSE(IsLiteral(ListOf({Int("1"), Marker()})));
  EXPECT_FALSE(IsLiteral(MapOf({{Marker(), Int("1")}})));
  EXPECT_FALSE(IsLiteral(UdtOf({{"f", Term(FunctionCall{"", "now", {}})}})));
  EXPECT_FALSE(IsLiteral(Hint(CqlType::Int(), Marker())));
}

TEST(LiteralTest, Lists) {
  CqlType list = CqlType::List(CqlType::Text());
  EXPECT_EQ(Eval(list, ListOf({Str("a"), Str("bc")})),
            "00000002"
            "00000001"
            "61"
            "00000002"
            "6263");
  EXPECT_EQ(Eval(list, ListOf({})), "00000000");
  EXPECT_EQ(Eval(list, ListOf({Str("b"), Str("a"), Str("b")}), "emails"),
            "00000003"
            "00000001"
            "62"
            "00000001"
            "61"
            "00000001"
            "62");
  EXPECT_EQ(EvalError(list, SetOf({Str("a")}), "emails"),
            "Invalid set literal for emails of type list<text>");
  EXPECT_EQ(EvalError(list, MapOf({{Str("a"), Str("b")}}), "emails"),
            "Invalid map literal for emails of type list<text>");
  EXPECT_EQ(EvalError(list, ListOf({Str("a"), Int("1")}), "emails"),
            "Invalid list literal for emails: value 1 is not of type text");
  EXPECT_EQ(EvalError(list, ListOf({Str("a"), Null()}), "emails"),
            "null is not supported inside collections");
  EXPECT_EQ(EvalError(list, ListOf({Marker()}), "emails"),
            "Invalid list literal for emails: bind variables are not supported inside "
            "collection literals");
  EXPECT_EQ(EvalError(CqlType::Int(), ListOf({Int("1")}), "age"),
            "Invalid list literal for age of type int");
  EXPECT_EQ(EvalError(CqlType::List(CqlType::Int()), ListOf({Int("1000000000000")})),
            "Unable to make int from '1000000000000'");
  EXPECT_EQ(EvalError(CqlType::List(CqlType::Text(), true), ListOf({Int("1")}), "l"),
            "Invalid list literal for l: value 1 is not of type text");
  EXPECT_EQ(EvalError(CqlType::List(CqlType::Int(), true), SetOf({Int("1")}), "l"),
            "Invalid set literal for l of type frozen<list<int>>");
}

TEST(LiteralTest, Sets) {
  CqlType set = CqlType::Set(CqlType::Int());
  EXPECT_EQ(Eval(set, SetOf({Int("3"), Int("-1"), Int("3")})),
            "00000002"
            "00000004"
            "ffffffff"
            "00000004"
            "00000003");
  EXPECT_EQ(Eval(set, SetOf({})), "00000000");
  EXPECT_EQ(Eval(set, MapOf({})), "00000000");  // `{}` as parsed
  EXPECT_EQ(EvalError(set, ListOf({Int("1")}), "s"), "Invalid list literal for s of type set<int>");
  EXPECT_EQ(EvalError(set, MapOf({{Int("1"), Int("2")}}), "s"),
            "Invalid map literal for s of type set<int>");
  EXPECT_EQ(EvalError(set, SetOf({Str("x")}), "s"),
            "Invalid set literal for s: value 'x' is not of type int");
  EXPECT_EQ(EvalError(set, SetOf({Null()}), "s"), "null is not supported inside collections");
  CqlType texts = CqlType::Set(CqlType::Text());
  EXPECT_EQ(Eval(texts, SetOf({Str("b"), Str("a"), Str("ab")})),
            "00000003"
            "00000001"
            "61"
            "00000002"
            "6162"
            "00000001"
            "62");
}

TEST(LiteralTest, Maps) {
  CqlType map = CqlType::Map(CqlType::Text(), CqlType::Int());
  EXPECT_EQ(Eval(map, MapOf({{Str("b"), Int("2")}, {Str("a"), Int("1")}, {Str("b"), Int("3")}})),
            "00000002"
            "00000001"
            "61"
            "00000004"
            "00000001"
            "00000001"
            "62"
            "00000004"
            "00000003");
  EXPECT_EQ(Eval(map, MapOf({})), "00000000");
  EXPECT_EQ(Eval(map, SetOf({})), "00000000");
  EXPECT_EQ(EvalError(map, MapOf({{Int("1"), Int("2")}}), "m"),
            "Invalid map literal for m: key 1 is not of type text");
  EXPECT_EQ(EvalError(map, MapOf({{Str("a"), Str("x")}}), "m"),
            "Invalid map literal for m: value 'x' is not of type int");
  EXPECT_EQ(EvalError(map, MapOf({{Str("a"), Null()}}), "m"),
            "null is not supported inside collections");
  EXPECT_EQ(EvalError(map, SetOf({Str("a")}), "m"),
            "Invalid set literal for m of type map<text, int>");
  EXPECT_EQ(EvalError(map, UdtOf({{"a", Int("1")}}), "m"),
            "Invalid user type literal for m of type map<text, int>");
  EXPECT_EQ(EvalError(map, MapOf({{Str("a"), Int("99999999999")}}), "m"),
            "Unable to make int from '99999999999'");
}

TEST(LiteralTest, NestedCollections) {
  CqlType type = CqlType::Map(CqlType::Text(), CqlType::List(CqlType::Int(), true));
  EXPECT_EQ(Eval(type, MapOf({{Str("k"), ListOf({Int("1")})}})),
            "00000001"
            "00000001"
            "6b"
            "0000000c"
            "00000001"
            "00000004"
            "00000001");
  EXPECT_EQ(EvalError(type, MapOf({{Str("k"), ListOf({Str("x")})}}), "m"),
            "Invalid map literal for m: value ['x'] is not of type frozen<list<int>>");
  // A frozen set of frozen maps, elements sorted by the map order.
  CqlType deep = CqlType::Set(CqlType::Map(CqlType::Int(), CqlType::Text(), true), true);
  EXPECT_EQ(Eval(deep, SetOf({MapOf({{Int("2"), Str("b")}}), MapOf({{Int("1"), Str("a")}})})),
            "00000002"
            "00000011"
            "00000001"
            "00000004"
            "00000001"
            "00000001"
            "61"
            "00000011"
            "00000001"
            "00000004"
            "00000002"
            "00000001"
            "62");
}

TEST(LiteralTest, UserTypes) {
  CqlType address = Address();
  EXPECT_EQ(Eval(address, UdtOf({{"street", Str("1 Main")}, {"city", Str("X")}}), "addr"),
            "00000006"
            "31204d61696e"
            "00000001"
            "58"
            "ffffffff");
  EXPECT_EQ(Eval(address, UdtOf({{"zip", Int("7")}}), "addr"),
            "ffffffff"
            "ffffffff"
            "00000004"
            "00000007");
  EXPECT_EQ(Eval(address, UdtOf({{"zip", Null()}}), "addr"),
            "ffffffff"
            "ffffffff"
            "ffffffff");
  EXPECT_EQ(EvalError(address, UdtOf({{"street", Str("a")}, {"country", Str("b")}}), "addr"),
            "Unknown field 'country' in value of user defined type address");
  EXPECT_EQ(EvalError(address, UdtOf({{"zip", Str("a")}}), "addr"),
            "Invalid user type literal for addr: field zip is not of type int");
  EXPECT_EQ(EvalError(address, UdtOf({{"zip", Int("99999999999")}}), "addr"),
            "Unable to make int from '99999999999'");
  EXPECT_EQ(EvalError(CqlType::Int(), UdtOf({{"a", Int("1")}}), "age"),
            "Invalid user type literal for age of type int");
  EXPECT_EQ(EvalError(address, MapOf({{Str("street"), Str("a")}}), "addr"),
            "Invalid map literal for addr of type frozen<address>");
  EXPECT_EQ(EvalError(address, MapOf({}), "addr"),
            "Invalid set literal for addr of type frozen<address>");
  // UDTs nested in collections and other UDTs.
  CqlType map = CqlType::Map(CqlType::Text(), address);
  EXPECT_EQ(Eval(map, MapOf({{Str("home"), UdtOf({{"city", Str("X")}})}})),
            "00000001"
            "00000004"
            "686f6d65"
            "0000000d"
            "ffffffff"
            "00000001"
            "58"
            "ffffffff");
  CqlType person = CqlType::Udt("ks", "person", {"name", "addresses"},
                                {CqlType::Text(), CqlType::List(address, true)}, true);
  EXPECT_EQ(Eval(person, UdtOf({{"addresses", ListOf({UdtOf({{"zip", Int("1")}})})}})),
            "ffffffff"
            "00000018"
            "00000001"
            "00000010"
            "ffffffff"
            "ffffffff"
            "00000004"
            "00000001");
  EXPECT_EQ(EvalError(person, UdtOf({{"addresses", ListOf({UdtOf({{"zip", Str("x")}})})}}), "p"),
            "Invalid user type literal for p: field addresses is not of type "
            "frozen<list<frozen<address>>>");
}

TEST(LiteralTest, UnresolvedUdtIsAnInternalError) {
  auto result =
      EvaluateLiteral(CqlType::UdtRef("", "address", true), UdtOf({{"zip", Int("1")}}), "a");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), common::StatusCode::kInternal);
}

TEST(LiteralTest, Tuples) {
  CqlType tuple = CqlType::Tuple({CqlType::Int(), CqlType::Text()});
  EXPECT_EQ(Eval(tuple, TupleOf({Int("1"), Str("a")})),
            "00000004"
            "00000001"
            "00000001"
            "61");
  EXPECT_EQ(Eval(tuple, TupleOf({Int("1")})),
            "00000004"
            "00000001");
  EXPECT_EQ(Eval(tuple, TupleOf({Null(), Str("a")})),
            "ffffffff"
            "00000001"
            "61");
  EXPECT_EQ(
      EvalError(tuple, TupleOf({Int("1"), Str("a"), Str("b")}), "t"),
      "Invalid tuple literal for t: too many elements. Type frozen<tuple<int, text>> expects 2 but "
      "got 3");
  EXPECT_EQ(EvalError(tuple, TupleOf({Str("a"), Str("b")}), "t"),
            "Invalid tuple literal for t: component 0 is not of type int");
  EXPECT_EQ(EvalError(CqlType::Int(), TupleOf({Int("1"), Int("2")}), "age"),
            "Invalid tuple type literal for age of type int");
  CqlType nested = CqlType::List(CqlType::Tuple({CqlType::Int(), Address()}), true);
  EXPECT_EQ(Eval(nested, ListOf({TupleOf({Int("1"), UdtOf({{"city", Str("X")}})})})),
            "00000001"
            "00000019"
            "00000004"
            "00000001"
            "0000000d"
            "ffffffff"
            "00000001"
            "58"
            "ffffffff");
  EXPECT_EQ(EvalError(nested, ListOf({TupleOf({Int("1"), Int("2")})}), "l"),
            "Invalid list literal for l: value (1, 2) is not of type "
            "frozen<tuple<int, frozen<address>>>");
}

TEST(LiteralTest, Vectors) {
  CqlType floats = CqlType::Vector(CqlType::Float(), 3);
  EXPECT_EQ(Eval(floats, ListOf({Float("1.0"), Int("2"), Float("3.5")})),
            "3f800000"
            "40000000"
            "40600000");
  EXPECT_EQ(EvalError(floats, ListOf({Int("1"), Int("2")}), "v"),
            "Invalid vector literal for v of type vector<float, 3>; expected 3 elements, but "
            "given 2");
  EXPECT_EQ(EvalError(floats, ListOf({Str("a"), Str("b"), Str("c")}), "v"),
            "Invalid vector literal for v: value 'a' is not of type float");
  EXPECT_EQ(EvalError(floats, ListOf({Int("1"), Null(), Int("3")}), "v"),
            "null is not supported inside vectors");
  EXPECT_EQ(EvalError(floats, SetOf({Int("1")}), "v"),
            "Invalid set literal for v of type vector<float, 3>");
  CqlType texts = CqlType::Vector(CqlType::Text(), 2);
  EXPECT_EQ(Eval(texts, ListOf({Str("a"), Str("bc")})),
            "0161"
            "026263");
  EXPECT_EQ(Eval(texts, ListOf({Str(""), Str("bc")})),
            "00"
            "026263");
  CqlType list_of_vectors = CqlType::List(CqlType::Vector(CqlType::Int(), 2));
  EXPECT_EQ(Eval(list_of_vectors, ListOf({ListOf({Int("1"), Int("2")})})),
            "00000001"
            "00000008"
            "00000001"
            "00000002");
}

TEST(LiteralTest, TypeHints) {
  EXPECT_EQ(Eval(CqlType::Bigint(), Hint(CqlType::Bigint(), Int("5"))), "0000000000000005");
  // A value-compatible cast stores the cast type's bytes.
  EXPECT_EQ(Eval(CqlType::Varint(), Hint(CqlType::Int(), Int("5"))), "00000005");
  EXPECT_EQ(Eval(CqlType::Blob(), Hint(CqlType::Int(), Int("5"))), "00000005");
  EXPECT_EQ(Eval(CqlType::Text(), Hint(CqlType::Ascii(), Str("a"))), "61");
  EXPECT_EQ(EvalError(CqlType::Int(), Hint(CqlType::Text(), Str("a")), "age"),
            "Cannot assign value (text)'a' to age of type int");
  EXPECT_EQ(EvalError(CqlType::Int(), Hint(CqlType::Int(), Str("a")), "age"),
            "Cannot cast value 'a' to type int");
  EXPECT_EQ(EvalError(CqlType::Int(), Hint(CqlType::Int(), Int("3000000000")), "age"),
            "Unable to make int from '3000000000'");
  EXPECT_EQ(Eval(Address(), Hint(CqlType::UdtRef("", "address", true), UdtOf({{"zip", Int("1")}}))),
            "ffffffff"
            "ffffffff"
            "00000004"
            "00000001");
  EXPECT_EQ(
      EvalError(CqlType::Vector(CqlType::Int(), 2),
                ListOf({Hint(CqlType::Bigint(), Int("1")), Hint(CqlType::Bigint(), Int("2"))}),
                "value"),
      "Invalid vector literal for value: value (bigint)1 is not of type int");
}

TEST(LiteralTest, NestingIsCapped) {
  CqlType type = CqlType::Int();
  Term term = Int("1");
  for (int i = 0; i < 300; ++i) {
    type = CqlType::List(type, true);
    term = ListOf({std::move(term)});
  }
  EXPECT_EQ(EvalError(type, term), "Literal nesting exceeds 256 levels");
}

TEST(LiteralTest, ParseConstantFor) {
  EXPECT_EQ(ToHex(*ParseConstantFor(CqlType::Int(), ConstantKind::kInteger, "7", "x")), "00000007");
  EXPECT_EQ(ParseConstantFor(CqlType::Int(), ConstantKind::kString, "7", "x").status().message(),
            "Invalid STRING constant (7) for \"x\" of type int");
  EXPECT_EQ(ParseConstantFor(CqlType::List(CqlType::Int()), ConstantKind::kInteger, "7", "l")
                .status()
                .message(),
            "Invalid INTEGER constant (7) for \"l\" of type list<int>");
  EXPECT_EQ(ToHex(*ParseConstantFor(CqlType::Custom("org.example.Blobish"), ConstantKind::kHex,
                                    "beef", "x")),
            "beef");
}

TEST(LiteralTest, ParseValueText) {
  struct Case {
    CqlType type;
    std::string text;
    std::string hex;
  };
  std::vector<Case> cases = {
      {CqlType::Text(), "it's \\ plain", ToHex("it's \\ plain")},
      {CqlType::Ascii(), "abc", "616263"},
      {CqlType::Blob(), "0xCAFE", "cafe"},
      {CqlType::Blob(), "cafe", "cafe"},
      {CqlType::Blob(), "0x", ""},
      {CqlType::Boolean(), "True", "01"},
      {CqlType::Boolean(), "FALSE", "00"},
      {CqlType::Int(), "-5", "fffffffb"},
      {CqlType::Int(), "+5", "00000005"},
      {CqlType::Bigint(), "12", "000000000000000c"},
      {CqlType::Smallint(), "12", "000c"},
      {CqlType::Tinyint(), "-1", "ff"},
      {CqlType::Counter(), "1", "0000000000000001"},
      {CqlType::Varint(), "-129", "ff7f"},
      {CqlType::Decimal(), "1E+3", "fffffffd01"},
      {CqlType::Float(), "-Infinity", "ff800000"},
      {CqlType::Double(), "NaN", "7ff8000000000000"},
      {CqlType::Double(), "1e+20", "4415af1d78b58c40"},
      {CqlType::Uuid(), "550e8400-e29b-41d4-a716-446655440000", "550e8400e29b41d4a716446655440000"},
      {CqlType::Inet(), "::1", "00000000000000000000000000000001"},
      {CqlType::Date(), "2024-01-31", "80004d29"},
      {CqlType::Time(), "08:12:54.123456789", "00001ae5c31f8915"},
      {CqlType::Timestamp(), "2015-05-03 13:30:54.234000+0000", "0000014d19f8ef9a"},
      {CqlType::Duration(), "1h30m", "0000fc09d29229e000"},
      {CqlType::Duration(), "", "000000"},
      {CqlType::Int(), "", ""},
      {CqlType::Timestamp(), "", ""},
  };
  for (const Case& c : cases) {
    auto bytes = ParseValueText(c.type, c.text);
    ASSERT_TRUE(bytes.ok()) << c.type.ToCql() << " " << c.text << ": " << bytes.status().ToString();
    EXPECT_EQ(ToHex(*bytes), c.hex) << c.type.ToCql() << " " << c.text;
  }
  EXPECT_EQ(ParseValueText(CqlType::Boolean(), "yes").status().message(),
            "Unable to make boolean from 'yes'");
  EXPECT_EQ(ParseValueText(CqlType::Int(), "1.5").status().message(),
            "Unable to make int from '1.5'");
  EXPECT_EQ(ParseValueText(CqlType::Varint(), "x").status().message(),
            "unable to make int from 'x'");
  EXPECT_EQ(ParseValueText(CqlType::Blob(), "0xabc").status().message(),
            "cannot parse 'abc' as hex bytes");
  EXPECT_EQ(ParseValueText(CqlType::Timeuuid(), "nope").status().message(),
            "Unknown timeuuid representation: nope");
  EXPECT_EQ(ParseValueText(CqlType::Uuid(), "nope").status().message(),
            "Unable to make UUID from 'nope'");
  EXPECT_EQ(ParseValueText(CqlType::List(CqlType::Int()), "[1]").status().code(),
            common::StatusCode::kInvalid);
}

}  // namespace
}  // namespace cql
