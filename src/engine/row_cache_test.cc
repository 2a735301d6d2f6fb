// The row cache through a database: two embedded databases fed the same randomized statements —
// one reading through a row cache, one without — return exactly the same rows, TTLs and
// warnings to every SELECT, and write-through keeps cached slices as a fresh read would give
// them. (RowCache's own bookkeeping: row_cache_bookkeeping_test.cc.)

#include "engine/row_cache.h"

#include <stdlib.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/clock.h"
#include "engine/database.h"
#include "engine/session_testing.h"
#include "storage/key_layout.h"

namespace engine {
namespace {

// Two databases on one manual clock: SessionTest's, with a row cache, and one without.
class RowCacheConsistencyTest : public testing::SessionTest {
 protected:
  RowCacheConsistencyTest() {
    options_.clock = &clock_;
    options_.purge_interval = std::chrono::seconds(0);
    options_.row_cache_bytes = size_t{8} << 20;
  }
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(SessionTest::SetUp());
    std::string pattern =
        (std::filesystem::temp_directory_path() / "cqld-row-cache-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    uncached_directory_ = pattern;
    DatabaseOptions options = options_;
    options.row_cache_bytes = 0;
    auto db = Database::Open(uncached_directory_, options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    uncached_db_ = std::move(db).value();
    sessions_[0] = session_.get();
    uncached_session_ = uncached_db_->NewSession();
    sessions_[1] = uncached_session_.get();
    ASSERT_NE(db_->row_cache(), nullptr);
    ASSERT_EQ(uncached_db_->row_cache(), nullptr);
    ASSERT_TRUE(uncached_session_
                    ->Execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                              "'replication_factor': 1}")
                    .ok());
    Both(
        "CREATE TABLE ks.t (p int, c int, d int, v int, s int static, m map<int, int>, "
        "l list<int>, PRIMARY KEY (p, c, d)) WITH gc_grace_seconds = 0");
  }
  void TearDown() override {
    uncached_session_.reset();
    uncached_db_.reset();
    if (!uncached_directory_.empty()) std::filesystem::remove_all(uncached_directory_);
    SessionTest::TearDown();
  }

  // Runs `statement` on both; both must give the same outcome (applied or not, error code).
  void Both(const std::string& statement) {
    auto cached = sessions_[0]->Execute(statement);
    auto uncached = sessions_[1]->Execute(statement);
    ASSERT_EQ(cached.ok(), uncached.ok()) << statement;
    if (!cached.ok()) {
      EXPECT_EQ(cached.status().ToString(), uncached.status().ToString()) << statement;
      return;
    }
    testing::Rows a, b;
    Append(*cached, &a);
    Append(*uncached, &b);
    EXPECT_EQ(a, b) << statement;
  }

  // All pages of `query` (page size `page_size`, 0: one) from database `i`, with the warnings.
  testing::Rows Fetch(int i, const std::string& query, int page_size,
                      std::vector<std::string>* warnings) {
    cql::QueryOptions options;
    options.page_size = page_size;
    testing::Rows rows;
    for (int pages = 0; pages < 1000; ++pages) {
      auto result = sessions_[i]->Execute(query, options);
      EXPECT_TRUE(result.ok()) << query << ": " << result.status().ToString();
      if (!result.ok()) break;
      Append(*result, &rows);
      for (const std::string& warning : result->warnings()) warnings->push_back(warning);
      if (!result->paging_state()) break;
      options.paging_state = result->paging_state();
    }
    return rows;
  }

  // `query` returns the same on both, twice on the cached one (a miss, then a hit when the
  // read can be cached).
  void Compare(const std::string& query, int page_size) {
    std::vector<std::string> expected_warnings, warnings, warnings_again;
    testing::Rows expected = Fetch(1, query, page_size, &expected_warnings);
    EXPECT_EQ(Fetch(0, query, page_size, &warnings), expected) << query;
    EXPECT_EQ(warnings, expected_warnings) << query;
    EXPECT_EQ(Fetch(0, query, page_size, &warnings_again), expected) << query << " (again)";
    EXPECT_EQ(warnings_again, expected_warnings) << query;
  }

  int Random(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }

  std::string RandomWrite();
  std::string RandomQuery();
  // 400 steps of: a `write` on both, three `query`s compared (paged at random when `paged`),
  // with the clock moving on at random between them.
  void CompareRandomly(const std::function<std::string()>& write,
                       const std::function<std::string()>& query, bool paged);

