// Every CQL statement of the seed documents parses as written, and the defective variants
// of seed 002 fail with syntax errors that point at the defect (tests/data/README.md says
// where each file comes from).

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cql/parser/parser.h"

namespace {

std::string ReadSeed(const std::string& name) {
  std::ifstream in(std::string(CQLD_TEST_DATA_DIR) + "/seeds/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Parses a seed schema file and returns the canonical form of each statement.
std::vector<std::string> ParseSeedFile(const std::string& name) {
  auto statements = cql::ParseScript(ReadSeed(name));
  EXPECT_TRUE(statements.ok()) << name << ": " << statements.status().ToString();
  std::vector<std::string> printed;
  if (!statements.ok()) return printed;
  for (const auto& statement : *statements) {
    std::string text = cql::ToCql(statement);
    // Canonical text re-parses to the same statement.
    auto again = cql::ParseStatement(text);
    EXPECT_TRUE(again.ok()) << text << ": " << again.status().ToString();
    if (again.ok()) {
      EXPECT_TRUE(*again == statement) << text;
    }
    printed.push_back(std::move(text));
  }
  return printed;
}

bool StartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

TEST(SeedsTest, Seed001HotelSchemaParses) {
  auto printed = ParseSeedFile("001_hotel.cql");
  ASSERT_EQ(printed.size(), 7u);
  EXPECT_TRUE(StartsWith(printed[0], "CREATE KEYSPACE hotel WITH replication = {"));
  EXPECT_TRUE(StartsWith(printed[1], "CREATE TYPE hotel.address ("));
  EXPECT_TRUE(StartsWith(printed[2], "CREATE TABLE hotel.hotels_by_poi ("));
  EXPECT_NE(printed[2].find("poi_description text STATIC"), std::string::npos) << printed[2];
  EXPECT_NE(printed[2].find("PRIMARY KEY (poi_name, hotel_id)"), std::string::npos) << printed[2];
  EXPECT_NE(printed[2].find("CLUSTERING ORDER BY (hotel_id ASC)"), std::string::npos);
  EXPECT_NE(printed[6].find("PRIMARY KEY ((hotel_id, room_number), amenity_name)"),
            std::string::npos)
      << printed[6];
}

TEST(SeedsTest, Seed001ReservationSchemaParses) {
  auto printed = ParseSeedFile("001_reservation.cql");
  ASSERT_EQ(printed.size(), 6u);
  EXPECT_TRUE(StartsWith(printed[5], "CREATE TABLE reservation.guests ("));
  EXPECT_NE(printed[5].find("addresses map<text, frozen<address>>"), std::string::npos)
      << printed[5];
  EXPECT_NE(printed[5].find("emails set<text>"), std::string::npos);
}

TEST(SeedsTest, Seed003SchemasWithTheMaterializedViewParse) {
  EXPECT_EQ(ParseSeedFile("003_hotel.cql").size(), 7u);
  auto printed = ParseSeedFile("003_reservation_with_view.cql");
  ASSERT_EQ(printed.size(), 6u);
  EXPECT_TRUE(StartsWith(printed[3],
                         "CREATE MATERIALIZED VIEW reservation.reservations_by_confirmation AS "
                         "SELECT * FROM reservation.reservations_by_hotel_date WHERE "))
      << printed[3];
}

TEST(SeedsTest, Seed003ViewAsTypedAtTheCqlshPrompt) {
  std::string text = ReadSeed("003_view_cqlsh.txt");
  const std::string prompt = "cqlsh> ";
  ASSERT_TRUE(StartsWith(text, prompt));
  auto statement = cql::ParseStatement(text.substr(prompt.size()));
  ASSERT_TRUE(statement.ok()) << statement.status().ToString();
  auto from_file = cql::ParseScript(ReadSeed("003_reservation_with_view.cql"));
  ASSERT_TRUE(from_file.ok());
  ASSERT_EQ(from_file->size(), 6u);
  EXPECT_TRUE(*statement == (*from_file)[3]) << "the prompt version and the schema file agree";
}

// Statements of seed 002 as published: each CREATE up to its ';', prose skipped.
std::vector<std::string> Seed002Statements() {
  std::string text = ReadSeed("002_as_published.txt");
  std::vector<std::string> statements;
  size_t pos = 0;
  while ((pos = text.find("CREATE ", pos)) != std::string::npos) {
    size_t end = text.find(";\n", pos);
    if (end == std::string::npos) end = text.size() - 1;
    statements.push_back(text.substr(pos, end + 1 - pos));
    pos = end + 1;
  }
  return statements;
}

TEST(SeedsTest, Seed002DefectsGivePointedSyntaxErrors) {
  std::vector<std::string> statements = Seed002Statements();
  ASSERT_EQ(statements.size(), 13u);
  struct Expectation {
    const char* starts_with;  // identifies the statement
    const char* error;        // expected start of the message; nullptr = parses
  };
  // Positions are line:column within the statement (column 0-based, as Cassandra reports).
  const Expectation expectations[] = {
      {"CREATE KEYSPACE hotel", "line 2:3 "},  // ‘class’: typographic quote
      {"CREATE TYPE hotel.address", nullptr},
      {"CREATE TABLE hotel.hotels_by_poi", "line 8:17 "},    // ‘Q1...’
      {"CREATE TABLE hotel.hotels ", "line 6:11 "},          // `pois set )`
      {"CREATE TABLE hotel.pois_by_hotel", "line 6:17 "},    // comment = Q3. ...’
      {"CREATE TABLE hotel.available_rooms", "line 7:17 "},  // ‘Q4...’
      {"CREATE TABLE hotel.amenities_by_room", "line 7:17 "},
      {"CREATE KEYSPACE reservation", "line 1:48 "},  // {‘class’:
      {"CREATE TYPE reservation.address", nullptr},
      {"CREATE TABLE reservation.reservations_by_confirmation", "line 9:17 "},
      {"CREATE TABLE reservation.reservations_by_hotel_date", "line 9:17 "},
      {"CREATE TABLE reservation.reservations_by_guest", "line 10:17 "},
      {"CREATE TABLE reservation.guests", "line 6:12 "},  // `emails set,`
  };
  for (size_t i = 0; i < statements.size(); ++i) {
    const Expectation& e = expectations[i];
    ASSERT_TRUE(StartsWith(statements[i], e.starts_with)) << statements[i];
    auto parsed = cql::ParseStatement(statements[i]);
    if (e.error == nullptr) {
      EXPECT_TRUE(parsed.ok()) << statements[i] << "\n" << parsed.status().ToString();
      continue;
    }
    ASSERT_FALSE(parsed.ok()) << statements[i];
    EXPECT_EQ(parsed.status().code(), common::StatusCode::kSyntaxError);
    EXPECT_TRUE(StartsWith(parsed.status().message(), e.error))
        << statements[i] << "\nexpected " << e.error << "\ngot " << parsed.status().message();
  }
}

}  // namespace
