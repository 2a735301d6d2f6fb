#include "model/lint_suppression.h"

#include <gtest/gtest.h>

namespace model {
namespace {

constexpr char kSchema[] =
    R"(CREATE KEYSPACE hotel WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
USE hotel;
-- cqlmodel: allow key-uniqueness a poi is identified by its name here
CREATE TABLE pois_by_hotel (hotel_id text, poi_name text, description text,
    PRIMARY KEY ((hotel_id), poi_name));
CREATE TABLE other.amenities_by_room (
    hotel_id text, room_number smallint, amenity_name text,
    // cqlmodel: allow key-uniqueness a room lists an amenity once
    PRIMARY KEY ((hotel_id, room_number), amenity_name)
) WITH comment = 'a ; in a string -- cqlmodel: allow nothing here';
/* cqlmodel: allow key-uniqueness in a block comment: not a directive */
-- cqlmodel: allow index-cardinality email lookups are rare (staff console only)
CREATE INDEX IF NOT EXISTS ON "Guests" (email);
-- cqlmodel: allow materialized-view the view is read by reports only
CREATE MATERIALIZED VIEW IF NOT EXISTS hotel.by_name AS SELECT * FROM hotel.t
    WHERE name IS NOT NULL AND id IS NOT NULL PRIMARY KEY (name, id);
)";

TEST(LintSuppressionTest, ReadsTheDirectivesOfEachStatement) {
  auto read = ReadSuppressions(kSchema, "s.cql");
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->size(), 4u);
  EXPECT_EQ((*read)[0].rule, "key-uniqueness");
  EXPECT_EQ((*read)[0].object, "hotel.pois_by_hotel");  // unqualified: the USE keyspace
  EXPECT_EQ((*read)[0].reason, "a poi is identified by its name here");
  EXPECT_EQ((*read)[0].origin, "s.cql:3");
  EXPECT_EQ((*read)[1].object, "other.amenities_by_room");  // written inside the statement
  EXPECT_EQ((*read)[1].origin, "s.cql:8");
  EXPECT_EQ((*read)[2].rule, "index-cardinality");
  EXPECT_EQ((*read)[2].object, "hotel.Guests");  // an index's findings are its table's
  EXPECT_EQ((*read)[3].object, "hotel.by_name");
}

TEST(LintSuppressionTest, MalformedDirectivesAreErrors) {
  struct Case {
    const char* text;
    const char* error;
  };
  for (const Case& c : {
           Case{"-- cqlmodel: allow no-such-rule why\nCREATE TABLE k.t (a int PRIMARY KEY);",
                "f.cql:1: unknown lint rule no-such-rule"},
           Case{"\n-- cqlmodel: allow key-uniqueness\nCREATE TABLE k.t (a int PRIMARY KEY);",
                "f.cql:2: `cqlmodel: allow key-uniqueness` needs a reason after the rule"},
           Case{"-- cqlmodel: deny key-uniqueness x\nCREATE TABLE k.t (a int PRIMARY KEY);",
                "f.cql:1: expected `cqlmodel: allow RULE REASON`"},
           Case{"-- cqlmodel: allow key-uniqueness x\nCREATE KEYSPACE k WITH replication = {};",
                "f.cql:1: `cqlmodel: allow` must be in or above a CREATE TABLE, MATERIALIZED "
                "VIEW or INDEX statement"},
           Case{"CREATE TABLE k.t (a int PRIMARY KEY);\n-- cqlmodel: allow key-uniqueness x\n",
                "f.cql:2: `cqlmodel: allow` must be in or above a CREATE TABLE, MATERIALIZED "
                "VIEW or INDEX statement"},
       }) {
    auto read = ReadSuppressions(c.text, "f.cql");
    ASSERT_FALSE(read.ok()) << c.text;
    EXPECT_EQ(read.status().message(), c.error);
  }
  // Other comments, and cqlmodel's name elsewhere in one, are not directives.
  auto plain = ReadSuppressions(
      "-- the cqlmodel: tool reads this\n-- note\nCREATE TABLE k.t (a int PRIMARY KEY);", "f");
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain->empty());
}

