#include "hotel/repository.h"

#include <fmt/format.h>

#include "cql/big_number.h"
#include "cql/temporal.h"
#include "cql/value_codec.h"

namespace hotel {

namespace {

using common::Bytes;
using common::Result;
using common::Status;
using cql::BoundValue;

// --- Values to bind ------------------------------------------------------------------------

BoundValue TextValue(std::string_view text) { return BoundValue::Of(Bytes(text)); }
BoundValue DayValue(Day day) {
  return BoundValue::Of(cql::SerializeDate(static_cast<uint32_t>(day + cql::kDateEpoch)));
}
BoundValue RoomValue(int16_t room) { return BoundValue::Of(cql::SerializeSmallint(room)); }
BoundValue MoneyValue(Cents cents) { return BoundValue::Of(cql::SerializeDecimal(cents, 2)); }
BoundValue BoolValue(bool value) { return BoundValue::Of(cql::SerializeBoolean(value)); }
BoundValue UuidValue(const common::Uuid& uuid) { return BoundValue::Of(uuid.ToBytes()); }
BoundValue TimestampValue(int64_t millis) {
  return BoundValue::Of(cql::SerializeTimestamp(millis));
}

Bytes AddressBytes(const Address& address) {
  return cql::SerializeTupleOrUdt({Bytes(address.street), Bytes(address.city),
                                   Bytes(address.state_or_province), Bytes(address.postal_code),
                                   Bytes(address.country)});
}

// --- Row decoding --------------------------------------------------------------------------

// Reads the cells of one row by position; remembers the first decoding error.
class RowView {
 public:
  RowView(const cql::ResultSet& result, size_t row) : result_(result), row_(row) {}

  std::string Text(size_t column) {
    auto value = result_.Value(row_, column);
    return value ? std::string(*value) : std::string();
  }
  Day Date(size_t column) {
    auto value = result_.Value(row_, column);
    if (!value || value->size() != 4) return Fail("date", 0);
    uint32_t raw = static_cast<uint32_t>(static_cast<unsigned char>((*value)[0])) << 24 |
                   static_cast<uint32_t>(static_cast<unsigned char>((*value)[1])) << 16 |
                   static_cast<uint32_t>(static_cast<unsigned char>((*value)[2])) << 8 |
                   static_cast<uint32_t>(static_cast<unsigned char>((*value)[3]));
    return static_cast<Day>(raw) - static_cast<Day>(cql::kDateEpoch);
  }
  int16_t Room(size_t column) {
    auto value = result_.Value(row_, column);
    if (!value) return Fail("smallint", 0);
    auto room = cql::DeserializeSmallint(*value);
    return room.ok() ? *room : Fail("smallint", 0);
  }
  bool Bool(size_t column) {
    auto value = result_.Value(row_, column);
    if (!value) return false;
    auto flag = cql::DeserializeBoolean(*value);
    return flag.ok() ? *flag : Fail("boolean", false);
  }
  int64_t Timestamp(size_t column) {
    auto value = result_.Value(row_, column);
    if (!value) return 0;
    auto millis = cql::DeserializeBigint(*value);
    return millis.ok() ? *millis : Fail("timestamp", 0);
  }
  // A decimal as cents, rounding half up past 2 fraction digits.
  Cents Money(size_t column) {
    auto value = result_.Value(row_, column);
    if (!value) return 0;
    if (value->size() < 5) return Fail("decimal", 0);
    int32_t scale =
        static_cast<int32_t>(static_cast<uint32_t>(static_cast<unsigned char>((*value)[0])) << 24 |
                             static_cast<uint32_t>(static_cast<unsigned char>((*value)[1])) << 16 |
                             static_cast<uint32_t>(static_cast<unsigned char>((*value)[2])) << 8 |
                             static_cast<uint32_t>(static_cast<unsigned char>((*value)[3])));
    auto unscaled = cql::VarintToInt64(value->substr(4));
    if (!unscaled.ok() || scale < -6 || scale > 12) return Fail("decimal", 0);
    int64_t cents = *unscaled;
    for (int32_t s = scale; s < 2; ++s) cents *= 10;
    for (int32_t s = scale; s > 2; --s) cents = (cents + (cents >= 0 ? 5 : -5)) / 10;
    return cents;
  }
  common::Uuid Uuid(size_t column) {
    auto value = result_.Value(row_, column);
    if (!value) return common::Uuid();
    auto uuid = common::Uuid::FromBytes(*value);
    return uuid.ok() ? *uuid : Fail("uuid", common::Uuid());
  }
  Address AddressAt(std::optional<std::string_view> value) {
    Address address;
    if (!value) return address;
    auto fields = cql::SplitTupleOrUdt(*value, 5);
    if (!fields.ok()) return Fail("address", address);
    std::string* targets[] = {&address.street, &address.city, &address.state_or_province,
                              &address.postal_code, &address.country};
    for (size_t i = 0; i < fields->size(); ++i) {
      if ((*fields)[i]) *targets[i] = std::string(*(*fields)[i]);
    }
    return address;
  }
  Address AddressColumn(size_t column) { return AddressAt(result_.Value(row_, column)); }
  std::vector<std::string> TextCollection(size_t column, bool set) {
    std::vector<std::string> out;
    auto value = result_.Value(row_, column);
    if (!value) return out;
    cql::CqlType type =
        set ? cql::CqlType::Set(cql::CqlType::Text()) : cql::CqlType::List(cql::CqlType::Text());
    auto elements = cql::SplitListOrSet(type, *value);
    if (!elements.ok()) return Fail("collection", out);
    for (std::string_view element : *elements) out.emplace_back(element);
    return out;
  }
  std::map<std::string, Address> AddressMap(size_t column) {
    std::map<std::string, Address> out;
    auto value = result_.Value(row_, column);
    if (!value) return out;
    auto entries = cql::SplitMap(*value);
    if (!entries.ok()) return Fail("map", out);
    for (const cql::MapEntryView& entry : *entries) {
      out[std::string(entry.key)] = AddressAt(entry.value);
    }
    return out;
  }

