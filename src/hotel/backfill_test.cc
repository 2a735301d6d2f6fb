// `hotel backfill` (backfill.h): reservations written before Q11's and Q12's tables existed (their
// rows removed here) appear in departures, in house and the search by email once it ran; it
// pages with bounded memory and resumes from a cursor, is idempotent, and never lets an old
// state it read overwrite a transition made meanwhile (the rows are written at the
// reservation's own write time).

#include "hotel/backfill.h"

#include <gtest/gtest.h>

#include <set>

#include "hotel/hotel_invariants_testing.h"
#include "hotel/hotel_testing.h"

namespace hotel {
namespace {

class BackfillTest : public BucketedHotelTest {
 protected:
  Reservation Book(int16_t room, const char* check_in, const char* check_out, const char* name) {
    auto booked = service_->Book(
        {"AZ123", room, D(check_in), D(check_out), std::nullopt, MakeGuest(name, "Byron")});
    EXPECT_TRUE(booked.ok()) << booked.status().ToString();
    return booked.ok() ? *booked : Reservation{};
  }

  // As a database from before Q11 and Q12: the reservations without their rows there.
  void ForgetDerivedRows() {
    ASSERT_TRUE(session_->Execute("TRUNCATE t_reservation.stays_by_hotel_date").ok());
    ASSERT_TRUE(session_->Execute("TRUNCATE t_reservation.reservations_by_guest_email").ok());
  }

  std::set<std::string> Numbers(const common::Result<std::vector<Reservation>>& list) {
    EXPECT_TRUE(list.ok()) << list.status().ToString();
    std::set<std::string> numbers;
    for (const Reservation& r : list.ok() ? *list : std::vector<Reservation>()) {
      numbers.insert(r.confirmation_number);
    }
    return numbers;
  }

  std::vector<std::string> Problems() {
    return testing::CheckBookingInvariants(*session_, *repository_, "AZ123", D("2030-01-01"),
                                           D("2030-01-11"));
  }
};

TEST_P(BackfillTest, OlderReservationsAppearInDeparturesInHouseAndTheEmailSearch) {
  Reservation ada = Book(101, "2030-01-02", "2030-01-04", "Ada");
  Reservation bea = Book(102, "2030-01-03", "2030-01-04", "Bea");
  Reservation cid = Book(101, "2030-01-05", "2030-01-07", "Cid");
  ASSERT_TRUE(service_->Cancel(cid.confirmation_number).ok());
  ForgetDerivedRows();
  using Set = std::set<std::string>;
  EXPECT_TRUE(Numbers(service_->Departures("AZ123", D("2030-01-04"))).empty());
  EXPECT_TRUE(Numbers(service_->InHouse("AZ123", D("2030-01-03"))).empty());
  EXPECT_FALSE(Problems().empty());

  // One reservation a page; stopped after the first page, resumed from its cursor.
  std::vector<BackfillProgress> pages;
  BackfillOptions options;
  options.page_size = 1;
  options.progress = [&](const BackfillProgress& progress) { pages.push_back(progress); };
  auto first = Backfill(*repository_, options);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->reservations, 3);
  EXPECT_EQ(first->next_cursor, "");
  ASSERT_GE(pages.size(), 3u);
  EXPECT_EQ(pages[0].reservations, 1);
  ASSERT_FALSE(pages[0].next_cursor.empty());

  EXPECT_EQ(Numbers(service_->Departures("AZ123", D("2030-01-04"))),
            (Set{ada.confirmation_number, bea.confirmation_number}));
  EXPECT_EQ(Numbers(service_->InHouse("AZ123", D("2030-01-03"))),
            (Set{ada.confirmation_number, bea.confirmation_number}));
  EXPECT_EQ(Numbers(service_->ReservationsByGuestEmail("ADA@example.com")),
            Set{ada.confirmation_number});
  EXPECT_TRUE(Problems().empty()) << ::testing::PrintToString(Problems());

  // Resuming after the first page rewrites the rest only; running again changes nothing.
  options.from = pages[0].next_cursor;
  pages.clear();
  auto resumed = Backfill(*repository_, options);
  ASSERT_TRUE(resumed.ok()) << resumed.status().ToString();
  EXPECT_EQ(resumed->reservations, 2);
  EXPECT_TRUE(Problems().empty()) << ::testing::PrintToString(Problems());

  options.from = "not hex";
  EXPECT_EQ(Backfill(*repository_, options).status().code(), common::StatusCode::kInvalid);
  options.from = "";
  options.page_size = 0;
  EXPECT_EQ(Backfill(*repository_, options).status().code(), common::StatusCode::kInvalid);
}

// The backfill reads a reservation, then the guest changes the stay before its write: the
// stale rows it writes carry the older write time, so the change's rows and deletions win.
TEST_P(BackfillTest, AStaleReadNeverUndoesALaterChange) {
  Reservation ada = Book(101, "2030-01-02", "2030-01-04", "Ada");
  ForgetDerivedRows();
  auto page = repository_->ListReservations(10, std::nullopt);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  ASSERT_EQ(page->reservations.size(), 1u);
  auto changed = service_->Change(ada.confirmation_number,
                                  {D("2030-01-06"), D("2030-01-08"), std::optional<int16_t>()});
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  const Repository::TimedReservation& stale = page->reservations[0];
  EXPECT_EQ(stale.reservation.check_in, D("2030-01-02"));
  ASSERT_TRUE(
      repository_
          ->RewriteDerivedRows(stale.reservation, {"ada@example.com"}, stale.written_at_micros)
          .ok());
  // The change deleted the old days' rows (and the old email row) at its own, later time: the
  // stale rows are shadowed, the current ones are the change's.
  EXPECT_TRUE(Numbers(service_->Departures("AZ123", D("2030-01-04"))).empty());
  EXPECT_TRUE(Numbers(service_->InHouse("AZ123", D("2030-01-02"))).empty());
  EXPECT_EQ(Numbers(service_->Departures("AZ123", D("2030-01-08"))),
            std::set<std::string>{ada.confirmation_number});
  EXPECT_TRUE(Problems().empty()) << ::testing::PrintToString(Problems());
}

INSTANTIATE_TEST_SUITE_P(Bucketing, BackfillTest, kBucketings, BucketingTestName);

}  // namespace
}  // namespace hotel
