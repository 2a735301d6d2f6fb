#include "hotel/http_router_support.h"

#include <fmt/format.h>

#include <utility>

#include "cql/parser/lexer.h"
#include "hotel/request_credentials.h"

namespace hotel::router {

namespace json = boost::json;
using common::Status;
using common::StatusCode;

// `text` with every byte that is not part of a valid UTF-8 sequence replaced by U+FFFD.
std::string ValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t at = 0; at < text.size();) {
    size_t length = 1;
    cql::AppendUtf8(cql::DecodeUtf8(text, at, &length), &out);
    at += length;
  }
  return out;
}

// Boost.JSON serializes strings byte for byte, and answers quote the request (a path segment
// in "No such endpoint", an id in "not found"), which may hold any byte after percent-decoding.
// JSON text must be UTF-8 (RFC 8259 §8.1), so invalid bytes become U+FFFD; they can only be
// inside strings, so the text stays valid JSON.
HttpResponse JsonResponse(int status, const json::value& value) {
  return {status, "application/json", ValidUtf8(json::serialize(value)), {}, {}};
}

HttpResponse Error(int status, std::string_view code, std::string_view message,
                   std::string_view field) {
  json::object error{{"status", status}, {"code", code}, {"message", message}};
  if (!field.empty()) error["field"] = field;
  return JsonResponse(status, json::object{{"error", std::move(error)}});
}

// A field's message is a sentence predicate ("must be after check_in"): the answer reads
// "check_out must be after check_in".
HttpResponse FieldErrorResponse(const FieldError& error) {
  return Error(400, error.code, error.field + " " + error.message, error.field);
}

// The one place service and login errors become HTTP errors (hotel_service.h and staff_auth.h
// list the codes).
HttpResponse ErrorResponse(const Status& status) {
  if (IsCursorRefused(status)) return Error(400, "invalid_field", status.message(), "cursor");
  switch (status.code()) {
    case StatusCode::kInvalid:
      return Error(400, "bad_request", status.message());
    case StatusCode::kAuthenticationError: {
      HttpResponse response = Error(401, "unauthorized", status.message());
      response.headers.emplace_back("WWW-Authenticate", R"(Bearer realm="hotel")");
      return response;
    }
    case StatusCode::kUnauthorized:
      return Error(403, "forbidden", status.message());
    case StatusCode::kNotFound:
      return Error(404, "not_found", status.message());
    case StatusCode::kAlreadyExists:
      return Error(409, "conflict", status.message());
    case StatusCode::kWriteFailure:
      return Error(409, "room_unavailable", status.message());
    case StatusCode::kFunctionFailure:
      return Error(422, "invalid_transition", status.message());
    case StatusCode::kOverloaded:
      return Error(429, "too_many_requests", status.message());
    case StatusCode::kUnavailable:
      return Error(503, "database_unavailable", status.message());
    default:
      return Error(500, "internal", status.message());
  }
}

Status NeedsLogin(std::string message) {
  return Status(StatusCode::kAuthenticationError, std::move(message));
}

std::optional<std::string> Param(const Query& query, const std::string& name) {
  auto it = query.find(name);
  if (it == query.end()) return std::nullopt;
  return it->second;
}

// A required date query parameter, or the 400 to answer.
std::variant<Day, HttpResponse> DateParam(const Query& query, const std::string& name) {
  auto text = Param(query, name);
  if (!text) return Error(400, "invalid_field", name + " is required (YYYY-MM-DD)", name);
  auto day = ParseDay(*text);
  if (!day.ok()) return Error(400, "invalid_field", name + " must be a date YYYY-MM-DD", name);
  return *day;
}

// An integer query parameter in [1, `max`] (`fallback` when absent), or the 400 to answer.
std::variant<int, HttpResponse> CountParam(const Query& query, const std::string& name,
                                           int fallback, int max) {
  auto text = Param(query, name);
  if (!text) return fallback;
  if (text->empty() || text->size() > 6 ||
      text->find_first_not_of("0123456789") != std::string::npos || std::stoi(*text) < 1 ||
      std::stoi(*text) > max) {
    return Error(400, "invalid_field",
                 fmt::format("{} must be an integer between 1 and {}", name, max), name);
  }
  return std::stoi(*text);
}

// A list's `page_size` (1..kMaxPageSize, kDefaultPageSize when absent) and `cursor` (a
// `next_cursor` of the list; paging.h), or the 400 to answer.
std::variant<PageRequest, HttpResponse> PageParams(const Query& query) {
  auto page_size = CountParam(query, "page_size", kDefaultPageSize, kMaxPageSize);
  if (auto* error = std::get_if<HttpResponse>(&page_size)) return *error;
  auto cursor = ParseCursor(Param(query, "cursor").value_or(""));
  if (!cursor.ok()) {
    return Error(400, "invalid_field", "cursor must be a next_cursor of this list", "cursor");
  }
  return PageRequest{std::get<int>(page_size), std::move(cursor).value()};
}

// 200 with `body` and its `next_cursor`: the paging state in hex, or null on the last page.
HttpResponse PageResponse(json::object body, const std::optional<common::Bytes>& paging_state) {
  json::value next = nullptr;
  if (paging_state) next = json::string(FormatCursor(*paging_state));
  body["next_cursor"] = std::move(next);
  return JsonResponse(200, body);
}

std::variant<int16_t, HttpResponse> RoomSegment(const std::string& text) {
  if (text.empty() || text.size() > 5 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return Error(400, "invalid_field", "room_number must be a positive integer", "room_number");
  }
  int number = std::stoi(text);
  if (number < 1 || number > 32767) {
    return Error(400, "invalid_field", "room_number must be between 1 and 32767", "room_number");
  }
  return static_cast<int16_t>(number);
}

// The guest's last name a reservation request must give (?last_name=), or the 400 to answer.
// A staff session may leave it out (nullopt: no check); a name given is always checked.
std::variant<std::optional<std::string>, HttpResponse> GuestLastName(const Call& call) {
  auto last_name = Param(call.query, "last_name");
  if (last_name && !FoldName(*last_name).empty()) return last_name;
  if (call.staff) return std::optional<std::string>();
  return Error(400, "invalid_field",
               "last_name is required: the last name of the guest on the reservation", "last_name");
}

// Who makes a change, for the reservation's history: the staff user, else the guest.
std::string Actor(const Call& call) {
  return call.staff ? call.staff->username : std::string(kGuestActor);
}

json::array ReservationArray(const std::vector<Reservation>& reservations) {
  json::array array;
  for (const Reservation& reservation : reservations) {
    array.push_back(ReservationJson(reservation));
  }
  return array;
}

// 200 {"reservations": [...], "next_cursor": ...} of one page.
HttpResponse ReservationPage(const Page<Reservation>& page) {
  return PageResponse(json::object{{"reservations", ReservationArray(page.items)}},
                      page.paging_state);
}

json::array PoiArray(const std::vector<Poi>& pois) {
  json::array array;
  for (const Poi& poi : pois) array.push_back(PoiJson(poi));
  return array;
}

}  // namespace hotel::router
