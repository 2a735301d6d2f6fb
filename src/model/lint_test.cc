#include "model/lint.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace model {
namespace {

// The findings of `rule` for the schema and queries (CQL text).
std::vector<Finding> Of(const std::string& rule, const std::string& schema_text,
                        const std::string& queries_text = "") {
  auto schema = LoadSchema(schema_text);
  EXPECT_TRUE(schema.ok()) << schema.status().message();
  auto queries = LoadQueries(queries_text);
  EXPECT_TRUE(queries.ok()) << queries.status().message();
  std::vector<Finding> findings = Lint(*schema, *queries, "");
  std::erase_if(findings, [&](const Finding& f) { return f.rule != rule; });
  return findings;
}

TEST(LintTest, KeyUniquenessFlagsTheSeedsPoisByHotel) {
  auto schema = LoadSchemaFile(std::string(CQLD_TEST_DATA_DIR) + "/seeds/001_hotel.cql");
  ASSERT_TRUE(schema.ok());
  std::vector<Finding> findings = Lint(*schema, {}, "hotel");
  auto it = std::find_if(findings.begin(), findings.end(), [](const Finding& f) {
    return f.rule == "key-uniqueness" && f.object == "hotel.pois_by_hotel";
  });
  ASSERT_NE(it, findings.end());
  EXPECT_EQ(it->severity, Severity::kError);
  EXPECT_NE(it->message.find("`poi_name` names a poi but does not identify one"),
            std::string::npos);
  EXPECT_NE(it->fix.find("PRIMARY KEY ((hotel_id), poi_name, poi_id)"), std::string::npos);
  EXPECT_TRUE(HasErrors(findings));
}

TEST(LintTest, KeyUniqueness) {
  // The seeds' reservations_by_guest: hotel_id identifies a hotel (an entity of the keyspace),
  // not a reservation.
  const char* kHotels = "CREATE TABLE k.hotels (hotel_id text PRIMARY KEY, name text);";
  EXPECT_EQ(Of("key-uniqueness", std::string(kHotels) +
                                     "CREATE TABLE k.reservations_by_guest (guest_name text, "
                                     "hotel_id text, PRIMARY KEY ((guest_name), hotel_id));")
                .size(),
            1u);
  EXPECT_TRUE(Of("key-uniqueness", std::string(kHotels) +
                                       "CREATE TABLE k.reservations_by_guest (guest_name text, "
                                       "hotel_id text, confirm_number text, "
                                       "PRIMARY KEY ((guest_name), hotel_id, confirm_number));")
                  .empty());
  EXPECT_TRUE(Of("key-uniqueness",
                 "CREATE TABLE k.pois_by_hotel (hotel_id text, poi_id uuid, "
                 "poi_name text, PRIMARY KEY ((hotel_id), poi_name, poi_id));")
                  .empty());
}

TEST(LintTest, KeyUniquenessAcceptsAnAssociationOfTwoEntities) {
  // Stock: one row per product and warehouse, both entities of the keyspace.
  const char* kEntities =
      "CREATE TABLE k.products (product_id uuid PRIMARY KEY, title text);"
      "CREATE TABLE k.warehouses (warehouse_id text PRIMARY KEY, city text);";
  EXPECT_TRUE(Of("key-uniqueness", std::string(kEntities) +
                                       "CREATE TABLE k.stock_by_warehouse (warehouse_id text, "
                                       "product_id uuid, quantity int, "
                                       "PRIMARY KEY ((warehouse_id), product_id));")
                  .empty());
  // Two entities' identifiers and a name are no association (the seeds' amenities_by_room).
  EXPECT_EQ(Of("key-uniqueness", std::string(kEntities) +
                                     "CREATE TABLE k.stock_by_warehouse (warehouse_id text, "
                                     "product_id uuid, batch_name text, quantity int, "
                                     "PRIMARY KEY ((warehouse_id), product_id, batch_name));")
                .size(),
            1u);
  // One entity's identifier and a name are no association: still flagged.
  EXPECT_EQ(Of("key-uniqueness", std::string(kEntities) +
                                     "CREATE TABLE k.stock_by_warehouse (warehouse_id text, "
                                     "product_name text, quantity int, "
                                     "PRIMARY KEY ((warehouse_id), product_name));")
                .size(),
            1u);
}

TEST(LintTest, KeyUniquenessNamesPluralsEndingInEs) {
  std::vector<Finding> findings =
      Of("key-uniqueness",
         "CREATE TABLE k.users (user_id uuid PRIMARY KEY);"
         "CREATE TABLE k.addresses_by_user (user_id uuid, address_label text, street text, "
         "PRIMARY KEY ((user_id), address_label));");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("holds address rows"), std::string::npos)
      << findings[0].message;
  EXPECT_NE(findings[0].message.find("two addresses with the same key"), std::string::npos);
  EXPECT_NE(findings[0].fix.find("`address_id uuid`"), std::string::npos) << findings[0].fix;
}

