// Tests of the server's connection handling: version negotiation, OPTIONS/STARTUP, framing
// modes (v4 plain, v4 lz4/snappy, v5 segments plain/lz4) and framing errors.

#include "server/server.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "common/logging.h"
#include "cql/types/value_codec.h"
#include "server/server_testing.h"

namespace server {
namespace {

using protocol::Compression;
using protocol::Opcode;
using testing::RawHeader;
using testing::ServerTest;
using testing::TestClient;

std::vector<std::string> Values(const protocol::SupportedResponse& supported,
                                const std::string& key) {
  for (const auto& [name, values] : supported.options) {
    if (name == key) return values;
  }
  return {};
}

TEST_F(ServerTest, OptionsAnsweredWithSupportedInEveryVersion) {
  for (uint8_t version : {4, 5}) {
    TestClient client(server_->port());
    ASSERT_TRUE(client.connected());
    client.set_version(version);
    auto envelope = client.Call(protocol::OptionsRequest{});
    ASSERT_TRUE(envelope.ok()) << envelope.status().ToString();
    EXPECT_EQ(envelope->header.opcode, Opcode::kSupported);
    EXPECT_EQ(envelope->header.version, version);
    EXPECT_TRUE(envelope->header.is_response);
    auto supported = protocol::DecodeSupported(envelope->body);
    ASSERT_TRUE(supported.ok()) << supported.status().ToString();
    EXPECT_EQ(Values(*supported, "CQL_VERSION"), std::vector<std::string>{"3.4.6"});
    EXPECT_EQ(Values(*supported, "COMPRESSION"), (std::vector<std::string>{"lz4", "snappy"}));
    EXPECT_EQ(Values(*supported, "PROTOCOL_VERSIONS"), (std::vector<std::string>{"4/v4", "5/v5"}));
  }
}

TEST_F(ServerTest, UnsupportedVersionsGetTheExactErrorAndTheConnectionCloses) {
  struct Case {
    uint8_t version;
    uint8_t header_version;
  };
  for (Case c : {Case{3, 4}, Case{6, 5}, Case{0x41, 5}, Case{0x42, 5}}) {
    SCOPED_TRACE(static_cast<int>(c.version));
    TestClient client(server_->port());
    ASSERT_TRUE(client.connected());
    // OPTIONS in the requested version on stream 7, with the USE_BETA flag for good measure.
    ASSERT_TRUE(client.SendRaw(RawHeader(c.version, 7, Opcode::kOptions, 0, 0x10)));
    auto envelope = client.Receive();
    ASSERT_TRUE(envelope.ok()) << envelope.status().ToString();
    EXPECT_EQ(envelope->header.version, c.header_version);
    EXPECT_EQ(envelope->header.stream, 7);
    ASSERT_EQ(envelope->header.opcode, Opcode::kError);
    auto error = protocol::DecodeError(envelope->body);
    ASSERT_TRUE(error.ok()) << error.status().ToString();
    EXPECT_EQ(error->code, 0x000Au);
    EXPECT_EQ(error->message, "Invalid or unsupported protocol version (" +
                                  std::to_string(c.version) +
                                  "); supported versions are (4/v4, 5/v5)");
    EXPECT_TRUE(client.WaitClosed());
  }
}

TEST_F(ServerTest, AVersionProbeIsNotLoggedAsAProblem) {
  // The Python driver asks for DSE's protocol 66, then 65, then retries with v5: negotiation.
  std::string log = ::testing::TempDir() + "server_test_probe.log";
  std::remove(log.c_str());
  common::LogSinkOptions sink;
  sink.file = log;
  ASSERT_EQ(common::SetLogSink(sink), "");
  for (uint8_t version : {0x42, 0x41}) {
    TestClient client(server_->port());
    ASSERT_TRUE(client.SendRaw(RawHeader(version, 0, Opcode::kOptions, 0, 0)));
    ASSERT_TRUE(client.Receive().ok());
    EXPECT_TRUE(client.WaitClosed());
  }
  ASSERT_EQ(common::SetLogSink(common::LogSinkOptions{}), "");
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("protocol version"), std::string::npos) << text;
  std::remove(log.c_str());
}

TEST_F(ServerTest, VersionTwoHeaderIsAnsweredToo) {
  TestClient client(server_->port());
  // v2 header: version, flags, 1-byte stream, opcode, length.
  ASSERT_TRUE(client.SendRaw(std::string("\x02\x00\x05\x05\x00\x00\x00\x00", 8)));
  auto envelope = client.Receive();
  ASSERT_TRUE(envelope.ok()) << envelope.status().ToString();
  EXPECT_EQ(envelope->header.version, 4);
  EXPECT_EQ(envelope->header.stream, 5);
  EXPECT_EQ(envelope->header.opcode, Opcode::kError);
  EXPECT_TRUE(client.WaitClosed());
}

TEST_F(ServerTest, StartupReadyInV4AndV5WithEveryCompression) {
  struct Case {
    uint8_t version;
    Compression compression;
  };
  for (Case c :
       {Case{4, Compression::kNone}, Case{4, Compression::kLz4}, Case{4, Compression::kSnappy},
        Case{5, Compression::kNone}, Case{5, Compression::kLz4}}) {
    SCOPED_TRACE(std::to_string(c.version) + " " + std::string(CompressionName(c.compression)));
    auto client = Connect(c.version, c.compression);
    // A statement and a large result (more than one v5 segment, and worth compressing).
    ASSERT_TRUE(client
                    ->Query("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 1}")
                    .ok());
    ASSERT_TRUE(
        client->Query("CREATE TABLE IF NOT EXISTS ks.blobs (k int PRIMARY KEY, v text)").ok());
    std::string big(300000, 'x');
    for (size_t i = 0; i < big.size(); i += 7) big[i] = static_cast<char>('a' + i % 26);
    cql::QueryOptions options;
    options.values = {cql::BoundValue::Of(std::string("\0\0\0\1", 4)), cql::BoundValue::Of(big)};
    auto insert = client->Query("INSERT INTO ks.blobs (k, v) VALUES (?, ?)", options);
    ASSERT_TRUE(insert.ok()) << insert.status().ToString();
    auto select = client->Query("SELECT v FROM ks.blobs WHERE k = 1");
    ASSERT_TRUE(select.ok()) << select.status().ToString();
    ASSERT_EQ(select->result.row_count(), 1u);
    EXPECT_EQ(select->result.Value(0, 0), std::optional<std::string_view>(big));
    // OPTIONS still works after STARTUP, in the connection's framing.
    auto options_reply = client->Call(protocol::OptionsRequest{});
    ASSERT_TRUE(options_reply.ok());
    EXPECT_EQ(options_reply->header.opcode, Opcode::kSupported);
  }
}

TEST_F(ServerTest, StartupErrors) {
  struct Case {
    uint8_t version;
    std::vector<std::pair<std::string, std::string>> options;
    std::string message;
  };
  std::vector<Case> cases = {
      {5,
       {{"CQL_VERSION", "3.0.0"}, {"COMPRESSION", "snappy"}},
       "Snappy compression is not supported in protocol V5"},
      {4,
       {{"CQL_VERSION", "3.0.0"}, {"COMPRESSION", "ZSTD"}},
       "Unknown compression algorithm: zstd"},
      {4, {{"DRIVER_NAME", "x"}}, "Missing value CQL_VERSION in STARTUP message"},
      {4,
       {{"CQL_VERSION", "2.0.0"}},
       "CQL version 2.0.0 is not supported by the binary protocol (supported version are >= "
       "3.0.0)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    TestClient client(server_->port());
    client.set_version(c.version);
    protocol::StartupRequest startup;
    startup.options = c.options;
    auto reply = client.Call(startup);
    ASSERT_FALSE(reply.ok());
    EXPECT_EQ(reply.status().code(), common::StatusCode::kProtocolError);
    EXPECT_EQ(reply.status().message(), c.message);
    // The connection is still usable: a correct STARTUP now succeeds.
    EXPECT_TRUE(client.Startup(c.version).ok());
  }
}

TEST_F(ServerTest, RequestsBeforeStartupAndStartupTwiceAreRefused) {
  TestClient client(server_->port());
  protocol::QueryRequest query;
  query.query = "SELECT * FROM system.local";
  auto reply = client.Call(query);
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.status().code(), common::StatusCode::kProtocolError);
  EXPECT_EQ(reply.status().message(), "Unexpected message QUERY, expecting STARTUP or OPTIONS");
  ASSERT_TRUE(client.Startup(4).ok());
  protocol::StartupRequest startup;
  startup.options = {{"CQL_VERSION", "3.4.6"}};
  reply = client.Call(startup);
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.status().message(),
            "Unexpected message STARTUP, the connection is already initialized");
  EXPECT_TRUE(client.Query("SELECT key FROM system.local").ok());
}

