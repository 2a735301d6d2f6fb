#include "hotel/http_router.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <boost/json.hpp>
#include <boost/url.hpp>
#include <exception>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <variant>
#include <vector>

#include "common/metrics.h"
#include "cql/parser/lexer.h"
#include "hotel/http_json.h"
#include "hotel/http_router_support.h"
#include "hotel/paging.h"
#include "hotel/request_credentials.h"
#include "hotel/service_metrics.h"
#include "hotel/web_assets.h"

namespace hotel {

namespace json = boost::json;
using common::Status;
using common::StatusCode;

namespace {

using router::Actor;
using router::Call;
using router::Context;
using router::CountParam;
using router::DateParam;
using router::Error;
using router::ErrorResponse;
using router::Failed;
using router::FieldErrorResponse;
using router::GuestLastName;
using router::JsonResponse;
using router::NeedsLogin;
using router::PageParams;
using router::PageResponse;
using router::Param;
using router::PoiArray;
using router::Query;
using router::ReservationArray;
using router::ReservationPage;
using router::RoomSegment;
using router::ValidUtf8;

// --- Handlers: one per endpoint (the table below says who may call each) -------------------

// How long a readiness check waits for the database.
constexpr std::chrono::milliseconds kReadinessDeadline{2000};

// GET /health/ready and /api/v1/health: 200 while the database answers, else 503 with the
// reason (also as the API's error object, so every error answer has one).
HttpResponse ReadinessResponse(ReadinessProbe* readiness, const std::string& mode) {
  Status status =
      readiness != nullptr ? readiness->Check() : Status(StatusCode::kUnavailable, "no database");
  if (status.ok()) return JsonResponse(200, json::object{{"status", "ok"}, {"mode", mode}});
  json::object error{
      {"status", 503}, {"code", "database_unavailable"}, {"message", status.message()}};
  return JsonResponse(503, json::object{{"status", "unavailable"},
                                        {"mode", mode},
                                        {"reason", status.message()},
                                        {"error", std::move(error)}});
}

HttpResponse GetHealth(const Context& context, Call&) {
  return ReadinessResponse(context.readiness, context.mode);
}

// Counts a booking or a change: made, or refused because the room was taken (RoomUnavailable,
// kWriteFailure: the database's own write failures arrive as kUnavailable).
template <typename T>
void CountOutcome(const common::Result<T>& result, common::metrics::Counter& made,
                  common::metrics::Counter& conflicts) {
  if (result.ok()) {
    made.Increment();
  } else if (result.status().code() == StatusCode::kWriteFailure) {
    conflicts.Increment();
  }
}

HttpResponse GetOpenApi(const Context&, Call&) {
  return {200, "application/json", std::string(OpenApiDocument()), {}, {}};
}

HttpResponse ListPois(const Context& context, Call& call) {
  auto page = PageParams(call.query);
  if (auto* error = std::get_if<HttpResponse>(&page)) return *error;
  HttpResponse response;
  auto pois = context.service->ListPois(std::get<PageRequest>(page));
  if (Failed(pois, &response)) return response;
  return PageResponse(json::object{{"pois", PoiArray(pois->items)}}, pois->paging_state);
}

HttpResponse HotelsNearPoi(const Context& context, Call& call) {
  auto page = PageParams(call.query);
  if (auto* error = std::get_if<HttpResponse>(&page)) return *error;
  HttpResponse response;
  auto answer = context.service->HotelsNearPoi(call.path[1], std::get<PageRequest>(page));
  if (Failed(answer, &response)) return response;
  json::array hotels;
  for (const Hotel& hotel : answer->hotels) hotels.push_back(HotelJson(hotel, false));
  return PageResponse(json::object{{"poi", PoiJson(answer->poi)}, {"hotels", std::move(hotels)}},
                      answer->paging_state);
}

HttpResponse GetHotel(const Context& context, Call& call) {
  HttpResponse response;
  auto hotel = context.service->GetHotel(call.path[1]);
  if (Failed(hotel, &response)) return response;
  return JsonResponse(200, HotelJson(*hotel, true));
}

HttpResponse HotelPois(const Context& context, Call& call) {
  auto page = PageParams(call.query);
  if (auto* error = std::get_if<HttpResponse>(&page)) return *error;
  HttpResponse response;
  auto pois = context.service->HotelPois(call.path[1], std::get<PageRequest>(page));
  if (Failed(pois, &response)) return response;
  return PageResponse(json::object{{"pois", PoiArray(pois->items)}}, pois->paging_state);
}

// A stay given as ?check_in=&check_out= (both required, at most the service's longest stay),
// or the 400 to answer.
std::variant<ChangeRequest, HttpResponse> StayParams(const Context& context, const Call& call) {
  auto check_in = DateParam(call.query, "check_in");
  if (auto* error = std::get_if<HttpResponse>(&check_in)) return *error;
  auto check_out = DateParam(call.query, "check_out");
  if (auto* error = std::get_if<HttpResponse>(&check_out)) return *error;
  if (auto error = CheckStay(std::get<Day>(check_in), std::get<Day>(check_out),
                             context.service->options().max_stay_nights, "check_out")) {
    return FieldErrorResponse(*error);
  }
  return ChangeRequest{std::get<Day>(check_in), std::get<Day>(check_out), std::nullopt};
}

HttpResponse GetAvailability(const Context& context, Call& call) {
  auto stay = StayParams(context, call);
  if (auto* error = std::get_if<HttpResponse>(&stay)) return *error;
  auto page = PageParams(call.query);
  if (auto* error = std::get_if<HttpResponse>(&page)) return *error;
  HttpResponse response;
  auto availability = context.service->FindAvailability(
      call.path[1], std::get<ChangeRequest>(stay).check_in, std::get<ChangeRequest>(stay).check_out,
      std::get<PageRequest>(page));
  if (Failed(availability, &response)) return response;
  return PageResponse(AvailabilityJson(*availability), availability->paging_state);
}

HttpResponse GetRoom(const Context& context, Call& call) {
  auto room = RoomSegment(call.path[3]);
  if (auto* error = std::get_if<HttpResponse>(&room)) return *error;
  std::optional<Day> date;
  if (call.query.count("date") != 0) {
    auto day = DateParam(call.query, "date");
    if (auto* error = std::get_if<HttpResponse>(&day)) return *error;
    date = std::get<Day>(day);
  }
  auto page = PageParams(call.query);
  if (auto* error = std::get_if<HttpResponse>(&page)) return *error;
  HttpResponse response;
  auto details = context.service->GetRoom(call.path[1], std::get<int16_t>(room), date,
                                          std::get<PageRequest>(page));
  if (Failed(details, &response)) return response;
  return PageResponse(RoomJson(*details), details->paging_state);
}

HttpResponse GetReservation(const Context& context, Call& call) {
  auto last_name = GuestLastName(call);
  if (auto* error = std::get_if<HttpResponse>(&last_name)) return *error;
  HttpResponse response;
  auto reservation = context.service->GetReservation(
      call.path[1], std::get<std::optional<std::string>>(last_name));
  if (Failed(reservation, &response)) return response;
  return JsonResponse(200, ReservationJson(*reservation));
}

HttpResponse ArrivalsByHotelDate(const Context& context, Call& call) {
  auto date = DateParam(call.query, "date");
  if (auto* error = std::get_if<HttpResponse>(&date)) return *error;
  auto page = PageParams(call.query);
  if (auto* error = std::get_if<HttpResponse>(&page)) return *error;
  HttpResponse response;
  auto reservations = context.service->ReservationsByHotelDate(call.path[1], std::get<Day>(date),
                                                               Param(call.query, "last_name"),
                                                               std::get<PageRequest>(page));
  if (Failed(reservations, &response)) return response;
  return ReservationPage(*reservations);
}

// GET /reservations?email=: Q12, the reservations of the guests with that address (any case).
HttpResponse ReservationsByGuestEmail(const Context& context, Call& call) {
  auto email = Param(call.query, "email");
  if (call.query.count("last_name") != 0 || call.query.count("first_name") != 0) {
    return Error(400, "invalid_field", "email excludes last_name and first_name: search by one",
                 "email");
  }
  if (!email || CanonicalEmail(*email).empty()) {
    return Error(400, "invalid_field", "email must not be empty", "email");
  }
  auto page = PageParams(call.query);
  if (auto* error = std::get_if<HttpResponse>(&page)) return *error;
  HttpResponse response;
  auto reservations =
      context.service->ReservationsByGuestEmail(*email, std::get<PageRequest>(page));
  if (Failed(reservations, &response)) return response;
  return ReservationPage(*reservations);
}

HttpResponse ReservationsByGuest(const Context& context, Call& call) {
  if (call.query.count("email") != 0) return ReservationsByGuestEmail(context, call);
  auto last_name = Param(call.query, "last_name");
  if (!last_name || FoldName(*last_name).empty()) {
    return Error(400, "invalid_field", "last_name (or email) is required", "last_name");
  }
  auto page = PageParams(call.query);
  if (auto* error = std::get_if<HttpResponse>(&page)) return *error;
  HttpResponse response;
  auto reservations = context.service->ReservationsByGuest(
      *last_name, Param(call.query, "first_name"), std::get<PageRequest>(page));
  if (Failed(reservations, &response)) return response;
  return ReservationPage(*reservations);
}

HttpResponse GetGuest(const Context& context, Call& call) {
  auto id = common::Uuid::Parse(call.path[1]);
  if (!id.ok()) return Error(404, "not_found", "Guest '" + call.path[1] + "' not found");
  HttpResponse response;
  auto guest = context.service->GetGuest(*id);
  if (Failed(guest, &response)) return response;
  return JsonResponse(200, GuestJson(*guest));
}

// A stay that starts before today cannot be booked: 400 naming check_in (not the 409 "not
// free" its unopened past nights would give).
std::optional<HttpResponse> StayInThePast(Day check_in) {
  if (check_in >= Today()) return std::nullopt;
  return FieldErrorResponse(FieldError{
      "check_in", fmt::format("must be today ({}) or later: a stay cannot start in the past",
                              FormatDay(Today()))});
}

HttpResponse Book(const Context& context, Call& call) {
  auto booking = ReadBooking(call.body, context.service->options().max_stay_nights);
  if (auto* error = std::get_if<FieldError>(&booking)) return FieldErrorResponse(*error);
  BookingRequest& request = std::get<BookingRequest>(booking);
  if (auto past = StayInThePast(request.check_in)) return *past;
  request.actor = Actor(call);
  if (request.guest_id && !call.staff) {
    return ErrorResponse(NeedsLogin(
        "Booking for an existing guest (guest.guest_id) needs a staff login; give the guest's "
        "name and details instead"));
  }
  HttpResponse response;
  auto reservation = context.service->Book(request);
  const ServiceMetrics& metrics = ServiceMetrics::Get();
  CountOutcome(reservation, metrics.bookings, metrics.booking_conflicts);
  if (Failed(reservation, &response)) return response;
  return JsonResponse(201, ReservationJson(*reservation));
}

HttpResponse CreateGuest(const Context& context, Call& call) {
  auto guest = ReadGuest(call.body, "");
  if (auto* error = std::get_if<FieldError>(&guest)) return FieldErrorResponse(*error);
  HttpResponse response;
  auto created = context.service->CreateGuest(std::get<Guest>(guest));
  if (Failed(created, &response)) return response;
  return JsonResponse(201, GuestJson(*created));
}

HttpResponse CreateHotel(const Context& context, Call& call) {
  auto hotel = ReadHotel(call.body);
  if (auto* error = std::get_if<FieldError>(&hotel)) return FieldErrorResponse(*error);
  HttpResponse response;
  auto created = context.service->CreateHotel(std::get<Hotel>(hotel));
  if (Failed(created, &response)) return response;
  return JsonResponse(201, HotelJson(*created, true));
}

HttpResponse CreatePoi(const Context& context, Call& call) {
  auto poi = ReadPoi(call.body);
  if (auto* error = std::get_if<FieldError>(&poi)) return FieldErrorResponse(*error);
  Status created = context.service->CreatePoi(std::get<Poi>(poi));
  if (!created.ok()) return ErrorResponse(created);
  return JsonResponse(201, PoiJson(std::get<Poi>(poi)));
}

HttpResponse AddRoom(const Context& context, Call& call) {
  auto room = ReadRoom(call.body);
  if (auto* error = std::get_if<FieldError>(&room)) return FieldErrorResponse(*error);
  Status added = context.service->AddRoom(call.path[1], std::get<Room>(room));
  if (!added.ok()) return ErrorResponse(added);
  const Room& value = std::get<Room>(room);
  json::array amenities;
  for (const Amenity& amenity : value.amenities) {
    amenities.push_back(json::object{{"name", amenity.name}, {"description", amenity.description}});
  }
  return JsonResponse(201, json::object{{"hotel_id", call.path[1]},
                                        {"room_number", value.room_number},
                                        {"room_type", value.room_type},
                                        {"rate", FormatMoney(value.base_rate)},
                                        {"currency", kCurrency},
                                        {"amenities", std::move(amenities)}});
}

HttpResponse OpenAvailability(const Context& context, Call& call) {
  auto open = ReadOpen(call.body);
  if (auto* error = std::get_if<FieldError>(&open)) return FieldErrorResponse(*error);
  const OpenRequest& value = std::get<OpenRequest>(open);
  HttpResponse response;
  auto opened = context.service->OpenAvailability(call.path[1], value.start, value.end, value.rate);
  if (Failed(opened, &response)) return response;
  return JsonResponse(200, json::object{{"nights_opened", *opened}});
}

HttpResponse ChangeReservation(const Context& context, Call& call) {
  auto last_name = GuestLastName(call);
  if (auto* error = std::get_if<HttpResponse>(&last_name)) return *error;
  auto change = ReadChange(call.body, context.service->options().max_stay_nights);
  if (auto* error = std::get_if<FieldError>(&change)) return FieldErrorResponse(*error);
  if (auto past = StayInThePast(std::get<ChangeRequest>(change).check_in)) return *past;
  HttpResponse response;
  auto changed =
      context.service->Change(call.path[1], std::get<ChangeRequest>(change),
                              std::get<std::optional<std::string>>(last_name), Actor(call));
  const ServiceMetrics& metrics = ServiceMetrics::Get();
  CountOutcome(changed, metrics.changes, metrics.change_conflicts);
  if (Failed(changed, &response)) return response;
  return JsonResponse(200, ReservationJson(*changed));
}

// GET /reservations/{confirmation_number}/quote?check_in=&check_out=[&room_number=]: what PUT with
// the same stay would charge now, changing nothing (the UI shows it before the guest confirms).
HttpResponse QuoteReservationChange(const Context& context, Call& call) {
  auto last_name = GuestLastName(call);
  if (auto* error = std::get_if<HttpResponse>(&last_name)) return *error;
  auto stay = StayParams(context, call);
  if (auto* error = std::get_if<HttpResponse>(&stay)) return *error;
  ChangeRequest& request = std::get<ChangeRequest>(stay);
  if (auto room = Param(call.query, "room_number")) {
    auto number = RoomSegment(*room);
    if (auto* error = std::get_if<HttpResponse>(&number)) return *error;
    request.room_number = std::get<int16_t>(number);
  }
  HttpResponse response;
  auto quote = context.service->QuoteChange(call.path[1], request,
                                            std::get<std::optional<std::string>>(last_name));
  if (Failed(quote, &response)) return response;
  return JsonResponse(200, ChangeQuoteJson(*quote));
}

HttpResponse UpdateGuest(const Context& context, Call& call) {
  auto id = common::Uuid::Parse(call.path[1]);
  if (!id.ok()) return Error(404, "not_found", "Guest '" + call.path[1] + "' not found");
  auto guest = ReadGuest(call.body, "");
  if (auto* error = std::get_if<FieldError>(&guest)) return FieldErrorResponse(*error);
  HttpResponse response;
  auto updated = context.service->UpdateGuest(*id, std::get<Guest>(guest));
  if (Failed(updated, &response)) return response;
  return JsonResponse(200, GuestJson(*updated));
}

HttpResponse CancelReservation(const Context& context, Call& call) {
  auto last_name = GuestLastName(call);
  if (auto* error = std::get_if<HttpResponse>(&last_name)) return *error;
  HttpResponse response;
  auto cancelled = context.service->Cancel(
      call.path[1], std::get<std::optional<std::string>>(last_name), Actor(call));
  if (cancelled.ok()) ServiceMetrics::Get().cancellations.Increment();
  if (Failed(cancelled, &response)) return response;
  return JsonResponse(200, ReservationJson(*cancelled));
}

HttpResponse ReservationHistory(const Context& context, Call& call) {
  auto last_name = GuestLastName(call);
  if (auto* error = std::get_if<HttpResponse>(&last_name)) return *error;
  auto page = PageParams(call.query);
  if (auto* error = std::get_if<HttpResponse>(&page)) return *error;
  HttpResponse response;
  auto history = context.service->History(
      call.path[1], std::get<std::optional<std::string>>(last_name), std::get<PageRequest>(page));
  if (Failed(history, &response)) return response;
  return PageResponse(HistoryJson(history->reservation, history->events), history->paging_state);
}

// POST /reservations/{confirmation_number}/check-in, /check-out, /no-show (staff).
HttpResponse StayEvent(const Context& context, Call& call, ReservationAction action) {
  HttpResponse response;
  auto reservation = context.service->RecordStayEvent(call.path[1], action, call.staff->username);
  if (Failed(reservation, &response)) return response;
  return JsonResponse(200, ReservationJson(*reservation));
}

HttpResponse CheckIn(const Context& context, Call& call) {
  return StayEvent(context, call, ReservationAction::kCheckedIn);
}

HttpResponse CheckOut(const Context& context, Call& call) {
  return StayEvent(context, call, ReservationAction::kCheckedOut);
}

HttpResponse NoShow(const Context& context, Call& call) {
  return StayEvent(context, call, ReservationAction::kNoShow);
}

// Set-Cookie for the session cookie: `token` for `max_age`, or "" with 0 to clear it.
std::string SessionCookie(const std::string& token, std::chrono::seconds max_age, bool secure) {
  return fmt::format("{}={}; Path=/; Max-Age={}; HttpOnly; SameSite=Strict{}", kSessionCookie,
                     token, max_age.count(), secure ? "; Secure" : "");
}

HttpResponse TooManyAttempts(std::chrono::seconds wait, const std::string& message) {
  HttpResponse response = ErrorResponse(Status(StatusCode::kOverloaded, message));
  response.headers.emplace_back("Retry-After", std::to_string(wait.count()));
  return response;
}

HttpResponse Login(const Context& context, Call& call) {
  auto login = ReadLogin(call.body);
  if (auto* error = std::get_if<FieldError>(&login)) return FieldErrorResponse(*error);
  const LoginRequest& request = std::get<LoginRequest>(login);
  if (context.auth == nullptr) {
    return ErrorResponse(NeedsLogin("Staff login is not available on this server"));
  }
  const std::string& address = call.request.client_address;
  const ServiceMetrics& metrics = ServiceMetrics::Get();
  if (auto wait = context.auth->RetryAfter(address, request.username); wait.count() > 0) {
    metrics.logins_throttled.Increment();
    return TooManyAttempts(wait,
                           fmt::format("Too many failed logins; try again in {} s", wait.count()));
  }
  auto grant = context.auth->Login(address, request.username, request.password);
  if (!grant.ok()) {
    if (grant.status().code() == StatusCode::kOverloaded) {
      metrics.logins_throttled.Increment();
      return TooManyAttempts(std::chrono::seconds(1), grant.status().message());
    }
    if (grant.status().code() == StatusCode::kAuthenticationError) {
      metrics.login_failures.Increment();
    }
    return ErrorResponse(grant.status());
  }
  HttpResponse response =
      JsonResponse(200, json::object{{"username", grant->username},
                                     {"token", grant->token},
                                     {"token_type", "Bearer"},
                                     {"expires_in", grant->lifetime.count()},
                                     {"idle_timeout", grant->idle_timeout.count()}});
  response.headers.emplace_back("Set-Cookie",
                                SessionCookie(grant->token, grant->lifetime, call.request.secure));
  response.headers.emplace_back("Cache-Control", "no-store");
  return response;
}

HttpResponse Logout(const Context& context, Call& call) {
  if (context.auth != nullptr && !call.token.empty()) context.auth->Logout(call.token);
  HttpResponse response = JsonResponse(200, json::object{{"status", "logged_out"}});
  response.headers.emplace_back("Set-Cookie",
                                SessionCookie("", std::chrono::seconds(0), call.request.secure));
  return response;
}

HttpResponse GetSession(const Context&, Call& call) {
  HttpResponse response =
      JsonResponse(200, json::object{{"username", call.staff->username},
                                     {"expires_in", call.staff->remaining_lifetime.count()}});
  response.headers.emplace_back("Cache-Control", "no-store");
  return response;
}

// --- The staff console (docs/staff-console.md) ---------------------------------------------

// GET /hotels?page_size=&cursor= (staff): the hotels one page at a time.
HttpResponse ListHotels(const Context& context, Call& call) {
  auto request = PageParams(call.query);
  if (auto* error = std::get_if<HttpResponse>(&request)) return *error;
  PageRequest& page_request = std::get<PageRequest>(request);
  HttpResponse response;
  auto page =
      context.service->ListHotels(page_request.page_size, std::move(page_request.paging_state));
  if (Failed(page, &response)) return response;
  json::array hotels;
  for (const Hotel& hotel : page->hotels) hotels.push_back(HotelJson(hotel, false));
  return PageResponse(json::object{{"hotels", std::move(hotels)}}, page->paging_state);
}

// GET /hotels/{id}/occupancy?start=&days= (staff): the week-by-room grid.
HttpResponse GetOccupancy(const Context& context, Call& call) {
  auto start = DateParam(call.query, "start");
  if (auto* error = std::get_if<HttpResponse>(&start)) return *error;
  auto days = CountParam(call.query, "days", 7, kMaxOccupancyDays);
  if (auto* error = std::get_if<HttpResponse>(&days)) return *error;
  auto page = PageParams(call.query);
  if (auto* error = std::get_if<HttpResponse>(&page)) return *error;
  HttpResponse response;
  auto occupancy = context.service->GetOccupancy(call.path[1], std::get<Day>(start),
                                                 std::get<int>(days), std::get<PageRequest>(page));
  if (Failed(occupancy, &response)) return response;
  return PageResponse(OccupancyJson(*occupancy), occupancy->paging_state);
}

// GET /hotels/{id}/departures?date= and /in-house?date= (staff; Q11).
HttpResponse StayList(const Context& context, Call& call, bool departures) {
  auto date = DateParam(call.query, "date");
  if (auto* error = std::get_if<HttpResponse>(&date)) return *error;
  auto request = PageParams(call.query);
  if (auto* error = std::get_if<HttpResponse>(&request)) return *error;
  const PageRequest& page = std::get<PageRequest>(request);
  HttpResponse response;
  auto stays = departures ? context.service->Departures(call.path[1], std::get<Day>(date), page)
                          : context.service->InHouse(call.path[1], std::get<Day>(date), page);
  if (Failed(stays, &response)) return response;
  return ReservationPage(*stays);
}

HttpResponse Departures(const Context& context, Call& call) {
  return StayList(context, call, true);
}

HttpResponse InHouse(const Context& context, Call& call) { return StayList(context, call, false); }

// PUT /hotels/{id}/rates (staff): 400 for an impossible range or rate, 422 for a range in the
// past or with no opened night.
HttpResponse ChangeRates(const Context& context, Call& call) {
  auto rates = ReadRates(call.body);
  if (auto* error = std::get_if<FieldError>(&rates)) return FieldErrorResponse(*error);
  const RatesRequest& request = std::get<RatesRequest>(rates);
  if (request.start < Today()) {
    return Error(422, "date_in_past", "start is in the past: rates of past nights cannot change",
                 "start");
  }
  HttpResponse response;
  auto changed = context.service->ChangeRates(call.path[1], request.start, request.end,
                                              request.rate, request.room_number);
  if (Failed(changed, &response)) return response;
  if (*changed == 0) {
    return Error(422, "not_opened",
                 "No night of that range is open; open the inventory for it first", "start");
  }
  return JsonResponse(200, json::object{{"nights_changed", *changed},
                                        {"rate", FormatMoney(request.rate)},
                                        {"currency", kCurrency}});
}

// --- The endpoint table ---------------------------------------------------------------------

// kPublic: anyone. kGuest: anyone, with the guest's last name unless staff (GuestLastName).
// kStaff: a live staff session (401 otherwise).
enum class Access { kPublic, kGuest, kStaff };

using Handler = HttpResponse (*)(const Context&, Call&);

struct Endpoint {
  std::string_view method;
  std::vector<std::string_view> path;  // segments after /api/v1; "*" matches any one
  Access access;
  Handler handler;
};

const std::vector<Endpoint>& Endpoints() {
  static const std::vector<Endpoint> endpoints{
      {"GET", {"health"}, Access::kPublic, GetHealth},
      {"GET", {"openapi.json"}, Access::kPublic, GetOpenApi},
      {"GET", {"pois"}, Access::kPublic, ListPois},
      {"GET", {"pois", "*", "hotels"}, Access::kPublic, HotelsNearPoi},
      {"GET", {"hotels", "*"}, Access::kPublic, GetHotel},
      {"GET", {"hotels", "*", "pois"}, Access::kPublic, HotelPois},
      {"GET", {"hotels", "*", "availability"}, Access::kPublic, GetAvailability},
      {"GET", {"hotels", "*", "rooms", "*"}, Access::kPublic, GetRoom},
      {"POST", {"reservations"}, Access::kPublic, Book},  // guest_id: staff (Book)
      {"POST", {"login"}, Access::kPublic, Login},
      {"POST", {"logout"}, Access::kPublic, Logout},
      {"GET", {"reservations", "*"}, Access::kGuest, GetReservation},
      {"PUT", {"reservations", "*"}, Access::kGuest, ChangeReservation},
      {"DELETE", {"reservations", "*"}, Access::kGuest, CancelReservation},
      {"GET", {"reservations", "*", "history"}, Access::kGuest, ReservationHistory},
      {"GET", {"reservations", "*", "quote"}, Access::kGuest, QuoteReservationChange},
      {"POST", {"reservations", "*", "check-in"}, Access::kStaff, CheckIn},
      {"POST", {"reservations", "*", "check-out"}, Access::kStaff, CheckOut},
      {"POST", {"reservations", "*", "no-show"}, Access::kStaff, NoShow},
      {"GET", {"session"}, Access::kStaff, GetSession},
      {"GET", {"hotels", "*", "reservations"}, Access::kStaff, ArrivalsByHotelDate},
      {"GET", {"reservations"}, Access::kStaff, ReservationsByGuest},
      {"GET", {"guests", "*"}, Access::kStaff, GetGuest},
      {"POST", {"guests"}, Access::kStaff, CreateGuest},
      {"PUT", {"guests", "*"}, Access::kStaff, UpdateGuest},
      {"POST", {"hotels"}, Access::kStaff, CreateHotel},
      {"POST", {"pois"}, Access::kStaff, CreatePoi},
      {"POST", {"hotels", "*", "rooms"}, Access::kStaff, AddRoom},
      {"POST", {"hotels", "*", "availability"}, Access::kStaff, OpenAvailability},
      // The staff console.
      {"GET", {"hotels"}, Access::kStaff, ListHotels},
      {"GET", {"hotels", "*", "occupancy"}, Access::kStaff, GetOccupancy},
      {"GET", {"hotels", "*", "departures"}, Access::kStaff, Departures},
      {"GET", {"hotels", "*", "in-house"}, Access::kStaff, InHouse},
      {"PUT", {"hotels", "*", "rates"}, Access::kStaff, ChangeRates},
  };
  return endpoints;
}

// False for the POST endpoints that read no body (logout, the front-desk actions): a request
// without one is fine.
bool TakesBody(const Endpoint& endpoint) {
  return endpoint.handler != Logout && endpoint.handler != CheckIn &&
         endpoint.handler != CheckOut && endpoint.handler != NoShow;
}

// The endpoint's route template, with the OpenAPI document's parameter names:
// `/api/v1/hotels/{hotel_id}/rooms/{room_number}`.
std::string RouteTemplate(const Endpoint& endpoint) {
  std::string route = "/api/v1";
  std::string_view previous;
  for (std::string_view segment : endpoint.path) {
    route += '/';
    if (segment != "*") {
      route += segment;
    } else if (previous == "rooms") {
      route += "{room_number}";
    } else if (previous == "reservations") {
      route += "{confirmation_number}";
    } else if (previous == "pois") {
      route += "{poi_name}";
    } else if (previous == "guests") {
      route += "{guest_id}";
    } else {
      route += "{hotel_id}";
    }
    previous = segment;
  }
  return route;
}

const Endpoint* FindEndpoint(const std::string& method, const std::vector<std::string>& path) {
  for (const Endpoint& endpoint : Endpoints()) {
    if (endpoint.method != method || endpoint.path.size() != path.size()) continue;
    bool matches = true;
    for (size_t i = 0; i < path.size() && matches; ++i) {
      matches = endpoint.path[i] == "*" || endpoint.path[i] == path[i];
    }
    if (matches) return &endpoint;
  }
  return nullptr;
}

// The methods the endpoint table serves on `path` (empty: no endpoint has that path).
std::vector<std::string_view> AllowedMethods(const std::vector<std::string>& path) {
  std::vector<std::string_view> allowed;
  for (std::string_view method : {"GET", "POST", "PUT", "DELETE"}) {
    if (FindEndpoint(std::string(method), path) != nullptr) allowed.push_back(method);
  }
  return allowed;
}

// 405 method_not_allowed, with the `Allow` header RFC 9110 §15.5.6 requires.
HttpResponse MethodNotAllowed(const std::string& method, const std::string& path,
                              const std::vector<std::string_view>& allowed) {
  std::string list = fmt::format("{}", fmt::join(allowed, ", "));
  HttpResponse response = Error(405, "method_not_allowed",
                                fmt::format("{} does not allow {}; it allows {}", path,
                                            method.empty() ? "that method" : method, list));
  response.headers.emplace_back("Allow", list);
  return response;
}

// The operations served outside /api/v1 that the OpenAPI document describes.
constexpr std::string_view kRootRoutes[] = {"/health/live", "/health/ready", "/metrics"};

// Fills `call.token` and `call.staff`; returns the 401 (or 503) to answer when `endpoint`
// needs a staff session the request does not have.
std::optional<HttpResponse> Authenticate(StaffAuth* auth, const Endpoint& endpoint,
                                         const RequestCredentials& credentials, Call& call) {
  call.token = credentials.token();
  if (auth != nullptr && !credentials.token().empty()) {
    auto session = auth->Authenticate(credentials.token());
    if (session.ok()) {
      call.staff = *session;
    } else if (endpoint.access == Access::kStaff) {
      return ErrorResponse(session.status());
    }
  }
  if (endpoint.access != Access::kStaff || call.staff) return std::nullopt;
  if (credentials.malformed()) {
    return ErrorResponse(NeedsLogin("The Authorization header must be 'Bearer <token>'"));
  }
  if (!credentials.token().empty()) {
    return ErrorResponse(NeedsLogin("The session has expired or was ended; log in again"));
  }
  return ErrorResponse(
      NeedsLogin("This needs a staff login: POST /api/v1/login, then send the session cookie "
                 "or 'Authorization: Bearer <token>'"));
}

// Parses a POST or PUT body into `call.body`; the 413, 415 or 400 to answer otherwise.
std::optional<HttpResponse> ReadBody(const HttpRequest& request, Call& call) {
  constexpr size_t kMaxBodyBytes = 64 * 1024;
  if (request.body.size() > kMaxBodyBytes) {
    return Error(413, "payload_too_large",
                 fmt::format("The request body must be at most {} bytes", kMaxBodyBytes));
  }
  if (!request.content_type.empty() &&
      request.content_type.find("application/json") == std::string::npos) {
    return Error(415, "unsupported_media_type", "The Content-Type must be application/json");
  }
  boost::system::error_code ec;
  json::value body = json::parse(request.body, ec);
  if (ec) return Error(400, "invalid_json", "Malformed JSON: " + ec.message());
  if (!body.is_object()) return Error(400, "invalid_json", "The body must be a JSON object");
  call.body = std::move(body.as_object());
  return std::nullopt;
}

// True for an IPv4 loopback address (127.0.0.0/8), ::1, or IPv4 loopback mapped into IPv6.
bool IsLoopback(std::string_view address) {
  if (address.starts_with("::ffff:")) address.remove_prefix(7);
  return address == "::1" || address.starts_with("127.");
}

std::string ContentTypeOf(std::string_view file) {
  constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".json", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
  };
  for (const auto& [suffix, type] : kTypes) {
    if (file.ends_with(suffix)) return std::string(type);
  }
  return "application/octet-stream";
}

HttpResponse Named(HttpResponse response, std::string route) {
  response.route = std::move(route);
  return response;
}

}  // namespace

