// UUIDs and timeuuids (RFC 4122) as CQL uses them: the `uuid` and `timeuuid` types, the
// `uuid()`, `now()`, `minTimeuuid()`, `maxTimeuuid()`, `toTimestamp()`... functions, and the
// server's own identifiers (host id, schema version).
//
// A `Uuid` is 16 bytes in network (big-endian) order, exactly the native-protocol serialization
// of `uuid`/`timeuuid` values (native_protocol_v4.spec §6.18, §6.21).
//
// Version-1 (time-based) layout, as msb/lsb 64-bit halves:
//   msb = time_low(32) | time_mid(16) | version(4) | time_hi(12)
//   lsb = variant(2) | clock_seq(14) | node(48)
// The 60-bit timestamp counts 100 ns intervals since 1582-10-15T00:00:00Z (the Gregorian
// reform); Cassandra calls it the "raw timestamp".
//
// `TimeuuidGenerator` produces `now()` timeuuids the way Cassandra's TimeUUID.Generator /
// UUIDGen do: one random clock-sequence-and-node word per generator (variant 2, 14 random bits
// of clock sequence, 48 random node bits with the multicast bit set since no MAC address is
// used), and a timestamp that is strictly increasing per generator: the clock's time when it
// moved past the last value, otherwise last + 1 (100 ns). So many calls in one tick, or a clock
// stepping backwards, still give distinct, ordered timeuuids.
//
// Thread-safety: `Uuid` is a value type. `TimeuuidGenerator` is thread-safe and lock-free.
// `Uuid::Random()` uses a per-thread generator and is thread-safe.

#pragma once

#include <array>
#include <atomic>
#include <compare>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include "common/bytes.h"
#include "common/clock.h"
#include "common/result.h"

namespace common {

class Uuid {
 public:
  static constexpr size_t kSize = 16;
  // Milliseconds from 1970-01-01 back to 1582-10-15 (negative): Cassandra's
  // UUID_EPOCH_UNIX_MILLIS.
  static constexpr int64_t kUuidEpochUnixMillis = -12219292800000LL;

  // The nil UUID 00000000-0000-0000-0000-000000000000.
  Uuid() = default;

  // From the 16 serialized bytes. Fails with Invalid when `bytes` is not exactly 16 bytes long.
  static Result<Uuid> FromBytes(std::string_view bytes);
  static Uuid FromHalves(uint64_t msb, uint64_t lsb);

  // Parses the canonical 36-character text form 8-4-4-4-12 of hex digits, either case
  // (the same pattern Cassandra's UUIDType accepts). Fails with Invalid otherwise; the message
  // is Cassandra's "Unable to make UUID from '<text>'".
  static Result<Uuid> Parse(std::string_view text);

  // A random version-4 UUID from a per-thread std::mt19937_64 seeded by std::random_device.
  static Uuid Random();
  // A random version-4 UUID drawing 128 bits from `generator` (a UniformRandomBitGenerator),
  // for callers that want a seeded, reproducible sequence.
  template <typename Generator>
  static Uuid Random(Generator& generator) {
    std::uniform_int_distribution<uint64_t> dist;
    return FromRandomBits(dist(generator), dist(generator));
  }

  // A version-1 UUID with the given 60-bit raw timestamp (100 ns units since 1582-10-15) and
  // clock-sequence-and-node word, laid out exactly as Cassandra's rawTimestampToMsb does
  // (no masking of out-of-range timestamps, so results match Cassandra bit for bit).
  static Uuid TimeBased(int64_t raw_timestamp, uint64_t clock_seq_and_node);

  uint64_t msb() const { return LoadBigEndian64(reinterpret_cast<const char*>(bytes_.data())); }
  uint64_t lsb() const { return LoadBigEndian64(reinterpret_cast<const char*>(bytes_.data()) + 8); }
  const std::array<uint8_t, kSize>& bytes() const { return bytes_; }
  // The 16 bytes as a protocol value.
  Bytes ToBytes() const { return Bytes(reinterpret_cast<const char*>(bytes_.data()), kSize); }
  // Lower-case 8-4-4-4-12 text.
  std::string ToString() const;

  // The version nibble (bits 4-7 of byte 6): 1 for timeuuids, 4 for random UUIDs.
  int version() const { return bytes_[6] >> 4; }
  bool IsNil() const { return msb() == 0 && lsb() == 0; }

  // For version-1 UUIDs (the value is meaningless otherwise): the 60-bit raw timestamp in
  // 100 ns units since 1582-10-15.
  int64_t RawTimestamp() const;
  // The timestamp as microseconds / milliseconds since the Unix epoch, as Cassandra computes
  // them (raw / 10 resp. raw / 10000, plus the epoch offset); what toTimestamp(),
  // toUnixTimestamp() and dateOf() return.
  int64_t UnixMicros() const;
  int64_t UnixMillis() const;

  // Byte-wise (unsigned, big-endian) order and equality. NOTE: this is neither Cassandra's
  // `uuid` order nor its `timeuuid` order; use cql::CompareValues for those.
  auto operator<=>(const Uuid& other) const = default;

 private:
  static Uuid FromRandomBits(uint64_t high, uint64_t low);

  std::array<uint8_t, kSize> bytes_{};
};

// The smallest timeuuid with the given Unix-millisecond timestamp under Cassandra's timeuuid
// order, exactly as Cassandra's minTimeuuid(): raw timestamp (millis - epoch) * 10000 and
// clock-sequence-and-node 0x8080808080808080 (timeuuid compares these bytes as signed).
// Arithmetic wraps like Java's for absurd inputs; never UB.
Uuid MinTimeuuid(int64_t unix_millis);

// The largest timeuuid with the given Unix-millisecond timestamp, exactly as Cassandra's
// maxTimeuuid(): raw timestamp (millis + 1 - epoch) * 10000 - 1 and clock-sequence-and-node
// 0x7f7f7f7f7f7f7f7f.
Uuid MaxTimeuuid(int64_t unix_millis);

// Generates strictly increasing version-1 timeuuids (see the file comment).
class TimeuuidGenerator {
 public:
  // A generator with a random clock-sequence-and-node word (std::random_device).
  // REQUIRES: `clock` outlives the generator.
  explicit TimeuuidGenerator(const Clock* clock);
  // A generator with a fixed clock-sequence-and-node word, for reproducible tests.
  TimeuuidGenerator(const Clock* clock, uint64_t clock_seq_and_node);

  TimeuuidGenerator(const TimeuuidGenerator&) = delete;
  TimeuuidGenerator& operator=(const TimeuuidGenerator&) = delete;

  // A timeuuid whose raw timestamp is max(clock time in 100 ns units, previous + 1); strictly
  // greater (in timeuuid order) than every earlier result of this generator. Lock-free.
  Uuid Next();

  // The lsb half shared by every timeuuid this generator makes.
  uint64_t clock_seq_and_node() const { return clock_seq_and_node_; }

  // A random clock-sequence-and-node word: variant bits 10, 14 random clock-sequence bits and
  // 48 random node bits with the multicast bit (0x010000000000) set.
  static uint64_t RandomClockSeqAndNode();

 private:
  const Clock* clock_;
  const uint64_t clock_seq_and_node_;
  std::atomic<int64_t> last_raw_timestamp_{0};
};

}  // namespace common