TEST_F(ServerTest, AnotherVersionLaterIsAProtocolErrorAndCloses) {
  auto client = Connect(4);
  client->set_version(5);
  auto reply = client->Call(protocol::OptionsRequest{});
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.status().code(), common::StatusCode::kProtocolError);
  EXPECT_TRUE(client->WaitClosed());
}

TEST_F(ServerTest, MalformedBodyIsAProtocolErrorAndTheConnectionContinues) {
  for (uint8_t version : {4, 5}) {
    auto client = Connect(version);
    protocol::EnvelopeHeader header;
    header.version = version;
    header.stream = 9;
    header.opcode = Opcode::kQuery;
    // A [long string] claiming 1000 bytes, followed by 3.
    ASSERT_TRUE(client->SendBody(header, std::string("\0\0\x03\xe8"
                                                     "abc",
                                                     7)));
    auto envelope = client->Receive();
    ASSERT_TRUE(envelope.ok()) << envelope.status().ToString();
    EXPECT_EQ(envelope->header.stream, 9);
    ASSERT_EQ(envelope->header.opcode, Opcode::kError);
    auto error = protocol::DecodeError(envelope->body);
    ASSERT_TRUE(error.ok());
    EXPECT_EQ(error->code, 0x000Au);
    // Unknown opcode: also answered on its stream.
    header.opcode = static_cast<Opcode>(0x7F);
    header.stream = 10;
    ASSERT_TRUE(client->SendBody(header, ""));
    envelope = client->Receive();
    ASSERT_TRUE(envelope.ok()) << envelope.status().ToString();
    EXPECT_EQ(envelope->header.stream, 10);
    EXPECT_EQ(envelope->header.opcode, Opcode::kError);
    auto next = client->Query("SELECT key FROM system.local");
    EXPECT_TRUE(next.ok()) << next.status().ToString();
  }
}

