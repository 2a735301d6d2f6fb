// Queries through secondary indexes against the same queries with ALLOW FILTERING on an
// identical table without indexes, after random writes, at every page size.

#include "engine/index_scan.h"

#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "cql/types/value_codec.h"
#include "engine/database.h"
#include "engine/session_testing.h"

namespace engine {
namespace {

using testing::Rows;

class IndexScanTest : public testing::SessionTest {
 protected:
  // `query` with every "{t}" replaced by `table`.
  static std::string On(std::string query, std::string_view table) {
    for (size_t at = query.find("{t}"); at != std::string::npos; at = query.find("{t}", at)) {
      query.replace(at, 3, table);
    }
    return query;
  }
  // Runs `query` on both tables ("{t}" stands for the table name).
  void RunBoth(const std::string& query) {
    Run(On(query, "t"));
    Run(On(query, "u"));
  }
  // `query` on the indexed table `t`, at every page size, returns what the same query with
  // ALLOW FILTERING returns on the unindexed twin `u`. With `filtering`, the indexed query
  // needs ALLOW FILTERING too (it restricts more than the indexed column); it still reads
  // through the index.
  void ExpectSameAsFiltering(const std::string& query, bool filtering = false) {
    std::string indexed = On(query, "t") + (filtering ? " ALLOW FILTERING" : "");
    std::string filtered = On(query, "u") + " ALLOW FILTERING";
    Rows expected = Fetch(filtered, 0);
    ASSERT_EQ(Fetch(indexed, 0), expected) << indexed;
    for (int page_size = 1; page_size <= static_cast<int>(expected.size()) + 1; ++page_size) {
      ASSERT_EQ(Fetch(indexed, page_size), expected) << indexed << " page size " << page_size;
    }
  }
};

TEST_F(IndexScanTest, RandomWritesThenEveryQueryAtEveryPageSizeMatchesFiltering) {
  RunBoth(
      "CREATE TABLE ks.{t} (k int, c int, v int, w int, tags set<int>, m map<int, int>, "
      "PRIMARY KEY (k, c))");
  Run("CREATE INDEX ON ks.t (v)");
  Run("CREATE INDEX ON ks.t (tags)");
  Run("CREATE INDEX ON ks.t (c)");
  Run("CREATE INDEX ON ks.t (ENTRIES(m))");
  std::mt19937 random(20261121);
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); };
  // Small domains and timestamps so that overwrites, ties, late writes and deletions of every
  // kind happen often.
  for (int op = 0; op < 300; ++op) {
    int k = pick(5);
    int c = pick(4);
    int x = pick(3);
    std::string using_ts = fmt::format("USING TIMESTAMP {}", 1 + pick(60));
    switch (pick(9)) {
      case 0:
      case 1:
        RunBoth(fmt::format("INSERT INTO ks.{{t}} (k, c, v, w) VALUES ({}, {}, {}, {}) {}", k, c, x,
                            pick(3), using_ts));
        break;
      case 2:
        RunBoth(fmt::format("UPDATE ks.{{t}} {} SET v = {} WHERE k = {} AND c = {}", using_ts, x, k,
                            c));
        break;
      case 3:
        RunBoth(
            fmt::format("UPDATE ks.{{t}} {} SET tags = tags + {{{}}}, m[{}] = {} WHERE k = {} "
                        "AND c = {}",
                        using_ts, x, pick(2), x, k, c));
        break;
      case 4:
        RunBoth(fmt::format("UPDATE ks.{{t}} {} SET tags = tags - {{{}}} WHERE k = {} AND c = {}",
                            using_ts, x, k, c));
        break;
      case 5:
        RunBoth(fmt::format("DELETE v FROM ks.{{t}} {} WHERE k = {} AND c = {}", using_ts, k, c));
        break;
      case 6:
        RunBoth(fmt::format("DELETE FROM ks.{{t}} {} WHERE k = {} AND c = {}", using_ts, k, c));
        break;
      case 7:
        RunBoth(fmt::format("DELETE FROM ks.{{t}} {} WHERE k = {} AND c >= {}", using_ts, k, c));
        break;
      default:
        if (pick(3) == 0) RunBoth(fmt::format("DELETE FROM ks.{{t}} {} WHERE k = {}", using_ts, k));
        break;
    }
    if (HasFatalFailure()) return;
  }
  for (int x = 0; x < 3; ++x) {
    ExpectSameAsFiltering(fmt::format("SELECT k, c, v, w FROM ks.{{t}} WHERE v = {}", x));
    ExpectSameAsFiltering(fmt::format("SELECT k, c FROM ks.{{t}} WHERE k = 2 AND v = {}", x));
    ExpectSameAsFiltering(
        fmt::format("SELECT k, c FROM ks.{{t}} WHERE k = 2 AND c > 0 AND v = {}", x));
    ExpectSameAsFiltering(fmt::format("SELECT k, c FROM ks.{{t}} WHERE v = {} AND w = 1", x),
                          /*filtering=*/true);
    ExpectSameAsFiltering(fmt::format("SELECT k, c FROM ks.{{t}} WHERE v = {} LIMIT 3", x));
    ExpectSameAsFiltering(
        fmt::format("SELECT k, c FROM ks.{{t}} WHERE v = {} PER PARTITION LIMIT 1", x));
    ExpectSameAsFiltering(
        fmt::format("SELECT k, c FROM ks.{{t}} WHERE token(k) >= 0 AND v = {}", x));
    ExpectSameAsFiltering(fmt::format("SELECT count(*) FROM ks.{{t}} WHERE v = {}", x));
    ExpectSameAsFiltering(fmt::format("SELECT k, c, tags FROM ks.{{t}} WHERE tags CONTAINS {}", x));
    ExpectSameAsFiltering(fmt::format("SELECT k, v FROM ks.{{t}} WHERE c = {}", x));
    ExpectSameAsFiltering(fmt::format("SELECT k, c, m FROM ks.{{t}} WHERE m[1] = {}", x));
    if (HasFatalFailure()) return;
  }
}

