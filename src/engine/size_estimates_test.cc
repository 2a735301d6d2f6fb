// Tests of system.size_estimates and system_views.partition_histograms: their definitions in the
// schema tables, rows from the flushed SST files of every user table, the whole ring as one
// range, and writes refused with Cassandra's wording.

#include "engine/size_estimates.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "cql/types/value_codec.h"
#include "engine/node_operations.h"
#include "engine/session_testing.h"

namespace engine {
namespace {

class SizeEstimatesTest : public testing::SessionTest {
 protected:
  std::vector<std::string> Texts(const std::string& query) {
    std::vector<std::string> out;
    for (const auto& row : Fetch(query, 0)) out.push_back(row[0].value_or("null"));
    return out;
  }
  // The bigint columns of the one row of `query`.
  std::vector<int64_t> Bigints(const std::string& query) {
    testing::Rows rows = Fetch(query, 0);
    EXPECT_EQ(rows.size(), 1u) << query;
    std::vector<int64_t> out;
    if (rows.size() != 1) return out;
    for (const auto& value : rows[0]) {
      out.push_back(value ? cql::DeserializeBigint(*value).value() : -1);
    }
    return out;
  }
  // Table `t`: `partitions` partitions of `rows` rows each, then flushed to one SST file.
  void Fill(int partitions, int rows) {
    Run("CREATE TABLE ks.t (p int, c int, v text, PRIMARY KEY (p, c))");
    for (int p = 0; p < partitions; ++p) {
      for (int c = 0; c < rows; ++c) {
        Run(fmt::format("INSERT INTO ks.t (p, c, v) VALUES ({}, {}, 'value-{}')", p, c, c));
      }
    }
    ASSERT_TRUE(NodeOperations(db_.get()).Flush("ks", {}).ok());
  }
};

TEST_F(SizeEstimatesTest, DescribedAsCassandraDescribesThem) {
  EXPECT_EQ(Texts("SELECT column_name FROM system_schema.columns WHERE keyspace_name = 'system' "
                  "AND table_name = 'size_estimates'"),
            (std::vector<std::string>{"keyspace_name", "mean_partition_size", "partitions_count",
                                      "range_end", "range_start", "table_name"}));
  EXPECT_EQ(Texts("SELECT kind FROM system_schema.columns WHERE keyspace_name = 'system' AND "
                  "table_name = 'size_estimates' AND column_name = 'range_end'"),
            (std::vector<std::string>{"clustering"}));
  EXPECT_EQ(Texts("SELECT table_name FROM system_virtual_schema.tables WHERE keyspace_name = "
                  "'system_views' AND table_name = 'partition_histograms'"),
            (std::vector<std::string>{"partition_histograms"}));
  // A system table, not a virtual one: not in system_virtual_schema.
  EXPECT_TRUE(Texts("SELECT table_name FROM system_virtual_schema.tables WHERE keyspace_name = "
                    "'system' ALLOW FILTERING")
                  .empty());
}

TEST_F(SizeEstimatesTest, OneRangePerTableFromTheFlushedFiles) {
  Fill(/*partitions=*/20, /*rows=*/5);
  Run("CREATE TABLE ks.empty (k int PRIMARY KEY)");
  EXPECT_EQ(Texts("SELECT table_name FROM system.size_estimates WHERE keyspace_name = 'ks'"),
            (std::vector<std::string>{"empty", "t"}));
  testing::Rows rows = Fetch(
      "SELECT range_start, range_end FROM system.size_estimates WHERE keyspace_name = 'ks' "
      "AND table_name = 't'",
      0);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(*rows[0][0], kMinTokenText);
  EXPECT_EQ(*rows[0][1], kMaxTokenText);
  std::vector<int64_t> t = Bigints(
      "SELECT partitions_count, mean_partition_size FROM system.size_estimates WHERE "
      "keyspace_name = 'ks' AND table_name = 't'");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0], 20);
  // Five rows of a few dozen bytes each (keys, a text value, row-fragment headers).
  EXPECT_GT(t[1], 5 * 10);
  EXPECT_LT(t[1], 5 * 200);
  EXPECT_EQ(Bigints("SELECT partitions_count, mean_partition_size FROM system.size_estimates "
                    "WHERE keyspace_name = 'ks' AND table_name = 'empty'"),
            (std::vector<int64_t>{0, 0}));
  // System keyspaces are not listed, as in Cassandra.
  EXPECT_TRUE(
      Texts("SELECT table_name FROM system.size_estimates WHERE keyspace_name = 'system'").empty());
}

TEST_F(SizeEstimatesTest, HistogramsOfSizesAndRows) {
  Fill(/*partitions=*/10, /*rows=*/3);
  Run("INSERT INTO ks.t (p, c, v) VALUES (100, 0, 'x')");  // in the memtable: not counted yet
  std::vector<int64_t> figures = Bigints(
      "SELECT partitions, sstables_without_statistics, min_rows, p50_rows, max_rows, min_bytes, "
      "p99_bytes, max_bytes, mean_bytes FROM system_views.partition_histograms WHERE "
      "keyspace_name = 'ks' AND table_name = 't'");
  ASSERT_EQ(figures.size(), 9u);
  EXPECT_EQ(figures[0], 10);
  EXPECT_EQ(figures[1], 0);
  // Three rows a partition: bucket bounds around 3, five buckets a decade (2.51 .. 3.98).
  EXPECT_GE(figures[2], 2);
  EXPECT_LE(figures[4], 4);
  EXPECT_GE(figures[3], figures[2]);
  EXPECT_LE(figures[3], figures[4]);
  // Sizes: exact extremes, percentiles within them, the mean between.
  EXPECT_GT(figures[5], 0);
  EXPECT_LE(figures[5], figures[6]);
  EXPECT_LE(figures[6], figures[7]);
  EXPECT_GE(figures[8], figures[5]);
  EXPECT_LE(figures[8], figures[7]);
  ASSERT_TRUE(NodeOperations(db_.get()).Flush("ks", {}).ok());
  EXPECT_EQ(Bigints("SELECT partitions FROM system_views.partition_histograms WHERE "
                    "keyspace_name = 'ks' AND table_name = 't'"),
            (std::vector<int64_t>{11}));
}

TEST_F(SizeEstimatesTest, ReadOnly) {
  struct Case {
    const char* statement;
    common::StatusCode code;
    const char* message;
  };
  for (const Case& c : {
           Case{"INSERT INTO system.size_estimates (keyspace_name, table_name, range_start, "
                "range_end, partitions_count) VALUES ('ks', 't', '0', '1', 5)",
                common::StatusCode::kUnauthorized, "system keyspace is not user-modifiable."},
           Case{"DELETE FROM system.size_estimates WHERE keyspace_name = 'ks'",
                common::StatusCode::kUnauthorized, "system keyspace is not user-modifiable."},
           Case{"UPDATE system_views.partition_histograms SET partitions = 1 WHERE "
                "keyspace_name = 'ks' AND table_name = 't'",
                common::StatusCode::kInvalid,
                "Modification is not supported by table system_views.partition_histograms"},
       }) {
    auto result = session_->Execute(c.statement);
    ASSERT_FALSE(result.ok()) << c.statement;
    EXPECT_EQ(result.status().code(), c.code) << c.statement;
    EXPECT_EQ(result.status().message(), c.message) << c.statement;
  }
}

}  // namespace
}  // namespace engine