  common::ManualClock clock_{int64_t{1'700'000'000} * 1'000'000};
  std::mt19937 random_{20261126};
  std::string uncached_directory_;
  std::unique_ptr<Database> uncached_db_;
  std::unique_ptr<cql::Session> uncached_session_;
  cql::Session* sessions_[2] = {nullptr, nullptr};  // cached, uncached
};

std::string RowCacheConsistencyTest::RandomWrite() {
  const int p = Random(3), c = Random(5), d = Random(3), v = Random(100);
  const std::string ttl = Random(3) == 0 ? fmt::format(" USING TTL {}", 1 + Random(4)) : "";
  const std::string row = fmt::format("p = {} AND c = {} AND d = {}", p, c, d);
  switch (Random(14)) {
    case 0:
    case 1:
      return fmt::format("INSERT INTO ks.t (p, c, d, v) VALUES ({}, {}, {}, {}){}", p, c, d, v,
                         ttl);
    case 2:
      return fmt::format("UPDATE ks.t{} SET v = {} WHERE {}", ttl, v, row);
    case 3:
      return fmt::format("UPDATE ks.t{} SET s = {} WHERE p = {}", ttl, v, p);
    case 4:
      return fmt::format("UPDATE ks.t{} SET m[{}] = {}, l = l + [{}] WHERE {}", ttl, Random(3), v,
                         v, row);
    case 5:
      return fmt::format("DELETE FROM ks.t WHERE {}", row);
    case 6:
      return fmt::format("DELETE v, m FROM ks.t WHERE {}", row);
    case 7:
      return fmt::format("DELETE FROM ks.t WHERE p = {} AND c = {}", p, c);
    case 8:
      return fmt::format("DELETE FROM ks.t WHERE p = {} AND c > {} AND c <= {}", p, c,
                         c + Random(3));
    case 9:
      return Random(4) == 0 ? fmt::format("DELETE FROM ks.t WHERE p = {}", p)
                            : fmt::format("DELETE s FROM ks.t WHERE p = {}", p);
    case 10:
      return fmt::format("INSERT INTO ks.t (p, c, d, v) VALUES ({}, {}, {}, {}) IF NOT EXISTS", p,
                         c, d, v);
    case 11:
      return fmt::format("UPDATE ks.t SET v = {} WHERE {} IF v = {}", v, row, Random(100));
    case 12:
      return fmt::format(
          "BEGIN BATCH INSERT INTO ks.t (p, c, d, v) VALUES ({0}, {1}, {2}, {3}); "
          "UPDATE ks.t SET s = {3} WHERE p = {0}; DELETE FROM ks.t WHERE p = {0} AND c = {4}; "
          "APPLY BATCH",
          p, c, d, v, (c + 1) % 5);
    default:
      return Random(20) == 0 ? "TRUNCATE ks.t"
                             : fmt::format("UPDATE ks.t SET l = [{}] WHERE {}", v, row);
  }
}

std::string RowCacheConsistencyTest::RandomQuery() {
  const int p = Random(3), c = Random(5);
  switch (Random(7)) {
    case 0:
      return fmt::format("SELECT * FROM ks.t WHERE p = {}", p);
    case 1:
      return fmt::format("SELECT * FROM ks.t WHERE p = {} AND c >= {} AND c < {}{}", p, c,
                         c + 1 + Random(3), Random(2) == 0 ? " ORDER BY c DESC, d DESC" : "");
    case 2:
      return fmt::format("SELECT * FROM ks.t WHERE p = {} AND c IN ({}, {})", p, c, (c + 2) % 5);
    case 3:
      return fmt::format("SELECT * FROM ks.t WHERE p = {} ORDER BY c DESC, d DESC", p);
    case 4:
      return fmt::format("SELECT c, d, v, ttl(v), m, l, s FROM ks.t WHERE p = {} AND c = {}", p, c);
    case 5:
      return fmt::format("SELECT * FROM ks.t WHERE p = {} AND c > {} LIMIT 2", p, c);
    default:
      return fmt::format("SELECT * FROM ks.t WHERE p = {} AND v > 50 ALLOW FILTERING", p);
  }
}

void RowCacheConsistencyTest::CompareRandomly(const std::function<std::string()>& write,
                                              const std::function<std::string()>& query,
                                              bool paged) {
  for (int step = 0; step < 400; ++step) {
    ASSERT_NO_FATAL_FAILURE(Both(write()));
    if (Random(4) == 0) clock_.AdvanceMicros(1'000'000);  // TTLs run out
    for (int q = 0; q < 3; ++q) {
      ASSERT_NO_FATAL_FAILURE(Compare(query(), paged && Random(3) == 0 ? 2 : 0));
    }
    // Time passes between reads too: a cached slice must not outlive its TTLs.
    if (Random(4) == 0) {
      clock_.AdvanceMicros(1'000'000);
      ASSERT_NO_FATAL_FAILURE(Compare(query(), 0));
    }
  }
}

TEST_F(RowCacheConsistencyTest, CachedReadsMatchUncachedReads) {
  ASSERT_NO_FATAL_FAILURE(CompareRandomly([this] { return RandomWrite(); },
                                          [this] { return RandomQuery(); }, /*paged=*/true));
  RowCache::Statistics statistics = db_->row_cache()->statistics();
  EXPECT_GT(statistics.hits, 300u);
  EXPECT_GT(statistics.misses, 200u);  // fewer since writes go through the cache
}

// A hit sets each row's clustering cells from the values its fill kept: empty values stay
// empty (not null), and rows that are not live (deleted, expired) between live ones leave
// nothing of theirs in the rows after them, forwards and reversed.
TEST_F(RowCacheConsistencyTest, HitsKeepClusteringValuesIncludingEmptyOnes) {
  Both("CREATE TABLE ks.e (p int, a text, b blob, v int, PRIMARY KEY (p, a, b))");
  Both("INSERT INTO ks.e (p, a, b, v) VALUES (1, '', 0x, 1)");
  Both("INSERT INTO ks.e (p, a, b, v) VALUES (1, '', 0x01, 2)");
  Both("INSERT INTO ks.e (p, a, b, v) VALUES (1, 'x', 0x, 3)");
  Both("INSERT INTO ks.e (p, a, b, v) VALUES (1, 'xy', 0x0203, 4) USING TTL 5");
  Both("INSERT INTO ks.e (p, a, b, v) VALUES (1, 'y', 0x, 5)");
  Both("DELETE FROM ks.e WHERE p = 1 AND a = 'x' AND b = 0x");
  const std::vector<std::string> queries = {
      "SELECT * FROM ks.e WHERE p = 1",
      "SELECT b, a FROM ks.e WHERE p = 1 AND a >= '' AND a < 'y'",
      "SELECT * FROM ks.e WHERE p = 1 ORDER BY a DESC, b DESC",
  };
  for (const std::string& query : queries) ASSERT_NO_FATAL_FAILURE(Compare(query, 0));
  clock_.AdvanceMicros(6'000'000);  // the TTL'd row expires, in the cached slices too
  for (const std::string& query : queries) ASSERT_NO_FATAL_FAILURE(Compare(query, 0));
  auto rows = sessions_[0]->Execute("SELECT a, b FROM ks.e WHERE p = 1");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->row_count(), 3u);
  EXPECT_EQ(rows->Value(0, 0), std::optional<std::string_view>(""));
  EXPECT_EQ(rows->Value(0, 1), std::optional<std::string_view>(""));
  EXPECT_EQ(rows->Value(2, 0), std::optional<std::string_view>("y"));
  EXPECT_GT(db_->row_cache()->statistics().hits, 0u);
}

// Reads of shifting windows come to hit as the windows read are united, and answer what
// storage answers, forward and reverse, with a partition tombstone, a range tombstone and
// TTL'd rows inside the union; a write keeps the union, brought up to date.
TEST_F(RowCacheConsistencyTest, ShiftedWindowsUniteIntoHits) {
  for (int c = 0; c < 10; ++c) {
    // d = 0: older than the partition tombstone below; d = 1: after it, some with a TTL.
    Both(fmt::format("INSERT INTO ks.t (p, c, d, v) VALUES (1, {0}, 0, {0}) USING TIMESTAMP 1000",
                     c));
    Both(fmt::format("INSERT INTO ks.t (p, c, d, v) VALUES (1, {0}, 1, {0}){1}", c,
                     c % 3 == 0 ? " USING TTL 2" : ""));
  }
  Both("DELETE FROM ks.t USING TIMESTAMP 2000 WHERE p = 1");
  Both("DELETE FROM ks.t WHERE p = 1 AND c > 3 AND c <= 5");
  const RowCache& cache = *db_->row_cache();
  // Reads c in [from, to) from both; whether the cached read hit.
  auto window = [&](int from, int to, bool reverse) {
    const std::string query = fmt::format("SELECT * FROM ks.t WHERE p = 1 AND c >= {} AND c < {}{}",
                                          from, to, reverse ? " ORDER BY c DESC, d DESC" : "");
    const uint64_t hits = cache.statistics().hits;
    std::vector<std::string> warnings, expected_warnings;
    testing::Rows rows = Fetch(0, query, 0, &warnings);
    EXPECT_EQ(rows, Fetch(1, query, 0, &expected_warnings)) << query;
    EXPECT_EQ(warnings, expected_warnings) << query;
    return cache.statistics().hits == hits + 1;
  };
  EXPECT_FALSE(window(0, 3, false));
  EXPECT_FALSE(window(3, 6, false));  // touching the first: united into [0, 6)
  EXPECT_TRUE(window(1, 5, false));
  EXPECT_TRUE(window(0, 6, true));
  EXPECT_FALSE(window(5, 8, true));  // overlapping: united into [0, 8)
  EXPECT_TRUE(window(2, 8, false));
  clock_.AdvanceMicros(3'000'000);  // the TTL'd rows expire
  EXPECT_TRUE(window(0, 8, true));
  EXPECT_FALSE(window(8, 10, false));
  EXPECT_TRUE(window(0, 10, false));
  EXPECT_EQ(cache.statistics().slices, 1u);
  // A write into the united slice brings it up to date (write-through): still one slice, and
  // every window still hits with the written value.
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 2, 1, 99)");
  EXPECT_TRUE(window(0, 3, false));
  EXPECT_TRUE(window(3, 10, true));
  EXPECT_TRUE(window(0, 10, true));
  EXPECT_TRUE(window(2, 3, false));
  // A range delete cannot be applied: the union starts afresh, and is united again.
  Both("DELETE FROM ks.t WHERE p = 1 AND c = 7");
  EXPECT_FALSE(window(0, 3, false));
  EXPECT_FALSE(window(3, 10, true));
  EXPECT_TRUE(window(0, 10, true));
  EXPECT_TRUE(window(6, 9, false));
}

// A write to a partition brings its cached slice up to date (write-through) and leaves the
// other partitions' slices alone.
TEST_F(RowCacheConsistencyTest, WritesUpdateTheirPartition) {
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 1, 1, 10)");
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (2, 1, 1, 20)");
  const std::string one = "SELECT v FROM ks.t WHERE p = 1 AND c = 1";
  const std::string two = "SELECT v FROM ks.t WHERE p = 2 AND c = 1";
  Compare(one, 0);
  Compare(two, 0);
  const RowCache& cache = *db_->row_cache();
  const uint64_t hits = cache.statistics().hits;
  Both("UPDATE ks.t SET v = 11 WHERE p = 1 AND c = 1 AND d = 1");
  Compare(one, 0);  // hits: the write went into the slice
  Compare(two, 0);  // hits: partition 2 was not written
  EXPECT_EQ(cache.statistics().hits, hits + 4);
  Both("UPDATE ks.t SET v = 12 WHERE p = 1 AND c = 1 AND d = 1 IF v = 11");
  Compare(one, 0);
  auto result = sessions_[0]->Execute(one);
  ASSERT_TRUE(result.ok());
  ASSERT_EQ(result->row_count(), 1u);
  EXPECT_EQ(result->GetInteger(0, 0).value(), 12);
}

// Write-through (row_cache.h invariants W1-W5): a write to a cached partition leaves it cached,
// with the write applied as storage applies it.
class RowCacheWriteThroughTest : public RowCacheConsistencyTest {
 protected:
  // `query` is served from the cache (a hit) and returns what the uncached database returns.
  void ExpectHit(const std::string& query) { ExpectRead(query, true); }
  // `query` is read from storage (a miss) and returns what the uncached database returns.
  void ExpectMiss(const std::string& query) { ExpectRead(query, false); }
  void ExpectRead(const std::string& query, bool hit) {
    const RowCache::Statistics before = db_->row_cache()->statistics();
    std::vector<std::string> expected_warnings, warnings;
    testing::Rows expected = Fetch(1, query, 0, &expected_warnings);
    EXPECT_EQ(Fetch(0, query, 0, &warnings), expected) << query;
    const RowCache::Statistics after = db_->row_cache()->statistics();
    EXPECT_EQ(after.hits, before.hits + (hit ? 1 : 0)) << query;
    EXPECT_EQ(after.misses, before.misses + (hit ? 0 : 1)) << query;
  }
  // Column 0 of each row of `query` on the cached database as an integer, -1 for null.
  std::vector<int64_t> Ints(const std::string& query) {
    auto result = sessions_[0]->Execute(query);
    EXPECT_TRUE(result.ok()) << query << ": " << result.status().ToString();
    std::vector<int64_t> values;
    if (!result.ok()) return values;
    for (size_t row = 0; row < result->row_count(); ++row) {
      values.push_back(result->IsNull(row, 0) ? -1 : result->GetInteger(row, 0).value());
    }
    return values;
  }
  // Fills the cache with `query` (a miss, then a hit).
  void Fill(const std::string& query) {
    ExpectMiss(query);
    ExpectHit(query);
  }
};

TEST_F(RowCacheWriteThroughTest, UpdateInsideTheSliceIsAHitWithTheNewValue) {
  Both("INSERT INTO ks.t (p, c, d, v, m) VALUES (1, 1, 1, 10, {1: 1, 2: 2})");
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 2, 1, 20)");
  const std::string query = "SELECT v, c, d, m FROM ks.t WHERE p = 1";
  Fill(query);
  Both("UPDATE ks.t SET v = 11 WHERE p = 1 AND c = 1 AND d = 1");
  ExpectHit(query);
  EXPECT_EQ(Ints(query), (std::vector<int64_t>{11, 20}));
  // One element of the map: the other element and v stay.
  Both("UPDATE ks.t SET m[2] = 5 WHERE p = 1 AND c = 1 AND d = 1");
  ExpectHit(query);
  EXPECT_EQ(Ints("SELECT v FROM ks.t WHERE p = 1 AND c = 1 AND d = 1"), std::vector<int64_t>{11});
  Both("UPDATE ks.t SET m = m - {1} WHERE p = 1 AND c = 1 AND d = 1");
  ExpectHit(query);
}

