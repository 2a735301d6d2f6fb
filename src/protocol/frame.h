// Frame: the native protocol's envelopes and their framing on a byte stream
// (native_protocol_v4.spec §2, native_protocol_v5.spec §2).
//
// An envelope is the classic 9-byte header (version | flags | stream | opcode | length) and its
// body. Protocol v4 puts envelopes straight on the stream, optionally compressing each body
// (flag 0x01; lz4 bodies carry a 4-byte big-endian uncompressed length first). Protocol v5, after
// the READY or AUTHENTICATE answer to STARTUP, wraps envelopes in segments: a little-endian
// header with a CRC24, a payload of at most 131071 bytes (raw or one lz4 block), and a CRC32 of
// the payload (specs/protocol_v5_framing.md). A self-contained segment holds whole envelopes; a
// larger envelope is split across segments that are not self-contained.
//
// `FrameReader` turns received bytes into envelopes and `FrameWriter` envelopes into bytes to
// send; both are I/O-free so the server, the client, the tests and the fuzzers share them. Neither
// looks at bodies beyond decompression: messages.h decodes them.
//
// Pipeline: socket bytes → FrameReader → Envelope → messages.h DecodeRequest → server dispatch,
// and back: messages.h Encode* → FrameWriter → socket.
//
// Thread-safety: FrameReader and FrameWriter are not thread-safe (one per connection direction).

#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "protocol/compression.h"

namespace protocol {

enum class Opcode : uint8_t {
  kError = 0x00,
  kStartup = 0x01,
  kReady = 0x02,
  kAuthenticate = 0x03,
  kOptions = 0x05,
  kSupported = 0x06,
  kQuery = 0x07,
  kResult = 0x08,
  kPrepare = 0x09,
  kExecute = 0x0A,
  kRegister = 0x0B,
  kEvent = 0x0C,
  kBatch = 0x0D,
  kAuthChallenge = 0x0E,
  kAuthResponse = 0x0F,
  kAuthSuccess = 0x10,
};

// "QUERY", "RESULT", ...; "UNKNOWN" for codes that are not opcodes.
std::string_view OpcodeName(Opcode opcode);

// Envelope flags (§2.2).
inline constexpr uint8_t kFlagCompression = 0x01;
inline constexpr uint8_t kFlagTracing = 0x02;
inline constexpr uint8_t kFlagCustomPayload = 0x04;
inline constexpr uint8_t kFlagWarning = 0x08;
inline constexpr uint8_t kFlagUseBeta = 0x10;

// The versions this implementation speaks; others are refused during negotiation.
inline constexpr uint8_t kMinVersion = 4;
inline constexpr uint8_t kMaxVersion = 5;
inline constexpr size_t kEnvelopeHeaderSize = 9;
// Largest segment payload (v5): 2^17 - 1 bytes.
inline constexpr size_t kMaxSegmentPayload = 131071;
// Default limit on one envelope's body (Cassandra 4's native_transport_max_frame_size: 16 MiB).
inline constexpr size_t kDefaultMaxEnvelopeBody = 16 * 1024 * 1024;

struct EnvelopeHeader {
  uint8_t version = kMaxVersion;  // without the direction bit
  bool is_response = false;       // the direction bit (0x80 of the first byte)
  uint8_t flags = 0;
  int16_t stream = 0;
  Opcode opcode = Opcode::kError;
  uint32_t body_length = 0;  // as on the wire (compressed length when flag 0x01 is set)
  bool operator==(const EnvelopeHeader&) const = default;
};

// Writes the 9 header bytes.
void EncodeEnvelopeHeader(const EnvelopeHeader& header, common::ByteWriter* out);
// Reads 9 header bytes. Never fails on content (any version and opcode byte is returned as is);
// REQUIRES: bytes.size() >= kEnvelopeHeaderSize.
EnvelopeHeader DecodeEnvelopeHeader(std::string_view bytes);

struct Envelope {
  EnvelopeHeader header;
  // The body, decompressed when the envelope's compression flag was set (the flag is then
  // cleared in `header` and body_length is the decompressed size). Tracing ids, warnings and
  // custom payloads are still in it: messages.h reads them.
  common::Bytes body;
};

// Stream → envelopes.
class FrameReader {
 public:
  explicit FrameReader(size_t max_envelope_body = kDefaultMaxEnvelopeBody);

  // Appends bytes received from the peer.
  void Append(std::string_view bytes);

