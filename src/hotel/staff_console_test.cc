// The staff console's service operations and endpoints (docs/staff-console.md): the paged hotel
// list, the occupancy grid, departures and the in-house list over Q11's table
// `stays_by_hotel_date`, and rate changes. The service tests run on both availability tables;
// the endpoint tests call the router directly (http_api_test.cc covers the transport), on the
// embedded engine and through the driver (the hotel list's cursor is the engine's paging state).

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <set>

#include "hotel/router_testing.h"

namespace hotel {
namespace {

namespace json = boost::json;

class StaffConsoleServiceTest : public BucketedHotelTest {
 protected:
  Reservation Book(int16_t room, const char* check_in, const char* check_out,
                   const std::string& last_name) {
    BookingRequest request;
    request.hotel_id = "AZ123";
    request.room_number = room;
    request.check_in = D(check_in);
    request.check_out = D(check_out);
    request.new_guest = MakeGuest("Mai", last_name);
    auto booked = service_->Book(request);
    EXPECT_TRUE(booked.ok()) << booked.status().ToString();
    return booked.ok() ? *booked : Reservation{};
  }

  std::set<std::string> Numbers(const common::Result<std::vector<Reservation>>& list) {
    EXPECT_TRUE(list.ok()) << list.status().ToString();
    std::set<std::string> numbers;
    if (list.ok()) {
      for (const Reservation& reservation : *list) {
        numbers.insert(reservation.confirmation_number);
      }
    }
    return numbers;
  }

