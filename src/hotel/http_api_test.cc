// The HTTP API suite, run twice: on the embedded engine, and through the C++ driver against an
// in-process cqld server (the service's `--cassandra` mode). Staff calls log in first
// (docs/security.md); the tests at the end check who may call what.

#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <map>
#include <set>

#include "common/metrics.h"
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
  std::string raw;  // the body as received
  http::fields headers;
};

using Headers = std::vector<std::pair<std::string, std::string>>;

class HttpApiTest : public HotelTest, public ::testing::WithParamInterface<SessionKind> {
 protected:
  void SetUp() override {
    session_kind_ = GetParam();
    HotelTest::SetUp();
    LoadInventory();
    SetUpStaff(true, AuthOptions());
    router_ =
        std::make_unique<ApiRouter>(service_.get(), auth_.get(), "/nonexistent-web-dir", Mode());
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

  // The staff auth options of the fixture: a clock the tests move (`now_`).
  StaffAuthOptions AuthOptions() {
    StaffAuthOptions options;
    options.now = [this] { return now_; };
    return options;
  }

  // One request on a fresh connection; `headers` go after Host (a Content-Type among them
  // replaces application/json). A JSON answer is parsed into `body`.
  Reply Call(http::verb verb, const std::string& target, const std::string& body = "",
             const Headers& headers = {}) {
    boost::asio::io_context io;
    beast::tcp_stream stream(io);
    stream.connect({boost::asio::ip::make_address("127.0.0.1"), server_->port()});
    http::request<http::string_body> request{verb, target, 11};
    request.set(http::field::host, "localhost");
    if (!body.empty()) {
      request.set(http::field::content_type, "application/json");
      request.body() = body;
    }
    for (const auto& [name, value] : headers) request.set(name, value);
    request.prepare_payload();
    http::write(stream, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    Reply reply;
    reply.status = response.result_int();
    reply.raw = response.body();
    if (response[http::field::content_type].starts_with("application/json")) {
      boost::system::error_code ec;
      reply.body = json::parse(response.body(), ec);
      EXPECT_FALSE(ec) << target << ": " << response.body();
    }
    reply.headers = response.base();
    return reply;
  }

  // A call with a staff session's bearer token (one login per fixture).
  Reply Staff(http::verb verb, const std::string& target, const std::string& body = "") {
    if (token_.empty()) token_ = StaffToken();
    return Call(verb, target, body, {{"Authorization", "Bearer " + token_}});
  }

  // POST /api/v1/login.
  Reply Login(const std::string& username, const std::string& password,
              const Headers& headers = {}) {
    json::object body{{"username", username}, {"password", password}};
    return Call(http::verb::post, "/api/v1/login", json::serialize(body), headers);
  }

  std::string Mode() const {
    return session_kind_ == SessionKind::kEmbedded ? "embedded" : "cassandra";
  }

  static std::string Code(const Reply& reply) {
    boost::system::error_code ec;
    const json::value* code = reply.body.find_pointer("/error/code", ec);
    return code != nullptr && code->is_string() ? std::string(code->as_string()) : "";
  }

  static std::string Message(const Reply& reply) {
    boost::system::error_code ec;
    const json::value* message = reply.body.find_pointer("/error/message", ec);
    return message != nullptr && message->is_string() ? std::string(message->as_string()) : "";
  }

  std::chrono::steady_clock::time_point now_ = std::chrono::steady_clock::now();
  std::string token_;
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
  EXPECT_EQ(q4.body.at("not_opened"), json::array());
  // Past the opened inventory (2030-01-01 .. 2030-01-10): no room, and the nights that are not
  // opened say why.
  auto beyond = Call(http::verb::get,
                     "/api/v1/hotels/AZ123/availability?check_in=2030-01-09&check_out=2030-01-13");
  ASSERT_EQ(beyond.status, 200);
  EXPECT_EQ(beyond.body.at("rooms"), json::array());
  EXPECT_EQ(beyond.body.at("not_opened"), (json::array{"2030-01-11", "2030-01-12"}));

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
  EXPECT_EQ(paths.size(), 30u);
  for (const char* action : {"history", "quote", "check-in", "check-out", "no-show"}) {
    EXPECT_TRUE(paths.contains("/reservations/{confirmation_number}/" + std::string(action)))
        << action;
  }
  EXPECT_TRUE(paths.contains("/login"));
  // The operations endpoints are at the server's root.
  for (const char* root : {"/health/live", "/health/ready", "/metrics"}) {
    ASSERT_TRUE(paths.contains(root)) << root;
    EXPECT_EQ(paths.at(root).at("servers").at(0).at("url"), "/") << root;
  }
  const json::object& schemes = openapi.body.at("components").at("securitySchemes").as_object();
  EXPECT_EQ(schemes.at("cookieAuth").at("name"), "hotel_session");
  EXPECT_EQ(schemes.at("bearerAuth").at("scheme"), "bearer");
}

TEST_P(HttpApiTest, BookLookUpChangeAndCancel) {
  auto booked = Call(http::verb::post, "/api/v1/reservations", kBooking);
  ASSERT_EQ(booked.status, 201) << json::serialize(booked.body);
  std::string number(booked.body.at("confirmation_number").as_string());
  EXPECT_EQ(booked.body.at("total"), "300.00");
  EXPECT_EQ(booked.body.at("nights"), 3);
  EXPECT_EQ(booked.body.at("status"), "confirmed");
  std::string guest_id(booked.body.at("guest").at("guest_id").as_string());
  EXPECT_EQ(booked.body.at("guest").at("first_name"), "Mai");
  EXPECT_EQ(booked.body.at("guest").at("last_name"), "Nguyen");
  EXPECT_FALSE(booked.body.as_object().contains("guest_last_name"));

  auto taken = Call(http::verb::post, "/api/v1/reservations", kBooking);
  EXPECT_EQ(taken.status, 409);
  EXPECT_EQ(Code(taken), "room_unavailable");

  // The guest's calls give the last name; the staff's need none.
  std::string mine = "/api/v1/reservations/" + number + "?last_name=Nguyen";
  auto q6 = Call(http::verb::get, mine);
  ASSERT_EQ(q6.status, 200);
  EXPECT_EQ(q6.body.at("check_in"), "2030-01-02");
  auto q7 =
      Staff(http::verb::get, "/api/v1/hotels/AZ123/reservations?date=2030-01-02&last_name=nguyen");
  ASSERT_EQ(q7.status, 200);
  EXPECT_EQ(q7.body.at("reservations").as_array().size(), 1u);
  auto q8 = Staff(http::verb::get, "/api/v1/reservations?last_name=Nguyen&first_name=Mai");
  ASSERT_EQ(q8.status, 200);
  EXPECT_EQ(q8.body.at("reservations").at(0).at("confirmation_number").as_string(), number);
  auto q9 = Staff(http::verb::get, "/api/v1/guests/" + guest_id);
  ASSERT_EQ(q9.status, 200);
  EXPECT_EQ(q9.body.at("addresses").at("home").at("city"), "Springfield");

  auto changed =
      Call(http::verb::put, mine,
           R"({"check_in": "2030-01-06", "check_out": "2030-01-08", "room_number": 102})");
  ASSERT_EQ(changed.status, 200) << json::serialize(changed.body);
  EXPECT_EQ(changed.body.at("total"), "300.00");
  EXPECT_EQ(changed.body.at("room_number"), 102);
  EXPECT_EQ(Staff(http::verb::get, "/api/v1/reservations/" + number).status, 200);

  auto cancelled = Call(http::verb::delete_, mine);
  ASSERT_EQ(cancelled.status, 200);
  EXPECT_EQ(cancelled.body.at("status"), "cancelled");
  // Kept, not deleted: still readable, listed with its status; a second cancel is refused.
  auto again = Call(http::verb::delete_, mine);
  EXPECT_EQ(again.status, 422);
  EXPECT_EQ(Code(again), "invalid_transition");
  EXPECT_EQ(std::string(again.body.at("error").at("message").as_string()),
            "Cannot cancel reservation '" + number + "': it is cancelled");
  auto kept = Call(http::verb::get, mine);
  ASSERT_EQ(kept.status, 200);
  EXPECT_EQ(kept.body.at("status"), "cancelled");
  auto listed = Staff(http::verb::get, "/api/v1/reservations?last_name=Nguyen");
  ASSERT_EQ(listed.status, 200);
  EXPECT_EQ(listed.body.at("reservations").at(0).at("status"), "cancelled");

  auto history =
      Call(http::verb::get, "/api/v1/reservations/" + number + "/history?last_name=nguyen");
  ASSERT_EQ(history.status, 200) << json::serialize(history.body);
  EXPECT_EQ(history.body.at("status"), "cancelled");
  const json::array& events = history.body.at("history").as_array();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].at("action"), "booked");
  EXPECT_EQ(events[1].at("action"), "changed");
  EXPECT_EQ(events[1].at("details"),
            "room 101, 2030-01-02 to 2030-01-05 -> room 102, 2030-01-06 to 2030-01-08; "
            "total 300.00 -> 300.00");
  EXPECT_EQ(events[2].at("action"), "cancelled");
  EXPECT_EQ(events[2].at("status"), "cancelled");
  EXPECT_EQ(events[2].at("actor"), "guest");
  EXPECT_TRUE(events[2].at("at").as_string().ends_with("Z"));
  EXPECT_EQ(Call(http::verb::get, "/api/v1/reservations/" + number + "/history").status, 400);
  EXPECT_EQ(
      Call(http::verb::get, "/api/v1/reservations/" + number + "/history?last_name=Smith").status,
      404);
}

