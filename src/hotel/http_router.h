// ApiRouter: the hotel HTTP API's routing and handlers, independent of the transport
// (`http_server.h` feeds it parsed requests). Implements every endpoint of the API contract
// (/work/briefs/hotel_api.md) under /api/v1, the OpenAPI description at
// /api/v1/openapi.json, /api/v1/health, and the static UI from the web directory at / and
// /static/*.
//
// Every answer is a response value: handler failures become the contract's JSON errors in one
// function (`ErrorResponse`): 400 bad_request / invalid_json / invalid_field, 404 not_found,
// 405, 409 room_unavailable / conflict, 413, 415, 503 database_unavailable, 500 internal.
//
// Thread-safety: thread-safe (the service is; the router holds no mutable state).

#pragma once

#include <string>

#include "hotel/hotel_service.h"

namespace hotel {

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string target;  // path and query, as received
  std::string content_type;
  std::string body;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

// The OpenAPI 3.0 description of the API (JSON text).
std::string_view OpenApiDocument();

class ApiRouter {
 public:
  // `web_directory` holds index.html and static/ ("" or missing: / answers 404 JSON).
  // `mode` is what /health reports ("embedded" or "cassandra").
  // REQUIRES: `service` outlives the router.
  ApiRouter(HotelService* service, std::string web_directory, std::string mode);

  // Answers one request. Never throws.
  HttpResponse Handle(const HttpRequest& request) const;

 private:
  HttpResponse Route(const HttpRequest& request) const;
  HttpResponse ServeStatic(const std::string& path) const;

  HotelService* service_;
  std::string web_directory_;
  std::string mode_;
};

}  // namespace hotel
