#include "server/server_metrics.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "common/metrics.h"
#include "server/server_testing.h"

namespace server::testing {
namespace {

using common::metrics::Registry;

double Value(std::string_view name, const common::metrics::Labels& labels = {}) {
  double value = Registry::Global().Value(name, labels);
  return value < 0 ? 0 : value;  // not registered yet: nothing counted
}

// The value of the collected sample `series` in /metrics; -1 if absent.
double Sample(const std::string& series) {
  const std::string text = Registry::Global().RenderPrometheus();
  const size_t at = text.find("\n" + series + " ");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + series.size() + 2));
}

// Gauges that go down when a connection's last handler finishes: wait for it.
bool WaitFor(const std::function<bool()>& done) {
  for (int i = 0; i < 500 && !done(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

class ServerMetricsTest : public ServerTest {};

TEST_F(ServerMetricsTest, RequestsErrorsConnectionsAndBytesAreCounted) {
  const double accepted = Value("cqld_native_connections_accepted_total");
  const double open = Value("cqld_native_connections");
  const double startups = Value("cqld_native_requests_total", {{"opcode", "STARTUP"}});
  const double queries = Value("cqld_native_requests_total", {{"opcode", "QUERY"}});
  const double syntax =
      Value("cqld_native_errors_total", {{"code", "0x2000"}, {"name", "syntax_error"}});
  const double invalid =
      Value("cqld_native_errors_total", {{"code", "0x2200"}, {"name", "invalid"}});
  const double received = Value("cqld_native_bytes_received_total");
  const double sent = Value("cqld_native_bytes_sent_total");
  {
    std::unique_ptr<TestClient> client = Connect();
    EXPECT_EQ(Value("cqld_native_connections_accepted_total"), accepted + 1);
    EXPECT_EQ(Value("cqld_native_connections"), open + 1);
    ASSERT_TRUE(client->Query("SELECT release_version FROM system.local").ok());
    EXPECT_FALSE(client->Query("SELEKT 1").ok());
    EXPECT_FALSE(client->Query("SELECT * FROM nowhere.t").ok());
    EXPECT_EQ(Value("cqld_native_requests_total", {{"opcode", "STARTUP"}}), startups + 1);
    EXPECT_EQ(Value("cqld_native_requests_total", {{"opcode", "QUERY"}}), queries + 3);
    EXPECT_EQ(Value("cqld_native_errors_total", {{"code", "0x2000"}, {"name", "syntax_error"}}),
              syntax + 1);
    EXPECT_EQ(Value("cqld_native_errors_total", {{"code", "0x2200"}, {"name", "invalid"}}),
              invalid + 1);
    EXPECT_GT(Value("cqld_native_bytes_received_total"), received + 50);
    EXPECT_GT(Value("cqld_native_bytes_sent_total"), sent + 50);
    EXPECT_EQ(Value("cqld_native_requests_in_flight"), 0);
  }
  EXPECT_TRUE(WaitFor([&] { return Value("cqld_native_connections") == open; }));
}

TEST_F(ServerMetricsTest, MemoryBudgetIsCollectedWhileTheServerRuns) {
  EXPECT_EQ(Sample("cqld_native_request_memory_limit_bytes"),
            static_cast<double>(server_options_.max_request_memory));
  EXPECT_GE(Sample("cqld_native_request_memory_used_bytes"), 0);
  server_->Stop();
  EXPECT_EQ(Sample("cqld_native_request_memory_limit_bytes"), -1);
}

TEST(ServerMetrics, ErrorCodeNames) {
  EXPECT_EQ(ErrorCodeName(0x2200), "invalid");
  EXPECT_EQ(ErrorCodeName(0x000A), "protocol_error");
  EXPECT_EQ(ErrorCodeName(0x2500), "unprepared");
  EXPECT_EQ(ErrorCodeName(0x1234), "unknown");
}

}  // namespace
}  // namespace server::testing
