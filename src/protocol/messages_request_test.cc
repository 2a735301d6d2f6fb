#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "protocol/messages.h"

namespace protocol {
namespace {

using common::Bytes;
using cql::BoundValue;

std::string Hex(std::string_view hex) { return common::FromHex(hex).value(); }
std::string HexOf(std::string_view text) { return common::ToHex(text); }

Envelope MakeEnvelope(uint8_t version, Opcode opcode, std::string body, uint8_t flags = 0) {
  Envelope envelope;
  envelope.header.version = version;
  envelope.header.opcode = opcode;
  envelope.header.flags = flags;
  envelope.header.body_length = static_cast<uint32_t>(body.size());
  envelope.body = std::move(body);
  return envelope;
}

void ExpectSameParameters(const QueryParameters& a, const QueryParameters& b) {
  EXPECT_EQ(a.options.consistency, b.options.consistency);
  EXPECT_EQ(a.options.serial_consistency, b.options.serial_consistency);
  EXPECT_EQ(a.options.values, b.options.values);
  EXPECT_EQ(a.options.value_names, b.options.value_names);
  EXPECT_EQ(a.options.page_size, b.options.page_size);
  EXPECT_EQ(a.options.paging_state, b.options.paging_state);
  EXPECT_EQ(a.options.timestamp, b.options.timestamp);
  EXPECT_EQ(a.options.keyspace, b.options.keyspace);
  EXPECT_EQ(a.skip_metadata, b.skip_metadata);
  EXPECT_EQ(a.now_in_seconds, b.now_in_seconds);
}

void ExpectSameRequest(const Request& a, const Request& b) {
  ASSERT_EQ(a.index(), b.index());
  if (auto* x = std::get_if<StartupRequest>(&a)) {
    EXPECT_EQ(x->options, std::get<StartupRequest>(b).options);
  } else if (auto* x = std::get_if<QueryRequest>(&a)) {
    EXPECT_EQ(x->query, std::get<QueryRequest>(b).query);
    ExpectSameParameters(x->parameters, std::get<QueryRequest>(b).parameters);
  } else if (auto* x = std::get_if<PrepareRequest>(&a)) {
    EXPECT_EQ(x->query, std::get<PrepareRequest>(b).query);
    EXPECT_EQ(x->keyspace, std::get<PrepareRequest>(b).keyspace);
  } else if (auto* x = std::get_if<ExecuteRequest>(&a)) {
    const auto& y = std::get<ExecuteRequest>(b);
    EXPECT_EQ(x->id, y.id);
    EXPECT_EQ(x->result_metadata_id, y.result_metadata_id);
    ExpectSameParameters(x->parameters, y.parameters);
  } else if (auto* x = std::get_if<BatchRequestMessage>(&a)) {
    const auto& y = std::get<BatchRequestMessage>(b);
    EXPECT_EQ(x->type, y.type);
    ASSERT_EQ(x->statements.size(), y.statements.size());
    for (size_t i = 0; i < x->statements.size(); ++i) {
      EXPECT_EQ(x->statements[i].prepared, y.statements[i].prepared);
      EXPECT_EQ(x->statements[i].query, y.statements[i].query);
      EXPECT_EQ(x->statements[i].id, y.statements[i].id);
      EXPECT_EQ(x->statements[i].values, y.statements[i].values);
      EXPECT_EQ(x->statements[i].value_names, y.statements[i].value_names);
    }
    EXPECT_EQ(x->consistency, y.consistency);
    EXPECT_EQ(x->serial_consistency, y.serial_consistency);
    EXPECT_EQ(x->timestamp, y.timestamp);
    EXPECT_EQ(x->keyspace, y.keyspace);
    EXPECT_EQ(x->now_in_seconds, y.now_in_seconds);
  } else if (auto* x = std::get_if<RegisterRequest>(&a)) {
    EXPECT_EQ(x->event_types, std::get<RegisterRequest>(b).event_types);
  } else if (auto* x = std::get_if<AuthResponseRequest>(&a)) {
    EXPECT_EQ(x->token, std::get<AuthResponseRequest>(b).token);
  }
}

QueryParameters FullParameters(uint8_t version) {
  QueryParameters p;
  p.options.consistency = cql::Consistency::kLocalQuorum;
  p.options.serial_consistency = cql::Consistency::kLocalSerial;
  p.options.values = {BoundValue::Of("\x00\x00\x00\x07"), BoundValue::Null(), BoundValue::Unset(),
                      BoundValue::Of("")};
  p.options.page_size = 100;
  p.options.paging_state = Bytes("\x01\x02\x00\x03", 4);
  p.options.timestamp = 1700000000000000;
  p.skip_metadata = true;
  if (version >= 5) {
    p.options.keyspace = "hotel";
    p.now_in_seconds = 1700000000;
  }
  return p;
}

std::vector<Request> SampleRequests(uint8_t version) {
  std::vector<Request> out;
  out.push_back(StartupRequest{{{"CQL_VERSION", "3.0.0"}, {"COMPRESSION", "lz4"}}});
  out.push_back(OptionsRequest{});
  out.push_back(QueryRequest{"SELECT * FROM system.local", QueryParameters{}});
  out.push_back(QueryRequest{"INSERT INTO t (k, v) VALUES (?, ?)", FullParameters(version)});
  QueryParameters named = FullParameters(version);
  named.options.value_names = {"a", "b", "c", "d"};
  out.push_back(QueryRequest{"UPDATE t SET v = :a WHERE k = :b", named});
  out.push_back(PrepareRequest{"SELECT v FROM t WHERE k = ?", version >= 5 ? "ks" : ""});
  out.push_back(PrepareRequest{"SELECT 1", ""});
  out.push_back(ExecuteRequest{Bytes(16, '\x5a'), version >= 5 ? Bytes(16, '\x11') : Bytes(),
                               FullParameters(version)});
  BatchRequestMessage batch;
  batch.type = cql::BatchType::kUnlogged;
  batch.statements.push_back(
      {false, "INSERT INTO t (k) VALUES (?)", "", {BoundValue::Of("x")}, {}});
  batch.statements.push_back(
      {true, "", Bytes(16, '\x22'), {BoundValue::Null(), BoundValue::Unset()}, {}});
  batch.statements.push_back({false, "DELETE FROM t WHERE k = 1", "", {}, {}});
  batch.consistency = cql::Consistency::kQuorum;
  batch.serial_consistency = cql::Consistency::kSerial;
  batch.timestamp = 42;
  if (version >= 5) {
    batch.keyspace = "ks";
    batch.now_in_seconds = 5;
  }
  out.push_back(batch);
  BatchRequestMessage named_batch;
  named_batch.type = cql::BatchType::kCounter;
  named_batch.statements.push_back({false,
                                    "UPDATE c SET n = n + :d WHERE k = :k",
                                    "",
                                    {BoundValue::Of("1"), BoundValue::Of("2")},
                                    {"d", "k"}});
  out.push_back(named_batch);
  out.push_back(RegisterRequest{{"TOPOLOGY_CHANGE", "STATUS_CHANGE", "SCHEMA_CHANGE"}});
  out.push_back(AuthResponseRequest{Bytes("\0cassandra\0cassandra", 20)});
  out.push_back(AuthResponseRequest{std::nullopt});
  return out;
}

class RequestVersionTest : public ::testing::TestWithParam<uint8_t> {};

TEST_P(RequestVersionTest, EveryRequestRoundTrips) {
  uint8_t version = GetParam();
  for (const Request& request : SampleRequests(version)) {
    Bytes body = EncodeRequestBody(request, version);
    auto decoded = DecodeRequest(MakeEnvelope(version, RequestOpcode(request), body));
    ASSERT_TRUE(decoded.ok()) << OpcodeName(RequestOpcode(request)) << ": "
                              << decoded.status().ToString();
    ExpectSameRequest(*decoded, request);
  }
}

TEST_P(RequestVersionTest, EveryTruncationIsAnError) {
  uint8_t version = GetParam();
  for (const Request& request : SampleRequests(version)) {
    Bytes body = EncodeRequestBody(request, version);
    for (size_t n = 0; n < body.size(); ++n) {
      auto decoded =
          DecodeRequest(MakeEnvelope(version, RequestOpcode(request), body.substr(0, n)));
      EXPECT_FALSE(decoded.ok()) << OpcodeName(RequestOpcode(request)) << " prefix " << n;
      if (!decoded.ok()) {
        EXPECT_EQ(decoded.status().code(), common::StatusCode::kProtocolError);
      }
    }
    // And a trailing byte is an error too.
    auto longer = DecodeRequest(MakeEnvelope(version, RequestOpcode(request), body + "x"));
    EXPECT_FALSE(longer.ok()) << OpcodeName(RequestOpcode(request));
  }
}

TEST_P(RequestVersionTest, RandomBodiesNeverCrash) {
  uint8_t version = GetParam();
  std::mt19937 rng(1234 + version);
  std::vector<Opcode> opcodes = {Opcode::kStartup,  Opcode::kOptions,      Opcode::kQuery,
                                 Opcode::kPrepare,  Opcode::kExecute,      Opcode::kBatch,
                                 Opcode::kRegister, Opcode::kAuthResponse, Opcode::kResult};
  std::vector<Bytes> seeds;
  for (const Request& request : SampleRequests(version)) {
    seeds.push_back(EncodeRequestBody(request, version));
  }
  for (int i = 0; i < 20000; ++i) {
    Bytes body;
    if (i % 2 == 0) {
      body.resize(rng() % 64);
      for (char& c : body) c = static_cast<char>(rng());
    } else {
      // Mutations of valid bodies reach deeper.
      body = seeds[rng() % seeds.size()];
      for (int m = 0; m < 3 && !body.empty(); ++m)
        body[rng() % body.size()] = static_cast<char>(rng());
    }
    uint8_t flags = (rng() % 4 == 0) ? kFlagCustomPayload : 0;
    (void)DecodeRequest(MakeEnvelope(version, opcodes[rng() % opcodes.size()], body, flags));
  }
}

INSTANTIATE_TEST_SUITE_P(V4AndV5, RequestVersionTest, ::testing::Values(4, 5));

TEST(RequestDecodeTest, QueryAsThePythonDriverSendsIt) {
  // v4 QUERY: LOCAL_ONE, flags Values|Page_size|Default_timestamp, one int value, page 5000.
  std::string query = "SELECT * FROM t WHERE k=?";
  std::string body = Hex("00000019" + HexOf(query) + "000a" + "25" + "0001" + "00000004" +
                         "0000002a" + "00001388" + "0005f0a1b2c3d4e5");
  auto decoded = DecodeRequest(MakeEnvelope(4, Opcode::kQuery, body));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  const auto& q = std::get<QueryRequest>(*decoded);
  EXPECT_EQ(q.query, query);
  EXPECT_EQ(q.parameters.options.consistency, cql::Consistency::kLocalOne);
  ASSERT_EQ(q.parameters.options.values.size(), 1u);
  EXPECT_EQ(q.parameters.options.values[0], BoundValue::Of(Hex("0000002a")));
  EXPECT_EQ(q.parameters.options.page_size, 5000);
  EXPECT_EQ(q.parameters.options.timestamp, 0x0005f0a1b2c3d4e5);
  EXPECT_FALSE(q.parameters.skip_metadata);
  EXPECT_FALSE(q.parameters.options.paging_state.has_value());
  // The same in v5: the flags are an [int].
  std::string v5 = Hex("00000019" + HexOf(query) + "000a" + "00000025" + "0001" + "00000004" +
                       "0000002a" + "00001388" + "0005f0a1b2c3d4e5");
  auto decoded5 = DecodeRequest(MakeEnvelope(5, Opcode::kQuery, v5));
  ASSERT_TRUE(decoded5.ok()) << decoded5.status().ToString();
  EXPECT_EQ(std::get<QueryRequest>(*decoded5).parameters.options.page_size, 5000);
  // The v4 body read as v5 is malformed.
  EXPECT_FALSE(DecodeRequest(MakeEnvelope(5, Opcode::kQuery, body)).ok());
}

TEST(RequestDecodeTest, ExecuteWithSkipMetadata) {
  std::string id = "00112233445566778899aabbccddeeff";
  // v4: ONE, flags Values|Skip_metadata|Page_size, values int 1 and null.
  std::string body =
      Hex("0010" + id + "0001" + "07" + "0002" + "0000000400000001" + "ffffffff" + "00001388");
  auto decoded = DecodeRequest(MakeEnvelope(4, Opcode::kExecute, body));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  const auto& e = std::get<ExecuteRequest>(*decoded);
  EXPECT_EQ(common::ToHex(e.id), id);
  EXPECT_TRUE(e.parameters.skip_metadata);
  EXPECT_EQ(e.parameters.options.values,
            (std::vector<BoundValue>{BoundValue::Of(Hex("00000001")), BoundValue::Null()}));
  // v5 adds the result metadata id and [int] flags.
  std::string v5 = Hex("0010" + id + "0004cafebabe" + "0001" + "00000007" + "0002" +
                       "0000000400000001" + "fffffffe" + "00001388");
  auto decoded5 = DecodeRequest(MakeEnvelope(5, Opcode::kExecute, v5));
  ASSERT_TRUE(decoded5.ok()) << decoded5.status().ToString();
  const auto& e5 = std::get<ExecuteRequest>(*decoded5);
  EXPECT_EQ(e5.result_metadata_id, Hex("cafebabe"));
  EXPECT_EQ(e5.parameters.options.values[1], BoundValue::Unset());
}

TEST(RequestDecodeTest, Errors) {
  // Consistency out of range.
  auto bad_cl = DecodeRequest(MakeEnvelope(4, Opcode::kQuery,
                                           Hex("00000000"
                                               "000b"
                                               "00")));
  ASSERT_FALSE(bad_cl.ok());
  EXPECT_EQ(bad_cl.status().message(), "Unknown code 11 for a consistency level");
  // Value length below -2.
  EXPECT_FALSE(DecodeRequest(MakeEnvelope(4, Opcode::kQuery,
                                          Hex("00000000"
                                              "0001"
                                              "01"
                                              "0001"
                                              "fffffffd")))
                   .ok());
  // Batch type and statement kind.
  auto bad_type = DecodeRequest(MakeEnvelope(4, Opcode::kBatch,
                                             Hex("03"
                                                 "0000"
                                                 "0001"
                                                 "00")));
  ASSERT_FALSE(bad_type.ok());
  EXPECT_EQ(bad_type.status().message(), "Invalid BATCH message type 3");
  auto bad_kind = DecodeRequest(MakeEnvelope(4, Opcode::kBatch,
                                             Hex("00"
                                                 "0001"
                                                 "02")));
  ASSERT_FALSE(bad_kind.ok());
  EXPECT_EQ(bad_kind.status().message(),
            "Invalid query kind in BATCH messages. Must be 0 or 1 but got 2");
  // Responses are not requests; unknown opcodes and versions are refused.
  EXPECT_FALSE(DecodeRequest(MakeEnvelope(4, Opcode::kResult, Hex("00000001"))).ok());
  EXPECT_FALSE(DecodeRequest(MakeEnvelope(4, static_cast<Opcode>(0x04), "")).ok());
  auto bad_version = DecodeRequest(MakeEnvelope(3, Opcode::kOptions, ""));
  ASSERT_FALSE(bad_version.ok());
  EXPECT_NE(bad_version.status().message().find("Invalid or unsupported protocol version (3)"),
            std::string::npos);
  // Timestamp Long.MIN_VALUE.
  EXPECT_FALSE(DecodeRequest(MakeEnvelope(4, Opcode::kQuery,
                                          Hex("00000000"
                                              "0001"
                                              "20"
                                              "8000000000000000")))
                   .ok());
}

TEST(RequestDecodeTest, CustomPayloadIsSkipped) {
  std::string body = Hex("0001"
                         "0003" +
                         HexOf("key") + "00000002" + "abcd") +
                     EncodeRequestBody(PrepareRequest{"SELECT 1", ""}, 4);
  auto decoded = DecodeRequest(MakeEnvelope(4, Opcode::kPrepare, body, kFlagCustomPayload));
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(std::get<PrepareRequest>(*decoded).query, "SELECT 1");
}

TEST(RequestDecodeTest, StartupOptionLookup) {
  StartupRequest startup{{{"CQL_VERSION", "3.4.6"}, {"compression", "snappy"}}};
  EXPECT_EQ(startup.Option("CQL_VERSION"), "3.4.6");
  EXPECT_EQ(startup.Option("COMPRESSION"), "snappy");
  EXPECT_EQ(startup.Option("DRIVER_NAME"), std::nullopt);
}

TEST(RequestDecodeTest, RequestOpcodes) {
  EXPECT_EQ(RequestOpcode(OptionsRequest{}), Opcode::kOptions);
  EXPECT_EQ(RequestOpcode(BatchRequestMessage{}), Opcode::kBatch);
  EXPECT_EQ(RequestOpcode(AuthResponseRequest{}), Opcode::kAuthResponse);
  // A v5 PREPARE with a keyspace: query, [int] flags 0x01, [string] keyspace.
  EXPECT_EQ(common::ToHex(EncodeRequestBody(PrepareRequest{"X", "ks"}, 5)),
            "00000001"
            "58"
            "00000001"
            "0002"
            "6b73");
  EXPECT_EQ(common::ToHex(EncodeRequestBody(PrepareRequest{"X", "ks"}, 4)), "0000000158");
}

}  // namespace
}  // namespace protocol
