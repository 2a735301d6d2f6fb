#include "hotel/http_json.h"

#include <fmt/format.h>

#include <algorithm>

#include "cql/types/temporal.h"

namespace hotel {

namespace json = boost::json;

namespace {

// The first field of `object` not among `known`, as an unknown_field error naming it with its
// `prefix` ("guest."); nullopt when every field is known. `what` completes "is not a field of".
std::optional<FieldError> UnknownField(const json::object& object,
                                       const std::vector<std::string_view>& known,
                                       const std::string& prefix, std::string_view what) {
  for (const auto& field : object) {
    if (std::find(known.begin(), known.end(), field.key()) == known.end()) {
      return FieldError{prefix + std::string(field.key()),
                        fmt::format("is not a field of {}", what), "unknown_field"};
    }
  }
  return std::nullopt;
}

#define RETURN_IF_UNKNOWN_FIELD(...)                                   \
  if (auto unknown_field = UnknownField(__VA_ARGS__); unknown_field) { \
    return *unknown_field;                                             \
  }

const std::vector<std::string_view> kGuestFields = {"first_name", "last_name",     "title",
                                                    "emails",     "phone_numbers", "addresses"};
const std::vector<std::string_view> kBookingGuestFields = {
    "guest_id", "first_name", "last_name", "title", "emails", "phone_numbers", "addresses"};

json::array StringArray(const std::vector<std::string>& values) {
  json::array array;
  for (const std::string& value : values) array.emplace_back(value);
  return array;
}

// Reads an optional string field; `required` makes absence an error.
FieldResult<std::optional<std::string>> StringField(const json::object& object,
                                                    std::string_view name,
                                                    const std::string& prefix, bool required,
                                                    size_t max_size = 200) {
  std::string field = prefix + std::string(name);
  const json::value* value = object.if_contains(name);
  if (value == nullptr || value->is_null()) {
    if (required) return FieldError{field, "is required"};
    return std::optional<std::string>();
  }
  const json::string* text = value->if_string();
  if (text == nullptr) return FieldError{field, "must be a string"};
  if (text->size() > max_size) {
    return FieldError{field, fmt::format("must be at most {} characters", max_size)};
  }
  if (required && text->empty()) return FieldError{field, "must not be empty"};
  return std::optional<std::string>(std::string(*text));
}

FieldResult<Day> DayField(const json::object& object, std::string_view name) {
  auto text = StringField(object, name, "", true, 10);
  if (auto* error = std::get_if<FieldError>(&text)) {
    if (error->message.rfind("must be at most", 0) == 0) error->message = "must be YYYY-MM-DD";
    return *error;
  }
  auto day = ParseDay(**std::get_if<std::optional<std::string>>(&text));
  if (!day.ok()) return FieldError{std::string(name), "must be a date YYYY-MM-DD"};
  return *day;
}

FieldResult<int16_t> RoomField(const json::object& object, std::string_view name, bool required,
                               int16_t fallback) {
  const json::value* value = object.if_contains(name);
  if (value == nullptr || value->is_null()) {
    if (required) return FieldError{std::string(name), "is required"};
    return fallback;
  }
  int64_t number = 0;
  if (const int64_t* i = value->if_int64()) {
    number = *i;
  } else if (const uint64_t* u = value->if_uint64()) {
    number = *u > 100000 ? 100000 : static_cast<int64_t>(*u);
  } else {
    return FieldError{std::string(name), "must be an integer"};
  }
  if (number < 1 || number > 32767) {
    return FieldError{std::string(name), "must be between 1 and 32767"};
  }
  return static_cast<int16_t>(number);
}

FieldResult<std::optional<Cents>> MoneyField(const json::object& object, std::string_view name,
                                             bool required) {
  const json::value* value = object.if_contains(name);
  if (value == nullptr || value->is_null()) {
    if (required) return FieldError{std::string(name), "is required"};
    return std::optional<Cents>();
  }
  std::string text;
  if (const json::string* s = value->if_string()) {
    text = std::string(*s);
  } else if (const int64_t* i = value->if_int64()) {
    text = std::to_string(*i);
  } else {
    return FieldError{std::string(name), "must be a decimal string such as \"129.00\""};
  }
  auto cents = ParseMoney(text);
  if (!cents.ok()) return FieldError{std::string(name), "must be a decimal such as \"129.00\""};
  return std::optional<Cents>(*cents);
}

FieldResult<Address> ReadAddress(const json::value* value, const std::string& field) {
  Address address;
  if (value == nullptr || value->is_null()) return address;
  const json::object* object = value->if_object();
  if (object == nullptr) return FieldError{field, "must be an object"};
  RETURN_IF_UNKNOWN_FIELD(*object,
                          {"street", "city", "state_or_province", "postal_code", "country"},
                          field + ".", "an address");
  std::pair<std::string_view, std::string*> parts[] = {
      {"street", &address.street},
      {"city", &address.city},
      {"state_or_province", &address.state_or_province},
      {"postal_code", &address.postal_code},
      {"country", &address.country}};
  for (auto& [name, target] : parts) {
    auto text = StringField(*object, name, field + ".", false);
    if (auto* error = std::get_if<FieldError>(&text)) return *error;
    *target = std::get<std::optional<std::string>>(text).value_or("");
  }
  return address;
}

FieldResult<std::vector<std::string>> StringList(const json::object& object, std::string_view name,
                                                 const std::string& prefix) {
  std::string field = prefix + std::string(name);
  std::vector<std::string> out;
  const json::value* value = object.if_contains(name);
  if (value == nullptr || value->is_null()) return out;
  const json::array* array = value->if_array();
  if (array == nullptr || array->size() > 50)
    return FieldError{field, "must be an array of strings"};
  for (const json::value& element : *array) {
    const json::string* text = element.if_string();
    if (text == nullptr || text->size() > 200) {
      return FieldError{field, "must be an array of strings"};
    }
    out.emplace_back(*text);
  }
  return out;
}

#define ASSIGN_FIELD_OR_RETURN(lhs, expr)                           \
  auto lhs##_result = (expr);                                       \
  if (auto* lhs##_error = std::get_if<FieldError>(&lhs##_result)) { \
    return *lhs##_error;                                            \
  }                                                                 \
  auto lhs = std::move(std::get<0>(lhs##_result))

}  // namespace

json::object AddressJson(const Address& address) {
  return {{"street", address.street},
          {"city", address.city},
          {"state_or_province", address.state_or_province},
          {"postal_code", address.postal_code},
          {"country", address.country}};
}

json::object HotelJson(const Hotel& hotel, bool with_pois) {
  json::object object{{"hotel_id", hotel.hotel_id},
                      {"name", hotel.name},
                      {"phone", hotel.phone},
                      {"address", AddressJson(hotel.address)}};
  if (with_pois) object["pois"] = StringArray(hotel.pois);
  return object;
}

json::object PoiJson(const Poi& poi) {
  return {{"name", poi.name}, {"description", poi.description}};
}

json::object GuestJson(const Guest& guest) {
  json::object addresses;
  for (const auto& [kind, address] : guest.addresses) addresses[kind] = AddressJson(address);
  return {
      {"guest_id", guest.guest_id.ToString()}, {"first_name", guest.first_name},
      {"last_name", guest.last_name},          {"title", guest.title},
      {"emails", StringArray(guest.emails)},   {"phone_numbers", StringArray(guest.phone_numbers)},
      {"addresses", std::move(addresses)}};
}

json::object ReservationJson(const Reservation& reservation) {
  return {{"confirmation_number", reservation.confirmation_number},
          {"hotel_id", reservation.hotel_id},
          {"hotel_name", reservation.hotel_name},
          {"room_number", reservation.room_number},
          {"check_in", FormatDay(reservation.check_in)},
          {"check_out", FormatDay(reservation.check_out)},
          {"nights", reservation.nights()},
          {"guest",
           {{"guest_id", reservation.guest_id.ToString()},
            {"first_name", reservation.guest_first_name},
            {"last_name", reservation.guest_last_name}}},
          {"total", FormatMoney(reservation.total)},
          {"currency", reservation.currency},
          {"status", reservation.status}};
}

json::object HistoryJson(const Reservation& reservation,
                         const std::vector<ReservationEvent>& events) {
  json::array history;
  for (const ReservationEvent& event : events) {
    history.push_back(json::object{{"at", cql::FormatTimestampIso(event.at_millis())},
                                   {"event_id", event.event_id.ToString()},
                                   {"action", ActionName(event.action)},
                                   {"status", event.status},
                                   {"actor", event.actor},
                                   {"details", event.details}});
  }
  return {{"confirmation_number", reservation.confirmation_number},
          {"status", reservation.status},
          {"history", std::move(history)}};
}

namespace {

json::array NightlyRatesJson(const std::vector<NightlyRate>& nightly_rates) {
  json::array rates;
  for (const NightlyRate& rate : nightly_rates) {
    rates.push_back(json::object{{"date", FormatDay(rate.date)}, {"rate", FormatMoney(rate.rate)}});
  }
  return rates;
}

// The stay part of a reservation, for a quote.
json::object StayJson(const Reservation& reservation) {
  return {{"room_number", reservation.room_number},
          {"check_in", FormatDay(reservation.check_in)},
          {"check_out", FormatDay(reservation.check_out)},
          {"nights", reservation.nights()},
          {"total", FormatMoney(reservation.total)}};
}

}  // namespace

json::object ChangeQuoteJson(const ChangeQuote& quote) {
  json::object proposed = StayJson(quote.proposed);
  proposed["room_type"] = quote.room_type;
  proposed["nightly_rates"] = NightlyRatesJson(quote.nightly_rates);
  return {{"confirmation_number", quote.current.confirmation_number},
          {"hotel_id", quote.current.hotel_id},
          {"currency", quote.current.currency},
          {"current", StayJson(quote.current)},
          {"proposed", std::move(proposed)},
          {"difference", FormatMoney(quote.difference())}};
}

json::object AvailabilityJson(const Availability& availability) {
  json::array not_opened;
  for (Day day : availability.not_opened) not_opened.push_back(json::string(FormatDay(day)));
  json::array rooms;
  for (const RoomOffer& offer : availability.rooms) {
    rooms.push_back(json::object{{"room_number", offer.room_number},
                                 {"room_type", offer.room_type},
                                 {"nightly_rates", NightlyRatesJson(offer.nightly_rates)},
                                 {"total", FormatMoney(offer.total)},
                                 {"currency", kCurrency}});
  }
  return {{"hotel_id", availability.hotel_id},
          {"check_in", FormatDay(availability.check_in)},
          {"check_out", FormatDay(availability.check_out)},
          {"nights", availability.check_out - availability.check_in},
          {"rooms", std::move(rooms)},
          {"not_opened", std::move(not_opened)}};
}

json::object RoomJson(const RoomDetails& room) {
  json::array amenities;
  for (const Amenity& amenity : room.room.amenities) {
    amenities.push_back(json::object{{"name", amenity.name}, {"description", amenity.description}});
  }
  return {{"hotel_id", room.hotel_id},        {"room_number", room.room.room_number},
          {"room_type", room.room.room_type}, {"date", FormatDay(room.rate_date)},
          {"rate", FormatMoney(room.rate)},   {"currency", kCurrency},
          {"amenities", std::move(amenities)}};
}

FieldResult<Guest> ReadGuest(const json::object& object, const std::string& prefix) {
  Guest guest;
  if (prefix.empty()) {
    RETURN_IF_UNKNOWN_FIELD(object, kGuestFields, "", "a guest");
  } else {
    RETURN_IF_UNKNOWN_FIELD(object, kBookingGuestFields, prefix, "a booking's guest");
  }
  ASSIGN_FIELD_OR_RETURN(first, StringField(object, "first_name", prefix, true));
  ASSIGN_FIELD_OR_RETURN(last, StringField(object, "last_name", prefix, true));
  ASSIGN_FIELD_OR_RETURN(title, StringField(object, "title", prefix, false));
  ASSIGN_FIELD_OR_RETURN(emails, StringList(object, "emails", prefix));
  ASSIGN_FIELD_OR_RETURN(phones, StringList(object, "phone_numbers", prefix));
  guest.first_name = *first;
  guest.last_name = *last;
  guest.title = title.value_or("");
  std::sort(emails.begin(), emails.end());
  emails.erase(std::unique(emails.begin(), emails.end()), emails.end());
  guest.emails = std::move(emails);
  guest.phone_numbers = std::move(phones);
  if (const json::value* addresses = object.if_contains("addresses");
      addresses != nullptr && !addresses->is_null()) {
    const json::object* map = addresses->if_object();
    if (map == nullptr || map->size() > 20) {
      return FieldError{prefix + "addresses", "must be an object of addresses"};
    }
    for (const auto& entry : *map) {
      ASSIGN_FIELD_OR_RETURN(
          address, ReadAddress(&entry.value(), prefix + "addresses." + std::string(entry.key())));
      guest.addresses[std::string(entry.key())] = address;
    }
  }
  return guest;
}

FieldResult<Hotel> ReadHotel(const json::object& object) {
  Hotel hotel;
  RETURN_IF_UNKNOWN_FIELD(object, {"hotel_id", "name", "phone", "address", "pois"}, "", "a hotel");
  ASSIGN_FIELD_OR_RETURN(id, StringField(object, "hotel_id", "", true, 32));
  ASSIGN_FIELD_OR_RETURN(name, StringField(object, "name", "", true));
  ASSIGN_FIELD_OR_RETURN(phone, StringField(object, "phone", "", false));
  ASSIGN_FIELD_OR_RETURN(address, ReadAddress(object.if_contains("address"), "address"));
  ASSIGN_FIELD_OR_RETURN(pois, StringList(object, "pois", ""));
  hotel.hotel_id = *id;
  hotel.name = *name;
  hotel.phone = phone.value_or("");
  hotel.address = address;
  hotel.pois = pois;
  return hotel;
}

FieldResult<Poi> ReadPoi(const json::object& object) {
  RETURN_IF_UNKNOWN_FIELD(object, {"name", "description"}, "", "a point of interest");
  ASSIGN_FIELD_OR_RETURN(name, StringField(object, "name", "", true));
  ASSIGN_FIELD_OR_RETURN(description, StringField(object, "description", "", false, 1000));
  return Poi{*name, description.value_or("")};
}

FieldResult<Room> ReadRoom(const json::object& object) {
  Room room;
  RETURN_IF_UNKNOWN_FIELD(object, {"room_number", "room_type", "rate", "amenities"}, "", "a room");
  ASSIGN_FIELD_OR_RETURN(number, RoomField(object, "room_number", true, 0));
  ASSIGN_FIELD_OR_RETURN(type, StringField(object, "room_type", "", true));
  ASSIGN_FIELD_OR_RETURN(rate, MoneyField(object, "rate", true));
  room.room_number = number;
  room.room_type = *type;
  room.base_rate = *rate;
  if (const json::value* amenities = object.if_contains("amenities");
      amenities != nullptr && !amenities->is_null()) {
    const json::array* array = amenities->if_array();
    if (array == nullptr || array->size() > 50) {
      return FieldError{"amenities", "must be an array of {name, description}"};
    }
    for (const json::value& element : *array) {
      const json::object* amenity = element.if_object();
      if (amenity == nullptr) return FieldError{"amenities", "must be an array of objects"};
      RETURN_IF_UNKNOWN_FIELD(*amenity, {"name", "description"}, "amenities.", "an amenity");
      ASSIGN_FIELD_OR_RETURN(name, StringField(*amenity, "name", "amenities.", true));
      ASSIGN_FIELD_OR_RETURN(description,
                             StringField(*amenity, "description", "amenities.", false));
      room.amenities.push_back({*name, description.value_or("")});
    }
  }
  return room;
}

std::optional<FieldError> CheckStay(Day check_in, Day check_out, int max_nights,
                                    const std::string& check_out_field) {
  if (check_out <= check_in) return FieldError{check_out_field, "must be after check_in"};
  if (check_out - check_in > max_nights) {
    return FieldError{check_out_field,
                      fmt::format("must be at most {} nights after check_in: a stay lasts at "
                                  "most {} nights",
                                  max_nights, max_nights)};
  }
  return std::nullopt;
}

FieldResult<BookingRequest> ReadBooking(const json::object& object, int max_nights) {
  BookingRequest request;
  RETURN_IF_UNKNOWN_FIELD(object, {"hotel_id", "room_number", "check_in", "check_out", "guest"}, "",
                          "a booking");
  ASSIGN_FIELD_OR_RETURN(hotel_id, StringField(object, "hotel_id", "", true, 32));
  ASSIGN_FIELD_OR_RETURN(room, RoomField(object, "room_number", true, 0));
  ASSIGN_FIELD_OR_RETURN(check_in, DayField(object, "check_in"));
  ASSIGN_FIELD_OR_RETURN(check_out, DayField(object, "check_out"));
  if (auto error = CheckStay(check_in, check_out, max_nights, "check_out")) return *error;
  request.hotel_id = *hotel_id;
  request.room_number = room;
  request.check_in = check_in;
  request.check_out = check_out;
  const json::value* guest = object.if_contains("guest");
  const json::object* guest_object = guest != nullptr ? guest->if_object() : nullptr;
  if (guest_object == nullptr) {
    return FieldError{"guest",
                      "is required: an object with the guest's name and details, or "
                      "the guest_id of a known guest"};
  }
  if (const json::value* id = guest_object->if_contains("guest_id");
      id != nullptr && !id->is_null()) {
    const json::string* text = id->if_string();
    auto uuid = text != nullptr ? common::Uuid::Parse(*text)
                                : common::Result<common::Uuid>(common::Status::Invalid(""));
    if (!uuid.ok()) return FieldError{"guest.guest_id", "must be a UUID"};
    request.guest_id = *uuid;
  } else {
    ASSIGN_FIELD_OR_RETURN(new_guest, ReadGuest(*guest_object, "guest."));
    request.new_guest = std::move(new_guest);
  }
  return request;
}

FieldResult<ChangeRequest> ReadChange(const json::object& object, int max_nights) {
  ChangeRequest request;
  RETURN_IF_UNKNOWN_FIELD(object, {"check_in", "check_out", "room_number"}, "", "a change");
  ASSIGN_FIELD_OR_RETURN(check_in, DayField(object, "check_in"));
  ASSIGN_FIELD_OR_RETURN(check_out, DayField(object, "check_out"));
  if (auto error = CheckStay(check_in, check_out, max_nights, "check_out")) return *error;
  request.check_in = check_in;
  request.check_out = check_out;
  if (const json::value* room = object.if_contains("room_number");
      room != nullptr && !room->is_null()) {
    ASSIGN_FIELD_OR_RETURN(number, RoomField(object, "room_number", true, 0));
    request.room_number = number;
  }
  return request;
}

FieldResult<LoginRequest> ReadLogin(const json::object& object) {
  RETURN_IF_UNKNOWN_FIELD(object, {"username", "password"}, "", "a login");
  ASSIGN_FIELD_OR_RETURN(username, StringField(object, "username", "", true, 256));
  ASSIGN_FIELD_OR_RETURN(password, StringField(object, "password", "", true, 1024));
  return LoginRequest{*username, *password};
}

FieldResult<OpenRequest> ReadOpen(const json::object& object) {
  RETURN_IF_UNKNOWN_FIELD(object, {"start", "end", "rate"}, "", "an inventory opening");
  ASSIGN_FIELD_OR_RETURN(start, DayField(object, "start"));
  ASSIGN_FIELD_OR_RETURN(end, DayField(object, "end"));
  if (end <= start) return FieldError{"end", "must be after start"};
  if (end - start > 731) return FieldError{"end", "must be at most 731 days after start"};
  ASSIGN_FIELD_OR_RETURN(rate, MoneyField(object, "rate", false));
  return OpenRequest{start, end, rate};
}

// --- The staff console ---------------------------------------------------------------------

json::object OccupancyJson(const Occupancy& occupancy) {
  json::array dates;
  for (int i = 0; i < occupancy.days; ++i)
    dates.push_back(json::string(FormatDay(occupancy.start + i)));
  json::array rooms;
  for (const OccupancyRoom& row : occupancy.rooms) {
    json::array nights;
    for (size_t i = 0; i < row.nights.size(); ++i) {
      const OccupancyNight& night = row.nights[i];
      json::object cell{{"date", FormatDay(occupancy.start + static_cast<Day>(i))},
                        {"state", NightStateName(night.state)}};
      if (night.state != NightState::kNotOpened) cell["rate"] = FormatMoney(night.rate);
      if (!night.confirmation_number.empty()) {
        cell["confirmation_number"] = night.confirmation_number;
      }
      if (!night.guest_last_name.empty()) {
        cell["guest"] = json::object{{"last_name", night.guest_last_name}};
      }
      nights.push_back(std::move(cell));
    }
    rooms.push_back(json::object{{"room_number", row.room.room_number},
                                 {"room_type", row.room.room_type},
                                 {"nights", std::move(nights)}});
  }
  return json::object{{"hotel_id", occupancy.hotel_id},
                      {"start", FormatDay(occupancy.start)},
                      {"end", FormatDay(occupancy.start + occupancy.days)},
                      {"days", occupancy.days},
                      {"dates", std::move(dates)},
                      {"rooms", std::move(rooms)}};
}

FieldResult<RatesRequest> ReadRates(const json::object& object) {
  // A misspelt "room_numbr" would otherwise change every room.
  RETURN_IF_UNKNOWN_FIELD(object, {"start", "end", "rate", "room_number"}, "", "a rate change");
  ASSIGN_FIELD_OR_RETURN(start, DayField(object, "start"));
  ASSIGN_FIELD_OR_RETURN(end, DayField(object, "end"));
  if (end <= start) return FieldError{"end", "must be after start"};
  if (end - start > kMaxRateChangeDays) {
    return FieldError{"end",
                      fmt::format("must be at most {} days after start", kMaxRateChangeDays)};
  }
  ASSIGN_FIELD_OR_RETURN(rate, MoneyField(object, "rate", true));
  if (*rate <= 0) return FieldError{"rate", "must be positive"};
  RatesRequest request{start, end, *rate, std::nullopt};
  if (object.contains("room_number") && !object.at("room_number").is_null()) {
    ASSIGN_FIELD_OR_RETURN(room, RoomField(object, "room_number", true, 0));
    request.room_number = room;
  }
  return request;
}

}  // namespace hotel
