// TTL and tombstone purging through the embedded engine, with a manual clock: expiry of rows
// and cells (INSERT's row marker vs UPDATE's cells), default_time_to_live, ttl() counting down,
// expiring collection elements, the TTL limits and their error messages, and gc_grace purging
// seen in the raw RocksDB entries after a compaction, with no resurrection of deleted data.

#include <string>

#include <gtest/gtest.h>

#include "cql/types/value_codec.h"
#include "engine/durability_testing.h"

namespace engine {
namespace {

using testing::DatabaseFixture;
using testing::RawTableStats;
using testing::ScanRawTable;
using testing::TableStorageId;

class TtlTest : public DatabaseFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(DatabaseFixture::SetUp());
    ASSERT_NO_FATAL_FAILURE(CreateKeyspace());
  }
  // Number of rows `query` returns.
  size_t Count(std::string_view query) { return Query(query).row_count(); }
  // The single integer `query` returns; -1 when it is null, -2 when there is no single row.
  int64_t Int(std::string_view query) {
    cql::ResultSet rows = Query(query);
    if (rows.row_count() != 1) return -2;
    if (rows.IsNull(0, 0)) return -1;
    auto value = rows.GetInteger(0, 0);
    EXPECT_TRUE(value.ok()) << query;
    return value.ok() ? *value : -3;
  }
  // Closes the database, compacts `table` in the raw store and returns its raw entries; then
  // reopens the database.
  RawTableStats CompactAndScan(std::string_view table) {
    std::string id = TableStorageId(*db_, "ks", table);
    Close();
    RawTableStats stats;
    {
      std::unique_ptr<storage::Store> store = OpenRawStore();
      if (store != nullptr) {
        EXPECT_TRUE(store->CompactTable(id).ok());
        auto scanned = ScanRawTable(*store, id);
        EXPECT_TRUE(scanned.ok()) << scanned.status().ToString();
        if (scanned.ok()) stats = *scanned;
      }
    }
    Open();
    return stats;
  }
  // Table ks.t (gc_grace_seconds = 0) with rows 0..19 flushed to a file of their own, then,
  // one second later in newer files: rows 0..4 deleted, a cell tombstone in rows 5 and 6,
  // rows 20..24 inserted with TTL 5 and row 7's w overwritten with TTL 5.
  void WriteDeletesAndTtls() {
    Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int, w int) WITH gc_grace_seconds = 0");
    for (int k = 0; k < 20; ++k) {
      Run("INSERT INTO ks.t (k, v, w) VALUES (" + std::to_string(k) + ", " + std::to_string(k) +
          ", " + std::to_string(k * 10) + ")");
    }
    // The deletions must land in a newer file than the data they shadow (the case a partial
    // compaction could resurrect).
    std::string id = TableStorageId(*db_, "ks", "t");
    Close();
    {
      std::unique_ptr<storage::Store> store = OpenRawStore();
      ASSERT_NE(store, nullptr);
      ASSERT_TRUE(store->FlushTable(id).ok());
    }
    ASSERT_NO_FATAL_FAILURE(Open());
    AdvanceSeconds(1);
    for (int k = 0; k < 5; ++k) Run("DELETE FROM ks.t WHERE k = " + std::to_string(k));
    Run("UPDATE ks.t SET v = null WHERE k = 5");
    Run("DELETE w FROM ks.t WHERE k = 6");
    for (int k = 20; k < 25; ++k) {
      Run("INSERT INTO ks.t (k, v) VALUES (" + std::to_string(k) + ", 1) USING TTL 5");
    }
    Run("UPDATE ks.t USING TTL 5 SET w = 99 WHERE k = 7");
  }
  // What ks.t of WriteDeletesAndTtls reads once every TTL has run out.
  void ExpectReadsAfterDeletesAndTtls() {
    EXPECT_EQ(Count("SELECT k, v, w FROM ks.t"), 15u);
    EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k IN (0, 1, 2, 3, 4, 20, 21, 22, 23, 24)"), 0u);
    EXPECT_EQ(Int("SELECT v FROM ks.t WHERE k = 5"), -1);
    EXPECT_EQ(Int("SELECT w FROM ks.t WHERE k = 5"), 50);
    EXPECT_EQ(Int("SELECT w FROM ks.t WHERE k = 6"), -1);
    EXPECT_EQ(Int("SELECT v FROM ks.t WHERE k = 6"), 6);
    // The expired overwrite shadowed w = 70 (last write wins per cell): it stays null.
    EXPECT_EQ(Int("SELECT w FROM ks.t WHERE k = 7"), -1);
    EXPECT_EQ(Int("SELECT v FROM ks.t WHERE k = 7"), 7);
    EXPECT_EQ(Int("SELECT v FROM ks.t WHERE k = 19"), 19);
    Open();
    EXPECT_EQ(Count("SELECT k, v, w FROM ks.t"), 15u);
  }
  // Raw entries of `table` without compacting (the database is closed and reopened).
  RawTableStats Scan(std::string_view table) { return RawStats(TableStorageId(*db_, "ks", table)); }
};

