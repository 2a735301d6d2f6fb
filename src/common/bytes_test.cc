#include "common/bytes.h"

#include <gtest/gtest.h>

#include <random>

namespace common {
namespace {

TEST(BytesTest, BigEndianRoundTrip) {
  ByteWriter w;
  w.PutU8(0xAB);
  w.PutI16(-2);
  w.PutU32(0x01020304);
  w.PutI64(-5);
  w.PutIntBytes("xyz");
  w.PutNullIntBytes();
  w.PutShortBytes("hi");
  EXPECT_EQ(ToHex(w.data().substr(0, 7)), "abfffe01020304");
  ByteReader r(w.data());
  EXPECT_EQ(*r.ReadU8(), 0xAB);
  EXPECT_EQ(*r.ReadI16(), -2);
  EXPECT_EQ(*r.ReadU32(), 0x01020304u);
  EXPECT_EQ(*r.ReadI64(), -5);
  EXPECT_EQ(r.ReadIntBytes()->bytes, "xyz");
  EXPECT_TRUE(r.ReadIntBytes()->is_null);
  EXPECT_EQ(*r.ReadShortBytes(), "hi");
  EXPECT_TRUE(r.empty());
  EXPECT_EQ(r.ReadU8().status().code(), StatusCode::kProtocolError);
}

TEST(BytesTest, ShortInputIsAnErrorNotACrash) {
  ByteWriter w;
  w.PutI32(100);  // claims 100 bytes, has none
  ByteReader r(w.data());
  EXPECT_FALSE(r.ReadIntBytes().ok());
  ByteReader r2(
      std::string_view("\x00\x05"
                       "ab",
                       4));
  EXPECT_FALSE(r2.ReadShortBytes().ok());
  ByteWriter w3;
  w3.PutI32(-3);
  ByteReader r3(w3.data());
  EXPECT_FALSE(r3.ReadIntBytes().ok());
}

TEST(BytesTest, UnsignedVIntSizesAndRoundTrip) {
  struct Case {
    uint64_t value;
    size_t size;
  };
  for (Case c :
       {Case{0, 1}, Case{127, 1}, Case{128, 2}, Case{(1u << 14) - 1, 2}, Case{1u << 14, 3},
        Case{(uint64_t{1} << 56) - 1, 8}, Case{uint64_t{1} << 56, 9}, Case{~uint64_t{0}, 9}}) {
    ByteWriter w;
    w.PutUnsignedVInt(c.value);
    EXPECT_EQ(w.size(), c.size) << c.value;
    ByteReader r(w.data());
    EXPECT_EQ(*r.ReadUnsignedVInt(), c.value);
    EXPECT_TRUE(r.empty());
  }
  std::mt19937_64 rng(42);
  for (int i = 0; i < 10000; ++i) {
    int64_t v = static_cast<int64_t>(rng()) >> (rng() % 64);
    ByteWriter w;
    w.PutVInt(v);
    ByteReader r(w.data());
    EXPECT_EQ(*r.ReadVInt(), v);
  }
}

TEST(BytesTest, MinimalVIntRefusesLongerEncodings) {
  for (uint64_t v :
       {uint64_t{0}, uint64_t{5}, uint64_t{127}, uint64_t{128}, uint64_t{1} << 40, ~uint64_t{0}}) {
    ByteWriter w;
    w.PutUnsignedVInt(v);
    ByteReader r(w.data());
    EXPECT_EQ(*r.ReadMinimalUnsignedVInt(), v);
  }
  // 5 in two bytes (the storage fuzzer's fragment had such a count), and 0 in nine.
  for (std::string bytes : {std::string("\x80\x05", 2), std::string("\xff\0\0\0\0\0\0\0\0", 9)}) {
    ByteReader lenient(bytes);
    EXPECT_TRUE(lenient.ReadUnsignedVInt().ok());
    ByteReader strict(bytes);
    auto v = strict.ReadMinimalUnsignedVInt();
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.status().code(), StatusCode::kCorruption);
    EXPECT_EQ(strict.position(), 0u);
  }
  ByteWriter w;
  w.PutVInt(-3);
  ByteReader r(w.data());
  EXPECT_EQ(*r.ReadMinimalVInt(), -3);
}

TEST(BytesTest, Hex) {
  EXPECT_EQ(ToHex(std::string("\x00\xff\x10", 3)), "00ff10");
  EXPECT_EQ(*FromHex("00FF10"), std::string("\x00\xff\x10", 3));
  EXPECT_FALSE(FromHex("abc").ok());
  EXPECT_FALSE(FromHex("zz").ok());
}

}  // namespace
}  // namespace common
