#include "cql/types/type_codec.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace cql {
namespace {

using common::StatusCode;

std::string Encode(const CqlType& type) {
  common::ByteWriter out;
  EncodeTypeOption(type, &out);
  return out.Release();
}

common::Result<CqlType> DecodeAll(std::string_view bytes) {
  common::ByteReader in(bytes);
  ASSIGN_OR_RETURN(CqlType type, DecodeTypeOption(&in));
  if (!in.empty()) return common::Status::Invalid("trailing bytes");
  return type;
}

CqlType Address() {
  return CqlType::Udt("hotel", "address", {"street", "city", "zip"},
                      {CqlType::Text(), CqlType::Text(), CqlType::Int()});
}

std::vector<CqlType> AllNatives() {
  return {CqlType::Ascii(),   CqlType::Bigint(),    CqlType::Blob(),    CqlType::Boolean(),
          CqlType::Counter(), CqlType::Decimal(),   CqlType::Double(),  CqlType::Float(),
          CqlType::Int(),     CqlType::Timestamp(), CqlType::Uuid(),    CqlType::Text(),
          CqlType::Varint(),  CqlType::Timeuuid(),  CqlType::Inet(),    CqlType::Date(),
          CqlType::Time(),    CqlType::Smallint(),  CqlType::Tinyint(), CqlType::Duration()};
}

// Types whose protocol form round-trips exactly: top level non-frozen, nested types frozen.
std::vector<CqlType> RoundTripTypes() {
  std::vector<CqlType> types = AllNatives();
  types.push_back(CqlType::List(CqlType::Int()));
  types.push_back(CqlType::Set(CqlType::Text()));
  types.push_back(CqlType::Map(CqlType::Text(), Address().WithFrozen(true)));
  types.push_back(CqlType::List(CqlType::Set(CqlType::Uuid(), /*frozen=*/true)));
  types.push_back(CqlType::Map(CqlType::Tuple({CqlType::Int(), CqlType::Text()}),
                               CqlType::List(CqlType::Blob(), true)));
  types.push_back(CqlType::Tuple({CqlType::Int(), CqlType::List(CqlType::Text(), true)}));
  types.push_back(CqlType::Tuple({}));
  types.push_back(Address());
  types.push_back(CqlType::Udt(
      "ks", "Quoted Name", {"a b", "c"},
      {CqlType::Map(CqlType::Int(), CqlType::Int(), true), Address().WithFrozen(true)}));
  types.push_back(CqlType::Udt("ks", "empty", {}, {}));
  types.push_back(CqlType::Vector(CqlType::Float(), 3));
  types.push_back(CqlType::Vector(CqlType::Text(), 1));
  types.push_back(CqlType::Vector(CqlType::List(CqlType::Int(), true), 2));
  types.push_back(CqlType::Custom("org.apache.cassandra.db.marshal.DynamicCompositeType"));
  return types;
}

TEST(TypeCodecTest, RoundTripsEveryType) {
  for (const CqlType& type : RoundTripTypes()) {
    auto decoded = DecodeAll(Encode(type));
    ASSERT_TRUE(decoded.ok()) << type.ToCql() << ": " << decoded.status().ToString();
    EXPECT_EQ(decoded.value(), type) << type.ToCql() << " came back as " << decoded.value().ToCql();
  }
}

TEST(TypeCodecTest, FrozennessIsNotCarriedAtTopLevel) {
  CqlType frozen_list = CqlType::List(CqlType::Int(), true);
  auto decoded = DecodeAll(Encode(frozen_list));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded.value(), CqlType::List(CqlType::Int()));
  auto udt = DecodeAll(Encode(Address().WithFrozen(true)));
  ASSERT_TRUE(udt.ok());
  EXPECT_FALSE(udt.value().frozen());
  EXPECT_EQ(udt.value(), Address());
}

TEST(TypeCodecTest, KnownEncodings) {
  EXPECT_EQ(Encode(CqlType::Int()), std::string("\x00\x09", 2));
  EXPECT_EQ(Encode(CqlType::Duration()), std::string("\x00\x15", 2));
  EXPECT_EQ(Encode(CqlType::Map(CqlType::Text(), CqlType::Int())),
            std::string("\x00\x21\x00\x0d\x00\x09", 6));
  EXPECT_EQ(Encode(CqlType::Udt("ks", "t", {"a"}, {CqlType::Int()})),
            std::string("\x00\x30\x00\x02ks\x00\x01t\x00\x01\x00\x01"
                        "a\x00\x09",
                        16));
  EXPECT_EQ(Encode(CqlType::Tuple({CqlType::Int(), CqlType::Text()})),
            std::string("\x00\x31\x00\x02\x00\x09\x00\x0d", 8));
  const std::string vector_class =
      "org.apache.cassandra.db.marshal.VectorType(org.apache.cassandra.db.marshal.FloatType,3)";
  std::string expected("\x00\x00", 2);
  expected += static_cast<char>(vector_class.size() >> 8);
  expected += static_cast<char>(vector_class.size() & 0xff);
  expected += vector_class;
  EXPECT_EQ(Encode(CqlType::Vector(CqlType::Float(), 3)), expected);
}

