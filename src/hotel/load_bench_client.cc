#include "hotel/load_bench_client.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>
#include <boost/url/parse.hpp>
#include <cctype>
#include <exception>
#include <optional>

namespace hotel {

namespace {

using common::Result;
using common::Status;

// --- In-process ------------------------------------------------------------------------------

class ServiceBenchClient : public BenchClient {
 public:
  ServiceBenchClient(HotelService* service, Repository* repository, OperationGate* gate)
      : service_(service), repository_(repository), gate_(gate) {}

  Result<std::vector<std::string>> ListPois() override {
    OperationGate::Slot slot(gate_);
    ASSIGN_OR_RETURN(std::vector<Poi> pois, service_->ListPois());
    std::vector<std::string> names;
    for (const Poi& poi : pois) names.push_back(poi.name);
    return names;
  }
  Result<std::vector<std::string>> HotelsNearPoi(const std::string& poi) override {
    OperationGate::Slot slot(gate_);
    ASSIGN_OR_RETURN(Repository::PoiHotels answer, service_->HotelsNearPoi(poi));
    std::vector<std::string> ids;
    for (const Hotel& hotel : answer.hotels) ids.push_back(hotel.hotel_id);
    return ids;
  }
  Status GetHotel(const std::string& hotel_id) override {
    OperationGate::Slot slot(gate_);
    return service_->GetHotel(hotel_id).status();
  }
  Status HotelPois(const std::string& hotel_id) override {
    OperationGate::Slot slot(gate_);
    return service_->HotelPois(hotel_id).status();
  }
  Result<std::vector<int16_t>> Availability(const std::string& hotel_id, Day check_in,
                                            Day check_out) override {
    OperationGate::Slot slot(gate_);
    ASSIGN_OR_RETURN(hotel::Availability answer,
                     service_->FindAvailability(hotel_id, check_in, check_out));
    std::vector<int16_t> rooms;
    for (const RoomOffer& offer : answer.rooms) rooms.push_back(offer.room_number);
    return rooms;
  }
  Status GetRoom(const std::string& hotel_id, int16_t room_number, Day date) override {
    OperationGate::Slot slot(gate_);
    return service_->GetRoom(hotel_id, room_number, date).status();
  }
  Result<BookedStay> GetReservation(const std::string& confirmation) override {
    OperationGate::Slot slot(gate_);
    ASSIGN_OR_RETURN(Reservation reservation, service_->GetReservation(confirmation));
    return BookedStay{reservation.confirmation_number, reservation.hotel_id,
                      reservation.room_number,         reservation.check_in,
                      reservation.check_out,           reservation.status};
  }
  Status ReservationsByHotelDate(const std::string& hotel_id, Day date) override {
    OperationGate::Slot slot(gate_);
    return service_->ReservationsByHotelDate(hotel_id, date, std::nullopt).status();
  }
  Status ReservationsByGuest(const std::string& last_name) override {
    OperationGate::Slot slot(gate_);
    return service_->ReservationsByGuest(last_name, std::nullopt).status();
  }
  Status GetGuest(const std::string& guest_id) override {
    OperationGate::Slot slot(gate_);
    ASSIGN_OR_RETURN(common::Uuid id, common::Uuid::Parse(guest_id));
    return service_->GetGuest(id).status();
  }
  Result<std::string> CreateGuest(const std::string& first_name,
                                  const std::string& last_name) override {
    OperationGate::Slot slot(gate_);
    Guest guest;
    guest.first_name = first_name;
    guest.last_name = last_name;
    guest.emails = {FoldName(first_name) + "." + FoldName(last_name) + "@example.com"};
    ASSIGN_OR_RETURN(Guest created, service_->CreateGuest(std::move(guest)));
    return created.guest_id.ToString();
  }
  Result<std::string> Book(const std::string& hotel_id, int16_t room_number, Day check_in,
                           Day check_out, const std::string& guest_id) override {
    OperationGate::Slot slot(gate_);
    BookingRequest request;
    request.hotel_id = hotel_id;
    request.room_number = room_number;
    request.check_in = check_in;
    request.check_out = check_out;
    ASSIGN_OR_RETURN(common::Uuid id, common::Uuid::Parse(guest_id));
    request.guest_id = id;
    ASSIGN_OR_RETURN(Reservation reservation, service_->Book(request));
    return reservation.confirmation_number;
  }
  Status Cancel(const std::string& confirmation) override {
    OperationGate::Slot slot(gate_);
    return service_->Cancel(confirmation).status();
  }
  Result<bool> StayHeld(const BookedStay& stay) override {
    OperationGate::Slot slot(gate_);
    ASSIGN_OR_RETURN(std::vector<RoomNight> nights,
                     repository_->RoomNights(stay.hotel_id, stay.check_in, stay.check_out));
    int64_t held = 0;
    for (const RoomNight& night : nights) {
      if (night.room_number != stay.room_number) continue;
      if (night.is_available || night.held_by != stay.confirmation_number) return false;
      ++held;
    }
    return held == stay.check_out - stay.check_in;
  }