TEST_F(RowCacheWriteThroughTest, AnOlderTimestampLosesToTheCachedCell) {
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 1, 1, 10) USING TIMESTAMP 2000");
  const std::string query = "SELECT v FROM ks.t WHERE p = 1";
  Fill(query);
  Both("UPDATE ks.t USING TIMESTAMP 1000 SET v = 99 WHERE p = 1 AND c = 1 AND d = 1");
  ExpectHit(query);
  EXPECT_EQ(Ints(query), std::vector<int64_t>{10});
  // Equal timestamps: the greater value wins (cell_merge.h invariant 1e), either order.
  Both("UPDATE ks.t USING TIMESTAMP 2000 SET v = 5 WHERE p = 1 AND c = 1 AND d = 1");
  Both("UPDATE ks.t USING TIMESTAMP 2000 SET v = 12 WHERE p = 1 AND c = 1 AND d = 1");
  ExpectHit(query);
  EXPECT_EQ(Ints(query), std::vector<int64_t>{12});
}

TEST_F(RowCacheWriteThroughTest, RowDeletesAndNewRowsKeepKeyOrderBothWays) {
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 1, 1, 10)");
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 4, 1, 40)");
  const std::string forward = "SELECT v FROM ks.t WHERE p = 1 AND c >= 0 AND c < 9";
  const std::string reverse = "SELECT v FROM ks.t WHERE p = 1 ORDER BY c DESC, d DESC";
  Fill(forward);
  Fill(reverse);
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 2, 1, 20)");
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 0, 1, 0)");
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 8, 1, 80)");
  ExpectHit(forward);
  ExpectHit(reverse);
  EXPECT_EQ(Ints(forward), (std::vector<int64_t>{0, 10, 20, 40, 80}));
  EXPECT_EQ(Ints(reverse), (std::vector<int64_t>{80, 40, 20, 10, 0}));
  Both("DELETE FROM ks.t WHERE p = 1 AND c = 2 AND d = 1");
  ExpectHit(forward);
  ExpectHit(reverse);
  EXPECT_EQ(Ints(forward), (std::vector<int64_t>{0, 10, 40, 80}));
}

