#include "cql/functions/json.h"

#include <gtest/gtest.h>

#include <cmath>

#include "common/uuid.h"
#include "cql/types/big_number.h"
#include "cql/types/temporal.h"
#include "cql/types/value_codec.h"

namespace cql {
namespace {

using common::Bytes;

JsonValue Parse(std::string_view text) {
  auto v = ParseJson(text);
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? *v : JsonValue{};
}

std::optional<Bytes> FromJson(const CqlType& type, std::string_view json) {
  auto v = JsonToValue(type, Parse(json));
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? *v : std::nullopt;
}

std::string FromJsonError(const CqlType& type, std::string_view json) {
  auto v = JsonToValue(type, Parse(json));
  EXPECT_FALSE(v.ok());
  return v.ok() ? "" : v.status().message();
}

CqlType Address() {
  return CqlType::Udt("ks", "address", {"street", "Zip"}, {CqlType::Text(), CqlType::Int()}, true);
}

TEST(JsonTest, NativeValuesAsCassandraWritesThem) {
  EXPECT_EQ(ValueToJson(CqlType::Text(), std::string_view("a\"b\\c\n\x01")),
            "\"a\\\"b\\\\c\\n\\u0001\"");
  EXPECT_EQ(ValueToJson(CqlType::Int(), SerializeInt(-5)), "-5");
  EXPECT_EQ(ValueToJson(CqlType::Bigint(), SerializeBigint(1LL << 40)), "1099511627776");
  EXPECT_EQ(ValueToJson(CqlType::Varint(), *VarintFromText("123456789012345678901234567890")),
            "123456789012345678901234567890");
  EXPECT_EQ(ValueToJson(CqlType::Decimal(), SerializeDecimal(150, 2)), "1.50");
  EXPECT_EQ(ValueToJson(CqlType::Double(), SerializeDouble(1.0)), "1.0");
  EXPECT_EQ(ValueToJson(CqlType::Double(), SerializeDouble(1e10)), "1.0E10");
  EXPECT_EQ(ValueToJson(CqlType::Double(), SerializeDouble(0.001)), "0.001");
  EXPECT_EQ(ValueToJson(CqlType::Double(), SerializeDouble(1.5e-4)), "1.5E-4");
  EXPECT_EQ(ValueToJson(CqlType::Float(), SerializeFloat(0.1f)), "0.1");
  EXPECT_EQ(ValueToJson(CqlType::Double(), SerializeDouble(1234567.5)), "1234567.5");
  EXPECT_EQ(ValueToJson(CqlType::Double(), SerializeDouble(std::nan(""))), "null");
  EXPECT_EQ(ValueToJson(CqlType::Float(), SerializeFloat(-INFINITY)), "null");
  EXPECT_EQ(ValueToJson(CqlType::Int(), std::string_view()), "\"\"");
  EXPECT_EQ(ValueToJson(CqlType::Boolean(), SerializeBoolean(true)), "true");
  EXPECT_EQ(ValueToJson(CqlType::Blob(), std::string_view("\x01\xab", 2)), "\"0x01ab\"");
  EXPECT_EQ(ValueToJson(CqlType::Uuid(),
                        common::Uuid::Parse("550E8400-E29B-41D4-A716-446655440000")->ToBytes()),
            "\"550e8400-e29b-41d4-a716-446655440000\"");
  EXPECT_EQ(ValueToJson(CqlType::Inet(), std::string_view("\x7f\0\0\x01", 4)), "\"127.0.0.1\"");
  EXPECT_EQ(
      ValueToJson(CqlType::Inet(), std::string_view("\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01", 16)),
      "\"0:0:0:0:0:0:0:1\"");
  EXPECT_EQ(ValueToJson(CqlType::Inet(),
                        std::string_view("\0\0\0\0\0\0\0\0\0\0\xff\xff\x01\x02\x03\x04", 16)),
            "\"1.2.3.4\"");
  EXPECT_EQ(ValueToJson(CqlType::Timestamp(),
                        SerializeTimestamp(*ParseTimestamp("2011-02-03 04:05:00Z"))),
            "\"2011-02-03 04:05:00.000Z\"");
  EXPECT_EQ(ValueToJson(CqlType::Date(), SerializeDate(kDateEpoch + 15008)), "\"2011-02-03\"");
  EXPECT_EQ(ValueToJson(CqlType::Time(), SerializeTime(*ParseTime("08:12:54.123"))),
            "\"08:12:54.123000000\"");
  EXPECT_EQ(ValueToJson(CqlType::Duration(), SerializeDuration(Duration{0, 0, 5400000000000})),
            "\"1h30m\"");
  EXPECT_EQ(ValueToJson(CqlType::Int(), std::nullopt), "null");
}

TEST(JsonTest, CompositeValues) {
  CqlType list = CqlType::List(CqlType::Text());
  EXPECT_EQ(ValueToJson(list, SerializeCollection(list, {Bytes("a"), Bytes("b")})),
            "[\"a\", \"b\"]");
  CqlType map = CqlType::Map(CqlType::Int(), CqlType::Text());
  EXPECT_EQ(ValueToJson(map, SerializeMap(map, {{SerializeInt(2), Bytes("x")},
                                                {SerializeInt(1), Bytes("y")}})),
            "{\"1\": \"y\", \"2\": \"x\"}");
  CqlType text_map = CqlType::Map(CqlType::Text(), CqlType::Int());
  EXPECT_EQ(ValueToJson(text_map, SerializeMap(text_map, {{Bytes("k"), SerializeInt(1)}})),
            "{\"k\": 1}");
  CqlType tuple = CqlType::Tuple({CqlType::Int(), CqlType::Text()});
  EXPECT_EQ(ValueToJson(tuple, SerializeTupleOrUdt({SerializeInt(1), std::nullopt})), "[1, null]");
  EXPECT_EQ(ValueToJson(Address(), SerializeTupleOrUdt({Bytes("Main St")})),
            "{\"street\": \"Main St\", \"\\\"Zip\\\"\": null}");
  EXPECT_EQ(
      RowToJson({"k", "Name"}, {CqlType::Int(), CqlType::Text()}, {SerializeInt(1), std::nullopt}),
      "{\"k\": 1, \"\\\"Name\\\"\": null}");
  EXPECT_EQ(QuoteJsonColumnName("abc"), "\"abc\"");
  EXPECT_EQ(QuoteJsonColumnName("aBc"), "\"\\\"aBc\\\"\"");
}

TEST(JsonTest, ParserHandlesTheGrammar) {
  JsonValue v = Parse(" {\"a\": [1, -2.5e3, true, null, \"x\\u00e9\\ud83d\\ude00\"], \"b\": {}} ");
  ASSERT_EQ(v.kind, JsonValue::Kind::kObject);
  ASSERT_EQ(v.keys.size(), 2u);
  const JsonValue& a = v.elements[0];
  ASSERT_EQ(a.elements.size(), 5u);
  EXPECT_EQ(a.elements[0].JavaClassName(), "Integer");
  EXPECT_EQ(a.elements[1].JavaClassName(), "Double");
  EXPECT_EQ(a.elements[1].JavaString(), "-2500.0");
  EXPECT_EQ(a.elements[2].kind, JsonValue::Kind::kBoolean);
  EXPECT_EQ(a.elements[3].kind, JsonValue::Kind::kNull);
  EXPECT_EQ(a.elements[4].text, "x\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(Parse("3000000000").JavaClassName(), "Long");
  EXPECT_EQ(Parse("30000000000000000000").JavaClassName(), "BigInteger");
  for (const char* bad :
       {"", "{", "[1,]", "{\"a\" 1}", "01", "1.", "\"\\x\"", "tru", "[1] x", "\"a\nb\""}) {
    EXPECT_FALSE(ParseJson(bad).ok()) << bad;
  }
  std::string deep(10000, '[');
  EXPECT_FALSE(ParseJson(deep).ok());
}

TEST(JsonTest, ParseJsonObjectForInsertJson) {
  auto entries = ParseJsonObject("{\"K\": 1, \"\\\"Name\\\"\": \"x\", \"k\": 2}");
  ASSERT_TRUE(entries.ok()) << entries.status().ToString();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].first, "k");
  EXPECT_EQ((*entries)[0].second.text, "2");  // the later duplicate wins
  EXPECT_EQ((*entries)[1].first, "Name");
  auto bad = ParseJsonObject("[1]");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind("Could not decode JSON string as a map: ", 0), 0u);
  EXPECT_NE(bad.status().message().find(". (String was: [1])"), std::string::npos);
  EXPECT_EQ(ParseJsonObject("null").status().message(), "Got null for INSERT JSON values");
}

