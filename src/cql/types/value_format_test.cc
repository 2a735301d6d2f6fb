#include "cql/types/value_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cql/types/big_number.h"
#include "cql/types/value_codec.h"

namespace cql {
namespace {

using common::Bytes;
using common::FromHex;

CqlType Address() {
  return CqlType::Udt("ks", "address", {"street", "city", "zip"},
                      {CqlType::Text(), CqlType::Text(), CqlType::Int()}, true);
}

Bytes Uuid(std::string_view hex) { return *FromHex(hex); }

TEST(ValueFormatTest, TextLikeCqlsh) {
  EXPECT_EQ(FormatValue(CqlType::Text(), "it's"), "it's");
  EXPECT_EQ(FormatValue(CqlType::Text(), "caf\xC3\xA9 \xE2\x82\xAC"), "caf\xC3\xA9 \xE2\x82\xAC");
  EXPECT_EQ(FormatValue(CqlType::Text(), "a\\b"), "a\\\\b");
  EXPECT_EQ(FormatValue(CqlType::Text(), "line\nnext\ttab\rcr"), "line\\nnext\\ttab\\rcr");
  EXPECT_EQ(FormatValue(CqlType::Text(), std::string("nul\0", 4)), "nul\\x00");
  EXPECT_EQ(FormatValue(CqlType::Text(), "\x1f\x7f"), "\\x1f\\x7f");
  EXPECT_EQ(FormatValue(CqlType::Text(), "\xC2\x85\xC2\xA0\xC2\xA1"), "\\x85\\xa0\xC2\xA1");
  EXPECT_EQ(FormatValue(CqlType::Text(), "bad\xFF"), "bad\\xff");
  EXPECT_EQ(FormatValue(CqlType::Ascii(), "plain"), "plain");
  EXPECT_EQ(FormatValue(CqlType::Text(), ""), "");
  CqlType list = CqlType::List(CqlType::Text());
  EXPECT_EQ(FormatValue(list, SerializeCollection(list, {"it's", "", "a\\b"})),
            "['it''s', '', 'a\\\\b']");
}

TEST(ValueFormatTest, ScalarsLikeCqlsh) {
  EXPECT_EQ(FormatValue(CqlType::Blob(), "\xCA\xFE"), "0xcafe");
  EXPECT_EQ(FormatValue(CqlType::Blob(), ""), "0x");
  EXPECT_EQ(FormatValue(CqlType::Boolean(), SerializeBoolean(true)), "True");
  EXPECT_EQ(FormatValue(CqlType::Boolean(), SerializeBoolean(false)), "False");
  EXPECT_EQ(FormatValue(CqlType::Boolean(), "\x02"), "True");
  EXPECT_EQ(FormatValue(CqlType::Tinyint(), SerializeTinyint(-128)), "-128");
  EXPECT_EQ(FormatValue(CqlType::Smallint(), SerializeSmallint(32767)), "32767");
  EXPECT_EQ(FormatValue(CqlType::Int(), SerializeInt(-1)), "-1");
  EXPECT_EQ(FormatValue(CqlType::Bigint(), SerializeBigint(INT64_MIN)), "-9223372036854775808");
  EXPECT_EQ(FormatValue(CqlType::Counter(), SerializeBigint(42)), "42");
  EXPECT_EQ(FormatValue(CqlType::Varint(), *VarintFromText("-123456789012345678901234567890")),
            "-123456789012345678901234567890");
  EXPECT_EQ(FormatValue(CqlType::Decimal(), *DecimalFromText("1.50")), "1.50");
  EXPECT_EQ(FormatValue(CqlType::Decimal(), *DecimalFromText("1E+3")), "1E+3");
  EXPECT_EQ(FormatValue(CqlType::Decimal(), *DecimalFromText("0.0000001")), "1E-7");
  EXPECT_EQ(FormatValue(CqlType::Uuid(), Uuid("550E8400E29B41D4A716446655440000")),
            "550e8400-e29b-41d4-a716-446655440000");
  EXPECT_EQ(FormatValue(CqlType::Timeuuid(), Uuid("6bddc89a564411e497fc56847afe9799")),
            "6bddc89a-5644-11e4-97fc-56847afe9799");
  EXPECT_EQ(FormatValue(CqlType::Inet(), *FromHex("7f000001")), "127.0.0.1");
  EXPECT_EQ(FormatValue(CqlType::Inet(), *FromHex("00000000000000000000000000000001")), "::1");
  EXPECT_EQ(FormatValue(CqlType::Inet(), *FromHex("20010db8000000000000ff0000428329")),
            "2001:db8::ff00:42:8329");
  EXPECT_EQ(FormatValue(CqlType::Inet(), *FromHex("00000000000000000000ffff01020304")),
            "::ffff:1.2.3.4");
  EXPECT_EQ(FormatValue(CqlType::Date(), SerializeDate(kDateEpoch + 19753)), "2024-01-31");
  EXPECT_EQ(FormatValue(CqlType::Date(), SerializeDate(kDateEpoch - 719163)), "-719163");
  EXPECT_EQ(FormatValue(CqlType::Time(), SerializeTime(29574123456789)), "08:12:54.123456789");
  EXPECT_EQ(FormatValue(CqlType::Timestamp(), SerializeTimestamp(1430659854234)),
            "2015-05-03 13:30:54.234000+0000");
  EXPECT_EQ(FormatValue(CqlType::Duration(), SerializeDuration({0, 0, int64_t{5400} * 1000000000})),
            "1h30m");
  EXPECT_EQ(FormatValue(CqlType::Duration(), SerializeDuration({14, 0, 0})), "1y2mo");
  EXPECT_EQ(FormatValue(CqlType::Duration(), SerializeDuration({0, -3, 0})), "-3d");
  EXPECT_EQ(FormatValue(CqlType::Duration(), SerializeDuration({})), "");
}

TEST(ValueFormatTest, FloatingPointLikeCqlsh) {
  auto f = [](float v) { return FormatValue(CqlType::Float(), SerializeFloat(v)); };
  auto d = [](double v) { return FormatValue(CqlType::Double(), SerializeDouble(v)); };
  EXPECT_EQ(f(1.5f), "1.5");
  EXPECT_EQ(f(1.1f), "1.1");
  EXPECT_EQ(f(3.14159265f), "3.14159");
  EXPECT_EQ(f(123456.0f), "1.2346e+05");
  EXPECT_EQ(f(0.0001f), "0.0001");
  EXPECT_EQ(f(0.0f), "0");
  EXPECT_EQ(f(-0.0f), "-0");
  EXPECT_EQ(f(1e-10f), "1e-10");
  EXPECT_EQ(f(std::numeric_limits<float>::quiet_NaN()), "NaN");
  EXPECT_EQ(f(std::numeric_limits<float>::infinity()), "Infinity");
  EXPECT_EQ(f(-std::numeric_limits<float>::infinity()), "-Infinity");
  EXPECT_EQ(d(3.141592653589793), "3.14159265359");
  EXPECT_EQ(d(1e20), "1e+20");
  EXPECT_EQ(d(0.1), "0.1");
  EXPECT_EQ(d(123456.789), "123456.789000000004");
  EXPECT_EQ(d(-2.5), "-2.5");
  EXPECT_EQ(d(std::numeric_limits<double>::quiet_NaN()), "NaN");
  // cqlsh uses its float precision for doubles nested in collections.
  CqlType list = CqlType::List(CqlType::Double());
  EXPECT_EQ(FormatValue(list, SerializeCollection(list, {SerializeDouble(3.141592653589793),
                                                         SerializeDouble(1.5)})),
            "[3.14159, 1.5]");
  CqlshFormatOptions options;
  options.double_precision = 3;
  EXPECT_EQ(FormatValue(CqlType::Double(), SerializeDouble(3.141592653589793), options), "3.142");
}

TEST(ValueFormatTest, CompositesLikeCqlsh) {
  CqlType list = CqlType::List(CqlType::Int());
  EXPECT_EQ(FormatValue(list, SerializeCollection(list, {SerializeInt(1), SerializeInt(2)})),
            "[1, 2]");
  EXPECT_EQ(FormatValue(list, SerializeCollection(list, {})), "[]");
  CqlType set = CqlType::Set(CqlType::Int());
  EXPECT_EQ(FormatValue(set, SerializeCollection(set, {SerializeInt(2), SerializeInt(1)})),
            "{1, 2}");
  CqlType map = CqlType::Map(CqlType::Text(), CqlType::Int());
  EXPECT_EQ(FormatValue(map, SerializeMap(map, {{"k", SerializeInt(1)}, {"a", SerializeInt(0)}})),
            "{'a': 0, 'k': 1}");
  CqlType tuple = CqlType::Tuple({CqlType::Int(), CqlType::Text(), CqlType::Boolean()});
  EXPECT_EQ(FormatValue(tuple, SerializeTupleOrUdt({SerializeInt(1), Bytes("a"), std::nullopt})),
            "(1, 'a', null)");
  CqlType address = Address();
  EXPECT_EQ(FormatValue(address,
                        SerializeTupleOrUdt({Bytes("1 Main"), std::nullopt, SerializeInt(12345)})),
            "{street: '1 Main', city: null, zip: 12345}");
  // Fields absent from an older value print as null.
  EXPECT_EQ(FormatValue(address, SerializeTupleOrUdt({Bytes("1 Main")})),
            "{street: '1 Main', city: null, zip: null}");
  CqlType vector = CqlType::Vector(CqlType::Float(), 3);
  EXPECT_EQ(FormatValue(vector, *SerializeVector(vector, {SerializeFloat(1), SerializeFloat(2),
                                                          SerializeFloat(3.5f)})),
            "[1, 2, 3.5]");
  // Quoting of nested timestamps and inets, but not dates, times, uuids or durations.
  CqlType nested =
      CqlType::Tuple({CqlType::Timestamp(), CqlType::Inet(), CqlType::Date(), CqlType::Time(),
                      CqlType::Uuid(), CqlType::Duration(), CqlType::Blob(), CqlType::Boolean()});
  EXPECT_EQ(
      FormatValue(nested,
                  SerializeTupleOrUdt(
                      {SerializeTimestamp(0), Bytes("\x01\x02\x03\x04"), SerializeDate(kDateEpoch),
                       SerializeTime(0), Uuid("550e8400e29b41d4a716446655440000"),
                       SerializeDuration({0, 1, 0}), Bytes("\xAB"), SerializeBoolean(true)})),
      "('1970-01-01 00:00:00.000000+0000', '1.2.3.4', 1970-01-01, 00:00:00.000000000, "
      "550e8400-e29b-41d4-a716-446655440000, 1d, 0xab, True)");
  CqlType deep = CqlType::Map(CqlType::Text(), CqlType::List(address, true));
  Bytes addresses =
      SerializeCollection(CqlType::List(address, true),
                          {SerializeTupleOrUdt({Bytes("x"), Bytes("y'z"), std::nullopt})});
  EXPECT_EQ(FormatValue(deep, SerializeMap(deep, {{"home", addresses}})),
            "{'home': [{street: 'x', city: 'y''z', zip: null}]}");
}

TEST(ValueFormatTest, EmptyAndNullValues) {
  EXPECT_EQ(FormatValue(CqlType::Int(), ""), "");
  EXPECT_EQ(FormatValue(CqlType::Timestamp(), ""), "");
  EXPECT_EQ(FormatValue(CqlType::Set(CqlType::Int()), ""), "");
  EXPECT_EQ(FormatNullableValue(CqlType::Int(), std::nullopt), "null");
  EXPECT_EQ(FormatNullableValue(CqlType::Int(), SerializeInt(3)), "3");
  CqlType list = CqlType::List(CqlType::Int());
  EXPECT_EQ(FormatValue(list, SerializeCollection(list, {"", SerializeInt(1)})), "[, 1]");
}

TEST(ValueFormatTest, MalformedBytesPrintAsHex) {
  EXPECT_EQ(FormatValue(CqlType::Int(), *FromHex("000102")), "0x000102");
  EXPECT_EQ(FormatValue(CqlType::Uuid(), "\x01"), "0x01");
  EXPECT_EQ(FormatValue(CqlType::Inet(), "\x01\x02"), "0x0102");
  EXPECT_EQ(FormatValue(CqlType::Duration(), "\x02\x01\x04"), "0x020104");
  EXPECT_EQ(FormatValue(CqlType::Decimal(), "\x01"), "0x01");
  CqlType list = CqlType::List(CqlType::Int());
  EXPECT_EQ(FormatValue(list, *FromHex("00000005")), "0x00000005");
  EXPECT_EQ(FormatValue(list, SerializeCollection(list, {*FromHex("0001")})), "[0x0001]");
  EXPECT_EQ(FormatValue(Address(), *FromHex("0000000a61")), "0x0000000a61");
  EXPECT_EQ(FormatValue(CqlType::UdtRef("", "address"), "\x01"), "0x01");
  EXPECT_EQ(FormatValue(CqlType::Vector(CqlType::Int(), 2), SerializeInt(1)), "0x00000001");
}

TEST(ValueFormatTest, AsCqlLiterals) {
  EXPECT_EQ(FormatValueAsCql(CqlType::Text(), "it's"), "'it''s'");
  EXPECT_EQ(FormatValueAsCql(CqlType::Text(), ""), "''");
  EXPECT_EQ(FormatValueAsCql(CqlType::Ascii(), "a\nb"), "'a\nb'");
  EXPECT_EQ(FormatValueAsCql(CqlType::Blob(), "\xCA\xFE"), "0xcafe");
  EXPECT_EQ(FormatValueAsCql(CqlType::Blob(), ""), "0x");
  EXPECT_EQ(FormatValueAsCql(CqlType::Boolean(), SerializeBoolean(true)), "true");
  EXPECT_EQ(FormatValueAsCql(CqlType::Int(), SerializeInt(-7)), "-7");
  EXPECT_EQ(FormatValueAsCql(CqlType::Int(), ""), "null");
  EXPECT_EQ(FormatValueAsCql(CqlType::Float(), SerializeFloat(1.1f)), "1.1");
  EXPECT_EQ(FormatValueAsCql(CqlType::Double(), SerializeDouble(0.1)), "0.1");
  EXPECT_EQ(FormatValueAsCql(CqlType::Double(), SerializeDouble(1e20)), "1e+20");
  EXPECT_EQ(FormatValueAsCql(CqlType::Double(), SerializeDouble(-0.0)), "-0");
  EXPECT_EQ(FormatValueAsCql(CqlType::Double(), SerializeDouble(-INFINITY)), "-Infinity");
  EXPECT_EQ(FormatValueAsCql(CqlType::Double(), SerializeDouble(NAN)), "NaN");
  EXPECT_EQ(FormatValueAsCql(CqlType::Decimal(), *DecimalFromText("1.50")), "1.50");
  EXPECT_EQ(FormatValueAsCql(CqlType::Decimal(), *DecimalFromText("1E+3")), "1E3");
  EXPECT_EQ(FormatValueAsCql(CqlType::Varint(), SerializeVarint(-129)), "-129");
  EXPECT_EQ(FormatValueAsCql(CqlType::Uuid(), Uuid("550e8400e29b41d4a716446655440000")),
            "550e8400-e29b-41d4-a716-446655440000");
  EXPECT_EQ(FormatValueAsCql(CqlType::Inet(), *FromHex("00000000000000000000000000000001")),
            "'::1'");
  EXPECT_EQ(FormatValueAsCql(CqlType::Date(), SerializeDate(kDateEpoch + 19753)), "'2024-01-31'");
  EXPECT_EQ(FormatValueAsCql(CqlType::Time(), SerializeTime(29574123456789)),
            "'08:12:54.123456789'");
  EXPECT_EQ(FormatValueAsCql(CqlType::Timestamp(), SerializeTimestamp(1430659854234)),
            "'2015-05-03T13:30:54.234Z'");
  EXPECT_EQ(FormatValueAsCql(CqlType::Timestamp(), SerializeTimestamp(INT64_MIN)),
            "-9223372036854775808");
  EXPECT_EQ(FormatValueAsCql(CqlType::Duration(), SerializeDuration({0, 0, 90000000000})), "1m30s");
  EXPECT_EQ(FormatValueAsCql(CqlType::Duration(), SerializeDuration({})), "0s");
  CqlType map = CqlType::Map(CqlType::Text(), CqlType::Timestamp());
  EXPECT_EQ(FormatValueAsCql(map, SerializeMap(map, {{"k", SerializeTimestamp(0)}})),
            "{'k': '1970-01-01T00:00:00.000Z'}");
  CqlType udt = CqlType::Udt("ks", "t", {"Zip", "city"}, {CqlType::Int(), CqlType::Text()}, true);
  EXPECT_EQ(FormatValueAsCql(udt, SerializeTupleOrUdt({SerializeInt(1), std::nullopt})),
            "{\"Zip\": 1, city: null}");
  CqlType tuple = CqlType::Tuple({CqlType::Int(), CqlType::Text()});
  EXPECT_EQ(FormatValueAsCql(tuple, SerializeTupleOrUdt({SerializeInt(1), Bytes("a")})),
            "(1, 'a')");
}

}  // namespace
}  // namespace cql
