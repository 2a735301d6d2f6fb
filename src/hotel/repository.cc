#include "hotel/repository.h"

#include <fmt/format.h>

#include "hotel/repository_rows.h"

namespace hotel {

using common::Bytes;
using common::Result;
using common::Status;
using cql::BoundValue;
using repository_rows::AddressBytes;
using repository_rows::Applied;
using repository_rows::BoolValue;
using repository_rows::DatabaseError;
using repository_rows::DayValue;
using repository_rows::DecodePage;
using repository_rows::IntValue;
using repository_rows::kReservationColumns;
using repository_rows::MoneyValue;
using repository_rows::ReadHotel;
using repository_rows::ReadReservation;
using repository_rows::ReadReservations;
using repository_rows::RoomValue;
using repository_rows::RowView;
using repository_rows::TextValue;
using repository_rows::TimestampValue;
using repository_rows::UuidValue;

Result<std::unique_ptr<Repository>> Repository::Create(cql::Session* session, Keyspaces keyspaces) {
  auto repository = std::make_unique<Repository>(session, std::move(keyspaces));
  RETURN_IF_ERROR(repository->PrepareAll());
  return repository;
}

Status Repository::PrepareAll() {
  std::vector<Statement> statements;
  for (auto group : {&Repository::ReadStatements, &Repository::WriteStatements,
                     &Repository::MonthAndRepairStatements, &Repository::StaffStatements,
                     &Repository::NotificationStatements, &Repository::ConsoleStatements,
                     &Repository::GuestEmailStatements, &Repository::BackfillStatements}) {
    for (Statement& statement : (this->*group)()) statements.push_back(std::move(statement));
  }
  for (Statement& statement : statements) {
    auto prepared = session_->Prepare(statement.query);
    if (!prepared.ok()) {
      return DatabaseError(prepared.status()).WithPrefix(statement.query + ": ");
    }
    *statement.target = std::move(*prepared);
  }
  return Status::Ok();
}

std::vector<Repository::Statement> Repository::ReadStatements() {
  const std::string& h = keyspaces_.hotel;
  const std::string& r = keyspaces_.reservation;
  const std::string reservation_columns(kReservationColumns);
  return {
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
      {&room_nights_of_room_,
       fmt::format("SELECT date, room_number, is_available, rate, room_type, held_by, held_at "
                   "FROM {}.available_rooms_by_hotel_date WHERE hotel_id = ? AND date IN ? "
                   "AND room_number = ?",
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
       fmt::format("SELECT {}, status FROM {}.reservations_by_hotel_date WHERE hotel_id = ? "
                   "AND start_date = ?",
                   reservation_columns, r)},
      {&by_hotel_date_name_,
       fmt::format("SELECT {}, status FROM {}.reservations_by_hotel_date WHERE hotel_id = ? "
                   "AND start_date = ? AND last_name_key = ?",
                   reservation_columns, r)},
      {&by_guest_,
       fmt::format("SELECT {}, status FROM {}.reservations_by_guest WHERE last_name_key = ?",
                   reservation_columns, r)},
      {&by_guest_first_,
       fmt::format("SELECT {}, status FROM {}.reservations_by_guest WHERE last_name_key = ? "
                   "AND first_name_key = ?",
                   reservation_columns, r)},
      {&find_guest_,
       fmt::format("SELECT guest_id, first_name, last_name, title, emails, phone_numbers, "
                   "addresses FROM {}.guests WHERE guest_id = ?",
                   r)},
      {&history_, fmt::format("SELECT event_id, action, status, actor, details "
                              "FROM {}.reservation_history_by_confirmation "
                              "WHERE confirm_number = ?",
                              r)},
  };
}

std::vector<Repository::Statement> Repository::WriteStatements() {
  const std::string& h = keyspaces_.hotel;
  const std::string& r = keyspaces_.reservation;
  const std::string reservation_columns(kReservationColumns);
  return {
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
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   r, reservation_columns)},
      {&insert_by_hotel_date_,
       fmt::format("INSERT INTO {}.reservations_by_hotel_date ({}, status, last_name_key) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   r, reservation_columns)},
      {&insert_by_guest_,
       fmt::format("INSERT INTO {}.reservations_by_guest ({}, status, last_name_key, "
                   "first_name_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   r, reservation_columns)},
      {&insert_history_,
       fmt::format("INSERT INTO {}.reservation_history_by_confirmation (confirm_number, "
                   "event_id, action, status, actor, details) VALUES (?, ?, ?, ?, ?, ?)",
                   r)},
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
}

std::vector<Repository::Statement> Repository::MonthAndRepairStatements() {
  const std::string& h = keyspaces_.hotel;
  const std::string& r = keyspaces_.reservation;
  return {
      // The month-bucketed availability table (AvailabilityBucketing::kMonth).
      {&room_nights_month_,
       fmt::format("SELECT date, room_number, is_available, rate, room_type, held_by, held_at "
                   "FROM {}.available_rooms_by_hotel_month WHERE hotel_id = ? AND month = ? "
                   "AND date >= ? AND date < ?",
                   h)},
      {&room_nights_of_room_month_,
       fmt::format("SELECT date, room_number, is_available, rate, room_type, held_by, held_at "
                   "FROM {}.available_rooms_by_hotel_month WHERE hotel_id = ? AND month = ? "
                   "AND date IN ? AND room_number = ?",
                   h)},
      {&room_night_month_,
       fmt::format("SELECT date, room_number, is_available, rate, room_type, held_by, held_at "
                   "FROM {}.available_rooms_by_hotel_month WHERE hotel_id = ? AND month = ? "
                   "AND date = ? AND room_number = ?",
                   h)},
      {&write_night_month_,
       fmt::format("INSERT INTO {}.available_rooms_by_hotel_month (hotel_id, month, date, "
                   "room_number, is_available, rate, room_type, held_by, held_at) VALUES (?, ?, "
                   "?, ?, ?, ?, ?, ?, ?)",
                   h)},
      {&open_night_month_,
       fmt::format("INSERT INTO {}.available_rooms_by_hotel_month (hotel_id, month, date, "
                   "room_number, is_available, rate, room_type) VALUES (?, ?, ?, ?, true, ?, ?) "
                   "IF NOT EXISTS",
                   h)},
      {&claim_night_month_,
       fmt::format("UPDATE {}.available_rooms_by_hotel_month SET is_available = false, "
                   "held_by = ?, held_at = ? WHERE hotel_id = ? AND month = ? AND date = ? "
                   "AND room_number = ? IF is_available = true",
                   h)},
      {&release_night_month_,
       fmt::format("UPDATE {}.available_rooms_by_hotel_month SET is_available = true, "
                   "held_by = null, held_at = null WHERE hotel_id = ? AND month = ? AND date = ? "
                   "AND room_number = ? IF held_by = ?",
                   h)},
      {&note_month_,
       fmt::format("INSERT INTO {}.availability_months_by_hotel (hotel_id, month) VALUES (?, ?)",
                   h)},
      {&list_months_, fmt::format("SELECT month FROM {}.availability_months_by_hotel "
                                  "WHERE hotel_id = ? AND month >= ?",
                                  h)},
      // The repair pass's full-table reads.
      {&list_hotel_ids_, fmt::format("SELECT id FROM {}.hotels", h)},
      {&pending_confirmations_,
       fmt::format("SELECT confirm_number, created_at FROM {}.reservations_by_confirmation "
                   "WHERE status = 'pending' ALLOW FILTERING",
                   r)},
  };
}

std::vector<Repository::Statement> Repository::StaffStatements() {
  const std::string& h = keyspaces_.hotel;
  return {
      {&find_staff_user_,
       fmt::format("SELECT password_hash FROM {}.staff_users WHERE username = ?", h)},
      {&insert_staff_user_,
       fmt::format("INSERT INTO {}.staff_users (username, password_hash, created_at) "
                   "VALUES (?, ?, ?) IF NOT EXISTS",
                   h)},
      {&set_staff_password_,
       fmt::format("UPDATE {}.staff_users SET password_hash = ? WHERE username = ? IF EXISTS", h)},
      {&delete_staff_user_,
       fmt::format("DELETE FROM {}.staff_users WHERE username = ? IF EXISTS", h)},
      {&list_staff_users_, fmt::format("SELECT username FROM {}.staff_users", h)},
  };
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

Result<cql::ResultSet> Repository::RunPage(const Prepared& statement,
                                           std::vector<BoundValue> values,
                                           const PageRequest& page) {
  if (page.page_size < 0 || page.page_size > kMaxPageSize) {
    return Status::Invalid(fmt::format("page_size must be between 1 and {}", kMaxPageSize));
  }
  cql::QueryOptions options;
  options.consistency = cql::Consistency::kLocalQuorum;
  options.values = std::move(values);
  if (page.page_size > 0) options.page_size = page.page_size;
  options.paging_state = page.paging_state;
  auto rows = session_->ExecutePrepared(*statement, options);
  if (!rows.ok()) {
    // A paging state the database cannot continue from (forged, or from another query) is the
    // client's error, not the database's.
    common::StatusCode code = rows.status().code();
    if (page.paging_state &&
        (code == common::StatusCode::kInvalid || code == common::StatusCode::kProtocolError)) {
      return CursorRefused(rows.status().message());
    }
    return DatabaseError(rows.status());
  }
  return std::move(*rows);
}

Result<cql::ResultSet> Repository::RunBatch(cql::BatchType type,
                                            std::vector<cql::BatchEntry> entries,
                                            std::optional<int64_t> timestamp) {
  cql::BatchRequest batch;
  batch.type = type;
  batch.timestamp = timestamp;
  batch.entries = std::move(entries);
  batch.consistency = cql::Consistency::kLocalQuorum;
  batch.serial_consistency = cql::Consistency::kLocalSerial;
  auto result = session_->ExecuteBatch(batch);
  if (!result.ok()) return DatabaseError(result.status());
  return std::move(*result);
}

common::Status Repository::Ping() {
  cql::QueryOptions options;
  options.consistency = cql::Consistency::kLocalOne;
  auto result = session_->Execute("SELECT release_version FROM system.local", options);
  if (!result.ok()) return DatabaseError(result.status());
  return common::Status::Ok();
}

// --- Reads ---------------------------------------------------------------------------------

namespace {

Result<Poi> ReadPoi(RowView& row) { return Poi{row.Text(0), row.Text(1)}; }

}  // namespace

Result<std::vector<Poi>> Repository::ListPois() { return Items(ListPois(PageRequest{})); }

Result<Page<Poi>> Repository::ListPois(const PageRequest& page) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, RunPage(list_pois_, {}, page));
  return DecodePage<Poi>(rows, ReadPoi);
}

Result<std::optional<Repository::PoiHotels>> Repository::HotelsByPoi(const std::string& poi_name,
                                                                     const PageRequest& page) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, RunPage(hotels_by_poi_, {TextValue(poi_name)}, page));
  if (rows.row_count() == 0 && !page.paging_state) return std::optional<PoiHotels>();
  PoiHotels answer;
  answer.poi.name = poi_name;
  answer.paging_state = rows.paging_state();
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
  Hotel hotel = ReadHotel(row);
  RETURN_IF_ERROR(row.status());
  return std::optional<Hotel>(std::move(hotel));
}

Result<std::vector<Poi>> Repository::PoisByHotel(const std::string& hotel_id) {
  return Items(PoisByHotel(hotel_id, PageRequest{}));
}

Result<Page<Poi>> Repository::PoisByHotel(const std::string& hotel_id, const PageRequest& page) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, RunPage(pois_by_hotel_, {TextValue(hotel_id)}, page));
  return DecodePage<Poi>(rows, ReadPoi);
}

