#include "shell/statement_splitter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace shell {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> Texts(const std::vector<SplitStatement>& statements) {
  std::vector<std::string> out;
  out.reserve(statements.size());
  for (const SplitStatement& statement : statements) out.push_back(statement.text);
  return out;
}

TEST(StatementSplitterTest, SplitsAtTopLevelSemicolons) {
  StatementSplitter splitter;
  splitter.Feed("USE hotel; SELECT * FROM t WHERE k = 'a;b';\n");
  EXPECT_THAT(splitter.TakeComplete(),
              ElementsAre(SplitStatement{"USE hotel", 0},
                          SplitStatement{"SELECT * FROM t WHERE k = 'a;b'", 11}));
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
  EXPECT_THAT(Texts(splitter.TakeComplete()),
              ElementsAre("CREATE TABLE t (\n  k int PRIMARY KEY -- a comment; not the end\n)"));
}

TEST(StatementSplitterTest, IgnoresSemicolonsInQuotesCommentsAndDollarStrings) {
  StatementSplitter splitter;
  splitter.Feed(
      "INSERT INTO \"t;x\" (a) VALUES ('it''s;'); /* ; */ CREATE FUNCTION f() "
      "RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS $$ return 1; $$;");
  EXPECT_THAT(Texts(splitter.TakeComplete()),
              ElementsAre("INSERT INTO \"t;x\" (a) VALUES ('it''s;')",
                          "CREATE FUNCTION f() RETURNS NULL ON NULL INPUT RETURNS int "
                          "LANGUAGE java AS $$ return 1; $$"));
}

TEST(StatementSplitterTest, LeadingCommentsAreDroppedAndOffsetsPointAtTheFirstToken) {
  StatementSplitter splitter;
  splitter.Feed("-- the schema\n");
  EXPECT_FALSE(splitter.HasPartial());  // a comment alone needs no continuation
  splitter.Feed("/* block\n");
  EXPECT_TRUE(splitter.HasPartial());  // an open block comment does
  splitter.Feed("*/ SELECT 1\n FROM t; // trailing\n");
  EXPECT_FALSE(splitter.HasPartial());
  EXPECT_THAT(splitter.TakeComplete(), ElementsAre(SplitStatement{"SELECT 1\n FROM t", 26}));
}

TEST(StatementSplitterTest, BatchIsOneStatement) {
  StatementSplitter splitter;
  splitter.Feed(
      "-- a batch\nBEGIN BATCH\n INSERT INTO t (k) VALUES (1);\n UPDATE t SET v = 2 WHERE k = "
      "1;\n");
  EXPECT_TRUE(splitter.TakeComplete().empty());
  splitter.Feed("apply   batch;\nSELECT * FROM t;");
  auto statements = splitter.TakeComplete();
  ASSERT_EQ(statements.size(), 2u);
  EXPECT_EQ(statements[0].text,
            "BEGIN BATCH\n INSERT INTO t (k) VALUES (1);\n UPDATE t SET v = 2 WHERE k = 1;\n"
            "apply   batch");
  EXPECT_EQ(statements[0].offset, 11u);
  EXPECT_EQ(statements[1].text, "SELECT * FROM t");
}

TEST(StatementSplitterTest, RestWithoutSemicolon) {
  StatementSplitter splitter;
  splitter.Feed(";; SELECT 1 FROM t  \n");
  EXPECT_TRUE(splitter.TakeComplete().empty());
  EXPECT_EQ(splitter.TakeRest(), (SplitStatement{"SELECT 1 FROM t", 3}));
  EXPECT_FALSE(splitter.HasPartial());
  splitter.Feed("  -- only a comment\n");
  EXPECT_EQ(splitter.TakeRest(), std::nullopt);
  splitter.Feed("x;");  // offsets keep counting after TakeRest
  EXPECT_THAT(splitter.TakeComplete(), ElementsAre(SplitStatement{"x", 41}));
}

}  // namespace
}  // namespace shell
