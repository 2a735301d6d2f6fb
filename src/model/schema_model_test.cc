#include "model/schema_model.h"

#include <gtest/gtest.h>

#include "model/paged_session_testing.h"

namespace model {
namespace {

TEST(SchemaModelTest, LoadsTheSeedsHotelSchema) {
  auto schema = LoadSchemaFile(std::string(CQLD_TEST_DATA_DIR) + "/seeds/001_hotel.cql");
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  ASSERT_EQ(schema->keyspaces.size(), 1u);
  EXPECT_EQ(schema->keyspaces[0].name, "hotel");
  EXPECT_EQ(schema->keyspaces[0].replication_factor, 3);
  ASSERT_EQ(schema->types.size(), 1u);
  EXPECT_EQ(schema->types[0].field_names.size(), 5u);
  ASSERT_EQ(schema->tables.size(), 5u);

  const Table* poi = schema->FindTable("hotel", "hotels_by_poi");
  ASSERT_NE(poi, nullptr);
  EXPECT_EQ(poi->comment, "Q1. Find hotels near given poi");
  ASSERT_EQ(poi->columns.size(), 6u);
  EXPECT_EQ(poi->columns[0].name, "poi_name");
  EXPECT_EQ(poi->columns[0].kind, ColumnKind::kPartitionKey);
  EXPECT_EQ(poi->columns[1].name, "hotel_id");
  EXPECT_EQ(poi->columns[1].kind, ColumnKind::kClustering);
  EXPECT_EQ(poi->columns[2].name, "poi_description");
  EXPECT_EQ(poi->columns[2].kind, ColumnKind::kStatic);
  EXPECT_EQ(poi->columns[5].name, "address");
  EXPECT_EQ(poi->columns[5].type.ToCql(), "frozen<address>");

  const Table* amenities = schema->FindTable("hotel", "amenities_by_room");
  ASSERT_NE(amenities, nullptr);
  EXPECT_EQ(amenities->ColumnsOf(ColumnKind::kPartitionKey).size(), 2u);
}

TEST(SchemaModelTest, ViewsIndexesOrderAndUse) {
  auto schema = LoadSchema(R"(
      USE shop;
      CREATE TABLE orders (id uuid, day date, total counter, note text,
                           PRIMARY KEY ((id), day)) WITH CLUSTERING ORDER BY (day DESC);
      CREATE INDEX ON orders (note);
      CREATE TABLE items (id int PRIMARY KEY, name text, tags set<text>);
      CREATE MATERIALIZED VIEW items_by_name AS SELECT id, name FROM items
          WHERE name IS NOT NULL AND id IS NOT NULL PRIMARY KEY (name, id);
      INSERT INTO items (id, name) VALUES (1, 'x');)");
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  EXPECT_EQ(schema->keyspaces[0].name, "shop");
  const Table* orders = schema->FindTable("shop", "orders");
  ASSERT_NE(orders, nullptr);
  EXPECT_TRUE(orders->columns[1].descending);
  EXPECT_TRUE(orders->HasCounters());
  ASSERT_EQ(schema->IndexesOf(*orders).size(), 1u);
  EXPECT_EQ(schema->IndexesOf(*orders)[0]->name, "orders_note_idx");
  const Table* view = schema->FindTable("shop", "items_by_name");
  ASSERT_NE(view, nullptr);
  EXPECT_TRUE(view->is_view);
  EXPECT_EQ(view->base_table, "items");
  ASSERT_EQ(view->columns.size(), 2u);
  EXPECT_EQ(view->columns[0].name, "name");
  EXPECT_EQ(schema->ViewsOf(*schema->FindTable("shop", "items")).size(), 1u);
}

TEST(SchemaModelTest, ErrorsUseCassandrasWording) {
  auto no_keyspace = LoadSchema("CREATE TABLE t (a int PRIMARY KEY);");
  ASSERT_FALSE(no_keyspace.ok());
  EXPECT_EQ(no_keyspace.status().message(),
            "No keyspace has been specified. USE a keyspace, or explicitly specify "
            "keyspace.tablename");
  auto unknown = LoadSchema("CREATE TABLE k.t (a int, PRIMARY KEY (a, b));");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "Unknown column 'b' referenced in PRIMARY KEY for table 't'");
  auto syntax = LoadSchema("CREATE TABLE k.t (a int PRIMARY KEY");
  ASSERT_FALSE(syntax.ok());
  EXPECT_EQ(syntax.status().code(), common::StatusCode::kSyntaxError);
  auto twice =
      LoadSchema("CREATE TABLE k.t (a int PRIMARY KEY); CREATE TABLE k.t (a int PRIMARY KEY);");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.status().code(), common::StatusCode::kAlreadyExists);
}

// DESCRIBE's rows as Cassandra 4 and cqld return them: keyspace_name, type, name and the
// statement.
cql::ResultSet Describe(const std::vector<std::string>& statements) {
  std::vector<cql::ColumnSpec> columns;
  for (const char* name : {"keyspace_name", "type", "name", "create_statement"}) {
    columns.push_back(cql::ColumnSpec{"", "", name, cql::CqlType::Text()});
  }
  cql::ResultSet page = cql::ResultSet::Rows(columns);
  for (const std::string& statement : statements) page.AddRow({"k", "table", "t", statement});
  return page;
}

TEST(SchemaModelTest, TheSchemaOfAServerIsItsDescribe) {
  testing::PagedSession session(
      {{Describe({"CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', "
                  "'replication_factor': '1'}  AND durable_writes = true;"}),
        true},
       {Describe({"CREATE TABLE k.t (\n    id int PRIMARY KEY,\n    v text\n) WITH comment = "
                  "'Q1. Find t';"})}});
  auto text = DescribeServerSchema(session, "");
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(session.queries(), (std::vector<std::string>{"DESCRIBE SCHEMA", "DESCRIBE SCHEMA"}));
  auto schema = LoadSchema(*text);
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  ASSERT_EQ(schema->tables.size(), 1u);
  EXPECT_EQ(schema->tables[0].QualifiedName(), "k.t");
  EXPECT_EQ(schema->tables[0].comment, "Q1. Find t");

  testing::PagedSession one({{Describe({})}});
  ASSERT_TRUE(DescribeServerSchema(one, "Mixed Case").ok());
  EXPECT_EQ(one.queries(), (std::vector<std::string>{"DESCRIBE KEYSPACE \"Mixed Case\""}));

  testing::PagedSession none({});
  EXPECT_EQ(DescribeServerSchema(none, "k").status().message(), "unexpected page");
}

}  // namespace
}  // namespace model
