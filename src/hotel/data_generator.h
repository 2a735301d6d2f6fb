// DataGenerator: a deterministic sample of the hotel domain (`hotel load`, and the sample
// `hotel serve` loads into an empty keyspace): points of interest with descriptions, hotels
// with addresses near them, rooms with types, base rates and amenities, nightly availability
// with seasonal/weekend rates, guests, and reservations booked through `HotelService` (so
// their nights are held exactly as live bookings are).
//
// Deterministic: the same seed and scale give the same hotels, rooms, rates and guests (the
// guest ids and confirmation numbers come from the same seeded generator); the availability
// window starts at `GeneratorOptions::first_day`.
//
// Thread-safety: not thread-safe; one Generate call at a time.

#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "common/result.h"
#include "hotel/hotel_service.h"
#include "hotel/repository.h"

namespace hotel {

struct GeneratorOptions {
  int hotels = 20;
  int rooms_per_hotel = 30;
  int pois = 60;
  int days = 90;
  int guests = 200;
  int reservations = 100;
  uint64_t seed = 42;
  Day first_day = 0;  // 0: today
  // Called after each hotel with (hotels done, hotels total); may be empty.
  std::function<void(int, int)> progress;
};

// The options of a named scale: "small" (the defaults). kInvalid for other names.
common::Result<GeneratorOptions> GeneratorOptionsForScale(const std::string& scale);

struct GeneratorReport {
  int64_t rows = 0;  // rows written (approximate: availability + inventory + reservations)
  int reservations = 0;
};

// Writes the sample through `repository` and books its reservations through `service`.
common::Result<GeneratorReport> Generate(Repository& repository, HotelService& service,
                                         const GeneratorOptions& options);

}  // namespace hotel
