#include "cql/types/value_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace cql {
namespace {

using common::Bytes;
using common::FromHex;
using common::ToHex;

Bytes Hex(std::string_view hex) { return *FromHex(hex); }

std::string ValidationError(const CqlType& type, std::string_view bytes) {
  common::Status status = ValidateValue(type, bytes);
  EXPECT_FALSE(status.ok()) << type.ToCql() << " " << ToHex(bytes);
  return status.message();
}

void ExpectValid(const CqlType& type, std::string_view bytes) {
  common::Status status = ValidateValue(type, bytes);
  EXPECT_TRUE(status.ok()) << type.ToCql() << " " << ToHex(bytes) << ": " << status.ToString();
}

CqlType Address() {
  return CqlType::Udt("ks", "address", {"street", "city", "zip"},
                      {CqlType::Text(), CqlType::Text(), CqlType::Int()}, /*frozen=*/true);
}

TEST(ValueCodecTest, NativeSerializationVectors) {
  EXPECT_EQ(ToHex(SerializeBoolean(true)), "01");
  EXPECT_EQ(ToHex(SerializeBoolean(false)), "00");
  EXPECT_EQ(ToHex(SerializeTinyint(-128)), "80");
  EXPECT_EQ(ToHex(SerializeTinyint(127)), "7f");
  EXPECT_EQ(ToHex(SerializeSmallint(-2)), "fffe");
  EXPECT_EQ(ToHex(SerializeSmallint(INT16_MIN)), "8000");
  EXPECT_EQ(ToHex(SerializeInt(1)), "00000001");
  EXPECT_EQ(ToHex(SerializeInt(-1)), "ffffffff");
  EXPECT_EQ(ToHex(SerializeInt(INT32_MIN)), "80000000");
  EXPECT_EQ(ToHex(SerializeBigint(1)), "0000000000000001");
  EXPECT_EQ(ToHex(SerializeBigint(INT64_MAX)), "7fffffffffffffff");
  EXPECT_EQ(ToHex(SerializeFloat(1.0f)), "3f800000");
  EXPECT_EQ(ToHex(SerializeFloat(1.1f)), "3f8ccccd");
  EXPECT_EQ(ToHex(SerializeFloat(-0.0f)), "80000000");
  EXPECT_EQ(ToHex(SerializeFloat(std::numeric_limits<float>::quiet_NaN())), "7fc00000");
  EXPECT_EQ(ToHex(SerializeDouble(1.5)), "3ff8000000000000");
  EXPECT_EQ(ToHex(SerializeDouble(0.1)), "3fb999999999999a");
  EXPECT_EQ(ToHex(SerializeDouble(-0.0)), "8000000000000000");
  EXPECT_EQ(ToHex(SerializeDouble(-std::numeric_limits<double>::infinity())), "fff0000000000000");
  EXPECT_EQ(ToHex(SerializeVarint(-129)), "ff7f");
  EXPECT_EQ(ToHex(SerializeVarint(0)), "00");
  EXPECT_EQ(ToHex(SerializeDecimal(15, 1)), "000000010f");
  EXPECT_EQ(ToHex(SerializeDecimal(-1, -3)), "fffffffdff");
  EXPECT_EQ(ToHex(SerializeDate(kDateEpoch)), "80000000");
  EXPECT_EQ(ToHex(SerializeDate(0)), "00000000");
  EXPECT_EQ(ToHex(SerializeTime(1)), "0000000000000001");
  EXPECT_EQ(ToHex(SerializeTimestamp(1430659854234)), "0000014d19f8ef9a");
  EXPECT_EQ(ToHex(SerializeTimestamp(-1)), "ffffffffffffffff");
}

TEST(ValueCodecTest, DurationVectors) {
  // Three zig-zag [vint]s; 1h30m = 5400 * 10^9 ns, zig-zagged to 10800 * 10^9, a 7-byte vint.
  EXPECT_EQ(ToHex(SerializeDuration({0, 0, int64_t{5400} * 1000000000})), "0000fc09d29229e000");
  EXPECT_EQ(ToHex(SerializeDuration({14, 25, 18367008009010})), "1c32fc2168cdf9d664");
  EXPECT_EQ(ToHex(SerializeDuration({-1, -2, -3})), "010305");
  EXPECT_EQ(ToHex(SerializeDuration({0, 0, INT64_MIN})), "0000ffffffffffffffffff");
  EXPECT_EQ(ToHex(SerializeDuration({INT32_MAX, 0, 0})), "f0fffffffe0000");
  EXPECT_EQ(ToHex(SerializeDuration({0, 0, 63})), "00007e");
  EXPECT_EQ(ToHex(SerializeDuration({0, 0, 64})), "00008080");
  EXPECT_EQ(ToHex(SerializeDuration({0, 0, -64})), "00007f");
  EXPECT_EQ(ToHex(SerializeDuration({0, 0, -65})), "00008081");
  std::mt19937_64 rng(11);
  for (int i = 0; i < 5000; ++i) {
    int64_t sign = rng() % 2 ? 1 : -1;
    Duration d{static_cast<int32_t>(sign * static_cast<int64_t>(rng() >> 33)),
               static_cast<int32_t>(sign * static_cast<int64_t>(rng() >> 33)),
               sign * static_cast<int64_t>(rng() >> (1 + rng() % 63))};
    auto back = DeserializeDuration(SerializeDuration(d));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, d);
  }
}