TEST_P(HttpApiTest, FrontDeskChecksInAndOut) {
  auto booked = Call(http::verb::post, "/api/v1/reservations", kBooking);
  ASSERT_EQ(booked.status, 201) << json::serialize(booked.body);
  std::string path =
      "/api/v1/reservations/" + std::string(booked.body.at("confirmation_number").as_string());
  // Staff only, and only valid transitions.
  EXPECT_EQ(Call(http::verb::post, path + "/check-in").status, 401);
  auto early = Staff(http::verb::post, path + "/check-out");
  EXPECT_EQ(early.status, 422);
  EXPECT_EQ(Code(early), "invalid_transition");
  auto in = Staff(http::verb::post, path + "/check-in");
  ASSERT_EQ(in.status, 200) << json::serialize(in.body);
  EXPECT_EQ(in.body.at("status"), "checked_in");
  EXPECT_EQ(Staff(http::verb::post, path + "/no-show").status, 422);
  EXPECT_EQ(Call(http::verb::delete_, path + "?last_name=Nguyen").status, 422);
  auto out = Staff(http::verb::post, path + "/check-out");
  ASSERT_EQ(out.status, 200);
  EXPECT_EQ(out.body.at("status"), "checked_out");
  auto history = Staff(http::verb::get, path + "/history");
  ASSERT_EQ(history.status, 200);
  const json::array& events = history.body.at("history").as_array();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[1].at("action"), "checked_in");
  EXPECT_EQ(events[1].at("actor"), kStaffUser);
  EXPECT_EQ(events[2].at("status"), "checked_out");
  EXPECT_EQ(Staff(http::verb::post, "/api/v1/reservations/ZZZZZZ/check-in").status, 404);

  // A checked-out stay keeps its nights; a no-show frees them, so the stay books again.
  EXPECT_EQ(Call(http::verb::post, "/api/v1/reservations", kBooking).status, 409);
  std::string suite(kBooking);
  suite.replace(suite.find("101"), 3, "102");
  auto absent = Call(http::verb::post, "/api/v1/reservations", suite);
  ASSERT_EQ(absent.status, 201);
  auto marked =
      Staff(http::verb::post, "/api/v1/reservations/" +
                                  std::string(absent.body.at("confirmation_number").as_string()) +
                                  "/no-show");
  ASSERT_EQ(marked.status, 200);
  EXPECT_EQ(marked.body.at("status"), "no_show");
  EXPECT_EQ(Call(http::verb::post, "/api/v1/reservations", suite).status, 201);
}