TEST(JsonTest, JsonToNativeValues) {
  EXPECT_EQ(FromJson(CqlType::Int(), "5"), SerializeInt(5));
  EXPECT_EQ(FromJson(CqlType::Int(), "\"5\""), SerializeInt(5));
  EXPECT_EQ(FromJsonError(CqlType::Int(), "1.5"), "Expected an int value, but got a Double: 1.5");
  EXPECT_EQ(FromJsonError(CqlType::Int(), "3000000000"),
            "Expected an int value, but got a Long: 3000000000");
  EXPECT_EQ(FromJsonError(CqlType::Int(), "\"abc\""), "Unable to make int from 'abc'");
  EXPECT_EQ(FromJson(CqlType::Bigint(), "3000000000"), SerializeBigint(3000000000));
  EXPECT_EQ(FromJsonError(CqlType::Smallint(), "1.5"), "Unable to make short from '1.5'");
  EXPECT_EQ(FromJson(CqlType::Decimal(), "1.5"), SerializeDecimal(15, 1));
  EXPECT_EQ(FromJson(CqlType::Decimal(), "\"1.50\""), SerializeDecimal(150, 2));
  EXPECT_EQ(FromJson(CqlType::Double(), "2"), SerializeDouble(2));
  EXPECT_EQ(FromJson(CqlType::Float(), "\"1.5\""), SerializeFloat(1.5f));
  EXPECT_EQ(FromJson(CqlType::Boolean(), "true"), SerializeBoolean(true));
  EXPECT_EQ(FromJson(CqlType::Boolean(), "\"FALSE\""), SerializeBoolean(false));
  EXPECT_EQ(FromJson(CqlType::Text(), "\"h\\u00e9\""), Bytes("h\xc3\xa9"));
  EXPECT_EQ(FromJsonError(CqlType::Text(), "5"), "Expected a UTF-8 string, but got a Integer: 5");
  EXPECT_EQ(FromJson(CqlType::Blob(), "\"0x0102\""), Bytes("\x01\x02"));
  EXPECT_EQ(FromJsonError(CqlType::Blob(), "\"0102\""),
            "String representation of blob is missing 0x prefix: 0102");
  EXPECT_EQ(FromJson(CqlType::Timestamp(), "1000"), SerializeTimestamp(1000));
  EXPECT_EQ(FromJson(CqlType::Timestamp(), "\"2011-02-03 04:05:00.000Z\""),
            SerializeTimestamp(*ParseTimestamp("2011-02-03T04:05:00Z")));
  EXPECT_EQ(FromJsonError(CqlType::Timestamp(), "true"),
            "Expected a long or a datestring representation of a timestamp value, but got a "
            "Boolean: true");
  EXPECT_EQ(FromJsonError(CqlType::Uuid(), "1"),
            "Expected a string representation of a uuid, but got a Integer: 1");
  EXPECT_EQ(FromJson(CqlType::Int(), "null"), std::nullopt);
}