  // Envelope compression (protocol v4: bodies flagged 0x01 are decompressed with it). Set after
  // STARTUP negotiated it. With kNone a flagged body is a protocol error.
  void SetEnvelopeCompression(Compression compression);
  // Switches to v5 segment framing: bytes not consumed yet, and all later ones, are segments
  // (lz4 segments when `compression` is kLz4; kSnappy is not allowed and treated as kNone).
  void StartSegments(Compression compression);
  bool in_segments() const { return segments_; }

  // The next complete envelope, or nullopt when more bytes are needed. Errors (ProtocolError,
  // with a message saying what is wrong): a header or payload CRC mismatch, an envelope body
  // larger than the limit, a body that does not decompress, a segment that is self-contained
  // but does not hold whole envelopes. After an error the stream cannot be resynchronized: the
  // connection should answer (see failed_header()) and close.
  common::Result<std::optional<Envelope>> Next();

  // After Next() failed: the header of the envelope it was reading when that header was
  // decoded (to answer on the right stream id and version), else nullopt.
  const std::optional<EnvelopeHeader>& failed_header() const { return failed_header_; }

  // Bytes buffered and not yet consumed (for back-pressure decisions).
  size_t buffered() const;

  // The memory the reader needs to return its next envelope, counted before it is received or
  // decompressed: the bytes buffered, plus the rest of the body that a complete envelope header
  // declares (when within the limit), plus the declared decompressed size of a complete
  // compressed body (v4) or of the next complete lz4 segment (v5). Nothing is allocated for a
  // declared length: buffers only ever hold bytes received.
  size_t MemoryNeeded() const;

  // Changes the body limit for envelopes whose header is not decoded yet (e.g. small frames
  // before STARTUP, the configured limit after it). REQUIRES: max_envelope_body > 0.
  void set_max_envelope_body(size_t max_envelope_body) { max_envelope_body_ = max_envelope_body; }
  size_t max_envelope_body() const { return max_envelope_body_; }

 private:
  // Implementation-defined members (the protocol helper fills these in).
  size_t max_envelope_body_;
  Compression envelope_compression_ = Compression::kNone;
  Compression segment_compression_ = Compression::kNone;
  bool segments_ = false;
  common::Bytes input_;       // raw bytes received
  size_t input_pos_ = 0;      // consumed prefix of input_
  common::Bytes envelopes_;   // v5: envelope bytes unwrapped from segments
  size_t envelopes_pos_ = 0;  // consumed prefix of envelopes_
  std::optional<EnvelopeHeader> failed_header_;
  common::Status error_;  // sticky: once Next() failed it keeps failing

  // Steps of Next(): one envelope from `bytes` at `*pos` (v4 stream or unwrapped v5 segments),
  // and one segment from input_ appended to envelopes_ (false when incomplete).
  common::Result<std::optional<Envelope>> NextEnvelope(const common::Bytes& bytes, size_t* pos,
                                                       bool allow_compression);
  common::Result<bool> NextSegment();
  // MemoryNeeded()'s share for the envelope starting at bytes[pos]: the declared rest of its
  // body, or its declared decompressed size once the body is complete.
  size_t EnvelopeMemoryNeeded(const common::Bytes& bytes, size_t pos) const;
  common::Status Fail(common::Status status);
};

// Envelopes → stream.
class FrameWriter {
 public:
  FrameWriter() = default;

  // Envelope compression for v4 (bodies of at least a few bytes are compressed and flagged;
  // STARTUP/OPTIONS/READY/SUPPORTED never are). kNone by default.
  void SetEnvelopeCompression(Compression compression);
  // Switches to v5 segment framing for every envelope added from now on.
  void StartSegments(Compression compression);
  bool in_segments() const { return segments_; }

  // Adds one envelope; `header.body_length` is ignored (computed). In v4 mode the envelope is
  // appended to the pending output at once; in segment mode it is queued for the next Flush.
  void Add(const EnvelopeHeader& header, std::string_view body);

  // Appends everything added since the last Flush to `out`: in segment mode the queued envelopes
  // are packed into self-contained segments of at most kMaxSegmentPayload bytes, and an envelope
  // longer than that is split across non-self-contained segments.
  void Flush(common::Bytes* out);

  bool empty() const { return pending_.empty(); }

 private:
  Compression envelope_compression_ = Compression::kNone;
  Compression segment_compression_ = Compression::kNone;
  bool segments_ = false;
  common::Bytes pending_;  // v4: encoded envelopes; v5: envelopes not yet wrapped in segments
  // Segment mode: the first raw_prefix_ bytes of pending_ were added before StartSegments and go
  // out unframed; after them, the sizes of the queued envelopes in order.
  size_t raw_prefix_ = 0;
  std::vector<size_t> pending_sizes_;

  void WriteSegment(std::string_view payload, bool self_contained, common::Bytes* out) const;
};

}  // namespace protocol
