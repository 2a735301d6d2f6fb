// The relational peer behind the hotel benchmark's two seams: `PgBenchClient` is a
// `hotel::BenchClient` (load_bench_client.h) on one PgHotel, so `hotel::LoadBench` drives
// PostgreSQL with the same mixes, weights, workers and integrity check as `hotel bench`; and
// `PgLoadSink` is a `hotel::GeneratorSink` (data_generator.h), so PostgreSQL gets exactly the
// sample `hotel load` writes.
//
// Thread-safety: a PgBenchClient is not (one per worker, as BenchClient says); PgLoadSink is
// (a pool of connections, one lent to each call).

#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bench/peer/pg_hotel.h"
#include "hotel/data_generator.h"
#include "hotel/load_bench_client.h"

namespace peer {

class PgBenchClient : public hotel::BenchClient {
 public:
  explicit PgBenchClient(std::unique_ptr<PgHotel> store) : store_(std::move(store)) {}

  common::Result<std::vector<std::string>> ListPois() override { return store_->ListPois(); }
  common::Result<std::vector<std::string>> HotelsNearPoi(const std::string& poi) override {
    return store_->HotelsNearPoi(poi);
  }
  common::Status GetHotel(const std::string& hotel_id) override {
    return store_->GetHotel(hotel_id);
  }
  common::Status HotelPois(const std::string& hotel_id) override {
    return store_->HotelPois(hotel_id);
  }
  common::Result<std::vector<int16_t>> Availability(const std::string& hotel_id,
                                                    hotel::Day check_in,
                                                    hotel::Day check_out) override {
    return store_->Availability(hotel_id, check_in, check_out);
  }
  common::Status GetRoom(const std::string& hotel_id, int16_t room_number,
                         hotel::Day date) override {
    return store_->GetRoom(hotel_id, room_number, date);
  }
  common::Result<hotel::BookedStay> GetReservation(const std::string& confirmation) override {
    return store_->GetReservation(confirmation);
  }
  common::Status ReservationsByHotelDate(const std::string& hotel_id, hotel::Day date) override {
    return store_->ReservationsByHotelDate(hotel_id, date);
  }
  common::Status ReservationsByGuest(const std::string& last_name) override {
    return store_->ReservationsByGuest(last_name);
  }
  common::Status GetGuest(const std::string& guest_id) override {
    return store_->GetGuest(guest_id);
  }
  // A new guest with a random id and one e-mail address, as the service creates it.
  common::Result<std::string> CreateGuest(const std::string& first_name,
                                          const std::string& last_name) override;
  common::Result<std::string> Book(const std::string& hotel_id, int16_t room_number,
                                   hotel::Day check_in, hotel::Day check_out,
                                   const std::string& guest_id) override {
    return store_->Book(hotel_id, room_number, check_in, check_out, guest_id);
  }
  common::Status Cancel(const std::string& confirmation) override {
    return store_->Cancel(confirmation);
  }
  common::Result<bool> StayHeld(const hotel::BookedStay& stay) override {
    return store_->StayHeld(stay);
  }

 private:
  std::unique_ptr<PgHotel> store_;
};

class PgLoadSink : public hotel::GeneratorSink {
 public:
  // Opens connections on demand (at most one per concurrent caller) with `conninfo`; loads
  // with synchronous_commit off. `seed` seeds the confirmation numbers.
  PgLoadSink(std::string conninfo, uint64_t seed) : conninfo_(std::move(conninfo)), seed_(seed) {}

  common::Status InsertPoi(const hotel::Poi& poi) override;
  common::Status InsertHotel(const hotel::Hotel& hotel,
                             const std::vector<hotel::Poi>& pois) override;
  common::Status InsertRoom(const std::string& hotel_id, const hotel::Room& room) override;
  common::Status WriteNights(const std::string& hotel_id,
                             const std::vector<hotel::RoomNight>& nights) override;
  common::Status UpsertGuest(const hotel::Guest& guest) override;
  common::Status Book(const hotel::BookingRequest& request) override;

 private:
  // Runs `work` on a pooled store (connecting a new one when none is free).
  common::Status WithStore(const std::function<common::Status(PgHotel&)>& work);

  std::string conninfo_;
  uint64_t seed_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<PgHotel>> free_;  // GUARDED_BY(mutex_)
  uint64_t opened_ = 0;                         // GUARDED_BY(mutex_)
};

}  // namespace peer
