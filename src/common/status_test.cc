#include "common/status.h"

#include <gtest/gtest.h>

#include "common/result.h"

namespace common {
namespace {

Result<int> ParsePositive(int v) {
  if (v <= 0) return Status::Invalid("not positive: " + std::to_string(v));
  return v;
}

Result<int> Doubled(int v) {
  ASSIGN_OR_RETURN(int x, ParsePositive(v));
  return 2 * x;
}

Status Check(int v) {
  RETURN_IF_ERROR(ParsePositive(v));
  return Status::Ok();
}

TEST(StatusTest, OkAndErrors) {
  EXPECT_TRUE(Status().ok());
  Status s = Status::SyntaxError("line 1:0 no viable alternative at input 'x'");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kSyntaxError);
  EXPECT_EQ(ProtocolErrorCode(s.code()), 0x2000u);
  EXPECT_EQ(ProtocolErrorCode(StatusCode::kCorruption), 0u);
  EXPECT_EQ(s.ToString(), "SyntaxException: line 1:0 no viable alternative at input 'x'");
  EXPECT_EQ(Status::Invalid("b").WithPrefix("a: ").message(), "a: b");
}

TEST(ResultTest, PropagatesValuesAndErrors) {
  EXPECT_EQ(*Doubled(4), 8);
  Result<int> bad = Doubled(-1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalid);
  EXPECT_EQ(bad.status().message(), "not positive: -1");
  EXPECT_TRUE(Check(1).ok());
  EXPECT_EQ(Check(0).code(), StatusCode::kInvalid);
  EXPECT_EQ(bad.value_or(7), 7);
}

TEST(ResultTest, OkStatusWithoutValueBecomesInternalError) {
  Result<int> r{Status::Ok()};
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
}

}  // namespace
}  // namespace common