  Status status() const { return status_; }

 private:
  template <typename T>
  T Fail(std::string_view what, T fallback) {
    if (status_.ok()) {
      status_ = Status::Internal(fmt::format("hotel: cannot decode a {} value in a row", what));
    }
    return fallback;
  }

  const cql::ResultSet& result_;
  size_t row_;
  Status status_;
};

// The database's errors as the service sees them (header comment).
Status DatabaseError(const Status& status) {
  switch (status.code()) {
    case common::StatusCode::kUnavailable:
    case common::StatusCode::kOverloaded:
    case common::StatusCode::kIsBootstrapping:
    case common::StatusCode::kWriteTimeout:
    case common::StatusCode::kReadTimeout:
    case common::StatusCode::kCasWriteUnknown:
    case common::StatusCode::kIOError:
      return Status(common::StatusCode::kUnavailable, "database unavailable: " + status.message());
    default:
      return Status::Internal("database error: " + status.ToString());
  }
}

bool Applied(const cql::ResultSet& result) {
  if (result.row_count() == 0 || result.column_count() == 0) return false;
  auto applied = result.GetBoolean(0, 0);
  return applied.ok() && *applied;
}

// Column lists shared by the reservation reads, so RowView positions match.
constexpr std::string_view kReservationColumns =
    "confirm_number, hotel_id, hotel_name, start_date, end_date, room_number, guest_id, "
    "guest_first_name, guest_last_name, total, currency";

Reservation ReadReservation(RowView& row) {
  Reservation reservation;
  reservation.confirmation_number = row.Text(0);
  reservation.hotel_id = row.Text(1);
  reservation.hotel_name = row.Text(2);
  reservation.check_in = row.Date(3);
  reservation.check_out = row.Date(4);
  reservation.room_number = row.Room(5);
  reservation.guest_id = row.Uuid(6);
  reservation.guest_first_name = row.Text(7);
  reservation.guest_last_name = row.Text(8);
  reservation.total = row.Money(9);
  reservation.currency = row.Text(10);
  if (reservation.currency.empty()) reservation.currency = std::string(kCurrency);
  return reservation;
}

}  // namespace

Result<std::unique_ptr<Repository>> Repository::Create(cql::Session* session, Keyspaces keyspaces) {
  auto repository = std::make_unique<Repository>(session, std::move(keyspaces));
  RETURN_IF_ERROR(repository->PrepareAll());
  return repository;
}

Status Repository::PrepareAll() {
  const std::string& h = keyspaces_.hotel;
  const std::string& r = keyspaces_.reservation;
  struct Item {
    Prepared* target;
    std::string query;
  };
  const std::string reservation_columns(kReservationColumns);
  std::vector<Item> items = {
      {&list_pois_,
       fmt::format("SELECT poi_name, description FROM {}.pois WHERE directory = 'all'", h)},
      {&hotels_by_poi_,
       fmt::format("SELECT poi_name, poi_description, hotel_id, name, phone, address "
                   "FROM {}.hotels_by_poi WHERE poi_name = ?",
                   h)},
      {&find_hotel_,
       fmt::format("SELECT id, name, phone, address, pois FROM {}.hotels WHERE id = ?", h)},
      {&pois_by_hotel_,
       fmt::format("SELECT poi_name, description FROM {}.pois_by_hotel WHERE hotel_id = ?", h)},
      {&room_nights_,
       fmt::format("SELECT date, room_number, is_available, rate, room_type, held_by, held_at "
                   "FROM {}.available_rooms_by_hotel_date WHERE hotel_id = ? AND date >= ? "
                   "AND date < ?",
                   h)},
      {&room_night_,
       fmt::format("SELECT date, room_number, is_available, rate, room_type, held_by, held_at "
                   "FROM {}.available_rooms_by_hotel_date WHERE hotel_id = ? AND date = ? "
                   "AND room_number = ?",
                   h)},
      {&find_room_,
       fmt::format("SELECT room_number, room_type, base_rate, amenity_name, description "
                   "FROM {}.amenities_by_room WHERE hotel_id = ? AND room_number = ?",
                   h)},
      {&rooms_by_hotel_,
       fmt::format("SELECT room_number, room_type, base_rate FROM {}.rooms_by_hotel "
                   "WHERE hotel_id = ?",
                   h)},
      {&find_reservation_, fmt::format("SELECT {}, status FROM {}.reservations_by_confirmation "
                                       "WHERE confirm_number = ?",
                                       reservation_columns, r)},
      {&by_hotel_date_,
       fmt::format("SELECT {} FROM {}.reservations_by_hotel_date WHERE hotel_id = ? "
                   "AND start_date = ?",
                   reservation_columns, r)},
      {&by_hotel_date_name_,
       fmt::format("SELECT {} FROM {}.reservations_by_hotel_date WHERE hotel_id = ? "
                   "AND start_date = ? AND last_name_key = ?",
                   reservation_columns, r)},
      {&by_guest_, fmt::format("SELECT {} FROM {}.reservations_by_guest WHERE last_name_key = ?",
                               reservation_columns, r)},
      {&by_guest_first_,
       fmt::format("SELECT {} FROM {}.reservations_by_guest WHERE last_name_key = ? "
                   "AND first_name_key = ?",
                   reservation_columns, r)},
      {&find_guest_,
       fmt::format("SELECT guest_id, first_name, last_name, title, emails, phone_numbers, "
                   "addresses FROM {}.guests WHERE guest_id = ?",
                   r)},
      {&insert_poi_, fmt::format("INSERT INTO {}.pois (directory, poi_name, description) "
                                 "VALUES ('all', ?, ?)",
                                 h)},
      {&set_poi_description_,
       fmt::format("UPDATE {}.hotels_by_poi SET poi_description = ? WHERE poi_name = ?", h)},
      {&insert_hotel_,
       fmt::format("INSERT INTO {}.hotels (id, name, phone, address, pois) VALUES (?, ?, ?, ?, ?) "
                   "IF NOT EXISTS",
                   h)},
      {&insert_hotel_by_poi_,
       fmt::format("INSERT INTO {}.hotels_by_poi (poi_name, poi_description, hotel_id, name, "
                   "phone, address) VALUES (?, ?, ?, ?, ?, ?)",
                   h)},
      {&insert_poi_by_hotel_,
       fmt::format("INSERT INTO {}.pois_by_hotel (hotel_id, poi_name, description) "
                   "VALUES (?, ?, ?)",
                   h)},
      {&insert_room_,
       fmt::format("INSERT INTO {}.rooms_by_hotel (hotel_id, room_number, room_type, base_rate) "
                   "VALUES (?, ?, ?, ?)",
                   h)},
      {&set_room_statics_,
       fmt::format("UPDATE {}.amenities_by_room SET room_type = ?, base_rate = ? "
                   "WHERE hotel_id = ? AND room_number = ?",
                   h)},
      {&insert_amenity_,
       fmt::format("INSERT INTO {}.amenities_by_room (hotel_id, room_number, amenity_name, "
                   "description) VALUES (?, ?, ?, ?)",
                   h)},
      {&delete_amenities_,
       fmt::format("DELETE FROM {}.amenities_by_room WHERE hotel_id = ? AND room_number = ?", h)},
      {&write_night_,
       fmt::format("INSERT INTO {}.available_rooms_by_hotel_date (hotel_id, date, room_number, "
                   "is_available, rate, room_type, held_by, held_at) VALUES (?, ?, ?, ?, ?, ?, "
                   "?, ?)",
                   h)},
      {&open_night_,
       fmt::format("INSERT INTO {}.available_rooms_by_hotel_date (hotel_id, date, room_number, "
                   "is_available, rate, room_type) VALUES (?, ?, ?, true, ?, ?) IF NOT EXISTS",
                   h)},
      {&reserve_confirmation_,
       fmt::format("INSERT INTO {}.reservations_by_confirmation (confirm_number, hotel_id, "
                   "start_date, end_date, room_number, guest_id, status, created_at) "
                   "VALUES (?, ?, ?, ?, ?, ?, 'pending', ?) IF NOT EXISTS",
                   r)},
      {&delete_pending_,
       fmt::format("DELETE FROM {}.reservations_by_confirmation WHERE confirm_number = ? "
                   "IF status = 'pending'",
                   r)},
      {&claim_night_,
       fmt::format("UPDATE {}.available_rooms_by_hotel_date SET is_available = false, "
                   "held_by = ?, held_at = ? WHERE hotel_id = ? AND date = ? AND room_number = ? "
                   "IF is_available = true",
                   h)},
      {&release_night_,
       fmt::format("UPDATE {}.available_rooms_by_hotel_date SET is_available = true, "
                   "held_by = null, held_at = null WHERE hotel_id = ? AND date = ? "
                   "AND room_number = ? IF held_by = ?",
                   h)},
      {&insert_by_confirmation_,
       fmt::format("INSERT INTO {}.reservations_by_confirmation ({}, status) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'confirmed')",
                   r, reservation_columns)},
      {&insert_by_hotel_date_,
       fmt::format("INSERT INTO {}.reservations_by_hotel_date ({}, last_name_key) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   r, reservation_columns)},
      {&insert_by_guest_,
       fmt::format("INSERT INTO {}.reservations_by_guest ({}, last_name_key, first_name_key) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   r, reservation_columns)},
      {&delete_by_confirmation_,
       fmt::format("DELETE FROM {}.reservations_by_confirmation WHERE confirm_number = ?", r)},
      {&delete_by_hotel_date_,
       fmt::format("DELETE FROM {}.reservations_by_hotel_date WHERE hotel_id = ? "
                   "AND start_date = ? AND last_name_key = ? AND room_number = ? "
                   "AND confirm_number = ?",
                   r)},
      {&delete_by_guest_,
       fmt::format("DELETE FROM {}.reservations_by_guest WHERE last_name_key = ? "
                   "AND first_name_key = ? AND start_date = ? AND confirm_number = ?",
                   r)},
      {&insert_guest_,
       fmt::format("INSERT INTO {}.guests (guest_id, first_name, last_name, title, emails, "
                   "phone_numbers, addresses) VALUES (?, ?, ?, ?, ?, ?, ?)",
                   r)},
  };
  for (Item& item : items) {
    auto prepared = session_->Prepare(item.query);
    if (!prepared.ok()) return DatabaseError(prepared.status()).WithPrefix(item.query + ": ");
    *item.target = std::move(*prepared);
  }
  return Status::Ok();
}

Result<cql::ResultSet> Repository::Run(const Prepared& statement, std::vector<BoundValue> values) {
  cql::QueryOptions options;
  options.consistency = cql::Consistency::kLocalQuorum;
  options.serial_consistency = cql::Consistency::kLocalSerial;
  options.values = std::move(values);
  auto result = session_->ExecutePrepared(*statement, options);
  if (!result.ok()) return DatabaseError(result.status());
  return std::move(*result);
}

Result<cql::ResultSet> Repository::RunBatch(cql::BatchType type,
                                            std::vector<cql::BatchEntry> entries) {
  cql::BatchRequest batch;
  batch.type = type;
  batch.entries = std::move(entries);
  batch.consistency = cql::Consistency::kLocalQuorum;
  batch.serial_consistency = cql::Consistency::kLocalSerial;
  auto result = session_->ExecuteBatch(batch);
  if (!result.ok()) return DatabaseError(result.status());
  return std::move(*result);
}

// --- Reads ---------------------------------------------------------------------------------

Result<std::vector<Poi>> Repository::ListPois() {
  ASSIGN_OR_RETURN(cql::ResultSet rows, Run(list_pois_, {}));
  std::vector<Poi> pois;
  for (size_t i = 0; i < rows.row_count(); ++i) {
    RowView row(rows, i);
    pois.push_back({row.Text(0), row.Text(1)});
  }
  return pois;
}

Result<std::optional<Repository::PoiHotels>> Repository::HotelsByPoi(const std::string& poi_name) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, Run(hotels_by_poi_, {TextValue(poi_name)}));
  if (rows.row_count() == 0) return std::optional<PoiHotels>();
  PoiHotels answer;
  answer.poi.name = poi_name;
  for (size_t i = 0; i < rows.row_count(); ++i) {
    RowView row(rows, i);
    answer.poi.description = row.Text(1);
    if (rows.IsNull(i, 2)) continue;  // the static row of a POI without hotels
    Hotel hotel;
    hotel.hotel_id = row.Text(2);
    hotel.name = row.Text(3);
    hotel.phone = row.Text(4);
    hotel.address = row.AddressColumn(5);
    RETURN_IF_ERROR(row.status());
    answer.hotels.push_back(std::move(hotel));
  }
  return std::optional<PoiHotels>(std::move(answer));
}

Result<std::optional<Hotel>> Repository::FindHotel(const std::string& hotel_id) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, Run(find_hotel_, {TextValue(hotel_id)}));
  if (rows.row_count() == 0) return std::optional<Hotel>();
  RowView row(rows, 0);
  Hotel hotel;
  hotel.hotel_id = row.Text(0);
  hotel.name = row.Text(1);
  hotel.phone = row.Text(2);
  hotel.address = row.AddressColumn(3);
  hotel.pois = row.TextCollection(4, /*set=*/true);
  RETURN_IF_ERROR(row.status());
  return std::optional<Hotel>(std::move(hotel));
}

Result<std::vector<Poi>> Repository::PoisByHotel(const std::string& hotel_id) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, Run(pois_by_hotel_, {TextValue(hotel_id)}));
  std::vector<Poi> pois;
  for (size_t i = 0; i < rows.row_count(); ++i) {
    RowView row(rows, i);
    pois.push_back({row.Text(0), row.Text(1)});
  }
  return pois;
}