TEST_P(HttpApiTest, InventoryAndGuestWrites) {
  EXPECT_EQ(Staff(http::verb::post, "/api/v1/pois", R"({"name": "Orsay", "description": "Museum"})")
                .status,
            201);
  auto hotel = Staff(http::verb::post, "/api/v1/hotels",
                     R"({"hotel_id": "NY229", "name": "Hotel NY", "phone": "1",
                        "address": {"city": "New York"}, "pois": ["Orsay"]})");
  ASSERT_EQ(hotel.status, 201) << json::serialize(hotel.body);
  EXPECT_EQ(
      Code(Staff(http::verb::post, "/api/v1/hotels", R"({"hotel_id": "NY229", "name": "X"})")),
      "conflict");
  auto room = Staff(http::verb::post, "/api/v1/hotels/NY229/rooms",
                    R"({"room_number": 7, "room_type": "single", "rate": "80.50",
                       "amenities": [{"name": "wifi", "description": "Free"}]})");
  ASSERT_EQ(room.status, 201) << json::serialize(room.body);
  auto opened = Staff(http::verb::post, "/api/v1/hotels/NY229/availability",
                      R"({"start": "2030-02-01", "end": "2030-02-04"})");
  ASSERT_EQ(opened.status, 200);
  EXPECT_EQ(opened.body.at("nights_opened"), 3);
  auto guest =
      Staff(http::verb::post, "/api/v1/guests", R"({"first_name": "Lucas", "last_name": "Silva"})");
  ASSERT_EQ(guest.status, 201);
  std::string id(guest.body.at("guest_id").as_string());
  auto updated =
      Staff(http::verb::put, "/api/v1/guests/" + id,
            R"({"first_name": "Lucas", "last_name": "Silva", "emails": ["l@example.com"]})");
  ASSERT_EQ(updated.status, 200);
  EXPECT_EQ(updated.body.at("emails").at(0), "l@example.com");
  auto booked = Staff(http::verb::post, "/api/v1/reservations",
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
  EXPECT_EQ(Staff(http::verb::get, "/api/v1/reservations").status, 400);
  EXPECT_EQ(Staff(http::verb::get, "/api/v1/guests/not-a-uuid").status, 404);
  EXPECT_EQ(Call(http::verb::get, "/api/v1/nothing").status, 404);
  EXPECT_EQ(Call(http::verb::get, "/").status, 404);  // no web directory
  std::string bearer = "Bearer " + StaffToken();
  auto text = Call(http::verb::post, "/api/v1/pois", "{}",
                   {{"Authorization", bearer}, {"Content-Type", "text/plain"}});
  EXPECT_EQ(text.status, 415);
  EXPECT_EQ(Code(text), "unsupported_media_type");
  EXPECT_EQ(Staff(http::verb::post, "/api/v1/pois", "[1]").status, 400);
  std::string huge = R"({"name": ")" + std::string(100000, 'x') + R"("})";
  auto too_large = Staff(http::verb::post, "/api/v1/pois", huge);
  EXPECT_EQ(too_large.status, 413);
  EXPECT_EQ(Code(too_large), "payload_too_large");
}