ApiRouter::ApiRouter(HotelService* service, StaffAuth* auth, std::string web_directory,
                     std::string mode)
    : service_(service),
      auth_(auth),
      web_directory_(std::move(web_directory)),
      mode_(std::move(mode)) {
  ServiceMetrics::Get();  // every series of the service exists, at 0, from the start
  if (service_ != nullptr) {
    readiness_ = std::make_unique<ReadinessProbe>(
        [service = service_] { return service->CheckDatabase(); }, kReadinessDeadline);
  }
}

ApiRouter::~ApiRouter() = default;

std::vector<std::pair<std::string, std::string>> ApiRouter::Routes() {
  std::vector<std::pair<std::string, std::string>> routes;
  for (const Endpoint& endpoint : Endpoints()) {
    routes.emplace_back(std::string(endpoint.method), RouteTemplate(endpoint));
  }
  for (std::string_view route : kRootRoutes) routes.emplace_back("GET", std::string(route));
  return routes;
}

HttpResponse ApiRouter::Handle(const HttpRequest& request) const {
  try {
    return Route(request);
  } catch (const std::exception& error) {
    return Named(Error(500, "internal", std::string("internal error: ") + error.what()), "other");
  } catch (...) {
    return Named(Error(500, "internal", "internal error"), "other");
  }
}