  // The number of rows of `reservation` in Q11's table, over the days around its stay.
  int StayRows(const std::string& confirmation) {
    int rows = 0;
    for (Day day = D("2029-12-30"); day <= D("2030-01-12"); ++day) {
      auto stays = repository_->StaysByHotelDate("AZ123", day);
      EXPECT_TRUE(stays.ok());
      for (const Reservation& stay : *stays) rows += stay.confirmation_number == confirmation;
    }
    return rows;
  }
};

TEST_P(StaffConsoleServiceTest, DeparturesAndInHouseFollowTheLifeOfAStay) {
  Reservation nguyen = Book(101, "2030-01-02", "2030-01-05", "Nguyen");
  Reservation smith = Book(102, "2030-01-04", "2030-01-06", "Smith");
  using Set = std::set<std::string>;
  // One row per day of the stay, arrival and departure days included.
  EXPECT_EQ(StayRows(nguyen.confirmation_number), 4);
  EXPECT_EQ(Numbers(service_->Departures("AZ123", D("2030-01-05"))),
            Set{nguyen.confirmation_number});
  EXPECT_EQ(Numbers(service_->InHouse("AZ123", D("2030-01-04"))),
            (Set{nguyen.confirmation_number, smith.confirmation_number}));
  EXPECT_EQ(Numbers(service_->InHouse("AZ123", D("2030-01-05"))), Set{smith.confirmation_number});
  EXPECT_TRUE(Numbers(service_->InHouse("AZ123", D("2030-01-01"))).empty());

  // A change moves the rows: the days the new stay leaves are deleted, the others rewritten.
  auto changed = service_->Change(nguyen.confirmation_number,
                                  ChangeRequest{D("2030-01-03"), D("2030-01-04"), std::nullopt});
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_EQ(StayRows(nguyen.confirmation_number), 2);
  EXPECT_TRUE(Numbers(service_->Departures("AZ123", D("2030-01-05"))).empty());
  EXPECT_EQ(Numbers(service_->Departures("AZ123", D("2030-01-04"))),
            Set{nguyen.confirmation_number});
  // Another room: every old row goes.
  changed = service_->Change(nguyen.confirmation_number,
                             ChangeRequest{D("2030-01-07"), D("2030-01-08"), int16_t{102}});
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_EQ(StayRows(nguyen.confirmation_number), 2);
  auto in_house = service_->InHouse("AZ123", D("2030-01-07"));
  ASSERT_TRUE(in_house.ok());
  ASSERT_EQ(in_house->size(), 1u);
  EXPECT_EQ((*in_house)[0].room_number, 102);
  EXPECT_EQ((*in_house)[0].status, "changed");

  // Check-in shows in the rows' status; a cancelled stay leaves the lists but keeps its rows.
  auto checked_in = service_->RecordStayEvent(smith.confirmation_number,
                                              ReservationAction::kCheckedIn, "frontdesk");
  ASSERT_TRUE(checked_in.ok());
  in_house = service_->InHouse("AZ123", D("2030-01-05"));
  ASSERT_TRUE(in_house.ok());
  ASSERT_EQ(in_house->size(), 1u);
  EXPECT_EQ((*in_house)[0].status, "checked_in");
  ASSERT_TRUE(service_->Cancel(nguyen.confirmation_number).ok());
  EXPECT_TRUE(Numbers(service_->InHouse("AZ123", D("2030-01-07"))).empty());
  EXPECT_EQ(StayRows(nguyen.confirmation_number), 2);

  EXPECT_EQ(service_->Departures("XX999", D("2030-01-05")).status().code(),
            common::StatusCode::kNotFound);
}

TEST_P(StaffConsoleServiceTest, OccupancyColoursEveryNight) {
  Reservation booked = Book(101, "2030-01-02", "2030-01-04", "Nguyen");
  Reservation in_house = Book(102, "2030-01-09", "2030-01-11", "Smith");
  ASSERT_TRUE(service_
                  ->RecordStayEvent(in_house.confirmation_number, ReservationAction::kCheckedIn,
                                    "frontdesk")
                  .ok());
  // 2029-12-31 .. 2030-01-13, across a month end: the first and the last days are not opened.
  auto grid = service_->GetOccupancy("AZ123", D("2029-12-31"), 14);
  ASSERT_TRUE(grid.ok()) << grid.status().ToString();
  ASSERT_EQ(grid->rooms.size(), 2u);
  const OccupancyRoom& room101 = grid->rooms[0];
  const OccupancyRoom& room102 = grid->rooms[1];
  EXPECT_EQ(room101.room.room_number, 101);
  ASSERT_EQ(room101.nights.size(), 14u);
  EXPECT_EQ(room101.nights[0].state, NightState::kNotOpened);
  EXPECT_EQ(room101.nights[1].state, NightState::kFree);
  EXPECT_EQ(room101.nights[1].rate, 10000);
  EXPECT_EQ(room101.nights[2].state, NightState::kBooked);
  EXPECT_EQ(room101.nights[2].confirmation_number, booked.confirmation_number);
  EXPECT_EQ(room101.nights[2].guest_last_name, "Nguyen");
  EXPECT_EQ(room101.nights[3].state, NightState::kBooked);
  EXPECT_EQ(room101.nights[4].state, NightState::kFree);
  EXPECT_EQ(room102.nights[9].state, NightState::kCheckedIn);
  EXPECT_EQ(room102.nights[10].state, NightState::kCheckedIn);
  EXPECT_EQ(room102.nights[11].state, NightState::kNotOpened);
  EXPECT_EQ(NightStateName(room102.nights[9].state), "checked_in");

  EXPECT_EQ(service_->GetOccupancy("AZ123", D("2030-01-01"), 0).status().code(),
            common::StatusCode::kInvalid);
  EXPECT_EQ(service_->GetOccupancy("AZ123", D("2030-01-01"), 32).status().code(),
            common::StatusCode::kInvalid);
  EXPECT_EQ(service_->GetOccupancy("XX999", D("2030-01-01"), 7).status().code(),
            common::StatusCode::kNotFound);
}

TEST_P(StaffConsoleServiceTest, RateChangesApplyToOpenedNightsAndLaterBookings) {
  Reservation before = Book(101, "2030-01-02", "2030-01-04", "Nguyen");
  // 2029-12-30 .. 2030-01-05: only the four opened nights of room 101 change.
  auto changed =
      service_->ChangeRates("AZ123", D("2029-12-30"), D("2030-01-05"), 12000, int16_t{101});
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_EQ(*changed, 4);
  auto room = service_->GetRoom("AZ123", 101, D("2030-01-03"));
  ASSERT_TRUE(room.ok());
  EXPECT_EQ(room->rate, 12000);
  room = service_->GetRoom("AZ123", 102, D("2030-01-03"));
  ASSERT_TRUE(room.ok());
  EXPECT_EQ(room->rate, 15000);
  // The booked nights stay booked, and their reservation keeps its total.
  auto grid = service_->GetOccupancy("AZ123", D("2030-01-02"), 1);
  ASSERT_TRUE(grid.ok());
  EXPECT_EQ(grid->rooms[0].nights[0].state, NightState::kBooked);
  EXPECT_EQ(service_->GetReservation(before.confirmation_number)->total, 20000);
  Reservation after = Book(101, "2030-01-04", "2030-01-06", "Smith");
  EXPECT_EQ(after.total, 12000 + 10000);

  // Every room.
  changed = service_->ChangeRates("AZ123", D("2030-01-10"), D("2030-01-12"), 9900, std::nullopt);
  ASSERT_TRUE(changed.ok());
  EXPECT_EQ(*changed, 2);
  // Nothing opened: nothing changed.
  changed = service_->ChangeRates("AZ123", D("2030-02-01"), D("2030-02-05"), 9900, std::nullopt);
  ASSERT_TRUE(changed.ok());
  EXPECT_EQ(*changed, 0);
  EXPECT_EQ(service_->ChangeRates("AZ123", D("2030-01-05"), D("2030-01-05"), 9900, std::nullopt)
                .status()
                .code(),
            common::StatusCode::kInvalid);
  EXPECT_EQ(service_->ChangeRates("AZ123", D("2030-01-01"), D("2030-01-05"), 0, std::nullopt)
                .status()
                .code(),
            common::StatusCode::kInvalid);
  EXPECT_EQ(service_->ChangeRates("AZ123", D("2030-01-01"), D("2030-01-05"), 9900, int16_t{999})
                .status()
                .code(),
            common::StatusCode::kNotFound);
}

TEST_P(StaffConsoleServiceTest, HotelPagesAreBounded) {
  EXPECT_EQ(service_->ListHotels(0, std::nullopt).status().code(), common::StatusCode::kInvalid);
  EXPECT_EQ(service_->ListHotels(kMaxHotelPageSize + 1, std::nullopt).status().code(),
            common::StatusCode::kInvalid);
  auto page = service_->ListHotels(kMaxHotelPageSize, std::nullopt);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  ASSERT_EQ(page->hotels.size(), 1u);
  EXPECT_EQ(page->hotels[0].hotel_id, "AZ123");
  EXPECT_EQ(page->hotels[0].pois.size(), 2u);
  EXPECT_FALSE(page->paging_state.has_value());
  auto forged = service_->ListHotels(1, common::Bytes("\x01\x02\x03", 3));
  EXPECT_EQ(forged.status().code(), common::StatusCode::kInvalid) << forged.status().ToString();
}

INSTANTIATE_TEST_SUITE_P(Bucketing, StaffConsoleServiceTest, kBucketings, BucketingTestName);

// The endpoints, through ApiRouter::Handle with a staff bearer token.
class StaffConsoleApiTest : public RouterTest {};

TEST_P(StaffConsoleApiTest, HotelsArePagedWithTheEnginesPagingState) {
  for (int i = 0; i < 4; ++i) {
    std::string body = R"({"hotel_id": "PG00)" + std::to_string(i) + R"(", "name": "Paged )" +
                       std::to_string(i) + R"("})";
    ASSERT_EQ(Call("POST", "/api/v1/hotels", body).status, 201);
  }
  std::set<std::string> seen;
  std::string cursor;
  int pages = 0;
  do {
    std::string target = "/api/v1/hotels?page_size=2";
    if (!cursor.empty()) target += "&cursor=" + cursor;
    Reply page = Call("GET", target);
    ASSERT_EQ(page.status, 200) << json::serialize(page.body);
    ASSERT_LE(page.body.at("hotels").as_array().size(), 2u);
    for (const json::value& hotel : page.body.at("hotels").as_array()) {
      EXPECT_TRUE(seen.insert(std::string(hotel.at("hotel_id").as_string())).second);
    }
    const json::value& next = page.body.at("next_cursor");
    cursor = next.is_null() ? "" : std::string(next.as_string());
    ASSERT_LT(++pages, 10);
  } while (!cursor.empty());
  EXPECT_EQ(seen, (std::set<std::string>{"AZ123", "PG000", "PG001", "PG002", "PG003"}));
  Reply all = Call("GET", "/api/v1/hotels");
  ASSERT_EQ(all.status, 200);
  EXPECT_EQ(all.body.at("hotels").as_array().size(), 5u);
  EXPECT_TRUE(all.body.at("next_cursor").is_null());

  for (const char* bad :
       {"page_size=0", "page_size=501", "page_size=x", "cursor=xyz", "cursor=abc", "cursor=0011"}) {
    Reply refused = Call("GET", std::string("/api/v1/hotels?") + bad);
    EXPECT_EQ(refused.status, 400) << bad << ": " << json::serialize(refused.body);
    EXPECT_EQ(Code(refused), "invalid_field") << bad;
  }
}