TEST(ValueCodecTest, DeserializeDurationErrors) {
  EXPECT_EQ(DeserializeDuration(Hex("0203")).status().message(),
            "Not enough bytes to read a duration");
  EXPECT_EQ(DeserializeDuration(Hex("0000fc09")).status().message(),
            "Not enough bytes to read a duration");
  EXPECT_EQ(DeserializeDuration(Hex("00000000")).status().message(),
            "Unexpected extraneous bytes after duration value");
  EXPECT_EQ(DeserializeDuration(Hex("020104")).status().message(),
            "The duration months, days and nanoseconds must be all of the same sign (1, -1, 2)");
  // months = 2^31 does not fit 32 bits.
  EXPECT_EQ(DeserializeDuration(Hex("f1000000000000")).status().message(),
            "The duration months must be a 32 bits integer but was: 2147483648");
  EXPECT_EQ(DeserializeDuration(Hex("00f10000000000")).status().message(),
            "The duration days must be a 32 bits integer but was: 2147483648");
}

TEST(ValueCodecTest, NativeDeserialization) {
  EXPECT_EQ(*DeserializeBoolean(Hex("00")), false);
  EXPECT_EQ(*DeserializeBoolean(Hex("02")), true);
  EXPECT_EQ(*DeserializeTinyint(Hex("80")), -128);
  EXPECT_EQ(*DeserializeSmallint(Hex("fffe")), -2);
  EXPECT_EQ(*DeserializeInt(Hex("80000000")), INT32_MIN);
  EXPECT_EQ(*DeserializeBigint(Hex("ffffffffffffffff")), -1);
  EXPECT_EQ(*DeserializeFloat(Hex("3f800000")), 1.0f);
  EXPECT_TRUE(std::signbit(*DeserializeDouble(Hex("8000000000000000"))));
  EXPECT_FALSE(DeserializeInt(Hex("000001")).ok());
  EXPECT_FALSE(DeserializeInt("").ok());
  EXPECT_FALSE(DeserializeBigint(Hex("00")).ok());
  EXPECT_FALSE(DeserializeBoolean("").ok());
}

TEST(ValueCodecTest, FixedValueLength) {
  EXPECT_EQ(FixedValueLength(CqlType::Boolean()), 1);
  EXPECT_EQ(FixedValueLength(CqlType::Int()), 4);
  EXPECT_EQ(FixedValueLength(CqlType::Float()), 4);
  EXPECT_EQ(FixedValueLength(CqlType::Bigint()), 8);
  EXPECT_EQ(FixedValueLength(CqlType::Double()), 8);
  EXPECT_EQ(FixedValueLength(CqlType::Timestamp()), 8);
  EXPECT_EQ(FixedValueLength(CqlType::Uuid()), 16);
  EXPECT_EQ(FixedValueLength(CqlType::Timeuuid()), 16);
  EXPECT_EQ(FixedValueLength(CqlType::Vector(CqlType::Float(), 3)), 12);
  EXPECT_EQ(FixedValueLength(CqlType::Vector(CqlType::Vector(CqlType::Int(), 2), 3)), 24);
  for (const CqlType& variable :
       {CqlType::Smallint(), CqlType::Tinyint(), CqlType::Text(), CqlType::Blob(),
        CqlType::Varint(), CqlType::Decimal(), CqlType::Inet(), CqlType::Duration(),
        CqlType::Counter(), CqlType::Date(), CqlType::Time(), CqlType::List(CqlType::Int()),
        CqlType::Tuple({CqlType::Int()}), CqlType::Vector(CqlType::Text(), 2)}) {
    EXPECT_EQ(FixedValueLength(variable), -1) << variable.ToCql();
  }
}

