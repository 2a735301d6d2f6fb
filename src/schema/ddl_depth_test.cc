// Tests of the type-depth limit in DDL (cql/types/type_depth.h): depth counted through user types,
// in CREATE TABLE, ALTER TABLE ADD, CREATE TYPE and ALTER TYPE ADD.

#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "cql/parser/parser.h"
#include "cql/types/type_depth.h"
#include "schema/ddl.h"
#include "schema/ddl_testing.h"

namespace schema {
namespace {

using common::StatusCode;
using cql::CqlType;

std::string TooDeep(std::string_view subject, int depth) {
  return fmt::format(
      "{} is nested too deeply: {} levels of collections, tuples, vectors and user types, more "
      "than the limit of 32",
      subject, depth);
}

class DdlDepthTest : public DdlFixture {
 protected:
  void SetUp() override {
    Apply(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    // t1 .. t32: a chain of user types, each frozen inside the next; tN is N levels deep.
    Apply("CREATE TYPE ks.t1 (x int)");
    for (int i = 2; i <= cql::kMaxTypeDepth; ++i) {
      Apply(fmt::format("CREATE TYPE ks.t{} (x frozen<t{}>)", i, i - 1));
    }
  }
};

TEST_F(DdlDepthTest, UserTypeChainsCountEveryLevel) {
  EXPECT_EQ(cql::TypeDepth(*catalog_->FindType("ks", "t32")), cql::kMaxTypeDepth);
  ExpectError("CREATE TYPE ks.t33 (x frozen<t32>)", StatusCode::kInvalid,
              TooDeep("Type ks.t33", 33));
  ExpectError("CREATE TYPE ks.u (x int, y frozen<list<frozen<t32>>>)", StatusCode::kInvalid,
              TooDeep("Type frozen<list<frozen<t32>>>", 33));
  Apply("CREATE TABLE ks.at_limit (k int PRIMARY KEY, v frozen<t32>, w t32)");
}

TEST_F(DdlDepthTest, TablesRejectColumnsOneLevelTooDeep) {
  ExpectError("CREATE TABLE ks.t (k int PRIMARY KEY, v list<frozen<t32>>)", StatusCode::kInvalid,
              TooDeep("Type list<frozen<t32>>", 33));
  ExpectError("CREATE TABLE ks.t (k int PRIMARY KEY, v tuple<int, frozen<t32>>)",
              StatusCode::kInvalid, TooDeep("Type frozen<tuple<int, frozen<t32>>>", 33));
  ExpectError("CREATE TABLE ks.t (k frozen<map<int, frozen<t32>>> PRIMARY KEY)",
              StatusCode::kInvalid, TooDeep("Type frozen<map<int, frozen<t32>>>", 33));
  Apply("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
  ExpectError("ALTER TABLE ks.t ADD w set<frozen<t32>>", StatusCode::kInvalid,
              TooDeep("Type set<frozen<t32>>", 33));
  Apply("ALTER TABLE ks.t ADD w frozen<t32>");
}

TEST_F(DdlDepthTest, PlainCollectionsAreCheckedWithoutTheParser) {
  // The parser stops at 32 levels; a statement built otherwise meets the same limit here.
  std::string type = "int";
  for (int i = 0; i < cql::kMaxTypeDepth; ++i) type = "frozen<list<" + type + ">>";
  auto parsed = cql::ParseStatement("CREATE TABLE ks.deep (k int PRIMARY KEY, v " + type + ")");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  auto& create = std::get<cql::CreateTable>(*parsed);
  create.columns[1].type = CqlType::List(create.columns[1].type, true);
  auto result = ApplyDdl(*catalog_, *parsed, "");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalid);
  EXPECT_NE(result.status().message().find("is nested too deeply: 33 levels"), std::string::npos)
      << result.status().message();
}

TEST_F(DdlDepthTest, AlterTypeAddFieldThatDeepensAChainIsRejected) {
  Apply("CREATE TABLE ks.uses (k int PRIMARY KEY, v frozen<t31>)");
  // t1 gains a level: t32 (and the chain's users) would be one too deep.
  ExpectError("ALTER TYPE ks.t1 ADD y frozen<list<int>>", StatusCode::kInvalid,
              TooDeep("Type ks.t32", 33));
  // Nothing changed, and a field that keeps t1 at one level is fine.
  EXPECT_EQ(cql::TypeDepth(*catalog_->FindType("ks", "t32")), cql::kMaxTypeDepth);
  Apply("ALTER TYPE ks.t1 ADD y int");
  // Without t32, the chain may grow by one: a table column is then the deepest user.
  Apply("DROP TYPE ks.t32");
  Apply("ALTER TYPE ks.t1 ADD z frozen<list<int>>");
  EXPECT_EQ(cql::TypeDepth(*catalog_->FindType("ks", "t31")), cql::kMaxTypeDepth);
  ExpectError("ALTER TYPE ks.t1 ADD w frozen<list<frozen<list<int>>>>", StatusCode::kInvalid,
              TooDeep("Type ks.t31", 33));
}

}  // namespace
}  // namespace schema
