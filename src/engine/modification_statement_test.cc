// Behaviours of INSERT, UPDATE, DELETE and BATCH that need what a logic test cannot write: bound
// values of tens of kilobytes, protocol batches, collections bound as unsorted bytes. The rest,
// bound nulls and unsets included, is in tests/cql/engine/modification.test.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cql/types/value_codec.h"
#include "engine/session_testing.h"

namespace engine {
namespace {

using cql::BoundValue;

class ModificationStatementTest : public testing::SessionTest {
 protected:
  common::Result<cql::ResultSet> Execute(const std::string& query, std::vector<BoundValue> values) {
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

// A serialized collection with `elements` in the order given (no sorting, duplicates kept), as
// a driver may send one.
std::string RawCollection(const std::vector<std::string>& elements, size_t per_entry = 1) {
  std::string out;
  auto put_i32 = [&](uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(v >> shift));
  };
  put_i32(static_cast<uint32_t>(elements.size() / per_entry));
  for (const std::string& e : elements) {
    put_i32(static_cast<uint32_t>(e.size()));
    out += e;
  }
  return out;
}

TEST_F(ModificationStatementTest, BoundFrozenSetsAndMapsAreNormalised) {
  Run("CREATE TABLE ks.f (k frozen<set<int>>, c frozen<map<int, int>>, v frozen<set<int>>, "
      "PRIMARY KEY (k, c))");
  std::string i1 = cql::SerializeInt(1), i2 = cql::SerializeInt(2), i3 = cql::SerializeInt(3);
  BoundValue set_312 = BoundValue::Of(RawCollection({i3, i1, i1, i2}));
  BoundValue map_21 = BoundValue::Of(RawCollection({i2, i1, i1, i2}, 2));  // {2: 1, 1: 2}
  ASSERT_TRUE(
      Execute("INSERT INTO ks.f (k, c, v) VALUES (?, ?, ?)", {set_312, map_21, set_312}).ok());
  // Keys and values are stored as the literals would be: found by literals, and the same row
  // as the literals write.
  testing::Rows rows = Fetch("SELECT v FROM ks.f WHERE k = {1, 2, 3} AND c = {1: 2, 2: 1}", 0);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0], RawCollection({i1, i2, i3}));
  Run("INSERT INTO ks.f (k, c, v) VALUES ({1, 2, 3}, {1: 2, 2: 1}, {1, 2, 3})");
  EXPECT_EQ(Fetch("SELECT v FROM ks.f", 0).size(), 1u);
  // WHERE comparisons and conditions with bound values.
  auto found = Execute("SELECT v FROM ks.f WHERE k = ? AND c = ?", {set_312, map_21});
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_EQ(found->row_count(), 1u);
  auto applied = Execute(
      "UPDATE ks.f SET v = {7} WHERE k = {1, 2, 3} AND c = {1: 2, 2: 1} IF v = ?", {set_312});
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  EXPECT_EQ(applied->Value(0, 0), cql::SerializeBoolean(true));
}

}  // namespace
}  // namespace engine