namespace {

Result<RoomNight> ReadRoomNight(const cql::ResultSet& rows, size_t i) {
  RowView row(rows, i);
  RoomNight night;
  night.date = row.Date(0);
  night.room_number = row.Room(1);
  night.is_available = row.Bool(2);
  night.rate = row.Money(3);
  night.room_type = row.Text(4);
  night.held_by = row.Text(5);
  night.held_at_millis = row.Timestamp(6);
  RETURN_IF_ERROR(row.status());
  return night;
}

}  // namespace

Result<std::vector<RoomNight>> Repository::RoomNights(const std::string& hotel_id, Day first,
                                                      Day last) {
  ASSIGN_OR_RETURN(cql::ResultSet rows,
                   Run(room_nights_, {TextValue(hotel_id), DayValue(first), DayValue(last)}));
  std::vector<RoomNight> nights;
  nights.reserve(rows.row_count());
  for (size_t i = 0; i < rows.row_count(); ++i) {
    ASSIGN_OR_RETURN(RoomNight night, ReadRoomNight(rows, i));
    nights.push_back(std::move(night));
  }
  return nights;
}

Result<std::optional<RoomNight>> Repository::FindRoomNight(const std::string& hotel_id, Day date,
                                                           int16_t room_number) {
  ASSIGN_OR_RETURN(cql::ResultSet rows,
                   Run(room_night_, {TextValue(hotel_id), DayValue(date), RoomValue(room_number)}));
  if (rows.row_count() == 0) return std::optional<RoomNight>();
  ASSIGN_OR_RETURN(RoomNight night, ReadRoomNight(rows, 0));
  return std::optional<RoomNight>(std::move(night));
}

