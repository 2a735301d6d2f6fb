// The guest's side of a change of dates or room, and confirmation numbers in any case: the
// service's QuoteChange, GET /api/v1/reservations/{n}/quote (the price the UI shows before the
// guest confirms the PUT), and every reservation call taking a number in lower or mixed case.
// The API tests run on the embedded engine and through the C++ driver, as http_api_test.cc,
// calling the router directly (the transport is http_api_test.cc's and http_server_test.cc's).

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <string>

#include "common/ascii.h"
#include "hotel/hotel_testing.h"
#include "hotel/http_router.h"
#include "hotel/service_metrics.h"

namespace hotel {
namespace {

namespace json = boost::json;

// --- The service ---------------------------------------------------------------------------

class QuoteChangeTest : public HotelTest {
 protected:
  void SetUp() override {
    HotelTest::SetUp();
    LoadInventory();
  }

  // Books room 101 for 2030-01-02 .. 2030-01-05 (3 nights at 100.00) for Mai Nguyen.
  Reservation BookStay() {
    BookingRequest request{"AZ123",         101,          D("2030-01-02"),
                           D("2030-01-05"), std::nullopt, MakeGuest("Mai", "Nguyen")};
    auto booked = service_->Book(request);
    EXPECT_TRUE(booked.ok()) << booked.status().ToString();
    return booked.ok() ? *booked : Reservation{};
  }
};

TEST_F(QuoteChangeTest, PricesTheNewStayAndChangesNothing) {
  Reservation booked = BookStay();
  // Later and longer, in the suite: the nights the stay already holds count as its own.
  auto quote =
      service_->QuoteChange(booked.confirmation_number, {D("2030-01-04"), D("2030-01-08"), 102});
  ASSERT_TRUE(quote.ok()) << quote.status().ToString();
  EXPECT_EQ(quote->current.total, 30000);
  EXPECT_EQ(quote->proposed.total, 60000);
  EXPECT_EQ(quote->difference(), 30000);
  EXPECT_EQ(quote->proposed.status, kStatusChanged);
  EXPECT_EQ(quote->proposed.room_number, 102);
  EXPECT_EQ(quote->room_type, "suite");
  ASSERT_EQ(quote->nightly_rates.size(), 4u);
  EXPECT_EQ(quote->nightly_rates[0].date, D("2030-01-04"));
  EXPECT_EQ(quote->nightly_rates[3].rate, 15000);
  // Overlapping its own nights in its own room, shorter: cheaper.
  auto shorter =
      service_->QuoteChange(booked.confirmation_number, {D("2030-01-03"), D("2030-01-04"), {}});
  ASSERT_TRUE(shorter.ok()) << shorter.status().ToString();
  EXPECT_EQ(shorter->difference(), -20000);
  EXPECT_EQ(shorter->proposed.room_number, 101);

  // Nothing was written or held: the reservation, its history and the free nights are as they
  // were, so others can book the quoted nights.
  auto again = service_->History(booked.confirmation_number);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->reservation.check_in, D("2030-01-02"));
  EXPECT_EQ(again->reservation.status, kStatusConfirmed);
  EXPECT_EQ(again->events.size(), 1u);
  auto free = service_->FindAvailability("AZ123", D("2030-01-05"), D("2030-01-08"));
  ASSERT_TRUE(free.ok());
  EXPECT_EQ(free->rooms.size(), 2u);
}

TEST_F(QuoteChangeTest, FailsAsTheChangeWould) {
  Reservation booked = BookStay();
  const std::string& number = booked.confirmation_number;
  BookingRequest other{"AZ123",         102,          D("2030-01-06"),
                       D("2030-01-08"), std::nullopt, MakeGuest("Lucas", "Silva")};
  ASSERT_TRUE(service_->Book(other).ok());

  ChangeRequest taken{D("2030-01-05"), D("2030-01-07"), 102};
  auto quote = service_->QuoteChange(number, taken);
  ASSERT_FALSE(quote.ok());
  EXPECT_EQ(quote.status().code(), common::StatusCode::kWriteFailure);
  auto change = service_->Change(number, taken);
  ASSERT_FALSE(change.ok());
  EXPECT_EQ(quote.status().message(), change.status().message());
  EXPECT_EQ(quote.status().message(), "Room 102 is not free on 2030-01-06");

  // Not open (the inventory ends on 2030-01-10), an unknown room, a bad stay, a wrong name.
  EXPECT_EQ(service_->QuoteChange(number, {D("2030-01-09"), D("2030-01-12"), {}}).status().code(),
            common::StatusCode::kWriteFailure);
  EXPECT_EQ(service_->QuoteChange(number, {D("2030-01-03"), D("2030-01-04"), 999}).status().code(),
            common::StatusCode::kNotFound);
  EXPECT_EQ(service_->QuoteChange(number, {D("2030-01-04"), D("2030-01-03"), {}}).status().code(),
            common::StatusCode::kInvalid);
  EXPECT_EQ(service_->QuoteChange(number, {D("2030-01-03"), D("2030-01-04"), {}}, "Smith")
                .status()
                .code(),
            common::StatusCode::kNotFound);
  // A cancelled reservation cannot change, so it has no price either.
  ASSERT_TRUE(service_->Cancel(number).ok());
  auto cancelled = service_->QuoteChange(number, {D("2030-01-03"), D("2030-01-04"), {}});
  EXPECT_EQ(cancelled.status().code(), common::StatusCode::kFunctionFailure);
  EXPECT_EQ(cancelled.status().message(),
            "Cannot change reservation '" + number + "': it is cancelled");
}

TEST_F(QuoteChangeTest, EveryCallTakesTheNumberInAnyCase) {
  EXPECT_EQ(CanonicalConfirmation("k7w3rq"), "K7W3RQ");
  EXPECT_EQ(CanonicalConfirmation("K7w3Rq"), "K7W3RQ");
  Reservation booked = BookStay();
  const std::string& number = booked.confirmation_number;
  ASSERT_EQ(number, CanonicalConfirmation(number));  // issued in capitals
  std::string lower = common::AsciiLower(number);
  ASSERT_NE(lower, number);  // the alphabet has letters; seed 7 draws at least one

  auto found = service_->GetReservation(lower, "nguyen");
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_EQ(found->confirmation_number, number);
  auto changed = service_->Change(lower, {D("2030-01-03"), D("2030-01-06"), {}}, "Nguyen");
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_EQ(changed->confirmation_number, number);
  // The change kept its own nights and claimed the new one under the stored number: the old
  // first night is free again, the new ones are not.
  auto free = service_->FindAvailability("AZ123", D("2030-01-02"), D("2030-01-03"));
  ASSERT_TRUE(free.ok());
  EXPECT_EQ(free->rooms.size(), 2u);
  auto busy = service_->FindAvailability("AZ123", D("2030-01-05"), D("2030-01-06"));
  ASSERT_TRUE(busy.ok());
  EXPECT_EQ(busy->rooms.size(), 1u);
  auto checked_in = service_->RecordStayEvent(lower, ReservationAction::kCheckedIn, "frontdesk");
  ASSERT_TRUE(checked_in.ok()) << checked_in.status().ToString();
  auto refused = service_->Cancel(lower, "Nguyen");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            "Cannot cancel reservation '" + number + "': it is checked in");
  auto history = service_->History(lower);
  ASSERT_TRUE(history.ok());
  EXPECT_EQ(history->events.size(), 3u);
}