TEST_F(TtlTest, InsertUsingTtlExpiresTheWholeRowAndTtlCountsDown) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int, w int)");
  Run("INSERT INTO ks.t (k, v, w) VALUES (1, 10, 20) USING TTL 100");
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 1"), 100);
  AdvanceSeconds(30);
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 1"), 70);
  EXPECT_EQ(Int("SELECT ttl(w) FROM ks.t WHERE k = 1"), 70);
  AdvanceSeconds(69.5);  // 0.5 s left: ttl() rounds up to a whole second
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 1"), 1);
  EXPECT_EQ(Int("SELECT v FROM ks.t WHERE k = 1"), 10);
  AdvanceSeconds(0.5);  // exactly the expiration time: dead (live iff now < expiration)
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 1"), 0u);
  EXPECT_EQ(Count("SELECT * FROM ks.t"), 0u);
}

TEST_F(TtlTest, PrimaryKeyOnlyInsertWithTtlExpires) {
  Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
  Run("INSERT INTO ks.t (k, c) VALUES (1, 1) USING TTL 10");
  Run("INSERT INTO ks.t (k, c) VALUES (1, 2)");
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 1"), 2u);
  AdvanceSeconds(10);
  cql::ResultSet rows = Query("SELECT c FROM ks.t WHERE k = 1");
  ASSERT_EQ(rows.row_count(), 1u);
  EXPECT_EQ(*rows.GetInteger(0, 0), 2);
}

TEST_F(TtlTest, UpdateWithTtlMakesTheRowVanishWhenItsCellsExpire) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int, w int)");
  Run("UPDATE ks.t USING TTL 10 SET v = 1, w = 2 WHERE k = 1");
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 1"), 1u);
  AdvanceSeconds(9);
  EXPECT_EQ(Int("SELECT ttl(w) FROM ks.t WHERE k = 1"), 1);
  AdvanceSeconds(1);
  // No row marker: with its cells gone, the row is gone.
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 1"), 0u);
  EXPECT_EQ(Count("SELECT * FROM ks.t"), 0u);
}

TEST_F(TtlTest, UpdateCellsWithDifferentTtlsKeepTheRowUntilTheLastExpires) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int, w int)");
  Run("UPDATE ks.t USING TTL 10 SET v = 1 WHERE k = 1");
  Run("UPDATE ks.t USING TTL 20 SET w = 2 WHERE k = 1");
  AdvanceSeconds(10);
  cql::ResultSet rows = Query("SELECT v, w FROM ks.t WHERE k = 1");
  ASSERT_EQ(rows.row_count(), 1u);
  EXPECT_TRUE(rows.IsNull(0, 0));
  EXPECT_EQ(*rows.GetInteger(0, 1), 2);
  AdvanceSeconds(10);
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 1"), 0u);
}

TEST_F(TtlTest, InsertWithTtlThenUpdateWithoutTtlKeepsTheRow) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int, w int)");
  Run("INSERT INTO ks.t (k, v) VALUES (1, 1) USING TTL 10");
  Run("UPDATE ks.t SET w = 2 WHERE k = 1");
  AdvanceSeconds(10);
  // The marker and v expired; w has no TTL and keeps the row alive.
  cql::ResultSet rows = Query("SELECT k, v, w FROM ks.t WHERE k = 1");
  ASSERT_EQ(rows.row_count(), 1u);
  EXPECT_EQ(*rows.GetInteger(0, 0), 1);
  EXPECT_TRUE(rows.IsNull(0, 1));
  EXPECT_EQ(*rows.GetInteger(0, 2), 2);
  // Deleting w now removes the row: nothing live is left.
  Run("DELETE w FROM ks.t WHERE k = 1");
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 1"), 0u);
}