TEST_F(IndexScanTest, WidePartitionsSplitIntoSeveralHitsPageExactly) {
  RunBoth("CREATE TABLE ks.{t} (k int, c int, v int, PRIMARY KEY (k, c))");
  Run("CREATE INDEX ON ks.t (v)");
  // Partition 1 holds more matching rows than one hit carries.
  constexpr int kRows = static_cast<int>(IndexScan::kMaxRowsPerHit) * 2 + 10;
  for (int c = 0; c < kRows; ++c) {
    RunBoth(
        fmt::format("INSERT INTO ks.{{t}} (k, c, v) VALUES (1, {}, {})", c, c % 3 == 0 ? 1 : 0));
  }
  for (int k = 2; k < 6; ++k)
    RunBoth(fmt::format("INSERT INTO ks.{{t}} (k, c, v) VALUES ({}, 0, 1)", k));
  for (const char* query :
       {"SELECT k, c FROM ks.{t} WHERE v = 1", "SELECT k, c FROM ks.{t} WHERE v = 0",
        "SELECT k, c FROM ks.{t} WHERE v = 0 PER PARTITION LIMIT 300",
        "SELECT k, c FROM ks.{t} WHERE v = 0 LIMIT 400"}) {
    std::string indexed = On(query, "t");
    std::string filtered = On(query, "u") + " ALLOW FILTERING";
    Rows expected = Fetch(filtered, 0);
    EXPECT_EQ(Fetch(indexed, 0), expected) << indexed;
    for (int page_size : {3, 100, 255, 256, 257, 1000}) {
      EXPECT_EQ(Fetch(indexed, page_size), expected) << indexed << " page size " << page_size;
    }
  }
}

TEST_F(IndexScanTest, StaticColumnIndexesAndDistinctPage) {
  RunBoth("CREATE TABLE ks.{t} (k int, c int, s int STATIC, v int, PRIMARY KEY (k, c))");
  Run("CREATE INDEX ON ks.t (s)");
  for (int k = 0; k < 8; ++k) {
    for (int c = 0; c < 3; ++c) {
      RunBoth(
          fmt::format("INSERT INTO ks.{{t}} (k, c, s, v) VALUES ({}, {}, {}, {})", k, c, k % 2, c));
    }
  }
  RunBoth("UPDATE ks.{t} SET s = 1 WHERE k = 2");
  RunBoth("DELETE FROM ks.{t} WHERE k = 3 AND c = 1");
  for (int s = 0; s < 2; ++s) {
    ExpectSameAsFiltering(fmt::format("SELECT k, c, s, v FROM ks.{{t}} WHERE s = {}", s));
    ExpectSameAsFiltering(fmt::format("SELECT DISTINCT k, s FROM ks.{{t}} WHERE s = {}", s));
    ExpectSameAsFiltering(
        fmt::format("SELECT k, c FROM ks.{{t}} WHERE s = {} PER PARTITION LIMIT 2", s));
    ExpectSameAsFiltering(fmt::format("SELECT k, c FROM ks.{{t}} WHERE s = {} AND v = 1", s),
                          /*filtering=*/true);
    if (HasFatalFailure()) return;
  }
}

// A partition holding only static data (no rows) is a row of its own for SELECT. Change
// capture (row_change.h) reports changes per clustered row only, so such a partition never
// reaches a static column index: enable once static-only changes are captured.
TEST_F(IndexScanTest, StaticOnlyPartitionsAreFound) {
  RunBoth("CREATE TABLE ks.{t} (k int, c int, s int STATIC, v int, PRIMARY KEY (k, c))");
  Run("CREATE INDEX ON ks.t (s)");
  RunBoth("INSERT INTO ks.{t} (k, s) VALUES (1, 7)");
  RunBoth("INSERT INTO ks.{t} (k, c, s) VALUES (2, 1, 7)");
  RunBoth("DELETE FROM ks.{t} WHERE k = 2 AND c = 1");
  ExpectSameAsFiltering("SELECT k, c, s FROM ks.{t} WHERE s = 7");
}

TEST_F(IndexScanTest, TamperedPagingStateThroughAnIndexIsInvalid) {
  Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
  Run("CREATE INDEX ON ks.t (v)");
  for (int k = 0; k < 3; ++k) Run(fmt::format("INSERT INTO ks.t (k, c, v) VALUES ({}, 0, 1)", k));
  ExpectTamperedPagingStatesRejected("SELECT k FROM ks.t WHERE v = 1", 1);
}

}  // namespace
}  // namespace engine