// A path the API serves, with a method it does not: 405 with the methods it allows.
TEST_P(HttpApiTest, WrongMethodIs405WithAllow) {
  auto patch = Call(http::verb::patch, "/api/v1/pois", "{}");
  EXPECT_EQ(patch.status, 405);
  EXPECT_EQ(Code(patch), "method_not_allowed");
  EXPECT_EQ(patch.headers[http::field::allow], "GET, POST");
  auto put = Call(http::verb::put, "/api/v1/reservations/ABC123/history", "{}");
  EXPECT_EQ(put.status, 405);
  EXPECT_EQ(put.headers[http::field::allow], "GET");
  EXPECT_EQ(Call(http::verb::delete_, "/api/v1/reservations/ABC123?last_name=X")
                .headers[http::field::allow],
            "");  // served: a 404, not a 405
  auto reservation = Call(http::verb::post, "/api/v1/reservations/ABC123", "{}");
  EXPECT_EQ(reservation.headers[http::field::allow], "GET, PUT, DELETE");
  auto outside = Call(http::verb::post, "/health/live", "{}");
  EXPECT_EQ(outside.status, 405);
  EXPECT_EQ(outside.headers[http::field::allow], "GET, HEAD");
  EXPECT_EQ(Call(http::verb::get, "/api/v1/nothing").status, 404);
}

