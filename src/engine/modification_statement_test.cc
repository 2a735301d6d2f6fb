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

// A BATCH of two partitions, each with a blob of `bytes` bytes.
cql::BatchRequest TwoPartitionBatch(cql::BatchType type, size_t bytes) {
  cql::BatchRequest request;
  request.type = type;
  for (int k : {1, 2}) {
    cql::BatchEntry entry;
    entry.query = "INSERT INTO ks.t (k, b) VALUES (?, ?)";
    entry.values = {BoundValue::Of(cql::SerializeInt(k)), BoundValue::Of(std::string(bytes, 'x'))};
    request.entries.push_back(entry);
  }
  return request;
}

// cassandra.yaml's batch_size_warn_threshold_in_kb, batch_size_fail_threshold_in_kb and
// unlogged_batch_across_partitions_warn_threshold, set through DatabaseOptions.
class BatchThresholdsTest : public ModificationStatementTest {
 protected:
  BatchThresholdsTest() {
    options_.batch_thresholds.warn_bytes = 1024;
    options_.batch_thresholds.fail_bytes = 4096;
    options_.batch_thresholds.unlogged_partitions_warn = 1;
  }
};

TEST_F(BatchThresholdsTest, ConfiguredThresholdsWarnAndFail) {
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, b blob)");
  // 2 x 300 bytes: under every size threshold, but over one partition unlogged.
  auto small = session_->ExecuteBatch(TwoPartitionBatch(cql::BatchType::kUnlogged, 300));
  ASSERT_TRUE(small.ok()) << small.status().ToString();
  ASSERT_EQ(small->warnings().size(), 1u);
  EXPECT_NE(small->warnings()[0].find("Unlogged batch covering 2 partitions"), std::string::npos);
  // 2 x 1000 bytes: over the 1 KiB warning (Cassandra's default 5 KiB would say nothing).
  auto warned = session_->ExecuteBatch(TwoPartitionBatch(cql::BatchType::kLogged, 1000));
  ASSERT_TRUE(warned.ok()) << warned.status().ToString();
  ASSERT_EQ(warned->warnings().size(), 1u);
  EXPECT_NE(warned->warnings()[0].find("exceeding specified threshold of 1024 by"),
            std::string::npos)
      << warned->warnings()[0];
  // 2 x 3000 bytes: over the 4 KiB limit (the default 50 KiB would accept it).
  Run("TRUNCATE ks.t");
  ExpectInvalid(session_->ExecuteBatch(TwoPartitionBatch(cql::BatchType::kLogged, 3000)),
                "Batch too large");
  EXPECT_TRUE(Fetch("SELECT k FROM ks.t", 0).empty());
}

}  // namespace
}  // namespace engine
