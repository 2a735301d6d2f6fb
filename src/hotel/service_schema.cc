#include "hotel/service_schema.h"

namespace hotel {

namespace {

// Keep identical to schema/hotel_service.cql (service_schema_test.cc checks it).
constexpr std::string_view kSchema =
    R"cql(-- The hotel service's schema: the seeds' design (schema/seeds/) with its defects fixed.
-- docs/data-model.md explains every table and every change. `${prefix}` is replaced by the
-- service's --keyspace-prefix (empty by default) and `${replication}` by the replication map
-- when the schema is loaded (src/hotel/service_schema.cc embeds this text; a unit test keeps
-- the two identical). Every statement is idempotent (IF NOT EXISTS).

CREATE KEYSPACE IF NOT EXISTS ${prefix}hotel
    WITH replication = ${replication};

CREATE TYPE IF NOT EXISTS ${prefix}hotel.address (
    street text,
    city text,
    state_or_province text,
    postal_code text,
    country text
);

CREATE TABLE IF NOT EXISTS ${prefix}hotel.pois (
    directory text,
    poi_name text,
    description text,
    PRIMARY KEY ((directory), poi_name)
) WITH comment = 'All points of interest (one small partition, directory = ''all'')';

CREATE TABLE IF NOT EXISTS ${prefix}hotel.hotels_by_poi (
    poi_name text,
    poi_description text STATIC,
    hotel_id text,
    name text,
    phone text,
    address frozen<address>,
    PRIMARY KEY ((poi_name), hotel_id)
) WITH comment = 'Q1. Find hotels near given poi'
AND CLUSTERING ORDER BY (hotel_id ASC);

CREATE TABLE IF NOT EXISTS ${prefix}hotel.hotels (
    id text PRIMARY KEY,
    name text,
    phone text,
    address frozen<address>,
    pois set<text>
) WITH comment = 'Q2. Find information about a hotel';

CREATE TABLE IF NOT EXISTS ${prefix}hotel.pois_by_hotel (
    poi_name text,
    hotel_id text,
    description text,
    PRIMARY KEY ((hotel_id), poi_name)
) WITH comment = 'Q3. Find pois near a hotel';

CREATE TABLE IF NOT EXISTS ${prefix}hotel.rooms_by_hotel (
    hotel_id text,
    room_number smallint,
    room_type text,
    base_rate decimal,
    PRIMARY KEY ((hotel_id), room_number)
) WITH comment = 'Inventory: the rooms of a hotel (opening availability)';

CREATE TABLE IF NOT EXISTS ${prefix}hotel.available_rooms_by_hotel_date (
    hotel_id text,
    date date,
    room_number smallint,
    is_available boolean,
    rate decimal,
    room_type text,
    held_by text,
    held_at timestamp,
    PRIMARY KEY ((hotel_id), date, room_number)
) WITH comment = 'Q4. Find available rooms by hotel / date, with the nightly rate (Q5)';

-- The seeds' refinement of Q4's table: a month bucket in the partition key (month = year * 100
-- + month, e.g. 202612), so a hotel's availability is split into partitions of one month.
-- The service uses it instead of available_rooms_by_hotel_date with --bucketing month.
CREATE TABLE IF NOT EXISTS ${prefix}hotel.available_rooms_by_hotel_month (
    hotel_id text,
    month int,
    date date,
    room_number smallint,
    is_available boolean,
    rate decimal,
    room_type text,
    held_by text,
    held_at timestamp,
    PRIMARY KEY ((hotel_id, month), date, room_number)
) WITH comment = 'Q4. Find available rooms by hotel / date, bucketed by month';

-- The month buckets a hotel has opened (written before the nights), so the repair pass can
-- find every partition of available_rooms_by_hotel_month without a scan.
CREATE TABLE IF NOT EXISTS ${prefix}hotel.availability_months_by_hotel (
    hotel_id text,
    month int,
    PRIMARY KEY ((hotel_id), month)
) WITH comment = 'Repair: the month partitions of a hotel in available_rooms_by_hotel_month';

CREATE TABLE IF NOT EXISTS ${prefix}hotel.amenities_by_room (
    hotel_id text,
    room_number smallint,
    room_type text STATIC,
    base_rate decimal STATIC,
    amenity_name text,
    description text,
    PRIMARY KEY ((hotel_id, room_number), amenity_name)
) WITH comment = 'Q5. Find the rate and amenities for a room';

CREATE KEYSPACE IF NOT EXISTS ${prefix}reservation
    WITH replication = ${replication};

CREATE TYPE IF NOT EXISTS ${prefix}reservation.address (
    street text,
    city text,
    state_or_province text,
    postal_code text,
    country text
);

CREATE TABLE IF NOT EXISTS ${prefix}reservation.reservations_by_confirmation (
    confirm_number text,
    hotel_id text,
    hotel_name text,
    start_date date,
    end_date date,
    room_number smallint,
    guest_id uuid,
    guest_first_name text,
    guest_last_name text,
    total decimal,
    currency text,
    status text,
    created_at timestamp,
    PRIMARY KEY (confirm_number)
) WITH comment = 'Q6. Find reservations by confirmation number';

CREATE TABLE IF NOT EXISTS ${prefix}reservation.reservations_by_hotel_date (
    hotel_id text,
    start_date date,
    last_name_key text,
    room_number smallint,
    confirm_number text,
    end_date date,
    hotel_name text,
    guest_id uuid,
    guest_first_name text,
    guest_last_name text,
    total decimal,
    currency text,
    PRIMARY KEY ((hotel_id, start_date), last_name_key, room_number, confirm_number)
) WITH comment = 'Q7. Find reservations by hotel, date and guest name';

CREATE TABLE IF NOT EXISTS ${prefix}reservation.reservations_by_guest (
    last_name_key text,
    first_name_key text,
    start_date date,
    confirm_number text,
    hotel_id text,
    hotel_name text,
    end_date date,
    room_number smallint,
    guest_id uuid,
    guest_first_name text,
    guest_last_name text,
    total decimal,
    currency text,
    PRIMARY KEY ((last_name_key), first_name_key, start_date, confirm_number)
) WITH comment = 'Q8. Find reservations by guest name';

CREATE TABLE IF NOT EXISTS ${prefix}reservation.guests (
    guest_id uuid PRIMARY KEY,
    first_name text,
    last_name text,
    title text,
    emails set<text>,
    phone_numbers list<text>,
    addresses map<text, frozen<address>>
) WITH comment = 'Q9. Find guest by ID';
)cql";

void ReplaceAll(std::string& text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

}  // namespace

common::Result<Keyspaces> KeyspacesForPrefix(std::string_view prefix) {
  if (prefix.size() > 24) {
    return common::Status::Invalid("Keyspace prefix '" + std::string(prefix) +
                                   "' is longer than 24 characters");
  }
  for (char c : prefix) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
      return common::Status::Invalid("Keyspace prefix '" + std::string(prefix) +
                                     "' may only hold a-z, 0-9 and _");
    }
  }
  if (!prefix.empty() && prefix[0] >= '0' && prefix[0] <= '9') {
    return common::Status::Invalid("Keyspace prefix '" + std::string(prefix) +
                                   "' must not start with a digit");
  }
  return Keyspaces{std::string(prefix) + "hotel", std::string(prefix) + "reservation"};
}