Result<std::optional<Room>> Repository::FindRoom(const std::string& hotel_id, int16_t room_number) {
  ASSIGN_OR_RETURN(auto page, FindRoom(hotel_id, room_number, PageRequest{}));
  if (!page) return std::optional<Room>();
  return std::optional<Room>(std::move(page->room));
}

Result<std::optional<Repository::RoomPage>> Repository::FindRoom(const std::string& hotel_id,
                                                                 int16_t room_number,
                                                                 const PageRequest& page) {
  ASSIGN_OR_RETURN(cql::ResultSet rows,
                   RunPage(find_room_, {TextValue(hotel_id), RoomValue(room_number)}, page));
  if (rows.row_count() == 0) {
    if (!page.paging_state) return std::optional<RoomPage>();
    // A later page that turned out empty: the type and base rate come from the first row.
    ASSIGN_OR_RETURN(auto first, FindRoom(hotel_id, room_number, PageRequest{1, std::nullopt}));
    if (first) {
      first->room.amenities.clear();
      first->paging_state.reset();
    }
    return first;
  }
  RoomPage answer;
  answer.room.room_number = room_number;
  answer.paging_state = rows.paging_state();
  for (size_t i = 0; i < rows.row_count(); ++i) {
    RowView row(rows, i);
    answer.room.room_type = row.Text(1);
    answer.room.base_rate = row.Money(2);
    if (!rows.IsNull(i, 3)) answer.room.amenities.push_back({row.Text(3), row.Text(4)});
    RETURN_IF_ERROR(row.status());
  }
  return std::optional<RoomPage>(std::move(answer));
}

