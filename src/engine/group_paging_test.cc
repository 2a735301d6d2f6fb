// Paging of GROUP BY and aggregate queries (select_statement.cc, design G1-G5): a page holds
// up to `page_size` groups and the next page resumes at the next group exactly, whatever the
// shape of the query; an aggregate without GROUP BY is one row and is never paged.
//
// Each query is run unpaged, then at every page size from 1 to groups + 1: the concatenated
// pages must equal the unpaged result, and every page that hands back a paging state must be
// full. The unpaged results of the main shapes are checked against a model of the data.

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "engine/database.h"
#include "engine/session_testing.h"

namespace engine {
namespace {

using testing::Rows;

class GroupPagingTest : public testing::SessionTest {
 protected:
  // Every page that returns a paging state must be full.
  Rows Fetch(const std::string& query, int page_size) {
    return SessionTest::Fetch(query, page_size, /*full_pages=*/true);
  }
  // `query` paged at every page size from 1 to groups + 1 equals `query` unpaged, which has
  // `expected_groups` rows when that is not -1. Returns the unpaged rows.
  Rows ExpectPagesConcatenate(const std::string& query, int expected_groups = -1) {
    Rows all = Fetch(query, 0);
    if (expected_groups >= 0) {
      EXPECT_EQ(static_cast<int>(all.size()), expected_groups) << query;
    }
    for (int page_size = 1; page_size <= static_cast<int>(all.size()) + 1; ++page_size) {
      EXPECT_EQ(Fetch(query, page_size), all) << query << " page size " << page_size;
      if (HasFailure()) break;
    }
    return all;
  }

  // Fills ks.t (a, b, c) with s static: partitions a = 0..kPartitions-1 with random groups
  // of b, one wide group (a = 0, b = 1: more rows than an index hit holds), one partition
  // with only a static value, and records the rows in `model_`.
  void Populate() {
    Run("CREATE TABLE ks.t (a int, b int, c int, d int, e int, s int STATIC, "
        "PRIMARY KEY (a, b, c))");
    Run("CREATE INDEX ON ks.t (e)");
    std::mt19937 random(20240611);
    for (int a = 0; a < kPartitions; ++a) {
      if (a == kStaticOnly) {
        Run(fmt::format("INSERT INTO ks.t (a, s) VALUES ({}, {})", a, a * 10));
        continue;
      }
      int groups = a == 0 ? 3 : 1 + static_cast<int>(random() % 4);
      for (int b = 0; b < groups; ++b) {
        int rows = a == 0 && b == 1 ? kWideRows : 1 + static_cast<int>(random() % 5);
        for (int c = 0; c < rows; ++c) {
          int d = static_cast<int>(random() % 3);
          int e = a == 0 && b == 1 ? 2 : static_cast<int>(random() % 4);
          Run(fmt::format("INSERT INTO ks.t (a, b, c, d, e) VALUES ({}, {}, {}, {}, {})", a, b * 3,
                          c, d, e));
          model_.push_back({a, b * 3, c, d, e});
        }
      }
      if (a % 2 == 1) Run(fmt::format("UPDATE ks.t SET s = {} WHERE a = {}", a * 10, a));
    }
  }

  // (a, b) -> (count, sum of e) of the rows matching `keep`.
  template <typename Keep>
  std::map<std::pair<int, int>, std::pair<int64_t, int64_t>> ModelGroups(Keep keep) const {
    std::map<std::pair<int, int>, std::pair<int64_t, int64_t>> groups;
    for (const ModelRow& row : model_) {
      if (!keep(row)) continue;
      auto& [count, sum] = groups[{row.a, row.b}];
      ++count;
      sum += row.e;
    }
    return groups;
  }

