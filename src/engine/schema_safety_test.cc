// Schema safety end to end on the embedded engine (issue 12, finding 1): the type-depth limit
// holds on every DDL path and at the limit survives a restart; a data directory whose catalogue
// holds an unreadable or too-deep table opens with that table quarantined and the rest served.

#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cql/types/type_depth.h"
#include "engine/data_check.h"
#include "engine/database.h"
#include "engine/durability_testing.h"
#include "engine/table_schema.h"
#include "schema/catalog_codec.h"
#include "schema/catalog_store.h"

namespace engine {
namespace {

using common::StatusCode;

std::string FrozenLists(int depth, const std::string& leaf = "int") {
  std::string text = leaf;
  for (int i = 0; i < depth; ++i) text = "frozen<list<" + text + ">>";
  return text;
}

std::string NestedListLiteral(int depth) {
  std::string text = "7";
  for (int i = 0; i < depth; ++i) text = "[" + text + "]";
  return text;
}

class SchemaSafetyTest : public testing::DatabaseFixture {
 protected:
  void SetUp() override {
    DatabaseFixture::SetUp();
    Run("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
  }
  common::Status Error(std::string_view query) {
    auto result = session_->Execute(query);
    EXPECT_FALSE(result.ok()) << query;
    return result.ok() ? common::Status::Ok() : result.status();
  }
  // Runs `--check` on the (closed) directory.
  DataCheckReport Check() {
    Close();
    auto report = CheckDataDirectory(directory_.path());
    EXPECT_TRUE(report.ok()) << report.status().ToString();
    return report.ok() ? std::move(report).value() : DataCheckReport{};
  }
  static std::string Joined(const DataCheckReport& report) {
    return fmt::format("{}", fmt::join(report.lines, "\n"));
  }
};

TEST_F(SchemaSafetyTest, TheFindingsStatementsAreRejectedOnEveryPath) {
  // The finding's table: 65 levels of frozen lists.
  common::Status status = Error("CREATE TABLE k.t (k int PRIMARY KEY, v " + FrozenLists(65) + ")");
  EXPECT_EQ(status.code(), StatusCode::kSyntaxError) << status.ToString();
  EXPECT_NE(status.message().find("type nested too deeply"), std::string::npos);
  // A chain of user types, each frozen inside the next, stops at 32.
  Run("CREATE TYPE k.t1 (x int)");
  for (int i = 2; i <= cql::kMaxTypeDepth; ++i) {
    Run(fmt::format("CREATE TYPE k.t{} (x frozen<t{}>)", i, i - 1));
  }
  status = Error("CREATE TYPE k.t33 (x frozen<t32>)");
  EXPECT_EQ(status.code(), StatusCode::kInvalid);
  EXPECT_EQ(status.message(),
            "Type k.t33 is nested too deeply: 33 levels of collections, tuples, vectors and user "
            "types, more than the limit of 32");
  EXPECT_EQ(Error("CREATE TABLE k.t (k int PRIMARY KEY, v tuple<int, frozen<t32>>)").code(),
            StatusCode::kInvalid);
  Run("CREATE TABLE k.t (k int PRIMARY KEY, v frozen<t31>)");
  EXPECT_EQ(Error("ALTER TABLE k.t ADD w list<frozen<t32>>").code(), StatusCode::kInvalid);
  EXPECT_EQ(Error("ALTER TYPE k.t1 ADD y frozen<set<int>>").code(), StatusCode::kInvalid);
  // Nothing of that reached the catalogue, and the directory reopens.
  ASSERT_NO_FATAL_FAILURE(Open());
  EXPECT_EQ(db_->catalog()->FindType("k", "t33"), nullptr);
  EXPECT_EQ(db_->catalog()->FindTable("k", "t")->FindColumn("w"), nullptr);
  EXPECT_EQ(cql::TypeDepth(*db_->catalog()->FindType("k", "t32")), cql::kMaxTypeDepth);
}

TEST_F(SchemaSafetyTest, TypesAtTheLimitSurviveARestart) {
  Run("CREATE TYPE k.t1 (x int)");
  for (int i = 2; i <= cql::kMaxTypeDepth; ++i) {
    Run(fmt::format("CREATE TYPE k.t{} (x frozen<t{}>)", i, i - 1));
  }
  Run("CREATE TABLE k.deep (k int PRIMARY KEY, v " + FrozenLists(cql::kMaxTypeDepth) +
      ", u frozen<t32>, w map<int, " + FrozenLists(cql::kMaxTypeDepth - 1) + ">)");
  std::string udt = "7";
  for (int i = 0; i < cql::kMaxTypeDepth; ++i) udt = "{x: " + udt + "}";
  Run("INSERT INTO k.deep (k, v, u, w) VALUES (1, " + NestedListLiteral(cql::kMaxTypeDepth) + ", " +
      udt + ", {1: " + NestedListLiteral(cql::kMaxTypeDepth - 1) + "})");
  cql::ResultSet before = Query("SELECT v, u, w FROM k.deep WHERE k = 1");
  ASSERT_EQ(before.row_count(), 1u);

  DataCheckReport report = Check();
  EXPECT_TRUE(report.clean()) << Joined(report);
  ASSERT_NO_FATAL_FAILURE(Open());
  cql::ResultSet after = Query("SELECT v, u, w FROM k.deep WHERE k = 1");
  ASSERT_EQ(after.row_count(), 1u);
  for (size_t column = 0; column < 3; ++column) {
    ASSERT_TRUE(before.Value(0, column).has_value()) << column;
    EXPECT_EQ(after.Value(0, column), before.Value(0, column)) << column;
  }
}

TEST_F(SchemaSafetyTest, AnUnreadableTableIsQuarantinedAndTheRestIsServed) {
  Run("CREATE TABLE k.broken (k int PRIMARY KEY, v text)");
  Run("CREATE TABLE k.fine (k int PRIMARY KEY, v text)");
  Run("CREATE INDEX fine_v ON k.fine (v)");
  Run("INSERT INTO k.broken (k, v) VALUES (1, 'kept')");
  Run("INSERT INTO k.fine (k, v) VALUES (1, 'served')");
  const std::string broken_family = testing::TableStorageId(*db_, "k", "broken");
  const common::Uuid broken_id = db_->catalog()->FindTable("k", "broken")->id;
  const std::string key = schema::CatalogEntryKey(schema::EntryKind::kTable, "k", "broken");
  Close();
  {
    std::unique_ptr<storage::Store> store = OpenRawStore();
    ASSERT_NE(store, nullptr);
    storage::WriteBatch batch;
    batch.PutMeta(key, "\x02\x03not a table");
    ASSERT_TRUE(store->Write(batch).ok());
  }

  DataCheckReport report = Check();
  EXPECT_EQ(report.damaged, 1) << Joined(report);
  EXPECT_NE(Joined(report).find(fmt::format("QUARANTINED table k.broken (id {}): Corrupted "
                                            "schema catalogue: ",
                                            broken_id.ToString())),
            std::string::npos)
      << Joined(report);
  EXPECT_NE(Joined(report).find("  table k.fine"), std::string::npos) << Joined(report);

  ASSERT_NO_FATAL_FAILURE(Open());
  cql::ResultSet rows = Query("SELECT v FROM k.fine WHERE v = 'served'");
  ASSERT_EQ(rows.row_count(), 1u);
  EXPECT_EQ(*rows.GetText(0, 0), "served");
  EXPECT_EQ(Error("SELECT * FROM k.broken").code(), StatusCode::kInvalid);
  common::Status create = Error("CREATE TABLE IF NOT EXISTS k.broken (k int PRIMARY KEY)");
  EXPECT_EQ(create.code(), StatusCode::kInvalid);
  EXPECT_NE(create.message().find("cqld --data DIR --check"), std::string::npos)
      << create.message();
  Run("CREATE TABLE k.later (k int PRIMARY KEY)");
  ASSERT_NO_FATAL_FAILURE(Open());  // a restart keeps the quarantine and the new table
  Run("INSERT INTO k.later (k) VALUES (1)");
  Close();

  // The quarantined table's definition and data are untouched on disk.
  std::unique_ptr<storage::Store> store = OpenRawStore();
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(store->HasTable(broken_family));
  auto stats = testing::ScanRawTable(*store, broken_family);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->entries, 1);
  auto entry = store->GetMeta(key);
  ASSERT_TRUE(entry.ok());
  EXPECT_EQ(*entry, common::Bytes("\x02\x03not a table"));
}

// A directory written by an earlier version (format 1 catalogue) that holds the finding's
// table: it used to refuse to open ("type nested too deeply"); now it opens without it.
TEST_F(SchemaSafetyTest, AFormatOneDirectoryWithTheFindingsTableOpens) {
  Run("CREATE TABLE k.fine (k int PRIMARY KEY, v text)");
  Run("INSERT INTO k.fine (k, v) VALUES (1, 'served')");
  std::shared_ptr<const schema::Catalog> catalog = db_->catalog();
  Close();
  auto keyspace = std::make_shared<schema::KeyspaceMetadata>(*catalog->FindKeyspace("k"));
  auto deep = std::make_shared<schema::TableMetadata>(*keyspace->tables.at("fine"));
  deep->id = common::Uuid::Random();
  deep->name = "t";
  cql::CqlType type = cql::CqlType::Int();
  for (int i = 0; i < 65; ++i) type = cql::CqlType::List(type, true);
  deep->columns[1].type = type;
  keyspace->tables.emplace("t", deep);
  {
    std::unique_ptr<storage::Store> store = OpenRawStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->CreateTable(StorageId(deep->id), storage::TableOptions{}).ok());
    storage::WriteBatch batch;
    batch.DeleteMeta(schema::kCatalogManifestKey);
    batch.PutMeta(schema::kLegacyCatalogKey,
                  schema::EncodeCatalog(*catalog->WithKeyspace(keyspace)));
    ASSERT_TRUE(store->Write(batch).ok());
  }
  DataCheckReport report = Check();
  EXPECT_EQ(report.damaged, 1) << Joined(report);
  EXPECT_NE(Joined(report).find("catalogue: format 1"), std::string::npos) << Joined(report);

  ASSERT_NO_FATAL_FAILURE(Open());
  EXPECT_EQ(*Query("SELECT v FROM k.fine WHERE k = 1").GetText(0, 0), "served");
  EXPECT_EQ(Error("SELECT * FROM k.t").code(), StatusCode::kInvalid);
  ASSERT_EQ(db_->catalog()->quarantined().size(), 1u);
  EXPECT_NE(db_->catalog()->quarantined()[0].reason.find("Column k.t.v is nested too deeply: "
                                                         "65 levels"),
            std::string::npos);
  report = Check();  // migrated: format 2 now, the table still quarantined, its data kept
  EXPECT_NE(Joined(report).find("catalogue: format 2"), std::string::npos) << Joined(report);
  EXPECT_NE(Joined(report).find("QUARANTINED table k.t"), std::string::npos) << Joined(report);
  EXPECT_NE(Joined(report).find(fmt::format("column family {}", StorageId(deep->id))),
            std::string::npos)
      << Joined(report);
}

}  // namespace
}  // namespace engine