TEST(LintSuppressionTest, AllowFlag) {
  auto every = ParseAllowFlag("table-naming");
  ASSERT_TRUE(every.ok());
  EXPECT_EQ(every->object, "");
  EXPECT_EQ(every->origin, "--allow");
  auto one = ParseAllowFlag("key-uniqueness:hotel.pois");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->object, "hotel.pois");
  EXPECT_EQ(ParseAllowFlag("nope").status().message(), "unknown lint rule nope");
  EXPECT_EQ(ParseAllowFlag("key-uniqueness:").status().message(),
            "--allow key-uniqueness:: no table after ':'");
}

Finding Make(std::string rule, Severity severity, std::string object) {
  return Finding{std::move(rule), severity, std::move(object), "why", "fix it"};
}

TEST(LintSuppressionTest, SuppressedFindingsAreReportedApart) {
  std::vector<Finding> findings = {
      Make("key-uniqueness", Severity::kError, "hotel.pois_by_hotel"),
      Make("key-uniqueness", Severity::kError, "hotel.pois"),
      Make("table-naming", Severity::kInfo, "hotel.pois"),
      Make("table-naming", Severity::kInfo, "reservation.pois"),
  };
  std::vector<Suppression> suppressions = {
      {"key-uniqueness", "hotel.pois_by_hotel", "keyed by name on purpose", "s.cql:3"},
      {"unbounded-partition", "hotel.rooms", "expired by TTL", "s.cql:9"},
      {"table-naming", "pois", "allowed on the command line", "--allow"},
  };
  LintReport report = ApplySuppressions(findings, suppressions);
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_EQ(report.findings[0].object, "hotel.pois");
  EXPECT_TRUE(HasErrors(report.findings));
  ASSERT_EQ(report.suppressed.size(), 3u);  // a bare table name: in every keyspace
  EXPECT_EQ(report.suppressed[0].by.origin, "s.cql:3");
  EXPECT_EQ(report.suppressed[2].finding.object, "reservation.pois");
  ASSERT_EQ(report.unused.size(), 1u);
  EXPECT_EQ(report.unused[0].origin, "s.cql:9");

  EXPECT_EQ(FormatLintReport(report),
            "error: hotel.pois [key-uniqueness]\n  why\n  fix: fix it\n\n"
            "suppressed (3):\n"
            "  error: hotel.pois_by_hotel [key-uniqueness] allowed at s.cql:3: keyed by name on "
            "purpose\n"
            "  info: hotel.pois [table-naming] allowed at --allow: allowed on the command line\n"
            "  info: reservation.pois [table-naming] allowed at --allow: allowed on the command "
            "line\n\n"
            "unused suppression at s.cql:9: allow unbounded-partition matches no finding on "
            "hotel.rooms\n\n"
            "1 error(s), 0 warning(s), 0 info, 3 suppressed\n");
  const std::string json = LintReportJson(report);
  EXPECT_EQ(json.substr(0, json.find("]") + 1),
            "{\"findings\":[{\"rule\":\"key-uniqueness\",\"severity\":\"error\",\"object\":"
            "\"hotel.pois\",\"message\":\"why\",\"fix\":\"fix it\"}]");
  EXPECT_NE(json.find("\"suppressed\":[{\"rule\":\"key-uniqueness\",\"severity\":\"error\","
                      "\"object\":\"hotel.pois_by_hotel\",\"message\":\"why\",\"fix\":\"fix "
                      "it\",\"reason\":\"keyed by name on purpose\",\"allowed_at\":\"s.cql:3\"}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"unused_suppressions\":[{\"rule\":\"unbounded-partition\",\"object\":"
                      "\"hotel.rooms\",\"reason\":\"expired by TTL\",\"allowed_at\":\"s.cql:9\"}]"),
            std::string::npos)
      << json;
  // Without suppressions, the text is FormatFindings'.
  EXPECT_EQ(FormatLintReport(LintReport{findings, {}, {}}), FormatFindings(findings));
}

}  // namespace
}  // namespace model
