#include "hotel/load_bench.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>
#include <vector>

#include "hotel/data_generator.h"
#include "hotel/hotel_testing.h"
#include "hotel/http_router.h"
#include "hotel/http_server.h"

namespace hotel {
namespace {

TEST(LoadBenchOptionsTest, MixesAndPercentiles) {
  EXPECT_EQ(*ParseBenchMix("lookup"), BenchMix::kLookup);
  EXPECT_EQ(ParseBenchMix("shopping").status().code(), common::StatusCode::kInvalid);
  for (BenchMix mix : {BenchMix::kWorkflow, BenchMix::kLookup, BenchMix::kAvailability}) {
    auto weights = BenchMixWeights(mix);
    EXPECT_EQ(std::accumulate(weights.begin(), weights.end(), 0), 100);
  }
  auto workflow = BenchMixWeights(BenchMix::kWorkflow);
  int shopping = 0;
  for (size_t op = 0; op <= static_cast<size_t>(BenchOperation::kRoom); ++op) {
    shopping += workflow[op];
  }
  EXPECT_GT(shopping, 50);  // mostly shopping
  EXPECT_EQ(BenchOperationName(BenchOperation::kAvailability), "Q4 availability");

  OperationStats stats;
  for (int64_t micros = 100; micros >= 1; --micros) stats.latencies_ns.push_back(micros * 1000);
  EXPECT_EQ(stats.PercentileMicros(50), 50);
  EXPECT_EQ(stats.PercentileMicros(99), 99);
  EXPECT_EQ(stats.PercentileMicros(100), 100);
  EXPECT_EQ(stats.PercentileMicros(0), 1);
  EXPECT_EQ(OperationStats().PercentileMicros(50), 0);

  BenchOptions options;
  options.days = 7;
  EXPECT_FALSE(ValidateBenchOptions(options).ok());
  options = BenchOptions();
  options.concurrency = 0;
  EXPECT_FALSE(ValidateBenchOptions(options).ok());
}

// A fake service that accepts every booking: two guests get the same room-night, which the
// integrity check must count.
class OverbookingClient : public BenchClient {
 public:
  common::Result<std::vector<std::string>> ListPois() override {
    return std::vector<std::string>{"Louvre"};
  }
  common::Result<std::vector<std::string>> HotelsNearPoi(const std::string&) override {
    return std::vector<std::string>{"H1"};
  }
  common::Status GetHotel(const std::string&) override { return common::Status::Ok(); }
  common::Status HotelPois(const std::string&) override { return common::Status::Ok(); }
  common::Result<std::vector<int16_t>> Availability(const std::string&, Day, Day) override {
    return std::vector<int16_t>{101};
  }
  common::Status GetRoom(const std::string&, int16_t, Day) override { return common::Status::Ok(); }
  common::Result<BookedStay> GetReservation(const std::string& confirmation) override {
    auto it = stays_->find(confirmation);
    if (it == stays_->end()) return common::Status::NotFound(confirmation);
    return it->second;
  }
  common::Status ReservationsByHotelDate(const std::string&, Day) override {
    return common::Status::Ok();
  }
  common::Status ReservationsByGuest(const std::string&) override { return common::Status::Ok(); }
  common::Status GetGuest(const std::string&) override { return common::Status::Ok(); }
  common::Result<std::string> CreateGuest(const std::string&, const std::string&) override {
    return std::string("00000000-0000-4000-8000-000000000000");
  }
  common::Result<std::string> Book(const std::string& hotel_id, int16_t room_number, Day check_in,
                                   Day check_out, const std::string&) override {
    std::lock_guard<std::mutex> lock(*mutex_);
    std::string number = "C" + std::to_string(stays_->size());
    (*stays_)[number] = {number, hotel_id, room_number, check_in, check_out, "confirmed"};
    return number;
  }
  common::Status Cancel(const std::string&) override { return common::Status::Ok(); }
  common::Result<bool> StayHeld(const BookedStay&) override { return true; }

