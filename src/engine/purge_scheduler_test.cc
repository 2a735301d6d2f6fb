// Database::Purge and the background PurgeScheduler: tombstones, the rows they shadow and
// expired data go after gc_grace_seconds without anyone opening the raw store.

#include "engine/purge_scheduler.h"

#include <chrono>

#include <gtest/gtest.h>

#include "engine/durability_testing.h"

namespace engine {
namespace {

using testing::ScanRawTable;

class PurgeTest : public testing::DatabaseFixture {
 protected:
  // Raw entry statistics of ks.t, read after closing the database.
  testing::RawTableStats Stats() { return RawStats(testing::TableStorageId(*db_, "ks", "t")); }
};

TEST_F(PurgeTest, PurgeRemovesPartitionAndRangeTombstonesWithTheRowsTheyShadow) {
  CreateKeyspace();
  Run("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c)) WITH gc_grace_seconds = 60");
  for (int c = 0; c < 10; ++c) {
    Run("INSERT INTO ks.t (k, c, v) VALUES (1, " + std::to_string(c) + ", 'x')");
    Run("INSERT INTO ks.t (k, c, v) VALUES (2, " + std::to_string(c) + ", 'y')");
  }
  Run("DELETE FROM ks.t WHERE k = 1");
  Run("DELETE FROM ks.t WHERE k = 2 AND c >= 5");
  AdvanceSeconds(30);  // within gc_grace: nothing may go
  ASSERT_TRUE(db_->Purge().ok());
  testing::RawTableStats within = Stats();
  EXPECT_EQ(within.row_deletions, 2);  // the partition and the range tombstone
  AdvanceSeconds(31);
  ASSERT_TRUE(db_->Purge().ok());
  testing::RawTableStats after = Stats();
  EXPECT_EQ(after.row_deletions, 0);
  EXPECT_EQ(after.entries, 5);  // rows k=2, c<5
  cql::ResultSet rows = Query("SELECT c FROM ks.t");
  EXPECT_EQ(rows.row_count(), 5u);
}

TEST_F(PurgeTest, BackgroundSchedulerCompactsEveryTable) {
  // The scheduler's thread starts and stops cleanly; RunOnce is what each run does.
  CreateKeyspace();
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v text) WITH gc_grace_seconds = 0");
  Run("INSERT INTO ks.t (k, v) VALUES (1, 'a')");
  Run("DELETE FROM ks.t WHERE k = 1");
  AdvanceSeconds(1);
  Close();
  {
    std::unique_ptr<storage::Store> store = OpenRawStore();
    ASSERT_NE(store, nullptr);
    PurgeScheduler scheduler(store.get(), std::chrono::hours(1));  // never fires in the test
    ASSERT_TRUE(PurgeScheduler::RunOnce(store.get()).ok());
  }
  Open();
  EXPECT_EQ(Stats().entries, 0);
}

}  // namespace
}  // namespace engine
