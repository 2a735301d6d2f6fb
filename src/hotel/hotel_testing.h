// Test fixture for the hotel layer's unit tests: an embedded `engine::Database` in a fresh
// temporary directory, the service schema under a prefix, a repository, a service, and a tiny
// hand-made inventory (hotel AZ123 near the Eiffel Tower and the Louvre, rooms 101 and 102,
// nights 2030-01-01 .. 2030-01-10 open at 100.00 / 150.00). A subclass may set `bucketing_`
// before calling HotelTest::SetUp to run on the month-bucketed availability table, or
// `session_kind_` = kRemote to run the service through the C++ driver (client::RemoteSession)
// against an in-process cqld server (server::Server) over the same database, or change
// `database_options_`. SetUpStaff adds a
// staff account and the StaffAuth of the HTTP API's tests (bcrypt cost 4, for speed).
//
// Only *_test.cc files include this header (it uses the engine, the server and the driver;
// scripts/check-layers allows that for tests only).
//
// Thread-safety: as the service (thread-safe).

#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "client/remote_session.h"
#include "engine/database.h"
#include "hotel/hotel_service.h"
#include "hotel/repository.h"
#include "hotel/service_schema.h"
#include "hotel/staff_accounts.h"
#include "hotel/staff_auth.h"
#include "server/server.h"

namespace hotel {

// How the service reaches the database in a test.
enum class SessionKind { kEmbedded, kRemote };

class HotelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "hotel-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
    auto database = engine::Database::Open(directory_, database_options_);
    ASSERT_TRUE(database.ok()) << database.status().ToString();
    database_ = std::move(*database);
    if (session_kind_ == SessionKind::kEmbedded) {
      session_ = database_->NewSession();
    } else {
      server::ServerOptions server_options;
      server_options.address = "127.0.0.1";
      server_options.port = 0;
      server_options.io_threads = 2;
      auto server = server::Server::Start(database_.get(), server_options);
      ASSERT_TRUE(server.ok()) << server.status().ToString();
      cqld_server_ = std::move(*server);
      client::ClientOptions client_options;
      client_options.contact_points = {"127.0.0.1:" + std::to_string(cqld_server_->port())};
      auto remote = client::RemoteSession::Connect(client_options);
      ASSERT_TRUE(remote.ok()) << remote.status().ToString();
      session_ = std::move(*remote);
    }
    ASSERT_TRUE(CreateServiceSchema(*session_, "t_").ok());
    auto keyspaces = KeyspacesForPrefix("t_");
    ASSERT_TRUE(keyspaces.ok());
    auto repository = Repository::Create(session_.get(), *keyspaces);
    ASSERT_TRUE(repository.ok()) << repository.status().ToString();
    repository_ = std::move(*repository);
    HotelServiceOptions options;
    options.seed = 7;
    options.availability_bucketing = bucketing_;
    service_ = std::make_unique<HotelService>(repository_.get(), options);
  }

  void TearDown() override {
    auth_.reset();
    accounts_.reset();
    service_.reset();
    repository_.reset();
    session_.reset();
    if (cqld_server_) cqld_server_->Stop();
    cqld_server_.reset();
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

  static constexpr const char* kStaffUser = "frontdesk";
  static constexpr const char* kStaffPassword = "correct horse battery";

  // Builds `accounts_` and `auth_` over `repository_` (again after rebuilding it), adding the
  // account kStaffUser / kStaffPassword unless `add_account` is false.
  void SetUpStaff(bool add_account = true, StaffAuthOptions options = {}) {
    auth_.reset();
    auto accounts = StaffAccounts::Create(repository_.get(), {.bcrypt_cost = 4});
    ASSERT_TRUE(accounts.ok()) << accounts.status().ToString();
    accounts_ = std::move(*accounts);
    if (add_account) {
      ASSERT_TRUE(accounts_->Add(kStaffUser, kStaffPassword).ok());
    }
    auth_ = std::make_unique<StaffAuth>(accounts_.get(), std::move(options));
  }

  // The token of a new staff session. REQUIRES: SetUpStaff.
  std::string StaffToken() {
    auto grant = auth_->Login("192.0.2.1", kStaffUser, kStaffPassword);
    EXPECT_TRUE(grant.ok()) << grant.status().ToString();
    return grant.ok() ? grant->token : "";
  }

  AvailabilityBucketing bucketing_ = AvailabilityBucketing::kNone;
  SessionKind session_kind_ = SessionKind::kEmbedded;
  engine::DatabaseOptions database_options_;  // what SetUp opens the database with
  std::string directory_;
  std::unique_ptr<engine::Database> database_;
  std::unique_ptr<server::Server> cqld_server_;  // kRemote only
  std::unique_ptr<cql::Session> session_;
  std::unique_ptr<Repository> repository_;
  std::unique_ptr<HotelService> service_;
  std::unique_ptr<StaffAccounts> accounts_;  // SetUpStaff
  std::unique_ptr<StaffAuth> auth_;          // SetUpStaff
};

// A HotelTest on the availability table its parameter names, with the small inventory loaded;
// instantiate it with kBucketings and BucketingTestName.
class BucketedHotelTest : public HotelTest,
                          public ::testing::WithParamInterface<AvailabilityBucketing> {
 protected:
  void SetUp() override {
    bucketing_ = GetParam();
    HotelTest::SetUp();
    LoadInventory();
  }
};

inline const auto kBucketings =
    ::testing::Values(AvailabilityBucketing::kNone, AvailabilityBucketing::kMonth);
inline std::string BucketingTestName(const ::testing::TestParamInfo<AvailabilityBucketing>& info) {
  return info.param == AvailabilityBucketing::kNone ? "Unbucketed" : "ByMonth";
}

}  // namespace hotel
