#include "cql/types/value_compare.h"

#include <bit>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/uuid.h"
#include "cql/types/canonical_decimal.h"
#include "cql/types/random_values_testing.h"

namespace cql {
namespace {

using common::Bytes;
using testing::SerializeBigint;
using testing::SerializeCollection;
using testing::SerializeDecimal;
using testing::SerializeDouble;
using testing::SerializeFixed;
using testing::SerializeFloat;
using testing::SerializeInt;
using testing::SerializeTuple;
using testing::SerializeVarint;

Bytes Hex(std::string_view hex) { return common::FromHex(hex).value(); }

Bytes Uuid(std::string_view text) { return common::Uuid::Parse(text).value().ToBytes(); }

// Checks that `values` is strictly ascending under `type`, pair by pair in both directions, and
// that `reversed` negates every result.
void ExpectStrictlyAscending(const CqlType& type, const std::vector<Bytes>& values) {
  for (size_t i = 0; i < values.size(); ++i) {
    for (size_t j = 0; j < values.size(); ++j) {
      int expected = i < j ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(CompareValues(type, values[i], values[j]), expected)
          << type.ToCql() << " [" << i << "] " << common::ToHex(values[i]) << " vs [" << j << "] "
          << common::ToHex(values[j]);
      EXPECT_EQ(CompareValues(type, values[i], values[j], /*reversed=*/true), -expected);
    }
  }
}

void ExpectEqual(const CqlType& type, const Bytes& a, const Bytes& b) {
  EXPECT_EQ(CompareValues(type, a, b), 0) << common::ToHex(a) << " vs " << common::ToHex(b);
  EXPECT_EQ(CompareValues(type, b, a), 0) << common::ToHex(b) << " vs " << common::ToHex(a);
}

TEST(ValueCompareTest, FixedSizeIntegersAreSigned) {
  ExpectStrictlyAscending(CqlType::Int(),
                          {"", SerializeInt(std::numeric_limits<int32_t>::min()), SerializeInt(-1),
                           SerializeInt(0), SerializeInt(1), SerializeInt(255), SerializeInt(256),
                           SerializeInt(std::numeric_limits<int32_t>::max())});
  ExpectStrictlyAscending(CqlType::Bigint(),
                          {"", SerializeBigint(std::numeric_limits<int64_t>::min()),
                           SerializeBigint(-256), SerializeBigint(-1), SerializeBigint(0),
                           SerializeBigint(std::numeric_limits<int64_t>::max())});
  ExpectStrictlyAscending(CqlType::Timestamp(),
                          {"", SerializeBigint(-1), SerializeBigint(0), SerializeBigint(1)});
  ExpectStrictlyAscending(CqlType::Counter(), {SerializeBigint(-5), SerializeBigint(3)});
  ExpectStrictlyAscending(CqlType::Smallint(), {"", Hex("8000"), Hex("ffff"), Hex("0000"),
                                                Hex("00ff"), Hex("0100"), Hex("7fff")});
  ExpectStrictlyAscending(CqlType::Tinyint(), {"", Hex("80"), Hex("ff"), Hex("00"), Hex("7f")});
}

TEST(ValueCompareTest, DateAndTimeAreUnsignedBytes) {
  // date: days with the epoch at 2^31, compared unsigned (1969-12-31 < 1970-01-01).
  ExpectStrictlyAscending(CqlType::Date(), {"", Hex("00000000"), Hex("7fffffff"), Hex("80000000"),
                                            Hex("80000001"), Hex("ffffffff")});
  // time: TimeType is byte-ordered, so a (never valid) negative time sorts last.
  ExpectStrictlyAscending(CqlType::Time(),
                          {"", SerializeBigint(0), SerializeBigint(1),
                           SerializeBigint(86399999999999LL), SerializeBigint(-1)});
}

TEST(ValueCompareTest, FloatingPointFollowsJavaCompare) {
  const double kInf = std::numeric_limits<double>::infinity();
  const double kNaN = std::numeric_limits<double>::quiet_NaN();
  ExpectStrictlyAscending(
      CqlType::Double(),
      {"", SerializeDouble(-kInf), SerializeDouble(std::numeric_limits<double>::lowest()),
       SerializeDouble(-1.0), SerializeDouble(-std::numeric_limits<double>::denorm_min()),
       SerializeDouble(-0.0), SerializeDouble(0.0),
       SerializeDouble(std::numeric_limits<double>::denorm_min()), SerializeDouble(1.0),
       SerializeDouble(std::numeric_limits<double>::max()), SerializeDouble(kInf),
       SerializeDouble(kNaN)});
  // Every NaN equals every other NaN (Double.doubleToLongBits canonicalizes them).
  ExpectEqual(CqlType::Double(), SerializeDouble(kNaN), Hex("fff8000000000001"));
  ExpectEqual(CqlType::Double(), Hex("7ff0000000000001"), Hex("ffffffffffffffff"));
  const float kFloatInf = std::numeric_limits<float>::infinity();
  ExpectStrictlyAscending(
      CqlType::Float(),
      {"", SerializeFloat(-kFloatInf), SerializeFloat(-2.5f), SerializeFloat(-0.0f),
       SerializeFloat(0.0f), SerializeFloat(0.5f), SerializeFloat(kFloatInf),
       SerializeFloat(std::numeric_limits<float>::quiet_NaN())});
  ExpectEqual(CqlType::Float(), Hex("7fc00000"), Hex("ff800001"));
}

TEST(ValueCompareTest, BooleanAnyNonZeroIsTrue) {
  ExpectStrictlyAscending(CqlType::Boolean(), {"", Hex("00"), Hex("01")});
  ExpectEqual(CqlType::Boolean(), Hex("01"), Hex("02"));
  ExpectEqual(CqlType::Boolean(), Hex("01"), Hex("ff"));
}

TEST(ValueCompareTest, VarintIsNumericForAnyEncoding) {
  ExpectStrictlyAscending(CqlType::Varint(),
                          {"", Hex("ff00000000000000000000"), Hex("8000"), Hex("ff7f"), Hex("80"),
                           Hex("fe"), Hex("ff"), Hex("00"), Hex("01"), Hex("7f"), Hex("0080"),
                           Hex("0100"), Hex("7fff"), Hex("008000"), Hex("0100000000000000000000")});
  ExpectEqual(CqlType::Varint(), Hex("01"), Hex("0001"));
  ExpectEqual(CqlType::Varint(), Hex("ff"), Hex("ffff"));
  ExpectEqual(CqlType::Varint(), Hex("00"), Hex("000000"));
  ExpectEqual(CqlType::Varint(), Hex("ff80"), Hex("80"));
}

TEST(ValueCompareTest, DecimalIsNumericAcrossScales) {
  auto decimal = [](int32_t scale, int64_t unscaled) {
    return SerializeDecimal(scale, SerializeVarint(unscaled));
  };
  ExpectStrictlyAscending(
      CqlType::Decimal(),
      {"", decimal(0, std::numeric_limits<int64_t>::min()), decimal(-3, -1),  // -1000
       decimal(1, -15),                                                       // -1.5
       decimal(0, -1), decimal(40, -1),                                       // -1E-40
       decimal(0, 0), decimal(2147483647, 1),                                 // 1E-2147483647
       decimal(3, 1), decimal(1, 1), decimal(0, 1), decimal(1, 15),           // 1.5
       decimal(-1, 1),                                                        // 10
       decimal(0, 11), decimal(-2147483647 - 1, 1)});                         // 1E+2147483648
  // 1 == 1.0 == 1.00 == 100E-2; 0 == 0.000 == 0E+5; -1.5 == -15.0E-1.
  ExpectEqual(CqlType::Decimal(), decimal(0, 1), decimal(1, 10));
  ExpectEqual(CqlType::Decimal(), decimal(0, 1), decimal(2, 100));
  ExpectEqual(CqlType::Decimal(), decimal(-2, 1), decimal(0, 100));
  ExpectEqual(CqlType::Decimal(), decimal(0, 0), decimal(3, 0));
  ExpectEqual(CqlType::Decimal(), decimal(0, 0), decimal(-5, 0));
  ExpectEqual(CqlType::Decimal(), decimal(1, -15), decimal(2, -150));
  ExpectEqual(CqlType::Decimal(), SerializeDecimal(0, Hex("01")), SerializeDecimal(0, Hex("0001")));
  // Far-apart scales and big unscaled values go through the general path.
  ExpectEqual(CqlType::Decimal(), decimal(30, 1),
              SerializeDecimal(40, Hex("02540be400")));  // 1E-30 == 10^10 E-40
  EXPECT_LT(
      CompareValues(CqlType::Decimal(), decimal(30, 1), SerializeDecimal(40, Hex("02540be401"))),
      0);
}

TEST(ValueCompareTest, BytesLikeTypesAreUnsignedLexicographic) {
  for (const CqlType& type : {CqlType::Text(), CqlType::Ascii(), CqlType::Blob(), CqlType::Inet(),
                              CqlType::Duration(), CqlType::Custom("a.B")}) {
    ExpectStrictlyAscending(
        type, {"", Bytes("\x00", 1), Bytes("\x00\x00", 2), "a", Bytes("a\x00", 2), "ab", "b",
               "\x7f", "\x80", "\xff", "\xff\xff"});
  }
}

TEST(ValueCompareTest, UuidOrdersByVersionThenTimestampThenUnsignedBytes) {
  ExpectStrictlyAscending(
      CqlType::Uuid(),
      {"",
       Uuid("00000000-0000-0000-0000-000000000000"),  // nil: version 0
       Uuid("ffffffff-ffff-0fff-ffff-ffffffffffff"),  // version 0 with high bytes
       // version 1, by timestamp (time_hi, then time_mid, then time_low), not by bytes:
       Uuid("ffffffff-ffff-1000-0000-000000000000"), Uuid("00000000-0000-1001-0000-000000000000"),
       Uuid("00000000-0001-1001-0000-000000000000"), Uuid("00000001-0001-1001-0000-000000000000"),
       // equal timestamps: lsb compared unsigned (0x7f < 0x80, unlike timeuuid)
       Uuid("00000001-0001-1001-7f00-000000000000"), Uuid("00000001-0001-1001-8000-000000000000"),
       Uuid("00000000-0000-2000-0000-000000000000"),
       // version 4: msb unsigned, then lsb unsigned
       Uuid("00000000-0000-4000-0000-000000000000"), Uuid("00000000-0000-4000-ffff-000000000000"),
       Uuid("7fffffff-0000-4000-0000-000000000000"), Uuid("80000000-0000-4000-0000-000000000000"),
       Uuid("ffffffff-ffff-ffff-ffff-ffffffffffff")});
}

TEST(ValueCompareTest, TimeuuidOrdersByTimestampThenSignedLsbBytes) {
  ExpectStrictlyAscending(
      CqlType::Timeuuid(),
      {"", Uuid("ffffffff-ffff-1000-8080-808080808080"),
       Uuid("00000000-0000-1001-8080-808080808080"), Uuid("00000000-0001-1001-8080-808080808080"),
       Uuid("00000001-0001-1001-8080-808080808080"),
       // equal timestamps: lsb bytes compared as signed bytes: 0x80 < 0xff < 0x00 < 0x7f
       Uuid("00000001-0001-1001-ff80-808080808080"), Uuid("00000001-0001-1001-0080-808080808080"),
       Uuid("00000001-0001-1001-7f80-808080808080"), Uuid("00000001-0001-1001-7f7f-7f7f7f7f7f7f")});
}

TEST(ValueCompareTest, MinAndMaxTimeuuidBracketEveryTimeuuidOfTheirMillisecond) {
  testing::RandomValues random(7);
  for (int i = 0; i < 2000; ++i) {
    const int64_t millis = random.Uniform(-100000000000LL, 4000000000000LL);
    const int64_t raw_in_ms =
        (millis - common::Uuid::kUuidEpochUnixMillis) * 10000 + random.Uniform(0, 9999);
    Bytes uuid = common::Uuid::TimeBased(raw_in_ms, random.Bits()).ToBytes();
    Bytes min = common::MinTimeuuid(millis).ToBytes();
    Bytes max = common::MaxTimeuuid(millis).ToBytes();
    EXPECT_LE(CompareValues(CqlType::Timeuuid(), min, uuid), 0) << common::ToHex(uuid);
    EXPECT_GE(CompareValues(CqlType::Timeuuid(), max, uuid), 0) << common::ToHex(uuid);
    EXPECT_LT(CompareValues(CqlType::Timeuuid(), common::MaxTimeuuid(millis - 1).ToBytes(), min),
              0);
    EXPECT_GT(CompareValues(CqlType::Timeuuid(), common::MinTimeuuid(millis + 1).ToBytes(), max),
              0);
  }
}

Bytes IntList(const std::vector<int32_t>& values) {
  std::vector<std::optional<Bytes>> items;
  for (int32_t v : values) items.push_back(SerializeInt(v));
  return SerializeCollection(items, static_cast<int32_t>(values.size()));
}

TEST(ValueCompareTest, ListsAndSetsCompareElementsThenSize) {
  for (const CqlType& type :
       {CqlType::List(CqlType::Int(), true), CqlType::Set(CqlType::Int(), true),
        CqlType::List(CqlType::Int(), false)}) {
    ExpectStrictlyAscending(type,
                            {"", IntList({}), SerializeCollection({std::nullopt}, 1),
                             SerializeCollection({Bytes()}, 1), IntList({-5}), IntList({-5, 0}),
                             IntList({-5, 0, 0}), IntList({-1}), IntList({1, -100}), IntList({2})});
  }
}

TEST(ValueCompareTest, MapsCompareKeyThenValueThenSize) {
  const CqlType type = CqlType::Map(CqlType::Int(), CqlType::Text(), true);
  auto map = [](const std::vector<std::pair<int32_t, std::string>>& entries) {
    std::vector<std::optional<Bytes>> items;
    for (const auto& [k, v] : entries) {
      items.push_back(SerializeInt(k));
      items.push_back(v);
    }
    return SerializeCollection(items, static_cast<int32_t>(entries.size()));
  };
  ExpectStrictlyAscending(type, {"", map({}), map({{1, ""}}), map({{1, "a"}}),
                                 map({{1, "a"}, {0, "z"}}), map({{1, "b"}}), map({{2, ""}})});
}

TEST(ValueCompareTest, TuplesCompareFieldsWithNullsFirstAndTrailingNullsIgnored) {
  const CqlType type = CqlType::Tuple({CqlType::Int(), CqlType::Text(), CqlType::Int()});
  std::optional<Bytes> null;
  ExpectStrictlyAscending(type, {"", SerializeTuple({null}), SerializeTuple({Bytes()}),
                                 SerializeTuple({SerializeInt(-1)}),
                                 SerializeTuple({SerializeInt(1), null, SerializeInt(0)}),
                                 SerializeTuple({SerializeInt(1), Bytes()}),
                                 SerializeTuple({SerializeInt(1), Bytes("a"), null}),
                                 SerializeTuple({SerializeInt(1), Bytes("a"), SerializeInt(-7)}),
                                 SerializeTuple({SerializeInt(2)})});
  // Trailing nulls equal absent fields (TupleType.compareCustom's allRemainingComponentsAreNull).
  ExpectEqual(type, SerializeTuple({SerializeInt(1)}), SerializeTuple({SerializeInt(1), null}));
  ExpectEqual(type, SerializeTuple({SerializeInt(1)}),
              SerializeTuple({SerializeInt(1), null, null}));
  ExpectEqual(type, SerializeTuple({null}), SerializeTuple({null, null, null}));
  // The same for a UDT, and nested.
  const CqlType udt = CqlType::Udt("ks", "a", {"x", "y"}, {CqlType::Int(), type}, true);
  ExpectEqual(udt, SerializeTuple({SerializeInt(3)}), SerializeTuple({SerializeInt(3), null}));
  EXPECT_LT(CompareValues(udt, SerializeTuple({SerializeInt(3), SerializeTuple({null})}),
                          SerializeTuple({SerializeInt(3), SerializeTuple({SerializeInt(0)})})),
            0);
}

TEST(ValueCompareTest, VectorsCompareElementByElement) {
  const CqlType floats = CqlType::Vector(CqlType::Float(), 2);
  ExpectStrictlyAscending(floats, {"", SerializeFloat(-1.0f) + SerializeFloat(5.0f),
                                   SerializeFloat(-0.0f) + SerializeFloat(0.0f),
                                   SerializeFloat(0.0f) + SerializeFloat(-1.0f),
                                   SerializeFloat(0.0f) + SerializeFloat(2.0f)});
  // Variable-size elements carry an unsigned vint length.
  const CqlType texts = CqlType::Vector(CqlType::Text(), 2);
  ExpectStrictlyAscending(texts, {"", Bytes("\x00\x01z", 3),
                                  Bytes("\x01"
                                        "a\x00",
                                        3),
                                  Bytes("\x01"
                                        "a\x01"
                                        "b",
                                        4),
                                  Bytes("\x02"
                                        "ab\x00",
                                        4)});
}

TEST(ValueCompareTest, EmptySortsFirstAndMalformedLastInEveryType) {
  testing::RandomValues random(11);
  std::vector<CqlType> types = random.NativeKeyTypes();
  types.push_back(CqlType::List(CqlType::Int(), true));
  types.push_back(CqlType::Map(CqlType::Text(), CqlType::Int(), true));
  types.push_back(CqlType::Tuple({CqlType::Int(), CqlType::Int()}));
  types.push_back(CqlType::Vector(CqlType::Float(), 3));
  types.push_back(CqlType::Vector(CqlType::Smallint(), 2));
  for (const CqlType& type : types) {
    for (int i = 0; i < 200; ++i) {
      Bytes value = random.Value(type);
      if (value.empty()) continue;
      EXPECT_EQ(ClassifyValue(type, value), ValueClass::kWellFormed) << type.ToCql();
      EXPECT_LT(CompareValues(type, "", value), 0) << type.ToCql();
      EXPECT_GT(CompareValues(type, value, ""), 0) << type.ToCql();
      std::optional<Bytes> malformed = random.Malformed(type);
      if (!malformed.has_value()) continue;
      EXPECT_EQ(ClassifyValue(type, *malformed), ValueClass::kMalformed)
          << type.ToCql() << " " << common::ToHex(*malformed);
      EXPECT_LT(CompareValues(type, value, *malformed), 0) << type.ToCql();
      EXPECT_GT(CompareValues(type, *malformed, value), 0) << type.ToCql();
    }
  }
  // Malformed values among themselves: unsigned byte order.
  EXPECT_LT(CompareValues(CqlType::Int(), Hex("ff"), Hex("ffff")), 0);
  EXPECT_GT(CompareValues(CqlType::Int(), Hex("80"), Hex("7fffffffff")), 0);
  EXPECT_EQ(ClassifyValue(CqlType::Decimal(), Hex("00000001")), ValueClass::kMalformed);
  EXPECT_EQ(ClassifyValue(CqlType::List(CqlType::Int(), true), Hex("ffffffff")),
            ValueClass::kMalformed);  // negative count
  EXPECT_EQ(ClassifyValue(CqlType::Vector(CqlType::Text(), 1), Hex("0561")),
            ValueClass::kMalformed);  // length beyond the end
}

TEST(ValueCompareTest, UnresolvedUdtOrdersAsBytes) {
  const CqlType ref = CqlType::UdtRef("", "address", true);
  ExpectStrictlyAscending(ref, {"", Hex("00"), Hex("0000"), Hex("01")});
}

// --- Properties over random values of random types. ---

TEST(ValueCompareTest, TotalOrderPropertiesOnRandomTypes) {
  testing::RandomValues random(20240601, /*canonical_only=*/false);
  for (int t = 0; t < 300; ++t) {
    const CqlType type = random.KeyType(2);
    std::vector<Bytes> values;
    for (int i = 0; i < 12; ++i) {
      if (random.OneIn(15)) {
        std::optional<Bytes> malformed = random.Malformed(type);
        if (malformed.has_value()) {
          values.push_back(*malformed);
          continue;
        }
      }
      values.push_back(random.ValueOrEmpty(type));
    }
    for (const Bytes& a : values) {
      EXPECT_EQ(CompareValues(type, a, a), 0) << type.ToCql();
      for (const Bytes& b : values) {
        const int ab = CompareValues(type, a, b);
        ASSERT_EQ(ab, -CompareValues(type, b, a)) << type.ToCql();  // antisymmetric
        ASSERT_TRUE(ab == -1 || ab == 0 || ab == 1);
        for (const Bytes& c : values) {
          const int bc = CompareValues(type, b, c);
          if (ab <= 0 && bc <= 0) {  // transitive, including equality
            ASSERT_LE(CompareValues(type, a, c), 0) << type.ToCql();
            if (ab == 0 && bc == 0) {
              ASSERT_EQ(CompareValues(type, a, c), 0) << type.ToCql();
            }
          }
        }
      }
    }
  }
}

TEST(ValueCompareTest, IntegersMatchANumericModel) {
  testing::RandomValues random(3);
  for (int i = 0; i < 5000; ++i) {
    const int64_t a = random.Uniform(-300, 300) * (random.OneIn(3) ? 1 : 1000003);
    const int64_t b = random.Uniform(-300, 300) * (random.OneIn(3) ? 1 : 1000003);
    const int expected = a < b ? -1 : (a > b ? 1 : 0);
    EXPECT_EQ(CompareValues(CqlType::Bigint(), SerializeBigint(a), SerializeBigint(b)), expected);
    EXPECT_EQ(CompareValues(CqlType::Varint(), SerializeVarint(a), SerializeVarint(b)), expected);
    EXPECT_EQ(CompareValues(CqlType::Timestamp(), SerializeBigint(a), SerializeBigint(b)),
              expected);
    // decimal: a * 10^-sa vs b * 10^-sb with the same integer value at different scales
    const int32_t scale = static_cast<int32_t>(random.Uniform(0, 3));
    int64_t scaled_b = b;
    for (int32_t s = 0; s < scale; ++s) scaled_b *= 10;
    EXPECT_EQ(CompareValues(CqlType::Decimal(), SerializeDecimal(0, SerializeVarint(a)),
                            SerializeDecimal(scale, SerializeVarint(scaled_b))),
              expected);
  }
}

TEST(ValueCompareTest, DecimalFastPathAgreesWithCanonicalForm) {
  testing::RandomValues random(5);
  const CqlType type = CqlType::Decimal();
  for (int i = 0; i < 20000; ++i) {
    const Bytes a = random.Value(type);
    const Bytes b = random.Value(type);
    auto canonical_a = CanonicalizeDecimal(a);
    auto canonical_b = CanonicalizeDecimal(b);
    ASSERT_TRUE(canonical_a.ok() && canonical_b.ok());
    ASSERT_EQ(CompareValues(type, a, b), CompareCanonicalDecimals(*canonical_a, *canonical_b))
        << common::ToHex(a) << " vs " << common::ToHex(b);
  }
}

TEST(ValueCompareTest, DoubleMatchesAModelOfJavaCompare) {
  testing::RandomValues random(9);
  auto java_compare = [](double x, double y) {
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) ? (std::isnan(y) ? 0 : 1) : -1;
    if (x < y) return -1;
    if (x > y) return 1;
    const bool x_negative = std::signbit(x);
    const bool y_negative = std::signbit(y);
    return x_negative == y_negative ? 0 : (x_negative ? -1 : 1);
  };
  for (int i = 0; i < 20000; ++i) {
    const Bytes a = random.Value(CqlType::Double());
    const Bytes b = random.Value(CqlType::Double());
    const double x = std::bit_cast<double>(common::LoadBigEndian64(a.data()));
    const double y = std::bit_cast<double>(common::LoadBigEndian64(b.data()));
    ASSERT_EQ(CompareValues(CqlType::Double(), a, b), java_compare(x, y)) << x << " vs " << y;
  }
}

}  // namespace
}  // namespace cql