TEST_F(RowCacheWriteThroughTest, AWriteOutsideTheIntervalsKeepsTheSlice) {
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 1, 1, 10)");
  const std::string query = "SELECT v FROM ks.t WHERE p = 1 AND c >= 1 AND c < 3";
  Fill(query);
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 4, 1, 40)");
  ExpectHit(query);
  EXPECT_EQ(Ints(query), std::vector<int64_t>{10});
  // The slice says nothing about c = 4: the whole partition is read from storage.
  ExpectMiss("SELECT v FROM ks.t WHERE p = 1");
}

TEST_F(RowCacheWriteThroughTest, StaticColumnUpdates) {
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 1, 1, 10)");
  const std::string query = "SELECT s, v FROM ks.t WHERE p = 1";
  Fill(query);
  Both("UPDATE ks.t SET s = 7 WHERE p = 1");
  ExpectHit(query);
  EXPECT_EQ(Ints(query), std::vector<int64_t>{7});
  Both("UPDATE ks.t SET s = 8 WHERE p = 1");
  ExpectHit(query);
  EXPECT_EQ(Ints(query), std::vector<int64_t>{8});
  Both("DELETE s FROM ks.t WHERE p = 1");
  ExpectHit(query);
  EXPECT_EQ(Ints(query), std::vector<int64_t>{-1});
}