// --- The HTTP API --------------------------------------------------------------------------

class GuestChangeApiTest : public HotelTest, public ::testing::WithParamInterface<SessionKind> {
 protected:
  void SetUp() override {
    session_kind_ = GetParam();
    HotelTest::SetUp();
    LoadInventory();
    SetUpStaff();
    router_ = std::make_unique<ApiRouter>(service_.get(), auth_.get(), "", "test");
  }
  void TearDown() override {
    router_.reset();
    HotelTest::TearDown();
  }

  struct Answer {
    int status = 0;
    json::value body;
    std::string route;
  };

  Answer Send(const std::string& method, const std::string& target, const std::string& body = "",
              bool staff = false) {
    HttpRequest request;
    request.method = method;
    request.target = target;
    request.content_type = body.empty() ? "" : "application/json";
    request.body = body;
    request.client_address = "127.0.0.1";
    if (staff) request.authorization = "Bearer " + StaffToken();
    HttpResponse response = router_->Handle(request);
    // Counted as the HTTP server counts its requests, for the check that every route is
    // exercised (http_api_test.cc, EveryRouteExercised).
    ObserveHttpRequest(response.route, method, response.status, 0);
    boost::system::error_code ec;
    json::value parsed = json::parse(response.body, ec);
    EXPECT_FALSE(ec) << target << ": " << response.body;
    return {response.status, std::move(parsed), response.route};
  }

  static std::string Text(const json::value& value, const char* pointer) {
    boost::system::error_code ec;
    const json::value* found = value.find_pointer(pointer, ec);
    return found != nullptr && found->is_string() ? std::string(found->as_string()) : "";
  }

