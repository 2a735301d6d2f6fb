#include "shell/statement_splitter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace shell {
namespace {

using ::testing::ElementsAre;

TEST(StatementSplitterTest, SplitsAtTopLevelSemicolons) {
  StatementSplitter splitter;
  splitter.Feed("USE hotel; SELECT * FROM t WHERE k = 'a;b';\n");
  EXPECT_THAT(splitter.TakeComplete(), ElementsAre("USE hotel", "SELECT * FROM t WHERE k = 'a;b'"));
  EXPECT_FALSE(splitter.HasPartial());
}

TEST(StatementSplitterTest, KeepsMultiLineStatementsUntilTheSemicolon) {
  StatementSplitter splitter;
  splitter.Feed("CREATE TABLE t (\n");
  EXPECT_TRUE(splitter.TakeComplete().empty());
  EXPECT_TRUE(splitter.HasPartial());
  splitter.Feed("  k int PRIMARY KEY -- a comment; not the end\n");
  EXPECT_TRUE(splitter.TakeComplete().empty());
  splitter.Feed(");\n");
  EXPECT_THAT(splitter.TakeComplete(),
              ElementsAre("CREATE TABLE t (\n  k int PRIMARY KEY -- a comment; not the end\n)"));
}

TEST(StatementSplitterTest, IgnoresSemicolonsInQuotesCommentsAndDollarStrings) {
  StatementSplitter splitter;
  splitter.Feed(
      "INSERT INTO \"t;x\" (a) VALUES ('it''s;'); /* ; */ CREATE FUNCTION f() "
      "RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS $$ return 1; $$;");
  EXPECT_THAT(splitter.TakeComplete(),
              ElementsAre("INSERT INTO \"t;x\" (a) VALUES ('it''s;')",
                          "/* ; */ CREATE FUNCTION f() RETURNS NULL ON NULL INPUT RETURNS int "
                          "LANGUAGE java AS $$ return 1; $$"));
}

TEST(StatementSplitterTest, BatchIsOneStatement) {
  StatementSplitter splitter;
  splitter.Feed("BEGIN BATCH\n INSERT INTO t (k) VALUES (1);\n UPDATE t SET v = 2 WHERE k = 1;\n");
  EXPECT_TRUE(splitter.TakeComplete().empty());
  splitter.Feed("apply   batch;\nSELECT * FROM t;");
  auto statements = splitter.TakeComplete();
  ASSERT_EQ(statements.size(), 2u);
  EXPECT_EQ(statements[0],
            "BEGIN BATCH\n INSERT INTO t (k) VALUES (1);\n UPDATE t SET v = 2 WHERE k = 1;\n"
            "apply   batch");
  EXPECT_EQ(statements[1], "SELECT * FROM t");
}

TEST(StatementSplitterTest, RestWithoutSemicolon) {
  StatementSplitter splitter;
  splitter.Feed(";; SELECT 1 FROM t");
  EXPECT_TRUE(splitter.TakeComplete().empty());
  EXPECT_EQ(splitter.TakeRest(), "SELECT 1 FROM t");
  EXPECT_FALSE(splitter.HasPartial());
}

}  // namespace
}  // namespace shell
