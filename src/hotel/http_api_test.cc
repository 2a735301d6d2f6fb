// The HTTP API suite, run twice: on the embedded engine, and through the C++ driver against an
// in-process cqld server (the service's `--cassandra` mode).

#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>

#include "hotel/hotel_testing.h"
#include "hotel/http_router.h"
#include "hotel/http_server.h"

namespace hotel {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;

struct Reply {
  int status = 0;
  json::value body;
};

class HttpApiTest : public HotelTest, public ::testing::WithParamInterface<SessionKind> {
 protected:
  void SetUp() override {
    session_kind_ = GetParam();
    HotelTest::SetUp();
    LoadInventory();
    router_ = std::make_unique<ApiRouter>(service_.get(), "/nonexistent-web-dir", Mode());
    HttpServerOptions options;
    options.port = 0;
    options.threads = 2;
    options.access_log = false;
    server_ = std::make_unique<HttpServer>(router_.get(), options);
    ASSERT_TRUE(server_->Start().ok());
  }
  void TearDown() override {
    server_->Stop();
    server_.reset();
    HotelTest::TearDown();
  }

  Reply Call(http::verb verb, const std::string& target, const std::string& body = "",
             const std::string& content_type = "application/json") {
    boost::asio::io_context io;
    beast::tcp_stream stream(io);
    stream.connect({boost::asio::ip::make_address("127.0.0.1"), server_->port()});
    http::request<http::string_body> request{verb, target, 11};
    request.set(http::field::host, "localhost");
    if (!body.empty()) {
      request.set(http::field::content_type, content_type);
      request.body() = body;
    }
    request.prepare_payload();
    http::write(stream, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    Reply reply;
    reply.status = response.result_int();
    boost::system::error_code ec;
    reply.body = json::parse(response.body(), ec);
    EXPECT_FALSE(ec) << target << ": " << response.body();
    return reply;
  }

  std::string Mode() const {
    return session_kind_ == SessionKind::kEmbedded ? "embedded" : "cassandra";
  }

  static std::string Code(const Reply& reply) {
    boost::system::error_code ec;
    const json::value* code = reply.body.find_pointer("/error/code", ec);
    return code != nullptr && code->is_string() ? std::string(code->as_string()) : "";
  }

  std::unique_ptr<ApiRouter> router_;
  std::unique_ptr<HttpServer> server_;
};

constexpr const char* kBooking = R"({"hotel_id": "AZ123", "room_number": 101,
  "check_in": "2030-01-02", "check_out": "2030-01-05",
  "guest": {"first_name": "Mai", "last_name": "Nguyen", "title": "Ms.",
            "emails": ["mai@example.com"], "phone_numbers": ["+1 555 0100"],
            "addresses": {"home": {"street": "1 Main St", "city": "Springfield"}}}})";

TEST_P(HttpApiTest, ReadEndpointsQ1ToQ5) {
  auto health = Call(http::verb::get, "/api/v1/health");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(std::string(health.body.at("mode").as_string()), Mode());

  auto pois = Call(http::verb::get, "/api/v1/pois");
  ASSERT_EQ(pois.status, 200);
  EXPECT_EQ(pois.body.at("pois").as_array().size(), 2u);

  auto q1 = Call(http::verb::get, "/api/v1/pois/Eiffel%20Tower/hotels");
  ASSERT_EQ(q1.status, 200);
  EXPECT_EQ(q1.body.at("poi").at("description"), "Iron lattice tower");
  EXPECT_EQ(q1.body.at("hotels").at(0).at("address").at("city"), "Paris");

  auto q2 = Call(http::verb::get, "/api/v1/hotels/AZ123");
  ASSERT_EQ(q2.status, 200);
  EXPECT_EQ(q2.body.at("pois").at(1), "Louvre");
  EXPECT_EQ(Call(http::verb::get, "/api/v1/hotels/NOPE").status, 404);

  auto q3 = Call(http::verb::get, "/api/v1/hotels/AZ123/pois");
  ASSERT_EQ(q3.status, 200);
  EXPECT_EQ(q3.body.at("pois").as_array().size(), 2u);

  auto q4 = Call(http::verb::get,
                 "/api/v1/hotels/AZ123/availability?check_in=2030-01-02&check_out=2030-01-05");
  ASSERT_EQ(q4.status, 200);
  EXPECT_EQ(q4.body.at("nights"), 3);
  EXPECT_EQ(q4.body.at("rooms").at(0).at("total"), "300.00");
  EXPECT_EQ(q4.body.at("rooms").at(0).at("nightly_rates").at(0).at("rate"), "100.00");
  EXPECT_EQ(q4.body.at("rooms").at(1).at("currency"), "EUR");

  auto q5 = Call(http::verb::get, "/api/v1/hotels/AZ123/rooms/102?date=2030-01-03");
  ASSERT_EQ(q5.status, 200);
  EXPECT_EQ(q5.body.at("rate"), "150.00");
  EXPECT_EQ(q5.body.at("room_type"), "suite");
  EXPECT_EQ(q5.body.at("amenities").at(0).at("name"), "view");

  auto openapi = Call(http::verb::get, "/api/v1/openapi.json");
  ASSERT_EQ(openapi.status, 200);
  const json::object& paths = openapi.body.at("paths").as_object();
  EXPECT_TRUE(paths.contains("/reservations/{confirmation_number}"));
  EXPECT_TRUE(paths.at("/reservations/{confirmation_number}").as_object().contains("delete"));
  EXPECT_EQ(paths.size(), 15u);
}

