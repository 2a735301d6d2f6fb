// Q12, the search of reservations by a guest's email address (`reservations_by_guest_email`):
// canonical addresses, the rows written with every transition of a reservation (booked,
// changed, cancelled, checked in) in the same logged batch, a guest's change of addresses
// moving the rows, and the invariants of hotel_invariants_testing.h after each step. The
// endpoint is tested in staff_console_test.cc; a database from before Q12 gets the table on
// start (CreateServiceSchema), checked here.

#include <gtest/gtest.h>

#include <set>

#include "hotel/hotel_invariants_testing.h"
#include "hotel/hotel_testing.h"

namespace hotel {
namespace {

using common::StatusCode;

TEST(CanonicalEmail, TrimsAndLowerCasesOnlyAscii) {
  EXPECT_EQ(CanonicalEmail("  Ada@Example.COM \t"), "ada@example.com");
  EXPECT_EQ(CanonicalEmail("   "), "");
  EXPECT_EQ(CanonicalEmail("J\xC3\x89@x.fr"), "j\xC3\x89@x.fr");  // é is kept as it is
  EXPECT_EQ(CanonicalEmails({"B@x.org", " b@X.org", "", "a@x.org"}),
            (std::vector<std::string>{"a@x.org", "b@x.org"}));
}

class GuestEmailTest : public BucketedHotelTest {
 protected:
  Reservation BookAda(int16_t room, const char* check_in, const char* check_out) {
    Guest guest = MakeGuest("Ada", "Byron");
    guest.emails = {"Ada@Example.com", "ada@work.example"};
    auto booked = service_->Book({"AZ123", room, D(check_in), D(check_out), std::nullopt, guest});
    EXPECT_TRUE(booked.ok()) << booked.status().ToString();
    return booked.ok() ? *booked : Reservation{};
  }

  // The confirmation numbers and statuses found by `email`, in the order answered.
  std::vector<std::pair<std::string, std::string>> Found(const std::string& email) {
    auto found = service_->ReservationsByGuestEmail(email);
    EXPECT_TRUE(found.ok()) << found.status().ToString();
    std::vector<std::pair<std::string, std::string>> numbers;
    for (const Reservation& r : found.ok() ? *found : std::vector<Reservation>()) {
      numbers.emplace_back(r.confirmation_number, r.status);
    }
    return numbers;
  }

  std::vector<std::string> Problems() {
    return testing::CheckBookingInvariants(*session_, *repository_, "AZ123", D("2030-01-01"),
                                           D("2030-01-11"));
  }
};

TEST_P(GuestEmailTest, EveryTransitionRewritesTheRowsUnderEachAddress) {
  Reservation later = BookAda(102, "2030-01-06", "2030-01-08");
  Reservation first = BookAda(101, "2030-01-02", "2030-01-04");
  using Rows = std::vector<std::pair<std::string, std::string>>;
  // Any case, blanks around: by arrival date; under both addresses.
  Rows both = {{first.confirmation_number, "confirmed"}, {later.confirmation_number, "confirmed"}};
  EXPECT_EQ(Found("  ADA@example.COM "), both);
  EXPECT_EQ(Found("ada@work.example"), both);
  EXPECT_TRUE(Found("someone@else.example").empty());
  EXPECT_EQ(service_->ReservationsByGuestEmail(" ").status().code(), StatusCode::kInvalid);
  EXPECT_TRUE(Problems().empty()) << ::testing::PrintToString(Problems());

  // A change of dates moves the row (its arrival date is the clustering key): no stray row.
  auto changed = service_->Change(later.confirmation_number,
                                  {D("2030-01-01"), D("2030-01-02"), std::optional<int16_t>()});
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_EQ(Found("ada@example.com"), (Rows{{later.confirmation_number, "changed"},
                                            {first.confirmation_number, "confirmed"}}));
  EXPECT_TRUE(Problems().empty()) << ::testing::PrintToString(Problems());

  ASSERT_TRUE(service_->Cancel(later.confirmation_number).ok());
  ASSERT_TRUE(
      service_
          ->RecordStayEvent(first.confirmation_number, ReservationAction::kCheckedIn, "frontdesk")
          .ok());
  EXPECT_EQ(Found("ada@work.example"), (Rows{{later.confirmation_number, "cancelled"},
                                             {first.confirmation_number, "checked_in"}}));
  EXPECT_TRUE(Problems().empty()) << ::testing::PrintToString(Problems());
}

TEST_P(GuestEmailTest, ChangingAGuestsAddressesMovesTheirReservations) {
  Reservation booked = BookAda(101, "2030-01-02", "2030-01-04");
  // Another guest sharing an address keeps their rows.
  Guest other = MakeGuest("Bea", "Byron");
  other.emails = {"ada@work.example"};
  auto theirs =
      service_->Book({"AZ123", 102, D("2030-01-02"), D("2030-01-03"), std::nullopt, other});
  ASSERT_TRUE(theirs.ok()) << theirs.status().ToString();

  auto guest = service_->GetGuest(booked.guest_id);
  ASSERT_TRUE(guest.ok());
  Guest updated = *guest;
  updated.emails = {"ada@example.com", "Ada.Byron@New.example"};  // one kept, one replaced
  ASSERT_TRUE(service_->UpdateGuest(booked.guest_id, updated).ok());
  std::set<std::string> at_work;
  for (const auto& [number, status] : Found("ada@work.example")) at_work.insert(number);
  EXPECT_EQ(at_work, std::set<std::string>{theirs->confirmation_number});
  EXPECT_EQ(Found("ada.byron@new.example").size(), 1u);
  EXPECT_EQ(Found("ada@example.com").size(), 1u);
  EXPECT_TRUE(Problems().empty()) << ::testing::PrintToString(Problems());

  // A guest left with no address is found by none; given one again, by it (Q8 finds the stays).
  updated.emails = {};
  ASSERT_TRUE(service_->UpdateGuest(booked.guest_id, updated).ok());
  EXPECT_TRUE(Found("ada@example.com").empty());
  updated.emails = {"ada@home.example"};
  ASSERT_TRUE(service_->UpdateGuest(booked.guest_id, updated).ok());
  EXPECT_EQ(Found("ada@home.example").size(), 1u);
  EXPECT_TRUE(Problems().empty()) << ::testing::PrintToString(Problems());
}

INSTANTIATE_TEST_SUITE_P(Bucketing, GuestEmailTest, kBucketings, BucketingTestName);

// A database created before Q12: the table is created on the next start, and the service
// answers from it (reservations written before have no rows until their next transition, or
// until `hotel backfill` writes them).
class GuestEmailUpgradeTest : public HotelTest {};

TEST_F(GuestEmailUpgradeTest, TheNextStartCreatesTheTable) {
  ASSERT_TRUE(session_->Execute("DROP TABLE t_reservation.reservations_by_guest_email").ok());
  EXPECT_FALSE(Repository::Create(session_.get(), repository_->keyspaces()).ok());
  ASSERT_TRUE(CreateServiceSchema(*session_, "t_").ok());
  auto repository = Repository::Create(session_.get(), repository_->keyspaces());
  ASSERT_TRUE(repository.ok()) << repository.status().ToString();
  auto found = (*repository)->ReservationsByGuestEmail("ada@example.com");
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_TRUE(found->empty());
}

}  // namespace
}  // namespace hotel