TEST(TypeCodecTest, DecodesShortVectorClassName) {
  std::string bytes("\x00\x00", 2);
  const std::string name = "VectorType(Int32Type,4)";
  bytes += std::string("\x00", 1) + static_cast<char>(name.size()) + name;
  auto decoded = DecodeAll(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded.value(), CqlType::Vector(CqlType::Int(), 4));
}

TEST(TypeCodecTest, RejectsBadInput) {
  auto expect_invalid = [](std::string_view bytes, std::string_view fragment) {
    auto decoded = DecodeAll(bytes);
    ASSERT_FALSE(decoded.ok());
    EXPECT_EQ(decoded.status().code(), StatusCode::kInvalid);
    EXPECT_NE(decoded.status().message().find(fragment), std::string::npos)
        << decoded.status().message();
  };
  expect_invalid("", "truncated type id");
  expect_invalid(std::string("\x00\x0a", 2), "unknown type id 0x000a");
  expect_invalid(std::string("\x00\x40", 2), "unknown type id 0x0040");
  expect_invalid(std::string("\x00\x20", 2), "truncated type id");
  expect_invalid(std::string("\x00\x30\x00\x05ks", 6), "truncated UDT keyspace");
  const std::string bad_class = "VectorType(FloatType,0)";
  std::string bad_vector("\x00\x00\x00", 3);
  bad_vector += static_cast<char>(bad_class.size());
  bad_vector += bad_class;
  expect_invalid(bad_vector, "invalid vector dimension");
}

TEST(TypeCodecTest, BoundsNestingDepth) {
  auto nested_lists = [](int depth) {
    std::string bytes;
    for (int i = 0; i < depth; ++i) bytes += std::string("\x00\x20", 2);
    return bytes + std::string("\x00\x09", 2);
  };
  EXPECT_TRUE(DecodeAll(nested_lists(kMaxTypeNestingDepth)).ok());
  auto too_deep = DecodeAll(nested_lists(kMaxTypeNestingDepth + 1));
  ASSERT_FALSE(too_deep.ok());
  EXPECT_EQ(too_deep.status().code(), StatusCode::kInvalid);
  EXPECT_FALSE(DecodeAll(nested_lists(100000)).ok());
  std::string deep_class = "VectorType(";
  for (int i = 0; i < 1000; ++i) deep_class += "ListType(";
  std::string bytes("\x00\x00", 2);
  bytes += static_cast<char>(deep_class.size() >> 8);
  bytes += static_cast<char>(deep_class.size() & 0xff);
  bytes += deep_class;
  EXPECT_FALSE(DecodeAll(bytes).ok());
}

TEST(TypeCodecTest, EveryPrefixOfAValidEncodingFails) {
  for (const CqlType& type : RoundTripTypes()) {
    const std::string bytes = Encode(type);
    for (size_t n = 0; n < bytes.size(); ++n) {
      auto decoded = DecodeAll(std::string_view(bytes).substr(0, n));
      EXPECT_FALSE(decoded.ok()) << type.ToCql() << " prefix " << n;
      if (!decoded.ok()) {
        EXPECT_EQ(decoded.status().code(), StatusCode::kInvalid);
      }
    }
  }
}

TEST(TypeCodecTest, RandomBytesNeverCrash) {
  std::mt19937 rng(20261121);
  const std::vector<CqlType> types = RoundTripTypes();
  for (int iteration = 0; iteration < 5000; ++iteration) {
    std::string bytes = Encode(types[iteration % types.size()]);
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < flips && !bytes.empty(); ++f) {
      bytes[rng() % bytes.size()] = static_cast<char>(rng());
    }
    common::ByteReader in(bytes);
    auto decoded = DecodeTypeOption(&in);
    if (!decoded.ok()) {
      EXPECT_EQ(decoded.status().code(), StatusCode::kInvalid);
    }
  }
}

