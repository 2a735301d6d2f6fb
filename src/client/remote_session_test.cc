// RemoteSession against an in-process cqld server and against scripted fake servers:
// pipelining, pooling and USE, UNPREPARED re-preparation, reconnection, timeouts, protocol
// versions and compression, SASL PLAIN authentication.

#include "client/remote_session.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "client/client_testing.h"
#include "client/token_ring.h"
#include "cql/types/murmur3.h"
#include "cql/types/value_codec.h"

namespace client {
namespace {

using common::Result;
using common::StatusCode;
using cql::BoundValue;
using cql::QueryOptions;
using cql::ResultSet;

constexpr const char* kCreateKeyspace =
    "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 1}";

BoundValue Int(int32_t value) { return BoundValue::Of(cql::SerializeInt(value)); }

// Waits (bounded) until `session` has `connections` usable connections.
bool WaitForConnections(RemoteSession* session, size_t connections) {
  for (int i = 0; i < 400; ++i) {
    if (session->connection_count() >= connections) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  return false;
}

class RemoteSessionServerTest : public testing::RemoteSessionTest {
 protected:
  void EightThreads(const ClientOptions& options);
  void Run(RemoteSession* session, const std::string& query) {
    Result<ResultSet> result = session->Execute(query);
    ASSERT_TRUE(result.ok()) << query << ": " << result.status().ToString();
  }
};

// Eight threads write and read their own rows at once through `options`' session.
void RemoteSessionServerTest::EightThreads(const ClientOptions& options) {
  RemoteSession* session = ConnectRemote(options);
  ASSERT_NE(session, nullptr);
  Run(session, kCreateKeyspace);
  Run(session, "CREATE TABLE ks.kv (k int, t int, v int, PRIMARY KEY (k, t))");
  auto insert = session->Prepare("INSERT INTO ks.kv (k, t, v) VALUES (?, ?, ?)");
  auto select = session->Prepare("SELECT v FROM ks.kv WHERE k = ? AND t = ?");
  ASSERT_TRUE(insert.ok() && select.ok());

  constexpr int kThreads = 8;
  constexpr int kPerThread = 150;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        QueryOptions write;
        write.values = {Int(i % 10), Int(t), Int(t * 1000 + i)};
        if (!session->ExecutePrepared(**insert, write).ok()) ++failures;
        QueryOptions read;
        read.values = {Int(i % 10), Int(t)};
        Result<ResultSet> row = session->ExecutePrepared(**select, read);
        if (!row.ok() || row->row_count() != 1 ||
            row->GetInteger(0, 0).value_or(-1) != t * 1000 + i) {
          ++failures;
        }
        Result<ResultSet> text = session->Execute("SELECT count(*) FROM ks.kv WHERE k = 0");
        if (!text.ok() || text->row_count() != 1) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  Result<ResultSet> all = session->Execute("SELECT count(*) FROM ks.kv");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->GetInteger(0, 0).value_or(-1), kThreads * 10);
}

TEST_F(RemoteSessionServerTest, PipelinesFromEightThreads) {
  ClientOptions options = Options();
  options.connections_per_host = 2;
  options.max_in_flight_per_connection = 64;
  options.direct_connections = false;  // every request through the pipelined pool
  EightThreads(options);
}

TEST_F(RemoteSessionServerTest, DirectConnectionsFromEightThreads) {
  ClientOptions options = Options();
  options.connections_per_host = 1;
  EightThreads(options);
}

TEST_F(RemoteSessionServerTest, ACallingThreadReusesItsDirectConnection) {
  ClientOptions options = Options();
  options.connections_per_host = 1;
  options.direct_connections = false;
  RemoteSession* pooled = ConnectRemote(options);
  options.direct_connections = true;
  RemoteSession* direct = ConnectRemote(options);
  ASSERT_TRUE(pooled != nullptr && direct != nullptr);
  ASSERT_TRUE(WaitForConnections(pooled, 1) && WaitForConnections(direct, 1));
  size_t before = server_->connection_count();
  for (int i = 0; i < 20; ++i) Run(pooled, "SELECT release_version FROM system.local");
  EXPECT_EQ(server_->connection_count(), before);  // the pool's connection only
  // One connection more, opened by the first call, given back and borrowed again by the rest.
  for (int i = 0; i < 20; ++i) Run(direct, "SELECT release_version FROM system.local");
  EXPECT_EQ(server_->connection_count(), before + 1);
}

TEST_F(RemoteSessionServerTest, DirectConnectionsFollowUse) {
  RemoteSession* session = ConnectRemote();
  ASSERT_NE(session, nullptr);
  Run(session, kCreateKeyspace);
  Run(session,
      "CREATE KEYSPACE ks2 WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}");
  Run(session, "CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  Run(session, "CREATE TABLE ks2.t (k int PRIMARY KEY, v int)");
  Run(session, "INSERT INTO ks.t (k, v) VALUES (1, 1)");
  Run(session, "INSERT INTO ks2.t (k, v) VALUES (1, 2)");
  for (const auto& [keyspace, value] : {std::pair{"ks", 1}, std::pair{"ks2", 2}}) {
    Run(session, std::string("USE ") + keyspace);
    // From several threads, so that connections opened before the USE are borrowed too.
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < 20; ++i) {
          Result<ResultSet> rows = session->Execute("SELECT v FROM t WHERE k = 1");
          if (!rows.ok() || rows->GetInteger(0, 0).value_or(-1) != value) ++wrong;
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(wrong.load(), 0) << keyspace;
  }
}

TEST_F(RemoteSessionServerTest, UseAppliesToEveryConnection) {
  ClientOptions options = Options();
  options.connections_per_host = 4;
  RemoteSession* session = ConnectRemote(options);
  ASSERT_NE(session, nullptr);
  ASSERT_TRUE(WaitForConnections(session, 4));
  Run(session, kCreateKeyspace);
  Run(session, "CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  Run(session, "INSERT INTO ks.t (k, v) VALUES (1, 2)");
  Result<ResultSet> use = session->Execute("USE ks");
  ASSERT_TRUE(use.ok()) << use.status().ToString();
  EXPECT_EQ(use->kind(), ResultSet::Kind::kSetKeyspace);
  EXPECT_EQ(session->keyspace(), "ks");
  // Requests are spread over the connections: every one must be in ks.
  for (int i = 0; i < 40; ++i) {
    Result<ResultSet> rows = session->Execute("SELECT v FROM t WHERE k = 1");
    ASSERT_TRUE(rows.ok()) << i << ": " << rows.status().ToString();
    EXPECT_EQ(rows->GetInteger(0, 0).value_or(-1), 2);
  }
}

TEST_F(RemoteSessionServerTest, ReprepareAfterTheServerForgetsStatements) {
  RemoteSession* session = ConnectRemote();
  ASSERT_NE(session, nullptr);
  Run(session, kCreateKeyspace);
  Run(session, "CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  Run(session, "INSERT INTO ks.t (k, v) VALUES (1, 10)");
  auto select = session->Prepare("SELECT v FROM ks.t WHERE k = ?");
  ASSERT_TRUE(select.ok());
  QueryOptions options;
  options.values = {Int(1)};
  ASSERT_TRUE(session->ExecutePrepared(**select, options).ok());

  RestartServer(/*fresh_database=*/true);  // the new Database knows no prepared statement
  ASSERT_TRUE(WaitForConnections(session, 1));
  Run(session, kCreateKeyspace);
  Run(session, "CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  Run(session, "INSERT INTO ks.t (k, v) VALUES (1, 20)");
  Result<ResultSet> rows = session->ExecutePrepared(**select, options);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->row_count(), 1u);
  EXPECT_EQ(rows->GetInteger(0, 0).value_or(-1), 20);
  EXPECT_EQ(rows->columns(), (*select)->result_columns);

  // A batch with a prepared entry re-prepares too.
  auto insert = session->Prepare("INSERT INTO ks.t (k, v) VALUES (?, ?)");
  ASSERT_TRUE(insert.ok());
  RestartServer(/*fresh_database=*/true);
  ASSERT_TRUE(WaitForConnections(session, 1));
  Run(session, kCreateKeyspace);
  Run(session, "CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  cql::BatchRequest batch;
  batch.entries.push_back({"", *insert, {Int(5), Int(50)}, {}});
  Result<ResultSet> applied = session->ExecuteBatch(batch);
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  Result<ResultSet> check = session->Execute("SELECT v FROM ks.t WHERE k = 5");
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(check->GetInteger(0, 0).value_or(-1), 50);
}

TEST_F(RemoteSessionServerTest, ReconnectsAfterTheServerRestarts) {
  ClientOptions options = Options();
  options.reconnect_initial_delay = std::chrono::milliseconds(20);
  options.reconnect_max_delay = std::chrono::milliseconds(200);
  RemoteSession* session = ConnectRemote(options);
  ASSERT_NE(session, nullptr);
  Run(session, kCreateKeyspace);
  Run(session, "USE ks");
  Run(session, "CREATE TABLE t (k int PRIMARY KEY, v int)");

  StopServer();
  Result<ResultSet> down = session->Execute("SELECT * FROM t");
  ASSERT_FALSE(down.ok());
  EXPECT_EQ(down.status().code(), StatusCode::kIOError) << down.status().ToString();
  // Once every connection noticed, requests fail fast and say no host is available.
  for (int i = 0; i < 400 && session->hosts_up() > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  Result<ResultSet> fast = session->Execute("SELECT * FROM t");
  ASSERT_FALSE(fast.ok());
  EXPECT_EQ(fast.status().code(), StatusCode::kIOError);
  EXPECT_NE(fast.status().message().find("No host available"), std::string::npos)
      << fast.status().message();

  RestartServer(/*fresh_database=*/false);
  ASSERT_TRUE(WaitForConnections(session, 1));
  // Reconnected connections are back in the session's keyspace.
  Result<ResultSet> rows = session->Execute("SELECT * FROM t");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(session->keyspace(), "ks");
}

TEST_F(RemoteSessionServerTest, ConnectFailsWhenNoContactPointAnswers) {
  StopServer();
  ClientOptions options = Options();  // the stopped server's port: connection refused
  Result<std::unique_ptr<RemoteSession>> session = RemoteSession::Connect(options);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), StatusCode::kIOError);
  EXPECT_NE(session.status().message().find("Unable to connect to any contact point"),
            std::string::npos)
      << session.status().message();

  options.contact_points = {"127.0.0.1:notaport"};
  EXPECT_EQ(RemoteSession::Connect(options).status().code(), StatusCode::kInvalid);
  options.contact_points = {};
  EXPECT_EQ(RemoteSession::Connect(options).status().code(), StatusCode::kInvalid);
}

TEST_F(RemoteSessionServerTest, RoutingTokenMatchesTheServersToken) {
  RemoteSession* session = ConnectRemote();
  ASSERT_NE(session, nullptr);
  Run(session, kCreateKeyspace);
  Run(session, "CREATE TABLE ks.one (k int PRIMARY KEY, v int)");
  Run(session, "CREATE TABLE ks.two (a text, b int, c int, PRIMARY KEY ((a, b), c))");
  auto one = session->Prepare("SELECT token(k) FROM ks.one WHERE k = ?");
  auto two = session->Prepare("SELECT token(a, b) FROM ks.two WHERE b = ? AND a = ?");
  ASSERT_TRUE(one.ok() && two.ok());
  for (int i = -3; i < 40; i += 7) {
    Run(session, "INSERT INTO ks.one (k, v) VALUES (" + std::to_string(i) + ", 0)");
    Run(session, "INSERT INTO ks.two (a, b, c) VALUES ('key" + std::to_string(i) + "', " +
                     std::to_string(i) + ", 0)");
    QueryOptions options;
    options.values = {Int(i)};
    Result<ResultSet> token = session->ExecutePrepared(**one, options);
    ASSERT_TRUE(token.ok() && token->row_count() == 1);
    EXPECT_EQ(RoutingToken(**one, options), token->GetInteger(0, 0).value_or(0));
    options.values = {Int(i), BoundValue::Of("key" + std::to_string(i))};
    token = session->ExecutePrepared(**two, options);
    ASSERT_TRUE(token.ok() && token->row_count() == 1);
    EXPECT_EQ(RoutingToken(**two, options), token->GetInteger(0, 0).value_or(0));
  }
}

struct VersionCase {
  uint8_t requested;
  protocol::Compression compression;
  uint8_t negotiated;
};

class RemoteSessionVersionTest : public RemoteSessionServerTest,
                                 public ::testing::WithParamInterface<VersionCase> {};

TEST_P(RemoteSessionVersionTest, QueriesWithEveryVersionAndCompression) {
  ClientOptions options = Options();
  options.protocol_version = GetParam().requested;
  options.compression = GetParam().compression;
  RemoteSession* session = ConnectRemote(options);
  ASSERT_NE(session, nullptr);
  EXPECT_EQ(session->protocol_version(), GetParam().negotiated);
  Run(session, kCreateKeyspace);
  Run(session, "CREATE TABLE ks.big (k int, c int, v text, PRIMARY KEY (k, c))");
  auto insert = session->Prepare("INSERT INTO ks.big (k, c, v) VALUES (?, ?, ?)");
  ASSERT_TRUE(insert.ok());
  // Rows large and repetitive enough to compress, and a result bigger than one v5 segment.
  std::string value(2000, 'z');
  for (int c = 0; c < 100; ++c) {
    QueryOptions row;
    row.values = {Int(1), Int(c), BoundValue::Of(value + std::to_string(c))};
    ASSERT_TRUE(session->ExecutePrepared(**insert, row).ok());
  }
  Result<ResultSet> rows = session->Execute("SELECT * FROM ks.big WHERE k = 1");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->row_count(), 100u);
  EXPECT_EQ(rows->GetText(42, 2).value_or(""), value + "42");
  Result<ResultSet> error = session->Execute("SELECT * FROM ks.nothing");
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.status().code(), StatusCode::kInvalid);
}

INSTANTIATE_TEST_SUITE_P(Versions, RemoteSessionVersionTest,
                         ::testing::Values(VersionCase{0, protocol::Compression::kNone, 5},
                                           VersionCase{5, protocol::Compression::kLz4, 5},
                                           VersionCase{4, protocol::Compression::kNone, 4},
                                           VersionCase{4, protocol::Compression::kLz4, 4},
                                           VersionCase{4, protocol::Compression::kSnappy, 4},
                                           VersionCase{0, protocol::Compression::kSnappy, 5}));

// ---------------------------------------------------------------------------------------------
// Fake servers.

ClientOptions FakeOptions(uint16_t port) {
  ClientOptions options;
  options.contact_points = {"127.0.0.1:" + std::to_string(port)};
  options.connections_per_host = 1;
  options.connect_timeout = std::chrono::milliseconds(3000);
  options.request_timeout = std::chrono::milliseconds(3000);
  return options;
}

common::Bytes VoidResult(uint8_t version) {
  common::ByteWriter out;
  protocol::EncodeResult(ResultSet::Void(), version, {}, &out);
  return out.Release();
}

// A v4-only server that demands SASL PLAIN as user/secret and answers every query with Void.
std::optional<testing::FakeReply> AuthenticatingServer(const protocol::Envelope& request) {
  using protocol::Opcode;
  if (request.header.version != 4) {
    return testing::FakeReply{
        Opcode::kError,
        testing::FakeServer::ErrorBody(StatusCode::kProtocolError,
                                       "Invalid or unsupported protocol version (5); supported "
                                       "versions are (3/v3, 4/v4)"),
        uint8_t{4}};
  }
  switch (request.header.opcode) {
    case Opcode::kStartup: {
      common::ByteWriter out;
      protocol::EncodeAuthenticate({"org.apache.cassandra.auth.PasswordAuthenticator"}, &out);
      return testing::FakeReply{Opcode::kAuthenticate, out.Release(), std::nullopt};
    }
    case Opcode::kAuthResponse: {
      common::ByteReader reader(request.body);
      auto token = reader.ReadIntBytes();
      if (token.ok() && token->bytes == std::string_view("\0user\0secret", 12)) {
        common::ByteWriter out;
        out.PutNullIntBytes();
        return testing::FakeReply{Opcode::kAuthSuccess, out.Release(), std::nullopt};
      }
      return testing::FakeReply{
          Opcode::kError,
          testing::FakeServer::ErrorBody(StatusCode::kAuthenticationError,
                                         "Provided username user and/or password are incorrect"),
          std::nullopt};
    }
    default:
      return testing::FakeReply{Opcode::kResult, VoidResult(4), std::nullopt};
  }
}

TEST(RemoteSessionFakeServerTest, SaslPlainAuthenticationAndVersionDowngrade) {
  testing::FakeServer server(AuthenticatingServer);
  ClientOptions options = FakeOptions(server.port());
  options.username = "user";
  options.password = "secret";
  Result<std::unique_ptr<RemoteSession>> session = RemoteSession::Connect(options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  EXPECT_EQ((*session)->protocol_version(), 4);  // the server refused v5
  Result<ResultSet> result = (*session)->Execute("INSERT INTO ks.t (k) VALUES (1)");
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->kind(), ResultSet::Kind::kVoid);
  session->reset();

  options.password = "wrong";
  Result<std::unique_ptr<RemoteSession>> refused = RemoteSession::Connect(options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kAuthenticationError);
  EXPECT_EQ(refused.status().message(), "Provided username user and/or password are incorrect");

  options.username.clear();
  Result<std::unique_ptr<RemoteSession>> anonymous = RemoteSession::Connect(options);
  ASSERT_FALSE(anonymous.ok());
  EXPECT_EQ(anonymous.status().code(), StatusCode::kAuthenticationError);
  EXPECT_NE(anonymous.status().message().find("requires authentication"), std::string::npos);

  options.username = "user";
  options.password = "secret";
  options.protocol_version = 5;  // exactly v5: the refusal is final
  Result<std::unique_ptr<RemoteSession>> v5 = RemoteSession::Connect(options);
  ASSERT_FALSE(v5.ok());
  EXPECT_EQ(v5.status().code(), StatusCode::kProtocolError);
}

TEST(RemoteSessionFakeServerTest, RequestTimesOutWhenTheServerNeverAnswers) {
  // READY to STARTUP, then silence.
  testing::FakeServer server(
      [](const protocol::Envelope& request) -> std::optional<testing::FakeReply> {
        if (request.header.opcode == protocol::Opcode::kStartup) return testing::FakeReply{};
        return std::nullopt;
      });
  ClientOptions options = FakeOptions(server.port());
  options.protocol_version = 4;
  options.request_timeout = std::chrono::milliseconds(300);
  Result<std::unique_ptr<RemoteSession>> session = RemoteSession::Connect(options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  Result<ResultSet> result = (*session)->Execute("SELECT * FROM ks.t");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kIOError);
  EXPECT_NE(result.status().message().find("timed out"), std::string::npos)
      << result.status().message();
}

// A server that answers a query one byte every 100 ms (a 13-byte Void result: 1.3 s) must not
// stretch a request beyond its 300 ms timeout, on the direct path (one deadline over every
// recv) and on the pipelined one.
TEST(RemoteSessionFakeServerTest, RequestTimesOutWhenTheServerTricklesItsAnswer) {
  testing::FakeServer server([](const protocol::Envelope& request) {
    if (request.header.opcode == protocol::Opcode::kStartup) {
      return std::optional<testing::FakeReply>(testing::FakeReply{});
    }
    testing::FakeReply reply{protocol::Opcode::kResult, VoidResult(4), std::nullopt};
    reply.trickle = std::chrono::milliseconds(100);
    return std::optional<testing::FakeReply>(std::move(reply));
  });
  for (bool direct : {true, false}) {
    SCOPED_TRACE(direct ? "direct connections" : "pipelined connections");
    ClientOptions options = FakeOptions(server.port());
    options.protocol_version = 4;
    options.direct_connections = direct;
    options.request_timeout = std::chrono::milliseconds(300);
    Result<std::unique_ptr<RemoteSession>> session = RemoteSession::Connect(options);
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    Result<ResultSet> result = (*session)->Execute("INSERT INTO ks.t (k) VALUES (1)");
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), StatusCode::kIOError);
    EXPECT_NE(result.status().message().find("timed out"), std::string::npos)
        << result.status().message();
  }
}

TEST(RemoteSessionFakeServerTest, ConnectTimesOutOnASilentSocket) {
  testing::FakeServer server(nullptr, /*accept=*/false);  // a raw listening socket
  ClientOptions options = FakeOptions(server.port());
  options.connect_timeout = std::chrono::milliseconds(300);
  Result<std::unique_ptr<RemoteSession>> session = RemoteSession::Connect(options);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.status().code(), StatusCode::kIOError);
  EXPECT_NE(session.status().message().find("Timed out connecting"), std::string::npos)
      << session.status().message();
}