TEST_P(HttpApiTest, BookLookUpChangeAndCancel) {
  auto booked = Call(http::verb::post, "/api/v1/reservations", kBooking);
  ASSERT_EQ(booked.status, 201) << json::serialize(booked.body);
  std::string number(booked.body.at("confirmation_number").as_string());
  EXPECT_EQ(booked.body.at("total"), "300.00");
  EXPECT_EQ(booked.body.at("nights"), 3);
  EXPECT_EQ(booked.body.at("status"), "confirmed");
  std::string guest_id(booked.body.at("guest_id").as_string());

  auto taken = Call(http::verb::post, "/api/v1/reservations", kBooking);
  EXPECT_EQ(taken.status, 409);
  EXPECT_EQ(Code(taken), "room_unavailable");

  auto q6 = Call(http::verb::get, "/api/v1/reservations/" + number);
  ASSERT_EQ(q6.status, 200);
  EXPECT_EQ(q6.body.at("check_in"), "2030-01-02");
  auto q7 =
      Call(http::verb::get, "/api/v1/hotels/AZ123/reservations?date=2030-01-02&last_name=nguyen");
  ASSERT_EQ(q7.status, 200);
  EXPECT_EQ(q7.body.at("reservations").as_array().size(), 1u);
  auto q8 = Call(http::verb::get, "/api/v1/reservations?last_name=Nguyen&first_name=Mai");
  ASSERT_EQ(q8.status, 200);
  EXPECT_EQ(q8.body.at("reservations").at(0).at("confirmation_number").as_string(), number);
  auto q9 = Call(http::verb::get, "/api/v1/guests/" + guest_id);
  ASSERT_EQ(q9.status, 200);
  EXPECT_EQ(q9.body.at("addresses").at("home").at("city"), "Springfield");

  auto changed =
      Call(http::verb::put, "/api/v1/reservations/" + number,
           R"({"check_in": "2030-01-06", "check_out": "2030-01-08", "room_number": 102})");
  ASSERT_EQ(changed.status, 200) << json::serialize(changed.body);
  EXPECT_EQ(changed.body.at("total"), "300.00");
  EXPECT_EQ(changed.body.at("room_number"), 102);

  auto cancelled = Call(http::verb::delete_, "/api/v1/reservations/" + number);
  ASSERT_EQ(cancelled.status, 200);
  EXPECT_EQ(cancelled.body.at("status"), "cancelled");
  EXPECT_EQ(Call(http::verb::delete_, "/api/v1/reservations/" + number).status, 404);
  EXPECT_EQ(Call(http::verb::get, "/api/v1/reservations/" + number).status, 404);
}

