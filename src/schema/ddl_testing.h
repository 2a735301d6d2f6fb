// Test helpers for the schema layer: run CQL DDL text through `cql::ParseScript` + `ApplyDdl`.
// Only for *_test.cc files.
//
// Thread-safety: not thread-safe (test fixtures).

#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "cql/parser/parser.h"
#include "schema/catalog.h"
#include "schema/ddl.h"

namespace schema {

// The seeds' schemas (tests/data/seeds/001_*.cql), verbatim.
inline constexpr std::string_view kHotelSchema = R"(
CREATE KEYSPACE hotel
    WITH replication = {'class': 'SimpleStrategy', 'replication_factor' : 3};

CREATE TYPE hotel.address (
    street text,
    city text,
    state_or_province text,
    postal_code text,
    country text
);

CREATE TABLE hotel.hotels_by_poi (
    poi_name text,
    poi_description text STATIC,
    hotel_id text,
    name text,
    phone text,
    address frozen<address>,
    PRIMARY KEY ((poi_name), hotel_id)
) WITH comment = 'Q1. Find hotels near given poi'
AND CLUSTERING ORDER BY (hotel_id ASC) ;

CREATE TABLE hotel.hotels (
    id text PRIMARY KEY,
    name text,
    phone text,
    address frozen<address>,
    pois set<text>
) WITH comment = 'Q2. Find information about a hotel';

CREATE TABLE hotel.pois_by_hotel (
    poi_name text,
    hotel_id text,
    description text,
    PRIMARY KEY ((hotel_id), poi_name)
) WITH comment = 'Q3. Find pois near a hotel';

CREATE TABLE hotel.available_rooms_by_hotel_date (
    hotel_id text,
    date date,
    room_number smallint,
    is_available boolean,
    PRIMARY KEY ((hotel_id), date, room_number)
) WITH comment = 'Q4. Find available rooms by hotel / date';

CREATE TABLE hotel.amenities_by_room (
    hotel_id text,
    room_number smallint,
    amenity_name text,
    description text,
    PRIMARY KEY ((hotel_id, room_number), amenity_name)
) WITH comment = 'Q5. Find amenities for a room';
)";

inline constexpr std::string_view kReservationSchema = R"(
CREATE KEYSPACE reservation
    WITH replication = {'class': 'SimpleStrategy', 'replication_factor' : 3};

CREATE TYPE reservation.address (
    street text, city text,
    state_or_province text,
    postal_code text,
    country text
);

CREATE TABLE reservation.reservations_by_confirmation (
    confirm_number text,
    hotel_id text,
    start_date date,
    end_date date,
    room_number smallint,
    guest_id uuid,
    PRIMARY KEY (confirm_number)
) WITH comment = 'Q6. Find reservations by confirmation number';

CREATE TABLE reservation.reservations_by_hotel_date (
    hotel_id text,
    start_date date,
    end_date date,
    room_number smallint,
    confirm_number text,
    guest_id uuid,
    PRIMARY KEY ((hotel_id, start_date), room_number)
) WITH comment = 'Q7. Find reservations by hotel and date';

CREATE TABLE reservation.reservations_by_guest (
    guest_last_name text,
    hotel_id text,
    start_date date,
    end_date date,
    room_number smallint,
    confirm_number text,
    guest_id uuid,
    PRIMARY KEY ((guest_last_name), hotel_id)
) WITH comment = 'Q8. Find reservations by guest name';

CREATE TABLE reservation.guests (
    guest_id uuid PRIMARY KEY,
    first_name text,
    last_name text,
    title text,
    emails set<text>,
    phone_numbers list<text>,
    addresses map<text, frozen<address>>,
    confirm_number text
) WITH comment = 'Q9. Find guest by ID';
)";

// Parses one statement and applies it to `catalog`.
inline common::Result<DdlResult> ApplyText(const Catalog& catalog, std::string_view text,
                                           std::string_view session_keyspace = "") {
  ASSIGN_OR_RETURN(cql::Statement statement, cql::ParseStatement(text));
  return ApplyDdl(catalog, statement, session_keyspace);
}

// Applies every statement of `script` in turn, replacing `*catalog` with each new snapshot;
// returns the first error.
inline common::Status ApplyScript(std::shared_ptr<const Catalog>* catalog, std::string_view script,
                                  std::string_view session_keyspace = "") {
  ASSIGN_OR_RETURN(std::vector<cql::Statement> statements, cql::ParseScript(script));
  for (const cql::Statement& statement : statements) {
    ASSIGN_OR_RETURN(DdlResult result, ApplyDdl(**catalog, statement, session_keyspace));
    if (result.catalog != nullptr) *catalog = result.catalog;
  }
  return common::Status::Ok();
}

// A fixture holding a catalogue, with helpers that apply DDL text and check the outcome.
class DdlFixture : public ::testing::Test {
 protected:
  // Applies `text`, expecting a change; returns the result and adopts its catalogue.
  DdlResult Apply(std::string_view text, std::string_view session_keyspace = "") {
    auto result = ApplyText(*catalog_, text, session_keyspace);
    EXPECT_TRUE(result.ok()) << text << ": " << result.status().ToString();
    if (!result.ok()) return DdlResult{};
    EXPECT_NE(result.value().catalog, nullptr) << text;
    if (result.value().catalog != nullptr) catalog_ = result.value().catalog;
    return result.value();
  }

  // Applies `text`, expecting it to change nothing without error.
  void ExpectNoOp(std::string_view text, std::string_view session_keyspace = "") {
    auto result = ApplyText(*catalog_, text, session_keyspace);
    ASSERT_TRUE(result.ok()) << text << ": " << result.status().ToString();
    EXPECT_EQ(result.value().catalog, nullptr) << text;
    EXPECT_FALSE(result.value().change.has_value()) << text;
  }

  // Applies `text`, expecting the error `code` with exactly `message`.
  void ExpectError(std::string_view text, common::StatusCode code, std::string_view message,
                   std::string_view session_keyspace = "") {
    auto result = ApplyText(*catalog_, text, session_keyspace);
    ASSERT_FALSE(result.ok()) << text;
    EXPECT_EQ(result.status().code(), code) << text << ": " << result.status().message();
    EXPECT_EQ(result.status().message(), message) << text;
  }

  std::shared_ptr<const Catalog> catalog_ = Catalog::Empty();
};

}  // namespace schema