TEST_F(RowCacheWriteThroughTest, PartitionAndRangeDeletesDropTheSlices) {
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 1, 1, 10)");
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 2, 1, 20)");
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 3, 1, 30)");
  const std::string query = "SELECT v FROM ks.t WHERE p = 1";
  Fill(query);
  Both("DELETE FROM ks.t WHERE p = 1 AND c > 1 AND c <= 2");
  ExpectMiss(query);
  ExpectHit(query);
  EXPECT_EQ(Ints(query), (std::vector<int64_t>{10, 30}));
  Both("DELETE FROM ks.t WHERE p = 1");
  ExpectMiss(query);
  EXPECT_EQ(Ints(query), std::vector<int64_t>{});
  // Writes after the partition tombstone apply to the slice that saw it.
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 5, 1, 50)");
  ExpectHit(query);
  EXPECT_EQ(Ints(query), std::vector<int64_t>{50});
}

TEST_F(RowCacheWriteThroughTest, ExpiringWritesRunOutInTheCache) {
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 1, 1, 10)");
  const std::string query = "SELECT v, ttl(v) FROM ks.t WHERE p = 1";
  Fill(query);
  Both("UPDATE ks.t USING TTL 2 SET v = 11 WHERE p = 1 AND c = 1 AND d = 1");
  ExpectHit(query);
  EXPECT_EQ(Ints(query), std::vector<int64_t>{11});
  clock_.AdvanceMicros(3'000'000);
  ExpectHit(query);
  EXPECT_EQ(Ints(query), std::vector<int64_t>{-1});  // the row stays: INSERT's marker
  // A write over the expired cell's timestamp range... is newer: applied.
  Both("UPDATE ks.t SET v = 12 WHERE p = 1 AND c = 1 AND d = 1");
  ExpectHit(query);
  EXPECT_EQ(Ints(query), std::vector<int64_t>{12});
}

TEST_F(RowCacheWriteThroughTest, AWriteNotNewerThanACachedTombstoneDropsTheSlice) {
  // Compaction may purge the tombstone (gc_grace_seconds = 0 here), after which an older
  // write would show in storage; the cache cannot know, so it steps aside (W3).
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 1, 1, 10) USING TIMESTAMP 1000");
  Both("DELETE v FROM ks.t USING TIMESTAMP 3000 WHERE p = 1 AND c = 1 AND d = 1");
  const std::string query = "SELECT v FROM ks.t WHERE p = 1";
  Fill(query);
  Both("UPDATE ks.t USING TIMESTAMP 2000 SET v = 20 WHERE p = 1 AND c = 1 AND d = 1");
  ExpectMiss(query);
  EXPECT_EQ(Ints(query), std::vector<int64_t>{-1});
}