// Every body-taking endpoint refuses a field it does not know, naming it: a misspelt optional
// field would otherwise be silently dropped.
TEST_P(HttpApiTest, UnknownFieldsAre400) {
  auto booking = json::parse(kBooking).as_object();
  booking["room"] = 101;
  auto unknown = Call(http::verb::post, "/api/v1/reservations", json::serialize(booking));
  EXPECT_EQ(unknown.status, 400);
  EXPECT_EQ(Code(unknown), "unknown_field");
  EXPECT_EQ(unknown.body.at("error").at("field"), "room");
  EXPECT_EQ(Message(unknown), "room is not a field of a booking");
  booking.erase("room");
  booking["guest"].as_object()["email"] = "mai@example.com";
  auto nested = Call(http::verb::post, "/api/v1/reservations", json::serialize(booking));
  EXPECT_EQ(Code(nested), "unknown_field");
  EXPECT_EQ(nested.body.at("error").at("field"), "guest.email");
  const std::pair<std::string, std::string> bodies[] = {
      {"/api/v1/guests", R"({"first_name": "A", "last_name": "B", "phone": "1"})"},
      {"/api/v1/hotels", R"({"hotel_id": "X1", "name": "X", "city": "Paris"})"},
      {"/api/v1/pois", R"({"name": "Orsay", "describe": "Museum"})"},
      {"/api/v1/hotels/AZ123/rooms", R"({"room_number": 9, "room_type": "x", "rate": "1",
                                        "amenities": [{"name": "wifi", "note": "free"}]})"},
      {"/api/v1/hotels/AZ123/availability",
       R"({"start": "2030-02-01", "end": "2030-02-04", "price": "9"})"},
      {"/api/v1/login", R"({"username": "a", "password": "b", "remember": true})"}};
  for (const auto& [path, body] : bodies) {
    auto reply = Staff(http::verb::post, path, body);
    EXPECT_EQ(reply.status, 400) << path << ": " << reply.raw;
    EXPECT_EQ(Code(reply), "unknown_field") << path << ": " << reply.raw;
  }
  EXPECT_EQ(Code(Staff(http::verb::put, "/api/v1/reservations/ABC123",
                       R"({"check_in": "2030-01-06", "check_out": "2030-01-08", "room": 1})")),
            "unknown_field");
  EXPECT_EQ(Code(Staff(http::verb::put, "/api/v1/hotels/AZ123/rates",
                       R"({"start": "2030-01-06", "end": "2030-01-08", "rate": "1", "x": 1})")),
            "unknown_field");
}

