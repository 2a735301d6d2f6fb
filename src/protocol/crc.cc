#include "protocol/crc.h"

#include <zlib.h>

namespace protocol {

namespace {

constexpr uint32_t kCrc24Init = 0x875060;
constexpr uint32_t kCrc24Poly = 0x1974F0B;

// crc32(FA 2D 55 CA): the running value every payload CRC starts from.
uint32_t Crc32Seed() {
  static constexpr unsigned char kSeed[4] = {0xFA, 0x2D, 0x55, 0xCA};
  return static_cast<uint32_t>(crc32(0L, kSeed, sizeof(kSeed)));
}

}  // namespace

uint32_t Crc24(std::string_view bytes) {
  uint32_t crc = kCrc24Init;
  for (char c : bytes) {
    crc ^= static_cast<uint32_t>(static_cast<unsigned char>(c)) << 16;
    for (int i = 0; i < 8; ++i) {
      crc <<= 1;
      if ((crc & 0x1000000) != 0) crc ^= kCrc24Poly;
    }
  }
  return crc & 0xFFFFFF;
}

uint32_t Crc32(std::string_view payload) {
  static const uint32_t seed = Crc32Seed();
  uLong crc = seed;
  const auto* data = reinterpret_cast<const Bytef*>(payload.data());
  size_t left = payload.size();
  // zlib takes uInt lengths; feed very large inputs in pieces.
  while (left > 0) {
    uInt chunk = left > (1u << 30) ? (1u << 30) : static_cast<uInt>(left);
    crc = crc32(crc, data, chunk);
    data += chunk;
    left -= chunk;
  }
  return static_cast<uint32_t>(crc);
}

}  // namespace protocol
