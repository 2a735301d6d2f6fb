// Tests of server-side DESCRIBE: exact Cassandra text for seed tables, the listing and element
// forms, error messages, and the round trip property (describe -> parse -> ApplyDdl rebuilds
// an equal schema).

#include "schema/describe.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cql/parser/parser.h"
#include "schema/ddl_testing.h"

namespace schema {
namespace {

constexpr std::string_view kDefaultOptions =
    "    AND additional_write_policy = '99p'\n"
    "    AND bloom_filter_fp_chance = 0.01\n"
    "    AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}\n"
    "    AND cdc = false\n"
    "    AND comment = '{}'\n"
    "    AND compaction = {'class': "
    "'org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy', 'max_threshold': '32', "
    "'min_threshold': '4'}\n"
    "    AND compression = {'chunk_length_in_kb': '16', 'class': "
    "'org.apache.cassandra.io.compress.LZ4Compressor'}\n"
    "    AND memtable = 'default'\n"
    "    AND crc_check_chance = 1.0\n"
    "    AND default_time_to_live = 0\n"
    "    AND extensions = {}\n"
    "    AND gc_grace_seconds = 864000\n"
    "    AND max_index_interval = 2048\n"
    "    AND memtable_flush_period_in_ms = 0\n"
    "    AND min_index_interval = 128\n"
    "    AND read_repair = 'BLOCKING'\n"
    "    AND speculative_retry = '99p';";

std::string Options(std::string_view comment) {
  std::string out(kDefaultOptions);
  out.replace(out.find("{}'"), 2, comment);
  return out.substr(8);  // without the first "    AND "
}

std::shared_ptr<const Catalog> SeedsCatalog() {
  auto catalog = Catalog::Empty();
  EXPECT_TRUE(ApplyScript(&catalog, kHotelSchema).ok());
  EXPECT_TRUE(ApplyScript(&catalog, kReservationSchema).ok());
  return catalog;
}

common::Result<DescribeResult> RunDescribe(const Catalog& catalog, std::string_view text,
                                           std::string_view session_keyspace = "") {
  auto statement = cql::ParseStatement(text);
  EXPECT_TRUE(statement.ok()) << text;
  if (!statement.ok()) return statement.status();
  const auto* describe = std::get_if<cql::Describe>(&statement.value());
  EXPECT_NE(describe, nullptr);
  if (describe == nullptr) return common::Status::Invalid("not a describe");
  return Describe(catalog, *describe, session_keyspace);
}

std::vector<std::string> Names(const DescribeResult& result) {
  std::vector<std::string> out;
  for (const DescribeRow& row : result.rows) {
    out.push_back(row.keyspace_name + "/" + row.type + "/" + row.name);
  }
  return out;
}

TEST(DescribeTest, SeedTablesExactText) {
  auto catalog = SeedsCatalog();
  EXPECT_EQ(DescribeTableCql(*catalog->FindTable("hotel", "hotels_by_poi"), false),
            "CREATE TABLE hotel.hotels_by_poi (\n"
            "    poi_name text,\n"
            "    hotel_id text,\n"
            "    poi_description text static,\n"
            "    address frozen<address>,\n"
            "    name text,\n"
            "    phone text,\n"
            "    PRIMARY KEY (poi_name, hotel_id)\n"
            ") WITH CLUSTERING ORDER BY (hotel_id ASC)\n    AND " +
                Options("Q1. Find hotels near given poi"));
  EXPECT_EQ(DescribeTableCql(*catalog->FindTable("reservation", "guests"), false),
            "CREATE TABLE reservation.guests (\n"
            "    guest_id uuid PRIMARY KEY,\n"
            "    confirm_number text,\n"
            "    first_name text,\n"
            "    last_name text,\n"
            "    title text,\n"
            "    addresses map<text, frozen<address>>,\n"
            "    emails set<text>,\n"
            "    phone_numbers list<text>\n"
            ") WITH " +
                Options("Q9. Find guest by ID"));
  const std::string by_hotel_date_start =
      "CREATE TABLE reservation.reservations_by_hotel_date (\n"
      "    hotel_id text,\n"
      "    start_date date,\n"
      "    room_number smallint,\n"
      "    confirm_number text,\n"
      "    end_date date,\n"
      "    guest_id uuid,\n"
      "    PRIMARY KEY ((hotel_id, start_date), room_number)\n"
      ") WITH CLUSTERING ORDER BY (room_number ASC)\n"
      "    AND additional_write_policy = '99p'\n"
      "    AND bloom_filter";
  EXPECT_EQ(
      DescribeTableCql(*catalog->FindTable("reservation", "reservations_by_hotel_date"), false)
          .substr(0, by_hotel_date_start.size()),
      by_hotel_date_start);
  EXPECT_EQ(DescribeKeyspaceCql(*catalog->FindKeyspace("hotel")),
            "CREATE KEYSPACE hotel WITH replication = {'class': "
            "'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor': '3'}  AND "
            "durable_writes = true;");
  EXPECT_EQ(DescribeTypeCql(*catalog->FindType("hotel", "address")),
            "CREATE TYPE hotel.address (\n"
            "    street text,\n"
            "    city text,\n"
            "    state_or_province text,\n"
            "    postal_code text,\n"
            "    country text\n"
            ");");
}

TEST(DescribeTest, QuotedDescCounterAndInternals) {
  auto catalog = Catalog::Empty();
  ASSERT_TRUE(ApplyScript(&catalog, R"(
    CREATE KEYSPACE "Ks" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}
      AND durable_writes = false;
    CREATE TABLE "Ks"."Counts" ("K" int, "select" text, c2 int, n counter,
      PRIMARY KEY (("K"), "select", c2)) WITH CLUSTERING ORDER BY ("select" DESC, c2 ASC);)")
                  .ok());
  const TableMetadata* table = catalog->FindTable("Ks", "Counts");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(DescribeTableCql(*table, false),
            "CREATE TABLE \"Ks\".\"Counts\" (\n"
            "    \"K\" int,\n"
            "    \"select\" text,\n"
            "    c2 int,\n"
            "    n counter,\n"
            "    PRIMARY KEY (\"K\", \"select\", c2)\n"
            ") WITH CLUSTERING ORDER BY (\"select\" DESC, c2 ASC)\n    AND " +
                Options(""));
  EXPECT_TRUE(DescribeTableCql(*table, true)
                  .starts_with("CREATE TABLE \"Ks\".\"Counts\" (\n    \"K\" int,\n    \"select\" "
                               "text,\n    c2 int,\n    n counter,\n    PRIMARY KEY (\"K\", "
                               "\"select\", c2)\n) WITH ID = " +
                               table->id.ToString() + "\n    AND CLUSTERING ORDER BY"));
  EXPECT_EQ(DescribeKeyspaceCql(*catalog->FindKeyspace("Ks")),
            "CREATE KEYSPACE \"Ks\" WITH replication = {'class': "
            "'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor': '1'}  AND "
            "durable_writes = false;");
}

TEST(DescribeTest, ListingsAndElements) {
  auto catalog = SeedsCatalog();
  auto keyspaces = RunDescribe(*catalog, "DESCRIBE KEYSPACES");
  ASSERT_TRUE(keyspaces.ok());
  EXPECT_EQ(keyspaces.value().shape, DescribeResult::Shape::kListing);
  EXPECT_EQ(
      Names(keyspaces.value()),
      (std::vector<std::string>{
          "hotel/keyspace/hotel", "reservation/keyspace/reservation", "system/keyspace/system",
          "system_auth/keyspace/system_auth", "system_schema/keyspace/system_schema",
          "system_traces/keyspace/system_traces", "system_views/keyspace/system_views",
          "system_virtual_schema/keyspace/system_virtual_schema"}));
  auto tables = RunDescribe(*catalog, "DESC TABLES", "reservation");
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ(Names(tables.value()),
            (std::vector<std::string>{"reservation/table/guests",
                                      "reservation/table/reservations_by_confirmation",
                                      "reservation/table/reservations_by_guest",
                                      "reservation/table/reservations_by_hotel_date"}));
  auto keyspace = RunDescribe(*catalog, "DESCRIBE KEYSPACE hotel");
  ASSERT_TRUE(keyspace.ok());
  EXPECT_EQ(Names(keyspace.value()),
            (std::vector<std::string>{
                "hotel/keyspace/hotel", "hotel/type/address", "hotel/table/amenities_by_room",
                "hotel/table/available_rooms_by_hotel_date", "hotel/table/hotels",
                "hotel/table/hotels_by_poi", "hotel/table/pois_by_hotel"}));
  auto only = RunDescribe(*catalog, "DESCRIBE ONLY KEYSPACE", "hotel");
  ASSERT_TRUE(only.ok());
  EXPECT_EQ(Names(only.value()), std::vector<std::string>{"hotel/keyspace/hotel"});
  auto schema = RunDescribe(*catalog, "DESCRIBE SCHEMA");
  ASSERT_TRUE(schema.ok());
  EXPECT_EQ(schema.value().rows.size(), 7u + 6u);
  auto full = RunDescribe(*catalog, "DESCRIBE FULL SCHEMA");
  ASSERT_TRUE(full.ok());
  EXPECT_GT(full.value().rows.size(), 13u + 16u);
  auto generic = RunDescribe(*catalog, "DESC hotels", "hotel");
  ASSERT_TRUE(generic.ok());
  EXPECT_EQ(Names(generic.value()), std::vector<std::string>{"hotel/table/hotels"});
  EXPECT_EQ(generic.value().rows[0].create_statement,
            DescribeTableCql(*catalog->FindTable("hotel", "hotels"), false));
  auto type = RunDescribe(*catalog, "DESCRIBE TYPE reservation.address");
  ASSERT_TRUE(type.ok());
  EXPECT_EQ(Names(type.value()), std::vector<std::string>{"reservation/type/address"});
  auto virtual_table = RunDescribe(*catalog, "DESCRIBE TABLE system_virtual_schema.keyspaces");
  ASSERT_TRUE(virtual_table.ok());
  EXPECT_EQ(virtual_table.value().rows[0].create_statement,
            "/*\nWarning: Table system_virtual_schema.keyspaces is a virtual table and cannot be "
            "recreated with CQL.\nStructure, for reference:\nVIRTUAL TABLE "
            "system_virtual_schema.keyspaces (\n    keyspace_name text PRIMARY KEY\n) WITH "
            "comment = 'virtual keyspace definitions';\n*/");
  // A system_views table: a virtual table, its digit-first column names quoted.
  auto latency = RunDescribe(*catalog, "DESCRIBE TABLE system_views.local_read_latency");
  ASSERT_TRUE(latency.ok());
  EXPECT_EQ(latency.value().rows[0].create_statement,
            "/*\nWarning: Table system_views.local_read_latency is a virtual table and cannot be "
            "recreated with CQL.\nStructure, for reference:\nVIRTUAL TABLE "
            "system_views.local_read_latency (\n    keyspace_name text,\n    table_name text,\n"
            "    \"50th_ms\" double,\n    \"99th_ms\" double,\n    count bigint,\n    max_ms "
            "double,\n    per_second double,\n    PRIMARY KEY ((keyspace_name, table_name))\n) "
            "WITH comment = '';\n*/");
  auto cluster = RunDescribe(*catalog, "DESCRIBE CLUSTER");
  ASSERT_TRUE(cluster.ok());
  EXPECT_EQ(cluster.value().shape, DescribeResult::Shape::kCluster);
  EXPECT_EQ(cluster.value().partitioner, "Murmur3Partitioner");
  EXPECT_FALSE(cluster.value().has_range_ownership);
}

TEST(DescribeTest, ErrorsUseCassandraWording) {
  auto catalog = SeedsCatalog();
  auto message = [&](std::string_view text, std::string_view session = "") {
    auto result = RunDescribe(*catalog, text, session);
    EXPECT_FALSE(result.ok()) << text;
    if (result.ok()) return std::string();
    EXPECT_EQ(result.status().code(), common::StatusCode::kInvalid) << text;
    return result.status().message();
  };
  EXPECT_EQ(message("DESCRIBE KEYSPACE nope"), "'nope' not found in keyspaces");
  EXPECT_EQ(message("DESCRIBE TABLE hotel.nope"), "Table 'nope' not found in keyspace 'hotel'");
  EXPECT_EQ(message("DESCRIBE TABLE nope"), "No keyspace specified and no current keyspace");
  EXPECT_EQ(message("DESCRIBE TYPE hotel.nope"), "User defined type 'nope' not found in 'hotel'");
  EXPECT_EQ(message("DESCRIBE MATERIALIZED VIEW hotel.v"),
            "Materialized view 'v' not found in 'hotel'");
  EXPECT_EQ(message("DESCRIBE INDEX hotel.i"), "Table for existing index 'i' not found in 'hotel'");
  EXPECT_EQ(message("DESCRIBE nope", "hotel"), "'nope' not found in keyspace 'hotel'");
  EXPECT_EQ(message("DESCRIBE nope"), "'nope' not found in keyspaces");
  EXPECT_EQ(message("DESCRIBE FUNCTION hotel.f"), "User defined function 'f' not found in 'hotel'");
}

// Describes every user keyspace of `catalog` and replays the statements into an empty one.
std::shared_ptr<const Catalog> Replay(const Catalog& catalog, bool with_internals) {
  cql::Describe statement;
  statement.kind = cql::Describe::Kind::kSchema;
  statement.with_internals = with_internals;
  auto result = Describe(catalog, statement, "");
  EXPECT_TRUE(result.ok());
  std::string script;
  for (const DescribeRow& row : result.value().rows) script += row.create_statement + "\n\n";
  auto replayed = Catalog::Empty();
  auto status = ApplyScript(&replayed, script);
  EXPECT_TRUE(status.ok()) << status.ToString() << "\n" << script;
  return replayed;
}

void ExpectSameSchema(const Catalog& a, const Catalog& b, bool same_ids) {
  ASSERT_EQ(a.keyspaces().size(), b.keyspaces().size());
  for (const auto& [name, keyspace] : a.keyspaces()) {
    const KeyspaceMetadata* other = b.FindKeyspace(name);
    ASSERT_NE(other, nullptr) << name;
    EXPECT_EQ(keyspace->replication, other->replication);
    EXPECT_EQ(keyspace->durable_writes, other->durable_writes);
    EXPECT_EQ(keyspace->types, other->types);
    ASSERT_EQ(keyspace->tables.size(), other->tables.size());
    for (const auto& [table_name, table] : keyspace->tables) {
      const TableMetadata* copy = other->FindTable(table_name);
      ASSERT_NE(copy, nullptr) << table_name;
      ASSERT_EQ(table->columns.size(), copy->columns.size());
      for (size_t i = 0; i < table->columns.size(); ++i) {
        const ColumnMetadata& x = table->columns[i];
        const ColumnMetadata& y = copy->columns[i];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.type, y.type) << x.name;
        EXPECT_EQ(x.kind, y.kind) << x.name;
        EXPECT_EQ(x.position, y.position) << x.name;
        EXPECT_EQ(x.order, y.order) << x.name;
      }
      EXPECT_EQ(table->is_counter, copy->is_counter);
      EXPECT_EQ(table->options.comment, copy->options.comment);
      EXPECT_EQ(table->options.gc_grace_seconds, copy->options.gc_grace_seconds);
      EXPECT_EQ(table->options.default_time_to_live, copy->options.default_time_to_live);
      EXPECT_EQ(DescribeTableCql(*table, false), DescribeTableCql(*copy, false));
      if (same_ids) {
        EXPECT_EQ(table->id, copy->id);
      }
    }
  }
}