// A stay in the past is impossible (400 naming check_in), not "not free" (409); messages read
// as sentences that start with the field they name.
TEST_P(HttpApiTest, ImpossibleStaysAre400WithTheReason) {
  auto booking = json::parse(kBooking).as_object();
  booking["check_in"] = "2020-01-02";
  booking["check_out"] = "2020-01-04";
  auto past = Call(http::verb::post, "/api/v1/reservations", json::serialize(booking));
  EXPECT_EQ(past.status, 400);
  EXPECT_EQ(Code(past), "invalid_field");
  EXPECT_EQ(past.body.at("error").at("field"), "check_in");
  EXPECT_TRUE(Message(past).starts_with("check_in must be today (")) << Message(past);
  auto booked = Call(http::verb::post, "/api/v1/reservations", kBooking);
  ASSERT_EQ(booked.status, 201);
  auto moved =
      Call(http::verb::put,
           "/api/v1/reservations/" +
               std::string(booked.body.at("confirmation_number").as_string()) + "?last_name=Nguyen",
           R"({"check_in": "2020-01-06", "check_out": "2020-01-08"})");
  EXPECT_EQ(moved.status, 400);
  EXPECT_EQ(moved.body.at("error").at("field"), "check_in");
  auto too_long =
      Call(http::verb::get,
           "/api/v1/hotels/AZ123/availability?check_in=2030-01-01&check_out=2030-03-05");
  EXPECT_EQ(Message(too_long),
            "check_out must be at most 30 nights after check_in: a stay lasts at most 30 nights");
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

// --- Who may call what (docs/security.md) ---------------------------------------------------

// A reservation is shown, changed or cancelled only with its number and its guest's last name;
// a wrong name is the same 404, word for word, as an unknown number.
TEST_P(HttpApiTest, AReservationNeedsItsGuestsLastName) {
  auto booked = Call(http::verb::post, "/api/v1/reservations", kBooking);
  ASSERT_EQ(booked.status, 201) << booked.raw;
  std::string number(booked.body.at("confirmation_number").as_string());
  std::string path = "/api/v1/reservations/" + number;

  auto nameless = Call(http::verb::get, path);
  EXPECT_EQ(nameless.status, 400);
  EXPECT_EQ(nameless.body.at("error").at("field"), "last_name");
  auto wrong = Call(http::verb::get, path + "?last_name=Smith");
  auto unknown = Call(http::verb::get, "/api/v1/reservations/ZZZZZZ?last_name=Smith");
  EXPECT_EQ(wrong.status, 404);
  EXPECT_EQ(unknown.status, 404);
  std::string template_of_wrong = wrong.raw;
  template_of_wrong.replace(template_of_wrong.find(number), number.size(), "ZZZZZZ");
  EXPECT_EQ(template_of_wrong, unknown.raw);

  // Any case, blanks around: the right guest.
  EXPECT_EQ(Call(http::verb::get, path + "?last_name=%20nGUYEN%20").status, 200);
  // A wrong name changes and cancels nothing.
  EXPECT_EQ(Call(http::verb::put, path + "?last_name=Smith",
                 R"({"check_in": "2030-01-06", "check_out": "2030-01-08"})")
                .status,
            404);
  EXPECT_EQ(Call(http::verb::delete_, path + "?last_name=Smith").status, 404);
  EXPECT_EQ(Call(http::verb::delete_, path).status, 400);
  auto still = Call(http::verb::get, path + "?last_name=Nguyen");
  ASSERT_EQ(still.status, 200);
  EXPECT_EQ(still.body.at("check_in"), "2030-01-02");
  // Staff may leave the name out, but a name given is checked.
  EXPECT_EQ(Staff(http::verb::get, path).status, 200);
  EXPECT_EQ(Staff(http::verb::get, path + "?last_name=Smith").status, 404);
}

// Every operation the OpenAPI document marks staff-only answers 401 (JSON, WWW-Authenticate)
// without a session, and no other does: the document and the router agree. (Path items with
// their own `servers`, the operations endpoints, are at the root rather than under /api/v1.)
TEST_P(HttpApiTest, OpenApiSaysWhichCallsNeedAStaffLogin) {
  auto openapi = Call(http::verb::get, "/api/v1/openapi.json");
  ASSERT_EQ(openapi.status, 200);
  std::map<std::string, std::string> examples = {
      {"{poi_name}", "Louvre"},
      {"{hotel_id}", "AZ123"},
      {"{room_number}", "101"},
      {"{confirmation_number}", "ZZZZZZ"},
      {"{guest_id}", "6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47"}};
  int staff_only = 0;
  for (const auto& [path_template, operations] : openapi.body.at("paths").as_object()) {
    std::string prefix = operations.as_object().contains("servers") ? "" : "/api/v1";
    std::string path(path_template);
    for (const auto& [placeholder, value] : examples) {
      if (size_t at = path.find(placeholder); at != std::string::npos) {
        path.replace(at, placeholder.size(), value);
      }
    }
    for (const auto& [method, operation] : operations.as_object()) {
      if (method == "servers") continue;
      const json::array& security = operation.at("security").as_array();
      bool needs_staff = !security.empty() &&
                         std::none_of(security.begin(), security.end(),
                                      [](const json::value& v) { return v.as_object().empty(); });
      http::verb verb = http::string_to_verb(method == "get"    ? "GET"
                                             : method == "post" ? "POST"
                                             : method == "put"  ? "PUT"
                                                                : "DELETE");
      std::string body = verb == http::verb::post || verb == http::verb::put ? "{}" : "";
      Reply reply = Call(verb, prefix + path, body);
      SCOPED_TRACE(std::string(method) + " " + path + ": " + reply.raw);
      if (needs_staff) {
        ++staff_only;
        EXPECT_EQ(reply.status, 401);
        EXPECT_EQ(Code(reply), "unauthorized");
        EXPECT_EQ(reply.headers[http::field::www_authenticate], R"(Bearer realm="hotel")");
      } else {
        EXPECT_NE(reply.status, 401);
      }
    }
  }
  EXPECT_EQ(staff_only, 18);
}

TEST_P(HttpApiTest, LoginGivesACookieAndABearerToken) {
  auto wrong = Login(kStaffUser, "not the password");
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(Message(wrong), "Wrong username or password");
  EXPECT_EQ(Message(Login("nobody", "not the password")), "Wrong username or password");
  EXPECT_TRUE(wrong.headers[http::field::set_cookie].empty());

  auto login = Login("FrontDesk", kStaffPassword);  // usernames ignore case
  ASSERT_EQ(login.status, 200) << login.raw;
  std::string token(login.body.at("token").as_string());
  EXPECT_EQ(token.size(), 64u);
  EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(login.body.at("token_type"), "Bearer");
  EXPECT_EQ(login.body.at("username"), "frontdesk");
  EXPECT_EQ(login.body.at("expires_in"), 12 * 3600);
  EXPECT_EQ(login.headers[http::field::cache_control], "no-store");
  std::string cookie(login.headers[http::field::set_cookie]);
  EXPECT_EQ(cookie.rfind("hotel_session=" + token + ";", 0), 0u) << cookie;
  for (const char* attribute : {"; Path=/", "; HttpOnly", "; SameSite=Strict", "; Max-Age=43200"}) {
    EXPECT_NE(cookie.find(attribute), std::string::npos) << attribute;
  }
  EXPECT_EQ(cookie.find("Secure"), std::string::npos) << "not over plain HTTP";

  auto by_cookie = Call(http::verb::get, "/api/v1/session", "",
                        {{"Cookie", "theme=dark; hotel_session=" + token}});
  ASSERT_EQ(by_cookie.status, 200) << by_cookie.raw;
  EXPECT_EQ(by_cookie.body.at("username"), "frontdesk");
  auto by_bearer =
      Call(http::verb::get, "/api/v1/session", "", {{"Authorization", "Bearer " + token}});
  EXPECT_EQ(by_bearer.status, 200);
  EXPECT_EQ(
      Message(Call(http::verb::get, "/api/v1/session", "", {{"Authorization", "Basic eDp5"}})),
      "The Authorization header must be 'Bearer <token>'");

  auto logout =
      Call(http::verb::post, "/api/v1/logout", "", {{"Authorization", "Bearer " + token}});
  EXPECT_EQ(logout.status, 200);
  EXPECT_NE(std::string(logout.headers[http::field::set_cookie])
                .find("hotel_session=; Path=/; Max-Age=0"),
            std::string::npos);
  auto ended = Call(http::verb::get, "/api/v1/session", "", {{"Authorization", "Bearer " + token}});
  EXPECT_EQ(ended.status, 401);
  EXPECT_EQ(Message(ended), "The session has expired or was ended; log in again");
  // A stale cookie does not get in the way of public pages.
  EXPECT_EQ(
      Call(http::verb::get, "/api/v1/pois", "", {{"Cookie", "hotel_session=" + token}}).status,
      200);
}

// Five failures, then each attempt must wait (429 with Retry-After), twice as long each time;
// waiting what the server says lets the right password in, and a success clears the count.
TEST_P(HttpApiTest, RepeatedFailedLoginsAnswer429) {
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(Login(kStaffUser, "guess " + std::to_string(i)).status, 401);
  auto limited = Login(kStaffUser, kStaffPassword);
  EXPECT_EQ(limited.status, 429);
  EXPECT_EQ(Code(limited), "too_many_requests");
  EXPECT_EQ(limited.headers[http::field::retry_after], "1");
  // Another username from the same address waits too (the address is counted).
  EXPECT_EQ(Login("someone", "guess").status, 429);
  now_ += std::chrono::seconds(1);
  EXPECT_EQ(Login(kStaffUser, "guess 5").status, 401);
  auto longer = Login(kStaffUser, kStaffPassword);
  EXPECT_EQ(longer.status, 429);
  EXPECT_EQ(longer.headers[http::field::retry_after], "2");
  now_ += std::chrono::seconds(2);
  EXPECT_EQ(Login(kStaffUser, kStaffPassword).status, 200);
  EXPECT_EQ(Login(kStaffUser, "guess 6").status, 401) << "the success cleared the count";
}

// A request that rides on the session cookie and changes something must come from this
// server's own pages (Origin = Host); a bearer token is not sent by browsers on their own.
TEST_P(HttpApiTest, CookieWritesFromAnotherOriginAre403) {
  auto login = Login(kStaffUser, kStaffPassword);
  ASSERT_EQ(login.status, 200);
  std::string cookie = "hotel_session=" + std::string(login.body.at("token").as_string());
  const char* poi = R"({"name": "Orsay", "description": "Museum"})";
  auto foreign = Call(http::verb::post, "/api/v1/pois", poi,
                      {{"Cookie", cookie}, {"Origin", "http://localhost:9999"}});
  EXPECT_EQ(foreign.status, 403);
  EXPECT_EQ(Code(foreign), "forbidden");
  EXPECT_EQ(
      Call(http::verb::post, "/api/v1/pois", poi, {{"Cookie", cookie}, {"Origin", "null"}}).status,
      403);
  EXPECT_EQ(Call(http::verb::post, "/api/v1/pois", poi,
                 {{"Cookie", cookie}, {"Origin", "http://localhost"}})
                .status,
            201);
  EXPECT_EQ(Call(http::verb::get, "/api/v1/session", "",
                 {{"Cookie", cookie}, {"Origin", "http://evil.example"}})
                .status,
            200)
      << "reads are not refused (SameSite=Strict keeps the cookie off other sites' requests)";
  EXPECT_EQ(Login(kStaffUser, kStaffPassword, {{"Origin", "http://evil.example"}}).status, 403);
}

TEST_P(HttpApiTest, BookingForAnExistingGuestNeedsStaff) {
  auto guest =
      Staff(http::verb::post, "/api/v1/guests", R"({"first_name": "Lucas", "last_name": "Silva"})");
  ASSERT_EQ(guest.status, 201);
  std::string booking = R"({"hotel_id": "AZ123", "room_number": 101, "check_in": "2030-01-02",
      "check_out": "2030-01-04", "guest": {"guest_id": ")" +
                        std::string(guest.body.at("guest_id").as_string()) + R"("}})";
  auto anonymous = Call(http::verb::post, "/api/v1/reservations", booking);
  EXPECT_EQ(anonymous.status, 401);
  EXPECT_EQ(Staff(http::verb::post, "/api/v1/reservations", booking).status, 201);
}

