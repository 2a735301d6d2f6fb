// Big-endian byte buffers: the primitive encodings shared by CQL value serialization
// (native_protocol_v4.spec §6), the protocol codec and the storage key format.
//
// Bytes are held in std::string (as LevelDB and RocksDB do) and viewed with std::string_view.
// ByteWriter appends; ByteReader consumes with bounds checks and never reads past its input,
// so it is safe on untrusted bytes.
//
// Thread-safety: not thread-safe; each object belongs to one thread at a time.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"

namespace common {

using Bytes = std::string;

class ByteWriter {
 public:
  ByteWriter() = default;
  explicit ByteWriter(Bytes initial) : out_(std::move(initial)) {}

  void PutU8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void PutU16(uint16_t v);
  void PutU32(uint32_t v);
  void PutU64(uint64_t v);
  void PutI8(int8_t v) { PutU8(static_cast<uint8_t>(v)); }
  void PutI16(int16_t v) { PutU16(static_cast<uint16_t>(v)); }
  void PutI32(int32_t v) { PutU32(static_cast<uint32_t>(v)); }
  void PutI64(int64_t v) { PutU64(static_cast<uint64_t>(v)); }
  void PutRaw(std::string_view bytes) { out_.append(bytes); }
  // [bytes]: a 4-byte signed length then the bytes.
  void PutIntBytes(std::string_view bytes);
  // [bytes] holding null: length -1.
  void PutNullIntBytes() { PutI32(-1); }
  // [short bytes] / [string]: a 2-byte unsigned length then the bytes.
  // REQUIRES: bytes.size() <= 65535.
  void PutShortBytes(std::string_view bytes);
  // Unsigned LEB-style variable-length integer as in native_protocol_v5.spec [unsigned vint].
  void PutUnsignedVInt(uint64_t v);
  // Zig-zag encoded [vint].
  void PutVInt(int64_t v) {
    PutUnsignedVInt((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }

  size_t size() const { return out_.size(); }
  const Bytes& data() const { return out_; }
  Bytes& mutable_data() { return out_; }
  Bytes Release() { return std::move(out_); }

 private:
  Bytes out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}

  // Each Read fails with ProtocolError("Not enough bytes ...") when the input is short.
  Result<uint8_t> ReadU8();
  Result<uint16_t> ReadU16();
  Result<uint32_t> ReadU32();
  Result<uint64_t> ReadU64();
  Result<int8_t> ReadI8();
  Result<int16_t> ReadI16();
  Result<int32_t> ReadI32();
  Result<int64_t> ReadI64();
  // The next `n` bytes, viewing the reader's input (valid as long as that input is).
  Result<std::string_view> ReadRaw(size_t n);
  // [bytes]: the value is std::nullopt-like: `is_null` is set when the length is negative.
  struct IntBytes {
    std::string_view bytes;
    bool is_null = false;
    bool is_unset = false;  // length -2 (protocol v4+ "not set")
  };
  Result<IntBytes> ReadIntBytes();
  Result<std::string_view> ReadShortBytes();
  Result<uint64_t> ReadUnsignedVInt();
  Result<int64_t> ReadVInt();
  // As above, but only the shortest encoding of the value (what ByteWriter writes) is accepted;
  // a longer one is Corruption. For formats whose bytes must round-trip (what storage keeps).
  Result<uint64_t> ReadMinimalUnsignedVInt();
  Result<int64_t> ReadMinimalVInt();

  size_t remaining() const { return in_.size() - pos_; }
  bool empty() const { return remaining() == 0; }
  size_t position() const { return pos_; }
  std::string_view rest() const { return in_.substr(pos_); }

 private:
  Status Short(size_t wanted) const;

  std::string_view in_;
  size_t pos_ = 0;
};

// Big-endian loads and stores on raw memory; REQUIRES the buffer has the bytes.
inline uint16_t LoadBigEndian16(const char* p) {
  auto u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<uint16_t>((u[0] << 8) | u[1]);
}
inline uint32_t LoadBigEndian32(const char* p) {
  auto u = reinterpret_cast<const unsigned char*>(p);
  return (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) | (uint32_t{u[2]} << 8) | uint32_t{u[3]};
}
inline uint64_t LoadBigEndian64(const char* p) {
  return (uint64_t{LoadBigEndian32(p)} << 32) | LoadBigEndian32(p + 4);
}

// Lower-case hex of `bytes` without a prefix.
std::string ToHex(std::string_view bytes);
// Parses hex digits (no prefix; upper or lower case); fails on odd length or a non-hex digit.
Result<Bytes> FromHex(std::string_view hex);

}  // namespace common
