#include "engine/table_statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "common/metrics.h"
#include "engine/session_testing.h"

namespace engine {
namespace {

using common::metrics::Registry;

// The value of the sample `series` (name{labels} exactly as rendered) in /metrics; -1 if absent.
double Sample(const std::string& series) {
  const std::string text = Registry::Global().RenderPrometheus();
  const size_t at = text.find("\n" + series + " ");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + series.size() + 2));
}

double Statements(const std::string& kind) {
  return Registry::Global().Value("cqld_cql_statements_total", {{"kind", kind}});
}

class TableStatisticsTest : public testing::SessionTest {
 protected:
  void Fill(int partitions, int rows) {
    Run("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))");
    for (int k = 0; k < partitions; ++k) {
      for (int c = 0; c < rows; ++c) {
        Run(fmt::format("INSERT INTO ks.t (k, c, v) VALUES ({}, {}, '{}')", k, c,
                        std::string(100, 'x')));
      }
    }
  }
};

TEST_F(TableStatisticsTest, FiguresAfterFlushMatchWhatWasWritten) {
  Fill(10, 3);
  auto in_memtable = db_->TableStatistics("ks", "t");
  ASSERT_TRUE(in_memtable.ok()) << in_memtable.status().ToString();
  EXPECT_EQ(in_memtable->estimated_partition_count, 0u);  // memtables are not counted
  EXPECT_EQ(in_memtable->memtable_cell_count, 30u);
  EXPECT_EQ(in_memtable->local_write_count, 30u);

  ASSERT_TRUE(db_->Purge().ok());  // compaction flushes first
  for (int k = 0; k < 5; ++k) Query(fmt::format("SELECT * FROM ks.t WHERE k = {}", k));
  auto statistics = db_->TableStatistics("ks", "t");
  ASSERT_TRUE(statistics.ok()) << statistics.status().ToString();
  EXPECT_EQ(statistics->keyspace, "ks");
  EXPECT_EQ(statistics->table, "t");
  EXPECT_EQ(statistics->sstable_count, 1u);
  EXPECT_GT(statistics->space_used_live_bytes, 0u);
  EXPECT_EQ(statistics->estimated_partition_count, 10u);
  EXPECT_EQ(statistics->sstables_without_partition_statistics, 0u);
  // Each partition: 3 rows of more than 100 bytes, all the same size.
  EXPECT_GT(statistics->partition_min_bytes, 300u);
  EXPECT_EQ(statistics->partition_min_bytes, statistics->partition_max_bytes);
  EXPECT_EQ(statistics->partition_mean_bytes, statistics->partition_max_bytes);
  EXPECT_DOUBLE_EQ(statistics->mean_rows_per_partition, 3.0);
  EXPECT_EQ(statistics->local_read_count, 5u);
  EXPECT_GT(statistics->local_read_latency_ms, 0.0);
  EXPECT_EQ(statistics->local_write_count, 30u);
  EXPECT_GT(statistics->bloom_filter_space_used_bytes, 0u);
  EXPECT_GT(statistics->compression_ratio, 0.0);

  auto histograms = db_->TableHistograms("ks", "t");
  ASSERT_TRUE(histograms.ok()) << histograms.status().ToString();
  ASSERT_EQ(histograms->rows.size(), 7u);
  EXPECT_EQ(histograms->rows[0].percentile, "50%");
  EXPECT_EQ(histograms->rows[6].percentile, "Max");
  EXPECT_EQ(histograms->rows[6].partition_size_bytes,
            static_cast<double>(statistics->partition_max_bytes));
  EXPECT_EQ(histograms->rows[5].partition_size_bytes,
            static_cast<double>(statistics->partition_min_bytes));
  EXPECT_GE(histograms->rows[6].cell_count, 3.0);
  EXPECT_LE(histograms->rows[5].cell_count, 3.0);
  EXPECT_GT(histograms->rows[0].read_latency_micros, 0.0);
  EXPECT_LE(histograms->rows[0].read_latency_micros, histograms->rows[6].read_latency_micros);
  EXPECT_EQ(histograms->read_latency_seconds.count, 5u);
}

