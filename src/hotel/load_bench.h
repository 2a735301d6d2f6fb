// LoadBench: `hotel bench`, the seeds' workflow as a load (issue 6, "Data and load").
//
// N workers (`concurrency`), each with its own `BenchClient` (load_bench_client.h: in-process
// on `HotelService`, or one keep-alive HTTP connection to `hotel serve`), run operations for a
// fixed duration, closed loop (each worker issues its next operation when the last one
// answers) or open loop at a fixed total rate (each worker follows a schedule; latency is
// measured from the scheduled start, so a stalled service cannot hide behind a waiting
// client: the correction cqld_load's --half-peak makes too).
//
// Mixes:
//   workflow      mostly shopping (Q1 10%, Q2 15%, Q3 10%, Q4 30%, Q5 10%), some lookups
//                 (Q6 6%, Q7 3%, Q8 5%, Q9 4%), a few bookings (5%) and cancels (2%);
//                 bookings go to `booking_hotels` hotels only, so they contend;
//   lookup        Q2 only: GET /api/v1/hotels/{id} (the single-hotel lookup target);
//   availability  Q4 only: the free rooms of a hotel for 7 nights.
// Before the timed phases `Prepare` discovers the data through the same client (POIs, the
// hotels near them, rooms) and creates a few guests; operations then pick uniformly among them
// with a generator seeded by `seed` and the worker's index.
//
// Integrity: every booking that succeeded and was not cancelled is kept; `CheckIntegrity` reads
// each back (Q6) and counts double bookings (two confirmed reservations holding the same
// room-night: must be zero), reservations lost (accepted but not found) and stays not held
// (a night not held by its reservation; over HTTP: the room offered as free for the stay).
//
// Thread-safety: one thread drives a LoadBench (Prepare, Run, CheckIntegrity); Run starts and
// joins the worker threads itself.

#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/result.h"
#include "hotel/load_bench_client.h"

namespace hotel {

enum class BenchMix { kWorkflow, kLookup, kAvailability };

// "workflow", "lookup" or "availability". kInvalid otherwise.
common::Result<BenchMix> ParseBenchMix(const std::string& name);

enum class BenchOperation {
  kHotelsNearPoi,      // Q1
  kHotel,              // Q2
  kHotelPois,          // Q3
  kAvailability,       // Q4
  kRoom,               // Q5
  kReservation,        // Q6
  kHotelDate,          // Q7
  kGuestReservations,  // Q8
  kGuest,              // Q9
  kBook,
  kCancel,
};
inline constexpr size_t kBenchOperationCount = 11;

// "Q1 hotels near POI", ..., "book", "cancel".
std::string_view BenchOperationName(BenchOperation operation);

// The mix's weights (percent, summing to 100), indexed by BenchOperation.
std::array<int, kBenchOperationCount> BenchMixWeights(BenchMix mix);

struct BenchOptions {
  BenchMix mix = BenchMix::kWorkflow;
  int concurrency = 8;
  double duration_seconds = 10;
  uint64_t seed = 1;
  // The availability window the data was loaded with (`hotel load --days`): stays are drawn
  // inside [first_day, first_day + days).
  Day first_day = 0;  // 0: today
  int days = 90;
  int booking_hotels = 4;
  int guests = 16;              // created by Prepare
  int max_discovery_pois = 50;  // Q1 calls Prepare makes to find hotels
};

// kInvalid naming the field unless concurrency 1..1024, duration > 0, days >= 8,
// booking_hotels >= 1, guests >= 1.
common::Status ValidateBenchOptions(const BenchOptions& options);

// The outcomes and latencies of one operation in one phase.
struct OperationStats {
  int64_t ok = 0;
  int64_t conflicts = 0;  // bookings refused because a night was taken (409): expected
  int64_t errors = 0;
  std::vector<int64_t> latencies_ns;  // of ok and conflict outcomes
  std::string first_error;

  // The p-th percentile (0..100) of latencies_ns in microseconds (nearest rank); 0 if none.
  // Reorders latencies_ns.
  double PercentileMicros(double p);
  void Merge(OperationStats&& other);
};

struct BenchReport {
  std::string name;
  double seconds = 0;
  double rate = 0;  // offered ops/s (open loop), 0 closed loop
  std::array<OperationStats, kBenchOperationCount> operations;
  int64_t total() const;  // ok + conflicts of every operation
  int64_t errors() const;
  double ops_per_second() const { return seconds > 0 ? static_cast<double>(total()) / seconds : 0; }
};

struct IntegrityReport {
  int64_t reservations_checked = 0;
  int64_t double_bookings = 0;  // room-nights held by two or more confirmed reservations
  int64_t lost = 0;             // accepted, but Q6 does not find them confirmed
  int64_t not_held = 0;         // a night not held by its reservation
  bool ok() const { return double_bookings == 0 && lost == 0 && not_held == 0; }
};

// Creates one client per worker (and one for Prepare and CheckIntegrity).
using BenchClientFactory = std::function<common::Result<std::unique_ptr<BenchClient>>()>;

class LoadBench {
 public:
  LoadBench(BenchClientFactory factory, BenchOptions options);

  // Discovers POIs, hotels and rooms and creates the guests. kNotFound when there is no hotel
  // (load data first); client errors otherwise.
  common::Status Prepare();
  size_t hotel_count() const { return hotels_.size(); }

  // One timed phase: closed loop when `rate` is 0, else open loop at `rate` ops/s in total.
  // Errors: only when a worker cannot get a client; failed operations are counted instead.
  // REQUIRES: Prepare succeeded.
  common::Result<BenchReport> Run(const std::string& name, double rate);

  // Reads back every booking kept so far (the file comment).
  common::Result<IntegrityReport> CheckIntegrity();

 private:
  struct Worker;
  struct Booked {
    std::string confirmation;
    std::string hotel_id;
    int16_t room_number = 0;
    Day check_in = 0;
    Day check_out = 0;
  };

  void RunOperation(Worker& worker, BenchOperation operation);

  BenchClientFactory factory_;
  BenchOptions options_;
  Day first_day_ = 0;
  std::vector<std::string> pois_;
  std::vector<std::string> hotels_;
  // Hotels with their room numbers (bookings and Q5 use the first `booking_hotels`).
  std::vector<std::pair<std::string, std::vector<int16_t>>> rooms_;
  std::vector<std::pair<std::string, std::string>> guests_;  // id, last name

  std::mutex booked_mutex_;
  std::vector<Booked> booked_;  // GUARDED_BY(booked_mutex_)
};

// What `hotel bench` does: Prepare, then one closed-loop phase (`rate` 0), or one open-loop
// phase at `rate` ops/s, or with `half_peak` a closed-loop phase followed by an open-loop one at
// half its throughput; prints each report and then the integrity check to `out`.
// Errors: Prepare's; kInternal when the integrity check fails (a double booking, a lost
// reservation or a stay not held) — operation errors are only reported.
common::Status RunBenchCommand(LoadBench& bench, double rate, bool half_peak, std::FILE* out);

// The report as a table: one row per operation that ran (count, ops/s, conflicts, errors,
// p50/p99/p99.9 in µs) and a total row.
std::string FormatBenchReport(BenchReport& report);

}  // namespace hotel