std::string_view ServiceSchemaTemplate() { return kSchema; }

common::Result<std::vector<std::string>> ServiceSchemaStatements(std::string_view prefix,
                                                                 std::string_view replication) {
  RETURN_IF_ERROR(KeyspacesForPrefix(prefix));
  // Drop comment lines, then split at ';' (the schema has no ';' inside strings).
  std::string text;
  size_t begin = 0;
  while (begin < kSchema.size()) {
    size_t end = kSchema.find('\n', begin);
    if (end == std::string_view::npos) end = kSchema.size();
    std::string_view line = kSchema.substr(begin, end - begin);
    if (line.substr(0, 2) != "--") {
      text.append(line);
      text.push_back('\n');
    }
    begin = end + 1;
  }
  ReplaceAll(text, "${prefix}", prefix);
  ReplaceAll(text, "${replication}", replication);
  std::vector<std::string> statements;
  size_t start = 0;
  for (size_t semicolon = text.find(';'); semicolon != std::string::npos;
       semicolon = text.find(';', start)) {
    std::string statement = text.substr(start, semicolon - start);
    size_t first = statement.find_first_not_of(" \n\t");
    if (first != std::string::npos) statements.push_back(statement.substr(first));
    start = semicolon + 1;
  }
  return statements;
}

common::Status CreateServiceSchema(cql::Session& session, std::string_view prefix,
                                   std::string_view replication) {
  ASSIGN_OR_RETURN(std::vector<std::string> statements,
                   ServiceSchemaStatements(prefix, replication));
  for (const std::string& statement : statements) {
    auto result = session.Execute(statement);
    if (!result.ok()) return result.status().WithPrefix(statement + ": ");
  }
  return common::Status::Ok();
}

}  // namespace hotel
