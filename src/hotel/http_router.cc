#include "hotel/http_router.h"

#include <fmt/format.h>

#include <boost/json.hpp>
#include <boost/url.hpp>
#include <exception>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "cql/parser/lexer.h"
#include "hotel/http_json.h"

namespace hotel {

namespace json = boost::json;

namespace {

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
  return {status, "application/json", ValidUtf8(json::serialize(value))};
}

HttpResponse Error(int status, std::string_view code, std::string_view message,
                   std::string_view field = {}) {
  json::object error{{"status", status}, {"code", code}, {"message", message}};
  if (!field.empty()) error["field"] = field;
  return JsonResponse(status, json::object{{"error", std::move(error)}});
}

HttpResponse FieldErrorResponse(const FieldError& error) {
  return Error(400, "invalid_field", error.field + " " + error.message, error.field);
}

// The one place service errors become HTTP errors (hotel_service.h lists the codes).
HttpResponse ErrorResponse(const common::Status& status) {
  switch (status.code()) {
    case common::StatusCode::kInvalid:
      return Error(400, "bad_request", status.message());
    case common::StatusCode::kNotFound:
      return Error(404, "not_found", status.message());
    case common::StatusCode::kAlreadyExists:
      return Error(409, "conflict", status.message());
    case common::StatusCode::kWriteFailure:
      return Error(409, "room_unavailable", status.message());
    case common::StatusCode::kUnavailable:
      return Error(503, "database_unavailable", status.message());
    default:
      return Error(500, "internal", status.message());
  }
}

template <typename T>
bool Failed(const common::Result<T>& result, HttpResponse* response) {
  if (result.ok()) return false;
  *response = ErrorResponse(result.status());
  return true;
}

using Query = std::map<std::string, std::string>;

// A parsed request: decoded path segments after /api/v1 and query parameters.
struct Call {
  const HttpRequest& request;
  std::vector<std::string> path;
  Query query;
  json::object body;
};

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

json::array ReservationArray(const std::vector<Reservation>& reservations) {
  json::array array;
  for (const Reservation& reservation : reservations) {
    array.push_back(ReservationJson(reservation));
  }
  return array;
}

json::array PoiArray(const std::vector<Poi>& pois) {
  json::array array;
  for (const Poi& poi : pois) array.push_back(PoiJson(poi));
  return array;
}

constexpr size_t kMaxBodyBytes = 64 * 1024;

}  // namespace

ApiRouter::ApiRouter(HotelService* service, std::string web_directory, std::string mode)
    : service_(service), web_directory_(std::move(web_directory)), mode_(std::move(mode)) {}

HttpResponse ApiRouter::Handle(const HttpRequest& request) const {
  try {
    return Route(request);
  } catch (const std::exception& error) {
    return Error(500, "internal", std::string("internal error: ") + error.what());
  } catch (...) {
    return Error(500, "internal", "internal error");
  }
}

HttpResponse ApiRouter::ServeStatic(const std::string& path) const {
  if (web_directory_.empty() || path.find("..") != std::string::npos ||
      path.find('\0') != std::string::npos) {
    return Error(404, "not_found", "No such page: " + path);
  }
  std::string file = path == "/" ? "/index.html" : path;
  std::ifstream in(web_directory_ + file, std::ios::binary);
  if (!in.good()) return Error(404, "not_found", "No such page: " + path);
  std::stringstream content;
  content << in.rdbuf();
  std::string type = "application/octet-stream";
  auto ends_with = [&](std::string_view suffix) {
    return file.size() >= suffix.size() &&
           file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".html")) type = "text/html; charset=utf-8";
  if (ends_with(".css")) type = "text/css; charset=utf-8";
  if (ends_with(".js") || ends_with(".mjs")) type = "text/javascript; charset=utf-8";
  if (ends_with(".json")) type = "application/json";
  if (ends_with(".svg")) type = "image/svg+xml";
  if (ends_with(".png")) type = "image/png";
  if (ends_with(".ico")) type = "image/x-icon";
  return {200, type, content.str()};
}