TEST(TypeCodecTest, MarshalClassNames) {
  const std::string p = "org.apache.cassandra.db.marshal.";
  const std::vector<std::pair<CqlType, std::string>> natives = {
      {CqlType::Ascii(), "AsciiType"},
      {CqlType::Bigint(), "LongType"},
      {CqlType::Blob(), "BytesType"},
      {CqlType::Boolean(), "BooleanType"},
      {CqlType::Counter(), "CounterColumnType"},
      {CqlType::Decimal(), "DecimalType"},
      {CqlType::Double(), "DoubleType"},
      {CqlType::Float(), "FloatType"},
      {CqlType::Int(), "Int32Type"},
      {CqlType::Timestamp(), "TimestampType"},
      {CqlType::Uuid(), "UUIDType"},
      {CqlType::Text(), "UTF8Type"},
      {CqlType::Varint(), "IntegerType"},
      {CqlType::Timeuuid(), "TimeUUIDType"},
      {CqlType::Inet(), "InetAddressType"},
      {CqlType::Date(), "SimpleDateType"},
      {CqlType::Time(), "TimeType"},
      {CqlType::Smallint(), "ShortType"},
      {CqlType::Tinyint(), "ByteType"},
      {CqlType::Duration(), "DurationType"},
  };
  for (const auto& [type, name] : natives) EXPECT_EQ(MarshalClassName(type), p + name);

  EXPECT_EQ(MarshalClassName(CqlType::List(CqlType::Int())), p + "ListType(" + p + "Int32Type)");
  EXPECT_EQ(MarshalClassName(CqlType::List(CqlType::Set(CqlType::Int(), true), true)),
            p + "FrozenType(" + p + "ListType(" + p + "SetType(" + p + "Int32Type)))");
  EXPECT_EQ(MarshalClassName(CqlType::List(CqlType::Set(CqlType::Int(), true))),
            p + "ListType(" + p + "FrozenType(" + p + "SetType(" + p + "Int32Type)))");
  EXPECT_EQ(MarshalClassName(CqlType::Map(CqlType::Text(), CqlType::Bigint())),
            p + "MapType(" + p + "UTF8Type," + p + "LongType)");
  EXPECT_EQ(MarshalClassName(CqlType::Tuple({CqlType::Int(), CqlType::Text()})),
            p + "TupleType(" + p + "Int32Type," + p + "UTF8Type)");
  CqlType address =
      CqlType::Udt("hotel", "address", {"street", "zip"}, {CqlType::Text(), CqlType::Int()}, true);
  EXPECT_EQ(MarshalClassName(address), p + "FrozenType(" + p +
                                           "UserType(hotel,61646472657373,737472656574:" + p +
                                           "UTF8Type,7a6970:" + p + "Int32Type))");
  EXPECT_EQ(MarshalClassName(CqlType::Vector(CqlType::Float(), 3)),
            p + "VectorType(" + p + "FloatType,3)");
  EXPECT_EQ(MarshalClassName(CqlType::Custom("com.example.MyType")), "com.example.MyType");
}

TEST(TypeCodecTest, ParsesMarshalClassNamesBack) {
  std::vector<CqlType> types = AllNatives();
  types.push_back(CqlType::List(CqlType::Int()));
  types.push_back(CqlType::List(CqlType::Set(CqlType::Int(), true), true));
  types.push_back(CqlType::Map(CqlType::Text(), CqlType::List(CqlType::Int(), true)));
  types.push_back(
      CqlType::Tuple({CqlType::Int(), CqlType::Map(CqlType::Int(), CqlType::Int(), true)}));
  types.push_back(Address());
  types.push_back(Address().WithFrozen(true));
  types.push_back(CqlType::Map(CqlType::Text(), Address().WithFrozen(true)));
  types.push_back(CqlType::Vector(CqlType::Float(), 3));
  for (const CqlType& type : types) {
    auto parsed = ParseMarshalClassName(MarshalClassName(type));
    ASSERT_TRUE(parsed.ok()) << MarshalClassName(type) << ": " << parsed.status().ToString();
    EXPECT_EQ(parsed.value(), type) << MarshalClassName(type);
  }
  EXPECT_EQ(ParseMarshalClassName("SetType(UTF8Type)").value(), CqlType::Set(CqlType::Text()));
  EXPECT_FALSE(ParseMarshalClassName("ListType(").ok());
  EXPECT_FALSE(ParseMarshalClassName("ListType").ok());
  EXPECT_FALSE(ParseMarshalClassName("MapType(Int32Type)").ok());
  EXPECT_FALSE(ParseMarshalClassName("UserType(ks,zz)").ok());
  EXPECT_FALSE(ParseMarshalClassName("Int32Type)").ok());
}

}  // namespace
}  // namespace cql
