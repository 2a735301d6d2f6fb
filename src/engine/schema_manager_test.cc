// SchemaManager's all-or-nothing invariant (schema_manager.h): a schema change that fails part
// way leaves nothing of itself in the catalogue, its persisted copy or storage, and a retry works.

#include "engine/schema_manager.h"

#include <atomic>

#include "common/clock.h"

#include <gtest/gtest.h>

#include "engine/database.h"
#include "engine/session_testing.h"
#include "schema/catalog_store.h"
#include "storage/store.h"

namespace engine {
namespace {

class SchemaManagerTest : public testing::SessionTest {
 protected:
  SchemaManagerTest() {
    options_.purge_interval = std::chrono::seconds(0);
    options_.backfill_fault = [this](const common::Uuid&) {
      return fail_.load() ? common::Status::IOError("injected backfill failure")
                          : common::Status::Ok();
    };
  }

  size_t Count(const std::string& query) { return Query(query).row_count(); }

  // The column families of the data directory, read after closing the database.
  std::vector<std::string> FamiliesOnDisk() {
    session_.reset();
    db_.reset();
    common::SystemClock clock;
    storage::StoreOptions store_options;
    store_options.clock = &clock;
    auto store = storage::Store::Open(directory_, store_options);
    EXPECT_TRUE(store.ok()) << store.status().ToString();
    return store.ok() ? store.value()->TableIds() : std::vector<std::string>{};
  }

  std::atomic<bool> fail_{false};
};

TEST_F(SchemaManagerTest, FailedIndexBuildLeavesNothingAndRetryWorks) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  Run("INSERT INTO ks.t (k, v) VALUES (1, 10)");
  fail_ = true;
  auto failed = session_->Execute("CREATE INDEX t_v ON ks.t (v)");
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message(), "injected backfill failure");
  EXPECT_TRUE(db_->catalog()->FindKeyspace("ks")->FindTable("t")->indexes.empty());
  EXPECT_EQ(Count("SELECT * FROM system_schema.indexes WHERE keyspace_name = 'ks'"), 0u);
  EXPECT_EQ(Count("SELECT * FROM system.\"IndexInfo\""), 0u);

  fail_ = false;
  Run("CREATE INDEX t_v ON ks.t (v)");
  EXPECT_EQ(Count("SELECT k FROM ks.t WHERE v = 10"), 1u);
  EXPECT_EQ(FamiliesOnDisk().size(), 2u);  // the table's and the index's
}

TEST_F(SchemaManagerTest, FailedViewBuildLeavesNothingAndSurvivesReopen) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  Run("INSERT INTO ks.t (k, v) VALUES (1, 10)");
  fail_ = true;
  const char* create =
      "CREATE MATERIALIZED VIEW ks.by_v AS SELECT * FROM ks.t WHERE v IS NOT NULL AND k IS NOT "
      "NULL PRIMARY KEY (v, k)";
  ASSERT_FALSE(session_->Execute(create).ok());
  EXPECT_EQ(db_->catalog()->FindKeyspace("ks")->FindView("by_v"), nullptr);
  EXPECT_EQ(FamiliesOnDisk().size(), 1u);  // only the table's

  fail_ = false;
  auto db = Database::Open(directory_, options_);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  db_ = std::move(db).value();
  session_ = db_->NewSession();
  EXPECT_EQ(db_->catalog()->FindKeyspace("ks")->FindView("by_v"), nullptr);
  Run(create);
  EXPECT_EQ(Count("SELECT * FROM ks.by_v WHERE v = 10"), 1u);
}

}  // namespace
}  // namespace engine
