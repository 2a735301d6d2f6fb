#include "storage/key_layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "storage/key_encoding.h"

namespace storage {
namespace {

common::Bytes Int(int32_t v) {
  common::ByteWriter w;
  w.PutI32(v);
  return w.Release();
}

KeyShape Shape() {
  KeyShape shape;
  shape.partition_key = {cql::CqlType::Text()};
  shape.clustering = {{cql::CqlType::Int(), false}, {cql::CqlType::Int(), true}};
  return shape;
}

TEST(KeyLayoutTest, PrefixIsTokenThenComponents) {
  KeyShape shape = Shape();
  std::vector<common::Bytes> pk = {"hotel1"};
  common::Bytes prefix = PartitionPrefix(shape, pk);
  EXPECT_EQ(prefix.substr(0, 8), EncodeToken(PartitionToken(pk)));
  // Known vector: Murmur3 token of a single text key equals the driver's (cql/murmur3 tests
  // cover the hash); here only the layout: 8 token bytes, 0x03, "hotel1", 0x00 0x00.
  EXPECT_EQ(common::ToHex(prefix.substr(8)), "03" + common::ToHex("hotel1") + "0000");
}

TEST(KeyLayoutTest, SectionsSortInPartitionOrder) {
  KeyShape shape = Shape();
  std::vector<common::Bytes> pk = {"p"};
  common::Bytes prefix = PartitionPrefix(shape, pk);
  std::vector<common::Bytes> row_low = {Int(-5), Int(9)};
  std::vector<common::Bytes> row_high = {Int(3), Int(1)};
  std::vector<common::Bytes> expected = {
      PartitionDeletionKey(prefix),
      StaticRowKey(prefix),
      RangeTombstoneKey(shape, prefix, {{Int(1)}, BoundSide::kBefore},
                        {{Int(2)}, BoundSide::kAfter}),
      RowBoundKey(shape, prefix, {{}, BoundSide::kBefore}),
      RowKey(shape, prefix, row_low),
      RowBoundKey(shape, prefix, {{Int(3)}, BoundSide::kBefore}),
      RowKey(shape, prefix, std::vector<common::Bytes>{Int(3), Int(2)}),  // DESC: 2 before 1
      RowKey(shape, prefix, row_high),
      RowBoundKey(shape, prefix, {{Int(3)}, BoundSide::kAfter}),
      RowBoundKey(shape, prefix, {{}, BoundSide::kAfter}),
      PartitionEndKey(prefix),
  };
  std::vector<common::Bytes> sorted = expected;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, expected);
  for (const common::Bytes& key : expected) {
    EXPECT_EQ(key.compare(0, prefix.size(), prefix), 0);
  }
}

TEST(KeyLayoutTest, PartitionsSortByTokenAndDoNotInterleave) {
  KeyShape shape = Shape();
  std::vector<common::Bytes> keys;
  for (int i = 0; i < 50; ++i) {
    std::vector<common::Bytes> pk = {"k" + std::to_string(i)};
    common::Bytes prefix = PartitionPrefix(shape, pk);
    keys.push_back(PartitionDeletionKey(prefix));
    keys.push_back(PartitionEndKey(prefix));
  }
  std::vector<common::Bytes> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  // Each partition's two keys stay adjacent after sorting.
  for (size_t i = 0; i < sorted.size(); i += 2) {
    EXPECT_EQ(sorted[i].substr(0, sorted[i].size() - 1),
              sorted[i + 1].substr(0, sorted[i + 1].size() - 1));
    if (i + 2 < sorted.size()) {
      EXPECT_LE(DecodeToken(sorted[i]).value(), DecodeToken(sorted[i + 2]).value());
    }
  }
}

TEST(KeyLayoutTest, ParseRoundTrips) {
  KeyShape shape = Shape();
  std::vector<common::Bytes> pk = {"p"};
  common::Bytes prefix = PartitionPrefix(shape, pk);
  std::vector<common::Bytes> ck = {Int(7), Int(-8)};

  auto row = ParseKey(shape, RowKey(shape, prefix, ck));
  ASSERT_TRUE(row.ok()) << row.status().ToString();
  EXPECT_EQ(row->token, PartitionToken(pk));
  EXPECT_EQ(row->partition_key, pk);
  EXPECT_EQ(row->section, KeySection::kRow);
  EXPECT_EQ(row->clustering, ck);

  auto stat = ParseKey(shape, StaticRowKey(prefix));
  ASSERT_TRUE(stat.ok());
  EXPECT_EQ(stat->section, KeySection::kStaticRow);
  auto deletion = ParseKey(shape, PartitionDeletionKey(prefix));
  ASSERT_TRUE(deletion.ok());
  EXPECT_EQ(deletion->section, KeySection::kPartitionDeletion);

  ClusteringBound start{{Int(1)}, BoundSide::kAfter};
  ClusteringBound end{{Int(4), Int(5)}, BoundSide::kAfter};
  auto range = ParseKey(shape, RangeTombstoneKey(shape, prefix, start, end));
  ASSERT_TRUE(range.ok()) << range.status().ToString();
  EXPECT_EQ(range->section, KeySection::kRangeTombstone);
  EXPECT_EQ(range->range_start, start);
  EXPECT_EQ(range->range_end, end);
}

TEST(KeyLayoutTest, ParseRejectsGarbage) {
  KeyShape shape = Shape();
  std::vector<common::Bytes> pk = {"p"};
  common::Bytes prefix = PartitionPrefix(shape, pk);
  common::Bytes row = RowKey(shape, prefix, std::vector<common::Bytes>{Int(1), Int(2)});
  EXPECT_FALSE(ParseKey(shape, "short").ok());
  EXPECT_FALSE(ParseKey(shape, prefix).ok());                      // no section
  EXPECT_FALSE(ParseKey(shape, prefix + "\x50").ok());             // unknown section
  EXPECT_FALSE(ParseKey(shape, row + "x").ok());                   // trailing bytes
  EXPECT_FALSE(ParseKey(shape, StaticRowKey(prefix) + "x").ok());  // trailing bytes
  for (size_t n = 0; n < row.size(); ++n) {
    auto r = ParseKey(shape, std::string_view(row).substr(0, n));
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_EQ(r.status().code(), common::StatusCode::kCorruption);
  }
}

TEST(KeyLayoutTest, ParseRowClusteringMatchesParseKey) {
  KeyShape shape = Shape();
  std::vector<common::Bytes> pk = {"a partition"};
  common::Bytes prefix = PartitionPrefix(shape, pk);
  std::vector<common::Bytes> clustering = {Int(99)};  // stale contents are replaced
  for (int32_t a : {-5, 0, 1, 1 << 20}) {
    for (int32_t b : {-3, 0, 42}) {
      std::vector<common::Bytes> ck = {Int(a), Int(b)};
      common::Bytes key = RowKey(shape, prefix, ck);
      ASSERT_TRUE(ParseRowClustering(shape, prefix.size(), key, &clustering).ok());
      EXPECT_EQ(clustering, ck);
      auto parsed = ParseKey(shape, key);
      ASSERT_TRUE(parsed.ok());
      EXPECT_EQ(clustering, parsed->clustering);
    }
  }
  // No clustering columns: the row key is the prefix and the section byte.
  KeyShape no_ck;
  no_ck.partition_key = {cql::CqlType::Int()};
  common::Bytes no_ck_prefix = PartitionPrefix(no_ck, std::vector<common::Bytes>{Int(3)});
  common::Bytes no_ck_key = RowKey(no_ck, no_ck_prefix, std::vector<common::Bytes>{});
  ASSERT_TRUE(ParseRowClustering(no_ck, no_ck_prefix.size(), no_ck_key, &clustering).ok());
  EXPECT_TRUE(clustering.empty());
}

TEST(KeyLayoutTest, ParseRowClusteringRejectsGarbage) {
  KeyShape shape = Shape();
  common::Bytes prefix = PartitionPrefix(shape, std::vector<common::Bytes>{"p"});
  common::Bytes row = RowKey(shape, prefix, std::vector<common::Bytes>{Int(1), Int(2)});
  std::vector<common::Bytes> clustering;
  auto parse = [&](std::string_view key) {
    return ParseRowClustering(shape, prefix.size(), key, &clustering);
  };
  EXPECT_EQ(parse(prefix).code(), common::StatusCode::kCorruption);  // no section
  EXPECT_EQ(parse(StaticRowKey(prefix)).code(), common::StatusCode::kCorruption);
  EXPECT_EQ(parse(PartitionDeletionKey(prefix)).code(), common::StatusCode::kCorruption);
  EXPECT_EQ(parse(row + "x").code(), common::StatusCode::kCorruption);  // trailing bytes
  for (size_t n = prefix.size() + 1; n < row.size(); ++n) {
    EXPECT_EQ(parse(std::string_view(row).substr(0, n)).code(), common::StatusCode::kCorruption)
        << n;
  }
  // A prefix size past the key's end is an error, not an out-of-bounds read.
  EXPECT_EQ(ParseRowClustering(shape, row.size() + 10, row, &clustering).code(),
            common::StatusCode::kCorruption);
}

TEST(KeyLayoutTest, PrefixExtractorTakesTheToken) {
  auto extractor = NewTokenPrefixExtractor();
  common::Bytes key =
      PartitionDeletionKey(PartitionPrefix(Shape(), std::vector<common::Bytes>{"p"}));
  EXPECT_TRUE(extractor->InDomain(key));
  EXPECT_FALSE(extractor->InDomain(rocksdb::Slice("1234567")));
  EXPECT_EQ(extractor->Transform(key).ToString(), key.substr(0, 8));
  EXPECT_STREQ(extractor->Name(), "cqld.TokenPrefix.v1");
}

}  // namespace
}  // namespace storage
