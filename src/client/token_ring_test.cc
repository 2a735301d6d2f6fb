#include "client/token_ring.h"

#include <gtest/gtest.h>

#include "common/bytes.h"
#include "cql/types/murmur3.h"
#include "cql/types/value_codec.h"

namespace client {
namespace {

TEST(TokenRingTest, OwnerIsTheFirstTokenAtOrAfterWrapping) {
  TokenRing ring({{100, 1}, {-50, 0}, {500, 2}});
  EXPECT_EQ(ring.host_count(), 3u);
  EXPECT_EQ(ring.Owner(-1000), 0u);
  EXPECT_EQ(ring.Owner(-50), 0u);
  EXPECT_EQ(ring.Owner(-49), 1u);
  EXPECT_EQ(ring.Owner(100), 1u);
  EXPECT_EQ(ring.Owner(101), 2u);
  EXPECT_EQ(ring.Owner(500), 2u);
  EXPECT_EQ(ring.Owner(501), 0u);  // wraps
  EXPECT_EQ(ring.Owner(INT64_MAX), 0u);
  EXPECT_FALSE(TokenRing().Owner(0).has_value());
}

TEST(TokenRingTest, RoutingTokenNeedsEveryPartitionKeyValue) {
  cql::PreparedMetadata prepared;
  prepared.partition_key_indexes = {1};
  cql::QueryOptions options;
  options.values = {cql::BoundValue::Of("x"), cql::BoundValue::Of(cql::SerializeInt(7))};
  EXPECT_EQ(RoutingToken(prepared, options), cql::Murmur3Token(cql::SerializeInt(7)));
  // Known vector: Cassandra puts int 1 at token -4069959284402364209.
  options.values[1] = cql::BoundValue::Of(cql::SerializeInt(1));
  EXPECT_EQ(RoutingToken(prepared, options), -4069959284402364209);
  options.values[1] = cql::BoundValue::Null();
  EXPECT_FALSE(RoutingToken(prepared, options).has_value());
  options.values.resize(1);
  EXPECT_FALSE(RoutingToken(prepared, options).has_value());
  options.values = {cql::BoundValue::Of("x"), cql::BoundValue::Of(cql::SerializeInt(7))};
  options.value_names = {"a", "b"};
  EXPECT_FALSE(RoutingToken(prepared, options).has_value());
  EXPECT_FALSE(RoutingToken(cql::PreparedMetadata(), cql::QueryOptions()).has_value());
}

TEST(TokenRingTest, ParsesNodesFromSystemTables) {
  cql::ResultSet rows =
      cql::ResultSet::Rows({{"system", "peers", "peer", cql::CqlType::Inet()},
                            {"system", "peers", "rpc_address", cql::CqlType::Inet()},
                            {"system", "peers", "tokens", cql::CqlType::Set(cql::CqlType::Text())},
                            {"system", "peers", "schema_version", cql::CqlType::Uuid()}});
  common::ByteWriter tokens;
  tokens.PutI32(2);
  tokens.PutIntBytes("-12");
  tokens.PutIntBytes("9000000000000000000");
  rows.AddRow({common::Bytes("\x0a\x00\x00\x01", 4), common::Bytes("\x0a\x00\x00\x02", 4),
               tokens.data(), common::Bytes(16, '\x01')});
  rows.AddRow({common::Bytes("\x0a\x00\x00\x03", 4), std::nullopt, std::nullopt, std::nullopt});
  auto nodes = ParseNodes(rows);
  ASSERT_TRUE(nodes.ok()) << nodes.status().ToString();
  ASSERT_EQ(nodes->size(), 2u);
  EXPECT_EQ((*nodes)[0].address, "10.0.0.2");  // rpc_address wins over peer
  EXPECT_EQ((*nodes)[0].tokens, (std::vector<int64_t>{-12, 9000000000000000000}));
  EXPECT_EQ((*nodes)[0].schema_version, "01010101010101010101010101010101");
  EXPECT_EQ((*nodes)[1].address, "10.0.0.3");
  EXPECT_TRUE((*nodes)[1].tokens.empty());

  cql::ResultSet bad = cql::ResultSet::Rows(
      {{"system", "local", "tokens", cql::CqlType::Set(cql::CqlType::Text())}});
  common::ByteWriter junk;
  junk.PutI32(1);
  junk.PutIntBytes("12abc");
  bad.AddRow({junk.data()});
  EXPECT_FALSE(ParseNodes(bad).ok());
  cql::ResultSet truncated = cql::ResultSet::Rows(
      {{"system", "local", "tokens", cql::CqlType::Set(cql::CqlType::Text())}});
  truncated.AddRow({common::Bytes("\x00\x00\x00\x05", 4)});
  EXPECT_FALSE(ParseNodes(truncated).ok());
}

}  // namespace
}  // namespace client
