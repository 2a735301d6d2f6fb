#include "protocol/frame.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "protocol/crc.h"

namespace protocol {
namespace {

using common::Bytes;

std::string Hex(std::string_view hex) { return common::FromHex(hex).value(); }

std::string Repetitive(size_t n, int salt = 0) {
  std::string s;
  s.reserve(n + 16);
  for (size_t i = 0; s.size() < n; ++i) s += "cell " + std::to_string((i + salt) % 113) + ",";
  s.resize(n);
  return s;
}

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

EnvelopeHeader Header(uint8_t version, int16_t stream, Opcode opcode, bool response = false) {
  EnvelopeHeader h;
  h.version = version;
  h.stream = stream;
  h.opcode = opcode;
  h.is_response = response;
  return h;
}

struct Sent {
  EnvelopeHeader header;
  std::string body;
};

// Reads every envelope from `reader`; fails the test on an error.
std::vector<Envelope> Drain(FrameReader* reader) {
  std::vector<Envelope> out;
  while (true) {
    auto next = reader->Next();
    EXPECT_TRUE(next.ok()) << next.status().ToString();
    if (!next.ok() || !next->has_value()) break;
    out.push_back(std::move(**next));
  }
  return out;
}

void ExpectSame(const std::vector<Envelope>& got, const std::vector<Sent>& sent) {
  ASSERT_EQ(got.size(), sent.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].header.stream, sent[i].header.stream) << i;
    EXPECT_EQ(got[i].header.opcode, sent[i].header.opcode) << i;
    EXPECT_EQ(got[i].header.version, sent[i].header.version) << i;
    EXPECT_EQ(got[i].header.is_response, sent[i].header.is_response) << i;
    EXPECT_EQ(got[i].header.flags & kFlagCompression, 0) << i;
    EXPECT_EQ(got[i].header.body_length, sent[i].body.size()) << i;
    EXPECT_TRUE(got[i].body == sent[i].body) << i << " size " << got[i].body.size();
  }
}

std::vector<Sent> SampleEnvelopes(uint8_t version) {
  std::vector<Sent> sent;
  sent.push_back({Header(version, 0, Opcode::kOptions), ""});
  sent.push_back({Header(version, 1, Opcode::kQuery), Repetitive(100)});
  sent.push_back({Header(version, -1, Opcode::kEvent, true), RandomBytes(300, 1)});
  sent.push_back({Header(version, 32767, Opcode::kResult, true), Repetitive(5000, 3)});
  sent.push_back({Header(version, 7, Opcode::kExecute), RandomBytes(10, 2)});
  return sent;
}

TEST(EnvelopeHeaderTest, EncodeDecode) {
  EnvelopeHeader h = Header(4, -2, Opcode::kResult, true);
  h.flags = kFlagTracing | kFlagWarning;
  h.body_length = 0x01020304;
  common::ByteWriter w;
  EncodeEnvelopeHeader(h, &w);
  EXPECT_EQ(common::ToHex(w.data()), "840afffe0801020304");
  EXPECT_EQ(DecodeEnvelopeHeader(w.data()), h);
  // Unknown versions and opcodes are returned as they are.
  EnvelopeHeader odd = DecodeEnvelopeHeader(Hex("4200000063ff00000000"));
  EXPECT_EQ(odd.version, 0x42);
  EXPECT_FALSE(odd.is_response);
  EXPECT_EQ(static_cast<int>(odd.opcode), 0x63);
  EXPECT_EQ(OpcodeName(odd.opcode), "UNKNOWN");
  EXPECT_EQ(OpcodeName(Opcode::kAuthSuccess), "AUTH_SUCCESS");
}

class FrameRoundTripTest : public ::testing::TestWithParam<Compression> {};