TEST(LintTest, UnboundedPartition) {
  EXPECT_EQ(Of("unbounded-partition",
               "CREATE TABLE k.readings_by_sensor (sensor_id uuid, "
               "at timestamp, value double, PRIMARY KEY (sensor_id, at));")
                .size(),
            1u);
  EXPECT_TRUE(Of("unbounded-partition",
                 "CREATE TABLE k.readings_by_sensor_month (sensor_id uuid, month int, "
                 "at timestamp, value double, PRIMARY KEY ((sensor_id, month), at));")
                  .empty());
  EXPECT_TRUE(Of("unbounded-partition",
                 "CREATE TABLE k.readings_by_sensor (sensor_id uuid, at timestamp, value double, "
                 "PRIMARY KEY (sensor_id, at)) WITH default_time_to_live = 86400;")
                  .empty());
}

TEST(LintTest, PartitionKeyCardinality) {
  EXPECT_EQ(Of("partition-key-cardinality",
               "CREATE TABLE k.users_by_active (active boolean, "
               "user_id uuid, PRIMARY KEY (active, user_id));")
                .size(),
            1u);
  EXPECT_TRUE(Of("partition-key-cardinality",
                 "CREATE TABLE k.users_by_country (country text, "
                 "user_id uuid, PRIMARY KEY (country, user_id));")
                  .empty());
}

TEST(LintTest, QueuePattern) {
  EXPECT_EQ(Of("queue-pattern",
               "CREATE TABLE k.job_queue (queue_id text, enqueued timeuuid, "
               "payload blob, PRIMARY KEY (queue_id, enqueued));")
                .size(),
            1u);
  EXPECT_TRUE(Of("queue-pattern",
                 "CREATE TABLE k.events_by_day (day date, at timeuuid, "
                 "payload blob, PRIMARY KEY (day, at));")
                  .empty());
  // `messages` keyed by a queue's name is a queue; a conversation's messages are its history.
  EXPECT_EQ(Of("queue-pattern",
               "CREATE TABLE k.pending_messages (queue_name text, enqueued timeuuid, "
               "body text, PRIMARY KEY (queue_name, enqueued));")
                .size(),
            1u);
  EXPECT_TRUE(Of("queue-pattern",
                 "CREATE TABLE k.conversations (conversation_id uuid PRIMARY KEY, subject text);"
                 "CREATE TABLE k.messages_by_conversation (conversation_id uuid, "
                 "message_id timeuuid, body text, PRIMARY KEY (conversation_id, message_id));")
                  .empty());
}

TEST(LintTest, CollectionUnbounded) {
  EXPECT_EQ(Of("collection-unbounded",
               "CREATE TABLE k.guests (guest_id uuid PRIMARY KEY, phones list<text>);")
                .size(),
            1u);
  EXPECT_TRUE(Of("collection-unbounded",
                 "CREATE TABLE k.guests (guest_id uuid PRIMARY KEY, "
                 "emails set<text>, history frozen<list<text>>);")
                  .empty());
}

TEST(LintTest, CounterMixed) {
  std::vector<Finding> mixed = Of("counter-mixed",
                                  "CREATE TABLE k.views_by_page (page text "
                                  "PRIMARY KEY, views counter, title text);");
  ASSERT_EQ(mixed.size(), 1u);
  EXPECT_EQ(mixed[0].severity, Severity::kError);
  EXPECT_EQ(
      mixed[0].message.rfind("Cannot mix counter and non counter columns in the same table", 0),
      0u);
  EXPECT_TRUE(Of("counter-mixed",
                 "CREATE TABLE k.views_by_page (page text PRIMARY KEY, "
                 "views counter, likes counter);")
                  .empty());
}