  // Books room 101 for 2030-01-02 .. 2030-01-05 (300.00) for Mai Nguyen; its number.
  std::string Book(const std::string& last_name = "Nguyen", int room = 101) {
    Answer booked = Send("POST", "/api/v1/reservations",
                         R"({"hotel_id": "AZ123", "room_number": )" + std::to_string(room) +
                             R"(, "check_in": "2030-01-02", "check_out": "2030-01-05",
                             "guest": {"first_name": "Mai", "last_name": ")" +
                             last_name + R"("}})");
    EXPECT_EQ(booked.status, 201) << json::serialize(booked.body);
    return Text(booked.body, "/confirmation_number");
  }

  std::unique_ptr<ApiRouter> router_;
};

TEST_P(GuestChangeApiTest, QuoteShowsThePriceDifferenceBeforeTheChange) {
  std::string number = Book();
  std::string base = "/api/v1/reservations/" + number;
  Answer quote = Send("GET", base +
                                 "/quote?last_name=nguyen&check_in=2030-01-04&check_out=2030-01-08"
                                 "&room_number=102");
  ASSERT_EQ(quote.status, 200) << json::serialize(quote.body);
  EXPECT_EQ(quote.route, "/api/v1/reservations/{confirmation_number}/quote");
  EXPECT_EQ(Text(quote.body, "/confirmation_number"), number);
  EXPECT_EQ(Text(quote.body, "/currency"), "EUR");
  EXPECT_EQ(Text(quote.body, "/current/total"), "300.00");
  EXPECT_EQ(Text(quote.body, "/current/check_in"), "2030-01-02");
  EXPECT_EQ(quote.body.at("current").at("room_number"), 101);
  EXPECT_EQ(quote.body.at("current").at("nights"), 3);
  EXPECT_EQ(Text(quote.body, "/proposed/total"), "600.00");
  EXPECT_EQ(Text(quote.body, "/proposed/room_type"), "suite");
  EXPECT_EQ(quote.body.at("proposed").at("nights"), 4);
  const json::array& rates = quote.body.at("proposed").at("nightly_rates").as_array();
  ASSERT_EQ(rates.size(), 4u);
  EXPECT_EQ(rates[0].at("date"), "2030-01-04");
  EXPECT_EQ(rates[0].at("rate"), "150.00");
  EXPECT_EQ(Text(quote.body, "/difference"), "300.00");
  // Without room_number, the reservation's own room; a shorter stay costs less.
  Answer shorter =
      Send("GET", base + "/quote?last_name=Nguyen&check_in=2030-01-02&check_out=2030-01-03");
  ASSERT_EQ(shorter.status, 200) << json::serialize(shorter.body);
  EXPECT_EQ(shorter.body.at("proposed").at("room_number"), 101);
  EXPECT_EQ(Text(shorter.body, "/difference"), "-200.00");

  // The PUT that follows charges what the quote said; the quote itself wrote nothing.
  Answer history = Send("GET", base + "/history?last_name=Nguyen");
  ASSERT_EQ(history.status, 200);
  EXPECT_EQ(history.body.at("history").as_array().size(), 1u);
  Answer changed = Send("PUT", base + "?last_name=Nguyen",
                        R"({"check_in": "2030-01-04", "check_out": "2030-01-08",
                            "room_number": 102})");
  ASSERT_EQ(changed.status, 200) << json::serialize(changed.body);
  EXPECT_EQ(Text(changed.body, "/total"), Text(quote.body, "/proposed/total"));
  EXPECT_EQ(Text(changed.body, "/status"), "changed");
}