 private:
  HotelService* service_;
  Repository* repository_;
  OperationGate* gate_;
};

// --- HTTP ------------------------------------------------------------------------------------

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace json = boost::json;

// Percent-encodes one path segment or query value (RFC 3986 unreserved characters stay).
std::string Encode(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

Status StatusOfHttp(int status, const std::string& body) {
  std::string message = fmt::format("HTTP {}: {}", status, body.substr(0, 200));
  switch (status) {
    case 400:
      return Status::Invalid(message);
    case 401:
      return Status(common::StatusCode::kAuthenticationError, message);
    case 403:
      return Status::Unauthorized(message);
    case 404:
      return Status::NotFound(message);
    case 429:
      return Status(common::StatusCode::kOverloaded, message);
    case 409:
      return body.find("room_unavailable") != std::string::npos ? RoomUnavailable(message)
                                                                : Status::AlreadyExists(message);
    case 503:
      return Status(common::StatusCode::kUnavailable, message);
    default:
      return Status::Internal(message);
  }
}

class HttpBenchClient : public BenchClient {
 public:
  HttpBenchClient(std::string host, std::string port, std::string token)
      : host_(std::move(host)), port_(std::move(port)), token_(std::move(token)), socket_(io_) {}

  Status Connect() {
    boost::system::error_code error;
    socket_.close(error);
    asio::ip::tcp::resolver resolver(io_);
    auto endpoints = resolver.resolve(host_, port_, error);
    if (error) return Status::IOError(fmt::format("cannot resolve {}: {}", host_, error.message()));
    asio::connect(socket_, endpoints, error);
    if (error) {
      return Status::IOError(
          fmt::format("cannot connect to {}:{}: {}", host_, port_, error.message()));
    }
    socket_.set_option(asio::ip::tcp::no_delay(true), error);
    return Status::Ok();
  }

  Result<std::vector<std::string>> ListPois() override {
    ASSIGN_OR_RETURN(json::value answer, Json(http::verb::get, "/api/v1/pois"));
    return Strings(answer, "pois", "name");
  }
  Result<std::vector<std::string>> HotelsNearPoi(const std::string& poi) override {
    ASSIGN_OR_RETURN(json::value answer,
                     Json(http::verb::get, "/api/v1/pois/" + Encode(poi) + "/hotels"));
    return Strings(answer, "hotels", "hotel_id");
  }
  Status GetHotel(const std::string& hotel_id) override {
    return Call(http::verb::get, "/api/v1/hotels/" + Encode(hotel_id)).status();
  }
  Status HotelPois(const std::string& hotel_id) override {
    return Call(http::verb::get, "/api/v1/hotels/" + Encode(hotel_id) + "/pois").status();
  }
  Result<std::vector<int16_t>> Availability(const std::string& hotel_id, Day check_in,
                                            Day check_out) override {
    ASSIGN_OR_RETURN(json::value answer,
                     Json(http::verb::get, fmt::format("/api/v1/hotels/{}/availability?check_in={}"
                                                       "&check_out={}",
                                                       Encode(hotel_id), FormatDay(check_in),
                                                       FormatDay(check_out))));
    std::vector<int16_t> rooms;
    const json::array* array = answer.is_object()
                                   ? answer.as_object().if_contains("rooms") != nullptr
                                         ? answer.as_object().at("rooms").if_array()
                                         : nullptr
                                   : nullptr;
    if (array == nullptr) return Status::Internal("availability answer without rooms");
    for (const json::value& room : *array) {
      const json::value* number =
          room.is_object() ? room.as_object().if_contains("room_number") : nullptr;
      if (number == nullptr || !number->is_int64()) {
        return Status::Internal("availability room without room_number");
      }
      rooms.push_back(static_cast<int16_t>(number->as_int64()));
    }
    return rooms;
  }
  Status GetRoom(const std::string& hotel_id, int16_t room_number, Day date) override {
    return Call(http::verb::get, fmt::format("/api/v1/hotels/{}/rooms/{}?date={}", Encode(hotel_id),
                                             room_number, FormatDay(date)))
        .status();
  }
  // POST /api/v1/login; the session's token.
  Result<std::string> Login(const std::string& username, const std::string& password) {
    json::object body{{"username", username}, {"password", password}};
    ASSIGN_OR_RETURN(json::value answer,
                     Json(http::verb::post, "/api/v1/login", json::serialize(body)));
    return StringOf(answer, "token");
  }
  Result<BookedStay> GetReservation(const std::string& confirmation) override {
    ASSIGN_OR_RETURN(json::value answer,
                     Json(http::verb::get, "/api/v1/reservations/" + Encode(confirmation)));
    return ReadStay(answer);
  }
  Status ReservationsByHotelDate(const std::string& hotel_id, Day date) override {
    return Call(http::verb::get, fmt::format("/api/v1/hotels/{}/reservations?date={}",
                                             Encode(hotel_id), FormatDay(date)))
        .status();
  }
  Status ReservationsByGuest(const std::string& last_name) override {
    return Call(http::verb::get, "/api/v1/reservations?last_name=" + Encode(last_name)).status();
  }
  Status GetGuest(const std::string& guest_id) override {
    return Call(http::verb::get, "/api/v1/guests/" + Encode(guest_id)).status();
  }
  Result<std::string> CreateGuest(const std::string& first_name,
                                  const std::string& last_name) override {
    json::object body{
        {"first_name", first_name},
        {"last_name", last_name},
        {"emails", json::array{FoldName(first_name) + "." + FoldName(last_name) + "@example.com"}}};
    ASSIGN_OR_RETURN(json::value answer,
                     Json(http::verb::post, "/api/v1/guests", json::serialize(body)));
    return StringOf(answer, "guest_id");
  }
  Result<std::string> Book(const std::string& hotel_id, int16_t room_number, Day check_in,
                           Day check_out, const std::string& guest_id) override {
    json::object body{{"hotel_id", hotel_id},
                      {"room_number", room_number},
                      {"check_in", FormatDay(check_in)},
                      {"check_out", FormatDay(check_out)},
                      {"guest", json::object{{"guest_id", guest_id}}}};
    ASSIGN_OR_RETURN(json::value answer,
                     Json(http::verb::post, "/api/v1/reservations", json::serialize(body)));
    return StringOf(answer, "confirmation_number");
  }
  Status Cancel(const std::string& confirmation) override {
    return Call(http::verb::delete_, "/api/v1/reservations/" + Encode(confirmation)).status();
  }
  Result<bool> StayHeld(const BookedStay& stay) override {
    ASSIGN_OR_RETURN(std::vector<int16_t> free,
                     Availability(stay.hotel_id, stay.check_in, stay.check_out));
    return std::find(free.begin(), free.end(), stay.room_number) == free.end();
  }

 private:
  struct Answer {
    int status = 0;
    std::string body;
  };

  // One request on the keep-alive connection; reconnects and retries a GET once when the
  // connection was closed. Non-2xx answers become their Status.
  Result<Answer> Call(http::verb verb, const std::string& target, std::string body = {}) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (!socket_.is_open()) RETURN_IF_ERROR(Connect());
      try {
        http::request<http::string_body> request(verb, target, 11);
        request.set(http::field::host, host_);
        if (!token_.empty()) request.set(http::field::authorization, "Bearer " + token_);
        request.keep_alive(true);
        if (!body.empty()) {
          request.set(http::field::content_type, "application/json");
          request.body() = body;
          request.prepare_payload();
        }
        boost::system::error_code error;
        http::write(socket_, request, error);
        http::response<http::string_body> response;
        if (!error) http::read(socket_, buffer_, response, error);
        if (error) {
          std::string message = error.message();
          socket_.close(error);
          buffer_.clear();
          // A closed keep-alive connection: reconnect and retry once, reads only (a write may
          // have been applied before the connection broke).
          if (verb == http::verb::get) continue;
          return Status::IOError(fmt::format("HTTP {}: {}", target, message));
        }
        if (!response.keep_alive()) socket_.close(error);
        int status = static_cast<int>(response.result_int());
        if (status / 100 != 2) return StatusOfHttp(status, response.body());
        return Answer{status, std::move(response.body())};
      } catch (const std::exception& exception) {  // Beast's allocation or parser failures
        boost::system::error_code ignored;
        socket_.close(ignored);
        return Status::IOError(std::string("HTTP request failed: ") + exception.what());
      }
    }
    return Status::IOError(fmt::format("HTTP {} {}: connection lost", host_, target));
  }