  // The rows of a result as integers (nulls as -1), sorted: to compare with a model whose
  // order is not the token order.
  static std::vector<std::vector<int64_t>> SortedIntegers(const std::string& query,
                                                          const cql::ResultSet& result) {
    std::vector<std::vector<int64_t>> rows;
    for (size_t r = 0; r < result.row_count(); ++r) {
      std::vector<int64_t> row;
      for (size_t c = 0; c < result.column_count(); ++c) {
        if (result.IsNull(r, c)) {
          row.push_back(-1);
          continue;
        }
        auto value = result.GetInteger(r, c);
        EXPECT_TRUE(value.ok()) << query;
        row.push_back(value.ok() ? *value : -2);
      }
      rows.push_back(std::move(row));
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  struct ModelRow {
    int a, b, c, d, e;
  };
  static constexpr int kPartitions = 9;
  static constexpr int kStaticOnly = 5;
  static constexpr int kWideRows = 300;

  std::vector<ModelRow> model_;
};

TEST_F(GroupPagingTest, GroupsByPartitionAndClusteringMatchTheModel) {
  Populate();
  // GROUP BY a, b: one row per (a, b), the static-only partition included as one group.
  auto groups = ModelGroups([](const ModelRow&) { return true; });
  std::vector<std::vector<int64_t>> expected;
  for (const auto& [key, value] : groups) {
    expected.push_back({key.first, key.second, value.first, value.second});
  }
  // The static-only partition is one group with no b (count 0) and a sum over nothing (0).
  expected.push_back({kStaticOnly, -1, 0, 0});
  std::sort(expected.begin(), expected.end());
  const std::string by_ab = "SELECT a, b, count(b), sum(e) FROM ks.t GROUP BY a, b";
  EXPECT_EQ(SortedIntegers(by_ab, Query(by_ab)), expected);
  ExpectPagesConcatenate(by_ab, static_cast<int>(expected.size()));

  // PER PARTITION LIMIT 2 keeps the first two groups of each partition (b ascending).
  std::vector<std::vector<int64_t>> first_two;
  std::map<int, int> per_partition;
  for (const auto& [key, value] : groups) {
    if (++per_partition[key.first] <= 2) {
      first_two.push_back({key.first, key.second, value.first});
    }
  }
  first_two.push_back({kStaticOnly, -1, 1});  // count(*) counts the static-only row
  std::sort(first_two.begin(), first_two.end());
  const std::string limited = "SELECT a, b, count(*) FROM ks.t GROUP BY a, b PER PARTITION LIMIT 2";
  EXPECT_EQ(SortedIntegers(limited, Query(limited)), first_two);
  ExpectPagesConcatenate(limited, static_cast<int>(first_two.size()));

  // A filter: only the rows with d = 1 form groups.
  auto filtered = ModelGroups([](const ModelRow& row) { return row.d == 1; });
  std::vector<std::vector<int64_t>> expected_filtered;
  for (const auto& [key, value] : filtered) {
    expected_filtered.push_back({key.first, key.second, value.first, value.second});
  }
  const std::string with_filter =
      "SELECT a, b, count(*), sum(e) FROM ks.t WHERE d = 1 GROUP BY a, b ALLOW FILTERING";
  EXPECT_EQ(SortedIntegers(with_filter, Query(with_filter)), expected_filtered);
  ExpectPagesConcatenate(with_filter, static_cast<int>(expected_filtered.size()));

  // Through the index on e: the wide group (all e = 2) spans several index hits.
  auto indexed = ModelGroups([](const ModelRow& row) { return row.e == 2; });
  std::vector<std::vector<int64_t>> expected_indexed;
  for (const auto& [key, value] : indexed) {
    expected_indexed.push_back({key.first, key.second, value.first});
  }
  ASSERT_GE((indexed[std::make_pair(0, 3)].first), kWideRows);
  const std::string through_index = "SELECT a, b, count(*) FROM ks.t WHERE e = 2 GROUP BY a, b";
  EXPECT_EQ(SortedIntegers(through_index, Query(through_index)), expected_indexed);
  ExpectPagesConcatenate(through_index, static_cast<int>(expected_indexed.size()));
}

TEST_F(GroupPagingTest, EveryShapePagesExactlyAtEveryPageSize) {
  Populate();
  const std::vector<std::string> queries = {
      // By partition key, all the aggregates (avg over ints is an int).
      "SELECT a, count(*), min(e), max(e), sum(e), avg(e) FROM ks.t GROUP BY a",
      "SELECT a, b, s, count(b), count(s) FROM ks.t GROUP BY a, b",
      // Every row its own group.
      "SELECT a, b, c, count(*) FROM ks.t GROUP BY a, b, c",
      // Without aggregates: the first row of each group.
      "SELECT a, b, c, d FROM ks.t GROUP BY a, b",
      "SELECT a, b, c, d FROM ks.t GROUP BY a",
      // LIMIT counts groups.
      "SELECT a, b, count(e), max(d) FROM ks.t GROUP BY a, b LIMIT 7",
      "SELECT a, b, c FROM ks.t GROUP BY a, b LIMIT 7",
      "SELECT a, b, count(*) FROM ks.t GROUP BY a, b PER PARTITION LIMIT 1",
      "SELECT a, b, count(*) FROM ks.t GROUP BY a, b PER PARTITION LIMIT 2 LIMIT 5",
      "SELECT a, b, c FROM ks.t GROUP BY a, b PER PARTITION LIMIT 2",
      // Single and several partitions, forwards and reversed.
      "SELECT a, b, count(*), min(c), max(c) FROM ks.t WHERE a = 0 GROUP BY a, b",
      "SELECT a, b, count(*), min(c), max(c) FROM ks.t WHERE a = 0 GROUP BY a, b ORDER BY b DESC",
      "SELECT a, b, c, count(*) FROM ks.t WHERE a = 0 GROUP BY a, b, c ORDER BY b DESC, c DESC "
      "PER PARTITION LIMIT 5",
      "SELECT a, b, count(*) FROM ks.t WHERE a IN (0, 1, 3, 5) GROUP BY a, b",
      "SELECT a, b, count(*) FROM ks.t WHERE a IN (0, 2, 3) GROUP BY a, b PER PARTITION LIMIT 1",
      "SELECT a, b, count(*) FROM ks.t WHERE a = 0 AND b >= 3 GROUP BY a, b",
      // Filtering.
      "SELECT a, b, count(*), sum(e) FROM ks.t WHERE d = 1 GROUP BY a, b ALLOW FILTERING",
      "SELECT a, count(*) FROM ks.t WHERE e < 2 GROUP BY a LIMIT 4 ALLOW FILTERING",
      // Through the index.
      "SELECT a, b, count(*) FROM ks.t WHERE e = 2 GROUP BY a, b",
      "SELECT a, count(*), max(c) FROM ks.t WHERE e = 2 GROUP BY a",
      "SELECT a, b, c FROM ks.t WHERE e = 2 GROUP BY a, b",
      "SELECT a, b, count(*) FROM ks.t WHERE e = 2 GROUP BY a, b PER PARTITION LIMIT 1 LIMIT 4",
      "SELECT a, b, count(*) FROM ks.t WHERE e = 2 AND d = 0 GROUP BY a, b ALLOW FILTERING",
      // DISTINCT groups partitions.
      "SELECT DISTINCT a, s, count(a) FROM ks.t GROUP BY a",
  };
  for (const std::string& query : queries) {
    Rows all = ExpectPagesConcatenate(query);
    EXPECT_GE(all.size(), 2u) << query;  // the pages have something to split
    if (HasFailure()) return;
  }
}

TEST_F(GroupPagingTest, LimitAndPerPartitionLimitCountGroups) {
  Populate();
  // Partition 0 has a group of kWideRows rows: LIMIT counts it once.
  cql::ResultSet limited =
      Query("SELECT a, b, count(*) FROM ks.t WHERE a = 0 GROUP BY a, b LIMIT 2");
  ASSERT_EQ(limited.row_count(), 2u);
  EXPECT_EQ(*limited.GetInteger(1, 1), 3);
  EXPECT_EQ(*limited.GetInteger(1, 2), kWideRows);
  // Paged by one group, the wide group comes whole in the second page.
  cql::QueryOptions options;
  options.page_size = 1;
  const std::string query = "SELECT a, b, count(*) FROM ks.t WHERE a = 0 GROUP BY a, b";
  cql::ResultSet first = Query(query, options);
  ASSERT_EQ(first.row_count(), 1u);
  ASSERT_TRUE(first.paging_state());
  options.paging_state = first.paging_state();
  cql::ResultSet second = Query(query, options);
  ASSERT_EQ(second.row_count(), 1u);
  EXPECT_EQ(*second.GetInteger(0, 1), 3);
  EXPECT_EQ(*second.GetInteger(0, 2), kWideRows);
}

TEST_F(GroupPagingTest, AggregateWithoutGroupByIsOneRowWithoutPagingState) {
  Populate();
  int64_t with_d1 =
      std::count_if(model_.begin(), model_.end(), [](const ModelRow& row) { return row.d == 1; });
  int64_t in_0 =
      std::count_if(model_.begin(), model_.end(), [](const ModelRow& row) { return row.a == 0; });
  struct Case {
    std::string query;
    int64_t count;
  };
  const std::vector<Case> cases = {
      {"SELECT count(*) FROM ks.t", static_cast<int64_t>(model_.size()) + 1},  // + static-only
      {"SELECT count(b) FROM ks.t", static_cast<int64_t>(model_.size())},
      {"SELECT count(*) FROM ks.t WHERE d = 1 ALLOW FILTERING", with_d1},
      {"SELECT count(*) FROM ks.t WHERE a = 0", in_0},
      {"SELECT count(*) FROM ks.t LIMIT 1", static_cast<int64_t>(model_.size()) + 1},
      {"SELECT count(*) FROM ks.t WHERE a = 42", 0},
  };
  for (const Case& test : cases) {
    for (int page_size : {1, 2, 1000}) {
      cql::QueryOptions options;
      options.page_size = page_size;
      cql::ResultSet result = Query(test.query, options);
      ASSERT_EQ(result.row_count(), 1u) << test.query;
      EXPECT_FALSE(result.paging_state()) << test.query;
      EXPECT_EQ(*result.GetInteger(0, 0), test.count) << test.query;
    }
  }
}

TEST_F(GroupPagingTest, TamperedGroupPagingStateIsInvalid) {
  Populate();
  ExpectTamperedPagingStatesRejected("SELECT a, b, count(*) FROM ks.t GROUP BY a, b", 2);
}

}  // namespace
}  // namespace engine