TEST_P(FrameRoundTripTest, V4Envelopes) {
  FrameWriter writer;
  writer.SetEnvelopeCompression(GetParam());
  std::vector<Sent> sent = SampleEnvelopes(4);
  for (const Sent& s : sent) writer.Add(s.header, s.body);
  Bytes wire;
  writer.Flush(&wire);
  EXPECT_TRUE(writer.empty());
  if (GetParam() != Compression::kNone) {
    // The 5000-byte repetitive RESULT body is compressed and flagged.
    size_t uncompressed = 0;
    for (const Sent& s : sent) uncompressed += kEnvelopeHeaderSize + s.body.size();
    EXPECT_LT(wire.size(), uncompressed);
  }
  FrameReader reader;
  reader.SetEnvelopeCompression(GetParam());
  reader.Append(wire);
  ExpectSame(Drain(&reader), sent);
  EXPECT_EQ(reader.buffered(), 0u);
}

TEST_P(FrameRoundTripTest, V4BytesOneAtATime) {
  FrameWriter writer;
  writer.SetEnvelopeCompression(GetParam());
  std::vector<Sent> sent = SampleEnvelopes(4);
  for (const Sent& s : sent) writer.Add(s.header, s.body);
  Bytes wire;
  writer.Flush(&wire);
  FrameReader reader;
  reader.SetEnvelopeCompression(GetParam());
  std::vector<Envelope> got;
  for (char c : wire) {
    reader.Append(std::string_view(&c, 1));
    auto more = Drain(&reader);
    for (auto& e : more) got.push_back(std::move(e));
  }
  ExpectSame(got, sent);
}

TEST_P(FrameRoundTripTest, V5Segments) {
  if (GetParam() == Compression::kSnappy) GTEST_SKIP() << "v5 segments have no snappy";
  FrameWriter writer;
  writer.StartSegments(GetParam());
  EXPECT_TRUE(writer.in_segments());
  std::vector<Sent> sent = SampleEnvelopes(5);
  for (const Sent& s : sent) writer.Add(s.header, s.body);
  Bytes wire;
  writer.Flush(&wire);
  FrameReader reader;
  reader.StartSegments(GetParam());
  reader.Append(wire);
  ExpectSame(Drain(&reader), sent);
  EXPECT_EQ(reader.buffered(), 0u);
}

TEST_P(FrameRoundTripTest, V5LargeEnvelopesSplitAcrossSegments) {
  if (GetParam() == Compression::kSnappy) GTEST_SKIP();
  std::vector<Sent> sent;
  sent.push_back({Header(5, 1, Opcode::kResult, true), "small"});
  // Envelope sizes around the segment limit: exactly the limit, one more, and far more.
  sent.push_back({Header(5, 2, Opcode::kResult, true),
                  RandomBytes(kMaxSegmentPayload - kEnvelopeHeaderSize, 4)});
  sent.push_back({Header(5, 3, Opcode::kResult, true),
                  RandomBytes(kMaxSegmentPayload - kEnvelopeHeaderSize + 1, 5)});
  sent.push_back({Header(5, 4, Opcode::kResult, true), Repetitive(400000)});
  sent.push_back({Header(5, 5, Opcode::kResult, true), RandomBytes(300000, 6)});
  sent.push_back({Header(5, 6, Opcode::kReady, true), ""});
  FrameWriter writer;
  writer.StartSegments(GetParam());
  for (const Sent& s : sent) writer.Add(s.header, s.body);
  Bytes wire;
  writer.Flush(&wire);
  FrameReader reader;
  reader.StartSegments(GetParam());
  // Feed in uneven chunks.
  std::vector<Envelope> got;
  for (size_t at = 0; at < wire.size(); at += 7919) {
    reader.Append(std::string_view(wire).substr(at, 7919));
    for (auto& e : Drain(&reader)) got.push_back(std::move(e));
  }
  ExpectSame(got, sent);
}

