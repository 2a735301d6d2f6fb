// The reservation lifecycle (domain.h, hotel_service.h): every transition, valid and invalid,
// the history row each writes in the batch of the reservation rows, cancelled reservations that
// stay readable and listed, the repair pass on cancelled holds, and the migration of a database
// written before statuses were on the Q7 and Q8 rows.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hotel/hotel_invariants_testing.h"
#include "hotel/hotel_testing.h"

namespace hotel {
namespace {

using common::StatusCode;
using A = ReservationAction;

// --- The transition table, without a database --------------------------------------------

struct Transition {
  std::string_view from;
  ReservationAction action;
  std::string_view to;  // "" when refused
};

TEST(ReservationLifecycle, StatusAfterAllowsOnlyTheDiagramsTransitions) {
  const std::vector<std::string_view> statuses = {kStatusConfirmed,  kStatusChanged,
                                                  kStatusCancelled,  kStatusCheckedIn,
                                                  kStatusCheckedOut, kStatusNoShow};
  const std::vector<Transition> allowed = {
      {kStatusConfirmed, A::kChanged, kStatusChanged},
      {kStatusChanged, A::kChanged, kStatusChanged},
      {kStatusConfirmed, A::kCancelled, kStatusCancelled},
      {kStatusChanged, A::kCancelled, kStatusCancelled},
      {kStatusConfirmed, A::kCheckedIn, kStatusCheckedIn},
      {kStatusChanged, A::kCheckedIn, kStatusCheckedIn},
      {kStatusCheckedIn, A::kCheckedOut, kStatusCheckedOut},
      {kStatusConfirmed, A::kNoShow, kStatusNoShow},
      {kStatusChanged, A::kNoShow, kStatusNoShow},
  };
  for (std::string_view from : statuses) {
    for (A action : {A::kChanged, A::kCancelled, A::kCheckedIn, A::kCheckedOut, A::kNoShow}) {
      std::string_view expected;
      for (const Transition& t : allowed) {
        if (t.from == from && t.action == action) expected = t.to;
      }
      auto next = StatusAfter("ABC234", from, action);
      SCOPED_TRACE(std::string(from) + " + " + std::string(ActionName(action)));
      if (expected.empty()) {
        ASSERT_FALSE(next.ok());
        EXPECT_EQ(next.status().code(), StatusCode::kFunctionFailure);
      } else {
        ASSERT_TRUE(next.ok()) << next.status().ToString();
        EXPECT_EQ(*next, expected);
      }
    }
  }
  EXPECT_EQ(StatusAfter("ABC234", kStatusCancelled, A::kCheckedIn).status().message(),
            "Cannot check in reservation 'ABC234': it is cancelled");
  EXPECT_EQ(StatusAfter("ABC234", kStatusNoShow, A::kCancelled).status().message(),
            "Cannot cancel reservation 'ABC234': it is a no-show");
  EXPECT_EQ(StatusAfter("ABC234", kStatusConfirmed, A::kCheckedOut).status().message(),
            "Cannot check out reservation 'ABC234': it is confirmed");
}

TEST(ReservationLifecycle, OnlyLiveStatusesHoldNights) {
  EXPECT_TRUE(HoldsNights(kStatusConfirmed));
  EXPECT_TRUE(HoldsNights(kStatusChanged));
  EXPECT_TRUE(HoldsNights(kStatusCheckedIn));
  EXPECT_TRUE(HoldsNights(kStatusCheckedOut));
  EXPECT_FALSE(HoldsNights(kStatusCancelled));
  EXPECT_FALSE(HoldsNights(kStatusNoShow));
  EXPECT_FALSE(HoldsNights(kStatusPending));
  EXPECT_FALSE(HoldsNights(""));
  for (A action :
       {A::kBooked, A::kChanged, A::kCancelled, A::kCheckedIn, A::kCheckedOut, A::kNoShow}) {
    EXPECT_EQ(ParseAction(ActionName(action)), action);
  }
  EXPECT_EQ(ParseAction("deleted"), std::nullopt);
}

// --- On a database ------------------------------------------------------------------------

class LifecycleTest : public HotelTest {
 protected:
  void SetUp() override {
    HotelTest::SetUp();
    LoadInventory();
  }

