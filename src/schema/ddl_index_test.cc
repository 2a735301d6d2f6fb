// Tests of CREATE INDEX / DROP INDEX (ddl_index.cc).

#include <gtest/gtest.h>

#include "schema/ddl.h"
#include "schema/ddl_testing.h"

namespace schema {
namespace {

using common::StatusCode;

class DdlIndexTest : public DdlFixture {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ApplyScript(&catalog_, kReservationSchema).ok());
    Apply(
        "CREATE TABLE reservation.t (k int, c int, s int STATIC, v text, l list<int>, "
        "fl frozen<list<int>>, m map<text, int>, fm frozen<map<text, int>>, a address, "
        "fa frozen<address>, d duration, ld list<duration>, PRIMARY KEY ((k), c))");
    Apply("CREATE TABLE reservation.counts (k int PRIMARY KEY, n counter)");
    Apply("CREATE TABLE reservation.pk2 (a int, b int, v int, PRIMARY KEY ((a, b)))");
  }

  const IndexMetadata* Index(std::string_view table, std::string_view name) {
    const TableMetadata* t = catalog_->FindTable("reservation", table);
    if (t == nullptr) return nullptr;
    auto it = t->indexes.find(name);
    return it == t->indexes.end() ? nullptr : &it->second;
  }
};

TEST_F(DdlIndexTest, CreateWithDefaultName) {
  auto result = Apply("CREATE INDEX ON reservation.guests (last_name)");
  EXPECT_EQ(result.change,
            (SchemaChange{ChangeType::kUpdated, ChangeTarget::kTable, "reservation", "guests"}));
  const IndexMetadata* index = Index("guests", "guests_last_name_idx");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->column, "last_name");
  EXPECT_EQ(index->target, IndexMetadata::Target::kValues);
  EXPECT_EQ(index->kind, "COMPOSITES");
  EXPECT_EQ(index->options, (std::map<std::string, std::string>{{"target", "last_name"}}));
  EXPECT_EQ(catalog_->FindKeyspace("reservation")->FindIndexedTable("guests_last_name_idx")->name,
            "guests");
  // Same target again: a duplicate; with IF NOT EXISTS nothing happens.
  ExpectError("CREATE INDEX other ON reservation.guests (last_name)", StatusCode::kInvalid,
              "Index other is a duplicate of existing index guests_last_name_idx");
  ExpectNoOp("CREATE INDEX IF NOT EXISTS other ON reservation.guests (last_name)");
}

TEST_F(DdlIndexTest, DefaultNameAvoidsTakenNames) {
  Apply("CREATE INDEX t_v_idx ON reservation.t (c)");
  Apply("CREATE INDEX ON reservation.t (v)");
  EXPECT_NE(Index("t", "t_v_idx_1"), nullptr);
}

TEST_F(DdlIndexTest, CollectionTargets) {
  Apply("CREATE INDEX ON reservation.t (l)");
  EXPECT_EQ(Index("t", "t_l_idx")->options.at("target"), "values(l)");
  Apply("CREATE INDEX mk ON reservation.t (keys(m))");
  EXPECT_EQ(Index("t", "mk")->target, IndexMetadata::Target::kKeys);
  EXPECT_EQ(Index("t", "mk")->options.at("target"), "keys(m)");
  Apply("CREATE INDEX me ON reservation.t (entries(m))");
  EXPECT_EQ(Index("t", "me")->options.at("target"), "entries(m)");
  Apply("CREATE INDEX mv ON reservation.t (values(m))");
  EXPECT_EQ(Index("t", "mv")->options.at("target"), "values(m)");
  Apply("CREATE INDEX ff ON reservation.t (full(fl))");
  EXPECT_EQ(Index("t", "ff")->target, IndexMetadata::Target::kFull);
  EXPECT_EQ(Index("t", "ff")->options.at("target"), "full(fl)");
  Apply("CREATE INDEX fa_idx ON reservation.t (fa)");
  Apply("CREATE INDEX s_idx ON reservation.t (s)");
  Apply("CREATE INDEX c_idx ON reservation.t (c)");
  Apply("CREATE INDEX ON reservation.pk2 (a)");
}

TEST_F(DdlIndexTest, Custom) {
  Apply(
      "CREATE CUSTOM INDEX cv ON reservation.t (v) USING 'org.example.MyIndex' WITH OPTIONS = "
      "{'mode': 'CONTAINS'}");
  const IndexMetadata* index = Index("t", "cv");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->kind, "CUSTOM");
  EXPECT_EQ(index->options,
            (std::map<std::string, std::string>{
                {"class_name", "org.example.MyIndex"}, {"mode", "CONTAINS"}, {"target", "v"}}));
  ExpectError("CREATE CUSTOM INDEX ON reservation.t (v)", StatusCode::kInvalid,
              "CUSTOM index requires specifiying the index class");
  ExpectError("CREATE INDEX ON reservation.t (v) USING 'x'", StatusCode::kInvalid,
              "Cannot specify index class for a non-CUSTOM index");
  ExpectError("CREATE INDEX ON reservation.t (v) WITH OPTIONS = {'a': 'b'}", StatusCode::kInvalid,
              "Cannot specify options for a non-CUSTOM index");
  ExpectError("CREATE CUSTOM INDEX ON reservation.t (v) USING 'x' WITH OPTIONS = {'target': 'v'}",
              StatusCode::kInvalid, "Cannot specify target as a CUSTOM option");
}