  Result<json::value> Json(http::verb verb, const std::string& target, std::string body = {}) {
    ASSIGN_OR_RETURN(Answer answer, Call(verb, target, std::move(body)));
    boost::system::error_code error;
    json::value value = json::parse(answer.body, error);
    if (error) return Status::Internal("malformed JSON from " + target);
    return value;
  }

  static Result<std::string> StringOf(const json::value& value, const char* field) {
    const json::value* member = value.is_object() ? value.as_object().if_contains(field) : nullptr;
    if (member == nullptr || !member->is_string()) {
      return Status::Internal(fmt::format("answer without {}", field));
    }
    return std::string(member->as_string());
  }

  static Result<std::vector<std::string>> Strings(const json::value& value, const char* array,
                                                  const char* field) {
    const json::value* member = value.is_object() ? value.as_object().if_contains(array) : nullptr;
    if (member == nullptr || !member->is_array()) {
      return Status::Internal(fmt::format("answer without {}", array));
    }
    std::vector<std::string> out;
    for (const json::value& element : member->as_array()) {
      ASSIGN_OR_RETURN(std::string text, StringOf(element, field));
      out.push_back(std::move(text));
    }
    return out;
  }

  static Result<BookedStay> ReadStay(const json::value& value) {
    BookedStay stay;
    ASSIGN_OR_RETURN(stay.confirmation_number, StringOf(value, "confirmation_number"));
    ASSIGN_OR_RETURN(stay.hotel_id, StringOf(value, "hotel_id"));
    ASSIGN_OR_RETURN(stay.status, StringOf(value, "status"));
    ASSIGN_OR_RETURN(std::string check_in, StringOf(value, "check_in"));
    ASSIGN_OR_RETURN(std::string check_out, StringOf(value, "check_out"));
    ASSIGN_OR_RETURN(stay.check_in, ParseDay(check_in));
    ASSIGN_OR_RETURN(stay.check_out, ParseDay(check_out));
    const json::value* room = value.as_object().if_contains("room_number");
    if (room == nullptr || !room->is_int64()) return Status::Internal("answer without room");
    stay.room_number = static_cast<int16_t>(room->as_int64());
    return stay;
  }