TEST(LintTest, MissingStatic) {
  const char* kNotStatic =
      "CREATE TABLE k.hotels_by_poi (poi_name text, poi_description text, hotel_id text, "
      "PRIMARY KEY ((poi_name), hotel_id));";
  EXPECT_EQ(Of("missing-static", kNotStatic).size(), 1u);
  EXPECT_TRUE(Of("missing-static",
                 "CREATE TABLE k.hotels_by_poi (poi_name text, "
                 "poi_description text STATIC, hotel_id text, "
                 "PRIMARY KEY ((poi_name), hotel_id));")
                  .empty());
  // A session's user_agent is the client's, not the partition's user's; its user_name is.
  std::vector<Finding> sessions =
      Of("missing-static",
         "CREATE TABLE k.sessions_by_user (user_id uuid, created_at timestamp, session_id uuid, "
         "user_agent text, user_name text, PRIMARY KEY ((user_id), created_at, session_id));");
  ASSERT_EQ(sessions.size(), 1u);
  EXPECT_NE(sessions[0].message.find("`user_name`"), std::string::npos);
}

TEST(LintTest, TableNaming) {
  EXPECT_EQ(
      Of("table-naming", "CREATE TABLE k.users (email text PRIMARY KEY, user_id uuid);").size(),
      1u);
  EXPECT_EQ(Of("table-naming", "CREATE TABLE k.users_by_country (email text PRIMARY KEY);").size(),
            1u);
  EXPECT_TRUE(
      Of("table-naming", "CREATE TABLE k.users_by_email (email text PRIMARY KEY);").empty());
  EXPECT_TRUE(Of("table-naming", "CREATE TABLE k.users (user_id uuid PRIMARY KEY);").empty());
}

// A user's one-word handle identifies it (the service's staff_users); a descriptive name or
// another attribute does not.
TEST(LintTest, TableNamingAcceptsTheEntitysHandle) {
  EXPECT_TRUE(Of("table-naming",
                 "CREATE TABLE k.staff_users (username text PRIMARY KEY, password_hash text);")
                  .empty());
  EXPECT_EQ(Of("table-naming", "CREATE TABLE k.staff_users (nickname text PRIMARY KEY);").size(),
            1u);
  EXPECT_EQ(Of("table-naming", "CREATE TABLE k.users (user_name text PRIMARY KEY);").size(), 1u);
}

// `_by_guest` over a key derived from the guest's attribute (the service's
// reservations_by_guest, keyed by `last_name_key` beside `guest_last_name`) is named by the seeds'
// rule; without that attribute the name says nothing of the key, and the fix names the key.
TEST(LintTest, TableNamingAcceptsAKeyDerivedFromTheEntitysAttribute) {
  EXPECT_TRUE(Of("table-naming",
                 "CREATE TABLE k.reservations_by_guest (last_name_key text, confirm_number text, "
                 "guest_last_name text, PRIMARY KEY ((last_name_key), confirm_number));")
                  .empty());
  std::vector<Finding> findings =
      Of("table-naming",
         "CREATE TABLE k.reservations_by_guest (last_name_key text, confirm_number text, "
         "hotel_name text, PRIMARY KEY ((last_name_key), confirm_number));");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].fix,
            "name the table after its key, entity_by_key: "
            "reservations_by_last_name");
}

TEST(LintTest, MaterializedView) {
  const char* kBase = "CREATE TABLE k.users (user_id uuid PRIMARY KEY, email text);";
  EXPECT_EQ(Of("materialized-view",
               std::string(kBase) +
                   "CREATE MATERIALIZED VIEW k.users_by_email AS SELECT * FROM k.users WHERE "
                   "email IS NOT NULL AND user_id IS NOT NULL PRIMARY KEY (email, user_id);")
                .size(),
            1u);
  EXPECT_TRUE(Of("materialized-view", kBase).empty());
}

TEST(LintTest, IndexCardinality) {
  const char* kTable =
      "CREATE TABLE k.users (user_id uuid PRIMARY KEY, email text, city text, active boolean);";
  EXPECT_EQ(
      Of("index-cardinality", std::string(kTable) + "CREATE INDEX ON k.users (email);").size(), 1u);
  EXPECT_EQ(
      Of("index-cardinality", std::string(kTable) + "CREATE INDEX ON k.users (active);").size(),
      1u);
  EXPECT_TRUE(
      Of("index-cardinality", std::string(kTable) + "CREATE INDEX ON k.users (city);").empty());
}

struct QueryCase {
  const char* rule;
  const char* query;
  size_t findings;  // 1: the positive case, 0: the negative one
};

