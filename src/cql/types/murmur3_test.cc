#include "cql/types/murmur3.h"

#include <charconv>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cql {
namespace {

struct VectorRow {
  int line = 0;
  std::string description;
  std::vector<std::string> types;  // one per partition-key component
  std::string values;              // CQL literal(s) as written in the file
  std::string key_hex;             // the bytes that are hashed
  int64_t token = 0;
};

std::vector<std::string> SplitOn(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

std::string Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

std::vector<VectorRow> LoadVectors() {
  std::ifstream in(std::string(CQLD_TEST_DATA_DIR) + "/murmur3_token_vectors.tsv");
  EXPECT_TRUE(in.good()) << "cannot open the vector file";
  std::vector<VectorRow> rows;
  std::string line;
  int line_number = 0;
  bool seen_header = false;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> columns = SplitOn(line, '\t');
    if (!seen_header) {
      seen_header = true;
      EXPECT_EQ(line, "description\tcql_types\tcql_values\tkey_hex\ttoken");
      continue;
    }
    EXPECT_EQ(columns.size(), 5u) << "line " << line_number;
    if (columns.size() != 5) continue;
    VectorRow row;
    row.line = line_number;
    row.description = columns[0];
    for (const std::string& type : SplitOn(columns[1], ',')) row.types.push_back(Trim(type));
    row.values = columns[2];
    row.key_hex = columns[3];
    const std::string& token = columns[4];
    auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), row.token);
    EXPECT_TRUE(error == std::errc() && end == token.data() + token.size())
        << "bad token on line " << line_number;
    rows.push_back(std::move(row));
  }
  return rows;
}

// --- A tiny test-only CQL literal encoder for the types used in composite rows. ---

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

std::string Unquote(std::string_view literal) {
  EXPECT_TRUE(literal.size() >= 2 && literal.front() == '\'' && literal.back() == '\'') << literal;
  std::string out;
  for (size_t i = 1; i + 1 < literal.size(); ++i) {
    out.push_back(literal[i]);
    if (literal[i] == '\'') ++i;  // '' -> '
  }
  return out;
}

common::Bytes EncodeLiteral(const std::string& type, const std::string& literal) {
  common::ByteWriter writer;
  if (type == "text" || type == "ascii") return Unquote(literal);
  if (type == "int" || type == "smallint" || type == "bigint" || type == "tinyint") {
    int64_t v = std::stoll(literal);
    if (type == "int") writer.PutI32(static_cast<int32_t>(v));
    if (type == "smallint") writer.PutI16(static_cast<int16_t>(v));
    if (type == "bigint") writer.PutI64(v);
    if (type == "tinyint") writer.PutI8(static_cast<int8_t>(v));
    return writer.Release();
  }
  if (type == "boolean") return std::string(1, literal == "true" ? '\x01' : '\x00');
  if (type == "blob") return common::FromHex(literal.substr(2)).value();
  if (type == "uuid" || type == "timeuuid") {
    std::string hex;
    for (char c : literal) {
      if (c != '-') hex.push_back(c);
    }
    return common::FromHex(hex).value();
  }
  if (type == "date") {
    std::string text = Unquote(literal);
    int64_t days = DaysFromCivil(std::stoll(text.substr(0, 4)), std::stoul(text.substr(5, 2)),
                                 std::stoul(text.substr(8, 2)));
    writer.PutU32(static_cast<uint32_t>(days + (int64_t{1} << 31)));
    return writer.Release();
  }
  ADD_FAILURE() << "the test's literal encoder does not know type " << type;
  return "";
}

