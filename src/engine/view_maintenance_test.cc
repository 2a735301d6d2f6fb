#include "engine/view_maintenance.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/clock.h"
#include "cql/types/value_format.h"
#include "engine/database.h"
#include "engine/session_testing.h"
#include "storage/cell_merge.h"

namespace engine {
namespace {

using storage::Cell;
using storage::CellKind;
using storage::DeletionTime;
using storage::LivenessInfo;
using storage::RowFragment;

// --- ReconcileViewRow: the stored row merged with the result reads as the desired row. ------

Cell Live(uint32_t column, int64_t timestamp, std::string value) {
  Cell cell;
  cell.column_id = column;
  cell.timestamp = timestamp;
  cell.value = std::move(value);
  return cell;
}

Cell Expiring(uint32_t column, int64_t timestamp, std::string value, int64_t expiry) {
  Cell cell = Live(column, timestamp, std::move(value));
  cell.kind = CellKind::kExpiring;
  cell.ttl = 10;
  cell.local_deletion_time = expiry;
  return cell;
}

RowFragment Desired(int64_t marker_timestamp, std::vector<Cell> cells) {
  RowFragment fragment;
  fragment.liveness = LivenessInfo{marker_timestamp, 0, 0};
  fragment.cells = std::move(cells);
  return fragment;
}

// What a stored row reads as at `now`: its live cells (column, path, value, expiry) and
// whether it is live at all.
struct Reading {
  bool live = false;
  std::vector<std::tuple<uint32_t, std::optional<std::string>, std::string, int64_t>> cells;
  bool operator==(const Reading&) const = default;
};

Reading Read(const RowFragment& fragment, int64_t now) {
  RowFragment canonical = storage::Canonical(fragment);
  Reading reading;
  reading.live = canonical.liveness && canonical.liveness->IsLive(now);
  for (const Cell& cell : canonical.cells) {
    if (!cell.IsLive(now)) continue;
    reading.live = true;
    reading.cells.emplace_back(cell.column_id, cell.path, cell.value,
                               cell.is_expiring() ? cell.local_deletion_time : 0);
  }
  return reading;
}

RowFragment Apply(const std::optional<RowFragment>& stored,
                  const std::optional<RowFragment>& mutation) {
  RowFragment result = stored ? *stored : RowFragment();
  if (mutation) result = storage::MergeFragments(result, *mutation);
  return result;
}

TEST(ReconcileViewRowTest, NewRowIsWrittenAsIs) {
  RowFragment desired = Desired(100, {Live(1, 100, "a")});
  std::optional<RowFragment> mutation = ReconcileViewRow(std::nullopt, desired, 50);
  ASSERT_TRUE(mutation.has_value());
  EXPECT_EQ(*mutation, desired);
}

TEST(ReconcileViewRowTest, UnchangedRowWritesNothing) {
  RowFragment desired = Desired(100, {Live(1, 100, "a")});
  EXPECT_FALSE(ReconcileViewRow(desired, desired, 50).has_value());
  EXPECT_FALSE(ReconcileViewRow(std::nullopt, std::nullopt, 50).has_value());
}

TEST(ReconcileViewRowTest, DeletionShadowsEverythingTheRowHad) {
  RowFragment stored = Desired(100, {Live(1, 300, "a"), Live(2, 200, "b")});
  std::optional<RowFragment> mutation = ReconcileViewRow(stored, std::nullopt, 50);
  ASSERT_TRUE(mutation.has_value());
  ASSERT_TRUE(mutation->deletion.has_value());
  EXPECT_EQ(mutation->deletion->timestamp, 300);
  EXPECT_FALSE(Read(Apply(stored, mutation), 50).live);
  // A row that is already dead needs no tombstone.
  EXPECT_FALSE(ReconcileViewRow(Apply(stored, mutation), std::nullopt, 50).has_value());
}

TEST(ReconcileViewRowTest, RecreatedRowIsNotShadowedByTheEarlierDeletion) {
  RowFragment stored = Desired(100, {Live(1, 300, "a")});
  stored = Apply(stored, ReconcileViewRow(stored, std::nullopt, 50));
  // The base row comes back with older timestamps than the view tombstone.
  RowFragment desired = Desired(150, {Live(1, 120, "b"), Live(2, 140, "c")});
  RowFragment result = Apply(stored, ReconcileViewRow(stored, desired, 60));
  EXPECT_EQ(Read(result, 60), Read(desired, 60));
}

TEST(ReconcileViewRowTest, CellsMissingFromTheDesiredRowAreDeleted) {
  RowFragment stored = Desired(100, {Live(1, 100, "a"), Live(2, 500, "b"), Live(3, 90, "c")});
  RowFragment desired = Desired(100, {Live(1, 100, "a")});
  RowFragment result = Apply(stored, ReconcileViewRow(stored, desired, 60));
  EXPECT_EQ(Read(result, 60), Read(desired, 60));
  // Later the cell comes back with an older timestamp than the cell tombstone.
  RowFragment again = Desired(100, {Live(1, 100, "a"), Live(2, 400, "d")});
  EXPECT_EQ(Read(Apply(result, ReconcileViewRow(result, again, 70)), 70), Read(again, 70));
}

TEST(ReconcileViewRowTest, OlderOrTiedValuesStillWin) {
  RowFragment stored = Desired(100, {Live(1, 500, "z")});
  RowFragment desired = Desired(100, {Live(1, 500, "a")});  // loses the tie on value bytes
  EXPECT_EQ(Read(Apply(stored, ReconcileViewRow(stored, desired, 60)), 60), Read(desired, 60));
  RowFragment older = Desired(100, {Live(1, 400, "b")});
  EXPECT_EQ(Read(Apply(stored, ReconcileViewRow(stored, older, 60)), 60), Read(older, 60));
}

TEST(ReconcileViewRowTest, MarkerExpiryFollowsTheDesiredRow) {
  RowFragment stored = Desired(100, {});
  RowFragment desired = Desired(100, {});
  desired.liveness = LivenessInfo{100, 10, 80};  // now expiring
  RowFragment result = Apply(stored, ReconcileViewRow(stored, desired, 60));
  EXPECT_TRUE(Read(result, 79).live);
  EXPECT_FALSE(Read(result, 80).live);
  // And back to non-expiring at the same timestamp (which a non-expiring marker loses).
  RowFragment forever = Desired(100, {});
  RowFragment back = Apply(result, ReconcileViewRow(result, forever, 61));
  EXPECT_TRUE(Read(back, 1000).live);
}

TEST(ReconcileViewRowTest, ExpiredStoredCellsNeedNoTombstone) {
  RowFragment stored = Desired(100, {Expiring(1, 100, "a", 55)});
  RowFragment desired = Desired(100, {});
  EXPECT_FALSE(ReconcileViewRow(stored, desired, 60).has_value());
}

TEST(ReconcileViewRowTest, RandomHistoriesAlwaysReadAsDesired) {
  std::mt19937 random(7);
  auto pick = [&](int n) { return static_cast<int64_t>(random() % n); };
  for (int round = 0; round < 300; ++round) {
    std::optional<RowFragment> stored;
    int64_t now = 1000;
    for (int step = 0; step < 12; ++step) {
      now += pick(3);
      std::optional<RowFragment> desired;
      if (pick(4) != 0) {
        RowFragment row;
        int64_t marker_ts = 1 + pick(50);
        if (pick(3) == 0) {
          row.liveness = LivenessInfo{marker_ts, 5, now + 1 + pick(5)};
        } else {
          row.liveness = LivenessInfo{marker_ts, 0, 0};
        }
        for (uint32_t column = 0; column < 3; ++column) {
          if (pick(2) == 0) continue;
          std::string value(1, static_cast<char>('a' + pick(3)));
          int64_t ts = 1 + pick(50);
          row.cells.push_back(pick(3) == 0 ? Expiring(column, ts, value, now + 1 + pick(5))
                                           : Live(column, ts, value));
        }
        desired = row;
      }
      std::optional<RowFragment> mutation = ReconcileViewRow(stored, desired, now);
      stored = Apply(stored, mutation);
      Reading want = desired ? Read(*desired, now) : Reading();
      ASSERT_EQ(Read(*stored, now), want) << "round " << round << " step " << step;
      if (desired) {
        // It keeps reading as desired until something expires.
        ASSERT_EQ(Read(*stored, now + 100), Read(*desired, now + 100));
      }
    }
  }
}

// --- Through the engine: views equal their base tables re-keyed. --------------------------

constexpr int64_t kStartMicros = int64_t{1'700'000'000} * 1'000'000;

class ViewEngineTest : public testing::SessionTest {
 protected:
  ViewEngineTest() { options_.clock = &clock_; }

  // The rows of `query`, formatted and sorted.
  std::vector<std::string> Rows(std::string_view query) {
    auto result = session_->Execute(query);
    EXPECT_TRUE(result.ok()) << query << ": " << result.status().ToString();
    std::vector<std::string> rows;
    if (!result.ok()) return rows;
    for (size_t r = 0; r < result->row_count(); ++r) {
      std::string row;
      for (size_t c = 0; c < result->column_count(); ++c) {
        if (c > 0) row += " | ";
        row += cql::FormatNullableValue(result->columns()[c].type, result->Value(r, c));
      }
      rows.push_back(std::move(row));
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }
  void AdvanceSeconds(int seconds) { clock_.AdvanceMicros(int64_t{seconds} * 1'000'000); }

  // The base of the property tests, and three views: one keyed by a regular column, one with
  // only base key columns and a column subset, one restricted on a clustering column.
  void CreateBaseAndViews(bool create_base = true) {
    if (create_base) {
      Run("CREATE TABLE ks.base (k int, c int, s int STATIC, v int, w int, m map<int, int>, "
          "PRIMARY KEY (k, c))");
    }
    Run("CREATE MATERIALIZED VIEW ks.by_v AS SELECT k, c, v, w, m FROM ks.base WHERE v IS NOT "
        "NULL AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c)");
    Run("CREATE MATERIALIZED VIEW ks.by_c AS SELECT k, c, w FROM ks.base WHERE k IS NOT NULL "
        "AND c IS NOT NULL PRIMARY KEY (c, k)");
    Run("CREATE MATERIALIZED VIEW ks.low_c AS SELECT k, c, v, m FROM ks.base WHERE k IS NOT "
        "NULL AND c IS NOT NULL AND c < 2 PRIMARY KEY (k, c)");
  }

  // The rows of `query` whose first column is not null (static-only base rows have a null
  // clustering column; base rows with a null view key column have no view row).
  std::vector<std::string> NonNullRows(std::string_view query) {
    std::vector<std::string> rows = Rows(query);
    std::erase_if(rows, [](const std::string& row) { return row.rfind("null", 0) == 0; });
    return rows;
  }

  // Checks every view of CreateBaseAndViews against the base, at the current time.
  void ExpectViewsMatchBase(const std::string& context) {
    EXPECT_EQ(Rows("SELECT v, k, c, w, m FROM ks.by_v"),
              NonNullRows("SELECT v, k, c, w, m FROM ks.base"))
        << context;
    EXPECT_EQ(Rows("SELECT c, k, w, ttl(w) FROM ks.by_c"),
              NonNullRows("SELECT c, k, w, ttl(w) FROM ks.base"))
        << context;
    EXPECT_EQ(Rows("SELECT c, k, v, m FROM ks.low_c"),
              NonNullRows("SELECT c, k, v, m FROM ks.base WHERE c < 2 ALLOW FILTERING"))
        << context;
  }

  common::ManualClock clock_{kStartMicros};
};

// One random write to ks.base.
std::string RandomWrite(std::mt19937* random, bool with_timestamps, int64_t* timestamp_hint) {
  auto pick = [&](int n) { return static_cast<int>((*random)() % n); };
  int k = pick(3);
  int c = pick(4);
  std::string using_clause;
  std::vector<std::string> parts;
  if (pick(4) == 0) parts.push_back(fmt::format("TTL {}", 1 + pick(4)));
  if (with_timestamps && pick(3) == 0) {
    // Out of order: up to 3 seconds before or after the latest server timestamp.
    *timestamp_hint += 1000;
    parts.push_back(fmt::format("TIMESTAMP {}", *timestamp_hint - 3'000'000 + pick(6'000'000)));
  }
  if (!parts.empty()) {
    using_clause = " USING " + parts[0] + (parts.size() > 1 ? " AND " + parts[1] : "");
  }
  std::string deletion_using;
  for (const std::string& part : parts) {
    if (part.rfind("TIMESTAMP", 0) == 0) deletion_using = " USING " + part;
  }
  switch (pick(12)) {
    case 0:
    case 1:
      return fmt::format("INSERT INTO ks.base (k, c, v, w) VALUES ({}, {}, {}, {}){}", k, c,
                         pick(4), pick(10), using_clause);
    case 2:
      return fmt::format("INSERT INTO ks.base (k, c, w, m) VALUES ({}, {}, {}, {{{}: {}}}){}", k, c,
                         pick(10), pick(3), pick(10), using_clause);
    case 3:
    case 4:
      return fmt::format("UPDATE ks.base{} SET v = {} WHERE k = {} AND c = {}", using_clause,
                         pick(4), k, c);
    case 5:
      return fmt::format("UPDATE ks.base{} SET w = {}, m[{}] = {} WHERE k = {} AND c = {}",
                         using_clause, pick(10), pick(3), pick(10), k, c);
    case 6:
      return fmt::format("DELETE {} FROM ks.base{} WHERE k = {} AND c = {}",
                         pick(2) == 0 ? "v" : "w, m", deletion_using, k, c);
    case 7:
      return fmt::format("DELETE FROM ks.base{} WHERE k = {} AND c = {}", deletion_using, k, c);
    case 8:
      return fmt::format("DELETE FROM ks.base{} WHERE k = {} AND c {} {}", deletion_using, k,
                         pick(2) == 0 ? ">=" : "<", c);
    case 9:
      if (pick(3) != 0) {
        return fmt::format("UPDATE ks.base{} SET s = {} WHERE k = {}", using_clause, pick(10), k);
      }
      return fmt::format("DELETE FROM ks.base{} WHERE k = {}", deletion_using, k);
    case 10:
      return fmt::format(
          "BEGIN BATCH UPDATE ks.base SET v = {} WHERE k = {} AND c = {}; INSERT INTO ks.base "
          "(k, c, w) VALUES ({}, {}, {}); APPLY BATCH",
          pick(4), k, c, pick(3), pick(4), pick(10));
    default:
      return fmt::format("UPDATE ks.base SET v = {} WHERE k = {} AND c = {} IF EXISTS", pick(4), k,
                         c);
  }
}

TEST_F(ViewEngineTest, RandomWritesKeepViewsEqualToTheirBase) {
  CreateBaseAndViews();
  std::mt19937 random(20240611);
  int64_t timestamp_hint = kStartMicros;
  for (int step = 0; step < 400; ++step) {
    if (random() % 8 == 0) AdvanceSeconds(1 + static_cast<int>(random() % 3));
    std::string write = RandomWrite(&random, /*with_timestamps=*/true, &timestamp_hint);
    timestamp_hint = std::max(timestamp_hint, clock_.NowMicros());
    Run(write);
    ExpectViewsMatchBase(fmt::format("after step {}: {}", step, write));
    if (HasFailure()) return;
  }
}

TEST_F(ViewEngineTest, ViewRowsExpireWithTheBase) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int, w int)");
  Run("CREATE MATERIALIZED VIEW ks.by_v AS SELECT * FROM ks.t WHERE v IS NOT NULL AND k IS NOT "
      "NULL PRIMARY KEY (v, k)");
  Run("CREATE MATERIALIZED VIEW ks.by_k AS SELECT k, w FROM ks.t WHERE k IS NOT NULL PRIMARY KEY "
      "(k)");
  Run("INSERT INTO ks.t (k, v, w) VALUES (1, 10, 100) USING TTL 10");
  Run("INSERT INTO ks.t (k, v, w) VALUES (2, 20, 200)");
  Run("UPDATE ks.t USING TTL 5 SET v = 21 WHERE k = 2");  // the view key cell expires first
  Run("UPDATE ks.t USING TTL 20 SET w = 300 WHERE k = 3");
  EXPECT_EQ(Rows("SELECT v, k, w, ttl(w) FROM ks.by_v"),
            (std::vector<std::string>{"10 | 1 | 100 | 10", "21 | 2 | 200 | 5"}));
  EXPECT_EQ(Rows("SELECT k, w FROM ks.by_k"),
            (std::vector<std::string>{"1 | 100", "2 | 200", "3 | 300"}));
  AdvanceSeconds(5);
  EXPECT_EQ(Rows("SELECT v, k, w FROM ks.by_v"), (std::vector<std::string>{"10 | 1 | 100"}));
  EXPECT_EQ(Rows("SELECT v, k, w FROM ks.t"),
            (std::vector<std::string>{"10 | 1 | 100", "null | 2 | 200", "null | 3 | 300"}));
  AdvanceSeconds(5);
  EXPECT_TRUE(Rows("SELECT * FROM ks.by_v").empty());
  EXPECT_EQ(Rows("SELECT k, w FROM ks.by_k"), (std::vector<std::string>{"2 | 200", "3 | 300"}));
  AdvanceSeconds(10);
  EXPECT_EQ(Rows("SELECT k, w FROM ks.by_k"), (std::vector<std::string>{"2 | 200"}));
  // Refreshing the TTL of the key cell brings the view row back for the new period.
  Run("UPDATE ks.t USING TTL 3 SET v = 22 WHERE k = 2");
  EXPECT_EQ(Rows("SELECT v, k, w, ttl(w) FROM ks.by_v"),
            (std::vector<std::string>{"22 | 2 | 200 | 3"}));
  AdvanceSeconds(3);
  EXPECT_TRUE(Rows("SELECT * FROM ks.by_v").empty());
}

TEST_F(ViewEngineTest, BackfillCopiesExpiryAndConvergesWithConcurrentWrites) {
  Run("CREATE TABLE ks.base (k int, c int, s int STATIC, v int, w int, m map<int, int>, "
      "PRIMARY KEY (k, c))");
  std::mt19937 random(99);
  int64_t hint = kStartMicros;
  for (int i = 0; i < 150; ++i) {
    Run(RandomWrite(&random, /*with_timestamps=*/false, &hint));
  }
  // Writers race the view creation; each does a bounded number of writes.
  std::atomic<bool> failed{false};
  std::vector<std::thread> writers;
  for (int t = 0; t < 3; ++t) {
    writers.emplace_back([&, t]() {
      std::unique_ptr<cql::Session> session = db_->NewSession();
      std::mt19937 local(1000 + t);
      int64_t local_hint = kStartMicros;
      for (int i = 0; i < 150; ++i) {
        std::string write = RandomWrite(&local, /*with_timestamps=*/false, &local_hint);
        if (!session->Execute(write).ok()) failed = true;
      }
    });
  }
  CreateBaseAndViews(/*create_base=*/false);
  for (std::thread& writer : writers) writer.join();
  EXPECT_FALSE(failed);
  ExpectViewsMatchBase("after concurrent backfill");
  for (int i = 0; i < 4; ++i) {
    AdvanceSeconds(1);
    ExpectViewsMatchBase(fmt::format("after {} more seconds", i + 1));
  }
}

TEST_F(ViewEngineTest, ConcurrentWritersOnFewPartitions) {
  CreateBaseAndViews();
  std::atomic<bool> failed{false};
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&, t]() {
      std::unique_ptr<cql::Session> session = db_->NewSession();
      std::mt19937 local(500 + t);
      int64_t hint = kStartMicros;
      for (int i = 0; i < 200; ++i) {
        std::string write = RandomWrite(&local, /*with_timestamps=*/false, &hint);
        auto result = session->Execute(write);
        if (!result.ok()) {
          ADD_FAILURE() << write << ": " << result.status().ToString();
          failed = true;
        }
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  EXPECT_FALSE(failed);
  ExpectViewsMatchBase("after concurrent writes");
}

TEST_F(ViewEngineTest, UnsupportedWhereClauseIsRefusedAtCreation) {
  Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
  auto result = session_->Execute(
      "CREATE MATERIALIZED VIEW ks.bad AS SELECT * FROM ks.t WHERE k IS NOT NULL AND c IS NOT "
      "NULL AND c LIKE 'x' PRIMARY KEY (c, k)");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("materialized view 'bad'"), std::string::npos)
      << result.status().ToString();
  EXPECT_TRUE(Rows("SELECT * FROM system_schema.views").empty());
  // The base stays writable.
  Run("INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1)");
}

}  // namespace
}  // namespace engine