TEST(ValueCodecTest, ListKeepsOrder) {
  Bytes list = SerializeCollection(CqlType::List(CqlType::Int()),
                                   {SerializeInt(3), SerializeInt(1), SerializeInt(3)});
  EXPECT_EQ(ToHex(list),
            "00000003"
            "00000004"
            "00000003"
            "00000004"
            "00000001"
            "00000004"
            "00000003");
  EXPECT_EQ(ToHex(SerializeCollection(CqlType::List(CqlType::Int()), {})), "00000000");
}

TEST(ValueCodecTest, SetIsSortedAndDeduplicated) {
  Bytes set = SerializeCollection(
      CqlType::Set(CqlType::Int()),
      {SerializeInt(3), SerializeInt(-1), SerializeInt(2), SerializeInt(3), SerializeInt(-1)});
  EXPECT_EQ(ToHex(set),
            "00000003"
            "00000004"
            "ffffffff"
            "00000004"
            "00000002"
            "00000004"
            "00000003");
  Bytes texts = SerializeCollection(CqlType::Set(CqlType::Text(), true), {"b", "ab", "a", "b"});
  EXPECT_EQ(ToHex(texts),
            "00000003"
            "00000001"
            "61"
            "00000002"
            "6162"
            "00000001"
            "62");
  // Decimals equal by value are one element (1.0 == 1.00).
  Bytes decimals = SerializeCollection(CqlType::Set(CqlType::Decimal()),
                                       {SerializeDecimal(100, 2), SerializeDecimal(10, 1)});
  EXPECT_EQ(SplitListOrSet(CqlType::Set(CqlType::Decimal()), decimals)->size(), 1u);
}

TEST(ValueCodecTest, MapIsSortedByKeyAndLastDuplicateWins) {
  CqlType type = CqlType::Map(CqlType::Text(), CqlType::Int());
  Bytes map = SerializeMap(
      type, {{"k2", SerializeInt(2)}, {"k1", SerializeInt(1)}, {"k2", SerializeInt(20)}});
  EXPECT_EQ(ToHex(map),
            "00000002"
            "00000002"
            "6b31"
            "00000004"
            "00000001"
            "00000002"
            "6b32"
            "00000004"
            "00000014");
  auto entries = SplitMap(map);
  ASSERT_TRUE(entries.ok());
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[1].key, "k2");
  EXPECT_EQ((*entries)[1].value, SerializeInt(20));
  // Equal keys with different bytes: the first key stays, the last value wins.
  CqlType decimals = CqlType::Map(CqlType::Decimal(), CqlType::Int());
  Bytes merged_map = SerializeMap(decimals, {{SerializeDecimal(10, 1), SerializeInt(1)},
                                             {SerializeDecimal(100, 2), SerializeInt(2)}});
  auto merged = SplitMap(merged_map);
  ASSERT_TRUE(merged.ok());
  ASSERT_EQ(merged->size(), 1u);
  EXPECT_EQ((*merged)[0].key, SerializeDecimal(10, 1));
  EXPECT_EQ((*merged)[0].value, SerializeInt(2));
}

TEST(ValueCodecTest, TupleAndUdtFields) {
  Bytes tuple = SerializeTupleOrUdt({SerializeInt(1), std::nullopt, Bytes("a")});
  EXPECT_EQ(ToHex(tuple),
            "00000004"
            "00000001"
            "ffffffff"
            "00000001"
            "61");
  auto fields = SplitTupleOrUdt(tuple, 3);
  ASSERT_TRUE(fields.ok());
  ASSERT_EQ(fields->size(), 3u);
  EXPECT_EQ(*(*fields)[0], SerializeInt(1));
  EXPECT_FALSE((*fields)[1].has_value());
  EXPECT_EQ(*(*fields)[2], "a");
  // Trailing fields may be absent.
  EXPECT_EQ(SplitTupleOrUdt(Hex("0000000400000001"), 3)->size(), 1u);
  EXPECT_TRUE(SplitTupleOrUdt("", 3)->empty());
  EXPECT_FALSE(SplitTupleOrUdt(tuple, 2).ok());
  EXPECT_FALSE(SplitTupleOrUdt(Hex("00000004000000"), 3).ok());
  EXPECT_FALSE(SplitTupleOrUdt(Hex("000000"), 3).ok());
}

