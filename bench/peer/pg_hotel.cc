#include "bench/peer/pg_hotel.h"

#include <fmt/format.h>

#include <utility>

#include "hotel/hotel_service.h"

namespace peer {

using common::Result;
using common::Status;
using common::StatusCode;
using hotel::Day;
using hotel::FormatDay;
using hotel::FormatMoney;

const char* const kPgHotelSchema = R"sql(
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS hotel CASCADE;
CREATE SCHEMA hotel;
SET search_path = hotel;

CREATE TABLE pois (
  poi_name    text PRIMARY KEY,
  description text NOT NULL
);

CREATE TABLE hotels (
  hotel_id          text PRIMARY KEY,
  name              text NOT NULL,
  phone             text NOT NULL,
  street            text NOT NULL,
  city              text NOT NULL,
  state_or_province text NOT NULL,
  postal_code       text NOT NULL,
  country           text NOT NULL
);

CREATE TABLE hotel_pois (
  hotel_id text NOT NULL REFERENCES hotels,
  poi_name text NOT NULL REFERENCES pois,
  PRIMARY KEY (hotel_id, poi_name)
);
CREATE INDEX hotel_pois_by_poi ON hotel_pois (poi_name, hotel_id);

CREATE TABLE rooms (
  hotel_id    text          NOT NULL REFERENCES hotels,
  room_number smallint      NOT NULL,
  room_type   text          NOT NULL,
  base_rate   numeric(10,2) NOT NULL CHECK (base_rate >= 0),
  PRIMARY KEY (hotel_id, room_number)
);

CREATE TABLE room_amenities (
  hotel_id    text     NOT NULL,
  room_number smallint NOT NULL,
  name        text     NOT NULL,
  description text     NOT NULL,
  PRIMARY KEY (hotel_id, room_number, name),
  FOREIGN KEY (hotel_id, room_number) REFERENCES rooms
);

CREATE TABLE guests (
  guest_id      uuid   PRIMARY KEY,
  first_name    text   NOT NULL,
  last_name     text   NOT NULL,
  title         text   NOT NULL DEFAULT '',
  emails        text[] NOT NULL DEFAULT '{}',
  phone_numbers text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX guests_by_name ON guests (lower(last_name), lower(first_name));

CREATE TABLE guest_addresses (
  guest_id          uuid NOT NULL REFERENCES guests ON DELETE CASCADE,
  kind              text NOT NULL,
  street            text NOT NULL,
  city              text NOT NULL,
  state_or_province text NOT NULL,
  postal_code       text NOT NULL,
  country           text NOT NULL,
  PRIMARY KEY (guest_id, kind)
);

CREATE TABLE reservations (
  confirmation_number text          PRIMARY KEY,
  hotel_id            text          NOT NULL,
  room_number         smallint      NOT NULL,
  guest_id            uuid          NOT NULL REFERENCES guests,
  check_in            date          NOT NULL,
  check_out           date          NOT NULL,
  total               numeric(12,2) NOT NULL,
  currency            char(3)       NOT NULL,
  status              text          NOT NULL CHECK (status IN ('confirmed', 'changed',
                          'cancelled', 'checked_in', 'checked_out', 'no_show')),
  created_at          timestamptz   NOT NULL DEFAULT now(),
  CHECK (check_out > check_in),
  FOREIGN KEY (hotel_id, room_number) REFERENCES rooms
);
CREATE INDEX reservations_by_hotel_date ON reservations (hotel_id, check_in);
CREATE INDEX reservations_by_guest ON reservations (guest_id);

CREATE TABLE reservation_events (
  confirmation_number text        NOT NULL REFERENCES reservations,
  event_id            bigint      GENERATED ALWAYS AS IDENTITY,
  at                  timestamptz NOT NULL DEFAULT now(),
  action              text        NOT NULL,
  status              text        NOT NULL,
  actor               text        NOT NULL,
  details             text        NOT NULL,
  PRIMARY KEY (confirmation_number, event_id)
);

CREATE TABLE room_nights (
  hotel_id    text          NOT NULL,
  night       date          NOT NULL,
  room_number smallint      NOT NULL,
  price       numeric(10,2) NOT NULL CHECK (price >= 0),
  booked_by   text          REFERENCES reservations,
  PRIMARY KEY (hotel_id, night, room_number),
  FOREIGN KEY (hotel_id, room_number) REFERENCES rooms
);
CREATE INDEX room_nights_by_reservation ON room_nights (booked_by) WHERE booked_by IS NOT NULL;
)sql";

namespace {

// A live reservation holds its nights (hotel::HoldsNights).
constexpr const char* kLive = "('confirmed', 'changed', 'checked_in', 'checked_out')";

using Statements = std::vector<std::pair<std::string, std::string>>;  // name, SQL

// The loader's statements (the nights go by COPY).
Statements LoadStatements() {
  return {
      {"insert_poi",
       "INSERT INTO pois (poi_name, description) VALUES ($1, $2) "
       "ON CONFLICT (poi_name) DO UPDATE SET description = EXCLUDED.description"},
      {"insert_hotel",
       "INSERT INTO hotels (hotel_id, name, phone, street, city, state_or_province, "
       "postal_code, country) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
       "ON CONFLICT (hotel_id) DO NOTHING"},
      {"insert_hotel_pois",
       "INSERT INTO hotel_pois (hotel_id, poi_name) SELECT $1::text, unnest($2::text[]) "
       "ON CONFLICT DO NOTHING"},
      {"insert_room",
       "INSERT INTO rooms (hotel_id, room_number, room_type, base_rate) VALUES ($1, $2, $3, $4) "
       "ON CONFLICT (hotel_id, room_number) DO UPDATE SET room_type = EXCLUDED.room_type, "
       "base_rate = EXCLUDED.base_rate"},
      {"insert_amenities",
       "INSERT INTO room_amenities (hotel_id, room_number, name, description) "
       "SELECT $1::text, $2::smallint, unnest($3::text[]), unnest($4::text[]) "
       "ON CONFLICT (hotel_id, room_number, name) DO UPDATE SET description = "
       "EXCLUDED.description"},
      {"upsert_guest",
       "INSERT INTO guests (guest_id, first_name, last_name, title, emails, phone_numbers) "
       "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (guest_id) DO UPDATE SET "
       "first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, title = "
       "EXCLUDED.title, emails = EXCLUDED.emails, phone_numbers = EXCLUDED.phone_numbers"},
      {"upsert_addresses",
       "INSERT INTO guest_addresses (guest_id, kind, street, city, state_or_province, "
       "postal_code, country) SELECT $1::uuid, unnest($2::text[]), unnest($3::text[]), "
       "unnest($4::text[]), unnest($5::text[]), unnest($6::text[]), unnest($7::text[]) "
       "ON CONFLICT (guest_id, kind) DO UPDATE SET street = EXCLUDED.street, city = "
       "EXCLUDED.city, state_or_province = EXCLUDED.state_or_province, postal_code = "
       "EXCLUDED.postal_code, country = EXCLUDED.country"},
  };
}

// The workflow's statements, Q1-Q9, booking and cancel.
Statements WorkflowStatements() {
  return {
      {"list_pois", "SELECT poi_name FROM pois ORDER BY poi_name"},
      // Q1
      {"hotels_by_poi",
       "SELECT p.description, h.hotel_id, h.name, h.phone, h.street, h.city, "
       "h.state_or_province, h.postal_code, h.country FROM pois p "
       "LEFT JOIN hotel_pois hp ON hp.poi_name = p.poi_name "
       "LEFT JOIN hotels h ON h.hotel_id = hp.hotel_id "
       "WHERE p.poi_name = $1 ORDER BY h.hotel_id"},
      // Q2
      {"find_hotel",
       "SELECT h.name, h.phone, h.street, h.city, h.state_or_province, h.postal_code, "
       "h.country, ARRAY(SELECT hp.poi_name FROM hotel_pois hp WHERE hp.hotel_id = h.hotel_id "
       "ORDER BY hp.poi_name) FROM hotels h WHERE h.hotel_id = $1"},
      // Q3
      {"pois_by_hotel",
       "SELECT p.poi_name, p.description FROM hotel_pois hp JOIN pois p USING (poi_name) "
       "WHERE hp.hotel_id = $1 ORDER BY p.poi_name"},
      // Q4: the rooms free on every night of [$2, $3), with their rates and totals.
      {"availability",
       "SELECT n.room_number, r.room_type, sum(n.price), "
       "array_agg(n.price ORDER BY n.night) FROM room_nights n "
       "JOIN rooms r ON r.hotel_id = n.hotel_id AND r.room_number = n.room_number "
       "WHERE n.hotel_id = $1 AND n.night >= $2::date AND n.night < $3::date "
       "AND n.booked_by IS NULL GROUP BY n.room_number, r.room_type "
       "HAVING count(*) = $3::date - $2::date ORDER BY n.room_number"},
      {"hotel_exists", "SELECT 1 FROM hotels WHERE hotel_id = $1"},
      // Q5
      {"find_room",
       "SELECT r.room_type, r.base_rate, coalesce((SELECT n.price FROM room_nights n "
       "WHERE n.hotel_id = r.hotel_id AND n.night = $3 AND n.room_number = r.room_number), "
       "r.base_rate), a.name, a.description FROM rooms r LEFT JOIN room_amenities a "
       "ON a.hotel_id = r.hotel_id AND a.room_number = r.room_number "
       "WHERE r.hotel_id = $1 AND r.room_number = $2 ORDER BY a.name"},
      // Q6
      {"find_reservation",
       "SELECT r.confirmation_number, r.hotel_id, h.name, r.room_number, r.check_in, "
       "r.check_out, r.guest_id, g.first_name, g.last_name, r.total, r.currency, r.status "
       "FROM reservations r JOIN hotels h ON h.hotel_id = r.hotel_id "
       "JOIN guests g ON g.guest_id = r.guest_id WHERE r.confirmation_number = $1"},
      // Q7
      {"by_hotel_date",
       "SELECT r.confirmation_number, r.room_number, r.check_out, h.name, r.guest_id, "
       "g.first_name, g.last_name, r.total, r.currency, r.status FROM reservations r "
       "JOIN guests g ON g.guest_id = r.guest_id JOIN hotels h ON h.hotel_id = r.hotel_id "
       "WHERE r.hotel_id = $1 AND r.check_in = $2 "
       "ORDER BY lower(g.last_name), r.room_number, r.confirmation_number"},
      // Q8
      {"by_guest",
       "SELECT r.confirmation_number, r.hotel_id, h.name, r.check_in, r.check_out, "
       "r.room_number, g.guest_id, g.first_name, g.last_name, r.total, r.currency, r.status "
       "FROM guests g JOIN reservations r ON r.guest_id = g.guest_id "
       "JOIN hotels h ON h.hotel_id = r.hotel_id WHERE lower(g.last_name) = $1 "
       "ORDER BY lower(g.first_name), r.check_in, r.confirmation_number"},
      // Q9
      {"find_guest",
       "SELECT g.first_name, g.last_name, g.title, g.emails, g.phone_numbers, a.kind, "
       "a.street, a.city, a.state_or_province, a.postal_code, a.country FROM guests g "
       "LEFT JOIN guest_addresses a ON a.guest_id = g.guest_id WHERE g.guest_id = $1"},
      // Book: the reservation, priced from its nights; then the claim and the history row.
      {"insert_reservation",
       "INSERT INTO reservations (confirmation_number, hotel_id, room_number, guest_id, "
       "check_in, check_out, total, currency, status) SELECT $1::text, $2::text, $3::smallint, "
       "$4::uuid, $5::date, $6::date, "
       "coalesce((SELECT sum(price) FROM room_nights WHERE hotel_id = $2 AND night >= $5 "
       "AND night < $6 AND room_number = $3), 0), 'EUR', 'confirmed'"},
      {"claim_nights",
       "WITH claimed AS (UPDATE room_nights SET booked_by = $1 WHERE hotel_id = $2 "
       "AND night >= $4::date AND night < $5::date AND room_number = $3 AND booked_by IS NULL "
       "RETURNING 1), "
       "event AS (INSERT INTO reservation_events (confirmation_number, action, status, actor, "
       "details) VALUES ($1, 'booked', 'confirmed', 'guest', $6)) "
       "SELECT count(*) = $5::date - $4::date FROM claimed"},
      // Cancel: status, nights and history in one statement; the row's old status.
      {"cancel",
       "WITH old AS (SELECT status FROM reservations WHERE confirmation_number = $1), "
       "cancelled AS (UPDATE reservations SET status = 'cancelled' WHERE confirmation_number "
       "= $1 AND status IN ('confirmed', 'changed') RETURNING hotel_id, room_number, check_in, "
       "check_out), "
       "released AS (UPDATE room_nights n SET booked_by = NULL FROM cancelled c "
       "WHERE n.hotel_id = c.hotel_id AND n.night >= c.check_in AND n.night < c.check_out "
       "AND n.room_number = c.room_number AND n.booked_by = $1), "
       "event AS (INSERT INTO reservation_events (confirmation_number, action, status, actor, "
       "details) SELECT $1, 'cancelled', 'cancelled', 'guest', 'cancelled' FROM cancelled) "
       "SELECT old.status, (SELECT count(*) FROM cancelled) FROM old"},
      {"stay_held",
       "SELECT count(*) FROM room_nights WHERE hotel_id = $1 AND night >= $3 AND night < $4 "
       "AND room_number = $2 AND booked_by = $5"},
  };
}

std::string IntegrityQuery() {
  return fmt::format(
      "SELECT (SELECT count(*) FROM reservations), "
      "(SELECT count(*) FROM (SELECT r.hotel_id, r.room_number, d.night FROM reservations r "
      "CROSS JOIN LATERAL generate_series(r.check_in, r.check_out - 1, interval '1 day') "
      "AS d(night) WHERE r.status IN {0} GROUP BY 1, 2, 3 HAVING count(*) > 1) doubled), "
      "(SELECT count(*) FROM reservations r WHERE r.status IN {0} AND (SELECT count(*) FROM "
      "room_nights n WHERE n.hotel_id = r.hotel_id AND n.room_number = r.room_number AND "
      "n.night >= r.check_in AND n.night < r.check_out AND n.booked_by = "
      "r.confirmation_number) <> r.check_out - r.check_in), "
      "(SELECT count(*) FROM room_nights n JOIN reservations r ON r.confirmation_number = "
      "n.booked_by WHERE r.status NOT IN {0} OR n.hotel_id <> r.hotel_id OR n.room_number <> "
      "r.room_number OR n.night < r.check_in OR n.night >= r.check_out)",
      kLive);
}

}  // namespace

Result<std::unique_ptr<PgHotel>> PgHotel::Connect(const std::string& conninfo,
                                                  const std::string& synchronous_commit,
                                                  uint64_t seed) {
  ASSIGN_OR_RETURN(std::unique_ptr<PgConnection> connection, PgConnection::Connect(conninfo));
  RETURN_IF_ERROR(connection
                      ->Execute(fmt::format("SET search_path = hotel; SET synchronous_commit = {}",
                                            synchronous_commit == "on" ? "on" : "off"))
                      .status());
  auto store = std::unique_ptr<PgHotel>(new PgHotel(std::move(connection), seed));
  RETURN_IF_ERROR(store->PrepareAll());
  return store;
}

Status PgHotel::CreateSchema(PgConnection& connection) {
  return connection.Execute(kPgHotelSchema).status();
}

Status PgHotel::PrepareAll() {
  for (const Statements& statements : {LoadStatements(), WorkflowStatements()}) {
    for (const auto& [name, sql] : statements) RETURN_IF_ERROR(connection_->Prepare(name, sql));
  }
  return connection_->Prepare("integrity", IntegrityQuery());
}

// --- Loading -----------------------------------------------------------------------------

Status PgHotel::InsertPoi(const hotel::Poi& poi) {
  return connection_->Run("insert_poi", {poi.name, poi.description}).status();
}

Status PgHotel::InsertHotel(const hotel::Hotel& hotel) {
  const hotel::Address& address = hotel.address;
  RETURN_IF_ERROR(connection_
                      ->Run("insert_hotel",
                            {hotel.hotel_id, hotel.name, hotel.phone, address.street, address.city,
                             address.state_or_province, address.postal_code, address.country})
                      .status());
  return connection_->Run("insert_hotel_pois", {hotel.hotel_id, ArrayLiteral(hotel.pois)}).status();
}

Status PgHotel::InsertRoom(const std::string& hotel_id, const hotel::Room& room) {
  std::string number = std::to_string(room.room_number);
  RETURN_IF_ERROR(
      connection_
          ->Run("insert_room", {hotel_id, number, room.room_type, FormatMoney(room.base_rate)})
          .status());
  if (room.amenities.empty()) return Status::Ok();
  std::vector<std::string> names;
  std::vector<std::string> descriptions;
  for (const hotel::Amenity& amenity : room.amenities) {
    names.push_back(amenity.name);
    descriptions.push_back(amenity.description);
  }
  return connection_
      ->Run("insert_amenities", {hotel_id, number, ArrayLiteral(names), ArrayLiteral(descriptions)})
      .status();
}

Status PgHotel::CopyNights(const std::string& hotel_id,
                           const std::vector<hotel::RoomNight>& nights) {
  std::string data;
  data.reserve(nights.size() * 40);
  for (const hotel::RoomNight& night : nights) {
    // The generator's ids, dates and money need no COPY escaping.
    data += fmt::format("{}\t{}\t{}\t{}\t\\N\n", hotel_id, FormatDay(night.date), night.room_number,
                        FormatMoney(night.rate));
  }
  return connection_->Copy(
      "COPY room_nights (hotel_id, night, room_number, price, booked_by) FROM STDIN", data);
}

Status PgHotel::UpsertGuest(const hotel::Guest& guest) {
  std::string id = guest.guest_id.ToString();
  RETURN_IF_ERROR(
      connection_
          ->Run("upsert_guest", {id, guest.first_name, guest.last_name, guest.title,
                                 ArrayLiteral(guest.emails), ArrayLiteral(guest.phone_numbers)})
          .status());
  if (guest.addresses.empty()) return Status::Ok();
  std::vector<std::vector<std::string>> columns(6);
  for (const auto& [kind, address] : guest.addresses) {
    columns[0].push_back(kind);
    columns[1].push_back(address.street);
    columns[2].push_back(address.city);
    columns[3].push_back(address.state_or_province);
    columns[4].push_back(address.postal_code);
    columns[5].push_back(address.country);
  }
  std::vector<std::string> params = {id};
  for (const auto& column : columns) params.push_back(ArrayLiteral(column));
  return connection_->Run("upsert_addresses", params).status();
}

// --- The workflow ------------------------------------------------------------------------

Result<std::vector<std::string>> PgHotel::ListPois() {
  ASSIGN_OR_RETURN(PgResult rows, connection_->Run("list_pois", {}));
  std::vector<std::string> names;
  for (int row = 0; row < rows.rows(); ++row) names.emplace_back(rows.Text(row, 0));
  return names;
}

Result<std::vector<std::string>> PgHotel::HotelsNearPoi(const std::string& poi) {
  ASSIGN_OR_RETURN(PgResult rows, connection_->Run("hotels_by_poi", {poi}));
  if (rows.rows() == 0) return Status::NotFound("Point of interest '" + poi + "' not found");
  std::vector<std::string> ids;
  for (int row = 0; row < rows.rows(); ++row) {
    if (!rows.IsNull(row, 1)) ids.emplace_back(rows.Text(row, 1));
  }
  return ids;
}

Status PgHotel::GetHotel(const std::string& hotel_id) {
  ASSIGN_OR_RETURN(PgResult rows, connection_->Run("find_hotel", {hotel_id}));
  if (rows.rows() == 0) return Status::NotFound("Hotel '" + hotel_id + "' not found");
  return Status::Ok();
}

Status PgHotel::HotelPois(const std::string& hotel_id) {
  return connection_->Run("pois_by_hotel", {hotel_id}).status();
}

Result<std::vector<int16_t>> PgHotel::Availability(const std::string& hotel_id, Day check_in,
                                                   Day check_out) {
  if (check_out <= check_in) return Status::Invalid("check_out must be after check_in");
  ASSIGN_OR_RETURN(PgResult rows, connection_->Run("availability", {hotel_id, FormatDay(check_in),
                                                                    FormatDay(check_out)}));
  std::vector<int16_t> rooms;
  for (int row = 0; row < rows.rows(); ++row) {
    rooms.push_back(static_cast<int16_t>(rows.Integer(row, 0)));
  }
  if (rooms.empty()) {
    ASSIGN_OR_RETURN(PgResult hotel, connection_->Run("hotel_exists", {hotel_id}));
    if (hotel.rows() == 0) return Status::NotFound("Hotel '" + hotel_id + "' not found");
  }
  return rooms;
}

Status PgHotel::GetRoom(const std::string& hotel_id, int16_t room_number, Day date) {
  ASSIGN_OR_RETURN(
      PgResult rows,
      connection_->Run("find_room", {hotel_id, std::to_string(room_number), FormatDay(date)}));
  if (rows.rows() == 0) {
    return Status::NotFound(fmt::format("Room {} of hotel '{}' not found", room_number, hotel_id));
  }
  return Status::Ok();
}

Result<hotel::BookedStay> PgHotel::GetReservation(const std::string& confirmation) {
  ASSIGN_OR_RETURN(PgResult rows, connection_->Run("find_reservation", {confirmation}));
  if (rows.rows() == 0) return Status::NotFound("Reservation '" + confirmation + "' not found");
  hotel::BookedStay stay;
  stay.confirmation_number = std::string(rows.Text(0, 0));
  stay.hotel_id = std::string(rows.Text(0, 1));
  stay.room_number = static_cast<int16_t>(rows.Integer(0, 3));
  ASSIGN_OR_RETURN(stay.check_in, hotel::ParseDay(rows.Text(0, 4)));
  ASSIGN_OR_RETURN(stay.check_out, hotel::ParseDay(rows.Text(0, 5)));
  stay.status = std::string(rows.Text(0, 11));
  return stay;
}

Status PgHotel::ReservationsByHotelDate(const std::string& hotel_id, Day date) {
  return connection_->Run("by_hotel_date", {hotel_id, FormatDay(date)}).status();
}

Status PgHotel::ReservationsByGuest(const std::string& last_name) {
  std::string key = hotel::FoldName(last_name);
  if (key.empty()) return Status::Invalid("last_name must not be empty");
  return connection_->Run("by_guest", {key}).status();
}

Status PgHotel::GetGuest(const std::string& guest_id) {
  ASSIGN_OR_RETURN(PgResult rows, connection_->Run("find_guest", {guest_id}));
  if (rows.rows() == 0) return Status::NotFound("Guest '" + guest_id + "' not found");
  return Status::Ok();
}

Result<std::string> PgHotel::TryBook(const std::vector<std::string>& stay) {
  // stay: number, hotel, room, check_in, check_out, guest.
  RETURN_IF_ERROR(connection_->Execute("BEGIN").status());
  Result<PgResult> inserted = connection_->Run(
      "insert_reservation", {stay[0], stay[1], stay[2], stay[5], stay[3], stay[4]});
  Result<PgResult> claimed = inserted.status();
  if (inserted.ok()) {
    claimed = connection_->Run("claim_nights", {stay[0], stay[1], stay[2], stay[3], stay[4],
                                                "booked: " + stay[3] + " to " + stay[4]});
  }
  bool all = claimed.ok() && claimed->Text(0, 0) == "t";
  RETURN_IF_ERROR(connection_->Execute(all ? "COMMIT" : "ROLLBACK").status());
  if (!claimed.ok()) return claimed.status();
  if (!all) {
    return hotel::RoomUnavailable(
        fmt::format("Room {} is not free for the whole stay from {}", stay[2], stay[3]));
  }
  return stay[0];
}

Result<std::string> PgHotel::Book(const std::string& hotel_id, int16_t room_number, Day check_in,
                                  Day check_out, const std::string& guest_id) {
  if (check_out <= check_in) return Status::Invalid("check_out must be after check_in");
  constexpr int kAttempts = 8;
  Status last;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    std::vector<std::string> stay = {hotel::NewConfirmationNumber(random_),
                                     hotel_id,
                                     std::to_string(room_number),
                                     FormatDay(check_in),
                                     FormatDay(check_out),
                                     guest_id};
    Result<std::string> booked = TryBook(stay);
    if (booked.ok() || (booked.status().code() != StatusCode::kAlreadyExists &&
                        booked.status().code() != StatusCode::kUnavailable)) {
      return booked;
    }
    last = booked.status();  // a taken number or a deadlock: again
  }
  return last;
}

