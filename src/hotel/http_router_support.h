// The request and answer helpers the router's handlers share (http_router.cc): JSON answers
// and the API's error object, the parsed request (`Call`) and what handlers use of the router
// (`Context`), query parameters with their 400s, and the list answers with paging (paging.h).
// Internal to the router: only http_router.cc and its tests include it.
//
// Thread-safety: stateless functions and plain values.

#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "hotel/domain.h"
#include "hotel/hotel_service.h"
#include "hotel/http_json.h"
#include "hotel/http_server.h"
#include "hotel/paging.h"
#include "hotel/readiness_probe.h"
#include "hotel/staff_auth.h"

namespace hotel::router {

// `text` with every byte that is not part of a valid UTF-8 sequence replaced by U+FFFD.
std::string ValidUtf8(std::string_view text);
// `status` with `value` serialized as its JSON body.
HttpResponse JsonResponse(int status, const boost::json::value& value);
// The API's error object: {"error": {"status", "code", "message", "field"?}}.
HttpResponse Error(int status, std::string_view code, std::string_view message,
                   std::string_view field = {});
// 400 `invalid_field` naming the field.
HttpResponse FieldErrorResponse(const FieldError& error);
// The answer to a failed service call, by its status code.
HttpResponse ErrorResponse(const common::Status& status);
// The status of a call that needs a staff login (401).
common::Status NeedsLogin(std::string message);

// True when `result` failed, with the answer to give in `*response`.
template <typename T>
bool Failed(const common::Result<T>& result, HttpResponse* response) {
  if (result.ok()) return false;
  *response = ErrorResponse(result.status());
  return true;
}

using Query = std::map<std::string, std::string>;

// A parsed request: decoded path segments after /api/v1, query parameters, the JSON body
// (POST, PUT) and the caller's staff session, if any.
struct Call {
  const HttpRequest& request;
  std::vector<std::string> path;
  Query query;
  boost::json::object body;
  std::string token;                  // the session token presented ("" when none)
  std::optional<StaffSession> staff;  // the live staff session of `token`
};

// What handlers use of the router.
struct Context {
  HotelService* service;
  StaffAuth* auth;
  const std::string& mode;
  ReadinessProbe* readiness;
};

// A query parameter, if given.
std::optional<std::string> Param(const Query& query, const std::string& name);
// A required date query parameter, or the 400 to answer.
std::variant<Day, HttpResponse> DateParam(const Query& query, const std::string& name);
// An integer query parameter in [1, `max`] (`fallback` when absent), or the 400 to answer.
std::variant<int, HttpResponse> CountParam(const Query& query, const std::string& name,
                                           int fallback, int max);
// A list's `page_size` (1..kMaxPageSize, kDefaultPageSize when absent) and `cursor` (a
// `next_cursor` of the list; paging.h), or the 400 to answer.
std::variant<PageRequest, HttpResponse> PageParams(const Query& query);
// 200 with `body` and its `next_cursor` (null on the last page).
HttpResponse PageResponse(boost::json::object body,
                          const std::optional<common::Bytes>& paging_state);
// A room number path segment, or the 400 to answer.
std::variant<int16_t, HttpResponse> RoomSegment(const std::string& text);
// The guest's last name a guest call must give (none for staff), or the 400 to answer.
std::variant<std::optional<std::string>, HttpResponse> GuestLastName(const Call& call);
// Who makes a change, for the reservation's history: the staff user, else the guest.
std::string Actor(const Call& call);
boost::json::array ReservationArray(const std::vector<Reservation>& reservations);
// 200 {"reservations": [...], "next_cursor": ...} of one page.
HttpResponse ReservationPage(const Page<Reservation>& page);
boost::json::array PoiArray(const std::vector<Poi>& pois);

}  // namespace hotel::router
