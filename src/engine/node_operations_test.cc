#include "engine/node_operations.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/durability_testing.h"

namespace engine {
namespace {

using testing::DatabaseFixture;
using testing::RawTableStats;
using testing::TableStorageId;

class NodeOperationsTest : public DatabaseFixture {
 protected:
  void SetUp() override {
    DatabaseFixture::SetUp();
    CreateKeyspace("ks");
    CreateKeyspace("other");
    Run("CREATE TABLE ks.t (k int PRIMARY KEY, v text) WITH gc_grace_seconds = 10");
    Run("CREATE TABLE ks.u (k int PRIMARY KEY, v text)");
    Run("CREATE TABLE other.w (k int PRIMARY KEY, v text)");
    for (int k = 0; k < 20; ++k) {
      Run("INSERT INTO ks.t (k, v) VALUES (" + std::to_string(k) + ", 'value')");
    }
    Run("INSERT INTO other.w (k, v) VALUES (1, 'w')");
  }
  NodeOperations Operations() { return NodeOperations(db_.get()); }
  std::string SnapshotFolder(const std::string& tag) {
    return NodeOperations::SnapshotRoot(db_->directory()) + "/" + tag;
  }
  size_t SstFiles() {
    size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(db_->directory())) {
      if (entry.path().extension() == ".sst") ++count;
    }
    return count;
  }
};

TEST_F(NodeOperationsTest, FlushChoosesTablesAndNamesWhatIsMissing) {
  NodeOperations operations = Operations();
  EXPECT_EQ(SstFiles(), 0u);
  ASSERT_TRUE(operations.Flush("ks", {"t"}).ok());
  EXPECT_EQ(SstFiles(), 1u);
  ASSERT_TRUE(operations.Flush("", {}).ok());  // everything: other.w and the catalogue too
  EXPECT_GE(SstFiles(), 3u);
  common::Status missing = operations.Flush("nope", {});
  EXPECT_EQ(missing.code(), common::StatusCode::kInvalid);
  EXPECT_EQ(missing.message(), "Keyspace nope does not exist");
  common::Status no_table = operations.Flush("ks", {"nope"});
  EXPECT_EQ(no_table.message(), "Unknown keyspace/cf pair (ks.nope)");
  EXPECT_EQ(operations.Compact("ks", {"nope"}).message(), "Unknown keyspace/cf pair (ks.nope)");
}

TEST_F(NodeOperationsTest, CompactPurgesTombstonesPastGcGrace) {
  const std::string id = TableStorageId(*db_, "ks", "t");
  Run("DELETE FROM ks.t WHERE k = 1");
  Run("UPDATE ks.t SET v = null WHERE k = 2");
  EXPECT_GT(RawStats(id).tombstones(), 0);
  AdvanceSeconds(11);  // past gc_grace_seconds
  ASSERT_TRUE(Operations().Compact("ks", {"t"}).ok());
  RawTableStats after = RawStats(id);
  EXPECT_EQ(after.tombstones(), 0) << after;
  EXPECT_EQ(after.entries, 19);  // k = 1 is gone, k = 2 keeps its row marker
  EXPECT_EQ(Query("SELECT * FROM ks.t").row_count(), 19u);
}

TEST_F(NodeOperationsTest, SnapshotIsTheWholeDatabaseWithAManifest) {
  NodeOperations operations = Operations();
  ASSERT_TRUE(operations.Snapshot("before", {"ks"}).ok());
  EXPECT_TRUE(std::filesystem::exists(SnapshotFolder("before") + "/manifest.json"));
  common::Status again = operations.Snapshot("before", {});
  EXPECT_EQ(again.code(), common::StatusCode::kAlreadyExists);
  EXPECT_EQ(again.message(), "Snapshot before already exists.");
  EXPECT_EQ(operations.Snapshot("x", {"nope"}).message(), "Keyspace nope does not exist");
  for (const char* bad : {"", "..", ".hidden", "a/b", "../escape", "x.tmp", "sp ace"}) {
    EXPECT_EQ(operations.Snapshot(bad, {}).code(), common::StatusCode::kInvalid) << bad;
  }
  EXPECT_FALSE(std::filesystem::exists(db_->directory() + "/escape"));

  auto list = operations.ListSnapshots();
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  ASSERT_EQ(list->size(), 1u);
  const SnapshotDetails& snapshot = list->front();
  EXPECT_EQ(snapshot.tag, "before");
  EXPECT_EQ(snapshot.keyspaces, std::vector<std::string>{"ks"});
  EXPECT_FALSE(snapshot.created_at.empty());
  std::vector<std::string> names;
  uint64_t t_bytes = 0;
  for (const SnapshotTable& table : snapshot.tables) {
    names.push_back(table.keyspace + "." + table.table);
    if (table.table == "t") t_bytes = table.disk_bytes;
    EXPECT_EQ(table.true_bytes, table.table == "catalogue" ? table.true_bytes : 0u)
        << "table files are hard links to live ones";
  }
  // Every table, of every keyspace, then the rest.
  EXPECT_EQ(names, (std::vector<std::string>{"ks.t", "ks.u", "other.w", "-.catalogue"}));
  EXPECT_GT(t_bytes, 0u);

  // Once the live files are compacted away, the snapshot's own bytes are its true size.
  Run("INSERT INTO ks.t (k, v) VALUES (100, 'new')");
  ASSERT_TRUE(operations.Flush("ks", {"t"}).ok());
  ASSERT_TRUE(operations.Compact("ks", {"t"}).ok());
  list = operations.ListSnapshots();
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->front().tables.front().true_bytes, t_bytes);
}