// Two fake nodes (127.0.0.1 and 127.0.0.2, same port): the first reports the second in
// system.peers with its token; EXECUTEs of a statement whose partition key is bound must reach
// the node owning the key's token.
class TwoNodeCluster {
 public:
  static constexpr int64_t kFirstToken = 0;
  static constexpr int64_t kSecondToken = int64_t{1} << 62;

  TwoNodeCluster()
      : first_([this](const protocol::Envelope& request) { return Answer(0, request); }),
        second_([this](const protocol::Envelope& request) { return Answer(1, request); }, true,
                "127.0.0.2", first_.port()) {}

  uint16_t port() const { return first_.port(); }
  // (node, key) of every EXECUTE, in arrival order.
  std::vector<std::pair<int, int32_t>> executions() {
    std::lock_guard lock(mutex_);
    return executions_;
  }
  // The node that owns `token`: the first token at or after it, wrapping.
  static int Owner(int64_t token) { return token > kFirstToken && token <= kSecondToken ? 1 : 0; }

 private:
  std::optional<testing::FakeReply> Answer(int node, const protocol::Envelope& envelope) {
    using protocol::Opcode;
    if (envelope.header.opcode == Opcode::kStartup) return testing::FakeReply{};
    auto request = protocol::DecodeRequest(envelope);
    if (!request.ok()) return std::nullopt;
    common::ByteWriter out;
    if (auto* query = std::get_if<protocol::QueryRequest>(&*request)) {
      cql::CqlType tokens_type = cql::CqlType::Set(cql::CqlType::Text());
      if (query->query.find("system.local") != std::string::npos) {
        ResultSet rows = ResultSet::Rows({{"system", "local", "tokens", tokens_type}});
        rows.AddRow({Tokens(node == 0 ? kFirstToken : kSecondToken)});
        protocol::EncodeResult(rows, 4, {}, &out);
      } else if (query->query.find("system.peers") != std::string::npos) {
        ResultSet rows = ResultSet::Rows({{"system", "peers", "peer", cql::CqlType::Inet()},
                                          {"system", "peers", "rpc_address", cql::CqlType::Inet()},
                                          {"system", "peers", "tokens", tokens_type}});
        std::string other =
            node == 0 ? std::string("\x7f\x00\x00\x02", 4) : std::string("\x7f\x00\x00\x01", 4);
        rows.AddRow({other, other, Tokens(node == 0 ? kSecondToken : kFirstToken)});
        protocol::EncodeResult(rows, 4, {}, &out);
      } else {
        protocol::EncodeResult(ResultSet::Void(), 4, {}, &out);
      }
      return testing::FakeReply{Opcode::kResult, out.Release(), std::nullopt};
    }
    if (std::holds_alternative<protocol::PrepareRequest>(*request)) {
      cql::PreparedMetadata prepared;
      prepared.id = common::Bytes(16, '\x42');
      prepared.bind_variables = {{"ks", "t", "k", cql::CqlType::Int()}};
      prepared.partition_key_indexes = {0};
      protocol::EncodePreparedResult(prepared, 4, &out);
      return testing::FakeReply{Opcode::kResult, out.Release(), std::nullopt};
    }
    if (auto* execute = std::get_if<protocol::ExecuteRequest>(&*request)) {
      const std::vector<BoundValue>& values = execute->parameters.options.values;
      if (!values.empty() && values[0].bytes.size() == 4) {
        std::lock_guard lock(mutex_);
        executions_.emplace_back(
            node, static_cast<int32_t>(common::LoadBigEndian32(values[0].bytes.data())));
      }
      protocol::EncodeResult(ResultSet::Void(), 4, {}, &out);
      return testing::FakeReply{Opcode::kResult, out.Release(), std::nullopt};
    }
    return std::nullopt;
  }