TEST(ValueCodecTest, Vectors) {
  CqlType floats = CqlType::Vector(CqlType::Float(), 2);
  auto fixed = SerializeVector(floats, {SerializeFloat(1.0f), SerializeFloat(2.0f)});
  ASSERT_TRUE(fixed.ok());
  EXPECT_EQ(ToHex(*fixed),
            "3f800000"
            "40000000");
  CqlType texts = CqlType::Vector(CqlType::Text(), 2);
  auto variable = SerializeVector(texts, {Bytes("a"), Bytes(200, 'x')});
  ASSERT_TRUE(variable.ok());
  EXPECT_EQ(ToHex(variable->substr(0, 4)),
            "0161"
            "80c8");  // [unsigned vint] lengths
  EXPECT_EQ(variable->size(), 2u + 2u + 200u);
  auto split = SplitVector(texts, *variable);
  ASSERT_TRUE(split.ok());
  EXPECT_EQ((*split)[1], Bytes(200, 'x'));
  EXPECT_FALSE(SerializeVector(floats, {SerializeFloat(1.0f)}).ok());
  EXPECT_FALSE(SerializeVector(floats, {SerializeFloat(1.0f), SerializeDouble(2.0)}).ok());
  EXPECT_EQ(SplitVector(floats, Hex("3f800000")).status().message(),
            "Not enough bytes to read a vector<float, 2>");
  EXPECT_EQ(SplitVector(floats, Hex("3f80000040000000ffffffff")).status().message(),
            "Unexpected 4 extraneous bytes after vector<float, 2> value");
  EXPECT_EQ(SplitVector(texts, Hex("0161")).status().message(),
            "Not enough bytes to read a vector<text, 2>");
  EXPECT_EQ(SplitVector(texts, Hex("01610162ff")).status().message(),
            "Unexpected 1 extraneous bytes after vector<text, 2> value");
  EXPECT_EQ(SplitVector(texts, Hex("0161ff")).status().message(),
            "Not enough bytes to read a vector<text, 2>");
}

TEST(ValueCodecTest, SplitRejectsBadFraming) {
  CqlType list = CqlType::List(CqlType::Int());
  CqlType set = CqlType::Set(CqlType::Int());
  EXPECT_TRUE(SplitListOrSet(list, "")->empty());
  EXPECT_EQ(SplitListOrSet(list, Hex("000000")).status().message(),
            "Not enough bytes to read a list");
  EXPECT_EQ(SplitListOrSet(set, Hex("7fffffff00000001")).status().message(),
            "Not enough bytes to read a set");
  EXPECT_EQ(SplitListOrSet(list, Hex("ffffffff")).status().message(),
            "The data cannot be deserialized as a list");
  EXPECT_EQ(SplitListOrSet(list, Hex("00000001"
                                     "ffffffff"))
                .status()
                .message(),
            "null is not supported inside collections");
  EXPECT_EQ(SplitListOrSet(list, Hex("00000001"
                                     "7fffffff"
                                     "00"))
                .status()
                .message(),
            "Not enough bytes to read a list");
  EXPECT_EQ(SplitListOrSet(list, Hex("00000000"
                                     "00"))
                .status()
                .message(),
            "Unexpected extraneous bytes after list value");
  EXPECT_EQ(SplitMap(Hex("00000001"
                         "00000000"))
                .status()
                .message(),
            "Not enough bytes to read a map");
  EXPECT_EQ(SplitMap(Hex("00000000"
                         "01"))
                .status()
                .message(),
            "Unexpected extraneous bytes after map value");
  EXPECT_EQ(SplitMap(Hex("80000000")).status().message(),
            "The data cannot be deserialized as a map");
}

