// The hotel service's operations surface (docs/operations.md, "The hotel service"): the health
// endpoints on a database that answers and on a cluster that is gone, the readiness probe's
// deadline, /metrics (its access rule, route templates as labels, the service's counters), the
// access log and request ids, and the UI compiled into the binary.

#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "common/metrics.h"
#include "hotel/access_log.h"
#include "hotel/hotel_testing.h"
#include "hotel/http_router.h"
#include "hotel/http_server.h"
#include "hotel/readiness_probe.h"
#include "hotel/web_assets.h"

namespace hotel {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;
using common::metrics::Registry;
using std::chrono::milliseconds;

constexpr const char* kBooking = R"({"hotel_id": "AZ123", "room_number": 101,
  "check_in": "2030-01-02", "check_out": "2030-01-05",
  "guest": {"first_name": "Mai", "last_name": "Nguyen", "emails": ["mai@example.com"]}})";

HttpRequest Request(std::string method, std::string target, std::string body = "",
                    std::string client = "192.0.2.7") {
  HttpRequest request;
  request.method = std::move(method);
  request.target = std::move(target);
  request.content_type = body.empty() ? "" : "application/json";
  request.body = std::move(body);
  request.client_address = std::move(client);
  return request;
}

json::value Body(const HttpResponse& response) {
  boost::system::error_code ec;
  json::value body = json::parse(response.body, ec);
  EXPECT_FALSE(ec) << response.body;
  return body;
}

double Count(std::string_view name, const common::metrics::Labels& labels = {}) {
  double value = Registry::Global().Value(name, labels);
  return value < 0 ? 0 : value;
}

class OperationsTest : public HotelTest {
 protected:
  void SetUp() override {
    HotelTest::SetUp();
    if (HasFatalFailure()) return;
    LoadInventory();
    SetUpStaff();
  }
};

TEST_F(OperationsTest, HealthLiveAndReadyOnAnAnsweringDatabase) {
  ApiRouter router(service_.get(), auth_.get(), "", "embedded");
  HttpResponse live = router.Handle(Request("GET", "/health/live"));
  EXPECT_EQ(live.status, 200);
  EXPECT_EQ(live.route, "/health/live");
  HttpResponse ready = router.Handle(Request("GET", "/health/ready"));
  EXPECT_EQ(ready.status, 200) << ready.body;
  EXPECT_EQ(Body(ready).at("status"), "ok");
  HttpResponse api = router.Handle(Request("GET", "/api/v1/health"));
  EXPECT_EQ(api.status, 200);
  EXPECT_EQ(Body(api).at("mode"), "embedded");
  EXPECT_EQ(router.Handle(Request("POST", "/health/ready")).status, 405);
}

// The service on a cluster that goes away: live stays 200, ready and /api/v1/health answer 503
// with the reason, within the probe's deadline, and again once more (no pile-up).
class ClusterDownTest : public OperationsTest {
 protected:
  void SetUp() override {
    session_kind_ = SessionKind::kRemote;
    OperationsTest::SetUp();
  }
};

TEST_F(ClusterDownTest, ReadyIs503AndLiveIs200) {
  ApiRouter router(service_.get(), auth_.get(), "", "cassandra");
  ASSERT_EQ(router.Handle(Request("GET", "/health/ready")).status, 200);
  cqld_server_->Stop();
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto started = std::chrono::steady_clock::now();
    HttpResponse ready = router.Handle(Request("GET", "/health/ready"));
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
    EXPECT_EQ(ready.status, 503) << ready.body;
    json::value body = Body(ready);
    EXPECT_EQ(body.at("status"), "unavailable");
    EXPECT_FALSE(body.at("reason").as_string().empty());
    EXPECT_EQ(body.at("error").at("code"), "database_unavailable");
    EXPECT_EQ(body.at("error").at("status"), 503);
  }
  EXPECT_EQ(router.Handle(Request("GET", "/api/v1/health")).status, 503);
  EXPECT_EQ(router.Handle(Request("GET", "/health/live")).status, 200);
}

TEST(ReadinessProbeTest, ADatabaseThatDoesNotAnswerFailsAtTheDeadline) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> calls = 0;
  ReadinessProbe probe(
      [&] {
        ++calls;
        released.wait();
        return common::Status::Ok();
      },
      milliseconds(100));
  for (int attempt = 0; attempt < 3; ++attempt) {
    common::Status status = probe.Check();
    EXPECT_EQ(status.code(), common::StatusCode::kUnavailable);
    EXPECT_NE(status.message().find("did not answer within 100 ms"), std::string::npos);
  }
  EXPECT_EQ(calls.load(), 1) << "checks coalesce while one hangs";
  release.set_value();
  EXPECT_TRUE(probe.Check().ok());  // the hung check's answer, or a new one's
}

