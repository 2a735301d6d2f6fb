#include "protocol/frame.h"

#include <algorithm>
#include <string>
#include <utility>

#include "common/status.h"
#include "protocol/crc.h"

namespace protocol {

using common::Bytes;
using common::ByteWriter;
using common::Result;
using common::Status;

namespace {

// Segment header sizes (bit-field + CRC24): uncompressed 3 + 3, lz4 5 + 3.
constexpr size_t kPlainSegmentHeader = 6;
constexpr size_t kLz4SegmentHeader = 8;
constexpr size_t kSegmentTrailer = 4;  // CRC32
constexpr uint32_t kPayloadMask = 0x1FFFF;
// Bytes of consumed input kept before the buffer is compacted.
constexpr size_t kCompactThreshold = 64 * 1024;

bool NeverCompressed(Opcode opcode) {
  return opcode == Opcode::kStartup || opcode == Opcode::kOptions || opcode == Opcode::kReady ||
         opcode == Opcode::kSupported;
}

// Envelopes whose bodies are shorter than this are sent uncompressed in v4: the saving would be
// nil and the work not.
constexpr size_t kMinCompressedBody = 64;

uint64_t LoadLittleEndian(const char* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return v;
}

void AppendLittleEndian(uint64_t v, size_t n, Bytes* out) {
  for (size_t i = 0; i < n; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// An emptied buffer larger than this gives its memory back, so a connection that once received
// a large envelope does not keep its size for the rest of its life.
constexpr size_t kKeptCapacity = 256 * 1024;

void CompactPrefix(Bytes* buffer, size_t* pos) {
  if (*pos == buffer->size()) {
    if (buffer->capacity() > kKeptCapacity) {
      Bytes().swap(*buffer);
    } else {
      buffer->clear();
    }
    *pos = 0;
  } else if (*pos >= kCompactThreshold && *pos * 2 >= buffer->size()) {
    buffer->erase(0, *pos);
    *pos = 0;
  }
}

}  // namespace

std::string_view OpcodeName(Opcode opcode) {
  switch (opcode) {
    case Opcode::kError:
      return "ERROR";
    case Opcode::kStartup:
      return "STARTUP";
    case Opcode::kReady:
      return "READY";
    case Opcode::kAuthenticate:
      return "AUTHENTICATE";
    case Opcode::kOptions:
      return "OPTIONS";
    case Opcode::kSupported:
      return "SUPPORTED";
    case Opcode::kQuery:
      return "QUERY";
    case Opcode::kResult:
      return "RESULT";
    case Opcode::kPrepare:
      return "PREPARE";
    case Opcode::kExecute:
      return "EXECUTE";
    case Opcode::kRegister:
      return "REGISTER";
    case Opcode::kEvent:
      return "EVENT";
    case Opcode::kBatch:
      return "BATCH";
    case Opcode::kAuthChallenge:
      return "AUTH_CHALLENGE";
    case Opcode::kAuthResponse:
      return "AUTH_RESPONSE";
    case Opcode::kAuthSuccess:
      return "AUTH_SUCCESS";
  }
  return "UNKNOWN";
}

void EncodeEnvelopeHeader(const EnvelopeHeader& header, ByteWriter* out) {
  out->PutU8(static_cast<uint8_t>((header.version & 0x7F) | (header.is_response ? 0x80 : 0)));
  out->PutU8(header.flags);
  out->PutI16(header.stream);
  out->PutU8(static_cast<uint8_t>(header.opcode));
  out->PutU32(header.body_length);
}

EnvelopeHeader DecodeEnvelopeHeader(std::string_view bytes) {
  EnvelopeHeader header;
  auto first = static_cast<uint8_t>(bytes[0]);
  header.version = first & 0x7F;
  header.is_response = (first & 0x80) != 0;
  header.flags = static_cast<uint8_t>(bytes[1]);
  header.stream = static_cast<int16_t>(common::LoadBigEndian16(bytes.data() + 2));
  header.opcode = static_cast<Opcode>(static_cast<uint8_t>(bytes[4]));
  header.body_length = common::LoadBigEndian32(bytes.data() + 5);
  return header;
}

// ---------------------------------------------------------------------------------------------
// FrameReader
//
// Invariants:
// 1. input_[input_pos_..] holds received bytes not yet consumed: v4 envelopes before
//    StartSegments, segments after it.
// 2. In segment mode envelopes_[envelopes_pos_..] holds the unwrapped payload bytes not yet
//    returned as envelopes; it never holds more than one envelope's header past the envelope
//    limit, because the limit is checked as soon as a header is complete.
// 3. Once Next() failed, error_ is set and every later call returns it.

FrameReader::FrameReader(size_t max_envelope_body) : max_envelope_body_(max_envelope_body) {}

void FrameReader::Append(std::string_view bytes) {
  CompactPrefix(&input_, &input_pos_);
  input_.append(bytes);
}

void FrameReader::SetEnvelopeCompression(Compression compression) {
  envelope_compression_ = compression;
}

void FrameReader::StartSegments(Compression compression) {
  segments_ = true;
  segment_compression_ = compression == Compression::kLz4 ? Compression::kLz4 : Compression::kNone;
}

size_t FrameReader::buffered() const {
  return (input_.size() - input_pos_) + (envelopes_.size() - envelopes_pos_);
}

size_t FrameReader::EnvelopeMemoryNeeded(const Bytes& bytes, size_t pos) const {
  size_t available = bytes.size() - pos;
  if (available < kEnvelopeHeaderSize) return 0;
  EnvelopeHeader header = DecodeEnvelopeHeader(std::string_view(bytes).substr(pos));
  if (header.body_length > max_envelope_body_) return 0;  // Next() refuses it
  size_t received = available - kEnvelopeHeaderSize;
  if (received < header.body_length) return header.body_length - received;
  if ((header.flags & kFlagCompression) == 0 || segments_) return 0;
  std::string_view body =
      std::string_view(bytes).substr(pos + kEnvelopeHeaderSize, header.body_length);
  size_t declared = DeclaredDecompressedSize(envelope_compression_, body);
  return declared > max_envelope_body_ ? 0 : declared;  // Next() refuses it
}

size_t FrameReader::MemoryNeeded() const {
  size_t needed = buffered();
  if (!segments_) return needed + EnvelopeMemoryNeeded(input_, input_pos_);
  needed += EnvelopeMemoryNeeded(envelopes_, envelopes_pos_);
  if (segment_compression_ == Compression::kLz4 &&
      input_.size() - input_pos_ >= kLz4SegmentHeader) {
    uint64_t field = LoadLittleEndian(input_.data() + input_pos_, kLz4SegmentHeader - 3);
    needed += (field >> 17) & kPayloadMask;
  }
  return needed;
}

Status FrameReader::Fail(Status status) {
  error_ = status;
  return status;
}

Result<std::optional<Envelope>> FrameReader::NextEnvelope(const Bytes& bytes, size_t* pos,
                                                          bool allow_compression) {
  size_t available = bytes.size() - *pos;
  if (available < kEnvelopeHeaderSize) return std::optional<Envelope>();
  EnvelopeHeader header = DecodeEnvelopeHeader(std::string_view(bytes).substr(*pos));
  if (header.body_length > max_envelope_body_) {
    failed_header_ = header;
    return Fail(Status::ProtocolError(
        "Request is too big: length " + std::to_string(header.body_length) +
        " exceeds maximum allowed length " + std::to_string(max_envelope_body_) + "."));
  }
  if (available - kEnvelopeHeaderSize < header.body_length) return std::optional<Envelope>();
  std::string_view body =
      std::string_view(bytes).substr(*pos + kEnvelopeHeaderSize, header.body_length);
  *pos += kEnvelopeHeaderSize + header.body_length;
  Envelope envelope;
  envelope.header = header;
  if ((header.flags & kFlagCompression) != 0) {
    if (!allow_compression) {
      failed_header_ = header;
      return Fail(Status::ProtocolError(
          "Envelope compression flag set in protocol v5 segments, where segments are compressed"));
    }
    if (envelope_compression_ == Compression::kNone) {
      failed_header_ = header;
      return Fail(
          Status::ProtocolError("Received a compressed envelope but no compression was "
                                "negotiated in STARTUP"));
    }
    Result<Bytes> decompressed = DecompressBody(envelope_compression_, body, max_envelope_body_);
    if (!decompressed.ok()) {
      failed_header_ = header;
      return Fail(decompressed.status());
    }
    envelope.body = std::move(decompressed).value();
    envelope.header.flags &= static_cast<uint8_t>(~kFlagCompression);
    envelope.header.body_length = static_cast<uint32_t>(envelope.body.size());
  } else {
    envelope.body.assign(body);
  }
  return std::optional<Envelope>(std::move(envelope));
}

Result<bool> FrameReader::NextSegment() {
  const bool lz4 = segment_compression_ == Compression::kLz4;
  const size_t header_size = lz4 ? kLz4SegmentHeader : kPlainSegmentHeader;
  const size_t field_size = header_size - 3;
  size_t available = input_.size() - input_pos_;
  if (available < header_size) return false;
  const char* start = input_.data() + input_pos_;
  uint64_t field = LoadLittleEndian(start, field_size);
  auto crc24 = static_cast<uint32_t>(LoadLittleEndian(start + field_size, 3));
  uint32_t computed24 = Crc24(std::string_view(start, field_size));
  if (crc24 != computed24) {
    return Fail(Status::ProtocolError("Segment header CRC24 mismatch: read " +
                                      std::to_string(crc24) + ", computed " +
                                      std::to_string(computed24)));
  }
  size_t payload_length = field & kPayloadMask;
  size_t uncompressed_length = lz4 ? ((field >> 17) & kPayloadMask) : 0;
  bool self_contained = ((field >> (lz4 ? 34 : 17)) & 1) != 0;
  if (available < header_size + payload_length + kSegmentTrailer) return false;
  std::string_view payload(start + header_size, payload_length);
  auto crc32 = static_cast<uint32_t>(LoadLittleEndian(start + header_size + payload_length, 4));
  uint32_t computed32 = Crc32(payload);
  if (crc32 != computed32) {
    return Fail(Status::ProtocolError("Segment payload CRC32 mismatch: read " +
                                      std::to_string(crc32) + ", computed " +
                                      std::to_string(computed32)));
  }
  Bytes decompressed;
  if (uncompressed_length > 0) {
    Result<Bytes> result = DecompressLz4Block(payload, uncompressed_length);
    if (!result.ok()) return Fail(result.status());
    decompressed = std::move(result).value();
    payload = decompressed;
  }
  if (self_contained) {
    // Whole envelopes only: nothing pending from earlier segments, and the envelope headers in
    // the payload must end exactly at its end.
    if (envelopes_pos_ != envelopes_.size()) {
      return Fail(
          Status::ProtocolError("Self-contained segment received while an envelope is incomplete"));
    }
    size_t pos = 0;
    while (pos < payload.size()) {
      if (payload.size() - pos < kEnvelopeHeaderSize) break;
      size_t body = common::LoadBigEndian32(payload.data() + pos + 5);
      if (body > payload.size() - pos - kEnvelopeHeaderSize) break;
      pos += kEnvelopeHeaderSize + body;
    }
    if (pos != payload.size()) {
      return Fail(Status::ProtocolError("Self-contained segment does not hold whole envelopes"));
    }
  }
  input_pos_ += header_size + payload_length + kSegmentTrailer;
  CompactPrefix(&envelopes_, &envelopes_pos_);
  envelopes_.append(payload);
  return true;
}

Result<std::optional<Envelope>> FrameReader::Next() {
  if (!error_.ok()) return error_;
  if (!segments_) {
    ASSIGN_OR_RETURN(std::optional<Envelope> envelope,
                     NextEnvelope(input_, &input_pos_, /*allow_compression=*/true));
    CompactPrefix(&input_, &input_pos_);
    return envelope;
  }
  while (true) {
    ASSIGN_OR_RETURN(std::optional<Envelope> envelope,
                     NextEnvelope(envelopes_, &envelopes_pos_, /*allow_compression=*/false));
    if (envelope.has_value()) {
      CompactPrefix(&envelopes_, &envelopes_pos_);
      return envelope;
    }
    ASSIGN_OR_RETURN(bool got_segment, NextSegment());
    if (!got_segment) return std::optional<Envelope>();
  }
}

// ---------------------------------------------------------------------------------------------
// FrameWriter

void FrameWriter::SetEnvelopeCompression(Compression compression) {
  envelope_compression_ = compression;
}

void FrameWriter::StartSegments(Compression compression) {
  if (!segments_) raw_prefix_ = pending_.size();
  segments_ = true;
  segment_compression_ = compression == Compression::kLz4 ? Compression::kLz4 : Compression::kNone;
}

void FrameWriter::Add(const EnvelopeHeader& header, std::string_view body) {
  EnvelopeHeader wire = header;
  ByteWriter writer(std::move(pending_));
  if (!segments_ && envelope_compression_ != Compression::kNone &&
      body.size() >= kMinCompressedBody && !NeverCompressed(header.opcode)) {
    Bytes compressed = CompressBody(envelope_compression_, body);
    if (compressed.size() < body.size()) {
      wire.flags |= kFlagCompression;
      wire.body_length = static_cast<uint32_t>(compressed.size());
      EncodeEnvelopeHeader(wire, &writer);
      writer.PutRaw(compressed);
      pending_ = writer.Release();
      return;
    }
  }
  wire.flags &= static_cast<uint8_t>(~kFlagCompression);
  wire.body_length = static_cast<uint32_t>(body.size());
  writer.mutable_data().reserve(writer.size() + kEnvelopeHeaderSize + body.size());
  EncodeEnvelopeHeader(wire, &writer);
  writer.PutRaw(body);
  pending_ = writer.Release();
  if (segments_) pending_sizes_.push_back(kEnvelopeHeaderSize + body.size());
}

void FrameWriter::WriteSegment(std::string_view payload, bool self_contained, Bytes* out) const {
  std::optional<Bytes> compressed;
  if (segment_compression_ == Compression::kLz4) {
    compressed = CompressLz4Block(payload);
    std::string_view wire = compressed.has_value() ? std::string_view(*compressed) : payload;
    uint64_t field = wire.size() | (uint64_t{compressed.has_value() ? payload.size() : 0} << 17) |
                     (uint64_t{self_contained ? 1u : 0u} << 34);
    size_t header_at = out->size();
    AppendLittleEndian(field, 5, out);
    AppendLittleEndian(Crc24(std::string_view(*out).substr(header_at, 5)), 3, out);
    out->append(wire);
    AppendLittleEndian(Crc32(wire), 4, out);
    return;
  }
  uint64_t field = payload.size() | (uint64_t{self_contained ? 1u : 0u} << 17);
  size_t header_at = out->size();
  AppendLittleEndian(field, 3, out);
  AppendLittleEndian(Crc24(std::string_view(*out).substr(header_at, 3)), 3, out);
  out->append(payload);
  AppendLittleEndian(Crc32(payload), 4, out);
}

void FrameWriter::Flush(Bytes* out) {
  if (!segments_) {
    if (out->empty()) {
      out->swap(pending_);
    } else {
      out->append(pending_);
    }
    pending_.clear();
    return;
  }
  std::string_view all(pending_);
  out->reserve(out->size() + pending_.size() +
               (pending_sizes_.size() + pending_.size() / kMaxSegmentPayload + 1) *
                   (kLz4SegmentHeader + kSegmentTrailer));
  out->append(all.substr(0, raw_prefix_));
  size_t pos = raw_prefix_;
  size_t run_start = pos;  // start of the envelopes gathered for the next self-contained segment
  for (size_t size : pending_sizes_) {
    if (size > kMaxSegmentPayload) {
      if (pos > run_start) WriteSegment(all.substr(run_start, pos - run_start), true, out);
      for (size_t at = 0; at < size; at += kMaxSegmentPayload) {
        WriteSegment(all.substr(pos + at, std::min(kMaxSegmentPayload, size - at)), false, out);
      }
      pos += size;
      run_start = pos;
      continue;
    }
    if (pos + size - run_start > kMaxSegmentPayload) {
      WriteSegment(all.substr(run_start, pos - run_start), true, out);
      run_start = pos;
    }
    pos += size;
  }
  if (pos > run_start) WriteSegment(all.substr(run_start, pos - run_start), true, out);
  pending_.clear();
  pending_sizes_.clear();
  raw_prefix_ = 0;
}

}  // namespace protocol