TEST(ValueCodecTest, ValidateNativeSizes) {
  struct Case {
    CqlType type;
    std::string hex;
    std::string error;  // empty = valid
  };
  std::vector<Case> cases = {
      {CqlType::Int(), "00000001", ""},
      {CqlType::Int(), "", ""},
      {CqlType::Int(), "000001", "Expected 4 or 0 byte int (3)"},
      {CqlType::Bigint(), "0000000000000001", ""},
      {CqlType::Bigint(), "00", "Expected 8 or 0 byte long (1)"},
      {CqlType::Counter(), "0000", "Expected 8 or 0 byte long (2)"},
      {CqlType::Smallint(), "0001", ""},
      {CqlType::Smallint(), "", "Expected 2 bytes for a smallint (0)"},
      {CqlType::Smallint(), "000001", "Expected 2 bytes for a smallint (3)"},
      {CqlType::Tinyint(), "01", ""},
      {CqlType::Tinyint(), "", "Expected 1 byte for a tinyint (0)"},
      {CqlType::Tinyint(), "0001", "Expected 1 byte for a tinyint (2)"},
      {CqlType::Boolean(), "", ""},
      {CqlType::Boolean(), "0101", "Expected 1 or 0 byte value (2)"},
      {CqlType::Float(), "00", "Expected 4 or 0 byte value for a float (1)"},
      {CqlType::Double(), "00000000", "Expected 8 or 0 byte value for a double (4)"},
      {CqlType::Decimal(), "", ""},
      {CqlType::Decimal(), "00000000", ""},
      {CqlType::Decimal(), "000000", "Expected 0 or at least 4 bytes (3)"},
      {CqlType::Varint(), "", ""},
      {CqlType::Varint(), "0000ffff", ""},
      {CqlType::Uuid(), "", ""},
      {CqlType::Uuid(), "00112233445566778899aabbccddeeff", ""},
      {CqlType::Uuid(), "0011", "UUID should be 16 or 0 bytes (2)"},
      {CqlType::Timeuuid(), "00112233445511778899aabbccddeeff", ""},
      {CqlType::Timeuuid(), "00112233445541778899aabbccddeeff",
       "Invalid version for TimeUUID type."},
      {CqlType::Inet(), "7f000001", ""},
      {CqlType::Inet(), "00000000000000000000000000000001", ""},
      {CqlType::Inet(), "7f0000", "Expected 4 or 16 byte inetaddress; got 7f0000"},
      {CqlType::Date(), "80000000", ""},
      {CqlType::Date(), "", "Expected 4 byte long for date (0)"},
      {CqlType::Time(), "0000000000000001", ""},
      {CqlType::Time(), "", "Expected 8 byte long for time (0)"},
      {CqlType::Timestamp(), "", ""},
      {CqlType::Timestamp(), "0000", "Expected 8 or 0 byte long for date (2)"},
      {CqlType::Duration(), "000000", ""},
      {CqlType::Duration(), "", "Expected at least 3 bytes for a duration (0)"},
      {CqlType::Duration(), "0000", "Expected at least 3 bytes for a duration (2)"},
      {CqlType::Duration(), "020104",
       "The duration months, days and nanoseconds must be all of the same sign (1, -1, 2)"},
      {CqlType::Blob(), "", ""},
      {CqlType::Blob(), "00ff", ""},
      {CqlType::Custom("org.apache.cassandra.db.marshal.BytesType"), "01", ""},
  };
  for (const Case& c : cases) {
    Bytes bytes = Hex(c.hex);
    if (c.error.empty()) {
      ExpectValid(c.type, bytes);
    } else {
      EXPECT_EQ(ValidationError(c.type, bytes), c.error) << c.type.ToCql() << " " << c.hex;
    }
  }
}

TEST(ValueCodecTest, ValidateText) {
  ExpectValid(CqlType::Ascii(), "plain ascii \x01\x7f");
  ExpectValid(CqlType::Ascii(), std::string("\0", 1));
  EXPECT_EQ(ValidationError(CqlType::Ascii(), "caf\xC3\xA9"), "Invalid byte for ascii: -61");
  EXPECT_EQ(ValidationError(CqlType::Ascii(), "\xFF"), "Invalid byte for ascii: -1");
  for (std::string_view good :
       {std::string_view(""), std::string_view("caf\xC3\xA9"), std::string_view("\xE2\x82\xAC"),
        std::string_view("\xF0\x9F\x98\x80"), std::string_view("a\0b", 3),
        std::string_view("\xC0\x80"), std::string_view("\xED\xA0\x80")}) {
    ExpectValid(CqlType::Text(), good);
  }
  for (std::string_view bad : {"\xC3", "\xC3\x28", "\x80", "\xC1\xBF", "\xE0\x80\x80", "\xE2\x82",
                               "\xF0\x8F\xBF\xBF", "\xF8\x88\x80\x80\x80", "\xFF", "ok\xE2\x82"}) {
    EXPECT_EQ(ValidationError(CqlType::Text(), bad), "String didn't validate.") << ToHex(bad);
  }
}

