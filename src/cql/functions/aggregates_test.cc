#include "cql/functions/aggregates.h"

#include <gtest/gtest.h>

#include "cql/types/big_number.h"
#include "cql/types/value_codec.h"

namespace cql {
namespace {

using common::Bytes;

std::optional<Bytes> Aggregate(std::string_view name, const CqlType& type,
                               const std::vector<std::optional<Bytes>>& values) {
  std::vector<CqlType> types = {type};
  auto function = ResolveAggregate(name, types);
  EXPECT_TRUE(function.ok()) << function.status().ToString();
  if (!function.ok()) return std::nullopt;
  auto state = (*function)->NewAggregate();
  for (const auto& v : values) {
    common::Status s = state->Add(v ? std::optional<std::string_view>(*v) : std::nullopt);
    EXPECT_TRUE(s.ok()) << s.ToString();
  }
  auto result = state->Compute();
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? *result : std::nullopt;
}

TEST(AggregatesTest, CountAndCountRows) {
  auto rows = ResolveAggregate("countrows", {});
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)->return_type(), CqlType::Bigint());
  auto state = (*rows)->NewAggregate();
  ASSERT_TRUE(state->Add(std::nullopt).ok());
  ASSERT_TRUE(state->Add(std::string_view("x")).ok());
  EXPECT_EQ(*state->Compute(), SerializeBigint(2));
  state->Reset();
  EXPECT_EQ(*state->Compute(), SerializeBigint(0));
  EXPECT_EQ(Aggregate("count", CqlType::Text(), {Bytes("a"), std::nullopt, Bytes("")}),
            SerializeBigint(2));
}

TEST(AggregatesTest, MinMaxUseTheTypeOrder) {
  std::vector<std::optional<Bytes>> ints = {SerializeInt(5), std::nullopt, SerializeInt(-3),
                                            SerializeInt(7)};
  EXPECT_EQ(Aggregate("min", CqlType::Int(), ints), SerializeInt(-3));
  EXPECT_EQ(Aggregate("max", CqlType::Int(), ints), SerializeInt(7));
  EXPECT_EQ(Aggregate("max", CqlType::Text(), {Bytes("b"), Bytes("ab")}), Bytes("b"));
  EXPECT_EQ(Aggregate("min", CqlType::Varint(), {SerializeVarint(256), SerializeVarint(-1)}),
            SerializeVarint(-1));
  EXPECT_EQ(Aggregate("max", CqlType::Int(), {}), std::nullopt);
  EXPECT_EQ(Aggregate("min", CqlType::Int(), {std::nullopt}), std::nullopt);
}

TEST(AggregatesTest, SumAndAvgOfIntegers) {
  std::vector<std::optional<Bytes>> values = {SerializeInt(1), SerializeInt(2), std::nullopt};
  EXPECT_EQ(Aggregate("sum", CqlType::Int(), values), SerializeInt(3));
  EXPECT_EQ(Aggregate("avg", CqlType::Int(), values), SerializeInt(1));
  EXPECT_EQ(Aggregate("sum", CqlType::Int(), {SerializeInt(INT32_MAX), SerializeInt(1)}),
            SerializeInt(INT32_MIN));
  // The average does not overflow: its sum is wide.
  EXPECT_EQ(Aggregate("avg", CqlType::Int(), {SerializeInt(INT32_MAX), SerializeInt(INT32_MAX)}),
            SerializeInt(INT32_MAX));
  EXPECT_EQ(Aggregate("avg", CqlType::Bigint(), {SerializeBigint(INT64_MAX), SerializeBigint(1)}),
            SerializeBigint(static_cast<int64_t>((static_cast<__int128>(INT64_MAX) + 1) / 2)));
  EXPECT_EQ(Aggregate("avg", CqlType::Int(), {SerializeInt(-3), SerializeInt(0)}),
            SerializeInt(-1));
  EXPECT_EQ(Aggregate("sum", CqlType::Tinyint(), {}), SerializeTinyint(0));
  EXPECT_EQ(Aggregate("avg", CqlType::Smallint(), {}), SerializeSmallint(0));
  EXPECT_EQ(Aggregate("sum", CqlType::Counter(), {SerializeBigint(4), SerializeBigint(5)}),
            SerializeBigint(9));
  EXPECT_EQ(Aggregate("sum", CqlType::Varint(), {SerializeVarint(INT64_MAX), SerializeVarint(1)}),
            *VarintFromText("9223372036854775808"));
  EXPECT_EQ(Aggregate("avg", CqlType::Varint(), {SerializeVarint(7), SerializeVarint(2)}),
            SerializeVarint(4));
}

TEST(AggregatesTest, SumAndAvgOfFloatsAndDecimals) {
  EXPECT_EQ(Aggregate("sum", CqlType::Double(), {SerializeDouble(0.5), SerializeDouble(0.25)}),
            SerializeDouble(0.75));
  EXPECT_EQ(Aggregate("avg", CqlType::Float(), {SerializeFloat(1), SerializeFloat(2)}),
            SerializeFloat(1.5f));
  EXPECT_EQ(Aggregate("avg", CqlType::Double(), {}), SerializeDouble(0));
  // Compensated summation: ten 0.1s make exactly 1.0.
  std::vector<std::optional<Bytes>> tenths(10, SerializeDouble(0.1));
  EXPECT_EQ(Aggregate("sum", CqlType::Double(), tenths), SerializeDouble(1.0));
  EXPECT_EQ(Aggregate("sum", CqlType::Decimal(), {SerializeDecimal(15, 1), SerializeDecimal(1, 0)}),
            SerializeDecimal(25, 1));
  // avg rounds half-even at the sum's scale: 2.5 / 2 = 1.25 -> 1.2.
  EXPECT_EQ(
      Aggregate("avg", CqlType::Decimal(), {SerializeDecimal(15, 1), SerializeDecimal(10, 1)}),
      SerializeDecimal(12, 1));
  EXPECT_EQ(Aggregate("avg", CqlType::Decimal(), {SerializeDecimal(35, 1), SerializeDecimal(0, 1)}),
            SerializeDecimal(18, 1));
  EXPECT_EQ(Aggregate("sum", CqlType::Decimal(), {}), SerializeDecimal(0, 0));
}

TEST(AggregatesTest, ResolutionErrors) {
  std::vector<CqlType> text = {CqlType::Text()};
  auto sum = ResolveAggregate("sum", text);
  ASSERT_FALSE(sum.ok());
  EXPECT_EQ(sum.status().message().rfind(
                "Invalid call to function sum, none of its type signatures match (known type "
                "signatures: system.sum : (tinyint) -> tinyint, system.sum : (smallint) -> "
                "smallint",
                0),
            0u)
      << sum.status().message();
  EXPECT_FALSE(ResolveAggregate("foo", text).ok());
  EXPECT_TRUE(IsAggregateName("avg"));
  EXPECT_FALSE(IsAggregateName("now"));
  auto max = ResolveAggregate("max", text);
  ASSERT_TRUE(max.ok());
  EXPECT_EQ((*max)->Signature(), "system.max : (text) -> text");
  auto count = ResolveAggregate("count", text);
  ASSERT_TRUE(count.ok());
  EXPECT_EQ((*count)->return_type(), CqlType::Bigint());
}

}  // namespace
}  // namespace cql
