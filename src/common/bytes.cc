#include "common/bytes.h"

#include <string>

namespace common {

void ByteWriter::PutU16(uint16_t v) {
  char b[2] = {static_cast<char>(v >> 8), static_cast<char>(v)};
  out_.append(b, 2);
}

void ByteWriter::PutU32(uint32_t v) {
  char b[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
               static_cast<char>(v)};
  out_.append(b, 4);
}

void ByteWriter::PutU64(uint64_t v) {
  PutU32(static_cast<uint32_t>(v >> 32));
  PutU32(static_cast<uint32_t>(v));
}

void ByteWriter::PutIntBytes(std::string_view bytes) {
  PutI32(static_cast<int32_t>(bytes.size()));
  out_.append(bytes);
}

void ByteWriter::PutShortBytes(std::string_view bytes) {
  PutU16(static_cast<uint16_t>(bytes.size()));
  out_.append(bytes);
}

namespace {

// The extra bytes (after the first) of the shortest [unsigned vint] encoding of `v`.
int VIntExtraBytes(uint64_t v) {
  int magnitude = v == 0 ? 1 : 64 - __builtin_clzll(v);  // significant bits
  int extra = 0;
  while (extra < 8 && magnitude > 7 * (extra + 1)) ++extra;
  return extra;
}

}  // namespace

// The v5 [unsigned vint]: the number of leading 1 bits in the first byte tells how many extra
// bytes follow; the value is big-endian over the remaining bits.
void ByteWriter::PutUnsignedVInt(uint64_t v) {
  const int extra = VIntExtraBytes(v);
  if (extra == 8) {
    PutU8(0xFF);
    PutU64(v);
    return;
  }
  uint8_t first = static_cast<uint8_t>(0xFF << (8 - extra));
  first |= static_cast<uint8_t>(v >> (8 * extra));
  PutU8(first);
  for (int i = extra - 1; i >= 0; --i) PutU8(static_cast<uint8_t>(v >> (8 * i)));
}

Status ByteReader::Short(size_t wanted) const {
  return Status::ProtocolError("Not enough bytes to read: wanted " + std::to_string(wanted) +
                               ", have " + std::to_string(remaining()));
}

Result<uint8_t> ByteReader::ReadU8() {
  if (remaining() < 1) return Short(1);
  return static_cast<uint8_t>(in_[pos_++]);
}

Result<uint16_t> ByteReader::ReadU16() {
  if (remaining() < 2) return Short(2);
  uint16_t v = LoadBigEndian16(in_.data() + pos_);
  pos_ += 2;
  return v;
}

Result<uint32_t> ByteReader::ReadU32() {
  if (remaining() < 4) return Short(4);
  uint32_t v = LoadBigEndian32(in_.data() + pos_);
  pos_ += 4;
  return v;
}

Result<uint64_t> ByteReader::ReadU64() {
  if (remaining() < 8) return Short(8);
  uint64_t v = LoadBigEndian64(in_.data() + pos_);
  pos_ += 8;
  return v;
}

Result<int8_t> ByteReader::ReadI8() {
  ASSIGN_OR_RETURN(uint8_t v, ReadU8());
  return static_cast<int8_t>(v);
}
Result<int16_t> ByteReader::ReadI16() {
  ASSIGN_OR_RETURN(uint16_t v, ReadU16());
  return static_cast<int16_t>(v);
}
Result<int32_t> ByteReader::ReadI32() {
  ASSIGN_OR_RETURN(uint32_t v, ReadU32());
  return static_cast<int32_t>(v);
}
Result<int64_t> ByteReader::ReadI64() {
  ASSIGN_OR_RETURN(uint64_t v, ReadU64());
  return static_cast<int64_t>(v);
}

Result<std::string_view> ByteReader::ReadRaw(size_t n) {
  if (remaining() < n) return Short(n);
  std::string_view v = in_.substr(pos_, n);
  pos_ += n;
  return v;
}

Result<ByteReader::IntBytes> ByteReader::ReadIntBytes() {
  ASSIGN_OR_RETURN(int32_t length, ReadI32());
  IntBytes out;
  if (length < 0) {
    out.is_null = length == -1;
    out.is_unset = length == -2;
    if (length < -2) {
      return Status::ProtocolError("Invalid negative length " + std::to_string(length));
    }
    return out;
  }
  ASSIGN_OR_RETURN(out.bytes, ReadRaw(static_cast<size_t>(length)));
  return out;
}

Result<std::string_view> ByteReader::ReadShortBytes() {
  ASSIGN_OR_RETURN(uint16_t length, ReadU16());
  return ReadRaw(length);
}

Result<uint64_t> ByteReader::ReadUnsignedVInt() {
  ASSIGN_OR_RETURN(uint8_t first, ReadU8());
  int extra =
      first == 0xFF ? 8 : __builtin_clz(static_cast<uint32_t>(static_cast<uint8_t>(~first)) << 24);
  if (remaining() < static_cast<size_t>(extra)) return Short(extra);
  uint64_t v = extra == 8 ? 0 : (first & (0xFF >> extra));
  for (int i = 0; i < extra; ++i) v = (v << 8) | static_cast<uint8_t>(in_[pos_++]);
  return v;
}

Result<int64_t> ByteReader::ReadVInt() {
  ASSIGN_OR_RETURN(uint64_t u, ReadUnsignedVInt());
  return static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
}

Result<uint64_t> ByteReader::ReadMinimalUnsignedVInt() {
  const size_t start = pos_;
  ASSIGN_OR_RETURN(uint64_t v, ReadUnsignedVInt());
  if (pos_ - start != static_cast<size_t>(1 + VIntExtraBytes(v))) {
    pos_ = start;
    return Status::Corruption("vint longer than its shortest encoding");
  }
  return v;
}

Result<int64_t> ByteReader::ReadMinimalVInt() {
  ASSIGN_OR_RETURN(uint64_t u, ReadMinimalUnsignedVInt());
  return static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
}

std::string ToHex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

namespace {
int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

Result<Bytes> FromHex(std::string_view hex) {
  if (hex.size() % 2 != 0) return Status::Invalid("Hex string has odd length");
  Bytes out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = HexValue(hex[i]);
    int lo = HexValue(hex[i + 1]);
    if (hi < 0 || lo < 0) return Status::Invalid("Non-hex character in hex string");
    out.push_back(static_cast<char>((hi << 4) | lo));
  }
  return out;
}

}  // namespace common
