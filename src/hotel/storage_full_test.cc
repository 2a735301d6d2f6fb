// The service on the embedded engine when the disk is full: a write the database refuses
// (WriteFailure) is answered as HTTP 503 with a JSON error that says why, never as the 409 of
// a taken room nor a crash, and reads keep working. The "full" disk is a free-space floor
// larger than any disk, so the database reopens read-only and the test needs no privilege.

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "hotel/hotel_testing.h"
#include "hotel/http_router.h"

namespace hotel {
namespace {

namespace json = boost::json;

constexpr const char* kBooking = R"({"hotel_id": "AZ123", "room_number": 101,
  "check_in": "2030-01-02", "check_out": "2030-01-05",
  "guest": {"first_name": "Mai", "last_name": "Nguyen", "emails": ["mai@example.com"]}})";

class StorageFullTest : public HotelTest {
 protected:
  void SetUp() override {
    HotelTest::SetUp();
    if (HasFatalFailure()) return;
    LoadInventory();
    SetUpStaff();
  }

  // Reopens the database with a floor no disk has free (so read-only) and rebuilds the
  // session, repository and service on it.
  void ReopenOnFullDisk() {
    auth_.reset();
    accounts_.reset();
    service_.reset();
    repository_.reset();
    session_.reset();
    database_.reset();
    engine::DatabaseOptions options;
    options.min_free_space_bytes = uint64_t{1} << 62;
    auto database = engine::Database::Open(directory_, options);
    ASSERT_TRUE(database.ok()) << database.status().ToString();
    database_ = std::move(*database);
    session_ = database_->NewSession();
    auto keyspaces = KeyspacesForPrefix("t_");
    ASSERT_TRUE(keyspaces.ok());
    auto repository = Repository::Create(session_.get(), *keyspaces);
    ASSERT_TRUE(repository.ok()) << repository.status().ToString();
    repository_ = std::move(*repository);
    service_ = std::make_unique<HotelService>(repository_.get(), HotelServiceOptions{});
    SetUpStaff(/*add_account=*/false);  // a login only reads
  }

  static json::value Body(const HttpResponse& response) {
    boost::system::error_code ec;
    json::value body = json::parse(response.body, ec);
    EXPECT_FALSE(ec) << response.body;
    return body;
  }
};

TEST_F(StorageFullTest, RefusedWritesAre503AndReadsWork) {
  ASSERT_NO_FATAL_FAILURE(ReopenOnFullDisk());
  ApiRouter router(service_.get(), auth_.get(), "/nonexistent-web-dir", "embedded");
  std::string staff = "Bearer " + StaffToken();

  HttpResponse booked = router.Handle(
      {"POST", "/api/v1/reservations", "application/json", kBooking, "", "", "", "", "", false});
  EXPECT_EQ(booked.status, 503) << booked.body;
  json::value error = Body(booked).at("error");
  EXPECT_EQ(error.at("code"), "database_unavailable");
  std::string message(error.at("message").as_string());
  EXPECT_NE(message.find("the disk holding " + directory_ + " is full"), std::string::npos)
      << message;

  HttpResponse poi =
      router.Handle({"POST", "/api/v1/pois", "application/json",
                     R"({"name": "Orsay", "description": "x"})", staff, "", "", "", "", false});
  EXPECT_EQ(poi.status, 503) << poi.body;

  HttpResponse hotel =
      router.Handle({"GET", "/api/v1/hotels/AZ123", "", "", "", "", "", "", "", false});
  EXPECT_EQ(hotel.status, 200) << hotel.body;
  HttpResponse nights = router.Handle(
      {"GET", "/api/v1/hotels/AZ123/availability?check_in=2030-01-02&check_out=2030-01-05", "", "",
       "", "", "", "", "", false});
  EXPECT_EQ(nights.status, 200) << nights.body;
}

}  // namespace
}  // namespace hotel