// The router and the OpenAPI document name the same operations, no more, no fewer.
TEST_P(HttpApiTest, OpenApiDescribesEveryRouteAndOnlyThose) {
  auto openapi = Call(http::verb::get, "/api/v1/openapi.json");
  ASSERT_EQ(openapi.status, 200);
  std::set<std::pair<std::string, std::string>> documented;
  for (const auto& [path, operations] : openapi.body.at("paths").as_object()) {
    std::string prefix = operations.as_object().contains("servers") ? "" : "/api/v1";
    for (const auto& [method, operation] : operations.as_object()) {
      if (method == "servers") continue;
      std::string verb(method);
      for (char& c : verb) c = static_cast<char>(c - 'a' + 'A');
      documented.emplace(verb, prefix + std::string(path));
    }
  }
  auto routes = ApiRouter::Routes();
  std::set<std::pair<std::string, std::string>> served(routes.begin(), routes.end());
  for (const auto& [method, route] : served) {
    EXPECT_TRUE(documented.contains({method, route})) << method << " " << route << " undocumented";
  }
  for (const auto& [method, route] : documented) {
    EXPECT_TRUE(served.contains({method, route})) << method << " " << route << " not served";
  }
}

// Every operation the API serves (and so, by the test above, every one OpenAPI documents) is
// answered with a 2xx by at least one request of this binary's tests, counted in
// `hotel_http_requests_total` (route template, method, status class) by the HTTP server, or by
// the helpers of the tests that call the router directly. Checked once every test has run, when
// none was filtered out.
class EveryRouteExercised : public ::testing::Environment {
 public:
  void TearDown() override {
    if (GTEST_FLAG_GET(filter) != "*") return;
    const common::metrics::Registry& registry = common::metrics::Registry::Global();
    for (const auto& [method, route] : ApiRouter::Routes()) {
      double answered = registry.Value("hotel_http_requests_total",
                                       {{"route", route}, {"method", method}, {"status", "2xx"}});
      EXPECT_GT(answered, 0) << method << " " << route
                             << " is never answered with a 2xx by a test request";
    }
  }
};
[[maybe_unused]] const auto* const kEveryRouteExercised =
    ::testing::AddGlobalTestEnvironment(new EveryRouteExercised);

INSTANTIATE_TEST_SUITE_P(Sessions, HttpApiTest,
                         ::testing::Values(SessionKind::kEmbedded, SessionKind::kRemote),
                         [](const ::testing::TestParamInfo<SessionKind>& info) {
                           return info.param == SessionKind::kEmbedded ? "Embedded" : "Remote";
                         });

}  // namespace
}  // namespace hotel
