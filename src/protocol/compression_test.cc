#include "protocol/compression.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "common/bytes.h"

namespace protocol {
namespace {

std::string Repetitive(size_t n) {
  std::string s;
  s.reserve(n);
  for (size_t i = 0; s.size() < n; ++i) s += "row " + std::to_string(i % 97) + ";";
  s.resize(n);
  return s;
}

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

TEST(CompressionTest, ParseAndName) {
  EXPECT_EQ(ParseCompression("lz4"), Compression::kLz4);
  EXPECT_EQ(ParseCompression("LZ4"), Compression::kLz4);
  EXPECT_EQ(ParseCompression("Snappy"), Compression::kSnappy);
  EXPECT_EQ(ParseCompression("zstd"), std::nullopt);
  EXPECT_EQ(ParseCompression(""), std::nullopt);
  EXPECT_EQ(CompressionName(Compression::kLz4), "lz4");
  EXPECT_EQ(CompressionName(Compression::kSnappy), "snappy");
  EXPECT_EQ(CompressionName(Compression::kNone), "");
}

TEST(CompressionTest, BodyRoundTrips) {
  for (Compression c : {Compression::kLz4, Compression::kSnappy}) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{100}, size_t{200000}}) {
      for (const std::string& body : {Repetitive(n), RandomBytes(n, 7)}) {
        std::string compressed = CompressBody(c, body);
        auto back = DecompressBody(c, compressed, body.size());
        ASSERT_TRUE(back.ok()) << back.status().ToString();
        EXPECT_EQ(*back, body);
      }
    }
  }
}

TEST(CompressionTest, Lz4BodyHasBigEndianLengthPrefix) {
  std::string body = Repetitive(1000);
  std::string compressed = CompressBody(Compression::kLz4, body);
  ASSERT_GE(compressed.size(), 4u);
  EXPECT_EQ(compressed.substr(0, 4), std::string("\x00\x00\x03\xe8", 4));
  EXPECT_LT(compressed.size(), body.size());
}

TEST(CompressionTest, BodyLargerThanLimitIsRefused) {
  std::string body = Repetitive(5000);
  for (Compression c : {Compression::kLz4, Compression::kSnappy}) {
    auto back = DecompressBody(c, CompressBody(c, body), 4999);
    EXPECT_FALSE(back.ok());
    EXPECT_EQ(back.status().code(), common::StatusCode::kProtocolError);
  }
}

TEST(CompressionTest, CorruptBodiesAreErrors) {
  std::string body = Repetitive(3000);
  for (Compression c : {Compression::kLz4, Compression::kSnappy}) {
    std::string compressed = CompressBody(c, body);
    // Every truncation and a sweep of single-byte corruptions: an error or (rarely) some
    // output, never a crash; truncations of lz4 always fail.
    for (size_t n = 0; n < compressed.size(); ++n) {
      auto back = DecompressBody(c, compressed.substr(0, n), 1 << 20);
      if (c == Compression::kLz4) {
        EXPECT_FALSE(back.ok()) << n;
      }
      if (back.ok()) {
        EXPECT_NE(*back, body);
      }
    }
    for (size_t i = 0; i < compressed.size(); ++i) {
      std::string bad = compressed;
      bad[i] = static_cast<char>(bad[i] ^ 0x5A);
      (void)DecompressBody(c, bad, 1 << 20);
    }
  }
  EXPECT_FALSE(DecompressBody(Compression::kNone, "abc", 100).ok());
}

TEST(CompressionTest, RandomInputNeverCrashes) {
  for (uint32_t seed = 0; seed < 300; ++seed) {
    std::string junk = RandomBytes(seed % 64, seed);
    (void)DecompressBody(Compression::kLz4, junk, 1 << 16);
    (void)DecompressBody(Compression::kSnappy, junk, 1 << 16);
    (void)DecompressLz4Block(junk, seed % 200);
  }
}

TEST(CompressionTest, Lz4BlockRoundTripAndIncompressibleInput) {
  std::string text = Repetitive(131071);
  auto block = CompressLz4Block(text);
  ASSERT_TRUE(block.has_value());
  EXPECT_LT(block->size(), text.size());
  auto back = DecompressLz4Block(*block, text.size());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, text);
  // A wrong expected size is an error.
  EXPECT_FALSE(DecompressLz4Block(*block, text.size() - 1).ok());
  EXPECT_FALSE(DecompressLz4Block(*block, text.size() + 1).ok());
  // Nine bytes do not compress (documented example 10.2) and random bytes neither.
  EXPECT_EQ(CompressLz4Block(std::string("\x05\x00\x00\x01\x05\x00\x00\x00\x00", 9)), std::nullopt);
  EXPECT_EQ(CompressLz4Block(RandomBytes(1000, 3)), std::nullopt);
}

TEST(CompressionTest, DocumentedLz4BlockDecompresses) {
  // specs/protocol_v5_framing.md §10.3: a 71-byte block of a 95-byte QUERY envelope.
  std::string block = common::FromHex(
                          "f1240500000207000000560000004c53454c454354202a2046524f4d2073797374656d2"
                          "e6c6f63616c205748455245206b65793d2711005f2720414e4410000960000100000000")
                          .value();
  ASSERT_EQ(block.size(), 71u);
  auto back = DecompressLz4Block(block, 95);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(common::ToHex(*back),
            "0500000207000000560000004c53454c454354202a2046524f4d2073797374656d2e6c6f63616c2057"
            "48455245206b65793d276c6f63616c2720414e44206b65793d276c6f63616c2720414e44206b65793d"
            "276c6f63616c27000100000000");
}

}  // namespace
}  // namespace protocol