Status PgHotel::Cancel(const std::string& confirmation) {
  ASSIGN_OR_RETURN(PgResult rows, connection_->Run("cancel", {confirmation}));
  if (rows.rows() == 0) return Status::NotFound("Reservation '" + confirmation + "' not found");
  if (rows.Integer(0, 1) == 0) {
    return hotel::InvalidTransition(fmt::format("Reservation '{}' is {}: it cannot be cancelled",
                                                confirmation, rows.Text(0, 0)));
  }
  return Status::Ok();
}

Result<bool> PgHotel::StayHeld(const hotel::BookedStay& stay) {
  ASSIGN_OR_RETURN(
      PgResult rows,
      connection_->Run("stay_held",
                       {stay.hotel_id, std::to_string(stay.room_number), FormatDay(stay.check_in),
                        FormatDay(stay.check_out), stay.confirmation_number}));
  return rows.Integer(0, 0) == stay.check_out - stay.check_in;
}

Result<PgIntegrity> PgHotel::CheckIntegrity() {
  ASSIGN_OR_RETURN(PgResult rows, connection_->Run("integrity", {}));
  PgIntegrity report;
  report.reservations = rows.Integer(0, 0);
  report.double_booked_nights = rows.Integer(0, 1);
  report.stays_not_held = rows.Integer(0, 2);
  report.stray_holds = rows.Integer(0, 3);
  return report;
}

}  // namespace peer
