#include "model/partition_measure.h"

#include <gtest/gtest.h>

#include "model/partition_size.h"

namespace model {
namespace {

// A session that answers the n-th query with the n-th page; a page followed by its table's next
// page carries a paging state, which the next query must send back. Records the queries.
class PagedSession : public cql::Session {
 public:
  struct Answer {
    cql::ResultSet page;
    bool more = false;  // the next answer continues this table
  };
  explicit PagedSession(std::vector<Answer> answers) : answers_(std::move(answers)) {}

  common::Result<cql::ResultSet> Execute(std::string_view query,
                                         const cql::QueryOptions& options) override {
    queries_.emplace_back(query);
    bool continues = next_ > 0 && answers_[next_ - 1].more;
    if (options.paging_state.has_value() != continues) {
      return common::Status::Invalid("wrong paging state");
    }
    if (next_ >= answers_.size()) return common::Status::Invalid("unexpected page");
    cql::ResultSet page = answers_[next_].page;
    if (answers_[next_].more) page.set_paging_state("more");
    ++next_;
    return page;
  }
  common::Result<std::shared_ptr<const cql::PreparedMetadata>> Prepare(std::string_view) override {
    return common::Status::Invalid("not used");
  }
  common::Result<cql::ResultSet> ExecutePrepared(const cql::PreparedMetadata&,
                                                 const cql::QueryOptions&) override {
    return common::Status::Invalid("not used");
  }
  common::Result<cql::ResultSet> ExecuteBatch(const cql::BatchRequest&) override {
    return common::Status::Invalid("not used");
  }
  std::string keyspace() const override { return ""; }

  const std::vector<std::string>& queries() const { return queries_; }

 private:
  std::vector<Answer> answers_;
  size_t next_ = 0;
  std::vector<std::string> queries_;
};

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
  MeasureReports(session, *schema, 100, &reports);
  ASSERT_EQ(reports.size(), 2u);
  ASSERT_TRUE(reports[0].measured.has_value());
  EXPECT_EQ(reports[0].measured->partitions, 1);
  EXPECT_EQ(reports[1].measure_error, "unexpected page");
  std::string text = FormatSizeReports(reports);
  EXPECT_NE(text.find("  measured: 1 partitions (1 rows read)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  measured: failed: unexpected page\n"), std::string::npos);
  EXPECT_NE(SizeReportsJson(reports).find("\"measured\":{\"partitions\":1,"), std::string::npos);
}

}  // namespace
}  // namespace model
