// ApiRouter: the hotel HTTP API's routing and handlers, independent of the transport
// (`http_server.h` feeds it parsed requests). Implements every endpoint of the API under
// /api/v1 (the endpoint table in http_router.cc; docs/security.md lists who may call each),
// the OpenAPI description at /api/v1/openapi.json, staff login and logout, the static UI at /
// and /static/* (from the web directory, or compiled in: web_assets.h), and operations:
//  - GET /health/live: 200 whenever the process serves;
//  - GET /health/ready (and /api/v1/health, the same answer): 200 only while the database
//    answers a cheap query within 2 s (ReadinessProbe), else 503 with the reason;
//  - GET /metrics: the process's metrics in Prometheus text format, to clients on a loopback
//    address, or to a staff session (401 otherwise; docs/security.md).
// Every answer names its route template (HttpResponse::route) for the metrics and the log.
//
// Who may call what (docs/security.md, "The hotel service"):
//  - public: health and readiness, the OpenAPI document, points of interest, hotels, rooms,
//  availability,
//    booking a stay for a new guest, login and logout;
//  - guest: one reservation (read, its history, a change's price, change, cancel) by its
//    confirmation number, in any case, and the guest's last name (`?last_name=`); a wrong name
//    is the same 404 as an unknown number. A staff session may leave the name out;
//  - staff: everything else (arrivals, reservations by name, guests, inventory writes, booking
//    for an existing guest_id, the staff console's hotel list, occupancy, departures, in-house
//    list and rate changes: docs/staff-console.md), with a session from POST /api/v1/login
//    presented as the `hotel_session` cookie (the UI) or `Authorization: Bearer <token>` (API
//    clients).
// A request with a session cookie that changes something (POST, PUT, DELETE), and every login,
// is refused with 403 when its Origin header names another origin than its Host.
//
// Every answer is a response value: handler failures become JSON errors
// `{"error": {"status", "code", "message", "field"?}}` in one function (`ErrorResponse`):
// 400 bad_request / invalid_json / invalid_field (an impossible value, e.g. a stay starting in
// the past) / unknown_field (a body field the endpoint does not take), 401 unauthorized (with
// `WWW-Authenticate: Bearer`), 403 forbidden, 404 not_found, 405 method_not_allowed (with
// `Allow`), 409 room_unavailable / conflict, 413 payload_too_large, 415 unsupported_media_type,
// 422 invalid_transition / date_in_past / not_opened (well-formed, not acceptable now), 429
// too_many_requests (with `Retry-After`), 503 database_unavailable, 500 internal.
//
// Thread-safety: thread-safe (the service and StaffAuth are; the router holds no mutable state).

#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hotel/hotel_service.h"
#include "hotel/readiness_probe.h"
#include "hotel/staff_auth.h"

namespace hotel {

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string target;  // path and query, as received
  std::string content_type;
  std::string body;
  // Headers the router reads for authentication ("" when absent).
  std::string authorization;
  std::string cookie;
  std::string origin;
  std::string host;
  // The TCP peer's address (the login throttle counts per address); "" when unknown.
  std::string client_address;
  bool secure = false;  // received over TLS: the session cookie is marked Secure
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  // Further headers (Set-Cookie, Retry-After, WWW-Authenticate, Cache-Control).
  std::vector<std::pair<std::string, std::string>> headers;
  // The route template the request matched (`/api/v1/hotels/{id}`, `/static/{file}`), from a
  // fixed set: never a raw path. "other" when none matched; "" before routing.
  std::string route;
};

// The name of the session cookie.
inline constexpr std::string_view kSessionCookie = "hotel_session";

// The OpenAPI 3.0 description of the API (JSON text).
std::string_view OpenApiDocument();

class ApiRouter {
 public:
  // `auth` checks staff logins and sessions; nullptr: no one can log in (every staff endpoint
  // answers 401). `web_directory` holds index.html and static/ (missing: / answers 404 JSON);
  // "": the UI compiled into the binary. `mode` is what /health reports ("embedded" or
  // "cassandra"). `service` nullptr: no database (readiness answers 503; for transport tests).
  // REQUIRES: `service` and `auth` outlive the router.
  ApiRouter(HotelService* service, StaffAuth* auth, std::string web_directory, std::string mode);
  ~ApiRouter();

  // Answers one request. Never throws.
  HttpResponse Handle(const HttpRequest& request) const;

  // Every operation the router serves that the OpenAPI document must describe, as (method,
  // route template): the /api/v1 endpoints and the operations endpoints at the root (not the
  // static UI files). The templates are HttpResponse::route's and use the document's parameter
  // names (`/api/v1/hotels/{hotel_id}/rooms/{room_number}`).
  static std::vector<std::pair<std::string, std::string>> Routes();

 private:
  HttpResponse Route(const HttpRequest& request) const;
  // /, /static/*, /favicon.ico, /health/*, /metrics.
  HttpResponse RouteOutsideApi(const HttpRequest& request, const std::string& path) const;
  HttpResponse ServeStatic(const std::string& path) const;
  HttpResponse Metrics(const HttpRequest& request) const;

  HotelService* service_;
  StaffAuth* auth_;
  std::string web_directory_;
  std::string mode_;
  std::unique_ptr<ReadinessProbe> readiness_;  // thread-safe
};

}  // namespace hotel