HttpResponse ApiRouter::ServeStatic(const std::string& path) const {
  if (path.find("..") != std::string::npos || path.find('\0') != std::string::npos) {
    return Error(404, "not_found", "No such page: " + path);
  }
  std::string file = path == "/" ? "/index.html" : path;
  if (web_directory_.empty()) {
    std::optional<std::string_view> content = FindEmbeddedWebAsset(file);
    if (!content) return Error(404, "not_found", "No such page: " + path);
    return {200, ContentTypeOf(file), std::string(*content), {}, {}};
  }
  std::ifstream in(web_directory_ + file, std::ios::binary);
  if (!in.good()) return Error(404, "not_found", "No such page: " + path);
  std::stringstream content;
  content << in.rdbuf();
  return {200, ContentTypeOf(file), content.str(), {}, {}};
}

HttpResponse ApiRouter::Metrics(const HttpRequest& request) const {
  if (!IsLoopback(request.client_address)) {
    RequestCredentials credentials = RequestCredentials::Of(request);
    bool staff = auth_ != nullptr && !credentials.token().empty() &&
                 auth_->Authenticate(credentials.token()).ok();
    if (!staff) {
      return ErrorResponse(NeedsLogin(
          "/metrics is served to clients on this host (a loopback address) or to a staff "
          "session ('Authorization: Bearer <token>')"));
    }
  }
  HttpResponse response{200,
                        "text/plain; version=0.0.4; charset=utf-8",
                        common::metrics::Registry::Global().RenderPrometheus(),
                        {},
                        {}};
  response.headers.emplace_back("Cache-Control", "no-store");
  return response;
}