TEST_P(FrameRoundTripTest, V5BytesOneAtATime) {
  if (GetParam() == Compression::kSnappy) GTEST_SKIP();
  FrameWriter writer;
  writer.StartSegments(GetParam());
  std::vector<Sent> sent = SampleEnvelopes(5);
  for (const Sent& s : sent) {
    writer.Add(s.header, s.body);
  }
  Bytes wire;
  writer.Flush(&wire);
  FrameReader reader;
  reader.StartSegments(GetParam());
  std::vector<Envelope> got;
  for (char c : wire) {
    reader.Append(std::string_view(&c, 1));
    for (auto& e : Drain(&reader)) got.push_back(std::move(e));
  }
  ExpectSame(got, sent);
}

INSTANTIATE_TEST_SUITE_P(AllCompressions, FrameRoundTripTest,
                         ::testing::Values(Compression::kNone, Compression::kLz4,
                                           Compression::kSnappy));

// Parses the segments of `wire` (uncompressed format) into (length, self_contained) pairs.
std::vector<std::pair<size_t, bool>> PlainSegments(std::string_view wire) {
  std::vector<std::pair<size_t, bool>> out;
  size_t pos = 0;
  while (pos + 6 <= wire.size()) {
    auto b = [&](size_t i) { return static_cast<uint32_t>(static_cast<uint8_t>(wire[pos + i])); };
    uint32_t field = b(0) | (b(1) << 8) | (b(2) << 16);
    size_t length = field & 0x1FFFF;
    out.push_back({length, (field >> 17) & 1});
    pos += 6 + length + 4;
  }
  EXPECT_EQ(pos, wire.size());
  return out;
}

TEST(FrameWriterTest, PacksSmallEnvelopesIntoOneSelfContainedSegment) {
  FrameWriter writer;
  writer.StartSegments(Compression::kNone);
  for (int i = 0; i < 3; ++i)
    writer.Add(Header(5, static_cast<int16_t>(i), Opcode::kReady, true), "");
  Bytes wire;
  writer.Flush(&wire);
  auto segments = PlainSegments(wire);
  ASSERT_EQ(segments.size(), 1u);
  EXPECT_EQ(segments[0], std::make_pair(size_t{27}, true));
}

TEST(FrameWriterTest, SplitsLikeTheDriver) {
  // specs/protocol_v5_framing.md §7/§10.4: 131071 → one self-contained; 131072 → 131071 + 1;
  // 200000 → 131071 + 68929, the split pieces not self-contained.
  for (auto [size, expected] : std::vector<std::pair<size_t, std::vector<std::pair<size_t, bool>>>>{
           {131071, {{131071, true}}},
           {131072, {{131071, false}, {1, false}}},
           {200000, {{131071, false}, {68929, false}}}}) {
    FrameWriter writer;
    writer.StartSegments(Compression::kNone);
    writer.Add(Header(5, 1, Opcode::kResult, true), RandomBytes(size - kEnvelopeHeaderSize, 1));
    Bytes wire;
    writer.Flush(&wire);
    EXPECT_EQ(PlainSegments(wire), expected) << size;
    if (size == 200000) {
      EXPECT_EQ(wire.size(), 200020u);
      EXPECT_EQ(common::ToHex(wire.substr(0, 6)), "ffff013891fe");
    }
  }
}

TEST(FrameWriterTest, FillsSegmentsUpToTheLimit) {
  FrameWriter writer;
  writer.StartSegments(Compression::kNone);
  // Three envelopes of 60000 bytes: two fit in one segment (120000), the third starts another.
  for (int i = 0; i < 3; ++i) {
    writer.Add(Header(5, 1, Opcode::kResult, true), RandomBytes(60000 - kEnvelopeHeaderSize, i));
  }
  Bytes wire;
  writer.Flush(&wire);
  auto segments = PlainSegments(wire);
  ASSERT_EQ(segments.size(), 2u);
  EXPECT_EQ(segments[0], std::make_pair(size_t{120000}, true));
  EXPECT_EQ(segments[1], std::make_pair(size_t{60000}, true));
}

