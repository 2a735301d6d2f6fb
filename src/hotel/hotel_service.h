// HotelService: the reservation domain (docs/data-model.md) — the seeds' workflow Q1-Q9,
// availability for a stay, booking, cancel, change, guests, inventory and the repair pass —
// over `Repository` (and so over `cql::Session` only). The HTTP layer (`http_server.h`) calls
// one operation per endpoint of the API contract.
//
// Booking protocol (docs/data-model.md, "Booking, and what a crash leaves behind"):
//   1. A confirmation number is reserved with INSERT ... IF NOT EXISTS of a "pending" row in
//      `reservations_by_confirmation` (a collision retries with a new number).
//   2. One conditional batch on the hotel's availability partition flips every night of the
//      stay from free to held (`held_by` = the confirmation number, `held_at` = now). Two
//      concurrent bookings can never both hold a room-night: the batch is all-or-nothing.
//      With month buckets (`AvailabilityBucketing::kMonth`) a stay crossing a month boundary
//      spans two partitions: one conditional batch per partition, in month order, and the
//      earlier months are released again when a later one fails (Repository::ClaimNights).
//   3. One logged batch writes the reservation to the reservation tables (Q6, Q7, Q8 and the
//      front desk's Q11, "confirmed"), its first history row ("booked"), the guest and its
//      confirmation email in the outbox (notification.h; a change and a cancel likewise write
//      theirs in their batch).
// Lifecycle (domain.h): a reservation is never deleted. Every change of its state — change,
// cancel, check-in, check-out, no-show — rewrites its rows in the reservation tables (Q6-Q8, Q11)
// with the new status and appends its history row, in ONE logged batch (Repository::
// WriteReservation), so the history and the status never disagree. Transitions the status does
// not allow fail with InvalidTransition (HTTP 422) before anything is written.
// Invariants: (I1) a room-night is sold at most once: it is held by at most one confirmation
// number; (I2) the nights of a reservation whose status holds nights (HoldsNights: confirmed,
// changed, checked_in, checked_out) are all held by its number; (I3) a night held by a number
// whose reservation is missing, pending, cancelled, a no-show, or does not cover that night is
// an orphan hold — left by a crash or a failed compensation — and `RepairHolds` frees it once
// it is older than `hold_timeout`. A booking or change whose claim is older than half the hold
// timeout when it is about to write the reservation gives up (releasing its claim) instead, so the
// repair pass can never free the nights of a reservation still being written. The repair pass
// runs in the background every `repair_interval_millis` (RepairAll). Cancel and no-show write the
// reservation rows with their new status first, then free the nights (a crash in between leaves
// orphans, never a reservation without its nights). Change claims the new nights first (nights the
// old stay already holds are kept, not re-claimed), then rewrites the reservation rows, then frees
// the old nights the new stay does not use.
//
// Concurrent changes of one reservation (a cancel racing a check-in) are not serialized: each
// reads the status, checks its transition and writes; the later write's status wins and both
// events are in the history. (A conditional write cannot cover the batch: Cassandra allows
// conditions only within one partition of one table.)
//
// Errors (mapped to HTTP in one function, `http_router.cc`):
//   kInvalid -> 400, kNotFound -> 404, kAlreadyExists -> 409 "conflict",
//   kWriteFailure -> 409 "room_unavailable" (see RoomUnavailable),
//   kFunctionFailure -> 422 "invalid_transition" (see InvalidTransition), kUnavailable -> 503,
//   anything else -> 500.
//
// Thread-safety: thread-safe (the repository is; the confirmation-number generator is guarded
// by a mutex).

#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/result.h"
#include "common/uuid.h"
#include "hotel/domain.h"
#include "hotel/repair_scheduler.h"
#include "hotel/repository.h"

