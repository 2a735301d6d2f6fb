#include "server/admin_server.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include "common/base64.h"
#include "common/metrics.h"
#include "engine/database.h"
#include "server/admin_api.h"

namespace server {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// A connected blocking socket whose reads give up after 5 s.
class RawClient {
 public:
  explicit RawClient(uint16_t port) : socket_(io_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    timeval timeout{5, 0};
    setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  }
  void Send(const std::string& bytes) {
    boost::system::error_code ignored;
    asio::write(socket_, asio::buffer(bytes), ignored);
  }
  // Everything until the server closes (or the timeout).
  std::string ReadAll() {
    std::string out;
    char buffer[4096];
    for (;;) {
      ssize_t n = ::recv(socket_.native_handle(), buffer, sizeof(buffer), 0);
      if (n <= 0) break;
      out.append(buffer, static_cast<size_t>(n));
    }
    return out;
  }

 private:
  asio::io_context io_;
  tcp::socket socket_;
};

int StatusOf(const std::string& response) {
  if (response.size() < 12 || response.rfind("HTTP/1.1 ", 0) != 0) return 0;
  return std::stoi(response.substr(9, 3));
}

std::string BodyOf(const std::string& response) {
  size_t end = response.find("\r\n\r\n");
  return end == std::string::npos ? "" : response.substr(end + 4);
}

std::string Request(const std::string& method, const std::string& path,
                    const std::string& body = "", const std::string& headers = "") {
  return method + " " + path + " HTTP/1.1\r\nHost: x\r\n" + headers +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string Exchange(uint16_t port, const std::string& bytes) {
  RawClient client(port);
  client.Send(bytes);
  return client.ReadAll();
}

// The Authorization header of HTTP Basic `credentials` ("user:password").
std::string Basic(const std::string& credentials) {
  return "Authorization: Basic " + common::Base64Encode(credentials) + "\r\n";
}

class AdminServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "cqld-admin-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
  }
  void TearDown() override {
    server_.reset();
    api_.reset();
    database_.reset();
    std::filesystem::remove_all(directory_);
  }
  void Start(AdminServerOptions options = {}, engine::DatabaseOptions database_options = {}) {
    database_options.purge_interval = std::chrono::seconds(0);
    auto database = engine::Database::Open(directory_, database_options);
    ASSERT_TRUE(database.ok()) << database.status().ToString();
    database_ = std::move(database).value();
    AdminApiOptions api_options;
    api_options.database = database_.get();
    api_options.stop_native_transport = [this] { drained_ = true; };
    api_options.audit_log = audit_.get();
    api_ = std::make_unique<AdminApi>(api_options);
    options.port = 0;
    auto server = AdminServer::Start(
        options, [api = api_.get()](const AdminRequest& request) { return api->Handle(request); });
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(server).value();
  }
  std::string Call(const std::string& method, const std::string& path, const std::string& body = "",
                   const std::string& headers = "") {
    return Exchange(server_->port(), Request(method, path, body, headers));
  }

  std::string directory_;
  std::unique_ptr<AuditLog> audit_;  // before api_, which points to it
  std::unique_ptr<engine::Database> database_;
  std::unique_ptr<AdminApi> api_;
  std::unique_ptr<AdminServer> server_;
  bool drained_ = false;
};

TEST_F(AdminServerTest, ServesMetricsAsPrometheusText) {
  common::metrics::Registry::Global()
      .counter("cqld_admin_test_total", "A counter of the admin server test.", {})
      .Increment(3);
  ASSERT_NO_FATAL_FAILURE(Start());
  std::string response = Call("GET", "/metrics");
  EXPECT_EQ(StatusOf(response), 200) << response;
  EXPECT_NE(response.find("Content-Type: text/plain; version=0.0.4"), std::string::npos);
  EXPECT_NE(BodyOf(response).find("cqld_admin_test_total 3"), std::string::npos) << response;
}

TEST_F(AdminServerTest, GarbageGets400AndTheServerGoesOn) {
  ASSERT_NO_FATAL_FAILURE(Start());
  std::string response = Exchange(server_->port(), "\x16\x03\x01 not http at all\r\n\r\n");
  EXPECT_EQ(StatusOf(response), 400) << response;
  EXPECT_EQ(BodyOf(response), "{\"error\":\"Malformed HTTP request\"}\n");
  EXPECT_EQ(StatusOf(Call("GET", "/nope")), 404);
  EXPECT_EQ(StatusOf(Call("PATCH", "/api/v1/flush")), 405);
  EXPECT_EQ(StatusOf(Call("POST", "/api/v1/flush", "[1, 2")), 400);
  EXPECT_EQ(StatusOf(Call("GET", "/metrics")), 200);
}