TEST(DescribeTest, RoundTripSeeds) {
  auto catalog = SeedsCatalog();
  ExpectSameSchema(*catalog, *Replay(*catalog, false), false);
  ExpectSameSchema(*catalog, *Replay(*catalog, true), true);
}

TEST(DescribeTest, RoundTripEveryOption) {
  auto catalog = Catalog::Empty();
  ASSERT_TRUE(ApplyScript(&catalog, R"(
    CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 2}
      AND durable_writes = false;
    CREATE TYPE ks."Point" ("X" int, y frozen<list<int>>);
    CREATE TABLE ks.t (k int, "Ck" text, s set<int> static, v frozen<"Point">,
        m map<text, frozen<"Point">>, PRIMARY KEY ((k), "Ck"))
      WITH CLUSTERING ORDER BY ("Ck" DESC)
      AND additional_write_policy = '90p' AND bloom_filter_fp_chance = 0.05
      AND caching = {'keys': 'NONE', 'rows_per_partition': '100'} AND cdc = true
      AND comment = 'it''s here'
      AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_size': '2'}
      AND compression = {'class': 'SnappyCompressor', 'chunk_length_in_kb': '64'}
      AND crc_check_chance = 0.25 AND default_time_to_live = 3600 AND gc_grace_seconds = 7200
      AND max_index_interval = 1024 AND memtable_flush_period_in_ms = 60000
      AND min_index_interval = 64 AND read_repair = 'NONE' AND speculative_retry = '50ms';)")
                  .ok());
  const std::string text = DescribeTableCql(*catalog->FindTable("ks", "t"), false);
  EXPECT_NE(text.find("    AND compaction = {'class': "
                      "'org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy', "
                      "'compaction_window_size': '2', 'max_threshold': '32', 'min_threshold': "
                      "'4'}\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    AND comment = 'it''s here'\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    AND speculative_retry = '50ms';"), std::string::npos) << text;
  EXPECT_NE(text.find("    s set<int> static,\n    v frozen<\"Point\">,\n    m map<text, "
                      "frozen<\"Point\">>,\n"),
            std::string::npos)
      << text;
  ExpectSameSchema(*catalog, *Replay(*catalog, false), false);
  ExpectSameSchema(*catalog, *Replay(*catalog, true), true);
}