  Reservation BookMai(int16_t room = 101) {
    auto booked = service_->Book({"AZ123", room, D("2030-01-02"), D("2030-01-04"), std::nullopt,
                                  MakeGuest("Mai", "Nguyen")});
    EXPECT_TRUE(booked.ok()) << booked.status().ToString();
    return booked.ok() ? *booked : Reservation();
  }

  std::vector<ReservationEvent> HistoryOf(const std::string& number) {
    auto history = service_->History(number);
    EXPECT_TRUE(history.ok()) << history.status().ToString();
    return history.ok() ? history->events : std::vector<ReservationEvent>();
  }

  std::vector<std::string> Problems() {
    return testing::CheckBookingInvariants(*session_, *repository_, "AZ123", D("2030-01-01"),
                                           D("2030-01-11"));
  }

  size_t FreeRooms() {
    auto availability = service_->FindAvailability("AZ123", D("2030-01-02"), D("2030-01-04"));
    EXPECT_TRUE(availability.ok());
    return availability.ok() ? availability->rooms.size() : 0;
  }
};

TEST_F(LifecycleTest, BookingWritesTheFirstHistoryRow) {
  Reservation booked = BookMai();
  EXPECT_EQ(booked.status, "confirmed");
  auto history = HistoryOf(booked.confirmation_number);
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(history[0].action, A::kBooked);
  EXPECT_EQ(history[0].status, "confirmed");
  EXPECT_EQ(history[0].actor, "guest");
  EXPECT_EQ(history[0].details, "room 101, 2030-01-02 to 2030-01-04");
  EXPECT_EQ(history[0].event_id.version(), 1);
  EXPECT_TRUE(Problems().empty());
}

TEST_F(LifecycleTest, CancelKeepsTheReservationReadableAndListed) {
  Reservation booked = BookMai();
  const std::string& number = booked.confirmation_number;
  auto cancelled = service_->Cancel(number, "NGUYEN", "guest");
  ASSERT_TRUE(cancelled.ok()) << cancelled.status().ToString();
  EXPECT_EQ(cancelled->status, "cancelled");
  EXPECT_EQ(FreeRooms(), 2u);  // the nights are free again

  auto read = service_->GetReservation(number, "Nguyen");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->status, "cancelled");
  EXPECT_EQ(read->check_in, booked.check_in);
  auto mine = service_->ReservationsByGuest("Nguyen", std::nullopt);
  ASSERT_TRUE(mine.ok());
  ASSERT_EQ(mine->size(), 1u);
  EXPECT_EQ((*mine)[0].status, "cancelled");
  auto arrivals = service_->ReservationsByHotelDate("AZ123", D("2030-01-02"), std::nullopt);
  ASSERT_TRUE(arrivals.ok());
  ASSERT_EQ(arrivals->size(), 1u);
  EXPECT_EQ((*arrivals)[0].status, "cancelled");

  auto history = HistoryOf(number);
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[1].action, A::kCancelled);
  EXPECT_EQ(history[1].status, "cancelled");
  EXPECT_LT(history[0].event_id.RawTimestamp(), history[1].event_id.RawTimestamp());
  EXPECT_TRUE(Problems().empty());

  // A cancelled reservation can be neither cancelled again nor changed; nothing is written.
  auto again = service_->Cancel(number);
  EXPECT_EQ(again.status().code(), StatusCode::kFunctionFailure);
  EXPECT_EQ(again.status().message(),
            "Cannot cancel reservation '" + number + "': it is cancelled");
  auto changed = service_->Change(number, {D("2030-01-05"), D("2030-01-06"), std::nullopt});
  EXPECT_EQ(changed.status().code(), StatusCode::kFunctionFailure);
  EXPECT_EQ(service_->RecordStayEvent(number, A::kCheckedIn, "frontdesk").status().code(),
            StatusCode::kFunctionFailure);
  EXPECT_EQ(HistoryOf(number).size(), 2u);
  EXPECT_EQ(FreeRooms(), 2u);
}

