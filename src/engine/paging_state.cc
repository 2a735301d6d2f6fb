#include "engine/paging_state.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;

namespace {

constexpr uint8_t kVersion = 1;

// FNV-1a, 64 bits: detects truncation and corruption (not an authenticator).
uint64_t Checksum(std::string_view bytes) {
  uint64_t hash = 14695981039346656037ULL;
  for (char c : bytes) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 1099511628211ULL;
  }
  return hash;
}

Status BadState() { return Status::Invalid("Invalid value for the paging state"); }

}  // namespace

Bytes EncodePagingState(const PagingState& state) {
  common::ByteWriter writer;
  writer.PutU8(kVersion);
  writer.PutUnsignedVInt(state.partition_prefix.size());
  writer.PutRaw(state.partition_prefix);
  writer.PutUnsignedVInt(state.last_key.size());
  writer.PutRaw(state.last_key);
  writer.PutI32(state.remaining);
  writer.PutI32(state.partition_rows);
  uint64_t checksum = Checksum(writer.data());
  writer.PutU64(checksum);
  return writer.Release();
}

Result<PagingState> DecodePagingState(std::string_view bytes) {
  if (bytes.size() < 8) return BadState();
  std::string_view body = bytes.substr(0, bytes.size() - 8);
  if (common::LoadBigEndian64(bytes.data() + body.size()) != Checksum(body)) return BadState();
  common::ByteReader reader(body);
  PagingState state;
  auto version = reader.ReadU8();
  if (!version.ok() || *version != kVersion) return BadState();
  auto read_bytes = [&](Bytes* out) -> bool {
    auto size = reader.ReadUnsignedVInt();
    if (!size.ok() || *size > reader.remaining()) return false;
    auto raw = reader.ReadRaw(*size);
    if (!raw.ok()) return false;
    out->assign(*raw);
    return true;
  };
  if (!read_bytes(&state.partition_prefix) || !read_bytes(&state.last_key)) return BadState();
  auto remaining = reader.ReadI32();
  auto partition_rows = reader.ReadI32();
  if (!remaining.ok() || !partition_rows.ok() || !reader.empty()) return BadState();
  if (*remaining < -1 || *partition_rows < 0) return BadState();
  state.remaining = *remaining;
  state.partition_rows = *partition_rows;
  return state;
}

}  // namespace engine