TEST_F(NodeOperationsTest, ClearSnapshotsByTagOrKeyspace) {
  NodeOperations operations = Operations();
  ASSERT_TRUE(operations.Snapshot("a", {}).ok());
  ASSERT_TRUE(operations.Snapshot("b", {"ks"}).ok());
  ASSERT_TRUE(operations.Snapshot("c", {"other"}).ok());
  EXPECT_EQ(*operations.ClearSnapshots("nope", {}), 0u);
  EXPECT_EQ(operations.ClearSnapshots("../a", {}).status().code(), common::StatusCode::kInvalid);
  EXPECT_EQ(*operations.ClearSnapshots("", {"ks"}), 1u);  // b; a is of all keyspaces
  EXPECT_FALSE(std::filesystem::exists(SnapshotFolder("b")));
  EXPECT_EQ(*operations.ClearSnapshots("a", {}), 1u);
  EXPECT_EQ(*operations.ClearSnapshots("", {}), 1u);  // c
  EXPECT_TRUE(operations.ListSnapshots()->empty());
}

TEST_F(NodeOperationsTest, SnapshotRestoresAsADataDirectory) {
  NodeOperations operations = Operations();
  ASSERT_TRUE(operations.Snapshot("before", {}).ok());
  Run("DELETE FROM ks.t WHERE k = 3");
  Run("DROP TABLE other.w");
  const std::string snapshot = SnapshotFolder("before");
  Close();
  // docs/operations.md §6: the snapshot's files become the data directory.
  const std::string data = directory_.path();
  std::filesystem::rename(data, data + ".old");
  std::filesystem::create_directories(data);
  std::filesystem::copy(data + ".old/snapshots/before", data);
  std::filesystem::remove(data + "/manifest.json");
  std::filesystem::remove_all(data + ".old");
  Open();
  EXPECT_EQ(Query("SELECT * FROM ks.t").row_count(), 20u);
  EXPECT_EQ(Query("SELECT * FROM other.w").row_count(), 1u);
}

TEST_F(NodeOperationsTest, LoadCountsDataFilesButNotSnapshots) {
  NodeOperations operations = Operations();
  ASSERT_TRUE(operations.Flush("", {}).ok());
  uint64_t load = operations.LoadBytes();
  EXPECT_GT(load, 0u);
  ASSERT_TRUE(operations.Snapshot("s", {}).ok());  // flushes nothing new: same files, linked
  EXPECT_LT(operations.LoadBytes(), load + 64 * 1024);
}

}  // namespace
}  // namespace engine
