#include "hotel/hotel_service.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <set>
#include <thread>

#include "hotel/data_generator.h"
#include "hotel/hotel_testing.h"

namespace hotel {
namespace {

TEST(HotelDomainTest, DaysMoneyNamesAndNumbers) {
  ASSERT_TRUE(ParseDay("2026-12-03").ok());
  EXPECT_EQ(FormatDay(*ParseDay("2026-12-03")), "2026-12-03");
  EXPECT_EQ(*ParseDay("1970-01-02"), 1);
  EXPECT_FALSE(ParseDay("2026-02-29").ok());
  EXPECT_TRUE(ParseDay("2028-02-29").ok());
  EXPECT_FALSE(ParseDay("2026-1-03").ok());
  EXPECT_FALSE(ParseDay("").ok());
  EXPECT_EQ(*ParseMoney("129"), 12900);
  EXPECT_EQ(*ParseMoney("129.5"), 12950);
  EXPECT_EQ(*ParseMoney("0.07"), 7);
  EXPECT_FALSE(ParseMoney("1.234").ok());
  EXPECT_FALSE(ParseMoney("-1").ok());
  EXPECT_FALSE(ParseMoney("1.").ok());
  EXPECT_EQ(FormatMoney(38700), "387.00");
  EXPECT_EQ(FormatMoney(5), "0.05");
  EXPECT_EQ(FoldName("  NgUyen "), "nguyen");
  std::mt19937_64 random(1);
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(IsConfirmationNumber(NewConfirmationNumber(random)));
  EXPECT_FALSE(IsConfirmationNumber("K7W3R0"));  // 0 is not in the alphabet
  EXPECT_FALSE(IsConfirmationNumber("K7W3"));
}

TEST(HotelSchemaTest, StatementsAndPrefixes) {
  EXPECT_EQ(ServiceSchemaTemplate().substr(0, 33), "-- The hotel service's schema: th");
  EXPECT_FALSE(KeyspacesForPrefix("Bad-").ok());
  EXPECT_EQ(KeyspacesForPrefix("x_")->reservation, "x_reservation");
  auto statements = ServiceSchemaStatements("x_", kDefaultReplication);
  ASSERT_TRUE(statements.ok());
  EXPECT_EQ(statements->front().substr(0, 39), "CREATE KEYSPACE IF NOT EXISTS x_hotel\n ");
}

TEST_F(HotelTest, ShoppingQueriesQ1ToQ5) {
  LoadInventory();
  auto pois = service_->ListPois();
  ASSERT_TRUE(pois.ok());
  ASSERT_EQ(pois->size(), 2u);
  EXPECT_EQ((*pois)[0].name, "Eiffel Tower");

  auto q1 = service_->HotelsNearPoi("Eiffel Tower");
  ASSERT_TRUE(q1.ok()) << q1.status().ToString();
  EXPECT_EQ(q1->poi.description, "Iron lattice tower");
  ASSERT_EQ(q1->hotels.size(), 1u);
  EXPECT_EQ(q1->hotels[0].name, "Super Hotel Paris");
  EXPECT_EQ(q1->hotels[0].address.city, "Paris");
  EXPECT_EQ(service_->HotelsNearPoi("Nowhere").status().code(), common::StatusCode::kNotFound);

  auto q2 = service_->GetHotel("AZ123");
  ASSERT_TRUE(q2.ok());
  EXPECT_EQ(q2->pois, (std::vector<std::string>{"Eiffel Tower", "Louvre"}));
  EXPECT_EQ(q2->address.postal_code, "75001");
  EXPECT_EQ(service_->GetHotel("NOPE").status().code(), common::StatusCode::kNotFound);

  auto q3 = service_->HotelPois("AZ123");
  ASSERT_TRUE(q3.ok());
  ASSERT_EQ(q3->size(), 2u);
  EXPECT_EQ((*q3)[1].description, "Museum");

  auto q4 = service_->FindAvailability("AZ123", D("2030-01-02"), D("2030-01-05"));
  ASSERT_TRUE(q4.ok()) << q4.status().ToString();
  ASSERT_EQ(q4->rooms.size(), 2u);
  EXPECT_EQ(q4->rooms[0].room_number, 101);
  EXPECT_EQ(q4->rooms[0].room_type, "double");
  EXPECT_EQ(q4->rooms[0].nightly_rates.size(), 3u);
  EXPECT_EQ(q4->rooms[0].total, 30000);
  EXPECT_EQ(q4->rooms[1].total, 45000);
  // Nights past the open window: no room is free on every night.
  auto partial = service_->FindAvailability("AZ123", D("2030-01-09"), D("2030-01-12"));
  ASSERT_TRUE(partial.ok());
  EXPECT_TRUE(partial->rooms.empty());
  EXPECT_EQ(service_->FindAvailability("AZ123", D("2030-01-05"), D("2030-01-05")).status().code(),
            common::StatusCode::kInvalid);
  EXPECT_EQ(service_->FindAvailability("AZ123", D("2030-01-01"), D("2030-03-01")).status().code(),
            common::StatusCode::kInvalid);

  auto q5 = service_->GetRoom("AZ123", 101, D("2030-01-03"));
  ASSERT_TRUE(q5.ok()) << q5.status().ToString();
  EXPECT_EQ(q5->room.room_type, "double");
  EXPECT_EQ(q5->rate, 10000);
  ASSERT_EQ(q5->room.amenities.size(), 2u);
  EXPECT_EQ(q5->room.amenities[0].name, "minibar");
  EXPECT_EQ(service_->GetRoom("AZ123", 999, std::nullopt).status().code(),
            common::StatusCode::kNotFound);
}

TEST_F(HotelTest, OneRoomsNightsAreItsOwnInDateOrder) {
  LoadInventory();
  ASSERT_TRUE(service_
                  ->Book(BookingRequest{"AZ123", 102, D("2030-01-09"), D("2030-01-10"),
                                        std::nullopt, MakeGuest("Ann", "Lee")})
                  .ok());
  // Jan 11 is not opened: the room's rows of [Jan 8, Jan 12) are Jan 8, 9 and 10, its own only.
  auto nights = repository_->RoomNightsOfRoom("AZ123", 102, D("2030-01-08"), D("2030-01-12"));
  ASSERT_TRUE(nights.ok()) << nights.status().ToString();
  ASSERT_EQ(nights->size(), 3u);
  for (size_t i = 0; i < nights->size(); ++i) {
    EXPECT_EQ((*nights)[i].room_number, 102);
    EXPECT_EQ((*nights)[i].date, D("2030-01-08") + static_cast<Day>(i));
    EXPECT_EQ((*nights)[i].rate, 15000);
  }
  EXPECT_TRUE((*nights)[0].is_available);
  EXPECT_FALSE((*nights)[1].is_available);
  EXPECT_FALSE((*nights)[1].held_by.empty());
  auto none = repository_->RoomNightsOfRoom("AZ123", 103, D("2030-01-08"), D("2030-01-12"));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST_F(HotelTest, BookingAndReservationQueriesQ6ToQ9) {
  LoadInventory();
  BookingRequest request{"AZ123",         101,          D("2030-01-02"),
                         D("2030-01-05"), std::nullopt, MakeGuest("Mai", "Nguyen")};
  auto booked = service_->Book(request);
  ASSERT_TRUE(booked.ok()) << booked.status().ToString();
  EXPECT_TRUE(IsConfirmationNumber(booked->confirmation_number));
  EXPECT_EQ(booked->total, 30000);
  EXPECT_EQ(booked->hotel_name, "Super Hotel Paris");

  auto q6 = service_->GetReservation(booked->confirmation_number);
  ASSERT_TRUE(q6.ok());
  EXPECT_EQ(q6->check_in, D("2030-01-02"));
  EXPECT_EQ(q6->nights(), 3);
  EXPECT_EQ(q6->status, "confirmed");

  auto q7 = service_->ReservationsByHotelDate("AZ123", D("2030-01-02"), std::nullopt);
  ASSERT_TRUE(q7.ok());
  ASSERT_EQ(q7->size(), 1u);
  EXPECT_EQ((*q7)[0].confirmation_number, booked->confirmation_number);
  EXPECT_EQ(service_->ReservationsByHotelDate("AZ123", D("2030-01-02"), "NGUYEN")->size(), 1u);
  EXPECT_EQ(service_->ReservationsByHotelDate("AZ123", D("2030-01-02"), "Smith")->size(), 0u);

  // A second stay of the same guest at the same hotel does not overwrite the first (the
  // seeds' reservations_by_guest defect).
  BookingRequest again{"AZ123",          102,         D("2030-01-06"), D("2030-01-08"),
                       booked->guest_id, std::nullopt};
  auto second = service_->Book(again);
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  auto q8 = service_->ReservationsByGuest("nguyen", std::nullopt);
  ASSERT_TRUE(q8.ok());
  EXPECT_EQ(q8->size(), 2u);
  EXPECT_EQ(service_->ReservationsByGuest("Nguyen", "mai")->size(), 2u);
  EXPECT_EQ(service_->ReservationsByGuest("Nguyen", "Lucas")->size(), 0u);

  auto q9 = service_->GetGuest(booked->guest_id);
  ASSERT_TRUE(q9.ok());
  EXPECT_EQ(q9->last_name, "Nguyen");
  EXPECT_EQ(q9->addresses.at("home").city, "Springfield");
  EXPECT_EQ(q9->emails, std::vector<std::string>{"Mai@example.com"});

  // The nights are gone from availability.
  auto q4 = service_->FindAvailability("AZ123", D("2030-01-01"), D("2030-01-03"));
  ASSERT_TRUE(q4.ok());
  ASSERT_EQ(q4->rooms.size(), 1u);
  EXPECT_EQ(q4->rooms[0].room_number, 102);
}

TEST_F(HotelTest, TakenNightIsAConflictAndChangesNothing) {
  LoadInventory();
  auto first = service_->Book(
      {"AZ123", 101, D("2030-01-03"), D("2030-01-04"), std::nullopt, MakeGuest("Emma", "Smith")});
  ASSERT_TRUE(first.ok());
  auto second = service_->Book(
      {"AZ123", 101, D("2030-01-02"), D("2030-01-05"), std::nullopt, MakeGuest("Noah", "Garcia")});
  ASSERT_EQ(second.status().code(), common::StatusCode::kWriteFailure);
  EXPECT_EQ(second.status().message(), "Room 101 is not free on 2030-01-03");
  // Nights 2 and 4 stay free; Garcia has no reservation.
  auto q4 = service_->FindAvailability("AZ123", D("2030-01-02"), D("2030-01-03"));
  ASSERT_EQ(q4->rooms.size(), 2u);
  EXPECT_TRUE(service_->ReservationsByGuest("Garcia", std::nullopt)->empty());
  // Unopened nights and unknown rooms.
  EXPECT_EQ(service_
                ->Book({"AZ123", 101, D("2030-01-10"), D("2030-01-12"), std::nullopt,
                        MakeGuest("A", "B")})
                .status()
                .message(),
            "Room 101 is not free on 2030-01-11");
  EXPECT_EQ(service_
                ->Book({"AZ123", 999, D("2030-01-02"), D("2030-01-03"), std::nullopt,
                        MakeGuest("A", "B")})
                .status()
                .code(),
            common::StatusCode::kNotFound);
}

TEST_F(HotelTest, CancelFreesTheNightsAndKeepsTheReservation) {
  LoadInventory();
  auto booked = service_->Book(
      {"AZ123", 101, D("2030-01-02"), D("2030-01-04"), std::nullopt, MakeGuest("Mai", "Nguyen")});
  ASSERT_TRUE(booked.ok());
  auto cancelled = service_->Cancel(booked->confirmation_number);
  ASSERT_TRUE(cancelled.ok()) << cancelled.status().ToString();
  EXPECT_EQ(cancelled->status, "cancelled");
  EXPECT_EQ(service_->GetReservation(booked->confirmation_number)->status, "cancelled");
  EXPECT_EQ(service_->ReservationsByGuest("Nguyen", std::nullopt)->at(0).status, "cancelled");
  EXPECT_EQ(service_->ReservationsByHotelDate("AZ123", D("2030-01-02"), std::nullopt)->at(0).status,
            "cancelled");
  EXPECT_EQ(service_->FindAvailability("AZ123", D("2030-01-02"), D("2030-01-04"))->rooms.size(),
            2u);
  EXPECT_EQ(service_->Cancel(booked->confirmation_number).status().code(),
            common::StatusCode::kFunctionFailure);
  EXPECT_EQ(service_->Cancel("ZZZZZZ").status().code(), common::StatusCode::kNotFound);
}

TEST_F(HotelTest, ChangeClaimsTheNewStayBeforeFreeingTheOld) {
  LoadInventory();
  auto booked = service_->Book(
      {"AZ123", 101, D("2030-01-02"), D("2030-01-04"), std::nullopt, MakeGuest("Mai", "Nguyen")});
  ASSERT_TRUE(booked.ok());
  // Extend by a night (overlapping the stay's own nights).
  auto extended = service_->Change(booked->confirmation_number,
                                   {D("2030-01-03"), D("2030-01-06"), std::nullopt});
  ASSERT_TRUE(extended.ok()) << extended.status().ToString();
  EXPECT_EQ(extended->total, 30000);
  auto q4 = service_->FindAvailability("AZ123", D("2030-01-02"), D("2030-01-03"));
  EXPECT_EQ(q4->rooms.size(), 2u);  // night 2 freed
  EXPECT_EQ(service_->FindAvailability("AZ123", D("2030-01-05"), D("2030-01-06"))->rooms.size(),
            1u);
  EXPECT_TRUE(service_->ReservationsByHotelDate("AZ123", D("2030-01-02"), std::nullopt)->empty());
  EXPECT_EQ(service_->ReservationsByHotelDate("AZ123", D("2030-01-03"), std::nullopt)->size(), 1u);
  EXPECT_EQ(service_->GetReservation(booked->confirmation_number)->check_out, D("2030-01-06"));

  // Another guest takes 102 on night 7; moving there fails and keeps the stay.
  ASSERT_TRUE(service_
                  ->Book({"AZ123", 102, D("2030-01-07"), D("2030-01-08"), std::nullopt,
                          MakeGuest("Emma", "Smith")})
                  .ok());
  auto moved =
      service_->Change(booked->confirmation_number, {D("2030-01-06"), D("2030-01-08"), 102});
  EXPECT_EQ(moved.status().code(), common::StatusCode::kWriteFailure);
  EXPECT_EQ(service_->GetReservation(booked->confirmation_number)->room_number, 101);
  EXPECT_EQ(service_->FindAvailability("AZ123", D("2030-01-06"), D("2030-01-07"))->rooms.size(),
            2u);  // the failed change left nothing held

  auto to_suite =
      service_->Change(booked->confirmation_number, {D("2030-01-05"), D("2030-01-07"), 102});
  ASSERT_TRUE(to_suite.ok()) << to_suite.status().ToString();
  EXPECT_EQ(to_suite->total, 30000);
  auto free = service_->FindAvailability("AZ123", D("2030-01-03"), D("2030-01-05"));
  ASSERT_EQ(free->rooms.size(), 2u);  // room 101 entirely freed
}

TEST_F(HotelTest, RepairPassFreesOrphanHolds) {
  LoadInventory();
  // A booking that died after claiming its nights: the holds point to a pending number.
  Reservation pending;
  pending.confirmation_number = "ZZZZZZ";
  pending.hotel_id = "AZ123";
  pending.room_number = 101;
  pending.check_in = D("2030-01-02");
  pending.check_out = D("2030-01-04");
  ASSERT_TRUE(*repository_->ReserveConfirmation(pending, 1000));
  ASSERT_TRUE(
      *repository_->ClaimNights("AZ123", 101, {D("2030-01-02"), D("2030-01-03")}, "ZZZZZZ", 1000));
  auto healthy = service_->Book(
      {"AZ123", 102, D("2030-01-02"), D("2030-01-04"), std::nullopt, MakeGuest("Mai", "Nguyen")});
  ASSERT_TRUE(healthy.ok());
  EXPECT_EQ(service_->FindAvailability("AZ123", D("2030-01-02"), D("2030-01-04"))->rooms.size(),
            0u);
  // Too young to repair.
  EXPECT_EQ(*service_->RepairHolds("AZ123", 2000), 0);
  int64_t later = 1000 + service_->options().hold_timeout_millis + 1;
  auto freed = service_->RepairHolds("AZ123", later);
  ASSERT_TRUE(freed.ok()) << freed.status().ToString();
  EXPECT_EQ(*freed, 2);
  EXPECT_EQ(service_->FindAvailability("AZ123", D("2030-01-02"), D("2030-01-04"))->rooms.size(),
            1u);
  EXPECT_FALSE(repository_->FindReservation("ZZZZZZ")->has_value());
  // The live reservation kept its nights.
  ASSERT_TRUE(service_->GetReservation(healthy->confirmation_number).ok());
}

// A shutdown does not wait for a whole repair pass (minutes over a big cluster): once
// StopRepair is called, a pass stops before its next hotel.
TEST_F(HotelTest, AStoppedRepairPassStopsBeforeTheNextHotel) {
  LoadInventory();
  auto full = service_->RepairAll(0);
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  EXPECT_EQ(full->hotels, 1);
  service_->StopRepair();
  auto stopped = service_->RepairAll(0);
  ASSERT_TRUE(stopped.ok());
  EXPECT_EQ(stopped->hotels, 0);
}

// 16 threads book overlapping stays in one hotel: no room-night is sold twice, and every
// accepted booking is visible in every reservation table.
TEST_F(HotelTest, ConcurrentBookingsNeverSellARoomNightTwice) {
  LoadInventory();
  constexpr int kThreads = 16;
  constexpr int kAttempts = 12;
  std::mutex mutex;
  std::vector<Reservation> accepted;
  std::atomic<int> conflicts{0};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 random(static_cast<unsigned>(t + 1));
      for (int i = 0; i < kAttempts; ++i) {
        int16_t room = random() % 2 == 0 ? 101 : 102;
        Day check_in = D("2030-01-01") + static_cast<Day>(random() % 8);
        Day check_out = check_in + 1 + static_cast<Day>(random() % 3);
        auto booked =
            service_->Book({"AZ123", room, check_in, check_out, std::nullopt,
                            MakeGuest("G" + std::to_string(t), "Guest" + std::to_string(t))});
        if (booked.ok()) {
          std::lock_guard<std::mutex> lock(mutex);
          accepted.push_back(*booked);
        } else if (booked.status().code() == common::StatusCode::kWriteFailure) {
          ++conflicts;
        } else {
          ++errors;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_GT(conflicts.load(), 0);
  ASSERT_FALSE(accepted.empty());
  std::set<std::pair<int16_t, Day>> sold;
  for (const Reservation& reservation : accepted) {
    for (Day day = reservation.check_in; day < reservation.check_out; ++day) {
      EXPECT_TRUE(sold.insert({reservation.room_number, day}).second)
          << "room " << reservation.room_number << " sold twice on " << FormatDay(day);
    }
    auto q6 = service_->GetReservation(reservation.confirmation_number);
    ASSERT_TRUE(q6.ok());
    EXPECT_EQ(q6->room_number, reservation.room_number);
    auto q7 = service_->ReservationsByHotelDate("AZ123", reservation.check_in,
                                                reservation.guest_last_name);
    ASSERT_TRUE(q7.ok());
    bool in_q7 = false;
    for (const Reservation& row : *q7)
      in_q7 |= row.confirmation_number == reservation.confirmation_number;
    EXPECT_TRUE(in_q7);
    auto q8 = service_->ReservationsByGuest(reservation.guest_last_name, std::nullopt);
    bool in_q8 = false;
    for (const Reservation& row : *q8)
      in_q8 |= row.confirmation_number == reservation.confirmation_number;
    EXPECT_TRUE(in_q8);
  }
  // Every sold night is held by its reservation in the availability table.
  auto nights = repository_->RoomNights("AZ123", D("2030-01-01"), D("2030-01-11"));
  ASSERT_TRUE(nights.ok());
  size_t held = 0;
  for (const RoomNight& night : *nights) held += night.is_available ? 0 : 1;
  EXPECT_EQ(held, sold.size());
}

TEST_F(HotelTest, GeneratorIsDeterministicAndBooksThroughTheService) {
  GeneratorOptions options;
  options.hotels = 3;
  options.rooms_per_hotel = 5;
  options.pois = 12;
  options.days = 10;
  options.guests = 10;
  options.reservations = 8;
  options.first_day = D("2030-01-01");
  auto report = Generate(*repository_, *service_, options);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_GT(report->reservations, 0);
  auto hotel = service_->GetHotel("PA100");
  ASSERT_TRUE(hotel.ok());
  EXPECT_EQ(hotel->address.city, "Paris");
  EXPECT_EQ(service_->ListPois()->size(), 12u);
  auto free = service_->FindAvailability("PA100", D("2030-01-01"), D("2030-01-02"));
  ASSERT_TRUE(free.ok());
  EXPECT_LE(free->rooms.size(), 5u);
  // Same seed, same hotel name.
  std::string first_name = hotel->name;
  EXPECT_EQ(service_->GetHotel("LO101")->address.country, "United Kingdom");
  EXPECT_FALSE(first_name.empty());
}

}  // namespace
}  // namespace hotel
