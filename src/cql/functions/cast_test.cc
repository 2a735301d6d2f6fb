#include "cql/functions/cast.h"

#include <gtest/gtest.h>

#include "common/uuid.h"
#include "cql/types/big_number.h"
#include "cql/types/temporal.h"
#include "cql/types/value_codec.h"

namespace cql {
namespace {

using common::Bytes;

std::optional<Bytes> Cast(const CqlType& from, const CqlType& to, std::string_view value) {
  auto r = CastValue(from, to, value);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : std::nullopt;
}

TEST(CastTest, Matrix) {
  EXPECT_TRUE(CanCast(CqlType::Int(), CqlType::Bigint()));
  EXPECT_TRUE(CanCast(CqlType::Counter(), CqlType::Int()));
  EXPECT_FALSE(CanCast(CqlType::Int(), CqlType::Counter()));
  EXPECT_TRUE(CanCast(CqlType::Timestamp(), CqlType::Text()));
  EXPECT_TRUE(CanCast(CqlType::Timeuuid(), CqlType::Date()));
  EXPECT_TRUE(CanCast(CqlType::Date(), CqlType::Timestamp()));
  EXPECT_FALSE(CanCast(CqlType::Text(), CqlType::Int()));
  EXPECT_FALSE(CanCast(CqlType::Timestamp(), CqlType::Bigint()));
  EXPECT_FALSE(CanCast(CqlType::List(CqlType::Int()), CqlType::Text()));
  EXPECT_TRUE(CanCast(CqlType::Text(), CqlType::Text()));
  EXPECT_TRUE(CanCast(CqlType::Ascii(), CqlType::Text()));
  EXPECT_FALSE(CanCast(CqlType::Text(), CqlType::Ascii()));
  EXPECT_FALSE(CanCast(CqlType::Blob(), CqlType::Text()));
  EXPECT_FALSE(CanCast(CqlType::Duration(), CqlType::Text()));
  EXPECT_TRUE(CanCast(CqlType::Uuid(), CqlType::Ascii()));
  EXPECT_EQ(CheckCast(CqlType::Text(), CqlType::Date()).message(),
            "Invalid call to function system.castAsDate, none of its type signatures match "
            "(known type signatures: system.castAsDate : (timeuuid) -> date, "
            "system.castAsDate : (timestamp) -> date)");
  EXPECT_EQ(CheckCast(CqlType::Text(), CqlType::Boolean()).message(),
            "Unknown function 'system.castAsBoolean'");
  std::string int_message = CheckCast(CqlType::Text(), CqlType::Int()).message();
  EXPECT_EQ(int_message.rfind("Invalid call to function system.castAsInt, none of its type "
                              "signatures match (known type signatures: system.castAsInt : "
                              "(tinyint) -> int, system.castAsInt : (smallint) -> int, "
                              "system.castAsInt : (bigint) -> int",
                              0),
            0u)
      << int_message;
}

TEST(CastTest, NumericConversionsFollowJava) {
  EXPECT_EQ(Cast(CqlType::Bigint(), CqlType::Int(), SerializeBigint(0x100000005LL)),
            SerializeInt(5));
  EXPECT_EQ(Cast(CqlType::Double(), CqlType::Int(), SerializeDouble(-2.7)), SerializeInt(-2));
  EXPECT_EQ(Cast(CqlType::Double(), CqlType::Int(), SerializeDouble(1e20)),
            SerializeInt(INT32_MAX));
  EXPECT_EQ(Cast(CqlType::Double(), CqlType::Tinyint(), SerializeDouble(300.5)),
            SerializeTinyint(44));
  EXPECT_EQ(Cast(CqlType::Double(), CqlType::Bigint(), SerializeDouble(std::nan(""))),
            SerializeBigint(0));
  EXPECT_EQ(Cast(CqlType::Float(), CqlType::Decimal(), SerializeFloat(1.1f)),
            *DecimalFromText("1.100000023841858"));
  EXPECT_EQ(Cast(CqlType::Double(), CqlType::Decimal(), SerializeDouble(100)),
            *DecimalFromText("100.0"));
  EXPECT_EQ(Cast(CqlType::Decimal(), CqlType::Int(), SerializeDecimal(-275, 2)), SerializeInt(-2));
  EXPECT_EQ(Cast(CqlType::Decimal(), CqlType::Varint(), SerializeDecimal(275, 2)),
            SerializeVarint(2));
  // To varint through longValue(): a double beyond 2^63 saturates.
  EXPECT_EQ(Cast(CqlType::Double(), CqlType::Varint(), SerializeDouble(1e30)),
            SerializeVarint(INT64_MAX));
  EXPECT_EQ(Cast(CqlType::Int(), CqlType::Double(), SerializeInt(3)), SerializeDouble(3));
  EXPECT_EQ(Cast(CqlType::Varint(), CqlType::Decimal(), SerializeVarint(12)),
            SerializeDecimal(12, 0));
  EXPECT_EQ(Cast(CqlType::Counter(), CqlType::Float(), SerializeBigint(2)), SerializeFloat(2));
}

TEST(CastTest, TextForms) {
  auto text = [](const CqlType& type, std::string_view value) {
    auto r = CastValue(type, CqlType::Text(), value);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() && r->has_value() ? **r : std::string("<null>");
  };
  EXPECT_EQ(text(CqlType::Int(), SerializeInt(-12)), "-12");
  EXPECT_EQ(text(CqlType::Double(), SerializeDouble(1e10)), "1.0E10");
  EXPECT_EQ(text(CqlType::Float(), SerializeFloat(2.5f)), "2.5");
  EXPECT_EQ(text(CqlType::Decimal(), SerializeDecimal(1, -3)), "1E+3");
  EXPECT_EQ(text(CqlType::Boolean(), SerializeBoolean(false)), "false");
  EXPECT_EQ(text(CqlType::Timestamp(), SerializeTimestamp(*ParseTimestamp("2011-02-03 04:05Z"))),
            "2011-02-03T04:05:00.000Z");
  EXPECT_EQ(text(CqlType::Date(), SerializeDate(kDateEpoch + 15008)), "2011-02-03");
  EXPECT_EQ(text(CqlType::Time(), SerializeTime(14700000000000)), "04:05:00.000000000");
  EXPECT_EQ(text(CqlType::Inet(), std::string_view("\x0a\0\0\x01", 4)), "10.0.0.1");
  EXPECT_EQ(text(CqlType::Ascii(), "abc"), "abc");
  EXPECT_EQ(ValueToJavaText(CqlType::Blob(), std::string_view("\x01\xff", 2)).value_or(""), "01ff");
  EXPECT_EQ(
      ValueToJavaText(CqlType::Duration(), SerializeDuration(Duration{14, 0, 0})).value_or(""),
      "1y2mo");
  EXPECT_FALSE(CastValue(CqlType::Blob(), CqlType::Text(), std::string_view("a")).ok());
}

TEST(CastTest, TemporalAndNulls) {
  common::Uuid uuid = common::MinTimeuuid(1356998700000);
  EXPECT_EQ(Cast(CqlType::Timeuuid(), CqlType::Timestamp(), uuid.ToBytes()),
            SerializeTimestamp(1356998700000));
  EXPECT_EQ(Cast(CqlType::Timeuuid(), CqlType::Date(), uuid.ToBytes()),
            SerializeDate(kDateEpoch + 15706));
  EXPECT_EQ(Cast(CqlType::Timestamp(), CqlType::Date(), SerializeTimestamp(-1)),
            SerializeDate(kDateEpoch - 1));
  EXPECT_EQ(Cast(CqlType::Date(), CqlType::Timestamp(), SerializeDate(kDateEpoch + 1)),
            SerializeTimestamp(86400000));
  auto null = CastValue(CqlType::Int(), CqlType::Text(), std::nullopt);
  ASSERT_TRUE(null.ok());
  EXPECT_EQ(*null, std::nullopt);
  EXPECT_EQ(Cast(CqlType::Int(), CqlType::Bigint(), ""), std::nullopt);
  EXPECT_FALSE(CastValue(CqlType::Text(), CqlType::Int(), std::string_view("1")).ok());
  EXPECT_FALSE(CastValue(CqlType::Int(), CqlType::Text(), std::string_view("abc")).ok());
}

}  // namespace
}  // namespace cql
