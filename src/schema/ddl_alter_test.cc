#include <gtest/gtest.h>

#include "common/clock.h"
#include "schema/ddl.h"
#include "schema/ddl_testing.h"

namespace schema {
namespace {

using common::StatusCode;

class AlterTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ApplyScript(&catalog_, kHotelSchema).ok());
    ASSERT_TRUE(ApplyScript(&catalog_,
                            "CREATE TABLE hotel.cnt (k int, c int, n counter, PRIMARY KEY (k, c));"
                            "CREATE TYPE hotel.tags (l list<text>);"
                            "CREATE TYPE hotel.point (x int, y int);"
                            "CREATE TABLE hotel.u (k int PRIMARY KEY, p point)")
                    .ok());
  }

  common::Result<DdlResult> Run(std::string_view text) {
    ASSIGN_OR_RETURN(cql::Statement statement, cql::ParseStatement(text));
    return ApplyDdl(*catalog_, statement, "", clock_);
  }

  DdlResult Apply(std::string_view text) {
    auto result = Run(text);
    EXPECT_TRUE(result.ok()) << text << ": " << result.status().ToString();
    if (!result.ok()) return DdlResult{};
    EXPECT_NE(result.value().catalog, nullptr) << text;
    if (result.value().catalog != nullptr) catalog_ = result.value().catalog;
    return result.value();
  }

  void ExpectNoOp(std::string_view text) {
    auto result = Run(text);
    ASSERT_TRUE(result.ok()) << text << ": " << result.status().ToString();
    EXPECT_EQ(result.value().catalog, nullptr) << text;
  }

  void ExpectError(std::string_view text, StatusCode code, std::string_view message) {
    auto result = Run(text);
    ASSERT_FALSE(result.ok()) << text;
    EXPECT_EQ(result.status().code(), code) << text << ": " << result.status().message();
    EXPECT_EQ(result.status().message(), message) << text;
  }

  const TableMetadata* Hotels() const { return catalog_->FindTable("hotel", "hotels"); }

  common::ManualClock clock_{1'000'000};
  std::shared_ptr<const Catalog> catalog_ = Catalog::Empty();
};

TEST_F(AlterTableTest, AddColumnsGetFreshIdsAndSortedPlaces) {
  const uint32_t next = Hotels()->next_column_id;
  auto result = Apply("ALTER TABLE hotel.hotels ADD (zip text, age int)");
  EXPECT_EQ(result.change,
            (SchemaChange{ChangeType::kUpdated, ChangeTarget::kTable, "hotel", "hotels"}));
  const ColumnMetadata* zip = Hotels()->FindColumn("zip");
  ASSERT_NE(zip, nullptr);
  EXPECT_EQ(zip->column_id, next);
  EXPECT_EQ(Hotels()->FindColumn("age")->column_id, next + 1);
  EXPECT_EQ(Hotels()->next_column_id, next + 2);
  std::vector<std::string> names;
  for (const ColumnMetadata& column : Hotels()->columns) names.push_back(column.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"id", "address", "age", "name", "phone", "pois", "zip"}));
}

TEST_F(AlterTableTest, AddStaticColumn) {
  Apply("ALTER TABLE hotel.pois_by_hotel ADD s text STATIC");
  EXPECT_EQ(catalog_->FindTable("hotel", "pois_by_hotel")->FindColumn("s")->kind,
            ColumnKind::kStatic);
}

TEST_F(AlterTableTest, DropRecordsTimeAndReAddGetsNewId) {
  const uint32_t old_id = Hotels()->FindColumn("phone")->column_id;
  Apply("ALTER TABLE hotel.hotels DROP phone");
  EXPECT_EQ(Hotels()->FindColumn("phone"), nullptr);
  ASSERT_TRUE(Hotels()->dropped_columns.contains("phone"));
  EXPECT_EQ(Hotels()->dropped_columns.at("phone").dropped_time_micros, 1'000'000);
  EXPECT_EQ(Hotels()->dropped_columns.at("phone").type, cql::CqlType::Text());
  Apply("ALTER TABLE hotel.hotels DROP name USING TIMESTAMP 42");
  EXPECT_EQ(Hotels()->dropped_columns.at("name").dropped_time_micros, 42);
  Apply("ALTER TABLE hotel.hotels ADD phone text");
  EXPECT_NE(Hotels()->FindColumn("phone")->column_id, old_id);
  ExpectError("ALTER TABLE hotel.hotels ADD name int", StatusCode::kInvalid,
              "Cannot re-add previously dropped column 'name' of type int, incompatible with "
              "previous type text");
}