TEST(ValueCodecTest, ValidateCollections) {
  CqlType list = CqlType::List(CqlType::Int());
  ExpectValid(list, SerializeCollection(list, {SerializeInt(1), SerializeInt(2)}));
  ExpectValid(list, SerializeCollection(list, {}));
  EXPECT_EQ(ValidationError(list, ""), "Not enough bytes to read a list");
  EXPECT_EQ(ValidationError(list, Hex("00000001"
                                      "00000003"
                                      "000001")),
            "Expected 4 or 0 byte int (3)");
  CqlType set = CqlType::Set(CqlType::Text());
  ExpectValid(set, "");
  EXPECT_EQ(ValidationError(set, Hex("00000001"
                                     "00000001"
                                     "ff")),
            "String didn't validate.");
  CqlType map = CqlType::Map(CqlType::Ascii(), CqlType::Bigint());
  ExpectValid(map, "");
  ExpectValid(map, SerializeMap(map, {{"a", SerializeBigint(1)}}));
  EXPECT_EQ(ValidationError(map, SerializeMap(map, {{"\xC3\xA9", SerializeBigint(1)}})),
            "Invalid byte for ascii: -61");
  EXPECT_EQ(ValidationError(map, SerializeMap(map, {{"a", SerializeInt(1)}})),
            "Expected 8 or 0 byte long (4)");
  // Nested frozen collections.
  CqlType nested = CqlType::Map(CqlType::Text(), CqlType::List(CqlType::Int(), true), true);
  Bytes inner = SerializeCollection(CqlType::List(CqlType::Int()), {SerializeInt(7)});
  ExpectValid(nested, SerializeMap(nested, {{"k", inner}}));
  EXPECT_EQ(ValidationError(nested, SerializeMap(nested, {{"k", inner.substr(0, 9)}})),
            "Not enough bytes to read a list");
}

TEST(ValueCodecTest, ValidateTuplesAndUdts) {
  CqlType tuple = CqlType::Tuple({CqlType::Int(), CqlType::Text()});
  ExpectValid(tuple, SerializeTupleOrUdt({SerializeInt(1), Bytes("a")}));
  ExpectValid(tuple, SerializeTupleOrUdt({std::nullopt, std::nullopt}));
  ExpectValid(tuple, SerializeTupleOrUdt({SerializeInt(1)}));
  ExpectValid(tuple, "");
  EXPECT_EQ(ValidationError(tuple, Hex("000000")),
            "Not enough bytes to read size of 0th component");
  EXPECT_EQ(ValidationError(tuple, Hex("00000004"
                                       "00000001"
                                       "00000005"
                                       "61")),
            "Not enough bytes to read 1th component");
  EXPECT_EQ(ValidationError(tuple, SerializeTupleOrUdt({SerializeInt(1), Bytes("a"), Bytes("b")})),
            "Invalid remaining data after end of tuple value");
  EXPECT_EQ(ValidationError(tuple, SerializeTupleOrUdt({Bytes("abc")})),
            "Expected 4 or 0 byte int (3)");

  CqlType address = Address();
  ExpectValid(address, SerializeTupleOrUdt({Bytes("1 Main"), std::nullopt, SerializeInt(12345)}));
  ExpectValid(address, SerializeTupleOrUdt({Bytes("1 Main")}));
  EXPECT_EQ(
      ValidationError(address, SerializeTupleOrUdt({Bytes("1 Main"), Bytes("x"), Bytes("1")})),
      "Expected 4 or 0 byte int (1)");
  // Cassandra's field counter skips null fields.
  EXPECT_EQ(ValidationError(address, Hex("ffffffff"
                                         "000000")),
            "Not enough bytes to read size of 0th field city");
  EXPECT_EQ(ValidationError(address, Hex("00000001"
                                         "61"
                                         "00000009"
                                         "62")),
            "Not enough bytes to read 1th field city");
  EXPECT_EQ(ValidationError(address, SerializeTupleOrUdt({Bytes("a"), Bytes("b"), SerializeInt(1),
                                                          Bytes("extra")})),
            "Invalid remaining data after end of UDT value");
  EXPECT_EQ(ValidateValue(CqlType::UdtRef("", "address"), "").code(),
            common::StatusCode::kInternal);
}