Result<std::optional<Room>> Repository::FindRoom(const std::string& hotel_id, int16_t room_number) {
  ASSIGN_OR_RETURN(cql::ResultSet rows,
                   Run(find_room_, {TextValue(hotel_id), RoomValue(room_number)}));
  if (rows.row_count() == 0) return std::optional<Room>();
  Room room;
  room.room_number = room_number;
  for (size_t i = 0; i < rows.row_count(); ++i) {
    RowView row(rows, i);
    room.room_type = row.Text(1);
    room.base_rate = row.Money(2);
    if (!rows.IsNull(i, 3)) room.amenities.push_back({row.Text(3), row.Text(4)});
    RETURN_IF_ERROR(row.status());
  }
  return std::optional<Room>(std::move(room));
}

Result<std::vector<Room>> Repository::RoomsByHotel(const std::string& hotel_id) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, Run(rooms_by_hotel_, {TextValue(hotel_id)}));
  std::vector<Room> rooms;
  for (size_t i = 0; i < rows.row_count(); ++i) {
    RowView row(rows, i);
    Room room;
    room.room_number = row.Room(0);
    room.room_type = row.Text(1);
    room.base_rate = row.Money(2);
    RETURN_IF_ERROR(row.status());
    rooms.push_back(std::move(room));
  }
  return rooms;
}

