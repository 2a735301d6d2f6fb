// The protocol layer's fuzz invariants (fuzz_checks.h, CheckProtocolInput): bytes from an
// untrusted peer go through FrameReader (v4 envelopes or v5 segments, compression on or off) and
// every envelope that comes out through the request and response decoders.

#include <cstdint>
#include <string>
#include <string_view>

#include "protocol/frame.h"
#include "protocol/messages.h"
#include "tests/fuzz/fuzz_checks.h"

namespace {

std::string CheckRequest(const protocol::Envelope& envelope) {
  common::Result<protocol::Request> request = protocol::DecodeRequest(envelope);
  if (!request.ok()) return "";
  uint8_t version = envelope.header.version;
  std::string first = protocol::EncodeRequestBody(*request, version);
  protocol::Envelope again;
  again.header = envelope.header;
  again.header.flags = 0;
  again.header.body_length = static_cast<uint32_t>(first.size());
  again.body = first;
  common::Result<protocol::Request> redecoded = protocol::DecodeRequest(again);
  if (!redecoded.ok()) return "a re-encoded request does not decode";
  if (protocol::RequestOpcode(*redecoded) != protocol::RequestOpcode(*request)) {
    return "a re-encoded request changed opcode";
  }
  if (protocol::EncodeRequestBody(*redecoded, version) != first) {
    return "request encoding is not canonical";
  }
  return "";
}

std::string CheckResponse(const protocol::Envelope& envelope) {
  common::Result<protocol::ResponsePrefix> prefix = protocol::DecodeResponsePrefix(envelope);
  std::string_view body = prefix.ok() ? prefix->rest : std::string_view(envelope.body);
  uint8_t version = envelope.header.version == 4 ? 4 : 5;
  common::Result<protocol::ResultResponse> result = protocol::DecodeResult(body, version, nullptr);
  if (result.ok() && result->kind == protocol::ResultResponse::Kind::kRows) {
    // Re-encoding what was decoded must decode again.
    common::ByteWriter out;
    protocol::EncodeResult(result->result, version, {}, &out);
    if (!protocol::DecodeResult(out.data(), version, nullptr).ok()) {
      return "re-encoded rows do not decode";
    }
  }
  (void)protocol::DecodeError(body);
  (void)protocol::DecodeEvent(body);
  (void)protocol::DecodeSupported(body);
  (void)protocol::DecodeAuthenticate(body);
  return "";
}

std::string CheckReframe(const protocol::Envelope& envelope, bool segments,
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
  if (!next.ok() || !next->has_value()) return "a re-framed envelope does not read back";
  const protocol::Envelope& back = **next;
  if (back.body != envelope.body || back.header.stream != envelope.header.stream ||
      back.header.opcode != envelope.header.opcode ||
      back.header.version != envelope.header.version) {
    return "a re-framed envelope changed";
  }
  return "";
}

}  // namespace

namespace fuzz {

std::string CheckProtocolInput(std::string_view input) {
  if (input.empty()) return "";
  const uint8_t mode = static_cast<uint8_t>(input[0]);
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
  std::string_view rest = input.substr(1);

  protocol::FrameReader reader(1 << 20);
  if (segments) {
    reader.StartSegments(compression);
  } else {
    reader.SetEnvelopeCompression(compression);
  }
  for (size_t at = 0; at < rest.size(); at += chunk) {
    reader.Append(rest.substr(at, chunk));
    while (true) {
      auto next = reader.Next();
      if (!next.ok() || !next->has_value()) break;
      const protocol::Envelope& envelope = **next;
      for (std::string violation : {CheckRequest(envelope), CheckResponse(envelope),
                                    // kSnappy is treated as kNone in segment mode by both ends.
                                    CheckReframe(envelope, segments, compression)}) {
        if (!violation.empty()) return violation;
      }
    }
    if (!reader.Next().ok()) break;
  }
  return "";
}

}  // namespace fuzz