TEST_F(LifecycleTest, ChangeRecordsWhatChanged) {
  Reservation booked = BookMai();
  auto changed = service_->Change(booked.confirmation_number,
                                  {D("2030-01-03"), D("2030-01-05"), 102}, "Nguyen", "frontdesk");
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_EQ(changed->status, "changed");
  auto history = HistoryOf(booked.confirmation_number);
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[1].action, A::kChanged);
  EXPECT_EQ(history[1].status, "changed");
  EXPECT_EQ(history[1].actor, "frontdesk");
  EXPECT_EQ(history[1].details,
            "room 101, 2030-01-02 to 2030-01-04 -> room 102, 2030-01-03 to 2030-01-05; "
            "total 200.00 -> 300.00");
  EXPECT_TRUE(Problems().empty());
  // A changed reservation changes again, and cancels.
  ASSERT_TRUE(
      service_->Change(booked.confirmation_number, {D("2030-01-03"), D("2030-01-06"), 102}).ok());
  ASSERT_TRUE(service_->Cancel(booked.confirmation_number).ok());
  EXPECT_EQ(HistoryOf(booked.confirmation_number).size(), 4u);
  EXPECT_TRUE(Problems().empty());
}

TEST_F(LifecycleTest, CheckInThenCheckOut) {
  Reservation booked = BookMai();
  const std::string& number = booked.confirmation_number;
  // Out before in: refused.
  auto early = service_->RecordStayEvent(number, A::kCheckedOut, "frontdesk");
  EXPECT_EQ(early.status().code(), StatusCode::kFunctionFailure);

  auto in = service_->RecordStayEvent(number, A::kCheckedIn, "frontdesk");
  ASSERT_TRUE(in.ok()) << in.status().ToString();
  EXPECT_EQ(in->status, "checked_in");
  EXPECT_EQ(FreeRooms(), 1u);  // an in-house stay keeps its nights
  EXPECT_EQ(service_->RecordStayEvent(number, A::kCheckedIn, "frontdesk").status().code(),
            StatusCode::kFunctionFailure);
  EXPECT_EQ(service_->RecordStayEvent(number, A::kNoShow, "frontdesk").status().code(),
            StatusCode::kFunctionFailure);
  EXPECT_EQ(service_->Cancel(number).status().code(), StatusCode::kFunctionFailure);
  EXPECT_EQ(
      service_->Change(number, {D("2030-01-02"), D("2030-01-05"), std::nullopt}).status().code(),
      StatusCode::kFunctionFailure);
  EXPECT_TRUE(Problems().empty());

  auto out = service_->RecordStayEvent(number, A::kCheckedOut, "nightshift");
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(out->status, "checked_out");
  EXPECT_EQ(service_->RecordStayEvent(number, A::kCheckedOut, "frontdesk").status().code(),
            StatusCode::kFunctionFailure);
  EXPECT_EQ(service_->RecordStayEvent(number, A::kCheckedIn, "frontdesk").status().code(),
            StatusCode::kFunctionFailure);

  auto history = HistoryOf(number);
  ASSERT_EQ(history.size(), 3u);
  EXPECT_EQ(history[1].action, A::kCheckedIn);
  EXPECT_EQ(history[1].actor, "frontdesk");
  EXPECT_EQ(history[2].action, A::kCheckedOut);
  EXPECT_EQ(history[2].status, "checked_out");
  EXPECT_EQ(history[2].actor, "nightshift");
  EXPECT_EQ(service_->GetReservation(number)->status, "checked_out");
  EXPECT_TRUE(Problems().empty());
}

TEST_F(LifecycleTest, NoShowFreesTheNights) {
  Reservation booked = BookMai();
  EXPECT_EQ(FreeRooms(), 1u);
  auto absent = service_->RecordStayEvent(booked.confirmation_number, A::kNoShow, "frontdesk");
  ASSERT_TRUE(absent.ok()) << absent.status().ToString();
  EXPECT_EQ(absent->status, "no_show");
  EXPECT_EQ(FreeRooms(), 2u);
  for (A action : {A::kCheckedIn, A::kCheckedOut, A::kNoShow, A::kCancelled}) {
    auto refused = action == A::kCancelled
                       ? service_->Cancel(booked.confirmation_number)
                       : service_->RecordStayEvent(booked.confirmation_number, action, "x");
    EXPECT_EQ(refused.status().code(), StatusCode::kFunctionFailure) << ActionName(action);
  }
  EXPECT_EQ(HistoryOf(booked.confirmation_number).back().action, A::kNoShow);
  EXPECT_TRUE(Problems().empty());
}