TEST_F(TtlTest, RowMarkerTtlAndCellTtlAreIndependent) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  // A marker without TTL outlives an expiring cell: the row stays, with v null.
  Run("INSERT INTO ks.t (k, v) VALUES (1, 1)");
  Run("UPDATE ks.t USING TTL 10 SET v = 2 WHERE k = 1");
  // A marker with a long TTL outlives a cell with a short one.
  Run("INSERT INTO ks.t (k, v) VALUES (2, 1) USING TTL 100");
  Run("UPDATE ks.t USING TTL 10 SET v = 2 WHERE k = 2");
  // A marker with a short TTL dies before a cell with a long one: the row stays for the cell.
  Run("INSERT INTO ks.t (k) VALUES (3) USING TTL 10");
  Run("UPDATE ks.t USING TTL 100 SET v = 3 WHERE k = 3");
  EXPECT_EQ(Int("SELECT v FROM ks.t WHERE k = 1"), 2);
  AdvanceSeconds(10);
  EXPECT_EQ(Int("SELECT v FROM ks.t WHERE k = 1"), -1);
  EXPECT_EQ(Int("SELECT v FROM ks.t WHERE k = 2"), -1);
  EXPECT_EQ(Int("SELECT v FROM ks.t WHERE k = 3"), 3);
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 3"), 90);
  AdvanceSeconds(90);
  EXPECT_EQ(Int("SELECT v FROM ks.t WHERE k = 1"), -1);  // never expires
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 2"), 0u);
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 3"), 0u);
  EXPECT_EQ(Count("SELECT * FROM ks.t"), 1u);
}

TEST_F(TtlTest, DefaultTimeToLiveAppliesUnlessUsingTtlOverridesIt) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int) WITH default_time_to_live = 10");
  Run("INSERT INTO ks.t (k, v) VALUES (1, 1)");
  Run("INSERT INTO ks.t (k, v) VALUES (2, 2) USING TTL 0");  // explicit 0: no TTL at all
  Run("INSERT INTO ks.t (k, v) VALUES (3, 3) USING TTL 50");
  Run("UPDATE ks.t SET v = 4 WHERE k = 4");
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 1"), 10);
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 2"), -1);
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 3"), 50);
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 4"), 10);
  AdvanceSeconds(10);
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 1"), 0u);
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 4"), 0u);
  EXPECT_EQ(Int("SELECT v FROM ks.t WHERE k = 2"), 2);
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 3"), 40);

  // Changing the default affects later writes only.
  Run("ALTER TABLE ks.t WITH default_time_to_live = 0");
  Run("INSERT INTO ks.t (k, v) VALUES (5, 5)");
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 5"), -1);
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 3"), 40);
}

TEST_F(TtlTest, BoundTtlUnsetUsesTheDefault) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int) WITH default_time_to_live = 10");
  auto prepared = session_->Prepare("INSERT INTO ks.t (k, v) VALUES (?, ?) USING TTL ?");
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  auto execute = [&](int k, cql::BoundValue ttl) {
    cql::QueryOptions options;
    options.values = {cql::BoundValue::Of(cql::SerializeInt(k)),
                      cql::BoundValue::Of(cql::SerializeInt(k)), std::move(ttl)};
    return session_->ExecutePrepared(**prepared, options);
  };
  ASSERT_TRUE(execute(1, cql::BoundValue::Unset()).ok());
  ASSERT_TRUE(execute(2, cql::BoundValue::Of(cql::SerializeInt(0))).ok());
  ASSERT_TRUE(execute(3, cql::BoundValue::Of(cql::SerializeInt(30))).ok());
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 1"), 10);
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 2"), -1);
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 3"), 30);

  // Null, negative and too large bound TTLs: tests/cql/engine/modification.test.
}

TEST_F(TtlTest, TtlZeroMeansNoExpiry) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  Run("INSERT INTO ks.t (k, v) VALUES (1, 1) USING TTL 0");
  Run("UPDATE ks.t USING TTL 0 SET v = 2 WHERE k = 2");
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 1"), -1);
  AdvanceSeconds(20.0 * 365 * 24 * 3600);  // twenty years
  EXPECT_EQ(Int("SELECT v FROM ks.t WHERE k = 1"), 1);
  EXPECT_EQ(Int("SELECT v FROM ks.t WHERE k = 2"), 2);
}