Result<std::optional<Reservation>> Repository::FindReservation(const std::string& confirmation) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, Run(find_reservation_, {TextValue(confirmation)}));
  if (rows.row_count() == 0) return std::optional<Reservation>();
  RowView row(rows, 0);
  Reservation reservation = ReadReservation(row);
  reservation.status = row.Text(11);
  RETURN_IF_ERROR(row.status());
  return std::optional<Reservation>(std::move(reservation));
}

Result<std::vector<Reservation>> Repository::ReservationsByHotelDate(
    const std::string& hotel_id, Day start_date, const std::optional<std::string>& last_name_key) {
  std::vector<BoundValue> values = {TextValue(hotel_id), DayValue(start_date)};
  if (last_name_key) values.push_back(TextValue(*last_name_key));
  ASSIGN_OR_RETURN(cql::ResultSet rows,
                   Run(last_name_key ? by_hotel_date_name_ : by_hotel_date_, std::move(values)));
  std::vector<Reservation> reservations;
  for (size_t i = 0; i < rows.row_count(); ++i) {
    RowView row(rows, i);
    reservations.push_back(ReadReservation(row));
    RETURN_IF_ERROR(row.status());
  }
  return reservations;
}

Result<std::vector<Reservation>> Repository::ReservationsByGuest(
    const std::string& last_name_key, const std::optional<std::string>& first_name_key) {
  std::vector<BoundValue> values = {TextValue(last_name_key)};
  if (first_name_key) values.push_back(TextValue(*first_name_key));
  ASSIGN_OR_RETURN(cql::ResultSet rows,
                   Run(first_name_key ? by_guest_first_ : by_guest_, std::move(values)));
  std::vector<Reservation> reservations;
  for (size_t i = 0; i < rows.row_count(); ++i) {
    RowView row(rows, i);
    reservations.push_back(ReadReservation(row));
    RETURN_IF_ERROR(row.status());
  }
  return reservations;
}