HttpResponse ApiRouter::Route(const HttpRequest& request) const {
  auto parsed = boost::urls::parse_origin_form(request.target);
  if (!parsed) return Error(400, "bad_request", "Malformed request target");
  Call call{request, {}, {}, {}};
  for (auto segment : parsed->segments()) call.path.push_back(segment);
  for (auto param : parsed->params()) call.query[param.key] = param.value;
  std::string path = std::string(parsed->path());

  const std::string& method = request.method;
  if (call.path.size() < 2 || call.path[0] != "api" || call.path[1] != "v1") {
    if (method != "GET" && method != "HEAD") return Error(405, "bad_request", "Method not allowed");
    if (path == "/" || path.rfind("/static/", 0) == 0 || path == "/favicon.ico") {
      return ServeStatic(path);
    }
    return Error(404, "not_found", "No such page: " + path);
  }
  call.path.erase(call.path.begin(), call.path.begin() + 2);
  const std::vector<std::string>& p = call.path;

  if (method == "POST" || method == "PUT") {
    if (request.body.size() > kMaxBodyBytes) {
      return Error(413, "bad_request", "Request body too large");
    }
    if (!request.content_type.empty() &&
        request.content_type.find("application/json") == std::string::npos) {
      return Error(415, "bad_request", "Content-Type must be application/json");
    }
    boost::system::error_code ec;
    json::value body = json::parse(request.body, ec);
    if (ec) return Error(400, "invalid_json", "Malformed JSON: " + ec.message());
    if (!body.is_object()) return Error(400, "invalid_json", "The body must be a JSON object");
    call.body = std::move(body.as_object());
  }

  HttpResponse response;

  if (method == "GET") {
    if (p.size() == 1 && p[0] == "health") {
      return JsonResponse(200, json::object{{"status", "ok"}, {"mode", mode_}});
    }
    if (p.size() == 1 && p[0] == "openapi.json") {
      return {200, "application/json", std::string(OpenApiDocument())};
    }
    if (p.size() == 1 && p[0] == "pois") {
      auto pois = service_->ListPois();
      if (Failed(pois, &response)) return response;
      return JsonResponse(200, json::object{{"pois", PoiArray(*pois)}});
    }
    if (p.size() == 3 && p[0] == "pois" && p[2] == "hotels") {
      auto answer = service_->HotelsNearPoi(p[1]);
      if (Failed(answer, &response)) return response;
      json::array hotels;
      for (const Hotel& hotel : answer->hotels) hotels.push_back(HotelJson(hotel, false));
      return JsonResponse(
          200, json::object{{"poi", PoiJson(answer->poi)}, {"hotels", std::move(hotels)}});
    }
    if (p.size() == 2 && p[0] == "hotels") {
      auto hotel = service_->GetHotel(p[1]);
      if (Failed(hotel, &response)) return response;
      return JsonResponse(200, HotelJson(*hotel, true));
    }
    if (p.size() == 3 && p[0] == "hotels" && p[2] == "pois") {
      auto pois = service_->HotelPois(p[1]);
      if (Failed(pois, &response)) return response;
      return JsonResponse(200, json::object{{"pois", PoiArray(*pois)}});
    }
    if (p.size() == 3 && p[0] == "hotels" && p[2] == "availability") {
      auto check_in = DateParam(call.query, "check_in");
      if (auto* error = std::get_if<HttpResponse>(&check_in)) return *error;
      auto check_out = DateParam(call.query, "check_out");
      if (auto* error = std::get_if<HttpResponse>(&check_out)) return *error;
      if (auto error = CheckStay(std::get<Day>(check_in), std::get<Day>(check_out),
                                 service_->options().max_stay_nights, "check_out")) {
        return FieldErrorResponse(*error);
      }
      auto availability =
          service_->FindAvailability(p[1], std::get<Day>(check_in), std::get<Day>(check_out));
      if (Failed(availability, &response)) return response;
      return JsonResponse(200, AvailabilityJson(*availability));
    }
    if (p.size() == 4 && p[0] == "hotels" && p[2] == "rooms") {
      auto room = RoomSegment(p[3]);
      if (auto* error = std::get_if<HttpResponse>(&room)) return *error;
      std::optional<Day> date;
      if (call.query.count("date") != 0) {
        auto day = DateParam(call.query, "date");
        if (auto* error = std::get_if<HttpResponse>(&day)) return *error;
        date = std::get<Day>(day);
      }
      auto details = service_->GetRoom(p[1], std::get<int16_t>(room), date);
      if (Failed(details, &response)) return response;
      return JsonResponse(200, RoomJson(*details));
    }
    if (p.size() == 2 && p[0] == "reservations") {
      auto reservation = service_->GetReservation(p[1]);
      if (Failed(reservation, &response)) return response;
      return JsonResponse(200, ReservationJson(*reservation));
    }
    if (p.size() == 3 && p[0] == "hotels" && p[2] == "reservations") {
      auto date = DateParam(call.query, "date");
      if (auto* error = std::get_if<HttpResponse>(&date)) return *error;
      auto reservations = service_->ReservationsByHotelDate(p[1], std::get<Day>(date),
                                                            Param(call.query, "last_name"));
      if (Failed(reservations, &response)) return response;
      return JsonResponse(200, json::object{{"reservations", ReservationArray(*reservations)}});
    }
    if (p.size() == 1 && p[0] == "reservations") {
      auto last_name = Param(call.query, "last_name");
      if (!last_name || FoldName(*last_name).empty()) {
        return Error(400, "invalid_field", "last_name is required", "last_name");
      }
      auto reservations =
          service_->ReservationsByGuest(*last_name, Param(call.query, "first_name"));
      if (Failed(reservations, &response)) return response;
      return JsonResponse(200, json::object{{"reservations", ReservationArray(*reservations)}});
    }
    if (p.size() == 2 && p[0] == "guests") {
      auto id = common::Uuid::Parse(p[1]);
      if (!id.ok()) return Error(404, "not_found", "Guest '" + p[1] + "' not found");
      auto guest = service_->GetGuest(*id);
      if (Failed(guest, &response)) return response;
      return JsonResponse(200, GuestJson(*guest));
    }
    return Error(404, "not_found", "No such endpoint: GET " + path);
  }

  if (method == "POST") {
    if (p.size() == 1 && p[0] == "reservations") {
      auto booking = ReadBooking(call.body, service_->options().max_stay_nights);
      if (auto* error = std::get_if<FieldError>(&booking)) return FieldErrorResponse(*error);
      auto reservation = service_->Book(std::get<BookingRequest>(booking));
      if (Failed(reservation, &response)) return response;
      return JsonResponse(201, ReservationJson(*reservation));
    }
    if (p.size() == 1 && p[0] == "guests") {
      auto guest = ReadGuest(call.body, "");
      if (auto* error = std::get_if<FieldError>(&guest)) return FieldErrorResponse(*error);
      auto created = service_->CreateGuest(std::get<Guest>(guest));
      if (Failed(created, &response)) return response;
      return JsonResponse(201, GuestJson(*created));
    }
    if (p.size() == 1 && p[0] == "hotels") {
      auto hotel = ReadHotel(call.body);
      if (auto* error = std::get_if<FieldError>(&hotel)) return FieldErrorResponse(*error);
      auto created = service_->CreateHotel(std::get<Hotel>(hotel));
      if (Failed(created, &response)) return response;
      return JsonResponse(201, HotelJson(*created, true));
    }
    if (p.size() == 1 && p[0] == "pois") {
      auto poi = ReadPoi(call.body);
      if (auto* error = std::get_if<FieldError>(&poi)) return FieldErrorResponse(*error);
      common::Status created = service_->CreatePoi(std::get<Poi>(poi));
      if (!created.ok()) return ErrorResponse(created);
      return JsonResponse(201, PoiJson(std::get<Poi>(poi)));
    }
    if (p.size() == 3 && p[0] == "hotels" && p[2] == "rooms") {
      auto room = ReadRoom(call.body);
      if (auto* error = std::get_if<FieldError>(&room)) return FieldErrorResponse(*error);
      common::Status added = service_->AddRoom(p[1], std::get<Room>(room));
      if (!added.ok()) return ErrorResponse(added);
      const Room& value = std::get<Room>(room);
      json::array amenities;
      for (const Amenity& amenity : value.amenities) {
        amenities.push_back(
            json::object{{"name", amenity.name}, {"description", amenity.description}});
      }
      return JsonResponse(201, json::object{{"hotel_id", p[1]},
                                            {"room_number", value.room_number},
                                            {"room_type", value.room_type},
                                            {"rate", FormatMoney(value.base_rate)},
                                            {"currency", kCurrency},
                                            {"amenities", std::move(amenities)}});
    }
    if (p.size() == 3 && p[0] == "hotels" && p[2] == "availability") {
      auto open = ReadOpen(call.body);
      if (auto* error = std::get_if<FieldError>(&open)) return FieldErrorResponse(*error);
      const OpenRequest& value = std::get<OpenRequest>(open);
      auto opened = service_->OpenAvailability(p[1], value.start, value.end, value.rate);
      if (Failed(opened, &response)) return response;
      return JsonResponse(200, json::object{{"nights_opened", *opened}});
    }
    return Error(404, "not_found", "No such endpoint: POST " + path);
  }

  if (method == "PUT") {
    if (p.size() == 2 && p[0] == "reservations") {
      auto change = ReadChange(call.body, service_->options().max_stay_nights);
      if (auto* error = std::get_if<FieldError>(&change)) return FieldErrorResponse(*error);
      auto changed = service_->Change(p[1], std::get<ChangeRequest>(change));
      if (Failed(changed, &response)) return response;
      return JsonResponse(200, ReservationJson(*changed));
    }
    if (p.size() == 2 && p[0] == "guests") {
      auto id = common::Uuid::Parse(p[1]);
      if (!id.ok()) return Error(404, "not_found", "Guest '" + p[1] + "' not found");
      auto guest = ReadGuest(call.body, "");
      if (auto* error = std::get_if<FieldError>(&guest)) return FieldErrorResponse(*error);
      auto updated = service_->UpdateGuest(*id, std::get<Guest>(guest));
      if (Failed(updated, &response)) return response;
      return JsonResponse(200, GuestJson(*updated));
    }
    return Error(404, "not_found", "No such endpoint: PUT " + path);
  }

  if (method == "DELETE") {
    if (p.size() == 2 && p[0] == "reservations") {
      auto cancelled = service_->Cancel(p[1]);
      if (Failed(cancelled, &response)) return response;
      return JsonResponse(200, ReservationJson(*cancelled));
    }
    return Error(404, "not_found", "No such endpoint: DELETE " + path);
  }
  return Error(405, "bad_request", "Method not allowed: " + method);
}

}  // namespace hotel