TEST_P(HttpApiTest, InventoryAndGuestWrites) {
  EXPECT_EQ(Call(http::verb::post, "/api/v1/pois", R"({"name": "Orsay", "description": "Museum"})")
                .status,
            201);
  auto hotel = Call(http::verb::post, "/api/v1/hotels",
                    R"({"hotel_id": "NY229", "name": "Hotel NY", "phone": "1",
                        "address": {"city": "New York"}, "pois": ["Orsay"]})");
  ASSERT_EQ(hotel.status, 201) << json::serialize(hotel.body);
  EXPECT_EQ(Code(Call(http::verb::post, "/api/v1/hotels", R"({"hotel_id": "NY229", "name": "X"})")),
            "conflict");
  auto room = Call(http::verb::post, "/api/v1/hotels/NY229/rooms",
                   R"({"room_number": 7, "room_type": "single", "rate": "80.50",
                       "amenities": [{"name": "wifi", "description": "Free"}]})");
  ASSERT_EQ(room.status, 201) << json::serialize(room.body);
  auto opened = Call(http::verb::post, "/api/v1/hotels/NY229/availability",
                     R"({"start": "2030-02-01", "end": "2030-02-04"})");
  ASSERT_EQ(opened.status, 200);
  EXPECT_EQ(opened.body.at("nights_opened"), 3);
  auto guest =
      Call(http::verb::post, "/api/v1/guests", R"({"first_name": "Lucas", "last_name": "Silva"})");
  ASSERT_EQ(guest.status, 201);
  std::string id(guest.body.at("guest_id").as_string());
  auto updated =
      Call(http::verb::put, "/api/v1/guests/" + id,
           R"({"first_name": "Lucas", "last_name": "Silva", "emails": ["l@example.com"]})");
  ASSERT_EQ(updated.status, 200);
  EXPECT_EQ(updated.body.at("emails").at(0), "l@example.com");
  auto booked = Call(http::verb::post, "/api/v1/reservations",
                     R"({"hotel_id": "NY229", "room_number": 7, "check_in": "2030-02-01",
                         "check_out": "2030-02-03", "guest": {"guest_id": ")" +
                         id + R"("}})");
  ASSERT_EQ(booked.status, 201) << json::serialize(booked.body);
  EXPECT_EQ(booked.body.at("total"), "161.00");
}

TEST_P(HttpApiTest, BadRequestsGetJsonErrors) {
  auto malformed = Call(http::verb::post, "/api/v1/reservations", "{not json");
  EXPECT_EQ(malformed.status, 400);
  EXPECT_EQ(Code(malformed), "invalid_json");
  auto wrong_type = Call(http::verb::post, "/api/v1/reservations",
                         R"({"hotel_id": "AZ123", "room_number": "101", "check_in": "2030-01-02",
                             "check_out": "2030-01-05", "guest": {"guest_id": null}})");
  EXPECT_EQ(wrong_type.status, 400);
  EXPECT_EQ(wrong_type.body.at("error").at("field"), "room_number");
  auto backwards =
      Call(http::verb::get,
           "/api/v1/hotels/AZ123/availability?check_in=2030-01-05&check_out=2030-01-02");
  EXPECT_EQ(backwards.status, 400);
  EXPECT_EQ(backwards.body.at("error").at("field"), "check_out");
  auto too_long =
      Call(http::verb::get,
           "/api/v1/hotels/AZ123/availability?check_in=2030-01-01&check_out=2030-03-05");
  EXPECT_EQ(too_long.status, 400);
  EXPECT_EQ(Call(http::verb::get,
                 "/api/v1/hotels/AZ123/availability?check_in=2030-02-30&check_out=2030-03-01")
                .status,
            400);
  EXPECT_EQ(Call(http::verb::get, "/api/v1/hotels/AZ123/rooms/abc").status, 400);
  EXPECT_EQ(Call(http::verb::get, "/api/v1/reservations").status, 400);
  EXPECT_EQ(Call(http::verb::get, "/api/v1/guests/not-a-uuid").status, 404);
  EXPECT_EQ(Call(http::verb::get, "/api/v1/nothing").status, 404);
  EXPECT_EQ(Call(http::verb::get, "/").status, 404);  // no web directory
  EXPECT_EQ(Call(http::verb::post, "/api/v1/pois", "{}", "text/plain").status, 415);
  EXPECT_EQ(Call(http::verb::post, "/api/v1/pois", "[1]").status, 400);
  std::string huge = R"({"name": ")" + std::string(100000, 'x') + R"("})";
  EXPECT_EQ(Call(http::verb::post, "/api/v1/pois", huge).status, 413);
  EXPECT_EQ(Call(http::verb::patch, "/api/v1/pois", "{}").status, 405);
}

// Through the driver, a database that stops answering is a 503, not a crash or a 500.
TEST_P(HttpApiTest, UnreachableDatabaseIs503) {
  if (GetParam() != SessionKind::kRemote) GTEST_SKIP() << "the embedded engine is in-process";
  cqld_server_->Stop();
  auto hotel = Call(http::verb::get, "/api/v1/hotels/AZ123");
  EXPECT_EQ(hotel.status, 503);
  EXPECT_EQ(Code(hotel), "database_unavailable");
  auto booked = Call(http::verb::post, "/api/v1/reservations", kBooking);
  EXPECT_EQ(booked.status, 503);
}

INSTANTIATE_TEST_SUITE_P(Sessions, HttpApiTest,
                         ::testing::Values(SessionKind::kEmbedded, SessionKind::kRemote),
                         [](const ::testing::TestParamInfo<SessionKind>& info) {
                           return info.param == SessionKind::kEmbedded ? "Embedded" : "Remote";
                         });

}  // namespace
}  // namespace hotel