TEST(JsonTest, JsonToCompositeValues) {
  CqlType set = CqlType::Set(CqlType::Int());
  EXPECT_EQ(FromJson(set, "[3, 1, 3]"),
            SerializeCollection(set, {SerializeInt(1), SerializeInt(3)}));
  EXPECT_EQ(FromJson(set, "\"[2]\""), SerializeCollection(set, {SerializeInt(2)}));
  EXPECT_EQ(FromJsonError(set, "{}"),
            "Expected a list (representing a set), but got a LinkedHashMap: {}");
  EXPECT_EQ(FromJsonError(CqlType::List(CqlType::Int()), "[1, null]"),
            "Invalid null element in list");
  CqlType map = CqlType::Map(CqlType::Int(), CqlType::Text());
  EXPECT_EQ(FromJson(map, "{\"2\": \"b\", \"1\": \"a\"}"),
            SerializeMap(map, {{SerializeInt(1), Bytes("a")}, {SerializeInt(2), Bytes("b")}}));
  EXPECT_EQ(FromJsonError(map, "{\"1\": null}"), "Invalid null value in map");
  CqlType tuple = CqlType::Tuple({CqlType::Int(), CqlType::Text()});
  EXPECT_EQ(FromJson(tuple, "[1, null]"), SerializeTupleOrUdt({SerializeInt(1), std::nullopt}));
  EXPECT_EQ(FromJsonError(tuple, "[1, \"a\", 3]"),
            "Tuple contains extra items (expected 2): [1, a, 3]");
  EXPECT_EQ(FromJson(Address(), "{\"STREET\": \"Main\", \"\\\"Zip\\\"\": 7}"),
            SerializeTupleOrUdt({Bytes("Main"), SerializeInt(7)}));
  EXPECT_EQ(FromJsonError(Address(), "{\"city\": \"x\"}"),
            "Unknown field 'city' in value of user defined type address");
  // Round trip through the writer.
  CqlType nested = CqlType::Map(CqlType::Text(), CqlType::List(CqlType::Timestamp()));
  Bytes value =
      SerializeMap(nested, {{Bytes("a"), SerializeCollection(CqlType::List(CqlType::Timestamp()),
                                                             {SerializeTimestamp(1234567)})}});
  EXPECT_EQ(FromJson(nested, ValueToJson(nested, value)), value);
}

}  // namespace
}  // namespace cql