TEST_P(StaffConsoleApiTest, OccupancyDeparturesAndInHouse) {
  std::string booking = R"({"hotel_id": "AZ123", "room_number": 101, "check_in": "2030-01-02",
    "check_out": "2030-01-05", "guest": {"first_name": "Mai", "last_name": "Nguyen"}})";
  Reply booked = Call("POST", "/api/v1/reservations", booking);
  ASSERT_EQ(booked.status, 201);
  std::string number(booked.body.at("confirmation_number").as_string());

  Reply grid = Call("GET", "/api/v1/hotels/AZ123/occupancy?start=2030-01-01");
  ASSERT_EQ(grid.status, 200) << json::serialize(grid.body);
  EXPECT_EQ(grid.body.at("days"), 7);
  EXPECT_EQ(grid.body.at("end"), "2030-01-08");
  EXPECT_EQ(grid.body.at("dates").at(6), "2030-01-07");
  const json::value& room101 = grid.body.at("rooms").at(0);
  EXPECT_EQ(room101.at("room_type"), "double");
  EXPECT_EQ(room101.at("nights").at(0).at("state"), "free");
  EXPECT_EQ(room101.at("nights").at(0).at("rate"), "100.00");
  EXPECT_EQ(room101.at("nights").at(1).at("state"), "booked");
  EXPECT_EQ(room101.at("nights").at(1).at("confirmation_number"), json::value(number));
  EXPECT_EQ(room101.at("nights").at(1).at("guest").at("last_name"), "Nguyen");
  grid = Call("GET", "/api/v1/hotels/AZ123/occupancy?start=2030-01-10&days=3");
  ASSERT_EQ(grid.status, 200);
  EXPECT_EQ(grid.body.at("rooms").at(0).at("nights").at(1).at("state"), "not_opened");
  EXPECT_FALSE(grid.body.at("rooms").at(0).at("nights").at(1).as_object().contains("rate"));
  EXPECT_EQ(Call("GET", "/api/v1/hotels/AZ123/occupancy").status, 400);
  EXPECT_EQ(Call("GET", "/api/v1/hotels/AZ123/occupancy?start=2030-13-01").status, 400);
  EXPECT_EQ(Call("GET", "/api/v1/hotels/AZ123/occupancy?start=2030-01-01&days=32").status, 400);
  EXPECT_EQ(Call("GET", "/api/v1/hotels/XX999/occupancy?start=2030-01-01").status, 404);

  // Lower case finds the reservation (the console's search); check-in, then the lists.
  Reply found = Call(
      "GET", "/api/v1/reservations/" + [&] {
        std::string lower = number;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return lower;
      }());
  ASSERT_EQ(found.status, 200);
  EXPECT_EQ(found.body.at("confirmation_number"), json::value(number));
  ASSERT_EQ(Call("POST", "/api/v1/reservations/" + number + "/check-in").status, 200);
  Reply in_house = Call("GET", "/api/v1/hotels/AZ123/in-house?date=2030-01-04");
  ASSERT_EQ(in_house.status, 200);
  ASSERT_EQ(in_house.body.at("reservations").as_array().size(), 1u);
  EXPECT_EQ(in_house.body.at("reservations").at(0).at("status"), "checked_in");
  Reply departures = Call("GET", "/api/v1/hotels/AZ123/departures?date=2030-01-05");
  ASSERT_EQ(departures.status, 200);
  ASSERT_EQ(departures.body.at("reservations").as_array().size(), 1u);
  EXPECT_EQ(departures.body.at("reservations").at(0).at("confirmation_number"),
            json::value(number));
  EXPECT_EQ(Call("GET", "/api/v1/hotels/AZ123/departures?date=2030-01-04")
                .body.at("reservations")
                .as_array()
                .size(),
            0u);
  EXPECT_EQ(Call("GET", "/api/v1/hotels/AZ123/departures").status, 400);
  EXPECT_EQ(Call("GET", "/api/v1/hotels/AZ123/in-house?date=tomorrow").status, 400);
  EXPECT_EQ(Call("GET", "/api/v1/hotels/XX999/in-house?date=2030-01-04").status, 404);
}

