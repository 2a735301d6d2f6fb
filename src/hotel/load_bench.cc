#include "hotel/load_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <thread>
#include <tuple>

namespace hotel {

namespace {

using Clock = std::chrono::steady_clock;
using common::Result;
using common::Status;

constexpr std::array<std::string_view, kBenchOperationCount> kOperationNames = {
    "Q1 hotels near POI",
    "Q2 hotel",
    "Q3 POIs of hotel",
    "Q4 availability",
    "Q5 room",
    "Q6 by conf",
    "Q7 by hotel date",
    "Q8 by guest name",
    "Q9 guest",
    "book",
    "cancel"};

size_t Index(BenchOperation operation) { return static_cast<size_t>(operation); }

}  // namespace

Result<BenchMix> ParseBenchMix(const std::string& name) {
  if (name == "workflow") return BenchMix::kWorkflow;
  if (name == "lookup") return BenchMix::kLookup;
  if (name == "availability") return BenchMix::kAvailability;
  return Status::Invalid("Unknown mix '" + name + "' (known: workflow, lookup, availability)");
}

std::string_view BenchOperationName(BenchOperation operation) {
  return kOperationNames[Index(operation)];
}

std::array<int, kBenchOperationCount> BenchMixWeights(BenchMix mix) {
  switch (mix) {
    case BenchMix::kLookup:
      return {0, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    case BenchMix::kAvailability:
      return {0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0};
    case BenchMix::kWorkflow:
      break;
  }
  return {10, 15, 10, 30, 10, 6, 3, 5, 4, 5, 2};
}

Status ValidateBenchOptions(const BenchOptions& options) {
  if (options.concurrency < 1 || options.concurrency > 1024) {
    return Status::Invalid("concurrency must be 1 to 1024");
  }
  if (!(options.duration_seconds > 0)) return Status::Invalid("duration must be positive");
  if (options.days < 8) return Status::Invalid("days must be at least 8");
  if (options.booking_hotels < 1) return Status::Invalid("booking_hotels must be at least 1");
  if (options.guests < 1) return Status::Invalid("guests must be at least 1");
  return Status::Ok();
}

double OperationStats::PercentileMicros(double p) {
  if (latencies_ns.empty()) return 0;
  // Nearest rank: the smallest value with at least p% of the values at or below it.
  double rank = std::ceil(std::clamp(p, 0.0, 100.0) / 100.0 * latencies_ns.size());
  size_t index = std::min(latencies_ns.size() - 1, static_cast<size_t>(std::max(1.0, rank)) - 1);
  std::nth_element(latencies_ns.begin(), latencies_ns.begin() + static_cast<ptrdiff_t>(index),
                   latencies_ns.end());
  return static_cast<double>(latencies_ns[index]) / 1000.0;
}

void OperationStats::Merge(OperationStats&& other) {
  ok += other.ok;
  conflicts += other.conflicts;
  errors += other.errors;
  latencies_ns.insert(latencies_ns.end(), other.latencies_ns.begin(), other.latencies_ns.end());
  if (first_error.empty()) first_error = std::move(other.first_error);
}

int64_t BenchReport::total() const {
  int64_t sum = 0;
  for (const OperationStats& stats : operations) sum += stats.ok + stats.conflicts;
  return sum;
}

int64_t BenchReport::errors() const {
  int64_t sum = 0;
  for (const OperationStats& stats : operations) sum += stats.errors;
  return sum;
}

struct LoadBench::Worker {
  std::unique_ptr<BenchClient> client;
  std::mt19937_64 random;
  std::array<OperationStats, kBenchOperationCount> stats;

  size_t Pick(size_t size) {
    return static_cast<size_t>(std::uniform_int_distribution<size_t>(0, size - 1)(random));
  }
};

LoadBench::LoadBench(BenchClientFactory factory, BenchOptions options)
    : factory_(std::move(factory)), options_(std::move(options)) {
  first_day_ = options_.first_day != 0 ? options_.first_day : Today();
}

Status LoadBench::Prepare() {
  RETURN_IF_ERROR(ValidateBenchOptions(options_));
  ASSIGN_OR_RETURN(std::unique_ptr<BenchClient> client, factory_());
  ASSIGN_OR_RETURN(pois_, client->ListPois());
  std::set<std::string> hotels;
  size_t step = std::max<size_t>(
      1, pois_.size() / static_cast<size_t>(std::max(1, options_.max_discovery_pois)));
  for (size_t i = 0; i < pois_.size(); i += step) {
    ASSIGN_OR_RETURN(std::vector<std::string> near, client->HotelsNearPoi(pois_[i]));
    hotels.insert(near.begin(), near.end());
  }
  hotels_.assign(hotels.begin(), hotels.end());
  if (hotels_.empty()) return Status::NotFound("no hotels found: load data first (hotel load)");
  // Rooms: those free on the window's first night, for a few hotels.
  size_t with_rooms = std::max<size_t>(static_cast<size_t>(options_.booking_hotels), 8);
  for (size_t i = 0; i < hotels_.size() && rooms_.size() < with_rooms; ++i) {
    ASSIGN_OR_RETURN(std::vector<int16_t> rooms,
                     client->Availability(hotels_[i], first_day_, first_day_ + 1));
    if (!rooms.empty()) rooms_.emplace_back(hotels_[i], std::move(rooms));
  }
  if (rooms_.empty()) {
    return Status::NotFound(
        fmt::format("no room is open on {}: pass the --first-day the data was loaded with",
                    FormatDay(first_day_)));
  }
  for (int g = 0; g < options_.guests; ++g) {
    std::string last_name = fmt::format("Benchguest{}", g);
    ASSIGN_OR_RETURN(std::string id, client->CreateGuest("Load", last_name));
    guests_.emplace_back(std::move(id), std::move(last_name));
  }
  return Status::Ok();
}

void LoadBench::RunOperation(Worker& worker, BenchOperation operation) {
  BenchClient& client = *worker.client;
  Day window = options_.days;
  auto random_day = [&](int64_t tail) {
    return first_day_ + static_cast<Day>(worker.Pick(static_cast<size_t>(window - tail)));
  };
  auto random_booked = [&]() -> std::optional<Booked> {
    std::lock_guard<std::mutex> lock(booked_mutex_);
    if (booked_.empty()) return std::nullopt;
    return booked_[worker.Pick(booked_.size())];
  };
  const std::string& hotel = hotels_[worker.Pick(hotels_.size())];
  Status status;
  switch (operation) {
    case BenchOperation::kHotelsNearPoi:
      status = client.HotelsNearPoi(pois_[worker.Pick(pois_.size())]).status();
      break;
    case BenchOperation::kHotel:
      status = client.GetHotel(hotel);
      break;
    case BenchOperation::kHotelPois:
      status = client.HotelPois(hotel);
      break;
    case BenchOperation::kAvailability: {
      int64_t nights =
          options_.mix == BenchMix::kWorkflow ? 1 + static_cast<int64_t>(worker.Pick(7)) : 7;
      Day check_in = random_day(7);
      status = client.Availability(hotel, check_in, check_in + nights).status();
      break;
    }
    case BenchOperation::kRoom: {
      const auto& [room_hotel, rooms] = rooms_[worker.Pick(rooms_.size())];
      status = client.GetRoom(room_hotel, rooms[worker.Pick(rooms.size())], random_day(0));
      break;
    }
    case BenchOperation::kReservation: {
      std::optional<Booked> booked = random_booked();
      status = client.GetReservation(booked ? booked->confirmation : "ZZZZZZ").status();
      if (status.code() == common::StatusCode::kNotFound) status = Status::Ok();  // cancelled
      break;
    }
    case BenchOperation::kHotelDate: {
      std::optional<Booked> booked = random_booked();
      status = booked ? client.ReservationsByHotelDate(booked->hotel_id, booked->check_in)
                      : client.ReservationsByHotelDate(hotel, random_day(0));
      break;
    }
    case BenchOperation::kGuestReservations:
      status = client.ReservationsByGuest(guests_[worker.Pick(guests_.size())].second);
      break;
    case BenchOperation::kGuest:
      status = client.GetGuest(guests_[worker.Pick(guests_.size())].first);
      break;
    case BenchOperation::kBook: {
      size_t candidates = std::min(rooms_.size(), static_cast<size_t>(options_.booking_hotels));
      const auto& [book_hotel, rooms] = rooms_[worker.Pick(candidates)];
      Booked booked;
      booked.hotel_id = book_hotel;
      booked.room_number = rooms[worker.Pick(rooms.size())];
      booked.check_in = random_day(4);
      booked.check_out = booked.check_in + 1 + static_cast<Day>(worker.Pick(3));
      Result<std::string> confirmation =
          client.Book(booked.hotel_id, booked.room_number, booked.check_in, booked.check_out,
                      guests_[worker.Pick(guests_.size())].first);
      status = confirmation.status();
      if (confirmation.ok()) {
        booked.confirmation = *confirmation;
        std::lock_guard<std::mutex> lock(booked_mutex_);
        booked_.push_back(std::move(booked));
      }
      break;
    }
    case BenchOperation::kCancel: {
      std::optional<Booked> victim;
      {
        std::lock_guard<std::mutex> lock(booked_mutex_);
        if (!booked_.empty()) {
          size_t index = worker.Pick(booked_.size());
          victim = std::move(booked_[index]);
          booked_[index] = std::move(booked_.back());
          booked_.pop_back();
        }
      }
      status = victim ? client.Cancel(victim->confirmation) : client.GetHotel(hotel);
      break;
    }
  }
  OperationStats& stats = worker.stats[Index(operation)];
  if (status.ok()) {
    ++stats.ok;
  } else if (operation == BenchOperation::kBook &&
             status.code() == common::StatusCode::kWriteFailure) {
    ++stats.conflicts;
  } else {
    ++stats.errors;
    if (stats.first_error.empty()) stats.first_error = status.ToString();
  }
}

Result<BenchReport> LoadBench::Run(const std::string& name, double rate) {
  std::array<int, kBenchOperationCount> weights = BenchMixWeights(options_.mix);
  std::discrete_distribution<size_t> choose(weights.begin(), weights.end());
  std::vector<Worker> workers(static_cast<size_t>(options_.concurrency));
  for (size_t i = 0; i < workers.size(); ++i) {
    ASSIGN_OR_RETURN(workers[i].client, factory_());
    workers[i].random.seed(options_.seed * 1000003 + i);
  }
  BenchReport report;
  report.name = name;
  report.rate = rate;
  Clock::time_point start = Clock::now();
  Clock::time_point end = start + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(options_.duration_seconds));
  auto interval = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(rate > 0 ? options_.concurrency / rate : 0));
  std::vector<std::thread> threads;
  for (size_t i = 0; i < workers.size(); ++i) {
    threads.emplace_back([&, i] {
      Worker& worker = workers[i];
      std::discrete_distribution<size_t> pick = choose;
      // Open loop: worker i's schedule is offset by i/N of an interval.
      Clock::time_point next =
          start + interval * static_cast<int64_t>(i) / static_cast<int64_t>(workers.size());
      while (true) {
        Clock::time_point intended = rate > 0 ? next : Clock::now();
        if (intended >= end) break;
        if (rate > 0) {
          std::this_thread::sleep_until(intended);
          next += interval;
        }
        auto operation = static_cast<BenchOperation>(pick(worker.random));
        OperationStats& stats = worker.stats[Index(operation)];
        int64_t failed_before = stats.errors;
        RunOperation(worker, operation);
        if (stats.errors == failed_before) {
          stats.latencies_ns.push_back(
              std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - intended)
                  .count());
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (Worker& worker : workers) {
    for (size_t op = 0; op < kBenchOperationCount; ++op) {
      report.operations[op].Merge(std::move(worker.stats[op]));
    }
  }
  return report;
}

Result<IntegrityReport> LoadBench::CheckIntegrity() {
  std::vector<Booked> booked;
  {
    std::lock_guard<std::mutex> lock(booked_mutex_);
    booked = booked_;
  }
  ASSIGN_OR_RETURN(std::unique_ptr<BenchClient> client, factory_());
  IntegrityReport report;
  std::map<std::tuple<std::string, int16_t, Day>, int> holders;
  for (const Booked& stay : booked) {
    ++report.reservations_checked;
    Result<BookedStay> found = client->GetReservation(stay.confirmation);
    if (!found.ok() && found.status().code() != common::StatusCode::kNotFound) {
      return found.status();
    }
    if (!found.ok() || found->status != "confirmed" || found->hotel_id != stay.hotel_id ||
        found->room_number != stay.room_number || found->check_in != stay.check_in ||
        found->check_out != stay.check_out) {
      ++report.lost;
      continue;
    }
    for (Day night = found->check_in; night < found->check_out; ++night) {
      ++holders[{found->hotel_id, found->room_number, night}];
    }
    ASSIGN_OR_RETURN(bool held, client->StayHeld(*found));
    if (!held) ++report.not_held;
  }
  for (const auto& [night, count] : holders) {
    if (count > 1) ++report.double_bookings;
  }
  return report;
}

Status RunBenchCommand(LoadBench& bench, double rate, bool half_peak, std::FILE* out) {
  RETURN_IF_ERROR(bench.Prepare());
  std::fprintf(out, "hotel bench: %zu hotels found\n", bench.hotel_count());
  std::vector<double> rates = {half_peak ? 0 : rate};
  for (size_t phase = 0; phase < rates.size(); ++phase) {
    std::string name = rates[phase] > 0 ? fmt::format("open loop @{:.0f}/s", rates[phase])
                                        : std::string("closed loop");
    ASSIGN_OR_RETURN(BenchReport report, bench.Run(name, rates[phase]));
    std::fputs(FormatBenchReport(report).c_str(), out);
    std::fflush(out);
    if (half_peak && phase == 0 && report.ops_per_second() > 0) {
      rates.push_back(report.ops_per_second() / 2);
    }
  }
  ASSIGN_OR_RETURN(IntegrityReport integrity, bench.CheckIntegrity());
  std::fprintf(out,
               "integrity: %lld reservations checked, %lld double bookings, %lld lost, "
               "%lld not held\n",
               static_cast<long long>(integrity.reservations_checked),
               static_cast<long long>(integrity.double_bookings),
               static_cast<long long>(integrity.lost), static_cast<long long>(integrity.not_held));
  if (!integrity.ok()) return Status::Internal("integrity check failed");
  return Status::Ok();
}

std::string FormatBenchReport(BenchReport& report) {
  std::string out = report.rate > 0
                        ? fmt::format("{}: open loop at {:.0f} ops/s offered, {:.1f} s\n",
                                      report.name, report.rate, report.seconds)
                        : fmt::format("{}: closed loop, {:.1f} s\n", report.name, report.seconds);
  out += fmt::format("{:<20} {:>9} {:>10} {:>9} {:>7} {:>9} {:>9} {:>9}\n", "operation", "count",
                     "ops/s", "conflicts", "errors", "p50 µs", "p99 µs", "p99.9 µs");
  OperationStats all;
  for (size_t op = 0; op < kBenchOperationCount; ++op) {
    OperationStats& stats = report.operations[op];
    int64_t count = stats.ok + stats.conflicts;
    if (count + stats.errors == 0) continue;
    out += fmt::format("{:<20} {:>9} {:>10.0f} {:>9} {:>7} {:>9.0f} {:>9.0f} {:>9.0f}\n",
                       kOperationNames[op], count,
                       report.seconds > 0 ? static_cast<double>(count) / report.seconds : 0,
                       stats.conflicts, stats.errors, stats.PercentileMicros(50),
                       stats.PercentileMicros(99), stats.PercentileMicros(99.9));
    all.Merge(OperationStats(stats));
  }
  out +=
      fmt::format("{:<20} {:>9} {:>10.0f} {:>9} {:>7} {:>9.0f} {:>9.0f} {:>9.0f}\n", "total",
                  report.total(), report.ops_per_second(), all.conflicts, all.errors,
                  all.PercentileMicros(50), all.PercentileMicros(99), all.PercentileMicros(99.9));
  for (size_t op = 0; op < kBenchOperationCount; ++op) {
    if (!report.operations[op].first_error.empty()) {
      out += fmt::format("first error of {}: {}\n", kOperationNames[op],
                         report.operations[op].first_error);
    }
  }
  return out;
}

}  // namespace hotel
