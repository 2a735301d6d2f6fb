#include "model/partition_measure.h"

#include <gtest/gtest.h>

#include "cql/types/value_codec.h"
#include "model/paged_session_testing.h"
#include "model/partition_size.h"

namespace model {
namespace {

using testing::PagedSession;

cql::ResultSet Page(const std::vector<std::vector<std::optional<std::string>>>& rows) {
  std::vector<cql::ColumnSpec> columns;
  for (const char* name : {"hotel_id", "date", "room_number", "is_available", "note"}) {
    columns.push_back(cql::ColumnSpec{"hotel", "rooms", name, cql::CqlType::Text()});
  }
  cql::ResultSet page = cql::ResultSet::Rows(columns);
  for (const auto& row : rows) page.AddRow(row);
  return page;
}

Table Rooms() {
  auto schema = LoadSchema(
      "CREATE TABLE hotel.rooms (hotel_id text, date date, room_number smallint, note text "
      "STATIC, is_available boolean, PRIMARY KEY ((hotel_id), date, room_number));");
  EXPECT_TRUE(schema.ok());
  return schema->tables[0];
}

TEST(PartitionMeasureTest, CountsRowsValuesAndBytesPerPartition) {
  // Partition AZ123 (5 bytes): a static note (4 bytes) and three rows of 4 + 2 + 1 bytes, one
  // with a null is_available; it continues on the second page. Partition NY229: one row.
  PagedSession session({
      {Page({{"AZ123", "dddd", "rr", "b", "note"}, {"AZ123", "dddd", "rs", std::nullopt, "note"}}),
       true},
      {Page({{"AZ123", "ddde", "rr", "b", "note"}, {"NY229", "dddd", "rr", "b", std::nullopt}})},
  });
  auto measured = MeasureTable(session, Rooms(), 1000);
  ASSERT_TRUE(measured.ok()) << measured.status().message();
  EXPECT_EQ(session.queries(),
            (std::vector<std::string>{"SELECT * FROM hotel.rooms", "SELECT * FROM hotel.rooms"}));
  EXPECT_EQ(measured->partitions, 2);
  EXPECT_EQ(measured->rows_scanned, 4);
  EXPECT_FALSE(measured->truncated);
  EXPECT_EQ(measured->max_rows, 3);
  EXPECT_EQ(measured->mean_rows, 2);
  // AZ123: 2 is_available + 1 static = 3 values; NY229: 1 value.
  EXPECT_EQ(measured->max_values, 3);
  // AZ123: 5 + 4 + (7 + 6 + 7) + 8 * 3 = 53; NY229: 5 + 7 + 8 = 20.
  EXPECT_EQ(measured->max_bytes, 53);
  EXPECT_EQ(measured->mean_bytes, (53 + 20) / 2.0);
  EXPECT_EQ(measured->over_limits, 0);
}

TEST(PartitionMeasureTest, StopsAtMaxRows) {
  PagedSession session(
      {{Page({{"AZ123", "dddd", "rr", "b", "n"}, {"NY229", "dddd", "rr", "b", "n"}}), true},
       {Page({{"SF001", "dddd", "rr", "b", "n"}})}});
  auto measured = MeasureTable(session, Rooms(), 2);
  ASSERT_TRUE(measured.ok());
  EXPECT_TRUE(measured->truncated);
  EXPECT_EQ(measured->rows_scanned, 2);
  EXPECT_EQ(measured->partitions, 2);
}

TEST(PartitionMeasureTest, ReportsCarryTheMeasurementOrTheError) {
  auto schema = LoadSchema(
      "CREATE TABLE hotel.rooms (hotel_id text, date date, room_number smallint, note text "
      "STATIC, is_available boolean, PRIMARY KEY ((hotel_id), date, room_number));"
      "CREATE TABLE hotel.other (id int PRIMARY KEY);");
  ASSERT_TRUE(schema.ok());
  // One page for the first table; the second table's query finds no page: an error.
  PagedSession session({{Page({{"AZ123", "dddd", "rr", "b", "note"}})}});
  std::vector<SizeReport> reports = EstimateSchema(*schema, "", SizeAssumptions{});
  MeasureReports(session, *schema, MeasureSource::kScan, 100, &reports);
  ASSERT_EQ(reports.size(), 2u);
  ASSERT_TRUE(reports[0].measured.has_value());
  EXPECT_EQ(reports[0].measured->partitions, 1);
  EXPECT_EQ(reports[1].measure_error, "unexpected page");
  std::string text = FormatSizeReports(reports);
  EXPECT_NE(text.find("  measured: 1 partitions (1 rows read)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  measured: failed: unexpected page\n"), std::string::npos);
  EXPECT_NE(SizeReportsJson(reports).find("\"measured\":{\"partitions\":1,"), std::string::npos);
}

// A one-row page of bigint columns (and `mean_rows`, a double) named as the server names them.
cql::ResultSet Figures(const std::vector<std::pair<std::string, double>>& figures) {
  std::vector<cql::ColumnSpec> columns;
  std::vector<std::optional<std::string>> row;
  for (const auto& [name, value] : figures) {
    const bool real = name == "mean_rows";
    columns.push_back(cql::ColumnSpec{"system", "t", name,
                                      real ? cql::CqlType::Double() : cql::CqlType::Bigint()});
    row.push_back(real ? cql::SerializeDouble(value)
                       : cql::SerializeBigint(static_cast<int64_t>(value)));
  }
  cql::ResultSet page = cql::ResultSet::Rows(columns);
  page.AddRow(row);
  return page;
}

TEST(PartitionMeasureTest, SourcesByName) {
  EXPECT_EQ(*ParseMeasureSource("scan"), MeasureSource::kScan);
  EXPECT_EQ(*ParseMeasureSource("estimates"), MeasureSource::kEstimates);
  EXPECT_EQ(*ParseMeasureSource("histograms"), MeasureSource::kHistograms);
  EXPECT_EQ(ParseMeasureSource("sample").status().message(),
            "unknown source 'sample': expected scan, estimates or histograms");
  EXPECT_EQ(MeasureSourceName(MeasureSource::kHistograms), "histograms");
}

TEST(PartitionMeasureTest, SizeEstimatesGiveCountAndMeanOnly) {
  PagedSession session({{Figures({{"partitions_count", 40}, {"mean_partition_size", 4096}})}});
  auto measured = ReadSizeEstimates(session, Rooms());
  ASSERT_TRUE(measured.ok()) << measured.status().message();
  EXPECT_EQ(session.queries(),
            (std::vector<std::string>{"SELECT partitions_count, mean_partition_size FROM "
                                      "system.size_estimates WHERE keyspace_name = 'hotel' AND "
                                      "table_name = 'rooms'"}));
  EXPECT_EQ(measured->source, MeasureSource::kEstimates);
  EXPECT_EQ(measured->partitions, 40);
  EXPECT_EQ(measured->mean_bytes, 4096);
  EXPECT_FALSE(measured->max_known);
  EXPECT_EQ(measured->over_limits, 0);

  // No row: the table is not on the server (or not estimated yet).
  cql::ResultSet empty = Figures({{"partitions_count", 0}});
  empty = cql::ResultSet::Rows(empty.columns());
  PagedSession none({{empty}});
  EXPECT_EQ(ReadSizeEstimates(none, Rooms()).status().message(),
            "system.size_estimates has no row for hotel.rooms");
}

TEST(PartitionMeasureTest, HistogramsFlagPartitionsOverTheLimits) {
  // 1,000 partitions. The 99th percentile of rows (60,000 rows of one value, plus the static
  // note: 60,001 values) is within 100,000 values but its 120 MB are over 100 MB: at least 1% of
  // the partitions, 10, are over the limits. The largest (150,000 rows) is over both.
  PagedSession session({{Figures({{"partitions", 1000},
                                  {"sstables_without_statistics", 0},
                                  {"mean_bytes", 2000},
                                  {"mean_rows", 12.5},
                                  {"min_bytes", 10},
                                  {"p50_bytes", 1000},
                                  {"p75_bytes", 3000},
                                  {"p95_bytes", 9000},
                                  {"p98_bytes", 20000},
                                  {"p99_bytes", 120'000'000},
                                  {"max_bytes", 150'000'000},
                                  {"min_rows", 1},
                                  {"p50_rows", 10},
                                  {"p75_rows", 20},
                                  {"p95_rows", 40},
                                  {"p98_rows", 100},
                                  {"p99_rows", 60'000},
                                  {"max_rows", 150'000}})}});
  auto measured = ReadPartitionHistograms(session, Rooms());
  ASSERT_TRUE(measured.ok()) << measured.status().message();
  EXPECT_EQ(session.queries(),
            (std::vector<std::string>{"SELECT * FROM system_views.partition_histograms WHERE "
                                      "keyspace_name = 'hotel' AND table_name = 'rooms'"}));
  EXPECT_EQ(measured->partitions, 1000);
  EXPECT_EQ(measured->max_rows, 150'000);
  EXPECT_EQ(measured->max_values, 150'001);  // is_available a row, the static note once
  EXPECT_EQ(measured->row_percentiles.p99, 60'000);
  EXPECT_EQ(measured->byte_percentiles.p50, 1000);
  EXPECT_TRUE(measured->over_limits_at_least);
  EXPECT_EQ(measured->over_limits, 10);

  // The report: measured side by side with the estimate, which was within the limits, and the
  // bucketing proposed for the largest measured partition.
  auto schema = LoadSchema(
      "CREATE TABLE hotel.rooms (hotel_id text, date date, room_number smallint, note text "
      "STATIC, is_available boolean, PRIMARY KEY ((hotel_id), date, room_number));");
  ASSERT_TRUE(schema.ok());
  SizeAssumptions assumptions;
  std::vector<SizeReport> reports = EstimateSchema(*schema, "", assumptions);
  ASSERT_TRUE(reports[0].proposals.empty());
  reports[0].measured = *measured;
  ProposeFromMeasurements(*schema, assumptions, &reports);
  ASSERT_FALSE(reports[0].proposals.empty());
  EXPECT_EQ(reports[0].proposals[0].name, "shard");
  EXPECT_FALSE(reports[0].proposals.back().estimate.OverLimits());
  std::string text = FormatSizeReports(reports);
  EXPECT_NE(text.find("  measured (system_views.partition_histograms): 1,000 partitions\n"
                      "    Nr mean 12.5, p50 10, p95 40, p99 60,000, max 150,000; Nv max 150,001 "
                      "(every column set)\n"
                      "    St mean 2,000, p50 1,000, p95 9,000, p99 120,000,000, max 150,000,000 "
                      "bytes (150.00 MB) as stored\n"
                      "    at least 10 partition(s) over the seeds' limits\n"
                      "  bucketing for the largest measured partition (Nr = 150,000):\n"
                      "  bucketing (shard):"),
            std::string::npos)
      << text;
  std::string json = SizeReportsJson(reports);
  EXPECT_NE(json.find("\"source\":\"histograms\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"bucketing_for_measured_rows\":150000"), std::string::npos) << json;
}

TEST(PartitionMeasureTest, NothingFlushedIsSaid) {
  PagedSession session({{Figures({{"partitions_count", 0}, {"mean_partition_size", 0}})}});
  auto schema = LoadSchema("CREATE TABLE hotel.other (id int PRIMARY KEY);");
  ASSERT_TRUE(schema.ok());
  std::vector<SizeReport> reports = EstimateSchema(*schema, "", SizeAssumptions{});
  MeasureReports(session, *schema, MeasureSource::kEstimates, 100, &reports);
  std::string text = FormatSizeReports(reports);
  EXPECT_NE(text.find("  measured (system.size_estimates): 0 partitions, St mean 0 bytes (0.00 "
                      "kB) as stored\n    no flushed data: the server counts SST files only"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace model