HttpResponse ApiRouter::RouteOutsideApi(const HttpRequest& request, const std::string& path) const {
  if (request.method != "GET" && request.method != "HEAD") {
    return Named(MethodNotAllowed(request.method, path, {"GET", "HEAD"}), "other");
  }
  if (path == "/health/live") {
    return Named(JsonResponse(200, json::object{{"status", "live"}}), path);
  }
  if (path == "/health/ready") return Named(ReadinessResponse(readiness_.get(), mode_), path);
  if (path == "/metrics") return Named(Metrics(request), path);
  if (path == "/" || path == "/favicon.ico") return Named(ServeStatic(path), path);
  if (path.rfind("/static/", 0) == 0) return Named(ServeStatic(path), "/static/{file}");
  return Named(Error(404, "not_found", "No such page: " + path), "other");
}

HttpResponse ApiRouter::Route(const HttpRequest& request) const {
  auto parsed = boost::urls::parse_origin_form(request.target);
  if (!parsed) return Named(Error(400, "bad_request", "Malformed request target"), "other");
  Call call{request, {}, {}, {}, {}, {}};
  for (auto segment : parsed->segments()) call.path.push_back(segment);
  for (auto param : parsed->params()) call.query[param.key] = param.value;
  std::string path = std::string(parsed->path());

  const std::string& method = request.method;
  if (call.path.size() < 2 || call.path[0] != "api" || call.path[1] != "v1") {
    return RouteOutsideApi(request, path);
  }
  call.path.erase(call.path.begin(), call.path.begin() + 2);
  const Endpoint* endpoint = FindEndpoint(method, call.path);
  if (endpoint == nullptr) {
    std::vector<std::string_view> allowed = AllowedMethods(call.path);
    if (!allowed.empty()) return Named(MethodNotAllowed(method, path, allowed), "other");
    return Named(Error(404, "not_found", "No such endpoint: " + method + " " + path), "other");
  }
  std::string route = RouteTemplate(*endpoint);

  RequestCredentials credentials = RequestCredentials::Of(request);
  if (method != "GET" && (credentials.from_cookie() || endpoint->handler == Login) &&
      CrossOrigin(request)) {
    return Named(ErrorResponse(Status::Unauthorized(
                     "Cross-origin request refused: the Origin header does not match this server")),
                 route);
  }
  if (auto refused = Authenticate(auth_, *endpoint, credentials, call)) {
    return Named(*refused, route);
  }
  if ((method == "POST" || method == "PUT") && TakesBody(*endpoint)) {
    if (auto refused = ReadBody(request, call)) return Named(*refused, route);
  }
  return Named(endpoint->handler(Context{service_, auth_, mode_, readiness_.get()}, call), route);
}

}  // namespace hotel
