// RowReader through the embedded engine: reads of several clustering intervals of one
// partition (IN on clustering columns, alone and with slices), forwards and reversed, unpaged
// and paged at several sizes, over partitions with static rows, range tombstones and deleted
// rows, checked against an in-memory model. Covers the reader's positioning between intervals
// (it seeks only when the iterator is not already at or past an interval's start).

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "engine/durability_testing.h"

namespace engine {
namespace {

using testing::DatabaseFixture;

using Key = std::tuple<int, int, int>;  // p, c1, c2
using Row = std::tuple<int, int, int>;  // c1, c2, v

int32_t DecodeInt(std::string_view bytes) {
  common::ByteReader reader(bytes);
  auto value = reader.ReadI32();
  EXPECT_TRUE(value.ok());
  return value.ok() ? *value : -1;
}

std::string List(const std::vector<int>& values) {
  std::string out;
  for (int v : values) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return out;
}

class RowReaderTest : public DatabaseFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(DatabaseFixture::SetUp());
    ASSERT_NO_FATAL_FAILURE(CreateKeyspace());
    Run("CREATE TABLE ks.t (p int, c1 int, c2 int, v int, s int STATIC, "
        "PRIMARY KEY (p, c1, c2))");
  }

  // The rows of `query` (selecting c1, c2, v), fetched in pages of `page_size` (0: unpaged).
  std::vector<Row> Fetch(const std::string& query, int page_size) {
    cql::QueryOptions options;
    options.page_size = page_size;
    std::vector<Row> rows;
    for (int pages = 0; pages < 1000; ++pages) {
      auto result = session_->Execute(query, options);
      EXPECT_TRUE(result.ok()) << query << ": " << result.status().ToString();
      if (!result.ok()) break;
      for (size_t r = 0; r < result->row_count(); ++r) {
        auto c1 = result->Value(r, 0);
        auto c2 = result->Value(r, 1);
        auto v = result->Value(r, 2);
        EXPECT_TRUE(c1 && c2 && v) << query;
        if (!(c1 && c2 && v)) continue;
        rows.emplace_back(DecodeInt(*c1), DecodeInt(*c2), DecodeInt(*v));
      }
      if (!result->paging_state()) break;
      options.paging_state = result->paging_state();
    }
    return rows;
  }

  // The model's rows of partition `p` with c1 in `c1s` and c2 accepted by `c2_ok`, in
  // clustering order (reversed when `reverse`).
  template <typename Pred>
  std::vector<Row> Expected(int p, const std::vector<int>& c1s, Pred c2_ok, bool reverse) const {
    std::vector<Row> rows;
    for (const auto& [key, v] : model_) {
      auto [kp, c1, c2] = key;
      if (kp != p || std::find(c1s.begin(), c1s.end(), c1) == c1s.end() || !c2_ok(c2)) continue;
      rows.emplace_back(c1, c2, v);
    }
    if (reverse) std::reverse(rows.begin(), rows.end());
    return rows;
  }

  void ExpectAllPagings(const std::string& query, const std::vector<Row>& expected) {
    for (int page_size : {0, 1, 2, 3, 7}) {
      EXPECT_EQ(Fetch(query, page_size), expected) << query << " page size " << page_size;
    }
  }

  std::map<Key, int> model_;
};