TEST_P(StaffConsoleApiTest, RatesAreValidated) {
  Reply changed = Call("PUT", "/api/v1/hotels/AZ123/rates",
                       R"({"start": "2030-01-01", "end": "2030-01-03", "rate": "120.50"})");
  ASSERT_EQ(changed.status, 200) << json::serialize(changed.body);
  EXPECT_EQ(changed.body.at("nights_changed"), 4);
  EXPECT_EQ(changed.body.at("rate"), "120.50");
  changed =
      Call("PUT", "/api/v1/hotels/AZ123/rates",
           R"({"start": "2030-01-01", "end": "2030-01-02", "rate": "99", "room_number": 102})");
  ASSERT_EQ(changed.status, 200);
  EXPECT_EQ(changed.body.at("nights_changed"), 1);
  Reply room = Call("GET", "/api/v1/hotels/AZ123/rooms/101?date=2030-01-02");
  EXPECT_EQ(room.body.at("rate"), "120.50");
  room = Call("GET", "/api/v1/hotels/AZ123/rooms/102?date=2030-01-01");
  EXPECT_EQ(room.body.at("rate"), "99.00");

  struct Case {
    const char* body;
    int status;
    const char* code;
  };
  for (const Case& bad : std::initializer_list<Case>{
           {R"({"start": "2030-01-03", "end": "2030-01-03", "rate": "1"})", 400, "invalid_field"},
           {R"({"start": "2030-01-01", "end": "2032-01-03", "rate": "1"})", 400, "invalid_field"},
           {R"({"start": "2030-01-01", "end": "2030-01-03"})", 400, "invalid_field"},
           {R"({"start": "2030-01-01", "end": "2030-01-03", "rate": "0"})", 400, "invalid_field"},
           {R"({"start": "2030-01-01", "end": "2030-01-03", "rate": "-5"})", 400, "invalid_field"},
           {R"({"start": "2030-01-01", "end": "2030-01-03", "rate": "1", "room": 1})", 400,
            "unknown_field"},
           {R"({"start": "2030-01-01", "end": "2030-01-03", "rate": "1", "room_number": 0})", 400,
            "invalid_field"},
           {R"({"start": "2020-01-01", "end": "2020-01-03", "rate": "1"})", 422, "date_in_past"},
           {R"({"start": "2031-01-01", "end": "2031-01-03", "rate": "1"})", 422, "not_opened"},
           {R"({"start": "2030-01-01", "end": "2030-01-03", "rate": "1", "room_number": 9})", 404,
            "not_found"},
       }) {
    Reply reply = Call("PUT", "/api/v1/hotels/AZ123/rates", bad.body);
    EXPECT_EQ(reply.status, bad.status) << bad.body << ": " << json::serialize(reply.body);
    EXPECT_EQ(Code(reply), bad.code) << bad.body;
  }
  EXPECT_EQ(Call("PUT", "/api/v1/hotels/XX999/rates",
                 R"({"start": "2030-01-01", "end": "2030-01-03", "rate": "1"})")
                .status,
            404);
}

