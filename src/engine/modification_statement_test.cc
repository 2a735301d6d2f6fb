// Behaviours of INSERT, UPDATE, DELETE and BATCH that need what a logic test cannot write: protocol
// BATCH requests. The rest, bound values included (nulls, unsets, raw bytes, tens of kilobytes),
// is in tests/cql/engine/modification.test.

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
  static BoundValue Int(int32_t v) { return BoundValue::Of(cql::SerializeInt(v)); }
  void ExpectInvalid(const common::Result<cql::ResultSet>& result, const std::string& message) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), common::StatusCode::kInvalid);
    EXPECT_EQ(result.status().message(), message);
  }
};

// A protocol BATCH (not a BEGIN BATCH statement, which tests/cql/engine/modification.test
// covers) over more than one partition is refused above batch_size_fail_threshold (50 KiB).
TEST_F(ModificationStatementTest, ProtocolBatchOverThresholdIsTooLarge) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, b blob)");
  cql::BatchRequest request;
  request.type = cql::BatchType::kLogged;
  for (int k : {5, 6}) {
    cql::BatchEntry entry;
    entry.query = "INSERT INTO ks.t (k, b) VALUES (?, ?)";
    entry.values = {Int(k), BoundValue::Of(std::string(30000, 'x'))};
    request.entries.push_back(entry);
  }
  ExpectInvalid(session_->ExecuteBatch(request), "Batch too large");
  EXPECT_TRUE(Fetch("SELECT k FROM ks.t", 0).empty());
}

}  // namespace
}  // namespace engine