Result<std::vector<Room>> Repository::RoomsByHotel(const std::string& hotel_id) {
  return Items(RoomsByHotel(hotel_id, PageRequest{}));
}

Result<Page<Room>> Repository::RoomsByHotel(const std::string& hotel_id, const PageRequest& page) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, RunPage(rooms_by_hotel_, {TextValue(hotel_id)}, page));
  return DecodePage<Room>(rows, [](RowView& row) -> Result<Room> {
    Room room;
    room.room_number = row.Room(0);
    room.room_type = row.Text(1);
    room.base_rate = row.Money(2);
    return room;
  });
}

Result<std::optional<Reservation>> Repository::FindReservation(const std::string& confirmation) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, Run(find_reservation_, {TextValue(confirmation)}));
  if (rows.row_count() == 0) return std::optional<Reservation>();
  RowView row(rows, 0);
  Reservation reservation = ReadReservation(row);
  RETURN_IF_ERROR(row.status());
  return std::optional<Reservation>(std::move(reservation));
}

Result<std::vector<Reservation>> Repository::ReservationsByHotelDate(
    const std::string& hotel_id, Day start_date, const std::optional<std::string>& last_name_key) {
  return Items(ReservationsByHotelDate(hotel_id, start_date, last_name_key, PageRequest{}));
}