Result<std::optional<Guest>> Repository::FindGuest(const common::Uuid& guest_id) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, Run(find_guest_, {UuidValue(guest_id)}));
  if (rows.row_count() == 0) return std::optional<Guest>();
  RowView row(rows, 0);
  Guest guest;
  guest.guest_id = row.Uuid(0);
  guest.first_name = row.Text(1);
  guest.last_name = row.Text(2);
  guest.title = row.Text(3);
  guest.emails = row.TextCollection(4, /*set=*/true);
  guest.phone_numbers = row.TextCollection(5, /*set=*/false);
  guest.addresses = row.AddressMap(6);
  RETURN_IF_ERROR(row.status());
  return std::optional<Guest>(std::move(guest));
}

// --- Inventory writes ----------------------------------------------------------------------

Status Repository::InsertPoi(const Poi& poi) {
  std::vector<cql::BatchEntry> entries(2);
  entries[0].prepared = insert_poi_;
  entries[0].values = {TextValue(poi.name), TextValue(poi.description)};
  entries[1].prepared = set_poi_description_;
  entries[1].values = {TextValue(poi.description), TextValue(poi.name)};
  return RunBatch(cql::BatchType::kLogged, std::move(entries)).status();
}

Result<bool> Repository::InsertHotel(const Hotel& hotel, const std::vector<Poi>& pois) {
  std::vector<Bytes> names;
  for (const std::string& name : hotel.pois) names.emplace_back(name);
  ASSIGN_OR_RETURN(
      cql::ResultSet inserted,
      Run(insert_hotel_, {TextValue(hotel.hotel_id), TextValue(hotel.name), TextValue(hotel.phone),
                          BoundValue::Of(AddressBytes(hotel.address)),
                          BoundValue::Of(cql::SerializeCollection(
                              cql::CqlType::Set(cql::CqlType::Text()), std::move(names)))}));
  if (!Applied(inserted)) return false;
  std::vector<cql::BatchEntry> entries;
  for (const Poi& poi : pois) {
    cql::BatchEntry by_poi;
    by_poi.prepared = insert_hotel_by_poi_;
    by_poi.values = {TextValue(poi.name),       TextValue(poi.description),
                     TextValue(hotel.hotel_id), TextValue(hotel.name),
                     TextValue(hotel.phone),    BoundValue::Of(AddressBytes(hotel.address))};
    entries.push_back(std::move(by_poi));
    cql::BatchEntry by_hotel;
    by_hotel.prepared = insert_poi_by_hotel_;
    by_hotel.values = {TextValue(hotel.hotel_id), TextValue(poi.name), TextValue(poi.description)};
    entries.push_back(std::move(by_hotel));
  }
  if (!entries.empty()) RETURN_IF_ERROR(RunBatch(cql::BatchType::kLogged, std::move(entries)));
  return true;
}

