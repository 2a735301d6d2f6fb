#include "storage/index_key_layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "cql/types/value_codec.h"

namespace storage {
namespace {

using common::Bytes;
using cql::CqlType;

Bytes Int(int32_t v) { return cql::SerializeInt(v); }

// The key shape of a base table (k text, c int DESC), under each index of these tests.
KeyShape Base() {
  KeyShape shape;
  shape.partition_key = {CqlType::Text()};
  shape.clustering = {{CqlType::Int(), true}};
  return shape;
}

// The bytes of one entry are checked against docs/dev/storage_format.md by
// engine/index_maintenance_test.cc (IndexMaintenanceTest.EntryKeyBytes), through IndexSchema.

TEST(IndexKeyLayoutTest, RoundTrip) {
  IndexKeyLayout layout({CqlType::Int(), CqlType::Text()}, Base(), /*partition_level=*/false);
  EXPECT_EQ(layout.part_types().size(), 2u);
  Bytes prefix = layout.ValuePrefix(std::vector<Bytes>{Int(7), "seven"});
  std::vector<Bytes> pk = {"hotel1"};
  std::vector<Bytes> ck = {Int(-3)};
  int64_t token = PartitionToken(pk);
  auto location = layout.ParseEntryKey(prefix, layout.EntryKey(prefix, token, pk, ck));
  ASSERT_TRUE(location.ok()) << location.status().ToString();
  EXPECT_EQ(location->token, token);
  EXPECT_EQ(location->partition_key, pk);
  EXPECT_EQ(location->clustering, ck);

  IndexKeyLayout statics({CqlType::Int()}, Base(), /*partition_level=*/true);
  Bytes static_prefix = statics.ValuePrefix(std::vector<Bytes>{Int(7)});
  location = statics.ParseEntryKey(static_prefix, statics.EntryKey(static_prefix, token, pk, ck));
  ASSERT_TRUE(location.ok()) << location.status().ToString();
  EXPECT_EQ(location->token, token);
  EXPECT_EQ(location->partition_key, pk);
  EXPECT_TRUE(location->clustering.empty());
}

TEST(IndexKeyLayoutTest, EntriesOfOneValueSortByTokenThenPartitionKeyThenClustering) {
  IndexKeyLayout layout({CqlType::Int()}, Base(), /*partition_level=*/false);
  Bytes prefix = layout.ValuePrefix(std::vector<Bytes>{Int(5)});
  // The tokens are given, so equal tokens with different keys (a collision) sort by key.
  std::vector<Bytes> expected = {
      layout.ValueBound(prefix, BoundSide::kBefore),
      layout.TokenBound(prefix, -10),
      layout.PartitionBound(prefix, -10, std::vector<Bytes>{"a"}, BoundSide::kBefore),
      layout.EntryKey(prefix, -10, std::vector<Bytes>{"a"}, std::vector<Bytes>{Int(9)}),
      layout.AfterRow(prefix, -10, std::vector<Bytes>{"a"}, std::vector<Bytes>{Int(9)}),
      layout.EntryKey(prefix, -10, std::vector<Bytes>{"a"}, std::vector<Bytes>{Int(1)}),  // DESC
      layout.PartitionBound(prefix, -10, std::vector<Bytes>{"a"}, BoundSide::kAfter),
      layout.EntryKey(prefix, -10, std::vector<Bytes>{"b"}, std::vector<Bytes>{Int(0)}),
      layout.TokenBound(prefix, 3),
      layout.EntryKey(prefix, 3, std::vector<Bytes>{"a"}, std::vector<Bytes>{Int(0)}),
      layout.ValueBound(prefix, BoundSide::kAfter),
  };
  std::vector<Bytes> sorted = expected;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, expected);
  for (const Bytes& key : expected) EXPECT_EQ(key.compare(0, prefix.size(), prefix), 0);
  // Another value's entries are outside the first value's bounds.
  Bytes next = layout.ValuePrefix(std::vector<Bytes>{Int(6)});
  Bytes other = layout.EntryKey(next, -10, std::vector<Bytes>{"a"}, std::vector<Bytes>{Int(9)});
  EXPECT_GT(other, layout.ValueBound(prefix, BoundSide::kAfter));
}

TEST(IndexKeyLayoutTest, MalformedKeysAreRefused) {
  IndexKeyLayout layout({CqlType::Int()}, Base(), /*partition_level=*/false);
  Bytes prefix = layout.ValuePrefix(std::vector<Bytes>{Int(5)});
  std::vector<Bytes> pk = {"a"};
  std::vector<Bytes> ck = {Int(1)};
  Bytes key = layout.EntryKey(prefix, 42, pk, ck);
  // A bound is not an entry; nor is a truncated key, nor one with bytes after it.
  for (const Bytes& bad : {layout.AfterRow(prefix, 42, pk, ck),
                           layout.PartitionBound(prefix, 42, pk, BoundSide::kBefore),
                           Bytes(key.substr(0, key.size() - 1)), key + "x", prefix}) {
    auto parsed = layout.ParseEntryKey(prefix, bad);
    ASSERT_FALSE(parsed.ok()) << common::ToHex(bad);
    EXPECT_EQ(parsed.status().code(), common::StatusCode::kCorruption);
  }
  // A partition-level layout refuses a row-level entry (one component too many).
  IndexKeyLayout statics({CqlType::Int()}, Base(), /*partition_level=*/true);
  EXPECT_FALSE(statics.ParseEntryKey(prefix, key).ok());
}

}  // namespace
}  // namespace storage
