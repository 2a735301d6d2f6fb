#include "engine/prepared_statement_cache.h"

#include <string>

#include <gtest/gtest.h>

#include "engine/modification_statement.h"
#include "engine/query_processor.h"
#include "engine/select_statement.h"

namespace engine {
namespace {

std::shared_ptr<const PreparedStatement> Statement(const std::string& keyspace) {
  auto statement = std::make_shared<PreparedStatement>();
  statement->keyspace = keyspace;
  return statement;
}

TEST(PreparedStatementCacheTest, EvictsTheLeastRecentlyUsed) {
  PreparedStatementCache cache(3);
  cache.Put("a", Statement("a"));
  cache.Put("b", Statement("b"));
  cache.Put("c", Statement("c"));
  ASSERT_NE(cache.Find("a"), nullptr);  // order now: a, c, b
  cache.Put("d", Statement("d"));       // evicts b
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(cache.Find("b"), nullptr);
  EXPECT_NE(cache.Find("a"), nullptr);
  EXPECT_NE(cache.Find("c"), nullptr);
  EXPECT_NE(cache.Find("d"), nullptr);
  cache.Put("e", Statement("e"));  // order was d, c, a: evicts a
  EXPECT_EQ(cache.Find("a"), nullptr);
  EXPECT_NE(cache.Find("e"), nullptr);
}

TEST(PreparedStatementCacheTest, ReplacingKeepsOneEntryAndRefreshes) {
  PreparedStatementCache cache(2);
  cache.Put("a", Statement("old"));
  cache.Put("b", Statement("b"));
  cache.Put("a", Statement("new"));  // a re-bind: same id, most recent
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.Find("a")->keyspace, "new");
  cache.Put("c", Statement("c"));  // evicts b, not a
  EXPECT_EQ(cache.Find("b"), nullptr);
  EXPECT_NE(cache.Find("a"), nullptr);
}

// The cache used to be cleared all at once when full: a statement in constant use survives a
// stream of one-off statements many times the capacity.
TEST(PreparedStatementCacheTest, HotStatementsSurviveAStreamOfOneOffs) {
  PreparedStatementCache cache(100);
  cache.Put("hot", Statement("hot"));
  for (int i = 0; i < 10000; ++i) {
    cache.Put("once" + std::to_string(i), Statement("once"));
    ASSERT_NE(cache.Find("hot"), nullptr) << "after " << i;
    ASSERT_LE(cache.size(), 100u);
  }
  EXPECT_EQ(cache.size(), 100u);
  EXPECT_EQ(cache.Find("once0"), nullptr);
  EXPECT_NE(cache.Find("once9999"), nullptr);
}

TEST(PreparedStatementCacheTest, HolderKeepsAnEvictedStatement) {
  PreparedStatementCache cache(1);
  cache.Put("a", Statement("a"));
  std::shared_ptr<const PreparedStatement> held = cache.Find("a");
  cache.Put("b", Statement("b"));
  EXPECT_EQ(cache.Find("a"), nullptr);
  EXPECT_EQ(held->keyspace, "a");
}

}  // namespace
}  // namespace engine