TEST_F(RowCacheWriteThroughTest, LightweightTransactionsAndLoggedBatches) {
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 1, 1, 10)");
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (2, 1, 1, 20)");
  const std::string one = "SELECT v FROM ks.t WHERE p = 1";
  const std::string two = "SELECT v FROM ks.t WHERE p = 2";
  Fill(one);
  Fill(two);
  Both("UPDATE ks.t SET v = 11 WHERE p = 1 AND c = 1 AND d = 1 IF v = 10");
  ExpectHit(one);
  EXPECT_EQ(Ints(one), std::vector<int64_t>{11});
  Both("INSERT INTO ks.t (p, c, d, v) VALUES (1, 2, 1, 12) IF NOT EXISTS");
  ExpectHit(one);
  EXPECT_EQ(Ints(one), (std::vector<int64_t>{11, 12}));
  Both(
      "BEGIN BATCH UPDATE ks.t SET v = 13 WHERE p = 1 AND c = 1 AND d = 1; "
      "UPDATE ks.t SET v = 21 WHERE p = 2 AND c = 1 AND d = 1; "
      "INSERT INTO ks.t (p, c, d, v) VALUES (1, 3, 1, 14); APPLY BATCH");
  ExpectHit(one);
  ExpectHit(two);
  EXPECT_EQ(Ints(one), (std::vector<int64_t>{13, 12, 14}));
  EXPECT_EQ(Ints(two), std::vector<int64_t>{21});
}

// Writers race on one partition while a reader keeps filling the cache; each write carries
// its own timestamp, so the data is the same whatever the interleaving: after every round the
// cached database must return what the uncached one, given the same writes one by one, does.
TEST_F(RowCacheWriteThroughTest, ConcurrentWritersNeverLeaveAWrongSlice) {
  const std::vector<std::string> queries = {
      "SELECT c, d, v, s, m FROM ks.t WHERE p = 1",
      "SELECT c, d, v FROM ks.t WHERE p = 1 AND c >= 1 AND c < 3",
      "SELECT c, d, v FROM ks.t WHERE p = 1 ORDER BY c DESC, d DESC"};
  int64_t timestamp = 1000;
  for (int round = 0; round < 40; ++round) {
    std::vector<std::string> writes[2];
    for (auto& list : writes) {
      for (int i = 0; i < 10; ++i) {
        const int c = Random(5), d = Random(2), v = Random(100);
        switch (Random(4)) {
          case 0:
            list.push_back(fmt::format(
                "UPDATE ks.t USING TIMESTAMP {} SET v = {} WHERE p = 1 AND c = {} AND d = {}",
                timestamp++, v, c, d));
            break;
          case 1:
            list.push_back(fmt::format(
                "INSERT INTO ks.t (p, c, d, v) VALUES (1, {}, {}, {}) USING TIMESTAMP {}", c, d, v,
                timestamp++));
            break;
          case 2:
            list.push_back(fmt::format(
                "UPDATE ks.t USING TIMESTAMP {} SET s = {}, m[{}] = {} WHERE p = 1 AND c = {} "
                "AND d = {}",
                timestamp++, v, Random(3), v, c, d));
            break;
          default:
            // Out of order: older than some writes already made.
            list.push_back(fmt::format(
                "UPDATE ks.t USING TIMESTAMP {} SET v = {} WHERE p = 1 AND c = {} AND d = {}",
                timestamp - Random(20), v, c, d));
            break;
        }
      }
    }
    std::atomic<bool> done{false};
    std::thread reader([&] {
      int i = 0;
      while (!done.load()) {
        auto result = sessions_[0]->Execute(queries[i++ % queries.size()]);
        EXPECT_TRUE(result.ok());
      }
    });
    std::thread writers[2];
    for (int w = 0; w < 2; ++w) {
      writers[w] = std::thread([&, w] {
        for (const std::string& write : writes[w]) EXPECT_TRUE(sessions_[0]->Execute(write).ok());
      });
    }
    for (std::thread& writer : writers) writer.join();
    done.store(true);
    reader.join();
    for (const auto& list : writes) {
      for (const std::string& write : list) ASSERT_TRUE(sessions_[1]->Execute(write).ok());
    }
    for (const std::string& query : queries) {
      std::vector<std::string> warnings;
      EXPECT_EQ(Fetch(0, query, 0, &warnings), Fetch(1, query, 0, &warnings))
          << query << " (round " << round << ")";
    }
  }
  EXPECT_GT(db_->row_cache()->statistics().hits, 0u);
}

// Tables without clustering columns (single-row partitions): their point reads go through
// the cache too (RowReader::ReadSingleRowPartition), with the same coherence.
class SingleRowCacheTest : public RowCacheConsistencyTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(RowCacheConsistencyTest::SetUp());
    ASSERT_NO_FATAL_FAILURE(Both(kCreate));
  }

  static constexpr const char* kCreate =
      "CREATE TABLE ks.kv (k int PRIMARY KEY, v int, w text, m map<int, int>) "
      "WITH gc_grace_seconds = 0";

  uint64_t Hits() const { return db_->row_cache()->statistics().hits; }
  uint64_t Misses() const { return db_->row_cache()->statistics().misses; }

  // Column 0 of the rows `query` returns on the cached database, as ints (-1: null).
  std::vector<int> Ints(const std::string& query) {
    auto result = sessions_[0]->Execute(query);
    EXPECT_TRUE(result.ok()) << query << ": " << result.status().ToString();
    std::vector<int> values;
    if (!result.ok()) return values;
    for (size_t r = 0; r < result->row_count(); ++r) {
      values.push_back(result->Value(r, 0) ? static_cast<int>(result->GetInteger(r, 0).value())
                                           : -1);
    }
    return values;
  }

  // Reads `query` three times on the cached database: by the second read its partition is
  // cached (RowCache::Admit admits every miss while the cache has room), so the third must be
  // a hit, and all must return the same; returns what they read.
  std::vector<int> ReadCached(const std::string& query) {
    std::vector<int> first = Ints(query);
    EXPECT_EQ(Ints(query), first) << query;
    const uint64_t hits = Hits();
    std::vector<int> third = Ints(query);
    EXPECT_EQ(Hits(), hits + 1) << query << ": the third read is not a hit";
    EXPECT_EQ(third, first) << query;
    return third;
  }

  std::string RandomSingleRowWrite();
  std::string RandomSingleRowQuery();
};