TEST(ReadinessProbeTest, AnErrorIsUnavailableWithItsMessage) {
  ReadinessProbe probe([] { return common::Status::IOError("No host available"); },
                       milliseconds(1000));
  common::Status status = probe.Check();
  EXPECT_EQ(status.code(), common::StatusCode::kUnavailable);
  EXPECT_EQ(status.message(), "No host available");
}

TEST_F(OperationsTest, MetricsNeedLoopbackOrStaff) {
  ApiRouter router(service_.get(), auth_.get(), "", "embedded");
  HttpResponse remote = router.Handle(Request("GET", "/metrics"));
  EXPECT_EQ(remote.status, 401);
  EXPECT_EQ(Body(remote).at("error").at("code"), "unauthorized");
  for (const char* loopback : {"127.0.0.1", "::1", "::ffff:127.0.0.1"}) {
    HttpResponse local = router.Handle(Request("GET", "/metrics", "", loopback));
    EXPECT_EQ(local.status, 200) << loopback;
    EXPECT_EQ(local.content_type, "text/plain; version=0.0.4; charset=utf-8");
  }
  HttpRequest staff = Request("GET", "/metrics");
  staff.authorization = "Bearer " + StaffToken();
  HttpResponse with_session = router.Handle(staff);
  EXPECT_EQ(with_session.status, 200);
  EXPECT_NE(with_session.body.find("# TYPE hotel_bookings_total counter"), std::string::npos);
}

TEST_F(OperationsTest, ServiceCountersMoveWithTheWorkflow) {
  ApiRouter router(service_.get(), auth_.get(), "", "embedded");
  double bookings = Count("hotel_bookings_total");
  double conflicts = Count("hotel_booking_conflicts_total", {{"operation", "book"}});
  double cancellations = Count("hotel_cancellations_total");
  double changes = Count("hotel_changes_total");
  double failures = Count("hotel_login_failures_total");

  HttpResponse booked = router.Handle(Request("POST", "/api/v1/reservations", kBooking));
  ASSERT_EQ(booked.status, 201) << booked.body;
  EXPECT_EQ(booked.route, "/api/v1/reservations");
  EXPECT_EQ(router.Handle(Request("POST", "/api/v1/reservations", kBooking)).status, 409);
  std::string number(Body(booked).at("confirmation_number").as_string());
  HttpResponse changed =
      router.Handle(Request("PUT", "/api/v1/reservations/" + number + "?last_name=Nguyen",
                            R"({"check_in": "2030-01-06", "check_out": "2030-01-08"})"));
  EXPECT_EQ(changed.status, 200) << changed.body;
  EXPECT_EQ(changed.route, "/api/v1/reservations/{confirmation_number}");
  EXPECT_EQ(router.Handle(Request("DELETE", "/api/v1/reservations/" + number + "?last_name=Nguyen"))
                .status,
            200);
  EXPECT_EQ(router
                .Handle(Request("POST", "/api/v1/login",
                                R"({"username": "frontdesk", "password": "wrong password"})"))
                .status,
            401);

  EXPECT_EQ(Count("hotel_bookings_total"), bookings + 1);
  EXPECT_EQ(Count("hotel_booking_conflicts_total", {{"operation", "book"}}), conflicts + 1);
  EXPECT_EQ(Count("hotel_changes_total"), changes + 1);
  EXPECT_EQ(Count("hotel_cancellations_total"), cancellations + 1);
  EXPECT_EQ(Count("hotel_login_failures_total"), failures + 1);
}