  std::shared_ptr<std::mutex> mutex_ = std::make_shared<std::mutex>();
  std::shared_ptr<std::map<std::string, BookedStay>> stays_ =
      std::make_shared<std::map<std::string, BookedStay>>();
};

TEST(OperationGateTest, HoldsBackOperationsBeyondItsSlots) {
  OperationGate gate(2);
  std::atomic<bool> entered{false};
  std::optional<OperationGate::Slot> first(&gate);
  OperationGate::Slot second(&gate);
  std::thread third([&] {
    OperationGate::Slot slot(&gate);
    entered = true;
  });
  while (gate.waiting() == 0) std::this_thread::yield();
  EXPECT_FALSE(entered);
  first.reset();
  third.join();
  EXPECT_TRUE(entered);
  EXPECT_EQ(gate.waiting(), 0);
}

TEST(OperationGateTest, NeverMoreThanItsSlotsAtOnceAndEveryoneGetsIn) {
  OperationGate gate(2);
  std::atomic<int> inside{0};
  std::atomic<int> most{0};
  std::atomic<int> done{0};
  std::vector<std::thread> workers;
  for (int i = 0; i < 8; ++i) {
    workers.emplace_back([&] {
      for (int round = 0; round < 200; ++round) {
        OperationGate::Slot slot(&gate);
        int now = ++inside;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        std::this_thread::yield();
        --inside;
      }
      ++done;
    });
  }
  for (std::thread& worker : workers) worker.join();
  EXPECT_EQ(done, 8);
  EXPECT_LE(most, 2);
  EXPECT_GE(most, 1);
  EXPECT_EQ(gate.waiting(), 0);
}

TEST(LoadBenchTest, IntegrityCheckCountsDoubleBookings) {
  OverbookingClient shared;
  BenchOptions options;
  options.concurrency = 2;
  options.duration_seconds = 0.2;
  options.days = 8;  // 4 possible check-in days for 1 room: bookings overlap
  options.first_day = 20000;
  options.guests = 1;
  LoadBench bench(
      [&]() -> common::Result<std::unique_ptr<BenchClient>> {
        auto client = std::make_unique<OverbookingClient>();
        client->mutex_ = shared.mutex_;
        client->stays_ = shared.stays_;
        return std::unique_ptr<BenchClient>(std::move(client));
      },
      options);
  ASSERT_TRUE(bench.Prepare().ok());
  auto report = bench.Run("fake", 0);
  ASSERT_TRUE(report.ok());
  ASSERT_GT(report->operations[static_cast<size_t>(BenchOperation::kBook)].ok, 10);
  auto integrity = bench.CheckIntegrity();
  ASSERT_TRUE(integrity.ok());
  EXPECT_GT(integrity->double_bookings, 0);
  EXPECT_FALSE(integrity->ok());
}

class LoadBenchServiceTest : public HotelTest {
 protected:
  void LoadSample() {
    GeneratorOptions options;
    options.hotels = 6;
    options.rooms_per_hotel = 4;
    options.pois = 12;
    options.days = 20;
    options.guests = 10;
    options.reservations = 5;
    options.first_day = D("2030-01-01");
    auto report = Generate(*repository_, *service_, options);
    ASSERT_TRUE(report.ok()) << report.status().ToString();
  }
  BenchOptions Options() {
    BenchOptions options;
    options.concurrency = 4;
    options.duration_seconds = 0.5;
    options.days = 20;
    options.first_day = D("2030-01-01");
    options.booking_hotels = 2;  // few rooms: bookings contend
    options.guests = 3;
    return options;
  }
  static void ExpectNoErrors(BenchReport& report) {
    EXPECT_EQ(report.errors(), 0) << FormatBenchReport(report);
    EXPECT_GT(report.total(), 0);
  }
};

TEST_F(LoadBenchServiceTest, InProcessWorkflowSellsNoRoomNightTwice) {
  LoadSample();
  LoadBench bench(
      [this]() -> common::Result<std::unique_ptr<BenchClient>> {
        return NewServiceBenchClient(service_.get(), repository_.get());
      },
      Options());
  ASSERT_TRUE(bench.Prepare().ok());
  EXPECT_EQ(bench.hotel_count(), 6u);
  auto report = bench.Run("embedded", 0);
  ASSERT_TRUE(report.ok());
  ExpectNoErrors(*report);
  EXPECT_GT(report->operations[static_cast<size_t>(BenchOperation::kBook)].ok, 0);
  auto integrity = bench.CheckIntegrity();
  ASSERT_TRUE(integrity.ok()) << integrity.status().ToString();
  EXPECT_GT(integrity->reservations_checked, 0);
  EXPECT_EQ(integrity->double_bookings, 0);
  EXPECT_EQ(integrity->lost, 0);
  EXPECT_EQ(integrity->not_held, 0);
}

TEST_F(LoadBenchServiceTest, InProcessWorkflowThroughOneSlotSellsNoRoomNightTwice) {
  LoadSample();
  OperationGate gate(1);
  LoadBench bench(
      [this, &gate]() -> common::Result<std::unique_ptr<BenchClient>> {
        return NewServiceBenchClient(service_.get(), repository_.get(), &gate);
      },
      Options());
  ASSERT_TRUE(bench.Prepare().ok());
  auto report = bench.Run("embedded, one slot", 0);
  ASSERT_TRUE(report.ok());
  ExpectNoErrors(*report);
  EXPECT_EQ(gate.waiting(), 0);
  auto integrity = bench.CheckIntegrity();
  ASSERT_TRUE(integrity.ok()) << integrity.status().ToString();
  EXPECT_GT(integrity->reservations_checked, 0);
  EXPECT_TRUE(integrity->ok());
}

TEST_F(LoadBenchServiceTest, OverHttpOpenLoop) {
  LoadSample();
  SetUpStaff();
  ApiRouter router(service_.get(), auth_.get(), "", "embedded");
  HttpServerOptions server_options;
  server_options.port = 0;
  server_options.threads = 2;
  server_options.access_log = false;
  HttpServer server(&router, server_options);
  ASSERT_TRUE(server.Start().ok());
  std::string url = "http://127.0.0.1:" + std::to_string(server.port());
  auto token = HttpStaffLogin(url, kStaffUser, kStaffPassword);
  ASSERT_TRUE(token.ok()) << token.status().ToString();
  LoadBench bench([url, token = *token] { return ConnectHttpBenchClient(url, token); }, Options());
  ASSERT_TRUE(bench.Prepare().ok());
  auto report = bench.Run("http", 200);
  ASSERT_TRUE(report.ok());
  ExpectNoErrors(*report);
  auto integrity = bench.CheckIntegrity();
  ASSERT_TRUE(integrity.ok()) << integrity.status().ToString();
  EXPECT_TRUE(integrity->ok());
  EXPECT_EQ(HttpStaffLogin(url, kStaffUser, "wrong password").status().code(),
            common::StatusCode::kAuthenticationError);
  server.Stop();
  EXPECT_EQ(ConnectHttpBenchClient("ftp://x").status().code(), common::StatusCode::kInvalid);
}

}  // namespace
}  // namespace hotel