TEST_F(AdminServerTest, HeaderAndBodyLimitsAreEnforced) {
  AdminServerOptions options;
  options.max_header_bytes = 1024;
  options.max_body_bytes = 2048;
  ASSERT_NO_FATAL_FAILURE(Start(options));
  std::string big_header = "X-Big: " + std::string(4096, 'a') + "\r\n";
  EXPECT_EQ(StatusOf(Call("GET", "/metrics", "", big_header)), 431);
  // The body's declared length is refused before it is read.
  std::string response = Exchange(
      server_->port(), "POST /api/v1/flush HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n");
  EXPECT_EQ(StatusOf(response), 413) << response;
  EXPECT_EQ(StatusOf(Call("GET", "/metrics")), 200);
}

TEST_F(AdminServerTest, SlowClientsDoNotBlockOthersAndAreClosed) {
  AdminServerOptions options;
  options.read_timeout = std::chrono::milliseconds(500);
  ASSERT_NO_FATAL_FAILURE(Start(options));
  RawClient slow(server_->port());
  slow.Send("GET /metr");  // and nothing more
  auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(StatusOf(Call("GET", "/metrics")), 200);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(450));
  EXPECT_EQ(slow.ReadAll(), "");  // closed at the deadline, without an answer
}

TEST_F(AdminServerTest, ConnectionsOverTheLimitGet503) {
  AdminServerOptions options;
  options.max_connections = 2;
  ASSERT_NO_FATAL_FAILURE(Start(options));
  RawClient first(server_->port());
  RawClient second(server_->port());
  for (int i = 0; i < 100 && server_->connection_count() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(server_->connection_count(), 2u);
  std::string refused = Call("GET", "/metrics");
  EXPECT_EQ(StatusOf(refused), 503) << refused;
  first.Send(Request("GET", "/metrics"));
  EXPECT_EQ(StatusOf(first.ReadAll()), 200);
}

TEST_F(AdminServerTest, PasswordAuthenticatorNeedsASuperuser) {
  engine::DatabaseOptions database_options;
  database_options.authenticator = engine::DatabaseOptions::Authenticator::kPassword;
  database_options.superuser_password = "secret";
  ASSERT_NO_FATAL_FAILURE(Start({}, database_options));
  auto session = database_->NewSession("cassandra");
  ASSERT_TRUE(session->Execute("CREATE ROLE bob WITH PASSWORD = 'pw' AND LOGIN = true").ok());

  std::string none = Call("GET", "/api/v1/node");
  EXPECT_EQ(StatusOf(none), 401) << none;
  EXPECT_NE(none.find("WWW-Authenticate: Basic"), std::string::npos);
  EXPECT_EQ(StatusOf(Call("GET", "/api/v1/node", "", Basic("cassandra:wrong"))), 401);
  EXPECT_EQ(StatusOf(Call("GET", "/api/v1/node", "", "Authorization: Basic %%%\r\n")), 401);
  std::string bob = Call("GET", "/api/v1/node", "", Basic("bob:pw"));
  EXPECT_EQ(StatusOf(bob), 403) << bob;
  std::string ok = Call("GET", "/api/v1/node", "", Basic("cassandra:secret"));
  EXPECT_EQ(StatusOf(ok), 200) << ok;
  EXPECT_NE(BodyOf(ok).find("\"release_version\""), std::string::npos);
  EXPECT_EQ(StatusOf(Call("GET", "/metrics")), 200);  // no credentials for metrics
}

TEST_F(AdminServerTest, AuditLogCalls) {
  AuditLogOptions configured;
  configured.audit_logs_dir = directory_ + "/audit";
  audit_ = std::make_unique<AuditLog>("127.0.0.1:7000", configured);
  ASSERT_NO_FATAL_FAILURE(Start());
  std::string got = Call("GET", "/api/v1/auditlog");
  EXPECT_EQ(StatusOf(got), 200) << got;
  EXPECT_NE(BodyOf(got).find("\"enabled\":false"), std::string::npos) << got;
  EXPECT_NE(BodyOf(got).find("\"audit_logs_dir\":\"" + directory_ + "/audit\""), std::string::npos)
      << got;

  std::string enabled = Call("POST", "/api/v1/auditlog",
                             R"({"included_categories": "ddl,auth", "max_log_size": 1048576})");
  EXPECT_EQ(StatusOf(enabled), 200) << enabled;
  EXPECT_NE(BodyOf(enabled).find("\"enabled\":true"), std::string::npos) << enabled;
  EXPECT_NE(BodyOf(enabled).find("\"included_categories\":\"DDL,AUTH\""), std::string::npos)
      << enabled;
  EXPECT_NE(BodyOf(enabled).find("\"max_log_size\":1048576"), std::string::npos) << enabled;
  EXPECT_TRUE(audit_->enabled());
  EXPECT_TRUE(std::filesystem::exists(directory_ + "/audit/audit.log"));

  std::string bin = Call("POST", "/api/v1/auditlog", R"({"logger": "BinAuditLogger"})");
  EXPECT_EQ(StatusOf(bin), 400) << bin;
  EXPECT_NE(bin.find("BinAuditLogger is not supported"), std::string::npos) << bin;
  EXPECT_EQ(StatusOf(Call("POST", "/api/v1/auditlog", R"({"roll_cycle": "HOURLY"})")), 400);
  EXPECT_EQ(StatusOf(Call("POST", "/api/v1/auditlog", R"({"max_queue_weight": -1})")), 400);
  EXPECT_TRUE(audit_->enabled());  // a refused call changes nothing

  std::string disabled = Call("DELETE", "/api/v1/auditlog");
  EXPECT_EQ(StatusOf(disabled), 200) << disabled;
  EXPECT_NE(BodyOf(disabled).find("\"enabled\":false"), std::string::npos) << disabled;
  EXPECT_NE(BodyOf(disabled).find("\"included_categories\":\"\""), std::string::npos)
      << disabled;  // the configured options again
  EXPECT_FALSE(audit_->enabled());
}

TEST_F(AdminServerTest, ApiRunsOperations) {
  ASSERT_NO_FATAL_FAILURE(Start());
  auto session = database_->NewSession();
  ASSERT_TRUE(session
                  ->Execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                            "'replication_factor': 1}")
                  .ok());
  ASSERT_TRUE(session->Execute("CREATE TABLE ks.t (k int PRIMARY KEY)").ok());
  EXPECT_EQ(StatusOf(Call("POST", "/api/v1/flush", R"({"keyspace": "ks", "tables": ["t"]})")), 200);
  std::string missing = Call("POST", "/api/v1/compact", R"({"keyspace": "nope"})");
  EXPECT_EQ(StatusOf(missing), 400);
  EXPECT_EQ(BodyOf(missing), "{\"error\":\"Keyspace nope does not exist\"}\n");
  EXPECT_EQ(StatusOf(Call("POST", "/api/v1/garbagecollect")), 200);
  EXPECT_EQ(StatusOf(Call("POST", "/api/v1/snapshots", R"({"tag": "s1"})")), 201);
  std::string again = Call("POST", "/api/v1/snapshots", R"({"tag": "s1"})");
  EXPECT_EQ(StatusOf(again), 409);
  EXPECT_EQ(BodyOf(again), "{\"error\":\"Snapshot s1 already exists.\"}\n");
  EXPECT_EQ(StatusOf(Call("POST", "/api/v1/snapshots", R"({"tag": "../x"})")), 400);
  std::string list = Call("GET", "/api/v1/snapshots");
  EXPECT_NE(BodyOf(list).find("\"tag\":\"s1\""), std::string::npos) << list;
  EXPECT_EQ(StatusOf(Call("DELETE", "/api/v1/snapshots", "{}")), 400);
  EXPECT_EQ(BodyOf(Call("DELETE", "/api/v1/snapshots", R"({"all": true})")), "{\"cleared\":1}\n");
  EXPECT_EQ(BodyOf(Call("PUT", "/api/v1/logging", R"({"logger": "ROOT", "level": "warn"})")),
            "{\"levels\":{\"ROOT\":\"WARN\"}}\n");
  EXPECT_EQ(StatusOf(Call("PUT", "/api/v1/logging", R"({"logger": "x", "level": "INFO"})")), 400);
  EXPECT_EQ(BodyOf(Call("PUT", "/api/v1/logging", "{}")), "{\"levels\":{\"ROOT\":\"INFO\"}}\n");
  EXPECT_EQ(StatusOf(Call("POST", "/api/v1/drain")), 200);
  EXPECT_TRUE(drained_);
  EXPECT_NE(BodyOf(Call("GET", "/api/v1/node")).find("\"native_transport_active\":false"),
            std::string::npos);
}

TEST_F(AdminServerTest, BindFailureIsAnError) {
  ASSERT_NO_FATAL_FAILURE(Start());
  AdminServerOptions options;
  options.port = server_->port();
  auto second = AdminServer::Start(options, [](const AdminRequest&) { return AdminResponse{}; });
  EXPECT_FALSE(second.ok());
  options.address = "not an address";
  EXPECT_EQ(AdminServer::Start(options, [](const AdminRequest&) { return AdminResponse{}; })
                .status()
                .code(),
            common::StatusCode::kInvalid);
}

}  // namespace
}  // namespace server