Status Repository::InsertRoom(const std::string& hotel_id, const Room& room) {
  // Replacing a room replaces its amenities: the partition deletion runs first, so the batch's
  // later timestamp keeps the new rows.
  std::vector<cql::BatchEntry> entries(2);
  entries[0].prepared = insert_room_;
  entries[0].values = {TextValue(hotel_id), RoomValue(room.room_number), TextValue(room.room_type),
                       MoneyValue(room.base_rate)};
  entries[1].prepared = set_room_statics_;
  entries[1].values = {TextValue(room.room_type), MoneyValue(room.base_rate), TextValue(hotel_id),
                       RoomValue(room.room_number)};
  RETURN_IF_ERROR(Run(delete_amenities_, {TextValue(hotel_id), RoomValue(room.room_number)}));
  for (const Amenity& amenity : room.amenities) {
    cql::BatchEntry entry;
    entry.prepared = insert_amenity_;
    entry.values = {TextValue(hotel_id), RoomValue(room.room_number), TextValue(amenity.name),
                    TextValue(amenity.description)};
    entries.push_back(std::move(entry));
  }
  return RunBatch(cql::BatchType::kLogged, std::move(entries)).status();
}

Status Repository::WriteNights(const std::string& hotel_id, const std::vector<RoomNight>& nights) {
  if (nights.empty()) return Status::Ok();
  std::vector<cql::BatchEntry> entries;
  entries.reserve(nights.size());
  for (const RoomNight& night : nights) {
    cql::BatchEntry entry;
    entry.prepared = write_night_;
    entry.values = {
        TextValue(hotel_id),
        DayValue(night.date),
        RoomValue(night.room_number),
        BoolValue(night.is_available),
        MoneyValue(night.rate),
        TextValue(night.room_type),
        night.held_by.empty() ? BoundValue::Null() : TextValue(night.held_by),
        night.held_by.empty() ? BoundValue::Null() : TimestampValue(night.held_at_millis)};
    entries.push_back(std::move(entry));
  }
  return RunBatch(cql::BatchType::kUnlogged, std::move(entries)).status();
}

Result<bool> Repository::OpenNightIfAbsent(const std::string& hotel_id, const RoomNight& night) {
  ASSIGN_OR_RETURN(
      cql::ResultSet result,
      Run(open_night_, {TextValue(hotel_id), DayValue(night.date), RoomValue(night.room_number),
                        MoneyValue(night.rate), TextValue(night.room_type)}));
  return Applied(result);
}

// --- Booking -------------------------------------------------------------------------------

Result<bool> Repository::ReserveConfirmation(const Reservation& pending, int64_t now_millis) {
  ASSIGN_OR_RETURN(
      cql::ResultSet result,
      Run(reserve_confirmation_,
          {TextValue(pending.confirmation_number), TextValue(pending.hotel_id),
           DayValue(pending.check_in), DayValue(pending.check_out), RoomValue(pending.room_number),
           UuidValue(pending.guest_id), TimestampValue(now_millis)}));
  return Applied(result);
}

Status Repository::DeletePendingConfirmation(const std::string& confirmation) {
  return Run(delete_pending_, {TextValue(confirmation)}).status();
}

Result<bool> Repository::ClaimNights(const std::string& hotel_id, int16_t room_number,
                                     const std::vector<Day>& nights,
                                     const std::string& confirmation, int64_t now_millis) {
  if (nights.empty()) return true;
  std::vector<cql::BatchEntry> entries;
  for (Day night : nights) {
    cql::BatchEntry entry;
    entry.prepared = claim_night_;
    entry.values = {TextValue(confirmation), TimestampValue(now_millis), TextValue(hotel_id),
                    DayValue(night), RoomValue(room_number)};
    entries.push_back(std::move(entry));
  }
  ASSIGN_OR_RETURN(cql::ResultSet result, RunBatch(cql::BatchType::kLogged, std::move(entries)));
  return Applied(result);
}

Result<int> Repository::ReleaseNights(const std::string& hotel_id, int16_t room_number,
                                      const std::vector<Day>& nights,
                                      const std::string& confirmation) {
  if (nights.empty()) return 0;
  auto entry_for = [&](Day night) {
    cql::BatchEntry entry;
    entry.prepared = release_night_;
    entry.values = {TextValue(hotel_id), DayValue(night), RoomValue(room_number),
                    TextValue(confirmation)};
    return entry;
  };
  std::vector<cql::BatchEntry> entries;
  for (Day night : nights) entries.push_back(entry_for(night));
  ASSIGN_OR_RETURN(cql::ResultSet result, RunBatch(cql::BatchType::kLogged, std::move(entries)));
  if (Applied(result)) return static_cast<int>(nights.size());
  // Some night is no longer held by this confirmation (freed by a repair pass, say): free the
  // others one by one.
  int freed = 0;
  for (Day night : nights) {
    cql::BatchEntry entry = entry_for(night);
    ASSIGN_OR_RETURN(cql::ResultSet one, Run(release_night_, std::move(entry.values)));
    if (Applied(one)) ++freed;
  }
  return freed;
}