namespace hotel {

// The status of "a night of the stay is taken" (HTTP 409 room_unavailable).
common::Status RoomUnavailable(std::string message);

struct HotelServiceOptions {
  int max_stay_nights = 30;
  // A hold older than this without a confirmed reservation covering it is freed by RepairHolds.
  int64_t hold_timeout_millis = 10 * 60 * 1000;
  // Seeds the confirmation-number generator; 0 draws a random seed.
  uint64_t seed = 0;
  // Which availability table the service uses (`hotel serve/load --bucketing none|month`). The
  // service sets it on its repository. Both tables always exist; data written under one
  // setting is not visible under the other.
  AvailabilityBucketing availability_bucketing = AvailabilityBucketing::kNone;
  // How often a background thread runs RepairAll; 0: never (call RepairAll yourself).
  int64_t repair_interval_millis = 0;
};

// What one RepairAll pass did.
struct RepairReport {
  int hotels = 0;           // hotels scanned
  int nights_freed = 0;     // orphan holds freed
  int pending_removed = 0;  // stale "pending" confirmation rows deleted
};

struct Availability {
  std::string hotel_id;
  Day check_in = 0;
  Day check_out = 0;
  std::vector<RoomOffer> rooms;  // by room number
  // The nights of the stay whose inventory is not opened yet (no room has a row for them), in
  // order: no room can offer the stay until they are. Empty when every night is opened.
  std::vector<Day> not_opened;
  // Paged reads only (paging.h, invariant 5): the key of the last room, when more follow.
  std::optional<common::Bytes> paging_state;
};

struct RoomDetails {
  std::string hotel_id;
  Room room;
  Day rate_date = 0;
  Cents rate = 0;  // the night's rate when the night is open, else the room's base rate
  // Paged reads only: the paging state of the amenities when more may follow.
  std::optional<common::Bytes> paging_state;
};

struct BookingRequest {
  std::string hotel_id;
  int16_t room_number = 0;
  Day check_in = 0;
  Day check_out = 0;
  std::optional<common::Uuid> guest_id;          // an existing guest, or:
  std::optional<Guest> new_guest;                // a new guest (its guest_id is assigned)
  std::string actor = std::string(kGuestActor);  // who books, for the history
  // Whether the booking writes its confirmation email to the outbox (when the guest has a
  // mailable address). Off only for generated sample data, whose guests are not real.
  bool notify = true;
};

struct ChangeRequest {
  Day check_in = 0;
  Day check_out = 0;
  std::optional<int16_t> room_number;  // unset: keep the room
};

// What a change would cost (HotelService::QuoteChange): the reservation as it is and as the
// change would make it, priced night by night at the rates open now.
struct ChangeQuote {
  Reservation current;
  Reservation proposed;                    // status "changed", the new room, dates and total
  std::string room_type;                   // of the proposed room
  std::vector<NightlyRate> nightly_rates;  // of the proposed stay, one per night, in order
  Cents difference() const { return proposed.total - current.total; }
};

// --- The staff console (hotel_service_console.cc) ------------------------------------------

// What a room-night looks like on the occupancy grid.
enum class NightState {
  kNotOpened,   // no row: inventory not opened for that night
  kFree,        // open and for sale
  kBooked,      // held by a confirmed or changed reservation
  kCheckedIn,   // held by a reservation whose guest is in the house
  kCheckedOut,  // held by a reservation whose guest has left
  kHeld,        // held by a number with no reservation holding nights (a booking in flight or
                // an orphan the repair pass frees)
};
// "not_opened", "free", "booked", "checked_in", "checked_out", "held".
std::string_view NightStateName(NightState state);

struct OccupancyNight {
  NightState state = NightState::kNotOpened;
  Cents rate = 0;                   // the night's rate (0 when not opened)
  std::string confirmation_number;  // the holder, when held
  std::string guest_last_name;      // the holder's guest, when a reservation holds it
};

struct OccupancyRoom {
  Room room;                           // without amenities
  std::vector<OccupancyNight> nights;  // one per day of the grid
};

// A hotel's rooms over `days` consecutive nights from `start` (Q4's rows, with the status of
// each holder's reservation).
struct Occupancy {
  std::string hotel_id;
  Day start = 0;
  int days = 0;
  std::vector<OccupancyRoom> rooms;  // by room number
  // Paged reads only: the paging state of `rooms_by_hotel` when more rooms follow.
  std::optional<common::Bytes> paging_state;
};

// Limits of the console's requests (the router answers 400 beyond them).
inline constexpr int kMaxOccupancyDays = 31;
inline constexpr int kMaxHotelPageSize = kMaxPageSize;
inline constexpr int kMaxRateChangeDays = 731;

class HotelService {
 public:
  // Sets the repository's availability table to `options.availability_bucketing` and starts
  // the background repair pass when `options.repair_interval_millis` > 0.
  // REQUIRES: `repository` outlives the service and is not in use by other threads yet.
  HotelService(Repository* repository, HotelServiceOptions options);
  // Stops the background repair pass (StopRepair).
  ~HotelService();
  HotelService(const HotelService&) = delete;
  HotelService& operator=(const HotelService&) = delete;

