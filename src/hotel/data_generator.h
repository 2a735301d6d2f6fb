// DataGenerator: a deterministic sample of the hotel domain (`hotel load`, and the sample
// `hotel serve` loads into an empty keyspace): points of interest with descriptions, hotels
// with addresses near them, rooms with types, base rates and amenities, nightly availability
// with weekend rates, guests, and reservations booked through `HotelService` (so their nights
// are held exactly as live bookings are).
//
// Scales: "small" (the default: 20 hotels x 30 rooms x 90 days, seconds) and "seed" (the
// seeds' sizing: 5,000 hotels x 100 rooms x 730 days = 365M availability rows), or explicit
// counts in `GeneratorOptions`.
//
// Write path (the bulk of the rows is availability): hotels are spread over
// `GeneratorOptions::threads` writer threads; each writes its hotel's nights with the
// repository's prepared INSERTs in UNLOGGED batches of about `rows_per_batch` rows, every batch
// inside one partition (whole days of one hotel, never crossing a month, so a month-bucketed
// layout also gets one partition per batch). Memory is bounded by one batch per thread plus
// the hotel ids and guest ids (16 bytes per guest), whatever the scale.
//
// Deterministic: every hotel, room, rate and guest is drawn from a generator seeded by
// (`seed`, its index), so the data does not depend on the number of threads or their timing;
// reservations are drawn in one sequence and booked per hotel in order, so which of them
// succeed is deterministic too. The confirmation numbers come from the service's own
// generator (`HotelServiceOptions::seed`). The availability window starts at
// `GeneratorOptions::first_day` (0: today).
//
// Where the rows go is a `GeneratorSink`: `Generate(Repository&, HotelService&, ...)` writes
// them through the repository and books through the service (`hotel load`); another sink can
// store the same sample elsewhere (bench/peer/ loads it into PostgreSQL for the relational
// peer).
//
// Thread-safety: `Generate` may be called concurrently only on different keyspaces; it runs
// its own writer threads and calls `progress` from the calling thread only.

#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "common/result.h"
#include "hotel/hotel_service.h"
#include "hotel/repository.h"

namespace hotel {

struct GeneratorProgress {
  int64_t rows_done = 0;
  int64_t rows_total = 0;  // planned (PlannedRows); rows_done may end slightly different
  double seconds = 0;      // since Generate started
  bool finished = false;   // the last call
};

struct GeneratorOptions {
  int hotels = 20;
  int rooms_per_hotel = 30;
  int pois = 60;
  int days = 90;
  int guests = 200;
  int reservations = 100;
  uint64_t seed = 42;
  Day first_day = 0;  // 0: today
  int threads = 2;    // writer threads
  int rows_per_batch = 1000;
  // Called from the calling thread about every `progress_interval_millis` and once at the end
  // (finished = true); may be empty.
  std::function<void(const GeneratorProgress&)> progress;
  int progress_interval_millis = 250;
};

// The options of a named scale: "small" (the defaults) or "seed". kInvalid for other names.
common::Result<GeneratorOptions> GeneratorOptionsForScale(const std::string& scale);

// kInvalid (naming the field) unless 0 <= counts, 1 <= rooms_per_hotel <= 3000 (room numbers
// are smallint), hotels <= 1,000,000, days <= 3660, 1 <= threads <= 64, 1 <= rows_per_batch
// <= 65535, and there is at least one POI when there are hotels.
common::Status ValidateGeneratorOptions(const GeneratorOptions& options);

// About the rows Generate will write (the progress bar's total): exact for availability, POIs
// and guests; hotels, rooms and reservations are estimated (POI links, amenities, successes).
int64_t PlannedRows(const GeneratorOptions& options);

struct GeneratorReport {
  int64_t rows = 0;                 // rows written, in every table
  int64_t availability_rows = 0;    // of which `available_rooms_by_hotel_date`
  int reservations = 0;             // bookings that succeeded
  double seconds = 0;               // wall time of the whole load
  double availability_seconds = 0;  // wall time of the hotels / rooms / availability phase
};

// Receives the sample, in this order: the POIs; then, from up to `threads` writer threads at
// once, each hotel (with its POIs), its rooms and its nights in batches; the guests (writer
// threads again); the reservations last, from up to `threads` threads, each hotel's in draw
// order. Implementations must be thread-safe. Each call returns Ok, or the error that stops
// the load; `Book` returns kWriteFailure when a night is taken (the generator draws stays that
// never overlap, so it is not expected) and the load goes on.
class GeneratorSink {
 public:
  virtual ~GeneratorSink() = default;
  virtual common::Status InsertPoi(const Poi& poi) = 0;
  // `pois` carries the descriptions of `hotel.pois`.
  virtual common::Status InsertHotel(const Hotel& hotel, const std::vector<Poi>& pois) = 0;
  virtual common::Status InsertRoom(const std::string& hotel_id, const Room& room) = 0;
  // Free nights of one hotel: whole days, never across a month.
  virtual common::Status WriteNights(const std::string& hotel_id,
                                     const std::vector<RoomNight>& nights) = 0;
  virtual common::Status UpsertGuest(const Guest& guest) = 0;
  virtual common::Status Book(const BookingRequest& request) = 0;
};

// Generates the sample into `sink` (the file comment). Errors: ValidateGeneratorOptions's, or
// the first error of the sink (the load stops; what was written stays).
common::Result<GeneratorReport> Generate(GeneratorSink& sink, const GeneratorOptions& options);

// Writes the sample through `repository` and books its reservations through `service`
// (the file comment). Errors: ValidateGeneratorOptions's, or the first write error (the load
// stops; what was written stays).
// REQUIRES: `service` uses `repository`; the schema exists.
common::Result<GeneratorReport> Generate(Repository& repository, HotelService& service,
                                         const GeneratorOptions& options);

}  // namespace hotel