TEST_F(AlterTableTest, RenamePrimaryKeyColumn) {
  Apply("ALTER TABLE hotel.pois_by_hotel RENAME poi_name TO poi");
  const TableMetadata* table = catalog_->FindTable("hotel", "pois_by_hotel");
  EXPECT_EQ(table->FindColumn("poi_name"), nullptr);
  ASSERT_NE(table->FindColumn("poi"), nullptr);
  EXPECT_EQ(table->FindColumn("poi")->kind, ColumnKind::kClustering);
}

TEST_F(AlterTableTest, WithOptionsMergesIntoExisting) {
  Apply("ALTER TABLE hotel.hotels WITH gc_grace_seconds = 5 AND caching = {'keys': 'NONE'}");
  EXPECT_EQ(Hotels()->options.gc_grace_seconds, 5);
  EXPECT_EQ(Hotels()->options.comment, "Q2. Find information about a hotel");
  Apply("ALTER TABLE hotel.hotels WITH caching = {'keys': 'ALL'}");
  ASSERT_EQ(Hotels()->options.other.size(), 1u);
  EXPECT_EQ(Hotels()->options.other[0].value.entries[0].second.text, "ALL");
  ExpectNoOp("ALTER TABLE hotel.hotels WITH gc_grace_seconds = 5");
}

TEST_F(AlterTableTest, NoOps) {
  common::Uuid version = catalog_->schema_version();
  ExpectNoOp("ALTER TABLE IF EXISTS hotel.nope ADD x int");
  ExpectNoOp("ALTER TABLE hotel.hotels ADD IF NOT EXISTS name text");
  ExpectNoOp("ALTER TABLE hotel.hotels DROP IF EXISTS nope");
  ExpectNoOp("ALTER TABLE hotel.hotels RENAME IF EXISTS nope TO other");
  EXPECT_EQ(catalog_->schema_version(), version);
}

TEST_F(AlterTableTest, Errors) {
  ExpectError("ALTER TABLE hotel.nope ADD x int", StatusCode::kInvalid,
              "Table 'hotel.nope' doesn't exist");
  ExpectError("ALTER TABLE hotel.hotels ADD name text", StatusCode::kInvalid,
              "Column with name 'name' already exists");
  ExpectError("ALTER TABLE hotel.hotels ADD s text STATIC", StatusCode::kInvalid,
              "Static columns are only useful (and thus allowed) if the table has at least one "
              "clustering column");
  ExpectError("ALTER TABLE hotel.hotels ADD t tags", StatusCode::kInvalid,
              "Non-frozen UDTs with nested non-frozen collections are not supported for column t");
  ExpectError("ALTER TABLE hotel.hotels ADD x frozen<nope>", StatusCode::kInvalid,
              "Unknown type hotel.nope");
  ExpectError("ALTER TABLE hotel.hotels ADD n counter", StatusCode::kConfigError,
              "Cannot add a counter column (n) in a non counter table");
  ExpectError("ALTER TABLE hotel.cnt ADD v int", StatusCode::kConfigError,
              "Cannot add a non counter column (v) in a counter table");
  ExpectError("ALTER TABLE hotel.hotels DROP nope", StatusCode::kInvalid,
              "Column nope was not found in table 'hotel.hotels'");
  ExpectError("ALTER TABLE hotel.hotels DROP id", StatusCode::kInvalid,
              "Cannot drop PRIMARY KEY column id");
  ExpectError("ALTER TABLE hotel.u DROP p", StatusCode::kInvalid,
              "Cannot drop non-frozen column p of user type point");
  ExpectError("ALTER TABLE hotel.hotels RENAME nope TO x", StatusCode::kInvalid,
              "Column nope was not found in table hotel.hotels");
  ExpectError("ALTER TABLE hotel.hotels RENAME name TO x", StatusCode::kInvalid,
              "Cannot rename non PRIMARY KEY column name");
  ExpectError("ALTER TABLE hotel.pois_by_hotel RENAME poi_name TO hotel_id", StatusCode::kInvalid,
              "Cannot rename column poi_name to hotel_id in table 'hotel.pois_by_hotel'; another "
              "column with that name already exists");
  ExpectError("ALTER TABLE hotel.hotels ALTER name TYPE blob", StatusCode::kInvalid,
              "Altering column types is no longer supported");
  ExpectError("ALTER TABLE hotel.cnt WITH default_time_to_live = 1", StatusCode::kInvalid,
              "Cannot set default_time_to_live on a table with counters");
  ExpectError("ALTER TABLE hotel.hotels WITH id = 5a1c395e-b41f-11e5-9f22-ba0be0483c18",
              StatusCode::kConfigError, "Cannot alter table id.");
  ExpectError("ALTER TABLE hotel.hotels WITH nope = 1", StatusCode::kSyntaxError,
              "Unknown property 'nope'");
}

}  // namespace
}  // namespace schema
