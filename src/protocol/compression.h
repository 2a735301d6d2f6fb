// Compression: the native protocol's body and segment compressors (lz4, snappy).
//
// Protocol v4 compresses envelope bodies: an lz4 body is a 4-byte big-endian uncompressed length
// followed by one raw lz4 block; a snappy body is snappy's raw format. Protocol v5 compresses
// segment payloads as one raw lz4 block each, the lengths living in the segment header
// (frame.h). Decompression never trusts the input: lengths are checked against limits and
// corrupt input is a ProtocolError, never a crash.
//
// Thread-safety: free functions without shared state.

#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "common/bytes.h"
#include "common/result.h"

namespace protocol {

enum class Compression : uint8_t { kNone, kLz4, kSnappy };

// The STARTUP option value: "lz4" → kLz4, "snappy" → kSnappy (case-insensitive); else nullopt.
std::optional<Compression> ParseCompression(std::string_view name);
// "lz4", "snappy", "" for kNone.
std::string_view CompressionName(Compression compression);

// v4 envelope bodies. REQUIRES: compression != kNone.
common::Bytes CompressBody(Compression compression, std::string_view body);
// Errors: ProtocolError when the input is corrupt or would decompress to more than `max_size`.
common::Result<common::Bytes> DecompressBody(Compression compression, std::string_view body,
                                             size_t max_size);

// The decompressed size a v4 body declares (lz4's length prefix, snappy's varint), without
// decompressing; 0 when it declares none or `compression` is kNone. For accounting only:
// DecompressBody checks it again.
size_t DeclaredDecompressedSize(Compression compression, std::string_view body);

// v5 segment payloads: one raw lz4 block, no length prefix. Returns nullopt when the block would
// not be strictly smaller than the input (the segment is then sent raw).
std::optional<common::Bytes> CompressLz4Block(std::string_view input);
// Errors: ProtocolError unless the block decompresses to exactly `uncompressed_size` bytes.
common::Result<common::Bytes> DecompressLz4Block(std::string_view block, size_t uncompressed_size);

}  // namespace protocol