TEST_F(TableStatisticsTest, UnknownTablesAndListing) {
  Fill(1, 1);
  Run("CREATE MATERIALIZED VIEW ks.by_v AS SELECT * FROM ks.t WHERE v IS NOT NULL AND k IS NOT "
      "NULL AND c IS NOT NULL PRIMARY KEY (v, k, c)");
  EXPECT_EQ(db_->TableStatistics("ks", "nope").status().code(), common::StatusCode::kInvalid);
  EXPECT_EQ(db_->TableHistograms("nope", "t").status().code(), common::StatusCode::kInvalid);
  EXPECT_EQ(db_->AllTableStatistics("nope").status().code(), common::StatusCode::kInvalid);
  auto all = db_->AllTableStatistics();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);  // no system tables
  EXPECT_EQ((*all)[0].table, "by_v");
  EXPECT_TRUE((*all)[0].is_view);
  EXPECT_EQ((*all)[1].table, "t");
  EXPECT_TRUE(std::isnan(db_->TableStatistics("ks", "by_v")->local_read_latency_ms));
}

TEST_F(TableStatisticsTest, RequestMetricsMove) {
  Fill(1, 1);
  const double selects = Statements("SELECT");
  const double inserts = Statements("INSERT");
  const double batches = Statements("BATCH");
  const double reads = Sample("cqld_client_request_latency_seconds_count{scope=\"Read\"}");
  const double ranges = Sample("cqld_client_request_latency_seconds_count{scope=\"RangeSlice\"}");
  const double cas = Sample("cqld_client_request_latency_seconds_count{scope=\"CASWrite\"}");
  const double not_met = Registry::Global().Value("cqld_client_request_condition_not_met_total",
                                                  {{"scope", "CASWrite"}});
  const double failures =
      Registry::Global().Value("cqld_client_request_failures_total", {{"scope", "Read"}});
  Query("SELECT * FROM ks.t WHERE k = 0");
  Query("SELECT * FROM ks.t");
  Run("INSERT INTO ks.t (k, c, v) VALUES (7, 7, 'a') IF NOT EXISTS");
  Run("INSERT INTO ks.t (k, c, v) VALUES (7, 7, 'b') IF NOT EXISTS");  // not applied
  Run("BEGIN BATCH INSERT INTO ks.t (k, c) VALUES (8, 8) APPLY BATCH");
  EXPECT_FALSE(session_->Execute("SELECT * FROM ks.t WHERE k = 0 AND v = 'x'").ok());
  EXPECT_EQ(Statements("SELECT"), selects + 2);  // the refused one never ran
  EXPECT_EQ(Statements("INSERT"), inserts + 2);
  EXPECT_EQ(Statements("BATCH"), batches + 1);
  EXPECT_EQ(Sample("cqld_client_request_latency_seconds_count{scope=\"Read\"}"), reads + 1);
  EXPECT_EQ(Sample("cqld_client_request_latency_seconds_count{scope=\"RangeSlice\"}"), ranges + 1);
  EXPECT_EQ(Sample("cqld_client_request_latency_seconds_count{scope=\"CASWrite\"}"), cas + 2);
  EXPECT_EQ(Registry::Global().Value("cqld_client_request_condition_not_met_total",
                                     {{"scope", "CASWrite"}}),
            not_met + 1);
  // The failed SELECT was refused while preparing (ALLOW FILTERING): it never ran.
  EXPECT_EQ(Registry::Global().Value("cqld_client_request_failures_total", {{"scope", "Read"}}),
            failures);
}

TEST_F(TableStatisticsTest, PerDatabaseSamplesGoWhenTheDatabaseCloses) {
  Run("CREATE KEYSPACE gone WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1}");
  Run("CREATE TABLE gone.t (k int PRIMARY KEY, v int)");
  Run("INSERT INTO gone.t (k, v) VALUES (1, 1)");
  Query("SELECT * FROM gone.t WHERE k = 1");
  const std::string series = "cqld_table_live_sstable_count{keyspace=\"gone\",table=\"t\"}";
  EXPECT_EQ(Sample(series), 0);
  EXPECT_EQ(Sample("cqld_table_read_latency_seconds_count{keyspace=\"gone\",table=\"t\"}"), 1);
  EXPECT_GE(Sample("cqld_prepared_statements_count"), 1);
  ASSERT_TRUE(db_->Purge().ok());
  EXPECT_EQ(Sample(series), 1);
  EXPECT_EQ(Sample("cqld_table_estimated_partition_count{keyspace=\"gone\",table=\"t\"}"), 1);
  session_.reset();
  db_.reset();
  EXPECT_EQ(Sample(series), -1);
}

}  // namespace
}  // namespace engine
