// Test fixture for the hotel layer's unit tests: an embedded `engine::Database` in a fresh
// temporary directory, the service schema under a prefix, a repository, a service, and a tiny
// hand-made inventory (hotel AZ123 near the Eiffel Tower and the Louvre, rooms 101 and 102,
// nights 2030-01-01 .. 2030-01-10 open at 100.00 / 150.00).
//
// Only *_test.cc files include this header (it uses the engine; scripts/check-layers allows
// that for tests only).
//
// Thread-safety: as the service (thread-safe).

#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "engine/database.h"
#include "hotel/hotel_service.h"
#include "hotel/repository.h"
#include "hotel/service_schema.h"

namespace hotel {

class HotelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "hotel-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
    auto database = engine::Database::Open(directory_, engine::DatabaseOptions());
    ASSERT_TRUE(database.ok()) << database.status().ToString();
    database_ = std::move(*database);
    session_ = database_->NewSession();
    ASSERT_TRUE(CreateServiceSchema(*session_, "t_").ok());
    auto keyspaces = KeyspacesForPrefix("t_");
    ASSERT_TRUE(keyspaces.ok());
    auto repository = Repository::Create(session_.get(), *keyspaces);
    ASSERT_TRUE(repository.ok()) << repository.status().ToString();
    repository_ = std::move(*repository);
    HotelServiceOptions options;
    options.seed = 7;
    service_ = std::make_unique<HotelService>(repository_.get(), options);
  }

  void TearDown() override {
    service_.reset();
    repository_.reset();
    session_.reset();
    database_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }

  static Day D(const char* text) {
    auto day = ParseDay(text);
    EXPECT_TRUE(day.ok()) << text;
    return day.ok() ? *day : 0;
  }

  // The small inventory of the header comment.
  void LoadInventory() {
    ASSERT_TRUE(service_->CreatePoi({"Eiffel Tower", "Iron lattice tower"}).ok());
    ASSERT_TRUE(service_->CreatePoi({"Louvre", "Museum"}).ok());
    Hotel hotel;
    hotel.hotel_id = "AZ123";
    hotel.name = "Super Hotel Paris";
    hotel.phone = "+33 1 23 45 67 89";
    hotel.address = {"1 Rue de Rivoli", "Paris", "Ile-de-France", "75001", "France"};
    hotel.pois = {"Louvre", "Eiffel Tower"};
    auto created = service_->CreateHotel(hotel);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    Room standard{101, "double", 10000, {{"wifi", "Free wifi"}, {"minibar", "Stocked daily"}}};
    Room suite{102, "suite", 15000, {{"view", "View over the city"}}};
    ASSERT_TRUE(service_->AddRoom("AZ123", standard).ok());
    ASSERT_TRUE(service_->AddRoom("AZ123", suite).ok());
    auto opened =
        service_->OpenAvailability("AZ123", D("2030-01-01"), D("2030-01-11"), std::nullopt);
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    ASSERT_EQ(*opened, 20);
  }

  static Guest MakeGuest(const std::string& first, const std::string& last) {
    Guest guest;
    guest.first_name = first;
    guest.last_name = last;
    guest.title = "Ms.";
    guest.emails = {first + "@example.com"};
    guest.phone_numbers = {"+1 555 0100"};
    guest.addresses["home"] = {"1 Main St", "Springfield", "IL", "62701", "USA"};
    return guest;
  }

  std::string directory_;
  std::unique_ptr<engine::Database> database_;
  std::unique_ptr<cql::Session> session_;
  std::unique_ptr<Repository> repository_;
  std::unique_ptr<HotelService> service_;
};

}  // namespace hotel
