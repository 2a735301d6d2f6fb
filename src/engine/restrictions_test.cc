// Restrictions with bound values (what logic tests cannot bind) and paging over IN lists.

#include "engine/restrictions.h"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "cql/types/value_codec.h"
#include "engine/session_testing.h"

namespace engine {
namespace {

class RestrictionsTest : public testing::SessionTest {
 protected:
  common::Status ExecuteWith(std::string_view text, std::vector<cql::BoundValue> values) {
    cql::QueryOptions options;
    options.values = std::move(values);
    auto result = session_->Execute(text, options);
    return result.ok() ? common::Status::Ok() : result.status();
  }
};

TEST_F(RestrictionsTest, NullAndUnsetBoundToInMarkers) {
  Run("CREATE TABLE ks.t (p int, c int, v int, PRIMARY KEY (p, c))");
  struct Case {
    std::string text;
    cql::BoundValue value;
    std::string message;
  };
  std::vector<Case> cases = {
      {"SELECT * FROM ks.t WHERE p IN ?", cql::BoundValue::Null(),
       "Invalid null value for column p"},
      {"SELECT * FROM ks.t WHERE p IN ?", cql::BoundValue::Unset(),
       "Invalid unset value for column p"},
      {"SELECT * FROM ks.t WHERE p = 0 AND c IN ?", cql::BoundValue::Null(),
       "Invalid null value for column c"},
      {"DELETE FROM ks.t WHERE p IN ?", cql::BoundValue::Null(), "Invalid null value for column p"},
      {"SELECT * FROM ks.t WHERE p = 0 AND (c) IN ?", cql::BoundValue::Null(),
       "Invalid null value for IN restriction"},
  };
  for (const Case& c : cases) {
    common::Status status = ExecuteWith(c.text, {c.value});
    ASSERT_FALSE(status.ok()) << c.text;
    EXPECT_EQ(status.code(), common::StatusCode::kInvalid) << c.text;
    EXPECT_EQ(status.message(), c.message) << c.text;
  }
}

TEST_F(RestrictionsTest, PagingOverPartitionKeyInFollowsKeyValueOrder) {
  Run("CREATE TABLE ks.t (p int, c int, PRIMARY KEY (p, c))");
  for (int p = 0; p < 6; ++p) {
    for (int c = 0; c < 3; ++c) Run(fmt::format("INSERT INTO ks.t (p, c) VALUES ({}, {})", p, c));
  }
  const std::string query = "SELECT p, c FROM ks.t WHERE p IN (5, 3, 0, 4, 1, 2, 3)";
  testing::Rows all = Fetch(query, 0);
  ASSERT_EQ(all.size(), 18u);
  for (size_t i = 0; i < all.size(); ++i) {
    ASSERT_TRUE(all[i][0].has_value());
    EXPECT_EQ(*cql::DeserializeInt(*all[i][0]), static_cast<int32_t>(i / 3)) << i;
  }
  for (int page_size : {1, 2, 4, 5}) EXPECT_EQ(Fetch(query, page_size), all) << page_size;
}

}  // namespace
}  // namespace engine