  // --- Reads -------------------------------------------------------------------------------
  // Every list read also comes with a PageRequest: one page of the list, and the paging state
  // to continue from (paging.h; hotel_service_paging.cc). A paging state the database refuses
  // is CursorRefused (kInvalid).
  common::Result<std::vector<Poi>> ListPois();
  common::Result<Page<Poi>> ListPois(const PageRequest& page);
  // Q1. kNotFound for an unknown POI.
  common::Result<Repository::PoiHotels> HotelsNearPoi(const std::string& poi_name,
                                                      const PageRequest& page = {});
  // Q2. kNotFound for an unknown hotel.
  common::Result<Hotel> GetHotel(const std::string& hotel_id);
  // Q3 (empty for an unknown hotel).
  common::Result<std::vector<Poi>> HotelPois(const std::string& hotel_id);
  common::Result<Page<Poi>> HotelPois(const std::string& hotel_id, const PageRequest& page);
  // Q4: rooms free on every night of [check_in, check_out), with nightly rates and totals.
  // kInvalid for a bad stay (see ValidateStay); kNotFound for an unknown hotel.
  common::Result<Availability> FindAvailability(const std::string& hotel_id, Day check_in,
                                                Day check_out);
  // One page of the rooms, by room number (paging.h, invariant 5: a room qualifies only once
  // every night of the range is read, so the range is read whole and paged by room number).
  common::Result<Availability> FindAvailability(const std::string& hotel_id, Day check_in,
                                                Day check_out, const PageRequest& page);
  // Q5: the room's type, amenities and rate on `date` (default today). kNotFound when unknown.
  // With `page`, one page of its amenities (`amenities_by_room`'s paging state).
  common::Result<RoomDetails> GetRoom(const std::string& hotel_id, int16_t room_number,
                                      std::optional<Day> date, const PageRequest& page = {});
  // Q6, in any status (a cancelled reservation stays readable). `confirmation` in any case
  // (CanonicalConfirmation), here and in every call below that takes one. kNotFound when
  // unknown (or still pending). With `guest_last_name`, also kNotFound —
  // the same status, message included — unless the reservation's guest has that last name
  // (any case, surrounding blanks ignored), so a number cannot be probed without the name.
  common::Result<Reservation> GetReservation(
      const std::string& confirmation,
      const std::optional<std::string>& guest_last_name = std::nullopt);
  // Q7: stays starting on `date`, of guests with that last name when given (any case).
  common::Result<std::vector<Reservation>> ReservationsByHotelDate(
      const std::string& hotel_id, Day date, const std::optional<std::string>& last_name);
  common::Result<Page<Reservation>> ReservationsByHotelDate(
      const std::string& hotel_id, Day date, const std::optional<std::string>& last_name,
      const PageRequest& page);
  // Q8: a guest's reservations by last name (and first name when given; any case).
  common::Result<std::vector<Reservation>> ReservationsByGuest(
      const std::string& last_name, const std::optional<std::string>& first_name);
  common::Result<Page<Reservation>> ReservationsByGuest(
      const std::string& last_name, const std::optional<std::string>& first_name,
      const PageRequest& page);
  // Q9. kNotFound when unknown.
  common::Result<Guest> GetGuest(const common::Uuid& guest_id);
  // Q6 and Q10: the reservation and its history, oldest first. kNotFound as GetReservation.
  // With `page`, one page of the events (and the reservation on every page).
  struct ReservationHistory {
    Reservation reservation;
    std::vector<ReservationEvent> events;
    std::optional<common::Bytes> paging_state;  // when more events may follow
  };
  common::Result<ReservationHistory> History(
      const std::string& confirmation,
      const std::optional<std::string>& guest_last_name = std::nullopt,
      const PageRequest& page = {});