  std::string host_;
  std::string port_;
  std::string token_;  // a staff session's bearer token, or ""
  asio::io_context io_;
  asio::ip::tcp::socket socket_;
  beast::flat_buffer buffer_;
};

}  // namespace

OperationGate::Slot::Slot(OperationGate* gate) : gate_(gate) {
  if (gate_ != nullptr) gate_->Enter();
}

OperationGate::Slot::~Slot() {
  if (gate_ != nullptr) gate_->Leave();
}

void OperationGate::Enter() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (free_ == 0) {
    ++waiting_;
    freed_.wait(lock);
    --waiting_;
  }
  --free_;
}

int OperationGate::waiting() {
  std::lock_guard<std::mutex> lock(mutex_);
  return waiting_;
}

void OperationGate::Leave() {
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++free_;
    wake = waiting_ > 0;
  }
  if (wake) freed_.notify_one();
}

std::unique_ptr<BenchClient> NewServiceBenchClient(HotelService* service, Repository* repository,
                                                   OperationGate* gate) {
  return std::make_unique<ServiceBenchClient>(service, repository, gate);
}

namespace {

Result<std::unique_ptr<HttpBenchClient>> Connect(const std::string& url, std::string token) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed || parsed->scheme() != "http" || parsed->host().empty()) {
    return Status::Invalid("--url must look like http://HOST:PORT, got '" + url + "'");
  }
  std::string port = parsed->has_port() ? std::string(parsed->port()) : "80";
  auto client =
      std::make_unique<HttpBenchClient>(std::string(parsed->host()), port, std::move(token));
  RETURN_IF_ERROR(client->Connect());
  return client;
}

}  // namespace

Result<std::unique_ptr<BenchClient>> ConnectHttpBenchClient(const std::string& url,
                                                            std::string token) {
  ASSIGN_OR_RETURN(std::unique_ptr<HttpBenchClient> client, Connect(url, std::move(token)));
  return std::unique_ptr<BenchClient>(std::move(client));
}

Result<std::string> HttpStaffLogin(const std::string& url, const std::string& username,
                                   const std::string& password) {
  ASSIGN_OR_RETURN(std::unique_ptr<HttpBenchClient> client, Connect(url, ""));
  return client->Login(username, password);
}

}  // namespace hotel
