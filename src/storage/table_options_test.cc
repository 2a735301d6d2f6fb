#include "storage/table_options.h"

#include <gtest/gtest.h>

#include <string>

namespace storage {
namespace {

KeyShape RichShape() {
  KeyShape shape;
  shape.partition_key = {cql::CqlType::Text(), cql::CqlType::Uuid()};
  cql::CqlType address = cql::CqlType::Udt("ks", "address", {"street", "zip"},
                                           {cql::CqlType::Text(), cql::CqlType::Int()},
                                           /*frozen=*/true);
  shape.clustering = {
      {cql::CqlType::Timestamp(), true},
      {cql::CqlType::List(cql::CqlType::Int(), /*frozen=*/true), false},
      {cql::CqlType::Tuple({cql::CqlType::Int(), cql::CqlType::Text()}), true},
      {address, false},
  };
  return shape;
}

// Frozen-ness is not part of the [option] encoding; the key encoding does not depend on it.
KeyShape Unfrozen(KeyShape shape) {
  for (cql::CqlType& type : shape.partition_key) type = type.WithFrozen(false);
  for (ClusteringColumn& column : shape.clustering) {
    column.type = column.type.WithFrozen(false);
  }
  return shape;
}

TEST(TableOptionsTest, VersionOneStillDecodes) {
  // u8 version 1, vint 100 (zig-zag 200 = 0x80 0xC8 as an unsigned vint).
  common::ByteWriter w;
  w.PutU8(1);
  w.PutVInt(100);
  auto decoded = DecodeTableOptions(w.data());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->gc_grace_seconds, 100);
  EXPECT_FALSE(decoded->shape.has_value());
  EXPECT_FALSE(decoded->row_entries_only);
  // The literal bytes of a version 1 record written by the previous code.
  auto literal = DecodeTableOptions(std::string("\x01\x80\xC8", 3));
  ASSERT_TRUE(literal.ok()) << literal.status().ToString();
  EXPECT_EQ(literal->gc_grace_seconds, 100);
}

TEST(TableOptionsTest, VersionTwoBytesWithoutShape) {
  TableOptions options{.gc_grace_seconds = 0, .shape = std::nullopt, .row_entries_only = true};
  auto encoded = EncodeTableOptions(options);
  ASSERT_TRUE(encoded.ok());
  EXPECT_EQ(*encoded, std::string("\x02\x00\x02", 3));
  EXPECT_EQ(DecodeTableOptions(*encoded).value(), options);
}

TEST(TableOptionsTest, SingleRowPartitionsFlag) {
  TableOptions options{.gc_grace_seconds = 0,
                       .shape = KeyShape{{cql::CqlType::Int()}, {}},
                       .single_row_partitions = true};
  auto encoded = EncodeTableOptions(options);
  ASSERT_TRUE(encoded.ok()) << encoded.status().ToString();
  EXPECT_EQ((*encoded)[2], '\x05');  // kHasShape | kSingleRowPartitions
  EXPECT_EQ(DecodeTableOptions(*encoded).value(), options);
}

TEST(TableOptionsTest, ShapeRoundTrips) {
  TableOptions options{.gc_grace_seconds = 864000, .shape = RichShape()};
  auto encoded = EncodeTableOptions(options);
  ASSERT_TRUE(encoded.ok()) << encoded.status().ToString();
  EXPECT_EQ((*encoded)[0], '\x02');
  auto decoded = DecodeTableOptions(*encoded);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->gc_grace_seconds, 864000);
  EXPECT_FALSE(decoded->row_entries_only);
  ASSERT_TRUE(decoded->shape.has_value());
  EXPECT_EQ(Unfrozen(*decoded->shape), Unfrozen(RichShape()));
  EXPECT_TRUE(decoded->shape->clustering[0].descending);
  EXPECT_FALSE(decoded->shape->clustering[1].descending);
  // Re-encoding the decoded options gives the same bytes.
  EXPECT_EQ(EncodeTableOptions(*decoded).value(), *encoded);
}

TEST(TableOptionsTest, EmptyShapeIsNotNoShape) {
  TableOptions options{.gc_grace_seconds = 5, .shape = KeyShape{}};
  auto decoded = DecodeTableOptions(EncodeTableOptions(options).value());
  ASSERT_TRUE(decoded.ok());
  ASSERT_TRUE(decoded->shape.has_value());
  EXPECT_TRUE(decoded->shape->partition_key.empty());
}

TEST(TableOptionsTest, UnresolvedTypeIsInvalid) {
  KeyShape shape;
  shape.partition_key = {cql::CqlType::UdtRef("ks", "address", true)};
  auto encoded = EncodeTableOptions(TableOptions{.shape = shape});
  EXPECT_EQ(encoded.status().code(), common::StatusCode::kInvalid);
}

TEST(TableOptionsTest, MalformedInputIsCorruption) {
  std::string good = EncodeTableOptions(TableOptions{.shape = RichShape()}).value();
  std::vector<std::string> bad = {
      "",
      std::string("\x03\x00\x00", 3),                      // unknown version
      std::string("\x01", 1),                              // truncated v1
      std::string("\x01\x00\x00", 3),                      // v1 with trailing bytes
      std::string("\x02\x00", 2),                          // v2 without flags
      std::string("\x02\x00\x08", 3),                      // unknown flag
      std::string("\x02\x00\x01", 3),                      // shape flag, no shape
      std::string("\x02\x00\x01\x7f", 4),                  // a count larger than the input
      std::string("\x02\x00\x01\x01\x00\x09", 6),          // int pk, then no clustering count
      std::string("\x02\x00\x01\x00\x01\x02\x00\x09", 8),  // bad clustering order byte
      std::string("\x02\x00\x01\x01\xff\xff\x00", 7),      // unknown type id
      good + "x",                                          // trailing bytes
  };
  for (size_t cut = 1; cut < good.size(); ++cut) bad.push_back(good.substr(0, cut));
  for (const std::string& bytes : bad) {
    auto decoded = DecodeTableOptions(bytes);
    ASSERT_FALSE(decoded.ok()) << common::ToHex(bytes);
    EXPECT_EQ(decoded.status().code(), common::StatusCode::kCorruption) << common::ToHex(bytes);
  }
}

}  // namespace
}  // namespace storage
