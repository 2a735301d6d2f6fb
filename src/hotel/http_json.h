// JSON for the hotel HTTP API (/work/briefs/hotel_api.md, the API contract): domain values to
// Boost.JSON objects, and request bodies to domain values with per-field validation.
//
// Readers never throw and never trust the input: a missing required field or a field of the
// wrong type is a `FieldError` naming the field, which the router answers with 400
// "invalid_field"; a field the body may not have (a misspelling, a renamed field) is 400
// "unknown_field". Messages are sentence predicates: "<field> <message>" reads as a sentence.
//
// Thread-safety: stateless free functions.

#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <variant>

#include "hotel/domain.h"
#include "hotel/hotel_service.h"

namespace hotel {

// A request field that is missing, of the wrong type, out of range, or unknown.
struct FieldError {
  std::string field;
  std::string message;                 // completes "<field> ...": "must be after check_in"
  std::string code = "invalid_field";  // or "unknown_field"
};

template <typename T>
using FieldResult = std::variant<T, FieldError>;

boost::json::object AddressJson(const Address& address);
boost::json::object HotelJson(const Hotel& hotel, bool with_pois);
boost::json::object PoiJson(const Poi& poi);
boost::json::object GuestJson(const Guest& guest);
// {"confirmation_number", "hotel_id", "hotel_name", "room_number", "check_in", "check_out",
// "nights", "guest": {"guest_id", "first_name", "last_name"}, "total", "currency", "status"}.
boost::json::object ReservationJson(const Reservation& reservation);
// {"confirmation_number", "status", "history": [{"at" (ISO 8601 UTC), "event_id", "action",
// "status", "actor", "details"}, ...]}, oldest event first.
boost::json::object HistoryJson(const Reservation& reservation,
                                const std::vector<ReservationEvent>& events);
boost::json::object AvailabilityJson(const Availability& availability);
// GET /reservations/{n}/quote: {"confirmation_number", "hotel_id", "currency", "current":
// {"room_number", "check_in", "check_out", "nights", "total"}, "proposed": {the same, plus
// "room_type" and "nightly_rates": [{"date", "rate"}, ...]}, "difference": the proposed total
// less the current one, signed ("-50.00", "25.00")}.
boost::json::object ChangeQuoteJson(const ChangeQuote& quote);
boost::json::object RoomJson(const RoomDetails& room);

// Body readers. `object` is the parsed body.
FieldResult<Guest> ReadGuest(const boost::json::object& object, const std::string& prefix);
FieldResult<Hotel> ReadHotel(const boost::json::object& object);
FieldResult<Poi> ReadPoi(const boost::json::object& object);
FieldResult<Room> ReadRoom(const boost::json::object& object);
FieldResult<BookingRequest> ReadBooking(const boost::json::object& object, int max_nights);
FieldResult<ChangeRequest> ReadChange(const boost::json::object& object, int max_nights);
struct OpenRequest {
  Day start = 0;
  Day end = 0;
  std::optional<Cents> rate;
};
FieldResult<OpenRequest> ReadOpen(const boost::json::object& object);
// POST /login's body: {"username": ..., "password": ...}, both required strings (the password
// up to 1,024 bytes; StaffAccounts decides what may match).
struct LoginRequest {
  std::string username;
  std::string password;
};
FieldResult<LoginRequest> ReadLogin(const boost::json::object& object);

// --- The staff console --------------------------------------------------------------------
// {"hotel_id", "start", "end", "days", "dates": [...], "rooms": [{"room_number", "room_type",
// "nights": [{"date", "state", "rate"?, "confirmation_number"?, "guest": {"last_name"}?}]}]}.
boost::json::object OccupancyJson(const Occupancy& occupancy);
// PUT /hotels/{id}/rates: {"start", "end", "rate", "room_number"?}. Other fields are refused
// (a misspelt "room_numbr" would otherwise change every room).
struct RatesRequest {
  Day start = 0;
  Day end = 0;
  Cents rate = 0;
  std::optional<int16_t> room_number;
};
FieldResult<RatesRequest> ReadRates(const boost::json::object& object);

// Checks a stay given as two dates: check_out after check_in, at most `max_nights` nights.
// The error names `check_out_field` (e.g. "check_out").
std::optional<FieldError> CheckStay(Day check_in, Day check_out, int max_nights,
                                    const std::string& check_out_field);

}  // namespace hotel
