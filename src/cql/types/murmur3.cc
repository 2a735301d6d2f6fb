#include "cql/types/murmur3.h"

#include <limits>
#include <string>

namespace cql {
namespace {

constexpr uint64_t kC1 = 0x87c37b91114253d5ULL;
constexpr uint64_t kC2 = 0x4cf5ad432745937fULL;

uint64_t RotateLeft(uint64_t v, int n) { return (v << n) | (v >> (64 - n)); }

uint64_t FinalMix(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

// Eight bytes at `p` as a little-endian unsigned word (the block read is not affected by the
// signed-byte quirk: Cassandra masks each byte with 0xff there).
uint64_t LoadLittleEndian64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// A tail byte as Java sees it: a signed byte, sign-extended to 64 bits.
uint64_t SignedByte(unsigned char b) {
  return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int8_t>(b)));
}

}  // namespace

Murmur3Hash128 CassandraMurmur3Hash128(std::string_view data, int64_t seed) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  const size_t length = data.size();
  const size_t blocks = length / 16;
  uint64_t h1 = static_cast<uint64_t>(seed);
  uint64_t h2 = static_cast<uint64_t>(seed);

  for (size_t i = 0; i < blocks; ++i) {
    uint64_t k1 = LoadLittleEndian64(bytes + i * 16);
    uint64_t k2 = LoadLittleEndian64(bytes + i * 16 + 8);
    k1 *= kC1;
    k1 = RotateLeft(k1, 31);
    k1 *= kC2;
    h1 ^= k1;
    h1 = RotateLeft(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;
    k2 *= kC2;
    k2 = RotateLeft(k2, 33);
    k2 *= kC1;
    h2 ^= k2;
    h2 = RotateLeft(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
  }

  const unsigned char* tail = bytes + blocks * 16;
  const size_t rest = length & 15;
  uint64_t k1 = 0;
  uint64_t k2 = 0;
  // Bytes 8..14 of the tail feed k2, bytes 0..7 feed k1; each signed byte is sign-extended
  // before the shift and XOR, so its high bits smear over the bytes above it.
  for (size_t i = rest; i > 8; --i) k2 ^= SignedByte(tail[i - 1]) << (8 * (i - 9));
  if (rest > 8) {
    k2 *= kC2;
    k2 = RotateLeft(k2, 33);
    k2 *= kC1;
    h2 ^= k2;
  }
  for (size_t i = rest < 8 ? rest : 8; i > 0; --i) k1 ^= SignedByte(tail[i - 1]) << (8 * (i - 1));
  if (rest > 0) {
    k1 *= kC1;
    k1 = RotateLeft(k1, 31);
    k1 *= kC2;
    h1 ^= k1;
  }

  h1 ^= static_cast<uint64_t>(length);
  h2 ^= static_cast<uint64_t>(length);
  h1 += h2;
  h2 += h1;
  h1 = FinalMix(h1);
  h2 = FinalMix(h2);
  h1 += h2;
  h2 += h1;
  return Murmur3Hash128{static_cast<int64_t>(h1), static_cast<int64_t>(h2)};
}

int64_t Murmur3Token(std::string_view serialized_partition_key) {
  if (serialized_partition_key.empty()) return std::numeric_limits<int64_t>::min();
  int64_t h1 = CassandraMurmur3Hash128(serialized_partition_key, 0).h1;
  return h1 == std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::max() : h1;
}

common::Bytes SerializePartitionKey(const std::vector<std::string_view>& components) {
  if (components.size() == 1) return common::Bytes(components[0]);
  common::ByteWriter writer;
  for (std::string_view component : components) {
    writer.PutU16(static_cast<uint16_t>(component.size()));
    writer.PutRaw(component);
    writer.PutU8(0);
  }
  return writer.Release();
}

common::Result<std::vector<std::string_view>> SplitPartitionKey(std::string_view serialized,
                                                                size_t count) {
  if (count == 1) return std::vector<std::string_view>{serialized};
  std::vector<std::string_view> components;
  common::ByteReader reader(serialized);
  for (size_t i = 0; i < count; ++i) {
    auto length = reader.ReadU16();
    if (!length.ok()) return common::Status::Invalid("Truncated partition key component length");
    auto bytes = reader.ReadRaw(*length);
    if (!bytes.ok()) return common::Status::Invalid("Truncated partition key component");
    auto end = reader.ReadU8();
    if (!end.ok() || *end != 0) {
      return common::Status::Invalid("Invalid end-of-component byte in partition key");
    }
    components.push_back(*bytes);
  }
  if (!reader.empty()) return common::Status::Invalid("Extra bytes after partition key components");
  return components;
}

common::Status ValidatePartitionKeyComponentSizes(const std::vector<std::string_view>& components) {
  for (std::string_view component : components) {
    if (component.size() > kMaxPartitionKeyComponentSize) {
      return common::Status::Invalid("Key length of " + std::to_string(component.size()) +
                                     " is longer than maximum of 65535");
    }
  }
  return common::Status::Ok();
}

}  // namespace cql