TEST_F(RowReaderTest, IntervalsOfOnePartitionMatchTheModel) {
  std::mt19937 random(20261121);
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); };
  constexpr int kPartitions = 4;
  constexpr int kC1 = 8;
  constexpr int kC2 = 4;
  for (int p = 0; p < kPartitions; ++p) {
    if (p % 2 == 0)
      Run("UPDATE ks.t SET s = " + std::to_string(p) + " WHERE p = " + std::to_string(p));
    for (int c1 = 0; c1 < kC1; ++c1) {
      for (int c2 = 0; c2 < kC2; ++c2) {
        if (pick(4) == 0) continue;
        int v = pick(1000);
        Run("INSERT INTO ks.t (p, c1, c2, v) VALUES (" + List({p, c1, c2, v}) + ")");
        model_[{p, c1, c2}] = v;
      }
    }
    // Some deleted rows and range tombstones (whole c1 groups and slices of c2).
    for (int i = 0; i < 3; ++i) {
      int c1 = pick(kC1);
      int c2 = pick(kC2);
      Run("DELETE FROM ks.t WHERE p = " + std::to_string(p) + " AND c1 = " + std::to_string(c1) +
          " AND c2 = " + std::to_string(c2));
      model_.erase({p, c1, c2});
    }
    int group = pick(kC1);
    Run("DELETE FROM ks.t WHERE p = " + std::to_string(p) + " AND c1 = " + std::to_string(group));
    for (int c2 = 0; c2 < kC2; ++c2) model_.erase({p, group, c2});
    int sliced = pick(kC1);
    Run("DELETE FROM ks.t WHERE p = " + std::to_string(p) + " AND c1 = " + std::to_string(sliced) +
        " AND c2 >= 2");
    for (int c2 = 2; c2 < kC2; ++c2) model_.erase({p, sliced, c2});
  }

  for (int round = 0; round < 12; ++round) {
    int p = pick(kPartitions);
    // Distinct c1 values in random order, some adjacent, some not in the data.
    std::set<int> chosen;
    int count = 1 + pick(5);
    while (static_cast<int>(chosen.size()) < count) chosen.insert(pick(kC1 + 2));
    std::vector<int> c1s(chosen.begin(), chosen.end());
    std::shuffle(c1s.begin(), c1s.end(), random);
    int low = pick(kC2);
    std::string where = "WHERE p = " + std::to_string(p) + " AND c1 IN (" + List(c1s) + ")";
    for (bool reverse : {false, true}) {
      std::string order = reverse ? " ORDER BY c1 DESC, c2 DESC" : "";
      ExpectAllPagings("SELECT c1, c2, v FROM ks.t " + where + order,
                       Expected(
                           p, c1s, [](int) { return true; }, reverse));
      ExpectAllPagings(
          "SELECT c1, c2, v FROM ks.t " + where + " AND c2 >= " + std::to_string(low) + order,
          Expected(
              p, c1s, [&](int c2) { return c2 >= low; }, reverse));
      std::vector<int> c2s = {kC2 - 1, low};
      if (low == kC2 - 1) c2s.pop_back();
      ExpectAllPagings(
          "SELECT c1, c2, v FROM ks.t " + where + " AND c2 IN (" + List(c2s) + ")" + order,
          Expected(
              p, c1s, [&](int c2) { return std::find(c2s.begin(), c2s.end(), c2) != c2s.end(); },
              reverse));
    }
    if (HasFailure()) break;
  }
}

TEST_F(RowReaderTest, SingleRowReadsAfterPartitionLevelEntries) {
  // A partition whose row section is preceded by a partition tombstone, a static row and a
  // range tombstone: the reader is left on the first row after reading them.
  Run("INSERT INTO ks.t (p, c1, c2, v) VALUES (1, 0, 0, 1) USING TIMESTAMP 10");
  Run("DELETE FROM ks.t USING TIMESTAMP 20 WHERE p = 1");
  Run("UPDATE ks.t USING TIMESTAMP 30 SET s = 5 WHERE p = 1");
  Run("INSERT INTO ks.t (p, c1, c2, v) VALUES (1, 1, 0, 2) USING TIMESTAMP 30");
  Run("INSERT INTO ks.t (p, c1, c2, v) VALUES (1, 2, 0, 3) USING TIMESTAMP 30");
  Run("INSERT INTO ks.t (p, c1, c2, v) VALUES (1, 3, 0, 4) USING TIMESTAMP 30");
  Run("DELETE FROM ks.t USING TIMESTAMP 40 WHERE p = 1 AND c1 = 2");
  EXPECT_EQ(Fetch("SELECT c1, c2, v FROM ks.t WHERE p = 1 AND c1 = 0 AND c2 = 0", 0),
            std::vector<Row>{});
  EXPECT_EQ(Fetch("SELECT c1, c2, v FROM ks.t WHERE p = 1 AND c1 = 1 AND c2 = 0", 0),
            (std::vector<Row>{{1, 0, 2}}));
  EXPECT_EQ(Fetch("SELECT c1, c2, v FROM ks.t WHERE p = 1 AND c1 = 2 AND c2 = 0", 0),
            std::vector<Row>{});
  EXPECT_EQ(Fetch("SELECT c1, c2, v FROM ks.t WHERE p = 1 AND c1 = 3 AND c2 = 0", 0),
            (std::vector<Row>{{3, 0, 4}}));
  EXPECT_EQ(Fetch("SELECT c1, c2, v FROM ks.t WHERE p = 1 AND c1 IN (0, 1, 2, 3) AND c2 = 0", 0),
            (std::vector<Row>{{1, 0, 2}, {3, 0, 4}}));
  EXPECT_EQ(Fetch("SELECT c1, c2, v FROM ks.t WHERE p = 1 AND c1 IN (3, 1) AND c2 = 0", 1),
            (std::vector<Row>{{1, 0, 2}, {3, 0, 4}}));
}