Result<Page<Reservation>> Repository::ReservationsByHotelDate(
    const std::string& hotel_id, Day start_date, const std::optional<std::string>& last_name_key,
    const PageRequest& page) {
  std::vector<BoundValue> values = {TextValue(hotel_id), DayValue(start_date)};
  if (last_name_key) values.push_back(TextValue(*last_name_key));
  ASSIGN_OR_RETURN(
      cql::ResultSet rows,
      RunPage(last_name_key ? by_hotel_date_name_ : by_hotel_date_, std::move(values), page));
  return DecodePage<Reservation>(rows, ReadReservation);
}

Result<std::vector<Reservation>> Repository::ReservationsByGuest(
    const std::string& last_name_key, const std::optional<std::string>& first_name_key) {
  return Items(ReservationsByGuest(last_name_key, first_name_key, PageRequest{}));
}

Result<Page<Reservation>> Repository::ReservationsByGuest(
    const std::string& last_name_key, const std::optional<std::string>& first_name_key,
    const PageRequest& page) {
  std::vector<BoundValue> values = {TextValue(last_name_key)};
  if (first_name_key) values.push_back(TextValue(*first_name_key));
  ASSIGN_OR_RETURN(cql::ResultSet rows,
                   RunPage(first_name_key ? by_guest_first_ : by_guest_, std::move(values), page));
  return DecodePage<Reservation>(rows, ReadReservation);
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

// --- Staff accounts --------------------------------------------------------------------------

Result<std::optional<std::string>> Repository::FindStaffPasswordHash(const std::string& username) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, Run(find_staff_user_, {TextValue(username)}));
  if (rows.row_count() == 0) return std::optional<std::string>();
  RowView row(rows, 0);
  std::string hash = row.Text(0);
  RETURN_IF_ERROR(row.status());
  return std::optional<std::string>(std::move(hash));
}

Result<bool> Repository::InsertStaffUser(const std::string& username,
                                         const std::string& password_hash, int64_t now_millis) {
  ASSIGN_OR_RETURN(cql::ResultSet result,
                   Run(insert_staff_user_, {TextValue(username), TextValue(password_hash),
                                            TimestampValue(now_millis)}));
  return Applied(result);
}

Result<bool> Repository::SetStaffPassword(const std::string& username,
                                          const std::string& password_hash) {
  ASSIGN_OR_RETURN(cql::ResultSet result,
                   Run(set_staff_password_, {TextValue(password_hash), TextValue(username)}));
  return Applied(result);
}

Result<bool> Repository::DeleteStaffUser(const std::string& username) {
  ASSIGN_OR_RETURN(cql::ResultSet result, Run(delete_staff_user_, {TextValue(username)}));
  return Applied(result);
}