TEST(FrameWriterTest, DocumentedOptionsSegments) {
  // §10.1 and §10.2: an OPTIONS envelope in both segment formats.
  for (auto [compression, hex] : std::vector<std::pair<Compression, std::string>>{
           {Compression::kNone, "090002a4c8c1050000010500000000b5557486"},
           {Compression::kLz4, "0900000004c2b895050000010500000000b5557486"}}) {
    FrameWriter writer;
    writer.StartSegments(compression);
    writer.Add(Header(5, 1, Opcode::kOptions), "");
    Bytes wire;
    writer.Flush(&wire);
    EXPECT_EQ(common::ToHex(wire), hex);
    FrameReader reader;
    reader.StartSegments(compression);
    reader.Append(wire);
    auto got = Drain(&reader);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].header, Header(5, 1, Opcode::kOptions));
  }
}

TEST(FrameReaderTest, DocumentedCompressedQuerySegment) {
  // §10.3: a 95-byte QUERY in an lz4 segment (83 bytes on the wire).
  std::string wire = Hex(
      "4700be0004"
      "8b8bef"
      "f1240500000207000000560000004c53454c454354202a2046524f4d2073797374656d2e6c6f63616c2057484552"
      "45206b65793d2711005f2720414e4410000960000100000000"
      "0c94f396");
  ASSERT_EQ(wire.size(), 83u);
  FrameReader reader;
  reader.StartSegments(Compression::kLz4);
  reader.Append(wire);
  auto got = Drain(&reader);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].header.opcode, Opcode::kQuery);
  EXPECT_EQ(got[0].header.stream, 2);
  EXPECT_EQ(got[0].body.size(), 86u);
  EXPECT_EQ(got[0].body.substr(4, 8), "SELECT *");
}

TEST(FrameReaderTest, BytesAfterStartupAnswerAreSegments) {
  // A v5 client sends STARTUP unframed and, once READY came, segments; bytes already buffered
  // when the reader switches are parsed as segments.
  FrameWriter writer;
  writer.Add(Header(5, 0, Opcode::kStartup), Repetitive(50));
  Bytes wire;
  writer.Flush(&wire);
  FrameWriter framed;
  framed.StartSegments(Compression::kNone);
  framed.Add(Header(5, 1, Opcode::kQuery), Repetitive(70));
  framed.Flush(&wire);
  FrameReader reader;
  reader.Append(wire);
  auto first = reader.Next();
  ASSERT_TRUE(first.ok() && first->has_value());
  EXPECT_EQ((*first)->header.opcode, Opcode::kStartup);
  reader.StartSegments(Compression::kNone);
  auto rest = Drain(&reader);
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].body, Repetitive(70));
}

TEST(FrameWriterTest, EnvelopesAddedBeforeStartSegmentsStayUnframed) {
  FrameWriter writer;
  writer.Add(Header(5, 0, Opcode::kReady, true), "");
  writer.StartSegments(Compression::kLz4);
  writer.Add(Header(5, 1, Opcode::kResult, true), Repetitive(1000));
  Bytes wire;
  writer.Flush(&wire);
  EXPECT_EQ(common::ToHex(wire.substr(0, 9)), "850000000200000000");
  FrameReader reader;
  reader.Append(wire);
  auto ready = reader.Next();
  ASSERT_TRUE(ready.ok() && ready->has_value());
  reader.StartSegments(Compression::kLz4);
  auto rest = Drain(&reader);
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].body, Repetitive(1000));
}

TEST(FrameWriterTest, StartupOptionsReadySupportedAreNeverCompressed) {
  FrameWriter writer;
  writer.SetEnvelopeCompression(Compression::kLz4);
  std::string body = Repetitive(1000);
  for (Opcode op : {Opcode::kStartup, Opcode::kOptions, Opcode::kReady, Opcode::kSupported}) {
    writer.Add(Header(4, 0, op), body);
    Bytes wire;
    writer.Flush(&wire);
    EXPECT_EQ(wire[1], 0) << OpcodeName(op);
    EXPECT_EQ(wire.size(), kEnvelopeHeaderSize + body.size());
  }
  writer.Add(Header(4, 0, Opcode::kQuery), body);
  Bytes wire;
  writer.Flush(&wire);
  EXPECT_EQ(wire[1], kFlagCompression);
}

