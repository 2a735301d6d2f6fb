#include "protocol/crc.h"

#include <gtest/gtest.h>

#include "common/bytes.h"

namespace protocol {
namespace {

std::string Hex(std::string_view hex) { return common::FromHex(hex).value(); }

// Vectors from specs/protocol_v5_framing.md §10.
TEST(CrcTest, Crc24OfUncompressedOptionsHeader) { EXPECT_EQ(Crc24(Hex("090002")), 0xc1c8a4u); }

TEST(CrcTest, Crc24OfLz4OptionsHeader) { EXPECT_EQ(Crc24(Hex("0900000004")), 0x95b8c2u); }

TEST(CrcTest, Crc24OfSplitSegmentHeader) {
  // 131071 bytes, not self-contained: header ff ff 01, CRC24 bytes 38 91 fe (little-endian).
  EXPECT_EQ(Crc24(Hex("ffff01")), 0xfe9138u);
}

TEST(CrcTest, Crc32OfOptionsEnvelope) { EXPECT_EQ(Crc32(Hex("050000010500000000")), 0x867455b5u); }

TEST(CrcTest, Crc32OfEmptyPayloadIsTheSeed) { EXPECT_EQ(Crc32(""), 0x44777ed3u); }

}  // namespace
}  // namespace protocol
