// The OpenAPI 3.0 description served at /api/v1/openapi.json (http_router.h), generated once
// from the endpoint table below, which lists every endpoint of the API contract and who may call
// it (the router's own table in http_router.cc decides; HttpApiTest.OpenApiSaysWhichCallsNeed
// AStaffLogin checks that the two agree).

#include <boost/json.hpp>
#include <string>
#include <vector>

#include "hotel/http_router.h"
#include "hotel/paging.h"

namespace hotel {

namespace {

namespace json = boost::json;

// Who may call an endpoint (docs/security.md): anyone; a guest with the reservation's last name
// (or staff without it); a staff session only.
enum class Access { kPublic, kGuest, kStaff };

struct Endpoint {
  const char* method;
  const char* path;
  const char* summary;
  std::vector<const char*> query;  // query parameters (name; a trailing '?' = optional)
  const char* request_schema;      // component name or nullptr
  int status;
  const char* response_schema;
  Access access = Access::kStaff;
};

// The query parameters of a list (paging.h): `query`, then page_size and cursor.
std::vector<const char*> Paged(std::vector<const char*> query) {
  query.push_back("page_size?");
  query.push_back("cursor?");
  return query;
}

constexpr Access kPublic = Access::kPublic;
constexpr Access kGuest = Access::kGuest;
constexpr Access kStaff = Access::kStaff;

const std::vector<Endpoint>& Endpoints() {
  static const std::vector<Endpoint> endpoints{
      {"get", "/pois", "All points of interest", Paged({}), nullptr, 200, "PoiList", kPublic},
      {"post", "/pois", "Add a point of interest", {}, "Poi", 201, "Poi", kStaff},
      {"get", "/pois/{poi_name}/hotels", "Q1. Hotels near a point of interest", Paged({}), nullptr,
       200, "PoiHotels", kPublic},
      {"post", "/hotels", "Add a hotel", {}, "Hotel", 201, "Hotel", kStaff},
      {"get", "/hotels/{hotel_id}", "Q2. A hotel", {}, nullptr, 200, "Hotel", kPublic},
      {"get", "/hotels/{hotel_id}/pois", "Q3. Points of interest near a hotel", Paged({}), nullptr,
       200, "PoiList", kPublic},
      {"get", "/hotels/{hotel_id}/availability",
       "Q4. Rooms free on every night of a stay (paged by room number: the cursor is the last "
       "room's key, not a paging state)",
       Paged({"check_in", "check_out"}), nullptr, 200, "Availability", kPublic},
      {"post",
       "/hotels/{hotel_id}/availability",
       "Open every room for a date range",
       {},
       "OpenAvailability",
       200,
       "NightsOpened",
       kStaff},
      {"post",
       "/hotels/{hotel_id}/rooms",
       "Add or replace a room",
       {},
       "RoomInput",
       201,
       "Room",
       kStaff},
      {"get", "/hotels/{hotel_id}/rooms/{room_number}",
       "Q5. A room's rate and amenities (paged: the amenities)", Paged({"date?"}), nullptr, 200,
       "Room", kPublic},
      {"get", "/hotels/{hotel_id}/reservations", "Q7. Reservations starting on a date (arrivals)",
       Paged({"date", "last_name?"}), nullptr, 200, "ReservationList", kStaff},
      {"get", "/reservations",
       "Q8. Reservations by guest name, or Q12. by guest email (any case; not with a name)",
       Paged({"last_name?", "first_name?", "email?"}), nullptr, 200, "ReservationList", kStaff},
      {"post",
       "/reservations",
       "Book a stay (for an existing guest_id: staff only)",
       {},
       "Booking",
       201,
       "Reservation",
       kPublic},
      {"get",
       "/reservations/{confirmation_number}",
       "Q6. A reservation",
       {"last_name?"},
       nullptr,
       200,
       "Reservation",
       kGuest},
      {"put",
       "/reservations/{confirmation_number}",
       "Change dates or room",
       {"last_name?"},
       "Change",
       200,
       "Reservation",
       kGuest},
      {"delete",
       "/reservations/{confirmation_number}",
       "Cancel: the reservation stays readable with status cancelled (422 unless confirmed or "
       "changed)",
       {"last_name?"},
       nullptr,
       200,
       "Reservation",
       kGuest},
      {"post", "/guests", "Add a guest", {}, "Guest", 201, "Guest", kStaff},
      {"get", "/guests/{guest_id}", "Q9. A guest", {}, nullptr, 200, "Guest", kStaff},
      {"put", "/guests/{guest_id}", "Replace a guest", {}, "Guest", 200, "Guest", kStaff},
      {"post",
       "/login",
       "Staff login: a session (cookie and bearer token)",
       {},
       "Login",
       200,
       "LoginGrant",
       kPublic},
      {"post", "/logout", "End the session presented", {}, nullptr, 200, "LoggedOut", kPublic},
      {"get", "/session", "The caller's staff session", {}, nullptr, 200, "Session", kStaff},
      {"get", "/health", "Readiness, as /health/ready", {}, nullptr, 200, "Health", kPublic},
      {"get", "/openapi.json", "This document", {}, nullptr, 200, nullptr, kPublic},
  };
  return endpoints;
}

// The reservation lifecycle's endpoints (docs/data-model.md, "The life of a reservation").
const std::vector<Endpoint>& LifecycleEndpoints() {
  static const std::vector<Endpoint> endpoints{
      {"get", "/reservations/{confirmation_number}/history",
       "Q10. A reservation's status and the history of its changes, oldest first (paged: the "
       "events)",
       Paged({"last_name?"}), nullptr, 200, "History", kGuest},
      {"post",
       "/reservations/{confirmation_number}/check-in",
       "Check the guest in (422 unless confirmed or changed)",
       {},
       nullptr,
       200,
       "Reservation",
       kStaff},
      {"post",
       "/reservations/{confirmation_number}/check-out",
       "Check the guest out (422 unless checked_in)",
       {},
       nullptr,
       200,
       "Reservation",
       kStaff},
      {"post",
       "/reservations/{confirmation_number}/no-show",
       "Record a no-show, freeing the nights (422 unless confirmed or changed)",
       {},
       nullptr,
       200,
       "Reservation",
       kStaff},
  };
  return endpoints;
}

// The guest's change of dates or room: its price first, then PUT.
const std::vector<Endpoint>& GuestChangeEndpoints() {
  static const std::vector<Endpoint> endpoints{
      {"get",
       "/reservations/{confirmation_number}/quote",
       "The price of a change of dates or room, changing nothing (the checks and errors of PUT: "
       "409 when a night is taken, 422 unless confirmed or changed)",
       {"check_in", "check_out", "room_number?", "last_name?"},
       nullptr,
       200,
       "ChangeQuote",
       kGuest},
  };
  return endpoints;
}

// The staff console's endpoints (docs/staff-console.md).
const std::vector<Endpoint>& ConsoleEndpoints() {
  static const std::vector<Endpoint> endpoints{
      {"get", "/hotels", "Every hotel, a page at a time (next_cursor: the engine's paging state)",
       Paged({}), nullptr, 200, "HotelPage", kStaff},
      {"get", "/hotels/{hotel_id}/occupancy",
       "The room-by-night occupancy grid from start (days: 1-31, default 7; paged: the rooms)",
       Paged({"start", "days?"}), nullptr, 200, "Occupancy", kStaff},
      {"get", "/hotels/{hotel_id}/departures", "Q11. Stays ending on a date", Paged({"date"}),
       nullptr, 200, "ReservationList", kStaff},
      {"get", "/hotels/{hotel_id}/in-house", "Q11. Stays in the house the night of a date",
       Paged({"date"}), nullptr, 200, "ReservationList", kStaff},
      {"put",
       "/hotels/{hotel_id}/rates",
       "Change the rate of the opened nights of a date range (422: past, or nothing opened)",
       {},
       "Rates",
       200,
       "RatesChanged",
       kStaff},
  };
  return endpoints;
}

// Operations endpoints, outside /api/v1 (their path items name the server root).
const std::vector<Endpoint>& RootEndpoints() {
  static const std::vector<Endpoint> endpoints{
      {"get",
       "/health/live",
       "Liveness: 200 whenever the process serves",
       {},
       nullptr,
       200,
       "Health",
       kPublic},
      {"get",
       "/health/ready",
       "Readiness: 200 while the database answers within 2 s, else 503 with the reason",
       {},
       nullptr,
       200,
       "Health",
       kPublic},
      {"get",
       "/metrics",
       "Prometheus metrics (text/plain; version=0.0.4)",
       {},
       nullptr,
       200,
       nullptr,
       kGuest},
  };
  return endpoints;
}

json::object Ref(const char* name) {
  return {{"$ref", std::string("#/components/schemas/") + name}};
}

json::object Strings(std::initializer_list<const char*> names) {
  json::object properties;
  for (const char* name : names) properties[name] = json::object{{"type", "string"}};
  return properties;
}

// ChangeQuote: a stay as it is and as a change would make it (GET .../quote).
void AddChangeQuoteSchema(json::object& s) {
  json::object stay_props = Strings({"check_in", "check_out", "total"});
  stay_props["room_number"] = {{"type", "integer"}};
  stay_props["nights"] = {{"type", "integer"}};
  json::object proposed_props = stay_props;
  proposed_props["room_type"] = {{"type", "string"}};
  proposed_props["nightly_rates"] = {
      {"type", "array"},
      {"items", {{"type", "object"}, {"properties", Strings({"date", "rate"})}}}};
  json::object quote_props = Strings({"confirmation_number", "hotel_id", "currency"});
  quote_props["current"] = {{"type", "object"}, {"properties", std::move(stay_props)}};
  quote_props["proposed"] = {{"type", "object"}, {"properties", std::move(proposed_props)}};
  quote_props["difference"] = {
      {"type", "string"},
      {"description", "the proposed total less the current one, signed (\"-50.00\")"}};
  s["ChangeQuote"] = {{"type", "object"}, {"properties", std::move(quote_props)}};
}

// The answers of the paged lists carry next_cursor (paging.h).
void AddNextCursor(json::object& s) {
  for (const char* name : {"PoiList", "PoiHotels", "Availability", "Room", "ReservationList",
                           "History", "HotelPage", "Occupancy"}) {
    s[name].as_object()["properties"].as_object()["next_cursor"] = {
        {"type", "string"},
        {"nullable", true},
        {"description", "pass back as cursor for the next page; null on the last page"}};
  }
}

// The staff console's schemas.
void ConsoleSchemas(json::object& s) {
  s["HotelPage"] = {{"type", "object"},
                    {"properties", {{"hotels", {{"type", "array"}, {"items", Ref("Hotel")}}}}}};
  json::object night_props = Strings({"date", "rate", "confirmation_number"});
  night_props["guest"] = {{"type", "object"}, {"properties", Strings({"last_name"})}};
  night_props["state"] = {
      {"type", "string"},
      {"enum", {"not_opened", "free", "booked", "checked_in", "checked_out", "held"}}};
  json::object room_props = Strings({"room_type"});
  room_props["room_number"] = {{"type", "integer"}};
  room_props["nights"] = {{"type", "array"},
                          {"items", {{"type", "object"}, {"properties", night_props}}}};
  json::object occupancy_props = Strings({"hotel_id", "start", "end"});
  occupancy_props["days"] = {{"type", "integer"}};
  occupancy_props["dates"] = {{"type", "array"}, {"items", {{"type", "string"}}}};
  occupancy_props["rooms"] = {{"type", "array"},
                              {"items", {{"type", "object"}, {"properties", room_props}}}};
  s["Occupancy"] = {{"type", "object"}, {"properties", occupancy_props}};
  json::object rates_props = Strings({"start", "end", "rate"});
  rates_props["room_number"] = {{"type", "integer"}, {"description", "absent: every room"}};
  s["Rates"] = {{"type", "object"},
                {"required", {"start", "end", "rate"}},
                {"additionalProperties", false},
                {"properties", rates_props}};
  json::object changed_props = Strings({"rate", "currency"});
  changed_props["nights_changed"] = {{"type", "integer"}};
  s["RatesChanged"] = {{"type", "object"}, {"properties", changed_props}};
}

// {"error": {"status", "code", "message", "field"?}}: every error answer, with its codes.
json::object ErrorSchema() {
  json::object error_props = Strings({"code", "message", "field"});
  error_props["status"] = {{"type", "integer"}};
  error_props["code"] = {{"type", "string"},
                         {"enum",
                          {"bad_request",
                           "invalid_json",
                           "invalid_field",
                           "unknown_field",
                           "unauthorized",
                           "forbidden",
                           "not_found",
                           "method_not_allowed",
                           "request_timeout",
                           "room_unavailable",
                           "conflict",
                           "payload_too_large",
                           "unsupported_media_type",
                           "invalid_transition",
                           "date_in_past",
                           "not_opened",
                           "too_many_requests",
                           "header_fields_too_large",
                           "database_unavailable",
                           "internal"}}};
  error_props["field"] = {
      {"type", "string"},
      {"description",
       "The request field at fault (invalid_field, unknown_field), e.g. guest.email"}};
  return {
      {"type", "object"},
      {"required", {"error"}},
      {"properties",
       {{"error",
         {{"type", "object"}, {"required", {"code", "message"}}, {"properties", error_props}}}}}};
}

json::object Schemas() {
  json::object s;
  s["Address"] = {
      {"type", "object"},
      {"properties", Strings({"street", "city", "state_or_province", "postal_code", "country"})}};
  json::object hotel_props = Strings({"hotel_id", "name", "phone"});
  hotel_props["address"] = Ref("Address");
  hotel_props["pois"] = {{"type", "array"}, {"items", {{"type", "string"}}}};
  s["Hotel"] = {
      {"type", "object"}, {"required", {"hotel_id", "name"}}, {"properties", hotel_props}};
  s["Poi"] = {
      {"type", "object"}, {"required", {"name"}}, {"properties", Strings({"name", "description"})}};
  s["PoiList"] = {{"type", "object"},
                  {"properties", {{"pois", {{"type", "array"}, {"items", Ref("Poi")}}}}}};
  s["PoiHotels"] = {
      {"type", "object"},
      {"properties",
       {{"poi", Ref("Poi")}, {"hotels", {{"type", "array"}, {"items", Ref("Hotel")}}}}}};
  json::object rate{{"type", "object"}, {"properties", Strings({"date", "rate"})}};
  json::object offer_props = Strings({"room_type", "total", "currency"});
  offer_props["room_number"] = {{"type", "integer"}};
  offer_props["nightly_rates"] = {{"type", "array"}, {"items", rate}};
  json::object availability_props = Strings({"hotel_id", "check_in", "check_out"});
  availability_props["nights"] = {{"type", "integer"}};
  availability_props["rooms"] = {{"type", "array"},
                                 {"items", {{"type", "object"}, {"properties", offer_props}}}};
  availability_props["not_opened"] = {
      {"type", "array"},
      {"items", {{"type", "string"}, {"format", "date"}}},
      {"description",
       "Nights of the stay whose inventory is not opened yet (empty when all are): no room is "
       "offered until they are, so rooms is empty whenever this is not"}};
  s["Availability"] = {{"type", "object"}, {"properties", availability_props}};
  s["OpenAvailability"] = {{"type", "object"},
                           {"required", {"start", "end"}},
                           {"properties", Strings({"start", "end", "rate"})}};
  s["NightsOpened"] = {{"type", "object"},
                       {"properties", {{"nights_opened", {{"type", "integer"}}}}}};
  json::object amenity{{"type", "object"}, {"properties", Strings({"name", "description"})}};
  json::object room_props = Strings({"hotel_id", "room_type", "rate", "currency", "date"});
  room_props["room_number"] = {{"type", "integer"}};
  room_props["amenities"] = {{"type", "array"}, {"items", amenity}};
  s["Room"] = {{"type", "object"}, {"properties", room_props}};
  json::object room_input = Strings({"room_type", "rate"});
  room_input["room_number"] = {{"type", "integer"}};
  room_input["amenities"] = {{"type", "array"}, {"items", amenity}};
  s["RoomInput"] = {{"type", "object"},
                    {"required", {"room_number", "room_type", "rate"}},
                    {"properties", room_input}};
  json::object guest_props = Strings({"guest_id", "first_name", "last_name", "title"});
  guest_props["emails"] = {{"type", "array"}, {"items", {{"type", "string"}}}};
  guest_props["phone_numbers"] = {{"type", "array"}, {"items", {{"type", "string"}}}};
  guest_props["addresses"] = {{"type", "object"}, {"additionalProperties", Ref("Address")}};
  s["Guest"] = {
      {"type", "object"}, {"required", {"first_name", "last_name"}}, {"properties", guest_props}};
  json::object reservation_props =
      Strings({"confirmation_number", "hotel_id", "hotel_name", "check_in", "check_out", "total",
               "currency", "status"});
  reservation_props["guest"] = {{"type", "object"},
                                {"description", "The guest, with the same field names as a Guest"},
                                {"properties", Strings({"guest_id", "first_name", "last_name"})}};
  reservation_props["room_number"] = {{"type", "integer"}};
  reservation_props["nights"] = {{"type", "integer"}};
  reservation_props["status"] = {
      {"type", "string"},
      {"enum", {"confirmed", "changed", "cancelled", "checked_in", "checked_out", "no_show"}}};
  s["Reservation"] = {{"type", "object"}, {"properties", reservation_props}};
  json::object event_props = Strings({"at", "event_id", "status", "actor", "details"});
  event_props["action"] = {
      {"type", "string"},
      {"enum", {"booked", "changed", "cancelled", "checked_in", "checked_out", "no_show"}}};
  event_props["actor"] = {{"type", "string"},
                          {"description", "\"guest\", or the staff user's name"}};
  s["HistoryEvent"] = {{"type", "object"}, {"properties", event_props}};
  s["History"] = {{"type", "object"},
                  {"properties",
                   {{"confirmation_number", {{"type", "string"}}},
                    {"status", {{"type", "string"}}},
                    {"history", {{"type", "array"}, {"items", Ref("HistoryEvent")}}}}}};
  s["ReservationList"] = {
      {"type", "object"},
      {"properties", {{"reservations", {{"type", "array"}, {"items", Ref("Reservation")}}}}}};
  json::object booking_props = Strings({"hotel_id", "check_in", "check_out"});
  booking_props["room_number"] = {{"type", "integer"}};
  booking_props["guest"] = {
      {"description", "A new guest (Guest without guest_id) or {\"guest_id\": ...}"},
      {"type", "object"}};
  s["Booking"] = {{"type", "object"},
                  {"required", {"hotel_id", "room_number", "check_in", "check_out", "guest"}},
                  {"properties", booking_props}};
  json::object change_props = Strings({"check_in", "check_out"});
  change_props["room_number"] = {{"type", "integer"}};
  s["Change"] = {
      {"type", "object"}, {"required", {"check_in", "check_out"}}, {"properties", change_props}};
  AddChangeQuoteSchema(s);
  s["Health"] = {{"type", "object"},
                 {"properties", Strings({"status", "mode", "reason"})},
                 {"description", "status: ok, live or unavailable (503, with the reason)"}};
  s["Login"] = {{"type", "object"},
                {"required", {"username", "password"}},
                {"properties", Strings({"username", "password"})}};
  json::object grant_props = Strings({"username", "token", "token_type"});
  grant_props["expires_in"] = {{"type", "integer"}, {"description", "seconds (absolute limit)"}};
  grant_props["idle_timeout"] = {{"type", "integer"}, {"description", "seconds"}};
  s["LoginGrant"] = {{"type", "object"}, {"properties", grant_props}};
  s["LoggedOut"] = {{"type", "object"}, {"properties", Strings({"status"})}};
  json::object session_props = Strings({"username"});
  session_props["expires_in"] = {{"type", "integer"}};
  s["Session"] = {{"type", "object"}, {"properties", session_props}};
  ConsoleSchemas(s);
  AddNextCursor(s);
  s["Error"] = ErrorSchema();
  return s;
}

// Staff operations take the session cookie or the bearer token; guest ones take either or
// nothing (then the guest's last name).
void AddSecurity(Access access, json::object& operation) {
  json::array staff{json::object{{"cookieAuth", json::array{}}},
                    json::object{{"bearerAuth", json::array{}}}};
  if (access == Access::kStaff) {
    operation["security"] = std::move(staff);
    operation["description"] = "Needs a staff session (POST /login); 401 without one.";
  } else if (access == Access::kGuest) {
    staff.insert(staff.begin(), json::object{});
    operation["security"] = std::move(staff);
    operation["description"] =
        "A guest gives last_name, the last name on the reservation; a wrong name answers 404 "
        "as an unknown number does. A staff session may leave it out.";
  } else {
    operation["security"] = json::array{};
  }
}

json::object SecuritySchemes() {
  return {{"cookieAuth",
           {{"type", "apiKey"},
            {"in", "cookie"},
            {"name", "hotel_session"},
            {"description", "Set by POST /login (HttpOnly; SameSite=Strict; Secure over HTTPS)"}}},
          {"bearerAuth",
           {{"type", "http"},
            {"scheme", "bearer"},
            {"description", "The token POST /login answers, as 'Authorization: Bearer <token>'"}}}};
}

json::object Operation(const Endpoint& endpoint) {
  json::object operation{{"summary", endpoint.summary}};
  json::array parameters;
  std::string path = endpoint.path;
  for (size_t open = path.find('{'); open != std::string::npos; open = path.find('{', open + 1)) {
    std::string name = path.substr(open + 1, path.find('}', open) - open - 1);
    parameters.push_back(json::object{
        {"name", name}, {"in", "path"}, {"required", true}, {"schema", {{"type", "string"}}}});
  }
  for (std::string name : endpoint.query) {
    bool optional = !name.empty() && name.back() == '?';
    if (optional) name.pop_back();
    json::object parameter{
        {"name", name}, {"in", "query"}, {"required", !optional}, {"schema", {{"type", "string"}}}};
    if (name == "page_size") {
      parameter["schema"] = {{"type", "integer"},
                             {"minimum", 1},
                             {"maximum", kMaxPageSize},
                             {"default", kDefaultPageSize}};
      parameter["description"] = "items per page; 400 invalid_field outside 1-500";
    } else if (name == "cursor") {
      parameter["description"] =
          "the next_cursor of the previous page (hex); 400 invalid_field (field cursor) for "
          "one the list does not accept";
    }
    parameters.push_back(std::move(parameter));
  }
  if (!parameters.empty()) operation["parameters"] = std::move(parameters);
  if (endpoint.request_schema != nullptr) {
    operation["requestBody"] = {
        {"required", true},
        {"content", {{"application/json", {{"schema", Ref(endpoint.request_schema)}}}}}};
  }
  json::object responses;
  json::object ok{{"description", "OK"}};
  if (endpoint.response_schema != nullptr) {
    ok["content"] = {{"application/json", {{"schema", Ref(endpoint.response_schema)}}}};
  }
  responses[std::to_string(endpoint.status)] = std::move(ok);
  json::object error{
      {"description",
       "Error: 400 (invalid_json, invalid_field, unknown_field: the body has a field the "
       "operation does not take), 401, 403, 404, 405 (method_not_allowed, with Allow), 408, "
       "409, 413 (payload_too_large), 415 (unsupported_media_type), 422 (well-formed but not "
       "acceptable now), 429, 431, 503, 500"},
      {"content", {{"application/json", {{"schema", Ref("Error")}}}}}};
  responses["default"] = std::move(error);
  operation["responses"] = std::move(responses);
  AddSecurity(endpoint.access, operation);
  return operation;
}

std::string Build() {
  json::object paths;
  for (const auto* group :
       {&Endpoints(), &LifecycleEndpoints(), &GuestChangeEndpoints(), &ConsoleEndpoints()}) {
    for (const Endpoint& endpoint : *group) {
      json::value& slot = paths[endpoint.path];
      if (!slot.is_object()) slot.emplace_object();
      slot.as_object()[endpoint.method] = Operation(endpoint);
    }
  }
  for (const Endpoint& endpoint : RootEndpoints()) {
    json::object operation = Operation(endpoint);
    if (std::string_view(endpoint.path) == "/metrics") {
      operation["description"] =
          "Public to clients on a loopback address; from any other address it needs a staff "
          "session (401 without one).";
    }
    paths[endpoint.path] = json::object{{"servers", json::array{json::object{{"url", "/"}}}},
                                        {endpoint.method, std::move(operation)}};
  }
  json::object document{
      {"openapi", "3.0.3"},
      {"info",
       {{"title", "Hotel reservation service"},
        {"version", "1.0.0"},
        {"description",
         "The seeds' hotel workflow Q1-Q9, booking, cancel and change, the reservation's "
         "lifecycle and its history (Q10). Guests need no account; "
         "staff operations need a session from POST /login (docs/security.md)."}}},
      {"servers", {json::object{{"url", "/api/v1"}}}},
      {"paths", std::move(paths)},
      {"components", {{"schemas", Schemas()}, {"securitySchemes", SecuritySchemes()}}}};
  return json::serialize(document);
}

}  // namespace

std::string_view OpenApiDocument() {
  static const std::string document = Build();
  return document;
}

}  // namespace hotel
