#include "cql/types/type_depth.h"

#include <gtest/gtest.h>

namespace cql {
namespace {

TEST(TypeDepthTest, CountsParameterizedTypesNotFrozen) {
  EXPECT_EQ(TypeDepth(CqlType::Int()), 0);
  EXPECT_EQ(TypeDepth(CqlType::Custom("org.example.T")), 0);
  EXPECT_EQ(TypeDepth(CqlType::List(CqlType::Int())), 1);
  EXPECT_EQ(TypeDepth(CqlType::List(CqlType::Int(), true)), 1);
  EXPECT_EQ(TypeDepth(CqlType::Map(CqlType::Int(), CqlType::List(CqlType::Int(), true))), 2);
  EXPECT_EQ(TypeDepth(CqlType::Tuple({CqlType::Int(), CqlType::Vector(CqlType::Float(), 3)})), 2);
  EXPECT_EQ(TypeDepth(CqlType::UdtRef("", "address")), 1);
  CqlType inner = CqlType::Udt("ks", "inner", {"a"}, {CqlType::Int()});
  CqlType outer = CqlType::Udt("ks", "outer", {"i"}, {inner.WithFrozen(true)});
  EXPECT_EQ(TypeDepth(inner), 1);
  EXPECT_EQ(TypeDepth(outer), 2);
  EXPECT_EQ(TypeDepth(CqlType::Udt("ks", "empty", {}, {})), 1);
}

}  // namespace
}  // namespace cql
