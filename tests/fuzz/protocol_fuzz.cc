// libFuzzer target for the protocol layer: bytes from an untrusted peer go through FrameReader
// (v4 envelopes or v5 segments, compression on or off) and every envelope that comes out through
// the request and response decoders. Invariants (a violation aborts, so libFuzzer keeps the
// input; scripts/run-fuzzers moves it to tests/fuzz/regressions/protocol/):
// 1. Nothing crashes, whatever the bytes claim.
// 2. A request that decodes re-encodes canonically: decode(encode(r)) succeeds and encodes to
//    the same bytes.
// 3. An envelope read from the stream, written again by FrameWriter in the same mode and read
//    back, comes out with the same header and body.
//
// The first input byte picks the mode: bit 0 segments (v5) or envelopes (v4), bits 1-2 the
// compression (none, lz4, snappy), bits 3-7 the chunk size the rest is fed in.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "protocol/frame.h"
#include "protocol/messages.h"

namespace {

[[noreturn]] void Violation(const char* what) {
  std::fprintf(stderr, "invariant violated: %s\n", what);
  std::abort();
}

void CheckRequest(const protocol::Envelope& envelope) {
  common::Result<protocol::Request> request = protocol::DecodeRequest(envelope);
  if (!request.ok()) return;
  uint8_t version = envelope.header.version;
  std::string first = protocol::EncodeRequestBody(*request, version);
  protocol::Envelope again;
  again.header = envelope.header;
  again.header.flags = 0;
  again.header.body_length = static_cast<uint32_t>(first.size());
  again.body = first;
  common::Result<protocol::Request> redecoded = protocol::DecodeRequest(again);
  if (!redecoded.ok()) Violation("a re-encoded request does not decode");
  if (protocol::RequestOpcode(*redecoded) != protocol::RequestOpcode(*request)) {
    Violation("a re-encoded request changed opcode");
  }
  if (protocol::EncodeRequestBody(*redecoded, version) != first) {
    Violation("request encoding is not canonical");
  }
}

void CheckResponse(const protocol::Envelope& envelope) {
  common::Result<protocol::ResponsePrefix> prefix = protocol::DecodeResponsePrefix(envelope);
  std::string_view body = prefix.ok() ? prefix->rest : std::string_view(envelope.body);
  uint8_t version = envelope.header.version == 4 ? 4 : 5;
  common::Result<protocol::ResultResponse> result = protocol::DecodeResult(body, version, nullptr);
  if (result.ok() && result->kind == protocol::ResultResponse::Kind::kRows) {
    // Re-encoding what was decoded must decode again.
    common::ByteWriter out;
    protocol::EncodeResult(result->result, version, {}, &out);
    if (!protocol::DecodeResult(out.data(), version, nullptr).ok()) {
      Violation("re-encoded rows do not decode");
    }
  }
  (void)protocol::DecodeError(body);
  (void)protocol::DecodeEvent(body);
  (void)protocol::DecodeSupported(body);
  (void)protocol::DecodeAuthenticate(body);
}

void CheckReframe(const protocol::Envelope& envelope, bool segments,
                  protocol::Compression compression) {
  protocol::FrameWriter writer;
  protocol::FrameReader reader;
  if (segments) {
    writer.StartSegments(compression);
    reader.StartSegments(compression);
  } else {
    writer.SetEnvelopeCompression(compression);
    reader.SetEnvelopeCompression(compression);
  }
  writer.Add(envelope.header, envelope.body);
  std::string wire;
  writer.Flush(&wire);
  reader.Append(wire);
  auto next = reader.Next();
  if (!next.ok() || !next->has_value()) Violation("a re-framed envelope does not read back");
  const protocol::Envelope& back = **next;
  if (back.body != envelope.body || back.header.stream != envelope.header.stream ||
      back.header.opcode != envelope.header.opcode ||
      back.header.version != envelope.header.version) {
    Violation("a re-framed envelope changed");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  const bool segments = (mode & 1) != 0;
  protocol::Compression compression = protocol::Compression::kNone;
  switch ((mode >> 1) & 3) {
    case 1:
      compression = protocol::Compression::kLz4;
      break;
    case 2:
      compression = protocol::Compression::kSnappy;
      break;
    default:
      break;
  }
  const size_t chunk = 1 + (mode >> 3) * 7;
  std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);

  protocol::FrameReader reader(1 << 20);
  if (segments) {
    reader.StartSegments(compression);
  } else {
    reader.SetEnvelopeCompression(compression);
  }
  for (size_t at = 0; at < input.size(); at += chunk) {
    reader.Append(input.substr(at, chunk));
    while (true) {
      auto next = reader.Next();
      if (!next.ok() || !next->has_value()) break;
      const protocol::Envelope& envelope = **next;
      CheckRequest(envelope);
      CheckResponse(envelope);
      // kSnappy is treated as kNone in segment mode by both ends.
      CheckReframe(envelope, segments, compression);
    }
    if (!reader.Next().ok()) break;
  }
  return 0;
}