TEST_F(ServerTest, OversizedEnvelopeIsAProtocolErrorAndCloses) {
  auto client = Connect(4);
  // Declares a body one byte over the 16 MiB limit, on stream 3.
  ASSERT_TRUE(client->SendRaw(RawHeader(4, 3, Opcode::kQuery, 16 * 1024 * 1024 + 1)));
  ASSERT_TRUE(client->SendRaw(std::string(1000, 'x')));
  auto envelope = client->Receive();
  ASSERT_TRUE(envelope.ok()) << envelope.status().ToString();
  EXPECT_EQ(envelope->header.opcode, Opcode::kError);
  EXPECT_EQ(envelope->header.stream, 3);
  auto error = protocol::DecodeError(envelope->body);
  ASSERT_TRUE(error.ok());
  EXPECT_EQ(error->code, 0x000Au);
  EXPECT_TRUE(client->WaitClosed());
  // The server keeps serving others.
  auto other = Connect(4);
  EXPECT_TRUE(other->Query("SELECT key FROM system.local").ok());
}

TEST_F(ServerTest, GarbageIsAnsweredAndClosed) {
  TestClient client(server_->port());
  ASSERT_TRUE(client.SendRaw("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
  auto envelope = client.Receive();
  ASSERT_TRUE(envelope.ok()) << envelope.status().ToString();
  EXPECT_EQ(envelope->header.opcode, Opcode::kError);
  EXPECT_EQ(envelope->header.version, 5);  // 'G' = 71 > 5
  EXPECT_TRUE(client.WaitClosed());
  auto other = Connect(5);
  EXPECT_TRUE(other->Query("SELECT key FROM system.local").ok());
}

TEST_F(ServerTest, BadSegmentCrcIsAProtocolErrorAndCloses) {
  auto client = Connect(5);
  // An OPTIONS envelope in a self-contained segment whose payload CRC is wrong.
  protocol::FrameWriter writer;
  writer.StartSegments(Compression::kNone);
  protocol::EnvelopeHeader header;
  header.version = 5;
  header.stream = 4;
  header.opcode = Opcode::kOptions;
  writer.Add(header, "");
  common::Bytes segment;
  writer.Flush(&segment);
  ASSERT_GT(segment.size(), 10u);
  segment.back() = static_cast<char>(segment.back() ^ 0x55);
  ASSERT_TRUE(client->SendRaw(segment));
  // The error comes back in segment framing.
  auto envelope = client->Receive();
  ASSERT_TRUE(envelope.ok()) << envelope.status().ToString();
  EXPECT_EQ(envelope->header.opcode, Opcode::kError);
  auto error = protocol::DecodeError(envelope->body);
  ASSERT_TRUE(error.ok());
  EXPECT_EQ(error->code, 0x000Au);
  EXPECT_TRUE(client->WaitClosed());
  auto other = Connect(5);
  EXPECT_TRUE(other->Query("SELECT key FROM system.local").ok());
}

// Keyspace ks and table ks.t (k int PRIMARY KEY, v int).
void CreateTable(TestClient* client) {
  ASSERT_TRUE(client
                  ->Query("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                          "'replication_factor': 1}")
                  .ok());
  ASSERT_TRUE(client->Query("CREATE TABLE ks.t (k int PRIMARY KEY, v int)").ok());
}

// The tracing flag on QUERY, PREPARE, EXECUTE and BATCH: the response carries the tracing
// session id (flag set), and system_traces has the session with its client's address.
TEST_F(ServerTest, TracingFlagReturnsTheTracingSessionId) {
  auto client = Connect(4);
  CreateTable(client.get());
  auto traced_id = [&](const protocol::Request& request) -> std::optional<common::Uuid> {
    auto envelope = client->Call(request, protocol::kFlagTracing);
    EXPECT_TRUE(envelope.ok()) << envelope.status().ToString();
    if (!envelope.ok()) return std::nullopt;
    EXPECT_EQ(envelope->header.opcode, Opcode::kResult);
    EXPECT_NE(envelope->header.flags & protocol::kFlagTracing, 0);
    auto prefix = protocol::DecodeResponsePrefix(*envelope);
    EXPECT_TRUE(prefix.ok() && prefix->tracing_id.has_value());
    if (!prefix.ok() || !prefix->tracing_id) return std::nullopt;
    auto id = common::Uuid::FromBytes(*prefix->tracing_id);
    return id.ok() ? std::optional<common::Uuid>(*id) : std::nullopt;
  };
  protocol::QueryRequest query;
  query.query = "SELECT key FROM system.local";
  std::optional<common::Uuid> query_id = traced_id(query);
  protocol::PrepareRequest prepare;
  prepare.query = "INSERT INTO ks.t (k, v) VALUES (?, ?)";
  std::optional<common::Uuid> prepare_id = traced_id(prepare);
  auto prepared = client->Prepare(prepare.query);
  ASSERT_TRUE(prepared.ok());
  protocol::ExecuteRequest execute;
  execute.id = prepared->id;
  execute.parameters.options.values = {cql::BoundValue::Of(cql::SerializeInt(1)),
                                       cql::BoundValue::Of(cql::SerializeInt(2))};
  std::optional<common::Uuid> execute_id = traced_id(execute);
  protocol::BatchRequestMessage batch;
  batch.statements.push_back({false, "INSERT INTO ks.t (k, v) VALUES (3, 3)", {}, {}, {}});
  std::optional<common::Uuid> batch_id = traced_id(batch);
  ASSERT_TRUE(query_id && prepare_id && execute_id && batch_id);
  for (const auto& [id, request] : std::vector<std::pair<common::Uuid, std::string>>{
           {*query_id, "Execute CQL3 query"},
           {*prepare_id, "Preparing CQL3 query"},
           {*execute_id, "Execute CQL3 prepared query"},
           {*batch_id, "Execute batch of CQL3 queries"}}) {
    auto session = client->Query(
        "SELECT request, client, duration FROM system_traces.sessions WHERE session_id = " +
        id.ToString());
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    ASSERT_EQ(session->result.row_count(), 1u) << request;
    EXPECT_EQ(session->result.GetText(0, 0).value(), request);
    EXPECT_EQ(session->result.Value(0, 1).value(), std::string("\x7f\0\0\x01", 4));
    EXPECT_FALSE(session->result.IsNull(0, 2));
  }
  // Without the flag: no id, no flag.
  auto plain = client->Call(query);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->header.flags & protocol::kFlagTracing, 0);
}

// Warnings reach the client in the warnings field.
TEST_F(ServerTest, WarningsAreSentInTheWarningsField) {
  auto client = Connect(5);
  CreateTable(client.get());
  ASSERT_TRUE(client->Query("SELECT count(*) FROM ks.t").ok());
  EXPECT_EQ(client->last_warnings(),
            std::vector<std::string>{"Aggregation query used without partition key"});
  ASSERT_TRUE(client->Query("SELECT count(*) FROM ks.t WHERE k = 1").ok());
  EXPECT_TRUE(client->last_warnings().empty());
}

// system_views.clients lists every open connection, the querying one included, with its
// STARTUP's driver name, protocol version and requests; a closed one is gone. The settings
// show the bound port (the server was started with port 0).
TEST_F(ServerTest, ClientsShowTheQueryingConnection) {
  auto client = Connect(5);
  auto other = Connect(4);
  ASSERT_TRUE(other->Query("SELECT key FROM system.local").ok());
  ASSERT_TRUE(other->Query("SELECT key FROM system.local").ok());
  const std::string query =
      "SELECT port, driver_name, protocol_version, request_count, connection_stage, "
      "ssl_enabled, username, hostname, address FROM system_views.clients";
  auto clients = client->Query(query);
  ASSERT_TRUE(clients.ok()) << clients.status().ToString();
  const cql::ResultSet& rows = clients->result;
  ASSERT_EQ(rows.row_count(), 2u);
  std::map<int32_t, size_t> row_of_port;
  for (size_t r = 0; r < rows.row_count(); ++r) {
    row_of_port[cql::DeserializeInt(*rows.Value(r, 0)).value()] = r;
  }
  ASSERT_EQ(row_of_port.count(client->local_port()), 1u);
  ASSERT_EQ(row_of_port.count(other->local_port()), 1u);
  EXPECT_EQ(row_of_port.begin()->second, 0u) << "rows by port within the address";
  const size_t mine = row_of_port[client->local_port()];
  const size_t theirs = row_of_port[other->local_port()];
  EXPECT_EQ(rows.GetText(mine, 1).value(), "server_testing");
  EXPECT_EQ(cql::DeserializeInt(*rows.Value(mine, 2)).value(), 5);
  EXPECT_EQ(cql::DeserializeInt(*rows.Value(theirs, 2)).value(), 4);
  EXPECT_EQ(cql::DeserializeBigint(*rows.Value(mine, 3)).value(), 1);  // this query
  EXPECT_EQ(cql::DeserializeBigint(*rows.Value(theirs, 3)).value(), 2);
  EXPECT_EQ(rows.GetText(mine, 4).value(), "ready");
  EXPECT_EQ(rows.Value(mine, 5).value(), std::string(1, '\0'));  // false
  EXPECT_TRUE(rows.IsNull(mine, 6));                             // no authentication
  EXPECT_EQ(rows.GetText(mine, 7).value(), "127.0.0.1");
  EXPECT_EQ(rows.Value(mine, 8).value(), std::string("\x7f\0\0\x01", 4));

  other.reset();  // closes the connection
  for (int i = 0; i < 200 && server_->connection_count() > 1; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto after = client->Query(query);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->result.row_count(), 1u);

  auto port =
      client->Query("SELECT value FROM system_views.settings WHERE name = 'native_transport_port'");
  ASSERT_TRUE(port.ok());
  ASSERT_EQ(port->result.row_count(), 1u);
  EXPECT_EQ(port->result.GetText(0, 0).value(), std::to_string(server_->port()));
  auto pools = client->Query(
      "SELECT active_tasks, active_tasks_limit, completed_tasks FROM system_views.thread_pools "
      "WHERE name = 'Native-Transport-Requests'");
  ASSERT_TRUE(pools.ok());
  ASSERT_EQ(pools->result.row_count(), 1u);
  EXPECT_EQ(cql::DeserializeInt(*pools->result.Value(0, 0)).value(), 1);  // this query
  EXPECT_EQ(cql::DeserializeInt(*pools->result.Value(0, 1)).value(), 2);  // io threads
  EXPECT_GE(cql::DeserializeBigint(*pools->result.Value(0, 2)).value(), 5);
}

}  // namespace
}  // namespace server