std::string SingleRowCacheTest::RandomSingleRowWrite() {
  const int k = Random(4), v = Random(100);
  const std::string ttl = Random(3) == 0 ? fmt::format(" USING TTL {}", 1 + Random(4)) : "";
  switch (Random(12)) {
    case 0:
    case 1:
      return fmt::format("INSERT INTO ks.kv (k, v, w) VALUES ({}, {}, 'w{}'){}", k, v, v, ttl);
    case 2:
      return fmt::format("UPDATE ks.kv{} SET v = {} WHERE k = {}", ttl, v, k);
    case 3:
      return fmt::format("UPDATE ks.kv{} SET m[{}] = {} WHERE k = {}", ttl, Random(3), v, k);
    case 4:
      return fmt::format("DELETE FROM ks.kv WHERE k = {}", k);
    case 5:
      return fmt::format("DELETE v, m FROM ks.kv WHERE k = {}", k);
    case 6:
      return fmt::format("INSERT INTO ks.kv (k, v) VALUES ({}, {}) IF NOT EXISTS", k, v);
    case 7:
      return fmt::format("UPDATE ks.kv SET v = {} WHERE k = {} IF v = {}", v, k, Random(100));
    case 8:
      return fmt::format(
          "BEGIN BATCH INSERT INTO ks.kv (k, v) VALUES ({0}, {1}); "
          "DELETE FROM ks.kv WHERE k = {2}; APPLY BATCH",
          k, v, (k + 1) % 4);
    case 9:
      // An older write than what is there: shadowed, yet it still stales the slice.
      return fmt::format("INSERT INTO ks.kv (k, v) VALUES ({}, {}) USING TIMESTAMP {}", k, v,
                         Random(1000));
    case 10:
      return fmt::format("DELETE FROM ks.kv USING TIMESTAMP {} WHERE k = {}", Random(1000), k);
    default:
      return Random(15) == 0 ? "TRUNCATE ks.kv"
                             : fmt::format("DELETE w FROM ks.kv WHERE k = {}", k);
  }
}

std::string SingleRowCacheTest::RandomSingleRowQuery() {
  const int k = Random(5);  // 4 is never written: an absent partition
  switch (Random(4)) {
    case 0:
      return fmt::format("SELECT * FROM ks.kv WHERE k = {}", k);
    case 1:
      return fmt::format("SELECT v, ttl(v), writetime(v), m FROM ks.kv WHERE k = {}", k);
    case 2:
      return fmt::format("SELECT k, w FROM ks.kv WHERE k IN ({}, {})", k, (k + 1) % 5);
    default:
      return fmt::format("SELECT * FROM ks.kv WHERE k = {} AND v > 50 ALLOW FILTERING", k);
  }
}

TEST_F(SingleRowCacheTest, CachedReadsMatchUncachedReads) {
  ASSERT_NO_FATAL_FAILURE(CompareRandomly([this] { return RandomSingleRowWrite(); },
                                          [this] { return RandomSingleRowQuery(); },
                                          /*paged=*/false));
  EXPECT_GT(Hits(), 300u);
  // Writes are applied to the cached rows (write-through); truncates, deletions no newer than
  // a cached tombstone and racing reads still send reads to storage.
  EXPECT_GT(Misses(), 30u);
}

TEST_F(SingleRowCacheTest, RepeatReadsAreHitsAndAbsentRowsAreCachedToo) {
  Both("INSERT INTO ks.kv (k, v) VALUES (1, 10)");
  const uint64_t misses = Misses();
  // The first miss fills the cache (it has room), the later reads are hits.
  EXPECT_EQ(ReadCached("SELECT v FROM ks.kv WHERE k = 1"), std::vector<int>{10});
  EXPECT_EQ(Misses(), misses + 1);
  EXPECT_EQ(ReadCached("SELECT v FROM ks.kv WHERE k = 2"), std::vector<int>{});
  EXPECT_EQ(Misses(), misses + 2);
  // The absent partition, once written, stays cached: the write is applied to its cached
  // slice (write-through), so the new row is read without a miss.
  Both("INSERT INTO ks.kv (k, v) VALUES (2, 20)");
  EXPECT_EQ(ReadCached("SELECT v FROM ks.kv WHERE k = 2"), std::vector<int>{20});
  EXPECT_EQ(Misses(), misses + 2);
  // A write to another partition leaves the cached one served.
  const uint64_t hits = Hits();
  EXPECT_EQ(Ints("SELECT v FROM ks.kv WHERE k = 1"), std::vector<int>{10});
  EXPECT_EQ(Hits(), hits + 1);
}

