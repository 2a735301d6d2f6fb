#include "common/uuid.h"

#include <cstring>
#include <limits>

namespace common {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Offsets of the dashes in the 36-character text form.
bool IsDashPosition(size_t i) { return i == 8 || i == 13 || i == 18 || i == 23; }

std::mt19937_64& ThreadRandomGenerator() {
  thread_local std::mt19937_64 generator = [] {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device(),
                       device(), device(), device(), device()};
    return std::mt19937_64(seed);
  }();
  return generator;
}

// Cassandra's rawTimestampToMsb: the raw timestamp's three fields moved into place plus the
// version; computed in uint64_t so out-of-range inputs wrap as in Java instead of being UB.
uint64_t RawTimestampToMsb(uint64_t raw) {
  return 0x1000u | (raw >> 48) | ((raw & 0xFFFF00000000ULL) >> 16) | (raw << 32);
}

// (unix_millis - epoch) * 10000 with Java's wrapping semantics.
uint64_t UnixMillisToRaw(int64_t unix_millis) {
  return (static_cast<uint64_t>(unix_millis) - static_cast<uint64_t>(Uuid::kUuidEpochUnixMillis)) *
         10000u;
}

}  // namespace

Result<Uuid> Uuid::FromBytes(std::string_view bytes) {
  if (bytes.size() != kSize) {
    return Status::Invalid("UUID should be 16 or 0 bytes (" + std::to_string(bytes.size()) + ")");
  }
  Uuid uuid;
  std::memcpy(uuid.bytes_.data(), bytes.data(), kSize);
  return uuid;
}

Uuid Uuid::FromHalves(uint64_t msb, uint64_t lsb) {
  Uuid uuid;
  for (int i = 0; i < 8; ++i) {
    uuid.bytes_[i] = static_cast<uint8_t>(msb >> (56 - 8 * i));
    uuid.bytes_[8 + i] = static_cast<uint8_t>(lsb >> (56 - 8 * i));
  }
  return uuid;
}

Result<Uuid> Uuid::Parse(std::string_view text) {
  auto error = [&] {
    return Status::Invalid("Unable to make UUID from '" + std::string(text) + "'");
  };
  if (text.size() != 36) return error();
  Uuid uuid;
  size_t out = 0;
  for (size_t i = 0; i < text.size();) {
    if (IsDashPosition(i)) {
      if (text[i] != '-') return error();
      ++i;
      continue;
    }
    int high = HexValue(text[i]);
    int low = HexValue(text[i + 1]);  // a pair never straddles a dash position
    if (high < 0 || low < 0) return error();
    uuid.bytes_[out++] = static_cast<uint8_t>(high << 4 | low);
    i += 2;
  }
  return uuid;
}

Uuid Uuid::Random() { return Random(ThreadRandomGenerator()); }

Uuid Uuid::FromRandomBits(uint64_t high, uint64_t low) {
  high = (high & ~0xF000ULL) | 0x4000ULL;              // version 4
  low = (low & 0x3FFFFFFFFFFFFFFFULL) | (1ULL << 63);  // variant 10
  return FromHalves(high, low);
}

Uuid Uuid::TimeBased(int64_t raw_timestamp, uint64_t clock_seq_and_node) {
  return FromHalves(RawTimestampToMsb(static_cast<uint64_t>(raw_timestamp)), clock_seq_and_node);
}

std::string Uuid::ToString() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (size_t i = 0; i < kSize; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kDigits[bytes_[i] >> 4]);
    out.push_back(kDigits[bytes_[i] & 0xF]);
  }
  return out;
}

int64_t Uuid::RawTimestamp() const {
  uint64_t m = msb();
  uint64_t raw = ((m & 0x0FFFULL) << 48) | ((m & 0xFFFF0000ULL) << 16) | (m >> 32);
  return static_cast<int64_t>(raw);
}

int64_t Uuid::UnixMicros() const { return RawTimestamp() / 10 + kUuidEpochUnixMillis * 1000; }

int64_t Uuid::UnixMillis() const { return RawTimestamp() / 10000 + kUuidEpochUnixMillis; }

Uuid MinTimeuuid(int64_t unix_millis) {
  return Uuid::TimeBased(static_cast<int64_t>(UnixMillisToRaw(unix_millis)), 0x8080808080808080ULL);
}

Uuid MaxTimeuuid(int64_t unix_millis) {
  uint64_t raw = UnixMillisToRaw(static_cast<int64_t>(static_cast<uint64_t>(unix_millis) + 1)) - 1;
  return Uuid::TimeBased(static_cast<int64_t>(raw), 0x7f7f7f7f7f7f7f7fULL);
}

TimeuuidGenerator::TimeuuidGenerator(const Clock* clock)
    : TimeuuidGenerator(clock, RandomClockSeqAndNode()) {}

TimeuuidGenerator::TimeuuidGenerator(const Clock* clock, uint64_t clock_seq_and_node)
    : clock_(clock), clock_seq_and_node_(clock_seq_and_node) {}

uint64_t TimeuuidGenerator::RandomClockSeqAndNode() {
  std::random_device device;
  uint64_t clock_sequence = device() & 0x3FFFu;
  uint64_t node = (uint64_t{device()} << 16 | (device() & 0xFFFFu)) & 0xFFFFFFFFFFFFULL;
  return (1ULL << 63) | (clock_sequence << 48) | node | 0x010000000000ULL;
}

Uuid TimeuuidGenerator::Next() {
  // Raw timestamp of "now": micros * 10 since 1582 (Cassandra's unixMicrosToRawTimestamp).
  int64_t candidate =
      static_cast<int64_t>(static_cast<uint64_t>(clock_->NowMicros()) * 10u -
                           static_cast<uint64_t>(Uuid::kUuidEpochUnixMillis) * 10000u);
  int64_t last = last_raw_timestamp_.load(std::memory_order_acquire);
  while (true) {
    // Saturates at INT64_MAX rather than overflowing (only reachable with an absurd clock).
    int64_t next = candidate > last
                       ? candidate
                       : (last == std::numeric_limits<int64_t>::max() ? last : last + 1);
    if (last_raw_timestamp_.compare_exchange_weak(last, next, std::memory_order_acq_rel,
                                                  std::memory_order_acquire)) {
      return Uuid::TimeBased(next, clock_seq_and_node_);
    }
  }
}

}  // namespace common
