// The hotel service's domain values (docs/data-model.md): hotels, points of interest, rooms,
// nightly availability, guests and reservations, plus the small value helpers every other file
// of `hotel/` shares — calendar dates, money in cents, name folding and confirmation numbers.
//
// These are plain structs: the repository (`repository.h`) fills them from CQL rows, the
// service (`hotel_service.h`) computes with them and the HTTP layer (`http_json.h`) turns them
// into the JSON of the API contract.
//
// Thread-safety: values only; the free functions are stateless and safe to call concurrently
// (`NewConfirmationNumber` takes the caller's generator).

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "common/uuid.h"

namespace hotel {

// A calendar day as days since 1970-01-01 (negative before).
using Day = int64_t;

// Parses a strict "YYYY-MM-DD" date (years 1000-9999). Errors: kInvalid.
common::Result<Day> ParseDay(std::string_view text);
// "YYYY-MM-DD".
std::string FormatDay(Day day);
// Today in UTC.
Day Today();

// The availability table's design (docs/data-model.md, "Partition sizes"):
//   kNone  — `available_rooms_by_hotel_date`, one partition per hotel (the seeds' design);
//   kMonth — `available_rooms_by_hotel_month`, one partition per hotel and calendar month (the
//            seeds' refinement): a stay reads and claims one partition per month it touches.
enum class AvailabilityBucketing { kNone, kMonth };
// "none" / "month".
std::string_view BucketingName(AvailabilityBucketing bucketing);
// Parses "none" or "month". Errors: kInvalid.
common::Result<AvailabilityBucketing> ParseBucketing(std::string_view text);

// The month bucket of a day, as the seeds' integer `month` column: year * 100 + month
// (2026-12-03 -> 202612), so buckets sort in calendar order.
int32_t MonthOf(Day day);
// The first day of the month after `day`'s month (2026-12-03 -> 2027-01-01).
Day NextMonthStart(Day day);

// An amount of money in cents (the API's "129.00").
using Cents = int64_t;
// Parses "129", "129.5" or "129.00" (at most 2 fraction digits, no sign, < 10^12).
// Errors: kInvalid.
common::Result<Cents> ParseMoney(std::string_view text);
// "129.00".
std::string FormatMoney(Cents cents);

inline constexpr std::string_view kCurrency = "EUR";

// The key a guest name is searched by: trimmed and ASCII-lower-cased ("  Nguyen" -> "nguyen"),
// so lookups ignore case.
std::string FoldName(std::string_view name);

// The confirmation-number alphabet: digits and capitals without 0/O/1/I/L, easy to read aloud.
inline constexpr std::string_view kConfirmationAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
inline constexpr size_t kConfirmationLength = 6;
// A random confirmation number of kConfirmationLength characters from the alphabet.
std::string NewConfirmationNumber(std::mt19937_64& generator);
// True when `text` is 6-8 characters of the alphabet (input validation).
bool IsConfirmationNumber(std::string_view text);
// The form a confirmation number is stored and looked up in: ASCII letters upper-cased
// ("k7w3rq" -> "K7W3RQ"), so every API call takes a number in any case (numbers are issued in
// capitals). Other bytes are kept as they are.
std::string CanonicalConfirmation(std::string_view text);
// The form an email address is searched by (Q12, `reservations_by_guest_email`): trimmed of
// blanks and ASCII-lower-cased ("  Ada@Example.COM " -> "ada@example.com"). The service computes
// it once, where it writes or reads the table; the guest's record keeps the spelling given.
std::string CanonicalEmail(std::string_view text);
// The distinct canonical forms of `emails`, sorted, without empty ones.
std::vector<std::string> CanonicalEmails(const std::vector<std::string>& emails);

struct Address {
  std::string street;
  std::string city;
  std::string state_or_province;
  std::string postal_code;
  std::string country;
  bool operator==(const Address&) const = default;
};

struct Poi {
  std::string name;
  std::string description;
  bool operator==(const Poi&) const = default;
};

struct Hotel {
  std::string hotel_id;
  std::string name;
  std::string phone;
  Address address;
  std::vector<std::string> pois;  // names, sorted (the seeds' `hotels.pois` set)
  bool operator==(const Hotel&) const = default;
};

struct Amenity {
  std::string name;
  std::string description;
  bool operator==(const Amenity&) const = default;
};

struct Room {
  int16_t room_number = 0;
  std::string room_type;
  Cents base_rate = 0;
  std::vector<Amenity> amenities;
};

// One row of `available_rooms_by_hotel_date`.
struct RoomNight {
  Day date = 0;
  int16_t room_number = 0;
  bool is_available = false;
  Cents rate = 0;
  std::string room_type;
  std::string held_by;  // confirmation number holding the night ("" when free)
  int64_t held_at_millis = 0;
};

struct NightlyRate {
  Day date = 0;
  Cents rate = 0;
};

// A room free on every night of a stay (Q4 answer).
struct RoomOffer {
  int16_t room_number = 0;
  std::string room_type;
  std::vector<NightlyRate> nightly_rates;
  Cents total = 0;
};

struct Guest {
  common::Uuid guest_id;
  std::string first_name;
  std::string last_name;
  std::string title;
  std::vector<std::string> emails;         // a set: sorted, unique
  std::vector<std::string> phone_numbers;  // a list: in order
  std::map<std::string, Address> addresses;
  bool operator==(const Guest&) const = default;
};

// --- The reservation lifecycle (docs/data-model.md, "The life of a reservation") ----------
//
//   booked ──> confirmed ──change──> changed (change again: changed)
//   confirmed | changed ──cancel──> cancelled      (nights released)
//   confirmed | changed ──no-show──> no_show       (nights released)
//   confirmed | changed ──check-in──> checked_in ──check-out──> checked_out
//
// A reservation is never deleted: every status stays readable, and every change appends one
// row to its history (`reservation_history_by_confirmation`).
inline constexpr std::string_view kStatusPending = "pending";
inline constexpr std::string_view kStatusConfirmed = "confirmed";
inline constexpr std::string_view kStatusChanged = "changed";
inline constexpr std::string_view kStatusCancelled = "cancelled";
inline constexpr std::string_view kStatusCheckedIn = "checked_in";
inline constexpr std::string_view kStatusCheckedOut = "checked_out";
inline constexpr std::string_view kStatusNoShow = "no_show";

struct Reservation {
  std::string confirmation_number;
  std::string hotel_id;
  std::string hotel_name;
  int16_t room_number = 0;
  Day check_in = 0;
  Day check_out = 0;
  common::Uuid guest_id;
  std::string guest_first_name;
  std::string guest_last_name;
  Cents total = 0;
  std::string currency = std::string(kCurrency);
  // One of the statuses below; "pending" between the confirmation number's reservation and
  // the booking's final write (never shown to a client).
  std::string status = std::string(kStatusConfirmed);
  int64_t nights() const { return check_out - check_in; }
};

// True for the statuses whose reservation holds its nights in the availability table
// (confirmed, changed, checked_in, checked_out); false for pending, cancelled, no_show and
// anything unknown. The repair pass frees nights held by a reservation for which it is false.
bool HoldsNights(std::string_view status);

// What happened to a reservation: the `action` column of its history.
enum class ReservationAction { kBooked, kChanged, kCancelled, kCheckedIn, kCheckedOut, kNoShow };
// "booked", "changed", "cancelled", "checked_in", "checked_out", "no_show".
std::string_view ActionName(ReservationAction action);
// The action named `name` (ActionName's inverse); nullopt for any other text.
std::optional<ReservationAction> ParseAction(std::string_view name);

// The status code of a well-formed request the reservation's status does not allow (HTTP 422
// "invalid_transition"). The hotel layer borrows kFunctionFailure for it: the repository maps
// every database error to kUnavailable or kInternal, so the code cannot mean anything else
// here.
common::Status InvalidTransition(std::string message);

// The status a reservation in `status` takes after `action`, per the diagram above; for
// kBooked, "confirmed" (from any status: the service books fresh numbers only). Errors:
// InvalidTransition naming `confirmation`, the action and the current status ("Cannot check in
// reservation 'X': it is cancelled").
common::Result<std::string> StatusAfter(std::string_view confirmation, std::string_view status,
                                        ReservationAction action);

// One row of a reservation's history (`reservation_history_by_confirmation`).
struct ReservationEvent {
  common::Uuid event_id;  // a timeuuid: orders the history and says when
  ReservationAction action = ReservationAction::kBooked;
  std::string status;   // the reservation's status after the event
  std::string actor;    // "guest", or the staff user's name
  std::string details;  // what changed, in words ("2026-12-01 to 2026-12-03, room 101 -> ...")
  int64_t at_millis() const { return event_id.UnixMillis(); }
};

// Who acts when a request carries no staff session.
inline constexpr std::string_view kGuestActor = "guest";

// "room 101, 2026-12-01 to 2026-12-03": a stay as the history's details describe it.
std::string DescribeStay(const Reservation& reservation);

}  // namespace hotel