  // --- Reservations ------------------------------------------------------------------------
  // Books a stay (header comment). kNotFound for an unknown hotel, room or guest; kInvalid for
  // a bad stay or guest; RoomUnavailable when a night is taken or not open.
  common::Result<Reservation> Book(const BookingRequest& request);
  // Cancels, keeping the reservation (status "cancelled", history row "cancelled" by `actor`)
  // and freeing its nights; returns it. kNotFound when unknown, or when `guest_last_name` is
  // given and is not the guest's (as GetReservation); InvalidTransition unless confirmed or
  // changed.
  common::Result<Reservation> Cancel(
      const std::string& confirmation,
      const std::optional<std::string>& guest_last_name = std::nullopt,
      const std::string& actor = std::string(kGuestActor));
  // Moves a reservation to new dates (and room); its status becomes "changed" and the history
  // row says from what to what. RoomUnavailable leaves the old stay intact. kNotFound and
  // InvalidTransition as Cancel.
  common::Result<Reservation> Change(
      const std::string& confirmation, const ChangeRequest& request,
      const std::optional<std::string>& guest_last_name = std::nullopt,
      const std::string& actor = std::string(kGuestActor));
  // Prices moving a reservation to `request`'s stay without changing anything: the checks and
  // errors of Change (kInvalid, kNotFound, InvalidTransition, RoomUnavailable for a night
  // another reservation holds or that is not open) and the total Change would charge now. A
  // quote holds nothing: the room may be taken before the change is made.
  common::Result<ChangeQuote> QuoteChange(
      const std::string& confirmation, const ChangeRequest& request,
      const std::optional<std::string>& guest_last_name = std::nullopt);
  // A front-desk event, by staff user `actor`: kCheckedIn, kCheckedOut or kNoShow (a no-show
  // frees the stay's nights, as a cancel). Returns the reservation with its new status.
  // kNotFound when unknown; InvalidTransition when the status does not allow it (domain.h);
  // kInvalid for another action.
  common::Result<Reservation> RecordStayEvent(const std::string& confirmation,
                                              ReservationAction action, const std::string& actor);
  // Frees the orphan holds (invariant I3) of a hotel older than the hold timeout, as of
  // `now_millis`, on nights from the day before `now_millis` on (older nights are past
  // selling), deleting the pending confirmation rows of the numbers holding them. Reads the
  // hotel's availability partition (every month partition from that day on when bucketed).
  // Returns the number of nights freed.
  common::Result<int> RepairHolds(const std::string& hotel_id, int64_t now_millis);
  // The whole repair pass: RepairHolds for every hotel, then deletes every "pending"
  // confirmation row older than the hold timeout (a booking that died before claiming, or
  // whose compensation failed). Full-table reads: meant for the background, not requests.
  // After StopRepair it stops before the next hotel and returns what it did so far.
  common::Result<RepairReport> RepairAll(int64_t now_millis);
  // Stops the background repair pass: a running pass ends at its next hotel (a whole pass over
  // a cluster can take a minute; a shutdown waits for one hotel at most), and RepairAll does no
  // more work. Idempotent; the destructor calls it.
  void StopRepair();

  // --- Guests and inventory ---------------------------------------------------------------
  // Creates a guest with a new id. kInvalid without first and last name.
  common::Result<Guest> CreateGuest(Guest guest);
  // Replaces a guest. kNotFound when unknown. When its addresses change, its reservations'
  // Q12 rows move from the removed addresses to the added ones in the same logged batch as
  // the guest's row.
  common::Result<Guest> UpdateGuest(const common::Uuid& guest_id, Guest guest);
  // Q12: the reservations (any status) of the guests with the address `email`, any case,
  // surrounding blanks ignored (CanonicalEmail), by arrival date. kInvalid when blank.
  common::Result<std::vector<Reservation>> ReservationsByGuestEmail(const std::string& email);
  common::Result<Page<Reservation>> ReservationsByGuestEmail(const std::string& email,
                                                             const PageRequest& page);
  // kAlreadyExists when the id is taken; kInvalid for an unknown POI name or a bad id.
  common::Result<Hotel> CreateHotel(Hotel hotel);
  common::Status CreatePoi(const Poi& poi);
  // Adds or replaces a room. kNotFound for an unknown hotel.
  common::Status AddRoom(const std::string& hotel_id, const Room& room);
  // Opens every room of the hotel on the nights [start, end) not opened yet, at `rate` or the
  // room's base rate. Returns the number of room-nights opened.
  common::Result<int> OpenAvailability(const std::string& hotel_id, Day start, Day end,
                                       std::optional<Cents> rate);