// Tables without clustering columns are read with point reads (RowReader's single-row path):
// the partition tombstone, row deletions, cell tombstones, TTL expiry and row liveness must
// give what the iterator path gives.
TEST_F(RowReaderTest, PartitionWithoutClusteringColumns) {
  Run("CREATE TABLE ks.kv (k int PRIMARY KEY, a int, b int)");
  auto fetch = [&](const std::string& where) {
    std::vector<std::tuple<int, int, int>> rows;  // k, a (-1: null), b (-1: null)
    cql::ResultSet result = Query("SELECT k, a, b FROM ks.kv WHERE " + where);
    for (size_t r = 0; r < result.row_count(); ++r) {
      auto k = result.Value(r, 0);
      auto a = result.Value(r, 1);
      auto b = result.Value(r, 2);
      rows.emplace_back(k ? DecodeInt(*k) : -1, a ? DecodeInt(*a) : -1, b ? DecodeInt(*b) : -1);
    }
    return rows;
  };
  using Rows = std::vector<std::tuple<int, int, int>>;
  EXPECT_EQ(fetch("k = 1"), Rows{});
  Run("INSERT INTO ks.kv (k, a, b) VALUES (1, 10, 100) USING TIMESTAMP 10");
  EXPECT_EQ(fetch("k = 1"), (Rows{{1, 10, 100}}));
  // A partition deletion shadows older data, not newer.
  Run("DELETE FROM ks.kv USING TIMESTAMP 20 WHERE k = 1");
  EXPECT_EQ(fetch("k = 1"), Rows{});
  Run("UPDATE ks.kv USING TIMESTAMP 15 SET a = 11 WHERE k = 1");
  EXPECT_EQ(fetch("k = 1"), Rows{});
  Run("UPDATE ks.kv USING TIMESTAMP 25 SET a = 12 WHERE k = 1");
  EXPECT_EQ(fetch("k = 1"), (Rows{{1, 12, -1}}));
  // A row kept alive only by a cell disappears with the cell's deletion (no marker).
  Run("DELETE a FROM ks.kv USING TIMESTAMP 26 WHERE k = 1");
  EXPECT_EQ(fetch("k = 1"), Rows{});
  // An INSERT's marker keeps the row with all columns null.
  Run("INSERT INTO ks.kv (k) VALUES (2) USING TIMESTAMP 30");
  EXPECT_EQ(fetch("k = 2"), (Rows{{2, -1, -1}}));
  // TTL: the cell and the marker expire.
  Run("INSERT INTO ks.kv (k, a) VALUES (3, 30) USING TTL 10");
  Run("UPDATE ks.kv SET b = 300 WHERE k = 3");
  EXPECT_EQ(fetch("k = 3"), (Rows{{3, 30, 300}}));
  AdvanceSeconds(11);
  EXPECT_EQ(fetch("k = 3"), (Rows{{3, -1, 300}}));
  // Several partitions (IN), some missing, in token order as the iterator path gives them.
  Rows in = fetch("k IN (3, 1, 2, 4)");
  std::sort(in.begin(), in.end());
  EXPECT_EQ(in, (Rows{{2, -1, -1}, {3, -1, 300}}));
  // Paged reads resume after a partition's row key (the iterator path).
  cql::QueryOptions options;
  options.page_size = 1;
  auto first = session_->Execute("SELECT k FROM ks.kv WHERE k IN (2, 3)", options);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->row_count(), 1u);
}

}  // namespace
}  // namespace engine
