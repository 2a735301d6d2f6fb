#include "model/partition_size.h"

#include <gtest/gtest.h>

namespace model {
namespace {

SchemaModel SeedsHotel() {
  auto schema = LoadSchemaFile(std::string(CQLD_TEST_DATA_DIR) + "/seeds/001_hotel.cql");
  EXPECT_TRUE(schema.ok()) << schema.status().message();
  return *std::move(schema);
}

// Seed 001, "Calculating Partition Size": 100 rooms x 730 days = 73,000 rows; Nv = 1 x Nr; the
// 5-character hotel_id is 5 bytes, date 4 + smallint 2 + boolean 1 = 7 bytes a row, so
// 511,000 bytes of rows and 8 x 73,000 = 584,000 bytes of metadata: 1.1 MB.
TEST(PartitionSizeTest, ReproducesTheSeedsWorkedExample) {
  SchemaModel schema = SeedsHotel();
  const Table* table = schema.FindTable("hotel", "available_rooms_by_hotel_date");
  ASSERT_NE(table, nullptr);
  SizeAssumptions assumptions;
  assumptions.value_sizes["hotel_id"] = 5;
  PartitionEstimate e = EstimatePartition(schema, *table, 100 * 730, assumptions);
  EXPECT_EQ(e.columns, 4);
  EXPECT_EQ(e.primary_key_columns, 3);
  EXPECT_EQ(e.static_columns, 0);
  EXPECT_EQ(e.values, 73'000);
  EXPECT_EQ(e.partition_key_bytes, 5);
  EXPECT_EQ(e.static_bytes, 0);
  EXPECT_EQ(e.row_bytes, 7);
  EXPECT_EQ(e.rows * e.row_bytes, 511'000);
  EXPECT_EQ(e.metadata_bytes, 584'000);
  EXPECT_EQ(e.total_bytes, 1'095'005);
  EXPECT_FALSE(e.OverLimits());
}

TEST(PartitionSizeTest, StaticColumnsAndUserTypes) {
  SchemaModel schema = SeedsHotel();
  const Table* table = schema.FindTable("hotel", "hotels_by_poi");
  SizeAssumptions assumptions;  // text: 16 bytes
  PartitionEstimate e = EstimatePartition(schema, *table, 10, assumptions);
  EXPECT_EQ(e.values, 10 * (6 - 2 - 1) + 1);
  EXPECT_EQ(e.static_bytes, 16);
  // hotel_id, name, phone 16 each; address: five text fields.
  EXPECT_EQ(e.row_bytes, 16 * 3 + 16 * 5);
  assumptions.value_sizes["text"] = 10;
  EXPECT_EQ(SizeOf(schema, *table, "address", table->Find("address")->type, assumptions), 50);
  assumptions.value_sizes["hotels_by_poi.address"] = 7;
  EXPECT_EQ(SizeOf(schema, *table, "address", table->Find("address")->type, assumptions), 7);
}

TEST(PartitionSizeTest, OverTheLimitProposesTheSeedsMonthBucket) {
  SchemaModel schema = SeedsHotel();
  SizeAssumptions assumptions;
  assumptions.value_sizes["hotel_id"] = 5;
  assumptions.rows["available_rooms_by_hotel_date"] = 100 * 1825;  // five years
  assumptions.span_days["available_rooms_by_hotel_date"] = 1825;
  std::vector<SizeReport> reports = EstimateSchema(schema, "hotel", assumptions);
  const SizeReport* report = nullptr;
  for (const SizeReport& r : reports) {
    if (r.estimate.table == "hotel.available_rooms_by_hotel_date") report = &r;
  }
  ASSERT_NE(report, nullptr);
  EXPECT_TRUE(report->estimate.over_values);
  ASSERT_EQ(report->proposals.size(), 1u);
  const BucketingProposal& month = report->proposals[0];
  EXPECT_EQ(month.name, "month");
  EXPECT_EQ(month.primary_key, "PRIMARY KEY ((hotel_id, month), date, room_number)");
  EXPECT_EQ(month.estimate.rows, 3'100);  // 100 rooms x 31 days
  EXPECT_EQ(month.estimate.partition_key_bytes, 9);
  EXPECT_FALSE(month.estimate.OverLimits());
}

TEST(PartitionSizeTest, WithoutATimeColumnProposesAShardBucket) {
  auto schema = LoadSchema(
      "CREATE TABLE k.events_by_source (source text, id timeuuid, "
      "payload blob, PRIMARY KEY ((source), id));");
  ASSERT_TRUE(schema.ok());
  SizeAssumptions assumptions;
  assumptions.rows["events_by_source"] = 1'000'000;
  std::vector<SizeReport> reports = EstimateSchema(*schema, "", assumptions);
  ASSERT_EQ(reports.size(), 1u);
  ASSERT_EQ(reports[0].proposals.size(), 1u);
  EXPECT_EQ(reports[0].proposals[0].name, "shard");
  EXPECT_EQ(reports[0].proposals[0].primary_key, "PRIMARY KEY ((source, bucket), id)");
  EXPECT_EQ(reports[0].proposals[0].estimate.rows, 100'000);
  EXPECT_FALSE(reports[0].proposals[0].estimate.OverLimits());
}

TEST(PartitionSizeTest, RowsWithoutClusteringAreOneAndOthersAssumed) {
  SchemaModel schema = SeedsHotel();
  std::vector<SizeReport> reports = EstimateSchema(schema, "", SizeAssumptions{});
  for (const SizeReport& r : reports) {
    if (r.estimate.table == "hotel.hotels") {
      EXPECT_EQ(r.estimate.rows, 1);
      EXPECT_FALSE(r.estimate.rows_assumed);
    }
    if (r.estimate.table == "hotel.pois_by_hotel") {
      EXPECT_TRUE(r.estimate.rows_assumed);
    }
  }
}

TEST(PartitionSizeTest, UserTypesThatContainEachOtherDoNotRecurseForever) {
  auto schema = LoadSchema(
      "CREATE TYPE k.a (name text, other frozen<b>); CREATE TYPE k.b (id int, other frozen<a>);"
      "CREATE TABLE k.t (id int PRIMARY KEY, value frozen<a>);");
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  const Table& table = schema->tables[0];
  SizeAssumptions assumptions;
  // 33 levels of a and b, each with its own field (16 or 4 bytes), then 16 for the rest.
  int64_t size = SizeOf(*schema, table, "value", table.Find("value")->type, assumptions);
  EXPECT_EQ(size, 17 * 16 + 16 * 4 + 16);
}

TEST(PartitionSizeTest, ParsesRowCounts) {
  EXPECT_EQ(*ParseRowCount("73000"), 73'000);
  EXPECT_EQ(*ParseRowCount("100*730"), 73'000);
  EXPECT_EQ(*ParseRowCount("100x730"), 73'000);
  EXPECT_FALSE(ParseRowCount("").ok());
  EXPECT_FALSE(ParseRowCount("100*").ok());
  EXPECT_FALSE(ParseRowCount("abc").ok());
  EXPECT_FALSE(ParseRowCount("-3").ok());
}

}  // namespace
}  // namespace model