TEST(DescribeTest, IndexesAndViews) {
  auto catalog = SeedsCatalog();
  ASSERT_TRUE(ApplyScript(&catalog, R"(
    CREATE INDEX hotels_pois ON hotel.hotels (pois);
    CREATE INDEX ON hotel.hotels (name);
    CREATE MATERIALIZED VIEW reservation.by_guest_id AS
      SELECT * FROM reservation.reservations_by_confirmation
      WHERE guest_id IS NOT NULL AND confirm_number IS NOT NULL
      PRIMARY KEY (guest_id, confirm_number) WITH CLUSTERING ORDER BY (confirm_number DESC);)")
                  .ok());
  const TableMetadata* hotels = catalog->FindTable("hotel", "hotels");
  ASSERT_NE(hotels, nullptr);
  ASSERT_EQ(hotels->indexes.size(), 2u);
  EXPECT_EQ(DescribeIndexCql(*hotels, hotels->indexes.at("hotels_pois")),
            "CREATE INDEX hotels_pois ON hotel.hotels (values(pois));");
  auto table = RunDescribe(*catalog, "DESCRIBE TABLE hotel.hotels");
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(Names(table.value()),
            (std::vector<std::string>{"hotel/table/hotels", "hotel/index/hotels_name_idx",
                                      "hotel/index/hotels_pois"}));
  auto index = RunDescribe(*catalog, "DESCRIBE INDEX hotels_name_idx", "hotel");
  ASSERT_TRUE(index.ok());
  EXPECT_EQ(index.value().rows.at(0).create_statement,
            "CREATE INDEX hotels_name_idx ON hotel.hotels (name);");
  const TableMetadata* view = catalog->FindTableOrView("reservation", "by_guest_id");
  ASSERT_NE(view, nullptr);
  const std::string view_text = DescribeViewCql(*view, false);
  EXPECT_TRUE(
      view_text.starts_with("CREATE MATERIALIZED VIEW reservation.by_guest_id AS\n"
                            "    SELECT *\n"
                            "    FROM reservation.reservations_by_confirmation\n"
                            "    WHERE guest_id IS NOT NULL AND confirm_number IS NOT NULL\n"
                            "    PRIMARY KEY (guest_id, confirm_number)\n"
                            " WITH CLUSTERING ORDER BY (confirm_number DESC)\n"
                            "    AND additional_write_policy = '99p'\n"))
      << view_text;
  EXPECT_EQ(view_text.find("default_time_to_live"), std::string::npos);
  auto generic = RunDescribe(*catalog, "DESC reservation.by_guest_id");
  ASSERT_TRUE(generic.ok());
  EXPECT_EQ(Names(generic.value()),
            std::vector<std::string>{"reservation/materialized_view/by_guest_id"});
  auto keyspace = RunDescribe(*catalog, "DESCRIBE KEYSPACE reservation");
  ASSERT_TRUE(keyspace.ok());
  EXPECT_EQ(
      Names(keyspace.value()),
      (std::vector<std::string>{
          "reservation/keyspace/reservation", "reservation/type/address",
          "reservation/table/guests", "reservation/table/reservations_by_confirmation",
          "reservation/materialized_view/by_guest_id", "reservation/table/reservations_by_guest",
          "reservation/table/reservations_by_hotel_date"}));
  auto replayed = Replay(*catalog, true);
  ExpectSameSchema(*catalog, *replayed, true);
  const KeyspaceMetadata* original = catalog->FindKeyspace("reservation");
  const KeyspaceMetadata* copy = replayed->FindKeyspace("reservation");
  ASSERT_NE(copy, nullptr);
  ASSERT_NE(copy->FindView("by_guest_id"), nullptr);
  EXPECT_EQ(*copy->FindView("by_guest_id")->view, *original->FindView("by_guest_id")->view);
  EXPECT_EQ(DescribeViewCql(*copy->FindView("by_guest_id"), false), view_text);
  // Index storage ids are not part of the CQL; everything else must match.
  const auto& copied_indexes = replayed->FindTable("hotel", "hotels")->indexes;
  ASSERT_EQ(copied_indexes.size(), hotels->indexes.size());
  for (const auto& [name, index] : hotels->indexes) {
    IndexMetadata copied = copied_indexes.at(name);
    copied.id = index.id;
    EXPECT_EQ(copied, index) << name;
  }
}

}  // namespace
}  // namespace schema