  // --- The staff console (hotel_service_console.cc) ---------------------------------------
  // One page of hotels (Repository::ListHotels): at most `page_size` (1..kMaxHotelPageSize),
  // continuing after `paging_state` when set. kInvalid for a paging state the database refuses.
  common::Result<Repository::HotelPage> ListHotels(int page_size,
                                                   std::optional<common::Bytes> paging_state);
  // The occupancy grid: every room of the hotel over [start, start + days), days in
  // 1..kMaxOccupancyDays. One range read of Q4's table (per month when bucketed), the rooms,
  // and Q6 once per distinct holder. kNotFound for an unknown hotel.
  // With `page`, the grid of one page of the rooms (`rooms_by_hotel`'s paging state).
  common::Result<Occupancy> GetOccupancy(const std::string& hotel_id, Day start, int days,
                                         const PageRequest& page = {});
  // Q11: stays ending on `date` (departures) / staying the night of `date` (in house:
  // check_in <= date < check_out), by room number; cancelled and no-show stays left out.
  // kNotFound for an unknown hotel.
  // With `page`, one page of each (paging.h, invariant 4: a filtered read of Q11).
  common::Result<std::vector<Reservation>> Departures(const std::string& hotel_id, Day date);
  common::Result<std::vector<Reservation>> InHouse(const std::string& hotel_id, Day date);
  common::Result<Page<Reservation>> Departures(const std::string& hotel_id, Day date,
                                               const PageRequest& page);
  common::Result<Page<Reservation>> InHouse(const std::string& hotel_id, Day date,
                                            const PageRequest& page);
  // Sets the rate of the opened nights of [start, end) to `rate`, of one room or of every room.
  // Booked nights change too (for later bookings; a reservation's total is fixed when booked).
  // Returns the nights changed: 0 when none of them is opened. kNotFound for an unknown hotel
  // or room; kInvalid unless start < end, end - start <= kMaxRateChangeDays and rate > 0.
  common::Result<int> ChangeRates(const std::string& hotel_id, Day start, Day end, Cents rate,
                                  std::optional<int16_t> room_number);

  // Ok when the database answers a cheap query now (Repository::Ping); kUnavailable (or the
  // database's error) otherwise. Blocks as long as the session does: bound it with a
  // ReadinessProbe.
  common::Status CheckDatabase() { return repository_->Ping(); }

  // kInvalid unless check_in < check_out and the stay has at most max_stay_nights nights.
  common::Status ValidateStay(Day check_in, Day check_out) const;
  const HotelServiceOptions& options() const { return options_; }

 private:
  std::string NewNumber();
  // The rows of `room` for the nights of [check_in, check_out) (missing nights absent).
  common::Result<std::vector<RoomNight>> NightsOfRoom(const std::string& hotel_id,
                                                      int16_t room_number, Day check_in,
                                                      Day check_out);
  // What Change and QuoteChange share: the reservation as read (`old`), as it would be after
  // the change (`updated`: status, room, dates and total), and the rows of its new nights, all
  // open and free or already its own. Errors as QuoteChange.
  struct PlannedChange {
    Reservation old;
    Reservation updated;
    std::vector<RoomNight> nights;
  };
  common::Result<PlannedChange> PlanChange(const std::string& confirmation,
                                           const ChangeRequest& request,
                                           const std::optional<std::string>& guest_last_name);
  // Every reservation of `guest` (by confirmation number): Q12 under one of its addresses and
  // Q8 under its name, rows of other guests left out. For UpdateGuest.
  common::Result<std::vector<Reservation>> ReservationsOfGuest(const Guest& guest);
  // Reserves a fresh confirmation number for `pending`, filling in its number.
  common::Status ReserveNumber(Reservation& pending, int64_t now_millis);
  // A history row for `reservation` (in its new status) with a fresh event id.
  ReservationEvent NewEvent(const Reservation& reservation, ReservationAction action,
                            const std::string& actor, std::string details);
  // Writes `reservation`'s new status with its history row, then frees its nights when the new
  // status no longer holds them (cancel, no-show).
  common::Status WriteTransition(const Reservation& reservation, ReservationAction action,
                                 const std::string& actor);

  Repository* repository_;
  HotelServiceOptions options_;
  std::mutex random_mutex_;
  std::mt19937_64 random_;  // GUARDED_BY(random_mutex_)
  common::SystemClock clock_;
  common::TimeuuidGenerator event_ids_{&clock_};  // history event ids (thread-safe)
  std::atomic<bool> repair_stopped_{false};
  std::unique_ptr<RepairScheduler> repair_;  // last: stopped first
};

}  // namespace hotel