TEST(ValueCodecTest, ValidateVectors) {
  CqlType ints = CqlType::Vector(CqlType::Int(), 2);
  ExpectValid(ints, *SerializeVector(ints, {SerializeInt(1), SerializeInt(2)}));
  EXPECT_EQ(ValidationError(ints, ""), "Invalid empty vector value");
  EXPECT_EQ(ValidationError(ints, SerializeInt(1)), "Not enough bytes to read a vector<int, 2>");
  EXPECT_EQ(ValidationError(ints, SerializeInt(1) + SerializeInt(2) + SerializeInt(3)),
            "Unexpected 4 extraneous bytes after vector<int, 2> value");
  CqlType texts = CqlType::Vector(CqlType::Text(), 2);
  ExpectValid(texts, *SerializeVector(texts, {Bytes("a"), Bytes("")}));
  EXPECT_EQ(ValidationError(texts, *SerializeVector(texts, {Bytes("a"), Bytes("\xFF")})),
            "String didn't validate.");
  CqlType smallints = CqlType::Vector(CqlType::Smallint(), 1);
  EXPECT_EQ(ValidationError(smallints, Hex("0100")), "Expected 2 bytes for a smallint (1)");
}

TEST(ValueCodecTest, ValidateCapsNesting) {
  CqlType type = CqlType::Int();
  Bytes value = SerializeInt(1);
  for (int i = 0; i < 300; ++i) {
    type = CqlType::List(type, true);
    value = SerializeCollection(type, {value});
  }
  common::Status status = ValidateValue(type, value);
  EXPECT_EQ(status.code(), common::StatusCode::kInvalid);
  EXPECT_EQ(status.message(), "Value nesting exceeds 256 levels");
  // 100 levels are fine.
  CqlType shallow = CqlType::Int();
  Bytes shallow_value = SerializeInt(1);
  for (int i = 0; i < 100; ++i) {
    shallow = CqlType::List(shallow, true);
    shallow_value = SerializeCollection(shallow, {shallow_value});
  }
  ExpectValid(shallow, shallow_value);
}

// Random bytes against many types: validation and splitting must never read out of bounds or
// crash (ASan and UBSan check), whatever the bytes claim.
TEST(ValueCodecTest, ValidateSurvivesRandomBytes) {
  std::vector<CqlType> types = {
      CqlType::Int(),
      CqlType::Text(),
      CqlType::Duration(),
      CqlType::Decimal(),
      CqlType::List(CqlType::Int()),
      CqlType::Set(CqlType::Text()),
      CqlType::Map(CqlType::Int(), CqlType::List(CqlType::Text(), true)),
      CqlType::Tuple({CqlType::Int(), CqlType::Map(CqlType::Text(), CqlType::Blob(), true)}),
      Address(),
      CqlType::Vector(CqlType::Float(), 3),
      CqlType::Vector(CqlType::Text(), 3),
  };
  std::mt19937_64 rng(424242);
  int valid = 0;
  for (int i = 0; i < 20000; ++i) {
    Bytes bytes(rng() % 40, '\0');
    for (char& c : bytes) {
      // Bias towards small lengths and counts so that framing sometimes parses.
      uint64_t r = rng() % 4;
      c = static_cast<char>(r == 0 ? 0 : r == 1 ? rng() % 8 : r == 2 ? 0xFF : rng());
    }
    const CqlType& type = types[rng() % types.size()];
    if (ValidateValue(type, bytes).ok()) ++valid;
    if (type.kind() == TypeKind::kList || type.kind() == TypeKind::kSet) {
      (void)SplitListOrSet(type, bytes);
    }
    (void)SplitMap(bytes);
    (void)SplitTupleOrUdt(bytes, 3);
  }
  EXPECT_GT(valid, 0);
}

}  // namespace
}  // namespace cql