// Splits "('AZ123', 101)" into its literals (commas inside quotes kept).
std::vector<std::string> SplitTupleLiteral(const std::string& text) {
  std::vector<std::string> parts;
  EXPECT_TRUE(text.size() >= 2 && text.front() == '(' && text.back() == ')') << text;
  std::string current;
  bool in_quotes = false;
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    char c = text[i];
    if (c == '\'') in_quotes = !in_quotes;
    if (c == ',' && !in_quotes) {
      parts.push_back(Trim(current));
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  parts.push_back(Trim(current));
  return parts;
}

TEST(Murmur3Test, EveryVectorInTheDataFile) {
  std::vector<VectorRow> rows = LoadVectors();
  ASSERT_GE(rows.size(), 90u) << "vector file unexpectedly short";
  int composite_rows = 0;
  for (const VectorRow& row : rows) {
    SCOPED_TRACE("line " + std::to_string(row.line) + ": " + row.description);
    auto key = common::FromHex(row.key_hex);
    ASSERT_TRUE(key.ok()) << key.status().ToString();
    // The file gives the raw hash for the empty key (0); the token of an empty key is the
    // minimum token, as Cassandra's getToken() gives it.
    EXPECT_EQ(Murmur3Token(*key), key->empty() ? std::numeric_limits<int64_t>::min() : row.token);
    if (row.types.size() == 1) {
      EXPECT_EQ(SerializePartitionKey({*key}), *key);
      continue;
    }
    ++composite_rows;
    // Composite: the hashed bytes must be exactly what SerializePartitionKey builds from the
    // components' values, and must split back into them.
    std::vector<std::string> literals = SplitTupleLiteral(row.values);
    ASSERT_EQ(literals.size(), row.types.size());
    std::vector<common::Bytes> encoded;
    for (size_t i = 0; i < literals.size(); ++i) {
      encoded.push_back(EncodeLiteral(row.types[i], literals[i]));
    }
    std::vector<std::string_view> views(encoded.begin(), encoded.end());
    EXPECT_EQ(common::ToHex(SerializePartitionKey(views)), row.key_hex);
    auto split = SplitPartitionKey(*key, row.types.size());
    ASSERT_TRUE(split.ok()) << split.status().ToString();
    ASSERT_EQ(split->size(), views.size());
    for (size_t i = 0; i < views.size(); ++i) EXPECT_EQ((*split)[i], views[i]);
  }
  EXPECT_GE(composite_rows, 5);
}

TEST(Murmur3Test, MinimumTokenIsMappedToMaximum) {
  // No short key is known to hash to Long.MIN_VALUE, so check the mapping through the 128-bit
  // function's contract instead: Murmur3Token equals h1 except for that one value.
  for (std::string_view key : {"a", "abc", "0123456789abcdef0"}) {
    int64_t h1 = CassandraMurmur3Hash128(key, 0).h1;
    EXPECT_NE(h1, std::numeric_limits<int64_t>::min());
    EXPECT_EQ(Murmur3Token(key), h1);
  }
  // The empty key is the exception: the minimum token (its raw hash is 0).
  EXPECT_EQ(CassandraMurmur3Hash128("", 0).h1, 0);
  EXPECT_EQ(Murmur3Token(""), std::numeric_limits<int64_t>::min());
}

TEST(Murmur3Test, SeedChangesTheHash) {
  EXPECT_NE(CassandraMurmur3Hash128("abc", 0).h1, CassandraMurmur3Hash128("abc", 1).h1);
  EXPECT_NE(CassandraMurmur3Hash128("abc", 0).h1, CassandraMurmur3Hash128("abc", 0).h2);
}

TEST(Murmur3Test, SplitPartitionKeyRejectsMalformedKeys) {
  auto split = [](std::string_view hex, size_t count) {
    return SplitPartitionKey(common::FromHex(hex).value(), count).ok();
  };
  EXPECT_FALSE(split("0005415a31", 2));            // value shorter than its length
  EXPECT_FALSE(split("000141", 2));                // no end-of-component byte
  EXPECT_FALSE(split("000141010001420000", 2));    // end-of-component byte not 0x00
  EXPECT_FALSE(split("00014100000142000000", 2));  // trailing bytes
  EXPECT_FALSE(split("00014100", 2));              // too few components
  EXPECT_TRUE(split("00014101", 1));               // one component is the raw bytes
  common::Bytes key = common::FromHex("0001410000014200").value();
  auto ok = SplitPartitionKey(key, 2);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ((*ok)[0], "A");
  EXPECT_EQ((*ok)[1], "B");
}

TEST(Murmur3Test, ComponentSizeValidationUsesCassandrasMessage) {
  std::string big(65536, 'x');
  std::string fits(65535, 'x');
  EXPECT_TRUE(ValidatePartitionKeyComponentSizes({fits, "a"}).ok());
  common::Status status = ValidatePartitionKeyComponentSizes({"a", big});
  EXPECT_EQ(status.code(), common::StatusCode::kInvalid);
  EXPECT_EQ(status.message(), "Key length of 65536 is longer than maximum of 65535");
}

}  // namespace
}  // namespace cql