TEST_F(DdlIndexTest, Errors) {
  ExpectError("CREATE INDEX ON nope.t (v)", StatusCode::kInvalid, "Keyspace 'nope' doesn't exist");
  ExpectError("CREATE INDEX ON reservation.nope (v)", StatusCode::kInvalid,
              "Table 'nope' doesn't exist");
  ExpectError("CREATE INDEX ON t (v)", StatusCode::kInvalid,
              "No keyspace has been specified. USE a keyspace, or explicitly specify "
              "keyspace.tablename");
  ExpectError("CREATE INDEX ON reservation.t (nope)", StatusCode::kInvalid,
              "Undefined column name nope in table reservation.t");
  ExpectError("CREATE INDEX ON reservation.counts (n)", StatusCode::kInvalid,
              "Secondary indexes on counter tables aren't supported");
  ExpectError("CREATE INDEX ON reservation.t (k)", StatusCode::kInvalid,
              "Cannot create secondary index on the only partition key column k");
  ExpectError("CREATE INDEX ON reservation.t (fl)", StatusCode::kInvalid,
              "Cannot create values() index on frozen column fl. Frozen collections are immutable "
              "and must be fully indexed by using the 'full(fl)' modifier");
  ExpectError("CREATE INDEX ON reservation.t (keys(fm))", StatusCode::kInvalid,
              "Cannot create keys() index on frozen column fm. Frozen collections are immutable "
              "and must be fully indexed by using the 'full(fm)' modifier");
  ExpectError("CREATE INDEX ON reservation.t (full(l))", StatusCode::kInvalid,
              "full() indexes can only be created on frozen collections");
  ExpectError("CREATE INDEX ON reservation.t (full(v))", StatusCode::kInvalid,
              "full() indexes can only be created on frozen collections");
  ExpectError("CREATE INDEX ON reservation.t (values(v))", StatusCode::kInvalid,
              "Cannot create values() index on v. Non-collection columns only support simple "
              "indexes");
  ExpectError("CREATE INDEX ON reservation.t (keys(l))", StatusCode::kInvalid,
              "Cannot create index on keys of column l with non-map type");
  ExpectError("CREATE INDEX ON reservation.t (entries(l))", StatusCode::kInvalid,
              "Cannot create index on entries of column l with non-map type");
  ExpectError("CREATE INDEX ON reservation.t (a)", StatusCode::kInvalid,
              "Cannot create index on non-frozen UDT column a");
  ExpectError("CREATE INDEX ON reservation.t (d)", StatusCode::kInvalid,
              "Secondary indexes are not supported on duration columns");
  ExpectError("CREATE INDEX ON reservation.t (ld)", StatusCode::kInvalid,
              "Secondary indexes are not supported on collections containing durations");
  ExpectError("CREATE INDEX ON reservation.t (v, c)", StatusCode::kInvalid,
              "Only CUSTOM indexes support multiple columns");
  ExpectError("CREATE INDEX ON reservation.t ()", StatusCode::kInvalid,
              "Only CUSTOM indexes can be created without specifying a target column");
  Apply("CREATE INDEX named ON reservation.t (v)");
  ExpectError("CREATE INDEX named ON reservation.guests (title)", StatusCode::kInvalid,
              "Index 'named' already exists");
  ExpectNoOp("CREATE INDEX IF NOT EXISTS named ON reservation.guests (title)");
}

TEST_F(DdlIndexTest, DropIndex) {
  Apply("CREATE INDEX named ON reservation.t (v)");
  ExpectError("ALTER TABLE reservation.t DROP v", StatusCode::kInvalid,
              "Cannot drop column v because it has dependent secondary indexes (named)");
  auto result = Apply("DROP INDEX reservation.named");
  EXPECT_EQ(result.change,
            (SchemaChange{ChangeType::kUpdated, ChangeTarget::kTable, "reservation", "t"}));
  EXPECT_EQ(Index("t", "named"), nullptr);
  ExpectError("DROP INDEX reservation.named", StatusCode::kInvalid,
              "Index 'reservation.named' doesn't exist'");
  ExpectNoOp("DROP INDEX IF EXISTS reservation.named");
  Apply("CREATE INDEX named ON reservation.t (v)");
  Apply("DROP INDEX named", "reservation");
  Apply("ALTER TABLE reservation.t DROP v");
}

TEST_F(DdlIndexTest, DropTableDropsItsIndexes) {
  Apply("CREATE INDEX named ON reservation.t (v)");
  Apply("DROP TABLE reservation.t");
  EXPECT_EQ(catalog_->FindKeyspace("reservation")->FindIndexedTable("named"), nullptr);
  Apply("CREATE TABLE reservation.t (k int PRIMARY KEY, v int)");
  Apply("CREATE INDEX named ON reservation.t (v)");
}

}  // namespace
}  // namespace schema
