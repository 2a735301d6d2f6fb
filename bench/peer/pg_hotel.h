// PgHotel: the hotel domain on PostgreSQL, designed the relational way, for the peer
// comparison (`make bench-peer`, scripts/bench-peer, docs/benchmarks.md). It is what a
// PostgreSQL designer would write for the same service: one normalized schema (kPgHotelSchema)
// with primary keys, foreign keys and the indexes the queries need, every query a prepared
// statement, joins instead of denormalized copies, and transactions instead of lightweight
// transactions.
//
// The schema (`hotel` schema of the database):
//   pois(poi_name PK)                      hotels(hotel_id PK, address columns)
//   hotel_pois(hotel_id, poi_name)         PK + index (poi_name, hotel_id) for Q1
//   rooms(hotel_id, room_number)           with room_type and base_rate (a room's rate)
//   room_amenities(hotel, room, name)      Q5
//   room_nights(hotel_id, night, room)     nightly inventory: the night's price (rates vary by
//                                          night: weekends, and any rate a night was opened
//                                          at) and booked_by, the reservation holding it;
//                                          PK ordered for Q4's range of nights of one hotel
//   guests(guest_id PK)                    emails and phones as text[]; index on the folded
//                                          (lower-cased) last and first names for Q8
//   guest_addresses(guest_id, kind)        a guest's addresses
//   reservations(confirmation_number PK)   indexes (hotel_id, check_in) for Q7, guest_id for Q8
//   reservation_events(confirmation, id)   the history (Q10), one row per change
//
// Booking (concurrency control): one READ COMMITTED transaction inserts the reservation and
// claims its nights with `UPDATE room_nights SET booked_by = $number WHERE ... AND booked_by IS
// NULL`; a concurrent claim of the same night waits for the row lock and re-checks the WHERE
// after the other commits, so it updates fewer rows than the stay has nights and the booking
// rolls back (RoomUnavailable). Two reservations can never hold one room-night. A deadlock
// (40P01) or a confirmation number already taken (23505) retries. Cancel is one statement
// (data-modifying CTEs): the status, the nights released and the history row together.
//
// Thread-safety: NOT thread-safe (it owns one connection); one per thread.

#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/peer/pg_connection.h"
#include "common/result.h"
#include "hotel/domain.h"
#include "hotel/load_bench_client.h"

namespace peer {

// The DDL (drops and recreates the `hotel` schema).
extern const char* const kPgHotelSchema;

// What the SQL-side integrity check counts over every reservation (none must be non-zero).
struct PgIntegrity {
  int64_t reservations = 0;
  int64_t double_booked_nights = 0;  // room-nights covered by two or more live reservations
  int64_t stays_not_held = 0;        // live reservations not holding every night of the stay
  int64_t stray_holds = 0;  // nights held by a reservation that is not live or does not cover
                            // them
  bool ok() const { return double_booked_nights == 0 && stays_not_held == 0 && stray_holds == 0; }
};

class PgHotel {
 public:
  // Connects, sets `synchronous_commit` ("on" or "off") for the session and prepares every
  // statement. REQUIRES: the schema exists (CreateSchema). `seed` seeds the confirmation
  // numbers.
  static common::Result<std::unique_ptr<PgHotel>> Connect(const std::string& conninfo,
                                                          const std::string& synchronous_commit,
                                                          uint64_t seed);
  // Drops and recreates the schema.
  static common::Status CreateSchema(PgConnection& connection);

  // --- Loading (the generator's rows) ---
  common::Status InsertPoi(const hotel::Poi& poi);
  common::Status InsertHotel(const hotel::Hotel& hotel);
  common::Status InsertRoom(const std::string& hotel_id, const hotel::Room& room);
  // COPY of free nights.
  common::Status CopyNights(const std::string& hotel_id,
                            const std::vector<hotel::RoomNight>& nights);
  // Inserts or replaces the guest's row and upserts its addresses (an address no longer in
  // `guest.addresses` stays: the generator and the benchmark only create guests).
  common::Status UpsertGuest(const hotel::Guest& guest);

  // --- The workflow (hotel::BenchClient's operations, same contracts) ---
  common::Result<std::vector<std::string>> ListPois();
  common::Result<std::vector<std::string>> HotelsNearPoi(const std::string& poi);
  common::Status GetHotel(const std::string& hotel_id);
  common::Status HotelPois(const std::string& hotel_id);
  common::Result<std::vector<int16_t>> Availability(const std::string& hotel_id,
                                                    hotel::Day check_in, hotel::Day check_out);
  common::Status GetRoom(const std::string& hotel_id, int16_t room_number, hotel::Day date);
  common::Result<hotel::BookedStay> GetReservation(const std::string& confirmation);
  common::Status ReservationsByHotelDate(const std::string& hotel_id, hotel::Day date);
  common::Status ReservationsByGuest(const std::string& last_name);
  common::Status GetGuest(const std::string& guest_id);
  // Books (the file comment); the confirmation number. RoomUnavailable (kWriteFailure) when a
  // night is taken or not open; kNotFound for an unknown room or guest.
  common::Result<std::string> Book(const std::string& hotel_id, int16_t room_number,
                                   hotel::Day check_in, hotel::Day check_out,
                                   const std::string& guest_id);
  // kNotFound when unknown; InvalidTransition unless confirmed or changed.
  common::Status Cancel(const std::string& confirmation);
  common::Result<bool> StayHeld(const hotel::BookedStay& stay);

  // The SQL-side integrity check over every reservation.
  common::Result<PgIntegrity> CheckIntegrity();

  PgConnection& connection() { return *connection_; }

 private:
  PgHotel(std::unique_ptr<PgConnection> connection, uint64_t seed)
      : connection_(std::move(connection)), random_(seed) {}
  common::Status PrepareAll();
  // One attempt of Book in its own transaction; kAlreadyExists when the number is taken,
  // kUnavailable on a deadlock.
  common::Result<std::string> TryBook(const std::vector<std::string>& stay);

  std::unique_ptr<PgConnection> connection_;
  std::mt19937_64 random_;
};

}  // namespace peer