TEST_F(TtlTest, TheLongestTtlIsKept) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  Run("INSERT INTO ks.t (k, v) VALUES (1, 1) USING TTL 630720000");
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 1"), 630720000);
  Run("UPDATE ks.t USING TTL 630720000 SET v = 2 WHERE k = 2");
  EXPECT_EQ(Int("SELECT ttl(v) FROM ks.t WHERE k = 2"), 630720000);

  // The refusals (too large, negative, the table option's bounds) are in
  // tests/cql/engine/modification.test.
  Run("CREATE TABLE ks.longest (k int PRIMARY KEY, v int) WITH default_time_to_live = 630720000");
}

TEST_F(TtlTest, ExpiredCollectionElementsDisappear) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, s set<int>, m map<int, text>, l list<int>)");
  Run("INSERT INTO ks.t (k, s, m, l) VALUES (1, {1, 2}, {1: 'a'}, [1])");
  Run("UPDATE ks.t USING TTL 10 SET s = s + {3}, m[2] = 'b', l = l + [2] WHERE k = 1");
  Run("UPDATE ks.t USING TTL 20 SET m[1] = 'z' WHERE k = 1");  // overwrites a permanent entry
  cql::ResultSet before = Query("SELECT s, m, l FROM ks.t WHERE k = 1");
  ASSERT_EQ(before.row_count(), 1u);
  EXPECT_EQ(
      before.Value(0, 0),
      cql::SerializeCollection(cql::CqlType::Set(cql::CqlType::Int()),
                               {cql::SerializeInt(1), cql::SerializeInt(2), cql::SerializeInt(3)}));
  AdvanceSeconds(10);
  cql::ResultSet after = Query("SELECT s, m, l FROM ks.t WHERE k = 1");
  ASSERT_EQ(after.row_count(), 1u);
  EXPECT_EQ(after.Value(0, 0),
            cql::SerializeCollection(cql::CqlType::Set(cql::CqlType::Int()),
                                     {cql::SerializeInt(1), cql::SerializeInt(2)}));
  EXPECT_EQ(after.Value(0, 1),
            cql::SerializeMap(cql::CqlType::Map(cql::CqlType::Int(), cql::CqlType::Text()),
                              {{cql::SerializeInt(1), "z"}}));
  EXPECT_EQ(after.Value(0, 2), cql::SerializeCollection(cql::CqlType::List(cql::CqlType::Int()),
                                                        {cql::SerializeInt(1)}));
  AdvanceSeconds(10);
  cql::ResultSet last = Query("SELECT m FROM ks.t WHERE k = 1");
  ASSERT_EQ(last.row_count(), 1u);
  EXPECT_TRUE(last.IsNull(0, 0));  // the only entry left expired: an empty map reads as null

  // A collection written only by an expiring UPDATE takes its row with it.
  Run("UPDATE ks.t USING TTL 5 SET s = {7} WHERE k = 2");
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 2"), 1u);
  AdvanceSeconds(5);
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k = 2"), 0u);
}

// gc_grace_seconds = 0 and a single full compaction once the clock has moved past every
// deletion and TTL: tombstones and expired data are gone from the raw entries, and what is
// left reads exactly as before (no deleted row or cell comes back).
TEST_F(TtlTest, GcGraceZeroOneCompactionPurgesTombstonesAndExpiredCellsWithoutResurrection) {
  ASSERT_NO_FATAL_FAILURE(WriteDeletesAndTtls());
  RawTableStats before = Scan("t");
  EXPECT_GE(before.tombstones(), 7) << before;
  EXPECT_EQ(before.expiring_cells, 6) << before;

  AdvanceSeconds(10);  // past every TTL and (gc_grace 0) past every deletion
  RawTableStats after = CompactAndScan("t");
  EXPECT_EQ(after.tombstones(), 0) << after;
  EXPECT_EQ(after.expiring_cells, 0) << after;
  EXPECT_EQ(after.entries, 15) << after;  // rows 5..19; 0..4 deleted, 20..24 expired
  EXPECT_EQ(after.liveness_markers, 15) << after;
  // 15 rows with v and w, minus v of row 5, w of row 6 and the expired w of row 7.
  EXPECT_EQ(after.live_cells, 30 - 3) << after;
  ExpectReadsAfterDeletesAndTtls();
}