// GET /reservations?email= (Q12): any case, blanks around; the name and the email exclude each
// other; a blank address is a 400 naming the field; staff only.
TEST_P(StaffConsoleApiTest, ReservationsByGuestEmail) {
  std::string booking = R"({"hotel_id": "AZ123", "room_number": 101, "check_in": "2030-01-02",
    "check_out": "2030-01-05", "guest": {"first_name": "Mai", "last_name": "Nguyen",
    "emails": ["Mai.Nguyen@Example.com"]}})";
  Reply booked = Call("POST", "/api/v1/reservations", booking);
  ASSERT_EQ(booked.status, 201);
  std::string number(booked.body.at("confirmation_number").as_string());
  Reply found = Call("GET", "/api/v1/reservations?email=%20mai.nguyen%40EXAMPLE.com%20");
  ASSERT_EQ(found.status, 200);
  const json::array& list = found.body.at("reservations").as_array();
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].at("confirmation_number"), json::value(number));
  EXPECT_EQ(list[0].at("status"), json::value("confirmed"));
  EXPECT_EQ(list[0].at("guest").at("last_name"), json::value("Nguyen"));
  ASSERT_EQ(Call("DELETE", "/api/v1/reservations/" + number).status, 200);
  found = Call("GET", "/api/v1/reservations?email=mai.nguyen@example.com");
  ASSERT_EQ(found.status, 200);
  EXPECT_EQ(found.body.at("reservations").at(0).at("status"), json::value("cancelled"));
  EXPECT_TRUE(Call("GET", "/api/v1/reservations?email=nobody@example.com")
                  .body.at("reservations")
                  .as_array()
                  .empty());

  Reply blank = Call("GET", "/api/v1/reservations?email=%20");
  EXPECT_EQ(blank.status, 400);
  EXPECT_EQ(Code(blank), "invalid_field");
  EXPECT_EQ(blank.body.at("error").at("field"), json::value("email"));
  EXPECT_EQ(Call("GET", "/api/v1/reservations?email=a@b.c&last_name=Nguyen").status, 400);
  Reply neither = Call("GET", "/api/v1/reservations");
  EXPECT_EQ(neither.status, 400);
  EXPECT_EQ(neither.body.at("error").at("field"), json::value("last_name"));
  token_.clear();
  EXPECT_EQ(Call("GET", "/api/v1/reservations?email=mai.nguyen@example.com").status, 401);
}

INSTANTIATE_TEST_SUITE_P(Sessions, StaffConsoleApiTest,
                         ::testing::Values(SessionKind::kEmbedded, SessionKind::kRemote),
                         [](const auto& info) {
                           return info.param == SessionKind::kEmbedded ? "Embedded" : "Remote";
                         });

}  // namespace
}  // namespace hotel