  static common::Bytes Tokens(int64_t token) {
    common::ByteWriter out;
    out.PutI32(1);
    out.PutIntBytes(std::to_string(token));
    return out.Release();
  }

  std::mutex mutex_;
  std::vector<std::pair<int, int32_t>> executions_;
  testing::FakeServer first_;
  testing::FakeServer second_;
};

TEST(RemoteSessionFakeServerTest, TokenAwareRoutingSendsToTheOwner) {
  TwoNodeCluster cluster;
  ClientOptions options = FakeOptions(cluster.port());
  options.protocol_version = 4;
  Result<std::unique_ptr<RemoteSession>> session = RemoteSession::Connect(options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  EXPECT_EQ((*session)->host_count(), 2u);  // the peer joined the pool
  for (int i = 0; i < 400 && (*session)->hosts_up() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ASSERT_EQ((*session)->hosts_up(), 2u);
  auto prepared = (*session)->Prepare("INSERT INTO ks.t (k) VALUES (?)");
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  std::set<int> owners;
  for (int32_t key = 0; key < 40; ++key) {
    QueryOptions values;
    values.values = {Int(key)};
    ASSERT_TRUE((*session)->ExecutePrepared(**prepared, values).ok());
    owners.insert(TwoNodeCluster::Owner(cql::Murmur3Token(cql::SerializeInt(key))));
  }
  EXPECT_EQ(owners.size(), 2u);  // the keys cover both nodes
  std::vector<std::pair<int, int32_t>> executions = cluster.executions();
  ASSERT_EQ(executions.size(), 40u);
  for (const auto& [node, key] : executions) {
    EXPECT_EQ(node, TwoNodeCluster::Owner(cql::Murmur3Token(cql::SerializeInt(key))))
        << "key " << key;
  }
}

}  // namespace
}  // namespace client