// The same data compacted twice: first while the TTLs still run (nothing live or expiring may
// go), then past them. Whatever the first compaction does, the second leaves only live data.
TEST_F(TtlTest, GcGraceZeroCompactionsBeforeAndAfterExpiryKeepLiveDataOnly) {
  ASSERT_NO_FATAL_FAILURE(WriteDeletesAndTtls());
  AdvanceSeconds(1);
  RawTableStats early = CompactAndScan("t");
  EXPECT_EQ(early.expiring_cells, 6) << early;
  EXPECT_EQ(Count("SELECT * FROM ks.t"), 20u);
  EXPECT_EQ(Count("SELECT * FROM ks.t WHERE k IN (0, 1, 2, 3, 4)"), 0u);

  AdvanceSeconds(10);
  RawTableStats after = CompactAndScan("t");
  EXPECT_EQ(after.tombstones(), 0) << after;
  EXPECT_EQ(after.expiring_cells, 0) << after;
  EXPECT_EQ(after.entries, 15) << after;
  EXPECT_EQ(after.live_cells, 30 - 3) << after;
  ExpectReadsAfterDeletesAndTtls();
}

// Partition and range tombstones on a clustered table, with a real grace period: nothing is
// purged before it ends, everything after, and the deleted rows stay deleted.
TEST_F(TtlTest, PartitionAndRangeTombstonesArePurgedOnlyAfterGcGrace) {
  Run("CREATE TABLE ks.c (k int, c int, v int, PRIMARY KEY (k, c)) WITH gc_grace_seconds = 60");
  for (int k = 0; k < 3; ++k) {
    for (int c = 0; c < 10; ++c) {
      Run("INSERT INTO ks.c (k, c, v) VALUES (" + std::to_string(k) + ", " + std::to_string(c) +
          ", " + std::to_string(c) + ")");
    }
  }
  AdvanceSeconds(1);
  Run("DELETE FROM ks.c WHERE k = 0");                   // partition tombstone
  Run("DELETE FROM ks.c WHERE k = 1 AND c >= 5");        // range tombstone
  Run("DELETE FROM ks.c WHERE k = 2 AND c = 3");         // row tombstone
  Run("INSERT INTO ks.c (k, c, v) VALUES (1, 7, 700)");  // newer than the range tombstone

  auto check_reads = [&]() {
    EXPECT_EQ(Count("SELECT * FROM ks.c WHERE k = 0"), 0u);
    cql::ResultSet one = Query("SELECT c, v FROM ks.c WHERE k = 1");
    ASSERT_EQ(one.row_count(), 6u);
    EXPECT_EQ(*one.GetInteger(5, 0), 7);
    EXPECT_EQ(*one.GetInteger(5, 1), 700);
    EXPECT_EQ(Count("SELECT * FROM ks.c WHERE k = 2"), 9u);
    EXPECT_EQ(Count("SELECT * FROM ks.c WHERE k = 2 AND c = 3"), 0u);
    EXPECT_EQ(Count("SELECT * FROM ks.c"), 15u);
  };
  check_reads();

  AdvanceSeconds(30);  // within gc_grace: tombstones stay
  RawTableStats within = CompactAndScan("c");
  EXPECT_GE(within.row_deletions, 3) << within;
  check_reads();

  AdvanceSeconds(40);  // past gc_grace
  RawTableStats after = CompactAndScan("c");
  EXPECT_EQ(after.tombstones(), 0) << after;
  EXPECT_EQ(after.entries, 15) << after;
  check_reads();
  Open();  // and once more from a fresh start
  check_reads();
}

// A tombstone stays while gc_grace has not elapsed; lowering gc_grace with ALTER TABLE takes
// effect at the next compaction, which leaves nothing of the deleted row.
TEST_F(TtlTest, AlterTableGcGraceChangesWhenTombstonesArePurged) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");  // default gc_grace: 10 days
  Run("INSERT INTO ks.t (k, v) VALUES (1, 1)");
  Run("DELETE FROM ks.t WHERE k = 1");
  AdvanceSeconds(3600);
  RawTableStats kept = CompactAndScan("t");
  EXPECT_EQ(kept.row_deletions, 1) << kept;
  EXPECT_EQ(Count("SELECT * FROM ks.t"), 0u);
  Run("ALTER TABLE ks.t WITH gc_grace_seconds = 60");
  RawTableStats purged = CompactAndScan("t");
  EXPECT_EQ(purged.entries, 0) << purged;
  EXPECT_EQ(Count("SELECT * FROM ks.t"), 0u);
}

}  // namespace
}  // namespace engine