Result<std::vector<std::string>> Repository::ListStaffUsers() {
  return AllTexts(list_staff_users_);
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

Result<bool> Repository::DeletePendingConfirmation(const std::string& confirmation) {
  ASSIGN_OR_RETURN(cql::ResultSet result, Run(delete_pending_, {TextValue(confirmation)}));
  return Applied(result);
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
          TextValue(reservation.currency),
          TextValue(reservation.status)};
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

cql::BatchEntry Repository::GuestEntry(const Guest& guest) const {
  cql::BatchEntry entry;
  entry.prepared = insert_guest_;
  entry.values = {UuidValue(guest.guest_id),  TextValue(guest.first_name),
                  TextValue(guest.last_name), TextValue(guest.title),
                  GuestCollections(0, guest), GuestCollections(1, guest),
                  GuestCollections(2, guest)};
  return entry;
}

Status Repository::WriteReservation(const Reservation& reservation, const Guest* guest,
                                    const Reservation* replaced,
                                    const std::vector<std::string>& email_keys,
                                    const ReservationEvent& event,
                                    const Notification* notification) {
  std::vector<cql::BatchEntry> entries;
  auto add = [&](const Prepared& statement, std::vector<BoundValue> values) {
    cql::BatchEntry entry;
    entry.prepared = statement;
    entry.values = std::move(values);
    entries.push_back(std::move(entry));
  };
  if (replaced != nullptr) {
    // Only rows whose key changes are deleted: every statement of a batch has the same
    // timestamp, and a deletion wins over an insertion at the same timestamp, so deleting a
    // row the batch also writes would delete it.
    bool same_guest = FoldName(replaced->guest_last_name) == FoldName(reservation.guest_last_name);
    bool same_start = replaced->check_in == reservation.check_in;
    if (!same_guest || !same_start || replaced->room_number != reservation.room_number) {
      add(delete_by_hotel_date_, ByHotelDateKey(*replaced));
    }
    if (!same_guest || !same_start ||
        FoldName(replaced->guest_first_name) != FoldName(reservation.guest_first_name)) {
      add(delete_by_guest_, ByGuestKey(*replaced));
    }
  }
  add(insert_by_confirmation_, ReservationValues(reservation));
  std::vector<BoundValue> by_date = ReservationValues(reservation);
  by_date.push_back(TextValue(FoldName(reservation.guest_last_name)));
  add(insert_by_hotel_date_, std::move(by_date));
  std::vector<BoundValue> by_guest = ReservationValues(reservation);
  by_guest.push_back(TextValue(FoldName(reservation.guest_last_name)));
  by_guest.push_back(TextValue(FoldName(reservation.guest_first_name)));
  add(insert_by_guest_, std::move(by_guest));
  if (guest != nullptr) entries.push_back(GuestEntry(*guest));
  AddStayEntries(reservation, replaced, entries);
  AddEmailEntries(reservation, replaced, email_keys, entries);
  add(insert_history_, {TextValue(reservation.confirmation_number), UuidValue(event.event_id),
                        TextValue(ActionName(event.action)), TextValue(event.status),
                        TextValue(event.actor), TextValue(event.details)});
  if (notification != nullptr) entries.push_back(NotificationEntry(*notification));
  return RunBatch(cql::BatchType::kLogged, std::move(entries)).status();
}

Result<std::vector<ReservationEvent>> Repository::ReservationHistory(
    const std::string& confirmation) {
  return Items(ReservationHistory(confirmation, PageRequest{}));
}

Result<Page<ReservationEvent>> Repository::ReservationHistory(const std::string& confirmation,
                                                              const PageRequest& page) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, RunPage(history_, {TextValue(confirmation)}, page));
  return DecodePage<ReservationEvent>(rows, [](RowView& row) -> Result<ReservationEvent> {
    ReservationEvent event;
    event.event_id = row.Uuid(0);
    auto action = ParseAction(row.Text(1));
    if (!action) return Status::Internal("hotel: unknown history action '" + row.Text(1) + "'");
    event.action = *action;
    event.status = row.Text(2);
    event.actor = row.Text(3);
    event.details = row.Text(4);
    return event;
  });
}

Status Repository::UpsertGuest(const Guest& guest) {
  cql::BatchEntry entry = GuestEntry(guest);
  return Run(entry.prepared, std::move(entry.values)).status();
}

}  // namespace hotel