TEST_F(SingleRowCacheTest, WritesAndDeletesAfterACachedReadAreSeen) {
  const std::string read = "SELECT v FROM ks.kv WHERE k = 1";
  Both("INSERT INTO ks.kv (k, v, w) VALUES (1, 10, 'a')");
  EXPECT_EQ(ReadCached(read), std::vector<int>{10});
  Both("UPDATE ks.kv SET v = 11 WHERE k = 1");
  EXPECT_EQ(ReadCached(read), std::vector<int>{11});
  Both("DELETE v FROM ks.kv WHERE k = 1");  // the row stays (w, its marker)
  EXPECT_EQ(ReadCached(read), std::vector<int>{-1});
  Both("DELETE FROM ks.kv WHERE k = 1");  // the partition
  EXPECT_EQ(ReadCached(read), std::vector<int>{});
  Both("INSERT INTO ks.kv (k, v) VALUES (1, 12)");
  EXPECT_EQ(ReadCached(read), std::vector<int>{12});
  Both("UPDATE ks.kv SET v = 13 WHERE k = 1 IF v = 12");  // LWT
  EXPECT_EQ(ReadCached(read), std::vector<int>{13});
  Both(
      "BEGIN BATCH UPDATE ks.kv SET v = 14 WHERE k = 1; "
      "INSERT INTO ks.kv (k, v) VALUES (2, 2); APPLY BATCH");
  EXPECT_EQ(ReadCached(read), std::vector<int>{14});
  Both("BEGIN UNLOGGED BATCH DELETE FROM ks.kv WHERE k = 1; APPLY BATCH");
  EXPECT_EQ(ReadCached(read), std::vector<int>{});
  Both("INSERT INTO ks.kv (k, v) VALUES (1, 15) IF NOT EXISTS");
  EXPECT_EQ(ReadCached(read), std::vector<int>{15});
  Both("TRUNCATE ks.kv");
  EXPECT_EQ(ReadCached(read), std::vector<int>{});
}

TEST_F(SingleRowCacheTest, ExpiryAfterACachedReadIsApplied) {
  const std::string read = "SELECT v FROM ks.kv WHERE k = 1";
  Both("INSERT INTO ks.kv (k, v) VALUES (1, 10) USING TTL 5");
  Both("INSERT INTO ks.kv (k, w) VALUES (2, 'w')");
  Both("UPDATE ks.kv USING TTL 5 SET v = 20 WHERE k = 2");
  EXPECT_EQ(ReadCached(read), std::vector<int>{10});
  EXPECT_EQ(ReadCached("SELECT v FROM ks.kv WHERE k = 2"), std::vector<int>{20});
  EXPECT_EQ(ReadCached("SELECT ttl(v) FROM ks.kv WHERE k = 1"), std::vector<int>{5});
  clock_.AdvanceMicros(3'000'000);
  // Served from the cache, with the TTL left now.
  const uint64_t hits = Hits();
  EXPECT_EQ(Ints("SELECT ttl(v) FROM ks.kv WHERE k = 1"), std::vector<int>{2});
  clock_.AdvanceMicros(3'000'000);
  EXPECT_EQ(Ints(read), std::vector<int>{});  // the whole row expired
  EXPECT_EQ(Ints("SELECT v FROM ks.kv WHERE k = 2"), std::vector<int>{-1});  // its cell only
  EXPECT_EQ(Hits(), hits + 3);
  Compare(read, 0);
  Compare("SELECT * FROM ks.kv WHERE k = 2", 0);
}

TEST_F(SingleRowCacheTest, SchemaChangesAfterACachedReadAreSeen) {
  Both("INSERT INTO ks.kv (k, v, w) VALUES (1, 10, 'a')");
  const std::string read = "SELECT * FROM ks.kv WHERE k = 1";
  Compare(read, 0);
  Both("ALTER TABLE ks.kv DROP w");
  Compare(read, 0);
  clock_.AdvanceMicros(1'000);
  Both("ALTER TABLE ks.kv ADD w text");
  Compare(read, 0);  // the dropped value does not come back
  auto result = sessions_[0]->Execute("SELECT w FROM ks.kv WHERE k = 1");
  ASSERT_TRUE(result.ok());
  ASSERT_EQ(result->row_count(), 1u);
  EXPECT_FALSE(result->Value(0, 0));
  EXPECT_EQ(ReadCached("SELECT v FROM ks.kv WHERE k = 1"), std::vector<int>{10});
  Both("DROP TABLE ks.kv");
  Both(kCreate);
  EXPECT_EQ(ReadCached("SELECT v FROM ks.kv WHERE k = 1"), std::vector<int>{});
  Both("INSERT INTO ks.kv (k, v) VALUES (1, 30)");
  EXPECT_EQ(ReadCached("SELECT v FROM ks.kv WHERE k = 1"), std::vector<int>{30});
}

}  // namespace
}  // namespace engine
