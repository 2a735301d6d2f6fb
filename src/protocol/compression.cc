#include "protocol/compression.h"

#include <lz4.h>
#include <snappy.h>

#include <cstring>
#include <limits>

#include "common/status.h"

namespace protocol {

namespace {

using common::Bytes;
using common::Result;
using common::Status;

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    char y = b[i] >= 'A' && b[i] <= 'Z' ? static_cast<char>(b[i] - 'A' + 'a') : b[i];
    if (x != y) return false;
  }
  return true;
}

// Compresses `input` as one raw lz4 block appended to `out`; returns the block size, or 0 when
// lz4 refuses the input (too large).
size_t AppendLz4Block(std::string_view input, Bytes* out) {
  if (input.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) return 0;
  int bound = LZ4_compressBound(static_cast<int>(input.size()));
  size_t start = out->size();
  out->resize(start + static_cast<size_t>(bound));
  int written = LZ4_compress_default(input.data(), out->data() + start,
                                     static_cast<int>(input.size()), bound);
  if (written <= 0) {
    out->resize(start);
    return 0;
  }
  out->resize(start + static_cast<size_t>(written));
  return static_cast<size_t>(written);
}

// Decompresses one raw lz4 block into exactly `size` bytes.
Result<Bytes> DecompressLz4Exact(std::string_view block, size_t size) {
  if (block.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      size > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return Status::ProtocolError("lz4 block too large");
  }
  Bytes out(size, '\0');
  char empty_output = 0;  // lz4 wants a valid destination pointer even for an empty output
  int produced = LZ4_decompress_safe(block.data(), size == 0 ? &empty_output : out.data(),
                                     static_cast<int>(block.size()), static_cast<int>(size));
  if (produced < 0 || static_cast<size_t>(produced) != size) {
    return Status::ProtocolError("Corrupt lz4 compressed data");
  }
  return out;
}

}  // namespace

std::optional<Compression> ParseCompression(std::string_view name) {
  if (EqualsIgnoreCase(name, "lz4")) return Compression::kLz4;
  if (EqualsIgnoreCase(name, "snappy")) return Compression::kSnappy;
  return std::nullopt;
}

std::string_view CompressionName(Compression compression) {
  switch (compression) {
    case Compression::kLz4:
      return "lz4";
    case Compression::kSnappy:
      return "snappy";
    case Compression::kNone:
      break;
  }
  return "";
}

Bytes CompressBody(Compression compression, std::string_view body) {
  Bytes out;
  if (compression == Compression::kSnappy) {
    snappy::Compress(body.data(), body.size(), &out);
    return out;
  }
  // lz4: a 4-byte big-endian uncompressed length, then the block.
  out.reserve(4 + static_cast<size_t>(LZ4_compressBound(static_cast<int>(body.size()))));
  uint32_t length = static_cast<uint32_t>(body.size());
  out.push_back(static_cast<char>(length >> 24));
  out.push_back(static_cast<char>(length >> 16));
  out.push_back(static_cast<char>(length >> 8));
  out.push_back(static_cast<char>(length));
  AppendLz4Block(body, &out);
  return out;
}

Result<Bytes> DecompressBody(Compression compression, std::string_view body, size_t max_size) {
  switch (compression) {
    case Compression::kLz4: {
      if (body.size() < 4) return Status::ProtocolError("Corrupt lz4 body: missing length");
      size_t length = common::LoadBigEndian32(body.data());
      if (length > max_size) {
        return Status::ProtocolError("Decompressed body of " + std::to_string(length) +
                                     " bytes exceeds the maximum of " + std::to_string(max_size));
      }
      return DecompressLz4Exact(body.substr(4), length);
    }
    case Compression::kSnappy: {
      size_t length = 0;
      if (!snappy::GetUncompressedLength(body.data(), body.size(), &length)) {
        return Status::ProtocolError("Corrupt snappy compressed data");
      }
      if (length > max_size) {
        return Status::ProtocolError("Decompressed body of " + std::to_string(length) +
                                     " bytes exceeds the maximum of " + std::to_string(max_size));
      }
      Bytes out(length, '\0');
      char empty_output = 0;  // snappy too
      if (!snappy::RawUncompress(body.data(), body.size(),
                                 length == 0 ? &empty_output : out.data())) {
        return Status::ProtocolError("Corrupt snappy compressed data");
      }
      return out;
    }
    case Compression::kNone:
      break;
  }
  return Status::ProtocolError("Compressed body received but no compression was negotiated");
}

size_t DeclaredDecompressedSize(Compression compression, std::string_view body) {
  switch (compression) {
    case Compression::kLz4:
      return body.size() < 4 ? 0 : common::LoadBigEndian32(body.data());
    case Compression::kSnappy: {
      size_t length = 0;
      return snappy::GetUncompressedLength(body.data(), body.size(), &length) ? length : 0;
    }
    case Compression::kNone:
      break;
  }
  return 0;
}

std::optional<Bytes> CompressLz4Block(std::string_view input) {
  Bytes out;
  size_t written = AppendLz4Block(input, &out);
  if (written == 0 || written >= input.size()) return std::nullopt;
  return out;
}

Result<Bytes> DecompressLz4Block(std::string_view block, size_t uncompressed_size) {
  return DecompressLz4Exact(block, uncompressed_size);
}

}  // namespace protocol