TEST(LintTest, QueryRules) {
  const std::vector<QueryCase> kCases = {
      {"query-unknown-table", "SELECT * FROM k.rooms;", 1},
      {"query-unknown-table", "SELECT * FROM k.rooms_by_hotel WHERE hotel_id = 'a';", 0},
      {"query-unknown-table", "SELECT * FROM other.rooms;", 0},  // another schema's
      {"query-allow-filtering", "SELECT * FROM k.rooms_by_hotel WHERE free = true ALLOW FILTERING;",
       1},
      {"query-allow-filtering", "SELECT * FROM k.rooms_by_hotel WHERE hotel_id = 'a';", 0},
      {"query-multi-partition", "SELECT * FROM k.rooms_by_hotel;", 1},
      {"query-multi-partition", "SELECT * FROM k.rooms_by_hotel WHERE hotel_id IN ('a', 'b');", 0},
      {"query-large-in",
       "SELECT * FROM k.rooms_by_hotel WHERE hotel_id IN ('a','b','c','d','e','f','g','h','i',"
       "'j','k');",
       1},
      {"query-large-in", "SELECT * FROM k.rooms_by_hotel WHERE hotel_id IN ('a','b','c');", 0},
      {"query-needs-filtering",
       "SELECT * FROM k.rooms_by_hotel WHERE hotel_id = 'a' AND free = true;", 1},
      {"query-needs-filtering",
       "SELECT * FROM k.rooms_by_hotel WHERE hotel_id = 'a' AND room_number = 1;", 1},
      {"query-needs-filtering",
       "SELECT * FROM k.rooms_by_hotel WHERE hotel_id = 'a' AND day = '2026-01-01' "
       "AND room_number > 1;",
       0},
      {"query-needs-filtering",
       "SELECT * FROM k.rooms_by_hotel WHERE hotel_id = 'a' AND city = 'Paris';", 0},  // indexed
      {"query-order-by",
       "SELECT * FROM k.rooms_by_hotel WHERE hotel_id = 'a' ORDER BY room_number;", 1},
      {"query-order-by",
       "SELECT * FROM k.rooms_by_hotel WHERE hotel_id = 'a' ORDER BY day DESC, room_number ASC;",
       1},
      {"query-order-by",
       "SELECT * FROM k.rooms_by_hotel WHERE hotel_id = 'a' ORDER BY day DESC, room_number DESC;",
       0},
  };
  const std::string schema =
      "CREATE TABLE k.rooms_by_hotel (hotel_id text, day date, room_number int, free boolean, "
      "city text, PRIMARY KEY ((hotel_id), day, room_number));"
      "CREATE INDEX ON k.rooms_by_hotel (city);";
  for (const QueryCase& c : kCases) {
    EXPECT_EQ(Of(c.rule, schema, c.query).size(), c.findings) << c.rule << ": " << c.query;
  }
}

TEST(LintTest, EveryRuleIsListedAndCanBeDisabled) {
  auto schema = LoadSchemaFile(std::string(CQLD_TEST_DATA_DIR) + "/seeds/001_hotel.cql");
  ASSERT_TRUE(schema.ok());
  std::vector<Finding> all = Lint(*schema, {}, "");
  for (const Finding& finding : all) {
    const std::vector<std::string>& rules = LintRules();
    EXPECT_NE(std::find(rules.begin(), rules.end(), finding.rule), rules.end()) << finding.rule;
  }
  std::vector<Finding> some = Lint(*schema, {}, "", {"key-uniqueness"});
  EXPECT_FALSE(HasErrors(some));
  EXPECT_LT(some.size(), all.size());
}

TEST(LintTest, FormatsTextAndJson) {
  std::vector<Finding> findings = {
      Finding{"key-uniqueness", Severity::kError, "k.t", "why", "how"},
      Finding{"table-naming", Severity::kInfo, "k.u", "why \"quoted\"", "how"}};
  EXPECT_EQ(FormatFindings(findings),
            "error: k.t [key-uniqueness]\n  why\n  fix: how\n\n"
            "info: k.u [table-naming]\n  why \"quoted\"\n  fix: how\n\n"
            "1 error(s), 0 warning(s), 1 info\n");
  EXPECT_EQ(FindingsJson({findings[1]}),
            "[{\"rule\":\"table-naming\",\"severity\":\"info\",\"object\":\"k.u\","
            "\"message\":\"why \\\"quoted\\\"\",\"fix\":\"how\"}]\n");
}

}  // namespace
}  // namespace model