std::string PlainSegment(std::string_view payload, bool self_contained) {
  std::string out;
  uint32_t field = static_cast<uint32_t>(payload.size()) | (self_contained ? 1u << 17 : 0u);
  for (int i = 0; i < 3; ++i) out.push_back(static_cast<char>(field >> (8 * i)));
  uint32_t crc24 = Crc24(out);
  for (int i = 0; i < 3; ++i) out.push_back(static_cast<char>(crc24 >> (8 * i)));
  out.append(payload);
  uint32_t crc32 = Crc32(payload);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(crc32 >> (8 * i)));
  return out;
}

std::string EnvelopeBytes(int16_t stream, std::string_view body) {
  common::ByteWriter w;
  EnvelopeHeader h = Header(5, stream, Opcode::kQuery);
  h.body_length = static_cast<uint32_t>(body.size());
  EncodeEnvelopeHeader(h, &w);
  w.PutRaw(body);
  return w.Release();
}

TEST(FrameReaderTest, AcceptsAnEnvelopeSplitAcrossNonSelfContainedSegments) {
  std::string envelope = EnvelopeBytes(3, Repetitive(100));
  std::string wire = PlainSegment(envelope.substr(0, 5), false) +
                     PlainSegment(envelope.substr(5, 50), false) +
                     PlainSegment(envelope.substr(55), false);
  FrameReader reader;
  reader.StartSegments(Compression::kNone);
  reader.Append(wire);
  auto got = Drain(&reader);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].body, Repetitive(100));
}

TEST(FrameReaderTest, RejectsBadHeaderCrc) {
  std::string wire = PlainSegment(EnvelopeBytes(1, "abc"), true);
  wire[3] = static_cast<char>(wire[3] ^ 1);
  FrameReader reader;
  reader.StartSegments(Compression::kNone);
  reader.Append(wire);
  auto next = reader.Next();
  ASSERT_FALSE(next.ok());
  EXPECT_EQ(next.status().code(), common::StatusCode::kProtocolError);
  EXPECT_NE(next.status().message().find("CRC24"), std::string::npos);
  EXPECT_FALSE(reader.failed_header().has_value());
  // The error is sticky.
  EXPECT_FALSE(reader.Next().ok());
}

TEST(FrameReaderTest, RejectsBadPayloadCrc) {
  for (Compression c : {Compression::kNone, Compression::kLz4}) {
    FrameWriter writer;
    writer.StartSegments(c);
    writer.Add(Header(5, 1, Opcode::kQuery), Repetitive(500));
    Bytes wire;
    writer.Flush(&wire);
    wire[wire.size() - 20] = static_cast<char>(wire[wire.size() - 20] ^ 0x10);
    FrameReader reader;
    reader.StartSegments(c);
    reader.Append(wire);
    auto next = reader.Next();
    ASSERT_FALSE(next.ok());
    EXPECT_NE(next.status().message().find("CRC32"), std::string::npos);
  }
}

TEST(FrameReaderTest, RejectsSelfContainedSegmentWithPartialEnvelope) {
  std::string envelope = EnvelopeBytes(1, "abcdef");
  FrameReader reader;
  reader.StartSegments(Compression::kNone);
  reader.Append(PlainSegment(envelope.substr(0, 10), true));
  EXPECT_FALSE(reader.Next().ok());
  // A self-contained segment while a split envelope is pending.
  FrameReader second;
  second.StartSegments(Compression::kNone);
  second.Append(PlainSegment(envelope.substr(0, 10), false));
  second.Append(PlainSegment(EnvelopeBytes(2, ""), true));
  EXPECT_FALSE(second.Next().ok());
}