std::vector<BoundValue> Repository::ReservationValues(const Reservation& reservation) const {
  return {TextValue(reservation.confirmation_number),
          TextValue(reservation.hotel_id),
          TextValue(reservation.hotel_name),
          DayValue(reservation.check_in),
          DayValue(reservation.check_out),
          RoomValue(reservation.room_number),
          UuidValue(reservation.guest_id),
          TextValue(reservation.guest_first_name),
          TextValue(reservation.guest_last_name),
          MoneyValue(reservation.total),
          TextValue(reservation.currency)};
}

namespace {

std::vector<BoundValue> ByHotelDateKey(const Reservation& reservation) {
  return {TextValue(reservation.hotel_id), DayValue(reservation.check_in),
          TextValue(FoldName(reservation.guest_last_name)), RoomValue(reservation.room_number),
          TextValue(reservation.confirmation_number)};
}

std::vector<BoundValue> ByGuestKey(const Reservation& reservation) {
  return {TextValue(FoldName(reservation.guest_last_name)),
          TextValue(FoldName(reservation.guest_first_name)), DayValue(reservation.check_in),
          TextValue(reservation.confirmation_number)};
}

BoundValue GuestCollections(int which, const Guest& guest) {
  cql::CqlType text = cql::CqlType::Text();
  if (which == 0) {
    std::vector<Bytes> emails(guest.emails.begin(), guest.emails.end());
    return BoundValue::Of(cql::SerializeCollection(cql::CqlType::Set(text), std::move(emails)));
  }
  if (which == 1) {
    std::vector<Bytes> phones(guest.phone_numbers.begin(), guest.phone_numbers.end());
    return BoundValue::Of(cql::SerializeCollection(cql::CqlType::List(text), std::move(phones)));
  }
  std::vector<std::pair<Bytes, Bytes>> entries;
  for (const auto& [kind, address] : guest.addresses) {
    entries.emplace_back(Bytes(kind), AddressBytes(address));
  }
  return BoundValue::Of(
      cql::SerializeMap(cql::CqlType::Map(text, cql::CqlType::Blob()), std::move(entries)));
}

}  // namespace

Status Repository::WriteReservation(const Reservation& reservation, const Guest* guest,
                                    const Reservation* replaced) {
  std::vector<cql::BatchEntry> entries;
  auto add = [&](const Prepared& statement, std::vector<BoundValue> values) {
    cql::BatchEntry entry;
    entry.prepared = statement;
    entry.values = std::move(values);
    entries.push_back(std::move(entry));
  };
  if (replaced != nullptr) {
    add(delete_by_hotel_date_, ByHotelDateKey(*replaced));
    add(delete_by_guest_, ByGuestKey(*replaced));
  }
  add(insert_by_confirmation_, ReservationValues(reservation));
  std::vector<BoundValue> by_date = ReservationValues(reservation);
  by_date.push_back(TextValue(FoldName(reservation.guest_last_name)));
  add(insert_by_hotel_date_, std::move(by_date));
  std::vector<BoundValue> by_guest = ReservationValues(reservation);
  by_guest.push_back(TextValue(FoldName(reservation.guest_last_name)));
  by_guest.push_back(TextValue(FoldName(reservation.guest_first_name)));
  add(insert_by_guest_, std::move(by_guest));
  if (guest != nullptr) {
    add(insert_guest_,
        {UuidValue(guest->guest_id), TextValue(guest->first_name), TextValue(guest->last_name),
         TextValue(guest->title), GuestCollections(0, *guest), GuestCollections(1, *guest),
         GuestCollections(2, *guest)});
  }
  return RunBatch(cql::BatchType::kLogged, std::move(entries)).status();
}

Status Repository::DeleteReservation(const Reservation& reservation) {
  std::vector<cql::BatchEntry> entries(3);
  entries[0].prepared = delete_by_confirmation_;
  entries[0].values = {TextValue(reservation.confirmation_number)};
  entries[1].prepared = delete_by_hotel_date_;
  entries[1].values = ByHotelDateKey(reservation);
  entries[2].prepared = delete_by_guest_;
  entries[2].values = ByGuestKey(reservation);
  return RunBatch(cql::BatchType::kLogged, std::move(entries)).status();
}

Status Repository::UpsertGuest(const Guest& guest) {
  return Run(insert_guest_,
             {UuidValue(guest.guest_id), TextValue(guest.first_name), TextValue(guest.last_name),
              TextValue(guest.title), GuestCollections(0, guest), GuestCollections(1, guest),
              GuestCollections(2, guest)})
      .status();
}

}  // namespace hotel