TEST_P(GuestChangeApiTest, QuoteAnswersThePutsErrors) {
  std::string number = Book();
  std::string base = "/api/v1/reservations/" + number;
  ASSERT_FALSE(Book("Silva", 102).empty());  // the suite is taken 2030-01-02 .. 2030-01-05
  std::string stay = "check_in=2030-01-03&check_out=2030-01-05";

  Answer taken = Send("GET", base + "/quote?last_name=Nguyen&room_number=102&" + stay);
  EXPECT_EQ(taken.status, 409);
  EXPECT_EQ(Text(taken.body, "/error/code"), "room_unavailable");
  Answer put = Send("PUT", base + "?last_name=Nguyen",
                    R"({"check_in": "2030-01-03", "check_out": "2030-01-05", "room_number": 102})");
  EXPECT_EQ(put.status, 409);
  EXPECT_EQ(Text(taken.body, "/error/message"), Text(put.body, "/error/message"));
  EXPECT_EQ(Text(taken.body, "/error/message"), "Room 102 is not free on 2030-01-03");

  struct Case {
    std::string query;
    int status;
    std::string field;
  };
  for (const Case& c : std::vector<Case>{
           {"last_name=Nguyen&check_in=2030-01-03", 400, "check_out"},
           {"last_name=Nguyen&check_in=2030-01-05&check_out=2030-01-03", 400, "check_out"},
           {"last_name=Nguyen&check_in=2030-01-01&check_out=2030-03-01", 400, "check_out"},
           {"last_name=Nguyen&room_number=abc&" + stay, 400, "room_number"},
           {"last_name=Nguyen&room_number=0&" + stay, 400, "room_number"},
           {stay, 400, "last_name"},
           {"last_name=Smith&" + stay, 404, ""},
           {"last_name=Nguyen&room_number=999&" + stay, 404, ""},
       }) {
    Answer answer = Send("GET", base + "/quote?" + c.query);
    SCOPED_TRACE(c.query + ": " + json::serialize(answer.body));
    EXPECT_EQ(answer.status, c.status);
    EXPECT_EQ(Text(answer.body, "/error/field"), c.field);
  }
  // A staff session needs no name; a cancelled reservation has no change to price (422).
  EXPECT_EQ(Send("GET", base + "/quote?" + stay, "", true).status, 200);
  ASSERT_EQ(Send("DELETE", base + "?last_name=Nguyen").status, 200);
  Answer cancelled = Send("GET", base + "/quote?last_name=Nguyen&" + stay);
  EXPECT_EQ(cancelled.status, 422);
  EXPECT_EQ(Text(cancelled.body, "/error/code"), "invalid_transition");
}

TEST_P(GuestChangeApiTest, ConfirmationNumbersInAnyCase) {
  std::string number = Book();
  std::string lower = common::AsciiLower(number);
  ASSERT_NE(lower, number);
  std::string mixed = number;
  for (size_t i = 0; i < mixed.size(); i += 2) mixed[i] = lower[i];
  for (const std::string& typed : {lower, mixed}) {
    SCOPED_TRACE(typed);
    Answer found = Send("GET", "/api/v1/reservations/" + typed + "?last_name=Nguyen");
    ASSERT_EQ(found.status, 200);
    EXPECT_EQ(Text(found.body, "/confirmation_number"), number);
    Answer history = Send("GET", "/api/v1/reservations/" + typed + "/history?last_name=Nguyen");
    ASSERT_EQ(history.status, 200);
    EXPECT_EQ(Text(history.body, "/confirmation_number"), number);
    Answer quote =
        Send("GET", "/api/v1/reservations/" + typed +
                        "/quote?last_name=Nguyen&check_in=2030-01-03&check_out=2030-01-05");
    EXPECT_EQ(quote.status, 200);
  }
  Answer changed = Send("PUT", "/api/v1/reservations/" + lower + "?last_name=Nguyen",
                        R"({"check_in": "2030-01-03", "check_out": "2030-01-05"})");
  ASSERT_EQ(changed.status, 200) << json::serialize(changed.body);
  EXPECT_EQ(Text(changed.body, "/confirmation_number"), number);
  Answer cancelled = Send("DELETE", "/api/v1/reservations/" + mixed + "?last_name=Nguyen");
  ASSERT_EQ(cancelled.status, 200) << json::serialize(cancelled.body);
  EXPECT_EQ(Text(cancelled.body, "/status"), "cancelled");
  Answer history = Send("GET", "/api/v1/reservations/" + lower + "/history?last_name=Nguyen");
  ASSERT_EQ(history.status, 200);
  const json::array& events = history.body.at("history").as_array();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[1].at("action"), "changed");
  EXPECT_EQ(events[2].at("action"), "cancelled");
  // The room's nights went back under the stored number: the stay books again.
  EXPECT_FALSE(Book("Silva").empty());

  // The front desk too.
  std::string other = common::AsciiLower(Book("Silva", 102));
  Answer in = Send("POST", "/api/v1/reservations/" + other + "/check-in", "", true);
  ASSERT_EQ(in.status, 200) << json::serialize(in.body);
  EXPECT_EQ(Text(in.body, "/status"), "checked_in");
  // Unknown in any case is the same 404.
  EXPECT_EQ(Send("GET", "/api/v1/reservations/zzzzzz?last_name=Nguyen").status, 404);
}

INSTANTIATE_TEST_SUITE_P(Sessions, GuestChangeApiTest,
                         ::testing::Values(SessionKind::kEmbedded, SessionKind::kRemote),
                         [](const auto& info) {
                           return info.param == SessionKind::kEmbedded ? "Embedded" : "Remote";
                         });

}  // namespace
}  // namespace hotel