TEST(FrameReaderTest, CorruptLz4SegmentIsAnError) {
  // A segment claiming 100 uncompressed bytes whose payload is not an lz4 block.
  std::string payload = RandomBytes(40, 9);
  uint64_t field = 40 | (uint64_t{100} << 17) | (uint64_t{1} << 34);
  std::string wire;
  for (int i = 0; i < 5; ++i) wire.push_back(static_cast<char>(field >> (8 * i)));
  uint32_t crc24 = Crc24(wire);
  for (int i = 0; i < 3; ++i) wire.push_back(static_cast<char>(crc24 >> (8 * i)));
  wire += payload;
  uint32_t crc32 = Crc32(payload);
  for (int i = 0; i < 4; ++i) wire.push_back(static_cast<char>(crc32 >> (8 * i)));
  FrameReader reader;
  reader.StartSegments(Compression::kLz4);
  reader.Append(wire);
  EXPECT_FALSE(reader.Next().ok());
}

TEST(FrameReaderTest, OversizedBodyGivesErrorAndFailedHeader) {
  for (bool segments : {false, true}) {
    FrameWriter writer;
    if (segments) writer.StartSegments(Compression::kNone);
    writer.Add(Header(segments ? 5 : 4, 42, Opcode::kQuery), Repetitive(2000));
    Bytes wire;
    writer.Flush(&wire);
    FrameReader reader(1000);
    if (segments) reader.StartSegments(Compression::kNone);
    // Only the header so far: the limit is checked before the body arrives.
    reader.Append(wire.substr(0, segments ? 6 + 9 + 0 : 9));
    auto next = reader.Next();
    if (segments) {
      // The segment is incomplete: nothing can be said yet.
      ASSERT_TRUE(next.ok());
      reader.Append(wire.substr(15));
      next = reader.Next();
    }
    ASSERT_FALSE(next.ok());
    EXPECT_EQ(next.status().message(),
              "Request is too big: length 2000 exceeds maximum allowed length 1000.");
    ASSERT_TRUE(reader.failed_header().has_value());
    EXPECT_EQ(reader.failed_header()->stream, 42);
    EXPECT_EQ(reader.failed_header()->version, segments ? 5 : 4);
  }
}

TEST(FrameReaderTest, CompressedBodyErrors) {
  // Flagged but nothing negotiated.
  EnvelopeHeader h = Header(4, 9, Opcode::kQuery);
  h.flags = kFlagCompression;
  h.body_length = 8;
  common::ByteWriter w;
  EncodeEnvelopeHeader(h, &w);
  w.PutRaw(std::string_view("\x00\x00\x00\x10garb", 8));
  {
    FrameReader reader;
    reader.Append(w.data());
    auto next = reader.Next();
    ASSERT_FALSE(next.ok());
    ASSERT_TRUE(reader.failed_header().has_value());
    EXPECT_EQ(reader.failed_header()->stream, 9);
  }
  // Negotiated but corrupt.
  for (Compression c : {Compression::kLz4, Compression::kSnappy}) {
    FrameReader reader;
    reader.SetEnvelopeCompression(c);
    reader.Append(w.data());
    auto next = reader.Next();
    ASSERT_FALSE(next.ok());
    EXPECT_EQ(next.status().code(), common::StatusCode::kProtocolError);
    ASSERT_TRUE(reader.failed_header().has_value());
  }
  // Decompressing past the limit.
  {
    FrameWriter writer;
    writer.SetEnvelopeCompression(Compression::kLz4);
    writer.Add(Header(4, 3, Opcode::kQuery), Repetitive(100000));
    Bytes wire;
    writer.Flush(&wire);
    ASSERT_LT(wire.size(), 50000u);
    FrameReader reader(50000);
    reader.SetEnvelopeCompression(Compression::kLz4);
    reader.Append(wire);
    EXPECT_FALSE(reader.Next().ok());
  }
}

