// Tests of the server's memory and connection bounds (docs/reliability.md §3): the server-wide
// memory budget against a client that pipelines large results and never reads, small frames and
// a handshake timeout before STARTUP, declared decompressed sizes, the idle timeout, and the
// Overloaded answer to connections over max_connections.

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "cql/types/value_codec.h"
#include "server/server_testing.h"

namespace server {
namespace {

using protocol::Compression;
using protocol::Opcode;
using testing::RawHeader;
using testing::ServerTest;
using testing::TestClient;

constexpr size_t kMiB = 1024 * 1024;

// The ERROR an envelope holds; fails the test when it is something else.
protocol::ErrorResponse ExpectError(const common::Result<protocol::Envelope>& envelope) {
  EXPECT_TRUE(envelope.ok()) << envelope.status().ToString();
  if (!envelope.ok()) return {};
  EXPECT_EQ(envelope->header.opcode, Opcode::kError);
  auto error = protocol::DecodeError(envelope->body);
  EXPECT_TRUE(error.ok()) << error.status().ToString();
  return error.ok() ? *error : protocol::ErrorResponse{};
}

// Connects clients until one completes STARTUP, for at most ~10 s (the server frees slots
// asynchronously). Returns whether one did.
bool ConnectEventually(uint16_t port) {
  for (int attempt = 0; attempt < 200; ++attempt) {
    TestClient client(port);
    if (client.connected() && client.Startup(4).ok()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

class BoundsTest : public ServerTest {
 protected:
  // Restarts the server with `options_` changed by `change`.
  template <typename Change>
  void Restart(Change change) {
    server_->Stop();
    change(&server_options_);
    StartServer();
  }
};

// Sends `count` requests for the 1 MB row of CreateBigRow without reading their answers.
void SendBigSelects(TestClient* client, int count) {
  for (int i = 1; i <= count; ++i) {
    protocol::QueryRequest query;
    query.query = "SELECT v FROM ks.big WHERE k = 1";
    ASSERT_TRUE(client->Send(query, static_cast<int16_t>(i)));
  }
}

void ReadBigAnswers(TestClient* client, int count) {
  for (int i = 1; i <= count; ++i) {
    auto envelope = client->Receive();
    ASSERT_TRUE(envelope.ok()) << i << ": " << envelope.status().ToString();
    EXPECT_EQ(envelope->header.opcode, Opcode::kResult);
    EXPECT_GT(envelope->body.size(), 1000000u);
  }
}

// Queries the 1 MB row a few times; fails the test unless each is answered.
void ExpectServed(TestClient* client) {
  for (int i = 0; i < 3; ++i) {
    auto rows = client->Query("SELECT v FROM ks.big WHERE k = 1");
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    EXPECT_EQ(rows->result.row_count(), 1u);
  }
}

class BigRowTest : public BoundsTest {
 protected:
  // Restarts with a `budget_mib` budget and creates ks.big with a 1 MB row at k = 1.
  void CreateBigRow(size_t budget_mib) {
    Restart([&](ServerOptions* options) { options->max_request_memory = budget_mib * kMiB; });
    auto setup = Connect(4);
    ASSERT_TRUE(setup
                    ->Query("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                            "'replication_factor': 1}")
                    .ok());
    ASSERT_TRUE(setup->Query("CREATE TABLE ks.big (k int PRIMARY KEY, v text)").ok());
    cql::QueryOptions insert;
    insert.values = {cql::BoundValue::Of(cql::SerializeInt(1)),
                     cql::BoundValue::Of(std::string(1000000, 'r'))};
    ASSERT_TRUE(setup->Query("INSERT INTO ks.big (k, v) VALUES (?, ?)", insert).ok());
  }
};

TEST_F(BigRowTest, ClientPipeliningLargeRowsWithoutReadingStaysWithinItsBound) {
  CreateBigRow(128);
  // 200 requests for the 1 MB row, sent before reading anything: 200 MB of answers if the
  // server produced them all.
  auto hog = Connect(4);
  SendBigSelects(hog.get(), 200);
  auto other = Connect(5);
  ExpectServed(other.get());  // meanwhile
  ReadBigAnswers(hog.get(), 200);
  const MemoryBudget& budget = server_->memory_budget();
  EXPECT_LE(budget.high_water(), budget.limit());
  // The connection's own bound: its first wave (4 MiB / 64 KiB = 64 requests before any
  // answer was seen) and 4 MiB of output, not 200 answers.
  EXPECT_LE(budget.high_water(), 80 * kMiB);
  EXPECT_GT(budget.high_water(), 2 * kMiB);  // the answers were counted
}

TEST_F(BigRowTest, FourClientsPipeliningLargeRowsShareTheBudget) {
  CreateBigRow(64);
  auto other = Connect(5);
  ExpectServed(other.get());  // the server now knows this table's answers are large
  std::vector<std::unique_ptr<TestClient>> hogs;
  for (int i = 0; i < 4; ++i) {
    hogs.push_back(Connect(4));
    SendBigSelects(hogs.back().get(), 50);
  }
  ExpectServed(other.get());  // meanwhile
  for (auto& hog : hogs) ReadBigAnswers(hog.get(), 50);
  const MemoryBudget& budget = server_->memory_budget();
  EXPECT_LE(budget.high_water(), budget.limit());
  EXPECT_GT(budget.high_water(), 8 * kMiB);
}

TEST_F(BoundsTest, HundredConnectionsDeclaringSixteenMiBBeforeStartupAreRefused) {
  std::vector<std::unique_ptr<TestClient>> clients;
  for (int i = 0; i < 100; ++i) {
    auto client = std::make_unique<TestClient>(server_->port());
    ASSERT_TRUE(client->connected());
    ASSERT_TRUE(client->SendRaw(RawHeader(4, 5, Opcode::kStartup, 16 * kMiB) + "abcd"));
    clients.push_back(std::move(client));
  }
  for (auto& client : clients) {
    protocol::ErrorResponse error = ExpectError(client->Receive());
    EXPECT_EQ(error.code, 0x000Au);
    EXPECT_EQ(error.message,
              "Request is too big: length 16777216 exceeds maximum allowed length 65536.");
    EXPECT_TRUE(client->WaitClosed());
  }
  // At most a read buffer and a small frame each were ever counted, never 16 MiB.
  EXPECT_LT(server_->memory_budget().high_water(), 100 * 256 * 1024u);
  EXPECT_TRUE(Connect(4)->Query("SELECT key FROM system.local").ok());
}

TEST_F(BoundsTest, DeclaredDecompressedSizesAreCountedAndHugeOnesRefused) {
  auto client = Connect(4, Compression::kLz4);
  // 8 MB of zeros in a QUERY compress to a few tens of KB on the wire; the server counts the
  // 8 MB it decompresses to.
  protocol::QueryRequest query;
  query.query = "SELECT key FROM system.local WHERE key = '" + std::string(8000000, '0') + "'";
  auto answer = client->Call(query);
  EXPECT_GE(server_->memory_budget().high_water(), 8000000u);
  // An lz4 body whose prefix declares 1 GiB: refused before anything is allocated.
  std::string body("\x40\x00\x00\x00", 4);
  body += std::string(20, '\0');
  ASSERT_TRUE(client->SendRaw(RawHeader(4, 9, Opcode::kQuery, static_cast<uint32_t>(body.size()),
                                        protocol::kFlagCompression) +
                              body));
  protocol::ErrorResponse error;
  for (;;) {  // skip the answer to the first query, if it came late
    auto envelope = client->Receive();
    ASSERT_TRUE(envelope.ok()) << envelope.status().ToString();
    if (envelope->header.stream != 9) continue;
    error = ExpectError(envelope);
    break;
  }
  EXPECT_EQ(error.code, 0x000Au);
  EXPECT_EQ(error.message, "Decompressed body of 1073741824 bytes exceeds the maximum of 16777216");
  EXPECT_TRUE(client->WaitClosed());
}

TEST_F(BoundsTest, HandshakeTimeoutFreesSlotsOfStalledSockets) {
  Restart([](ServerOptions* options) {
    options->max_connections = 2;
    options->handshake_timeout = std::chrono::milliseconds(300);
  });
  TestClient four_bytes(server_->port());  // the finding: 4 bytes, then nothing
  ASSERT_TRUE(four_bytes.SendRaw(std::string("\x04\x00\x00\x01", 4)));
  TestClient silent(server_->port());
  ASSERT_TRUE(silent.connected());
  // Both are closed after the timeout; the one whose version is known gets a ProtocolError.
  protocol::ErrorResponse error = ExpectError(four_bytes.Receive());
  EXPECT_EQ(error.code, 0x000Au);
  EXPECT_EQ(error.message, "Connection handshake timed out: STARTUP not completed within 300 ms");
  EXPECT_TRUE(four_bytes.WaitClosed());
  EXPECT_TRUE(silent.WaitClosed());
  // Then new clients are served again.
  EXPECT_TRUE(ConnectEventually(server_->port()));
}

TEST_F(BoundsTest, ConnectionsOverTheLimitGetOverloadedOnTheirStream) {
  Restart([](ServerOptions* options) { options->max_connections = 2; });
  auto first = Connect(4);
  auto second = Connect(5);
  for (uint8_t version : {4, 5}) {
    TestClient third(server_->port());
    ASSERT_TRUE(third.connected());
    third.set_version(version);
    ASSERT_TRUE(third.Send(protocol::OptionsRequest{}, 7));
    auto envelope = third.Receive();
    protocol::ErrorResponse error = ExpectError(envelope);
    ASSERT_TRUE(envelope.ok());
    EXPECT_EQ(envelope->header.stream, 7);
    EXPECT_EQ(envelope->header.version, version);
    EXPECT_EQ(error.code, 0x1001u);
    EXPECT_EQ(error.message, "Too many connections (the limit is 2)");
    EXPECT_TRUE(third.WaitClosed());
  }
  TestClient mute(server_->port());  // sends nothing: closed after the reject timeout
  EXPECT_TRUE(mute.WaitClosed());
  EXPECT_EQ(server_->rejected_connections(), 3u);
  // The two served connections are untouched, and a freed slot is taken again.
  EXPECT_TRUE(first->Query("SELECT key FROM system.local").ok());
  second.reset();
  EXPECT_TRUE(ConnectEventually(server_->port()));
}

TEST_F(BoundsTest, IdleConnectionsAreClosedWhenAnIdleTimeoutIsSet) {
  Restart([](ServerOptions* options) { options->idle_timeout = std::chrono::milliseconds(200); });
  auto client = Connect(4);
  ASSERT_TRUE(client->Query("SELECT key FROM system.local").ok());
  EXPECT_TRUE(client->WaitClosed());
  EXPECT_TRUE(ConnectEventually(server_->port()));
}

}  // namespace
}  // namespace server