TEST_F(OperationsTest, TheUiIsCompiledIn) {
  ASSERT_FALSE(EmbeddedWebAssets().empty());
  ApiRouter router(service_.get(), auth_.get(), "", "embedded");
  HttpResponse index = router.Handle(Request("GET", "/"));
  ASSERT_EQ(index.status, 200);
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  std::ifstream file(std::string(CQLD_TEST_DATA_DIR) + "/../../web/index.html");
  std::stringstream expected;
  expected << file.rdbuf();
  EXPECT_EQ(index.body, expected.str());
  HttpResponse script = router.Handle(Request("GET", "/static/app.js"));
  EXPECT_EQ(script.status, 200);
  EXPECT_EQ(script.content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(script.route, "/static/{file}");
  EXPECT_EQ(router.Handle(Request("GET", "/static/../CMakeLists.txt")).status, 404);
  EXPECT_EQ(router.Handle(Request("GET", "/static/missing.js")).status, 404);
}

// --- Through the HTTP server: request ids, the access log, request metrics -------------------

struct Reply {
  int status = 0;
  std::string body;
  std::string request_id;
};

Reply Get(uint16_t port, const std::string& target,
          const std::vector<std::pair<std::string, std::string>>& headers = {}) {
  boost::asio::io_context io;
  beast::tcp_stream stream(io);
  stream.connect({boost::asio::ip::make_address("127.0.0.1"), port});
  http::request<http::string_body> request{http::verb::get, target, 11};
  request.set(http::field::host, "localhost");
  for (const auto& [name, value] : headers) request.set(name, value);
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  return {static_cast<int>(response.result_int()), response.body(),
          std::string(response["X-Request-Id"])};
}

TEST_F(OperationsTest, AccessLogRequestIdsAndRequestMetrics) {
  std::string log_file = directory_ + "/access.log";
  ApiRouter router(service_.get(), auth_.get(), "", "embedded");
  HttpServerOptions options;
  options.port = 0;
  options.threads = 1;
  options.access_log_file = log_file;
  HttpServer server(&router, options);
  ASSERT_TRUE(server.Start().ok());
  common::metrics::Labels labels = {
      {"route", "/api/v1/hotels/{hotel_id}"}, {"method", "GET"}, {"status", "2xx"}};
  double before = Count("hotel_http_requests_total", labels);

  std::string token = StaffToken();
  Reply hotel = Get(server.port(), "/api/v1/hotels/AZ123?last_name=Secret%20Name",
                    {{"X-Request-Id", "client-id-42"}, {"Authorization", "Bearer " + token}});
  EXPECT_EQ(hotel.status, 200);
  EXPECT_EQ(hotel.request_id, "client-id-42");
  Reply forged = Get(server.port(), "/health/live", {{"X-Request-Id", "bad id <script>"}});
  EXPECT_EQ(forged.request_id.size(), 24u) << forged.request_id;
  Reply metrics = Get(server.port(), "/metrics");
  EXPECT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.body.find(
                "hotel_http_request_duration_seconds_bucket{route=\"/api/v1/hotels/{hotel_id}\""),
            std::string::npos);
  EXPECT_EQ(metrics.body.find("AZ123"), std::string::npos) << "ids are never labels";
  EXPECT_NE(metrics.body.find("hotel_http_open_connections"), std::string::npos);
  server.Stop();
  EXPECT_EQ(Count("hotel_http_requests_total", labels), before + 1);

  std::ifstream in(log_file);
  std::stringstream log;
  log << in.rdbuf();
  std::string text = log.str();
  EXPECT_NE(
      text.find(" access id=client-id-42 client=127.0.0.1 method=GET "
                "route=/api/v1/hotels/{hotel_id} path=/api/v1/hotels/AZ123 status=200 bytes="),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("route=/health/live path=/health/live status=200"), std::string::npos);
  EXPECT_EQ(text.find("Secret"), std::string::npos) << "no query string";
  EXPECT_EQ(text.find(token), std::string::npos) << "no token";
  EXPECT_EQ(text.find("bad id"), std::string::npos);
}

TEST(AccessLogTest, LinesAreSanitizedAndCarryNoQuery) {
  AccessRecord record;
  record.time = std::chrono::system_clock::time_point(std::chrono::milliseconds(1764162245123));
  record.request_id = "abc";
  record.client_address = "10.0.0.1";
  record.method = "GET";
  record.route = "other";
  record.target = "/x\ny \"z\"\\?password=hunter2";
  record.status = 404;
  record.bytes = 12;
  record.milliseconds = 1.5;
  EXPECT_EQ(FormatAccessLine(record),
            "2025-11-26T13:04:05.123Z access id=abc client=10.0.0.1 method=GET route=other "
            "path=/x\\x0ay\\x20\\x22z\\x22\\x5c status=404 bytes=12 ms=1.50\n");
  record.client_address = "";
  record.route = "";
  EXPECT_NE(FormatAccessLine(record).find("client=- method=GET route=- "), std::string::npos);
  EXPECT_TRUE(IsSaneRequestId("a-B_9.x:y+z/w="));
  EXPECT_FALSE(IsSaneRequestId(""));
  EXPECT_FALSE(IsSaneRequestId("has space"));
  EXPECT_FALSE(IsSaneRequestId(std::string(65, 'a')));
  EXPECT_EQ(RequestIdFor("keep-me"), "keep-me");
  EXPECT_NE(RequestIdFor("no\nnewline"), RequestIdFor("no\nnewline"));
}

}  // namespace
}  // namespace hotel