TEST(FrameReaderTest, MemoryNeededCountsADeclaredBodyThatIsNotBuffered) {
  for (bool segments : {false, true}) {
    SCOPED_TRACE(segments);
    constexpr uint32_t kDeclared = 16 * 1024 * 1024;
    EnvelopeHeader h = Header(segments ? 5 : 4, 1, Opcode::kQuery);
    h.body_length = kDeclared;
    common::ByteWriter w;
    EncodeEnvelopeHeader(h, &w);
    w.PutRaw("abc");
    Bytes wire = w.Release();
    if (segments) {
      // The header and three bytes in one segment that is not self-contained (a 3-byte
      // field: payload length 12, flag bit 17 clear), its CRC24, the payload, its CRC32.
      Bytes segment;
      segment.push_back(static_cast<char>(12));
      segment.push_back('\0');
      segment.push_back('\0');
      uint32_t crc24 = Crc24(std::string_view(segment).substr(0, 3));
      for (int i = 0; i < 3; ++i) segment.push_back(static_cast<char>((crc24 >> (8 * i)) & 0xFF));
      segment += wire;
      uint32_t crc32 = Crc32(wire);
      for (int i = 0; i < 4; ++i) segment.push_back(static_cast<char>((crc32 >> (8 * i)) & 0xFF));
      wire = segment;
    }
    FrameReader reader(kDeclared);
    if (segments) reader.StartSegments(Compression::kNone);
    reader.Append(wire);
    auto next = reader.Next();
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    EXPECT_FALSE(next->has_value());
    EXPECT_EQ(reader.buffered(), kEnvelopeHeaderSize + 3);
    EXPECT_EQ(reader.MemoryNeeded(), kEnvelopeHeaderSize + kDeclared);
    // Past the limit the header is refused by Next(), so nothing is counted for it.
    reader.set_max_envelope_body(kDeclared - 1);
    EXPECT_EQ(reader.MemoryNeeded(), kEnvelopeHeaderSize + 3);
    EXPECT_FALSE(reader.Next().ok());
  }
}

TEST(FrameReaderTest, MemoryNeededCountsTheDeclaredDecompressedSize) {
  for (Compression c : {Compression::kLz4, Compression::kSnappy}) {
    FrameWriter writer;
    writer.SetEnvelopeCompression(c);
    writer.Add(Header(4, 3, Opcode::kQuery), std::string(1000000, '\0'));
    Bytes wire;
    writer.Flush(&wire);
    ASSERT_LT(wire.size(), 100000u);
    FrameReader reader;
    reader.SetEnvelopeCompression(c);
    reader.Append(wire);
    EXPECT_EQ(reader.MemoryNeeded(), wire.size() + 1000000);
    auto next = reader.Next();
    ASSERT_TRUE(next.ok() && next->has_value());
    EXPECT_EQ((*next)->body.size(), 1000000u);
    EXPECT_EQ(reader.MemoryNeeded(), 0u);
  }
}

TEST(FrameReaderTest, ASmallerLimitRefusesLargerEnvelopes) {
  FrameReader reader;
  reader.set_max_envelope_body(64 * 1024);
  EnvelopeHeader h = Header(4, 7, Opcode::kStartup);
  h.body_length = 64 * 1024 + 1;
  common::ByteWriter w;
  EncodeEnvelopeHeader(h, &w);
  reader.Append(w.data());
  auto next = reader.Next();
  ASSERT_FALSE(next.ok());
  EXPECT_EQ(next.status().message(),
            "Request is too big: length 65537 exceeds maximum allowed length 65536.");
}

TEST(FrameReaderTest, RandomBytesNeverCrash) {
  for (uint32_t seed = 0; seed < 400; ++seed) {
    std::string junk = RandomBytes(seed % 200, seed);
    for (int mode = 0; mode < 4; ++mode) {
      FrameReader reader(1 << 16);
      if (mode == 1) reader.SetEnvelopeCompression(Compression::kLz4);
      if (mode == 2) reader.StartSegments(Compression::kNone);
      if (mode == 3) reader.StartSegments(Compression::kLz4);
      reader.Append(junk);
      for (int i = 0; i < 10; ++i) {
        auto next = reader.Next();
        if (!next.ok() || !next->has_value()) break;
      }
    }
  }
}

}  // namespace
}  // namespace protocol
