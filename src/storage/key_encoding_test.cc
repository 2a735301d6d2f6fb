#include "storage/key_encoding.h"

#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "cql/types/random_values_testing.h"
#include "cql/types/value_compare.h"

namespace storage {
namespace {

using common::Bytes;
using cql::CompareBytes;
using cql::CompareValues;
using cql::CqlType;
using cql::TrimVarint;
using cql::testing::RandomValues;
using cql::testing::SerializeBigint;
using cql::testing::SerializeCollection;
using cql::testing::SerializeDecimal;
using cql::testing::SerializeInt;
using cql::testing::SerializeTuple;
using cql::testing::SerializeVarint;

Bytes Hex(std::string_view hex) { return common::FromHex(hex).value(); }

Bytes Encode(const CqlType& type, std::string_view value, bool descending = false) {
  Bytes out;
  AppendKeyComponent(type, value, descending, &out);
  return out;
}

std::string EncodeHex(const CqlType& type, std::string_view value, bool descending = false) {
  return common::ToHex(Encode(type, value, descending));
}

int Sign(int v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

// Decodes `key` completely as one component and returns the value (failing the test otherwise).
Bytes DecodeAll(const CqlType& type, const Bytes& key, bool descending) {
  std::string_view in = key;
  auto value = ReadKeyComponent(type, descending, &in);
  EXPECT_TRUE(value.ok()) << type.ToCql() << " " << common::ToHex(key) << ": "
                          << value.status().ToString();
  EXPECT_TRUE(in.empty()) << type.ToCql() << " left " << in.size() << " bytes";
  return value.ok() ? *value : Bytes();
}

// --- The byte format, pinned: it is the on-disk format. ---

TEST(KeyEncodingTest, DocumentedFormatOfNativeTypes) {
  EXPECT_EQ(EncodeHex(CqlType::Int(), SerializeInt(1)), "0380000001");
  EXPECT_EQ(EncodeHex(CqlType::Int(), SerializeInt(-1)), "037fffffff");
  EXPECT_EQ(EncodeHex(CqlType::Int(), SerializeInt(1), true), "fc7ffffffe");
  EXPECT_EQ(EncodeHex(CqlType::Int(), ""), "02");
  EXPECT_EQ(EncodeHex(CqlType::Int(), "", true), "fd");
  EXPECT_EQ(EncodeHex(CqlType::Int(), Hex("010203")), "040102030000");  // malformed
  EXPECT_EQ(EncodeHex(CqlType::Bigint(), SerializeBigint(0)), "038000000000000000");
  EXPECT_EQ(EncodeHex(CqlType::Tinyint(), Hex("80")), "0300");
  EXPECT_EQ(EncodeHex(CqlType::Text(), Bytes("a\0b", 3)), "036100ff620000");
  EXPECT_EQ(EncodeHex(CqlType::Blob(), Hex("ff")), "03ff0000");
  EXPECT_EQ(EncodeHex(CqlType::Boolean(), Hex("00")), "0300");
  EXPECT_EQ(EncodeHex(CqlType::Boolean(), Hex("07")), "0301");
  EXPECT_EQ(EncodeHex(CqlType::Date(), Hex("80000000")), "0380000000");
  EXPECT_EQ(EncodeHex(CqlType::Double(), Hex("3ff0000000000000")), "03bff0000000000000");
  EXPECT_EQ(EncodeHex(CqlType::Double(), Hex("bff0000000000000")), "03400fffffffffffff");
  EXPECT_EQ(EncodeHex(CqlType::Double(), Hex("fff8000000000123")), "03fff8000000000000");  // NaN
  EXPECT_EQ(EncodeHex(CqlType::Float(), Hex("00000000")), "0380000000");
  EXPECT_EQ(EncodeHex(CqlType::Float(), Hex("80000000")), "037fffffff");
  EXPECT_EQ(EncodeHex(CqlType::Uuid(), Hex("5d5e4a587b7c4b0e9d2f3e1a6b1c0f42")),
            "0345d5e4a587b7cb0e9d2f3e1a6b1c0f42");
  EXPECT_EQ(EncodeHex(CqlType::Uuid(), Hex("50554d6e29bb11e5b345feff819cdc9f")),
            "0311e529bb50554d6eb345feff819cdc9f");
  EXPECT_EQ(EncodeHex(CqlType::Timeuuid(), Hex("50554d6e29bb11e5b345feff819cdc9f")),
            "0391e529bb50554d6e33c57e7f011c5c1f");
}

TEST(KeyEncodingTest, DocumentedFormatOfVarintsAndDecimals) {
  const CqlType varint = CqlType::Varint();
  EXPECT_EQ(EncodeHex(varint, Hex("00")), "0302");
  EXPECT_EQ(EncodeHex(varint, Hex("01")), "03030101");
  EXPECT_EQ(EncodeHex(varint, Hex("ff")), "0301feff");
  EXPECT_EQ(EncodeHex(varint, Hex("0080")), "0303020080");
  EXPECT_EQ(EncodeHex(varint, Hex("ff7f")), "0301fdff7f");
  EXPECT_EQ(EncodeHex(varint, Hex("000001")), "03030101");  // minimal form
  const Bytes long_varint = "\x01" + Bytes(199, '\x00');
  EXPECT_EQ(EncodeHex(varint, long_varint), "030381c8" + common::ToHex(long_varint));
  const CqlType decimal = CqlType::Decimal();
  // 1.50: digits "15", exponent 1; recovery: scale 2.
  EXPECT_EQ(EncodeHex(decimal, SerializeDecimal(2, Hex("0096"))), "0303030101100000000002");
  // -1.5: the magnitude part inverted.
  EXPECT_EQ(EncodeHex(decimal, SerializeDecimal(1, Hex("f1"))), "0301fcfefeefff00000001");
  // 0.000 and 0E+5: zero, then the scale.
  EXPECT_EQ(EncodeHex(decimal, SerializeDecimal(3, Hex("00"))), "030200000003");
  EXPECT_EQ(EncodeHex(decimal, SerializeDecimal(-5, Hex("00"))), "0302fffffffb");
  // 123 (scale 0): digits "123" -> pairs 12, 30 -> 0x0d, 0x1f; exponent 3.
  EXPECT_EQ(EncodeHex(decimal, SerializeDecimal(0, Hex("7b"))), "03030301030d1f0000000000");
}

TEST(KeyEncodingTest, DocumentedFormatOfCompositeTypes) {
  std::optional<Bytes> null;
  EXPECT_EQ(EncodeHex(CqlType::List(CqlType::Int(), true),
                      SerializeCollection({SerializeInt(1), null, Bytes()}, 3)),
            "0303800000010102"
            "00");
  EXPECT_EQ(EncodeHex(CqlType::List(CqlType::Int(), true), SerializeCollection({}, 0)), "0300");
  EXPECT_EQ(EncodeHex(CqlType::Map(CqlType::Int(), CqlType::Text(), true),
                      SerializeCollection({SerializeInt(1), Bytes("a")}, 1)),
            "0303800000010361000000");
  const CqlType tuple = CqlType::Tuple({CqlType::Int(), CqlType::Int(), CqlType::Int()});
  EXPECT_EQ(EncodeHex(tuple, SerializeTuple({SerializeInt(1), null, null})),
            "03038000000100"
            "02");
  EXPECT_EQ(EncodeHex(tuple, SerializeTuple({SerializeInt(1)})),
            "03038000000100"
            "00");
  EXPECT_EQ(EncodeHex(tuple, SerializeTuple({null, SerializeInt(1)})),
            "0301038000000100"
            "00");
  // A decimal inside a tuple: its scale goes to the recovery part, before the tuple's count.
  const CqlType with_decimal = CqlType::Tuple({CqlType::Decimal(), CqlType::Int()});
  EXPECT_EQ(EncodeHex(with_decimal, SerializeTuple({SerializeDecimal(0, Hex("00")), null})),
            "03"
            "0302"
            "00"
            "00000000"
            "01");
  EXPECT_EQ(EncodeHex(CqlType::Vector(CqlType::Int(), 2), SerializeInt(1) + SerializeInt(2)),
            "03038000000103"
            "80000002");
}

TEST(KeyEncodingTest, TokensSortSigned) {
  EXPECT_EQ(common::ToHex(EncodeToken(0)), "8000000000000000");
  EXPECT_EQ(common::ToHex(EncodeToken(-1)), "7fffffffffffffff");
  EXPECT_EQ(common::ToHex(EncodeToken(std::numeric_limits<int64_t>::min())), "0000000000000000");
  EXPECT_EQ(common::ToHex(EncodeToken(std::numeric_limits<int64_t>::max())), "ffffffffffffffff");
  RandomValues random(1);
  for (int i = 0; i < 5000; ++i) {
    const auto a = static_cast<int64_t>(random.Bits());
    const auto b = static_cast<int64_t>(random.OneIn(4) ? random.Bits() >> 40 : random.Bits());
    EXPECT_EQ(Sign(CompareBytes(EncodeToken(a), EncodeToken(b))), a < b ? -1 : (a > b ? 1 : 0));
    EXPECT_EQ(DecodeToken(EncodeToken(a) + "rest").value(), a);
  }
  EXPECT_FALSE(DecodeToken("1234567").ok());
}

// --- Properties. ---

// Checks memcmp order against CompareValues for one pair in both directions, and the exact
// round trip of canonical values.
void CheckPair(const CqlType& type, const Bytes& a, const Bytes& b, bool canonical) {
  const int c = CompareValues(type, a, b);
  for (bool descending : {false, true}) {
    const Bytes ea = Encode(type, a, descending);
    const Bytes eb = Encode(type, b, descending);
    const int m = Sign(CompareBytes(ea, eb));
    if (c != 0) {
      ASSERT_EQ(m, descending ? -c : c)
          << type.ToCql() << (descending ? " DESC " : " ASC ") << common::ToHex(a) << " vs "
          << common::ToHex(b) << "\n  keys " << common::ToHex(ea) << " vs " << common::ToHex(eb);
    } else if (a == b) {
      ASSERT_EQ(ea, eb);
    }
    const Bytes da = DecodeAll(type, ea, descending);
    ASSERT_EQ(CompareValues(type, da, a), 0) << type.ToCql() << " " << common::ToHex(a);
    ASSERT_EQ(Encode(type, da, descending), ea) << type.ToCql() << " " << common::ToHex(a);
    if (canonical) {
      ASSERT_EQ(common::ToHex(da), common::ToHex(a)) << type.ToCql();
    }
  }
}

// A mix of well-formed, empty and (sometimes) malformed values of `type`.
Bytes AnyValue(RandomValues* random, const CqlType& type) {
  if (random->OneIn(20)) {
    std::optional<Bytes> malformed = random->Malformed(type);
    if (malformed.has_value()) return *malformed;
  }
  return random->ValueOrEmpty(type);
}

TEST(KeyEncodingTest, OrderAndRoundTripForEveryNativeType) {
  RandomValues random(424242);
  std::vector<CqlType> types = random.NativeKeyTypes();
  types.push_back(CqlType::Counter());
  types.push_back(CqlType::Duration());
  for (const CqlType& type : types) {
    SCOPED_TRACE(type.ToCql());
    std::vector<Bytes> pool;
    for (int i = 0; i < 3000; ++i) pool.push_back(AnyValue(&random, type));
    for (int i = 0; i < 3000; ++i) {
      const Bytes& a = pool[static_cast<size_t>(random.Uniform(0, 2999))];
      const Bytes& b = random.OneIn(2) ? pool[static_cast<size_t>(random.Uniform(0, 99))]
                                       : pool[static_cast<size_t>(random.Uniform(0, 2999))];
      CheckPair(type, a, b, /*canonical=*/true);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(KeyEncodingTest, OrderAndRoundTripForNestedTypes) {
  RandomValues random(77);
  for (int t = 0; t < 300; ++t) {
    const CqlType type = random.KeyType(3);
    SCOPED_TRACE(type.ToCql());
    std::vector<Bytes> pool;
    for (int i = 0; i < 20; ++i) pool.push_back(AnyValue(&random, type));
    for (const Bytes& a : pool) {
      for (int j = 0; j < 6; ++j) {
        CheckPair(type, a, pool[static_cast<size_t>(random.Uniform(0, 19))], /*canonical=*/true);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

TEST(KeyEncodingTest, NonCanonicalRepresentationsDecodeToEqualCanonicalValues) {
  RandomValues random(99, /*canonical_only=*/false);
  std::vector<CqlType> types = {CqlType::Boolean(), CqlType::Double(),
                                CqlType::Float(),   CqlType::Varint(),
                                CqlType::Decimal(), CqlType::List(CqlType::Varint(), true)};
  for (int t = 0; t < 50; ++t) types.push_back(random.KeyType(2));
  for (const CqlType& type : types) {
    SCOPED_TRACE(type.ToCql());
    for (int i = 0; i < 400; ++i) {
      CheckPair(type, AnyValue(&random, type), AnyValue(&random, type), /*canonical=*/false);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_EQ(
      common::ToHex(DecodeAll(CqlType::Boolean(), Encode(CqlType::Boolean(), Hex("02")), false)),
      "01");
  EXPECT_EQ(
      common::ToHex(DecodeAll(CqlType::Varint(), Encode(CqlType::Varint(), Hex("ff80")), false)),
      "80");
  EXPECT_EQ(common::ToHex(DecodeAll(
                CqlType::Double(), Encode(CqlType::Double(), Hex("fff0000000000001"), true), true)),
            "7ff8000000000000");
}

TEST(KeyEncodingTest, EqualValuesWithDifferentBytesKeepTheirBytesAndNestedOrder) {
  const CqlType decimal = CqlType::Decimal();
  const Bytes one = SerializeDecimal(0, Hex("01"));
  const Bytes one_point_zero = SerializeDecimal(1, Hex("0a"));
  ASSERT_EQ(CompareValues(decimal, one, one_point_zero), 0);
  EXPECT_NE(Encode(decimal, one), Encode(decimal, one_point_zero));
  EXPECT_EQ(DecodeAll(decimal, Encode(decimal, one_point_zero), false), one_point_zero);
  // [1.0, 5] > [1.00, 3] although the first elements' keys differ in their scales: the scales
  // live in the recovery part after the whole order part, so the second element decides.
  const CqlType list = CqlType::List(decimal, true);
  const Bytes five = SerializeDecimal(0, Hex("05"));
  const Bytes three = SerializeDecimal(0, Hex("03"));
  const Bytes a = SerializeCollection({one_point_zero, five}, 2);
  const Bytes b = SerializeCollection({SerializeDecimal(2, Hex("64")), three}, 2);
  ASSERT_GT(CompareValues(list, a, b), 0);
  EXPECT_GT(CompareBytes(Encode(list, a), Encode(list, b)), 0);
  EXPECT_LT(CompareBytes(Encode(list, a, true), Encode(list, b, true)), 0);
  // Likewise tuples differing only in trailing nulls, nested in a list.
  const CqlType tuple = CqlType::Tuple({CqlType::Int(), CqlType::Int()});
  const CqlType tuples = CqlType::List(tuple, true);
  std::optional<Bytes> null;
  const Bytes x = SerializeCollection(
      {SerializeTuple({SerializeInt(1), null}), SerializeTuple({SerializeInt(5)})}, 2);
  const Bytes y = SerializeCollection(
      {SerializeTuple({SerializeInt(1)}), SerializeTuple({SerializeInt(3)})}, 2);
  ASSERT_GT(CompareValues(tuples, x, y), 0);
  EXPECT_GT(CompareBytes(Encode(tuples, x), Encode(tuples, y)), 0);
  EXPECT_EQ(DecodeAll(tuples, Encode(tuples, x), false), x);
  EXPECT_EQ(DecodeAll(tuples, Encode(tuples, y, true), true), y);
}

TEST(KeyEncodingTest, ConcatenatedComponentsSortLikeTuples) {
  RandomValues random(5150);
  for (int t = 0; t < 300; ++t) {
    const int count = static_cast<int>(random.Uniform(2, 3));
    std::vector<CqlType> types;
    std::vector<bool> descending;
    for (int i = 0; i < count; ++i) {
      types.push_back(random.KeyType(random.OneIn(3) ? 2 : 0));
      descending.push_back(random.OneIn(2));
    }
    for (int pair = 0; pair < 40; ++pair) {
      std::vector<Bytes> a;
      std::vector<Bytes> b;
      Bytes key_a;
      Bytes key_b;
      for (int i = 0; i < count; ++i) {
        a.push_back(AnyValue(&random, types[i]));
        // Often share a prefix so that later components decide.
        b.push_back(random.OneIn(2) ? a.back() : AnyValue(&random, types[i]));
        AppendKeyComponent(types[i], a.back(), descending[i], &key_a);
        AppendKeyComponent(types[i], b.back(), descending[i], &key_b);
      }
      // The first component whose values differ in order, or (equal values) in encoding,
      // decides.
      int expected = 0;
      for (int i = 0; i < count && expected == 0; ++i) {
        const int c = CompareValues(types[i], a[i], b[i], descending[i]);
        if (c != 0) {
          expected = c;
        } else {
          expected = Sign(CompareBytes(Encode(types[i], a[i], descending[i]),
                                       Encode(types[i], b[i], descending[i])));
        }
      }
      ASSERT_EQ(Sign(CompareBytes(key_a, key_b)), expected);
      // And the key splits back into its components.
      std::string_view in = key_a;
      for (int i = 0; i < count; ++i) {
        auto value = ReadKeyComponent(types[i], descending[i], &in);
        ASSERT_TRUE(value.ok()) << value.status().ToString();
        ASSERT_EQ(*value, a[i]) << types[i].ToCql();
      }
      EXPECT_TRUE(in.empty());
    }
  }
}

TEST(KeyEncodingTest, LongStringsWithZeroAndFfBytes) {
  RandomValues random(8);
  const CqlType text = CqlType::Text();
  for (int i = 0; i < 300; ++i) {
    Bytes a(static_cast<size_t>(random.Uniform(0, 2000)), '\0');
    for (char& c : a) c = random.OneIn(2) ? '\0' : (random.OneIn(2) ? '\xff' : 'x');
    Bytes b = a;
    if (!b.empty() && random.OneIn(2))
      b[static_cast<size_t>(random.Uniform(0, static_cast<int64_t>(b.size()) - 1))] ^= 1;
    if (random.OneIn(3)) b.push_back(random.OneIn(2) ? '\0' : '\xff');
    CheckPair(text, a, b, /*canonical=*/true);
  }
}

TEST(KeyEncodingTest, NegativeVarintsOfManySizes) {
  RandomValues random(12);
  const CqlType varint = CqlType::Varint();
  for (int i = 0; i < 3000; ++i) {
    auto make = [&] {
      Bytes v(static_cast<size_t>(random.Uniform(1, 300)), '\0');
      for (char& c : v) c = static_cast<char>(random.Bits());
      v[0] = static_cast<char>(v[0] | 0x80);  // negative
      if (random.OneIn(2)) v[0] = '\xff';
      return Bytes(TrimVarint(v));
    };
    CheckPair(varint, make(), random.OneIn(4) ? SerializeVarint(random.Uniform(-300, 300)) : make(),
              /*canonical=*/true);
  }
}

TEST(KeyEncodingTest, DecoderNeverCrashesOnCorruptKeys) {
  RandomValues random(31337);
  for (int t = 0; t < 200; ++t) {
    const CqlType type = random.KeyType(2);
    for (int i = 0; i < 20; ++i) {
      const bool descending = random.OneIn(2);
      Bytes key = Encode(type, AnyValue(&random, type), descending);
      switch (random.Uniform(0, 3)) {
        case 0:  // truncated
          key.resize(static_cast<size_t>(random.Uniform(0, static_cast<int64_t>(key.size()) - 1)));
          break;
        case 1:  // a flipped byte
          key[static_cast<size_t>(random.Uniform(0, static_cast<int64_t>(key.size()) - 1))] ^=
              static_cast<char>(random.Uniform(1, 255));
          break;
        case 2:  // garbage
          key.clear();
          for (int64_t n = random.Uniform(0, 40); n > 0; --n)
            key.push_back(static_cast<char>(random.Bits()));
          break;
        default:  // garbage after a valid header
          key = key.substr(0, 1) +
                Bytes(static_cast<size_t>(random.Uniform(0, 20)), static_cast<char>(random.Bits()));
          break;
      }
      std::string_view in = key;
      auto value = ReadKeyComponent(type, descending, &in);
      if (!value.ok()) {
        EXPECT_EQ(value.status().code(), common::StatusCode::kCorruption);
        EXPECT_EQ(in.size(), key.size()) << "input must be untouched on error";
      }
    }
  }
  // A decimal whose exponent and scale would need billions of zero digits is rejected.
  Bytes key = Encode(CqlType::Decimal(), SerializeDecimal(0, Hex("01")));
  key.replace(key.size() - 4, 4, Hex("7fffffff"));
  std::string_view in = key;
  EXPECT_FALSE(ReadKeyComponent(CqlType::Decimal(), false, &in).ok());
}

// Decimals whose unscaled digits are mostly trailing zeros (the key stores them as an exponent:
// 10^150000 is a few key bytes) decode within a per-component digit budget. A key component is
// at most 65535 bytes, so a real one needs at most ~157,800 digits (65531 * 8 * log10(2)); a
// short corrupt or forged key (paging states come from clients) naming more is rejected before
// it is converted.
TEST(KeyEncodingTest, DecimalDigitsAreBoundedPerComponent) {
  const CqlType list = CqlType::List(CqlType::Decimal(), /*frozen=*/true);
  const Bytes one = SerializeDecimal(0, Hex("01"));
  // The recovery part ends with each element's 4-byte scale, in order.
  auto with_scales = [&](uint32_t first, uint32_t second) {
    Bytes key = Encode(list, SerializeCollection({one, one}, 2));
    key.replace(key.size() - 8, 4, Hex(fmt::format("{:08x}", first)));
    key.replace(key.size() - 4, 4, Hex(fmt::format("{:08x}", second)));
    return key;
  };
  // 1 with scale s has s + 1 unscaled digits: 1 followed by s zeros.
  const Bytes fits = with_scales(100000, 99998);  // 100,001 + 99,999 digits
  EXPECT_LT(fits.size(), 40u);
  Bytes value = DecodeAll(list, fits, false);
  // [count][len][scale][10^100000: 41,525 bytes][len][scale][10^99998: 41,524 bytes]
  EXPECT_EQ(value.size(), 4 + 2 * (4 + 4) + 41525 + 41524);
  const Bytes over = with_scales(100000, 99999);  // one digit too many
  std::string_view in = over;
  auto decoded = ReadKeyComponent(list, false, &in);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), common::StatusCode::kCorruption);
  EXPECT_EQ(in.size(), over.size());
}

// The encoder writes every NaN as 0x7fc00000 / 0x7ff8000000000000; the decoder refuses other
// NaN bits (found by the storage fuzzer: a seek key with such a float parsed, then rebuilt to
// other bytes).
TEST(KeyEncodingTest, OnlyTheCanonicalNaNDecodes) {
  for (bool descending : {false, true}) {
    const Bytes canonical_float = Encode(CqlType::Float(), Hex("7fc00000"), descending);
    EXPECT_EQ(Encode(CqlType::Float(), Hex("7fc00100"), descending), canonical_float);
    EXPECT_EQ(DecodeAll(CqlType::Float(), canonical_float, descending), Hex("7fc00000"));
    Bytes other = canonical_float;
    other[3] = static_cast<char>(other[3] ^ 0x01);  // marker, then the payload's bits
    std::string_view in = other;
    EXPECT_FALSE(ReadKeyComponent(CqlType::Float(), descending, &in).ok());
    const Bytes canonical_double = Encode(CqlType::Double(), Hex("7ff8000000000000"), descending);
    EXPECT_EQ(DecodeAll(CqlType::Double(), canonical_double, descending), Hex("7ff8000000000000"));
    other = canonical_double;
    other[8] = static_cast<char>(other[8] ^ 0x01);
    in = other;
    EXPECT_FALSE(ReadKeyComponent(CqlType::Double(), descending, &in).ok());
  }
}

// The marker is chosen from the value's class; bytes pairing a marker with a value of another
// class are not an encoding (they would give one value a second key).
TEST(KeyEncodingTest, MarkerMustMatchTheDecodedValuesClass) {
  const std::vector<std::pair<CqlType, Bytes>> forged = {
      {CqlType::Text(), Hex("030000")},  // "value" marker, empty escaped payload
      {CqlType::Blob(), Hex("030000")},
      {CqlType::Text(), Hex("04610000")},       // "malformed" marker on well-formed text "a"
      {CqlType::Int(), Hex("040000")},          // "malformed" marker, empty payload
      {CqlType::Int(), Hex("04010203040000")},  // "malformed" marker on a 4-byte int
  };
  for (bool descending : {false, true}) {
    for (const auto& [type, bytes] : forged) {
      Bytes in_bytes = bytes;
      if (descending) {
        for (char& c : in_bytes) c = static_cast<char>(~c);
      }
      std::string_view in = in_bytes;
      EXPECT_FALSE(ReadKeyComponent(type, descending, &in).ok())
          << type.ToCql() << " " << descending;
    }
  }
  // What the encoder writes for these classes still decodes.
  EXPECT_EQ(DecodeAll(CqlType::Text(), Encode(CqlType::Text(), "", false), false), "");
  EXPECT_EQ(DecodeAll(CqlType::Int(), Encode(CqlType::Int(), Hex("0001"), false), false),
            Hex("0001"));
}

}  // namespace
}  // namespace storage
