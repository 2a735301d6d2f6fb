// Behaviours of INSERT, UPDATE, DELETE and BATCH that need bound values (unset markers, large
// blobs, collections bound as bytes); the rest is in tests/cql/engine/modification.test.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cql/value_codec.h"
#include "engine/session_testing.h"

namespace engine {
namespace {

using cql::BoundValue;

class ModificationStatementTest : public testing::SessionTest {
 protected:
  common::Result<cql::ResultSet> Execute(const std::string& query,
                                         std::vector<BoundValue> values) {
    auto prepared = session_->Prepare(query);
    if (!prepared.ok()) return prepared.status();
    cql::QueryOptions options;
    options.values = std::move(values);
    return session_->ExecutePrepared(**prepared, options);
  }
  static BoundValue Int(int32_t v) { return BoundValue::Of(cql::SerializeInt(v)); }
  void ExpectInvalid(const common::Result<cql::ResultSet>& result, const std::string& message) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), common::StatusCode::kInvalid);
    EXPECT_EQ(result.status().message(), message);
  }
};

TEST_F(ModificationStatementTest, UnsetMapKeyAndListIndex) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, m map<int, int>, l list<int>)");
  Run("INSERT INTO ks.t (k, m, l) VALUES (0, {1: 1}, [1, 2])");
  ExpectInvalid(Execute("UPDATE ks.t SET m[?] = 1 WHERE k = 0", {BoundValue::Unset()}),
                "Invalid unset map key");
  ExpectInvalid(Execute("DELETE m[?] FROM ks.t WHERE k = 0", {BoundValue::Unset()}),
                "Invalid unset map key");
  ExpectInvalid(Execute("UPDATE ks.t SET l[?] = 1 WHERE k = 0", {BoundValue::Unset()}),
                "Invalid unset value for list index");
  ExpectInvalid(Execute("UPDATE ks.t SET m[?] = 1 WHERE k = 0", {BoundValue::Null()}),
                "Invalid null map key");
  ExpectInvalid(Execute("UPDATE ks.t SET l[?] = 1 WHERE k = 0", {BoundValue::Null()}),
                "Invalid null value for list index");
  // An unset value leaves the element alone; DELETE l[unset] is ignored.
  EXPECT_TRUE(Execute("UPDATE ks.t SET m[1] = ? WHERE k = 0", {BoundValue::Unset()}).ok());
  EXPECT_TRUE(Execute("DELETE l[?] FROM ks.t WHERE k = 0", {BoundValue::Unset()}).ok());
  EXPECT_EQ(Fetch("SELECT m, l FROM ks.t WHERE k = 0", 0).size(), 1u);
}

TEST_F(ModificationStatementTest, MultiPartitionBatchOverThresholdIsTooLarge) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, b blob)");
  auto big = [](size_t n) { return BoundValue::Of(std::string(n, 'x')); };
  const std::string batch =
      "BEGIN UNLOGGED BATCH INSERT INTO ks.t (k, b) VALUES (?, ?); "
      "INSERT INTO ks.t (k, b) VALUES (?, ?); APPLY BATCH";
  ExpectInvalid(Execute(batch, {Int(1), big(30000), Int(2), big(30000)}), "Batch too large");
  EXPECT_TRUE(Fetch("SELECT k FROM ks.t", 0).empty());
  // Under the threshold, or one partition however large: accepted.
  EXPECT_TRUE(Execute(batch, {Int(1), big(20000), Int(2), big(20000)}).ok());
  EXPECT_TRUE(Execute(batch, {Int(3), big(40000), Int(3), big(40000)}).ok());
  // A protocol BATCH is counted the same way.
  cql::BatchRequest request;
  request.type = cql::BatchType::kLogged;
  for (int k : {5, 6}) {
    cql::BatchEntry entry;
    entry.query = "INSERT INTO ks.t (k, b) VALUES (?, ?)";
    entry.values = {Int(k), big(30000)};
    request.entries.push_back(entry);
  }
  ExpectInvalid(session_->ExecuteBatch(request), "Batch too large");
}

}  // namespace
}  // namespace engine