TEST_F(LifecycleTest, StayEventsNeedAFrontDeskActionAndAKnownNumber) {
  Reservation booked = BookMai();
  EXPECT_EQ(
      service_->RecordStayEvent(booked.confirmation_number, A::kCancelled, "x").status().code(),
      StatusCode::kInvalid);
  EXPECT_EQ(service_->RecordStayEvent("ZZZZZZ", A::kCheckedIn, "x").status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(service_->History("ZZZZZZ").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(service_->History(booked.confirmation_number, "Smith").status().code(),
            StatusCode::kNotFound);
}

// A crash between a cancel's status write and the release of its nights leaves them held by a
// cancelled reservation: the repair pass frees them (they are orphans, invariant I3).
TEST_F(LifecycleTest, RepairFreesNightsStillHeldByACancelledReservation) {
  Reservation booked = BookMai();
  Reservation cancelled = booked;
  cancelled.status = std::string(kStatusCancelled);
  common::SystemClock clock;
  common::TimeuuidGenerator ids(&clock);
  ReservationEvent event{ids.Next(), A::kCancelled, cancelled.status, "guest", "crash"};
  ASSERT_TRUE(
      repository_->WriteReservation(cancelled, nullptr, nullptr, {"mai@example.com"}, event).ok());
  EXPECT_EQ(FreeRooms(), 1u);
  EXPECT_FALSE(Problems().empty());  // held by a reservation that holds nothing

  // As of the day before the stay, an hour after the hold (older than the 10-minute timeout).
  int64_t later = (D("2030-01-01") * 24 * 60 * 60 * 1000) + 60 * 60 * 1000;
  ASSERT_LT(clock.NowMillis(), later);
  auto freed = service_->RepairHolds("AZ123", later);
  ASSERT_TRUE(freed.ok()) << freed.status().ToString();
  EXPECT_EQ(*freed, 2);
  EXPECT_EQ(FreeRooms(), 2u);
  EXPECT_TRUE(Problems().empty());
  // A live reservation's nights are kept.
  Reservation other = BookMai(102);
  EXPECT_EQ(*service_->RepairHolds("AZ123", later), 0);
  EXPECT_EQ(service_->GetReservation(other.confirmation_number)->status, "confirmed");
}

// A database created before the lifecycle: the Q7 and Q8 tables lack `status`. Loading the
// schema adds it, and the old rows read as confirmed.
TEST_F(LifecycleTest, SchemaLoadAddsStatusToAnOlderDatabase) {
  const char* old_tables[] = {
      "CREATE KEYSPACE old_reservation WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}",
      "CREATE TABLE old_reservation.reservations_by_guest (last_name_key text, first_name_key "
      "text, start_date date, confirm_number text, hotel_id text, hotel_name text, end_date "
      "date, room_number smallint, guest_id uuid, guest_first_name text, guest_last_name text, "
      "total decimal, currency text, PRIMARY KEY ((last_name_key), first_name_key, start_date, "
      "confirm_number))",
      "INSERT INTO old_reservation.reservations_by_guest (last_name_key, first_name_key, "
      "start_date, confirm_number, hotel_id, end_date, room_number, guest_last_name, total) "
      "VALUES ('lee', 'ann', '2030-01-02', 'OLD234', 'AZ123', '2030-01-03', 101, 'Lee', 100)",
  };
  for (const char* statement : old_tables) {
    auto done = session_->Execute(statement);
    ASSERT_TRUE(done.ok()) << statement << ": " << done.status().ToString();
  }
  auto repository = Repository::Create(session_.get(), *KeyspacesForPrefix("old_"));
  EXPECT_FALSE(repository.ok());  // the service's statements need the new table and columns

  ASSERT_TRUE(CreateServiceSchema(*session_, "old_").ok());
  ASSERT_TRUE(CreateServiceSchema(*session_, "old_").ok());  // idempotent
  repository = Repository::Create(session_.get(), *KeyspacesForPrefix("old_"));
  ASSERT_TRUE(repository.ok()) << repository.status().ToString();
  auto rows = (*repository)->ReservationsByGuest("lee", std::nullopt);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0].confirmation_number, "OLD234");
  EXPECT_EQ((*rows)[0].status, "confirmed");
  auto history = (*repository)->ReservationHistory("OLD234");
  ASSERT_TRUE(history.ok());
  EXPECT_TRUE(history->empty());
}

}  // namespace
}  // namespace hotel
