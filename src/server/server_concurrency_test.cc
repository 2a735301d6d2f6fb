// Tests of the server under concurrency: pipelining, events pushed to registered connections,
// clients that never send or never read, connection limits, batch durability on workers, and
// Stop() with requests in flight.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "common/metrics.h"
#include "cql/types/value_codec.h"
#include "server/server_testing.h"

namespace server {
namespace {

using protocol::Opcode;
using protocol::ResultResponse;
using testing::ServerTest;
using testing::TestClient;

cql::BoundValue Int(int32_t value) { return cql::BoundValue::Of(cql::SerializeInt(value)); }

void CreateSchema(TestClient* client) {
  ASSERT_TRUE(client
                  ->Query("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': "
                          "'SimpleStrategy', 'replication_factor': 1}")
                  .ok());
  ASSERT_TRUE(client->Query("CREATE TABLE IF NOT EXISTS ks.p (k int PRIMARY KEY, v int)").ok());
}

// Sends `count` pipelined `SELECT v FROM ks.p WHERE k = i` (i = 1..count, stream i) and checks
// every answer: its stream's row holds v = 10 * i.
void PipelineSelects(TestClient* client, int count) {
  common::Bytes ignored;
  for (int i = 1; i <= count; ++i) {
    protocol::QueryRequest query;
    query.query = "SELECT v FROM ks.p WHERE k = ?";
    query.parameters.options.values = {Int(i)};
    ASSERT_TRUE(client->Send(query, static_cast<int16_t>(i)));
  }
  std::set<int16_t> answered;
  for (int i = 1; i <= count; ++i) {
    auto envelope = client->Receive();
    ASSERT_TRUE(envelope.ok()) << envelope.status().ToString();
    int16_t stream = envelope->header.stream;
    EXPECT_TRUE(answered.insert(stream).second) << "stream " << stream << " answered twice";
    ASSERT_EQ(envelope->header.opcode, Opcode::kResult) << "stream " << stream;
    auto prefix = protocol::DecodeResponsePrefix(*envelope);
    ASSERT_TRUE(prefix.ok());
    auto result = protocol::DecodeResult(prefix->rest, client->version(), nullptr);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    ASSERT_EQ(result->result.row_count(), 1u) << "stream " << stream;
    EXPECT_EQ(result->result.GetInteger(0, 0).value_or(-1), 10 * stream);
  }
  EXPECT_EQ(answered.size(), static_cast<size_t>(count));
}

void InsertRows(TestClient* client, int count) {
  auto insert = client->Prepare("INSERT INTO ks.p (k, v) VALUES (?, ?)");
  ASSERT_TRUE(insert.ok()) << insert.status().ToString();
  for (int i = 1; i <= count; ++i) {
    ASSERT_TRUE(client->Execute(*insert, {Int(i), Int(10 * i)}).ok());
  }
}

TEST_F(ServerTest, TwoHundredPipelinedRequestsAreAllAnswered) {
  for (uint8_t version : {4, 5}) {
    SCOPED_TRACE(static_cast<int>(version));
    auto client = Connect(version);
    CreateSchema(client.get());
    if (version == 4) InsertRows(client.get(), 200);
    PipelineSelects(client.get(), 200);
  }
}

TEST_F(ServerTest, FewerInFlightRequestsThanPipelinedStillAnswersAll) {
  server_->Stop();
  server_options_.max_requests_per_connection = 3;
  StartServer();
  auto client = Connect(4);
  CreateSchema(client.get());
  InsertRows(client.get(), 50);
  PipelineSelects(client.get(), 50);
}

TEST_F(ServerTest, SchemaChangesArePushedToRegisteredConnections) {
  for (uint8_t version : {4, 5}) {
    SCOPED_TRACE(static_cast<int>(version));
    auto listener = Connect(version);
    protocol::RegisterRequest reg;
    reg.event_types = {"TOPOLOGY_CHANGE", "STATUS_CHANGE", "SCHEMA_CHANGE"};
    auto ready = listener->Call(reg);
    ASSERT_TRUE(ready.ok()) << ready.status().ToString();
    EXPECT_EQ(ready->header.opcode, Opcode::kReady);
    auto unregistered = Connect(version);

    auto other = Connect(4);
    std::string keyspace = "events_v" + std::to_string(version);
    ASSERT_TRUE(other
                    ->Query("CREATE KEYSPACE " + keyspace +
                            " WITH replication = {'class': 'SimpleStrategy', "
                            "'replication_factor': 1}")
                    .ok());
    auto event = listener->Receive();
    ASSERT_TRUE(event.ok()) << event.status().ToString();
    EXPECT_EQ(event->header.opcode, Opcode::kEvent);
    EXPECT_EQ(event->header.stream, -1);
    EXPECT_EQ(event->header.version, version);
    auto decoded = protocol::DecodeEvent(event->body);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    ASSERT_TRUE(decoded->has_value());
    EXPECT_EQ((*decoded)->change_type, "CREATED");
    EXPECT_EQ((*decoded)->target, "KEYSPACE");
    EXPECT_EQ((*decoded)->keyspace, keyspace);
    // The connection that did not register gets nothing: its next envelope is its own answer.
    auto answer = unregistered->Call(protocol::OptionsRequest{});
    ASSERT_TRUE(answer.ok());
    EXPECT_EQ(answer->header.opcode, Opcode::kSupported);
  }
}

TEST_F(ServerTest, SilentAndNonReadingClientsDoNotBlockOthers) {
  auto setup = Connect(4);
  CreateSchema(setup.get());
  ASSERT_TRUE(setup->Query("CREATE TABLE ks.big (k int PRIMARY KEY, v text)").ok());
  cql::QueryOptions options;
  options.values = {Int(1), cql::BoundValue::Of(std::string(200000, 'b'))};
  ASSERT_TRUE(setup->Query("INSERT INTO ks.big (k, v) VALUES (?, ?)", options).ok());

  TestClient silent(server_->port());  // connects and sends nothing
  ASSERT_TRUE(silent.connected());
  auto hog = Connect(4);  // asks for 60 MB of results and never reads them
  for (int i = 0; i < 300; ++i) {
    protocol::QueryRequest query;
    query.query = "SELECT v FROM ks.big WHERE k = 1";
    ASSERT_TRUE(hog->Send(query, static_cast<int16_t>(i + 1)));
  }
  auto other = Connect(5);
  for (int i = 0; i < 20; ++i) {
    auto rows = other->Query("SELECT v FROM ks.big WHERE k = 1");
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    EXPECT_EQ(rows->result.row_count(), 1u);
  }
  // The hog's first answers are intact once it reads.
  auto first = hog->Receive();
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->header.opcode, Opcode::kResult);
}

TEST_F(ServerTest, ConnectionsOverTheLimitAreClosed) {
  server_->Stop();
  server_options_.max_connections = 2;
  StartServer();
  auto first = Connect(4);
  auto second = Connect(4);
  TestClient third(server_->port());
  // Accepted by the kernel; it sends nothing, so the server closes it once its refusal's
  // timeout passes (server_bounds_test.cc has the Overloaded answer to a client that speaks).
  ASSERT_TRUE(third.connected());
  EXPECT_TRUE(third.WaitClosed());
  EXPECT_EQ(server_->rejected_connections(), 1u);
  EXPECT_TRUE(first->Query("SELECT key FROM system.local").ok());
  first.reset();
  // Once the server has seen the close, a new connection is accepted again.
  bool served = false;
  for (int attempt = 0; attempt < 100 && !served; ++attempt) {
    TestClient again(server_->port());
    served = again.Startup(4).ok();
    if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(served);
}

TEST_F(ServerTest, StopAnswersRequestsInFlightThenCloses) {
  auto client = Connect(4);
  CreateSchema(client.get());
  InsertRows(client.get(), 50);
  auto idle = Connect(5);
  for (int i = 1; i <= 50; ++i) {
    protocol::QueryRequest query;
    query.query = "SELECT v FROM ks.p WHERE k = ?";
    query.parameters.options.values = {Int(i)};
    ASSERT_TRUE(client->Send(query, static_cast<int16_t>(i)));
  }
  auto first = client->Receive();
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  std::thread stopper([this] { server_->Stop(); });
  int answered = 1;
  EXPECT_EQ(first->header.opcode, Opcode::kResult);
  for (;;) {
    auto envelope = client->Receive();
    if (!envelope.ok()) {
      EXPECT_EQ(envelope.status().message(), "connection closed");
      break;
    }
    EXPECT_EQ(envelope->header.opcode, Opcode::kResult);
    ++answered;
  }
  stopper.join();
  EXPECT_GE(answered, 1);
  EXPECT_LE(answered, 50);
  EXPECT_TRUE(idle->WaitClosed());
  EXPECT_EQ(server_->connection_count(), 0u);
  TestClient late(server_->port());
  EXPECT_FALSE(late.connected() && late.Startup(4).ok());
}

class BatchDurabilityServerTest : public ServerTest {
 protected:
  BatchDurabilityServerTest() {
    database_options_.durability = engine::DatabaseOptions::Durability::kBatch;
    server_options_.execute_on_workers = true;
    server_options_.worker_threads = 4;
  }
};

TEST_F(BatchDurabilityServerTest, RequestsRunOnWorkers) {
  auto client = Connect(5, protocol::Compression::kLz4);
  CreateSchema(client.get());
  // Pipelined writes: they run concurrently on the workers and share WAL syncs.
  for (int i = 1; i <= 100; ++i) {
    protocol::QueryRequest insert;
    insert.query = "INSERT INTO ks.p (k, v) VALUES (?, ?)";
    insert.parameters.options.values = {Int(i), Int(10 * i)};
    ASSERT_TRUE(client->Send(insert, static_cast<int16_t>(i)));
  }
  for (int i = 1; i <= 100; ++i) {
    auto envelope = client->Receive();
    ASSERT_TRUE(envelope.ok()) << envelope.status().ToString();
    EXPECT_EQ(envelope->header.opcode, Opcode::kResult);
  }
  PipelineSelects(client.get(), 100);
}

// The counters of connection.h design 4c, read from /metrics (process-wide: the tests compare
// deltas).
double Metric(std::string_view name, const common::metrics::Labels& labels = {}) {
  return std::max(0.0, common::metrics::Registry::Global().Value(name, labels));
}
double InlineRuns() { return Metric("cqld_native_requests_executed_total", {{"where", "inline"}}); }
double IoRuns() { return Metric("cqld_native_requests_executed_total", {{"where", "io"}}); }
double WorkerRuns() {
  return Metric("cqld_native_requests_executed_total", {{"where", "workers"}});
}
// Sends `count` INSERTs (k = first..first+count-1, v = 10 * k) as one write, so the server
// reads them together.
void SendInsertsAtOnce(TestClient* client, int first, int count) {
  std::vector<std::pair<int16_t, protocol::Request>> inserts;
  for (int k = first; k < first + count; ++k) {
    protocol::QueryRequest insert;
    insert.query = "INSERT INTO ks.p (k, v) VALUES (?, ?)";
    insert.parameters.options.values = {Int(k), Int(10 * k)};
    inserts.emplace_back(static_cast<int16_t>(k - first + 1), std::move(insert));
  }
  ASSERT_TRUE(client->SendTogether(inserts));
}

void ReceiveResults(TestClient* client, int count) {
  for (int i = 0; i < count; ++i) {
    auto envelope = client->Receive();
    ASSERT_TRUE(envelope.ok()) << envelope.status().ToString();
    ASSERT_EQ(envelope->header.opcode, Opcode::kResult);
  }
}

void ExpectRows(TestClient* client, int first, int count) {
  auto rows = client->Query("SELECT k, v FROM ks.p");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  std::set<int> seen;
  for (size_t row = 0; row < rows->result.row_count(); ++row) {
    int k = static_cast<int>(rows->result.GetInteger(row, 0).value_or(-1));
    EXPECT_EQ(rows->result.GetInteger(row, 1).value_or(-1), 10 * k) << "k = " << k;
    if (k >= first && k < first + count) seen.insert(k);
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(count));
}

// Durability itself (a write acknowledged in batch mode survives kill -9) is
// engine/crash_test.cc's; here: the lone write takes the inline path, whose answer is queued after
// Handle returned.
TEST_F(BatchDurabilityServerTest, ALoneWriteRunsInlineOnItsIoThread) {
  auto client = Connect(4);
  CreateSchema(client.get());
  auto insert = client->Prepare("INSERT INTO ks.p (k, v) VALUES (?, ?)");
  ASSERT_TRUE(insert.ok()) << insert.status().ToString();
  // Past the window in which this connection's first requests were the only ones.
  std::this_thread::sleep_for(2 * Connection::kAloneWindow);
  const double inline_before = InlineRuns();
  const double workers_before = WorkerRuns();
  for (int k = 1; k <= 20; ++k) {
    ASSERT_TRUE(client->Execute(*insert, {Int(k), Int(10 * k)}).ok());
  }
  // One at a time, nothing else running: every one ran on the io thread.
  EXPECT_EQ(InlineRuns() - inline_before, 20);
  EXPECT_EQ(WorkerRuns() - workers_before, 0);
  ExpectRows(client.get(), 1, 20);
}

TEST_F(BatchDurabilityServerTest, WritesThatQueueAreHandedToWorkers) {
  auto client = Connect(4);
  CreateSchema(client.get());
  const double inline_before = InlineRuns();
  const double workers_before = WorkerRuns();
  SendInsertsAtOnce(client.get(), 1, 100);
  ReceiveResults(client.get(), 100);
  // Only the last one, decoded with nothing left in the buffer, may run inline, and only when
  // every other one was already answered.
  EXPECT_GE(WorkerRuns() - workers_before, 99);
  EXPECT_LE(InlineRuns() - inline_before, 1);
  ExpectRows(client.get(), 1, 100);
}

TEST_F(BatchDurabilityServerTest, WritersTakingTurnsAreHandedToWorkers) {
  auto first = Connect(4);
  CreateSchema(first.get());
  auto second = Connect(5);
  const double inline_before = InlineRuns();
  const double workers_before = WorkerRuns();
  // One request at a time, but each from the other connection than the one before: not alone.
  for (int k = 1; k <= 20; ++k) {
    TestClient* client = k % 2 == 0 ? first.get() : second.get();
    auto answer = client->Query("INSERT INTO ks.p (k, v) VALUES (" + std::to_string(k) + ", " +
                                std::to_string(10 * k) + ")");
    ASSERT_TRUE(answer.ok()) << answer.status().ToString();
  }
  EXPECT_EQ(InlineRuns() - inline_before, 0);
  EXPECT_EQ(WorkerRuns() - workers_before, 20);
  ExpectRows(first.get(), 1, 20);
}

TEST_F(BatchDurabilityServerTest, ReadsRunOnTheIoThreads) {
  auto first = Connect(4);
  CreateSchema(first.get());
  InsertRows(first.get(), 10);
  auto second = Connect(5);
  auto select = second->Prepare("SELECT v FROM ks.p WHERE k = ?");
  ASSERT_TRUE(select.ok()) << select.status().ToString();
  const double inline_before = InlineRuns();
  const double io_before = IoRuns();
  const double workers_before = WorkerRuns();
  // Taking turns (never alone): a QUERY SELECT on one connection, an EXECUTE of a prepared
  // SELECT on the other; neither waits for a sync, so neither goes to a worker.
  for (int k = 1; k <= 10; ++k) {
    auto queried = first->Query("  select v FROM ks.p WHERE k = " + std::to_string(k));
    ASSERT_TRUE(queried.ok()) << queried.status().ToString();
    EXPECT_EQ(queried->result.GetInteger(0, 0).value_or(-1), 10 * k);
    auto executed = second->Execute(*select, {Int(k)});
    ASSERT_TRUE(executed.ok()) << executed.status().ToString();
    EXPECT_EQ(executed->result.GetInteger(0, 0).value_or(-1), 10 * k);
  }
  EXPECT_EQ(IoRuns() - io_before, 20);
  EXPECT_EQ(WorkerRuns() - workers_before, 0);
  EXPECT_EQ(InlineRuns() - inline_before, 0);
  // Unsure (a comment first) or a write: the workers.
  ASSERT_TRUE(first->Query("/* x */ SELECT v FROM ks.p WHERE k = 1").ok());
  ASSERT_TRUE(second->Query("INSERT INTO ks.p (k, v) VALUES (1, 10)").ok());
  EXPECT_EQ(WorkerRuns() - workers_before, 2);
}

class QueuedOnlyServerTest : public BatchDurabilityServerTest {
 protected:
  QueuedOnlyServerTest() { server_options_.run_alone_inline = false; }
};

TEST_F(QueuedOnlyServerTest, WithoutRunAloneInlineEveryRequestIsQueued) {
  auto client = Connect(5);
  CreateSchema(client.get());
  const double inline_before = InlineRuns();
  const double workers_before = WorkerRuns();
  InsertRows(client.get(), 10);
  EXPECT_EQ(InlineRuns() - inline_before, 0);
  EXPECT_EQ(WorkerRuns() - workers_before, 11);  // the PREPARE and 10 EXECUTEs
}

TEST_F(BatchDurabilityServerTest, ConcurrentWritersAllCompleteAndAReaderIsServed) {
  auto setup = Connect(4);
  CreateSchema(setup.get());
  ASSERT_TRUE(setup->Query("INSERT INTO ks.p (k, v) VALUES (0, 0)").ok());
  constexpr int kWriters = 6;
  constexpr int kRounds = 10;
  constexpr int kBurst = 20;  // 200 writes per writer
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([this, w, &failures] {
      TestClient client(server_->port());
      if (!client.Startup(w % 2 == 0 ? 4 : 5).ok()) {
        ++failures;
        return;
      }
      for (int round = 0; round < kRounds; ++round) {
        int first = 1000 * (w + 1) + round * kBurst;
        SendInsertsAtOnce(&client, first, kBurst);
        ReceiveResults(&client, kBurst);
        if (::testing::Test::HasFailure()) ++failures;
      }
    });
  }
  // The reader is answered while the writers run, each time within a bounded wait.
  auto reader = Connect(5);
  for (int i = 0; i < 20; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto rows = reader->Query("SELECT v FROM ks.p WHERE k = 0");
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    EXPECT_EQ(rows->result.row_count(), 1u);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  }
  for (std::thread& writer : writers) writer.join();
  EXPECT_EQ(failures.load(), 0);
  for (int w = 0; w < kWriters; ++w) ExpectRows(setup.get(), 1000 * (w + 1), kRounds * kBurst);
}

class TwoWorkersServerTest : public BatchDurabilityServerTest {
 protected:
  TwoWorkersServerTest() { server_options_.worker_threads = 2; }
};

TEST_F(TwoWorkersServerTest, EveryWorkerBusyDoesNotBlockALoneClient) {
  auto setup = Connect(4);
  CreateSchema(setup.get());
  std::vector<std::unique_ptr<TestClient>> busy;
  for (int c = 0; c < 4; ++c) {
    busy.push_back(Connect(4));
    SendInsertsAtOnce(busy.back().get(), 10000 * (c + 1), 200);
  }
  // Sent while the workers hold a queue of 800 writes: answered (queued behind them or inline).
  auto lone = Connect(4);
  auto answer = lone->Query("INSERT INTO ks.p (k, v) VALUES (7, 70)");
  ASSERT_TRUE(answer.ok()) << answer.status().ToString();
  for (auto& client : busy) ReceiveResults(client.get(), 200);
  for (int c = 0; c < 4; ++c) ExpectRows(setup.get(), 10000 * (c + 1), 200);
  ExpectRows(setup.get(), 7, 1);
}

}  // namespace
}  // namespace server
