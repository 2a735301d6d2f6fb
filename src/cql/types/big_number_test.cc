#include "cql/types/big_number.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace cql {
namespace {

using common::FromHex;
using common::ToHex;

std::string VarintHex(std::string_view text) {
  auto bytes = VarintFromText(text);
  EXPECT_TRUE(bytes.ok()) << text << ": " << bytes.status().ToString();
  return bytes.ok() ? ToHex(*bytes) : "";
}

std::string DecimalHex(std::string_view text) {
  auto bytes = DecimalFromText(text);
  EXPECT_TRUE(bytes.ok()) << text << ": " << bytes.status().ToString();
  return bytes.ok() ? ToHex(*bytes) : "";
}

std::string DecimalText(std::string_view hex) {
  auto text = DecimalToText(*FromHex(hex));
  EXPECT_TRUE(text.ok()) << hex;
  return text.ok() ? *text : "";
}

TEST(BigNumberTest, VarintSpecExamples) {
  // native_protocol_v4.spec §6.23.
  EXPECT_EQ(VarintHex("0"), "00");
  EXPECT_EQ(VarintHex("1"), "01");
  EXPECT_EQ(VarintHex("127"), "7f");
  EXPECT_EQ(VarintHex("128"), "0080");
  EXPECT_EQ(VarintHex("129"), "0081");
  EXPECT_EQ(VarintHex("-1"), "ff");
  EXPECT_EQ(VarintHex("-128"), "80");
  EXPECT_EQ(VarintHex("-129"), "ff7f");
}

TEST(BigNumberTest, VarintEdgeValues) {
  EXPECT_EQ(VarintHex("255"), "00ff");
  EXPECT_EQ(VarintHex("256"), "0100");
  EXPECT_EQ(VarintHex("-256"), "ff00");
  EXPECT_EQ(VarintHex("-257"), "feff");
  EXPECT_EQ(VarintHex("32767"), "7fff");
  EXPECT_EQ(VarintHex("-32768"), "8000");
  EXPECT_EQ(VarintHex("9223372036854775807"), "7fffffffffffffff");
  EXPECT_EQ(VarintHex("-9223372036854775808"), "8000000000000000");
  EXPECT_EQ(VarintHex("9223372036854775808"), "008000000000000000");
  EXPECT_EQ(VarintHex("18446744073709551616"), "010000000000000000");
  EXPECT_EQ(VarintHex("-18446744073709551616"), "ff0000000000000000");
  EXPECT_EQ(VarintHex("+42"), "2a");
  EXPECT_EQ(VarintHex("-0"), "00");
  EXPECT_EQ(VarintHex("000127"), "7f");
  // 10^30 = 0x0c9f2c9cd04674edea40000000
  EXPECT_EQ(VarintHex("1000000000000000000000000000000"), "0c9f2c9cd04674edea40000000");
}

TEST(BigNumberTest, VarintRejectsBadText) {
  for (std::string_view bad : {"", "-", "+", "1.5", "1e3", " 1", "1 ", "0x10", "--1", "12a"}) {
    EXPECT_FALSE(VarintFromText(bad).ok()) << bad;
  }
}

TEST(BigNumberTest, VarintToTextReadsAnyEncoding) {
  EXPECT_EQ(VarintToText(*FromHex("ff7f")), "-129");
  EXPECT_EQ(VarintToText(*FromHex("0080")), "128");
  EXPECT_EQ(VarintToText(*FromHex("000001")), "1");   // non-minimal
  EXPECT_EQ(VarintToText(*FromHex("ffffff")), "-1");  // non-minimal
  EXPECT_EQ(VarintToText(""), "0");
  EXPECT_EQ(VarintToText(*FromHex("0c9f2c9cd04674edea40000000")),
            "1000000000000000000000000000000");
}

TEST(BigNumberTest, VarintTextRoundTripsRandomNumbers) {
  std::mt19937_64 rng(20240131);
  for (int i = 0; i < 2000; ++i) {
    size_t digits = 1 + rng() % 80;
    std::string text = rng() % 2 ? "-" : "";
    text += static_cast<char>('1' + rng() % 9);
    for (size_t d = 1; d < digits; ++d) text += static_cast<char>('0' + rng() % 10);
    auto bytes = VarintFromText(text);
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ(VarintToText(*bytes), text);
    // Minimal: the first two bytes never carry a redundant sign byte.
    if (bytes->size() >= 2) {
      auto b0 = static_cast<unsigned char>((*bytes)[0]);
      auto b1 = static_cast<unsigned char>((*bytes)[1]);
      EXPECT_FALSE(b0 == 0x00 && b1 < 0x80) << text;
      EXPECT_FALSE(b0 == 0xFF && b1 >= 0x80) << text;
    }
  }
}

TEST(BigNumberTest, VarintInt64Conversions) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    auto v = static_cast<int64_t>(rng());
    if (i % 3 == 0) v >>= rng() % 63;
    common::Bytes bytes = VarintFromInt64(v);
    EXPECT_EQ(*VarintFromText(std::to_string(v)), bytes);
    auto back = VarintToInt64(bytes);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, v);
  }
  EXPECT_EQ(ToHex(VarintFromInt64(INT64_MIN)), "8000000000000000");
  EXPECT_FALSE(VarintToInt64(*FromHex("008000000000000000")).ok());
  EXPECT_FALSE(VarintToInt64(*FromHex("ff7fffffffffffffff")).ok());
  EXPECT_EQ(*VarintToInt64(*FromHex("ff8000000000000000")), INT64_MIN);
  EXPECT_EQ(*VarintToInt64(*FromHex("00000000000000000001")), 1);
}

TEST(BigNumberTest, DecimalFromTextKeepsScale) {
  EXPECT_EQ(DecimalHex("1.5"), "000000010f");
  EXPECT_EQ(DecimalHex("1.50"),
            "00000002"
            "0096");
  EXPECT_EQ(DecimalHex("0"), "0000000000");
  EXPECT_EQ(DecimalHex("-1"), "00000000ff");
  EXPECT_EQ(DecimalHex("1E+3"), "fffffffd01");
  EXPECT_EQ(DecimalHex("1e3"), "fffffffd01");
  EXPECT_EQ(DecimalHex("12.345e2"), "000000013039");  // 12345 scale 1
  EXPECT_EQ(DecimalHex(".5"), "0000000105");
  EXPECT_EQ(DecimalHex("5."), "0000000005");
  EXPECT_EQ(DecimalHex("-0.001"), "00000003ff");
  EXPECT_EQ(DecimalHex("+2.5"), "0000000119");
  EXPECT_EQ(DecimalHex("0.00"), "0000000200");
  EXPECT_EQ(DecimalHex("123456789012345678901234567890.1"),
            "00000001"
            "0f951a9fa3a286c94f0e766c35");
}

TEST(BigNumberTest, DecimalRejectsBadText) {
  for (std::string_view bad :
       {"", "-", ".", "e5", "1e", "1e+", "1.2.3", "NaN", "Infinity", "1,5", " 1", "0x1", "1e5x"}) {
    EXPECT_FALSE(DecimalFromText(bad).ok()) << bad;
  }
  EXPECT_FALSE(DecimalFromText("1e2147483649").ok());   // scale below int32
  EXPECT_FALSE(DecimalFromText("1e-2147483648").ok());  // scale above int32
  EXPECT_TRUE(DecimalFromText("1e2147483648").ok());    // scale exactly INT32_MIN
  EXPECT_TRUE(DecimalFromText("1e-2147483647").ok());
}

TEST(BigNumberTest, DecimalToTextMatchesJavaAndPython) {
  EXPECT_EQ(DecimalText("000000010f"), "1.5");
  EXPECT_EQ(DecimalText("00000002"
                        "0096"),
            "1.50");
  EXPECT_EQ(DecimalText("fffffffd01"), "1E+3");
  EXPECT_EQ(DecimalText("fffffffd7b"), "1.23E+5");
  EXPECT_EQ(DecimalText("0000000005"), "5");
  EXPECT_EQ(DecimalText("0000000305"), "0.005");
  EXPECT_EQ(DecimalText("00000003fb"), "-0.005");
  EXPECT_EQ(DecimalText("0000000601"), "0.000001");
  EXPECT_EQ(DecimalText("0000000701"), "1E-7");
  EXPECT_EQ(DecimalText("000000077b"), "0.0000123");
  EXPECT_EQ(DecimalText("000000097b"), "1.23E-7");
  EXPECT_EQ(DecimalText("fffffffe00"), "0E+2");
  EXPECT_EQ(DecimalText("0000000a00"), "0E-10");
  EXPECT_EQ(DecimalText("0000000300"), "0.000");
  EXPECT_EQ(DecimalText("00000000ff7f"), "-129");
  EXPECT_FALSE(DecimalToText(*FromHex("000000")).ok());
}

TEST(BigNumberTest, DecimalLiteralTextRoundTripsExactly) {
  std::mt19937_64 rng(99);
  for (int i = 0; i < 2000; ++i) {
    std::string unscaled = rng() % 2 ? "-" : "";
    size_t digits = 1 + rng() % 40;
    for (size_t d = 0; d < digits; ++d) unscaled += static_cast<char>('0' + rng() % 10);
    int32_t scale = static_cast<int32_t>(rng() % 200) - 100;
    if (i % 50 == 0) scale = i % 100 == 0 ? INT32_MIN : INT32_MAX;
    common::Bytes bytes = DecimalFromParts(*VarintFromText(unscaled), scale);
    auto literal = DecimalToLiteralText(bytes);
    ASSERT_TRUE(literal.ok());
    auto parsed = DecimalFromText(*literal);
    ASSERT_TRUE(parsed.ok()) << *literal;
    EXPECT_EQ(ToHex(*parsed), ToHex(bytes)) << *literal;
    // The display form is BigDecimal syntax too and denotes the same scale.
    auto display = DecimalToText(bytes);
    ASSERT_TRUE(display.ok());
    auto reparsed = DecimalFromText(*display);
    ASSERT_TRUE(reparsed.ok()) << *display;
    EXPECT_EQ(ToHex(*reparsed), ToHex(bytes)) << *display;
  }
  EXPECT_EQ(*DecimalToLiteralText(*DecimalFromText("1.50")), "1.50");
  EXPECT_EQ(*DecimalToLiteralText(*DecimalFromText("1E+3")), "1E3");
  EXPECT_EQ(*DecimalToLiteralText(*DecimalFromText("0.005")), "0.005");
}

TEST(BigNumberTest, JavaIntegerParsing) {
  EXPECT_EQ(ParseJavaInteger("42", INT32_MIN, INT32_MAX), 42);
  EXPECT_EQ(ParseJavaInteger("+42", INT32_MIN, INT32_MAX), 42);
  EXPECT_EQ(ParseJavaInteger("-2147483648", INT32_MIN, INT32_MAX), INT32_MIN);
  EXPECT_EQ(ParseJavaInteger("-9223372036854775808", INT64_MIN, INT64_MAX), INT64_MIN);
  EXPECT_EQ(ParseJavaInteger("9223372036854775807", INT64_MIN, INT64_MAX), INT64_MAX);
  EXPECT_FALSE(ParseJavaInteger("9223372036854775808", INT64_MIN, INT64_MAX));
  EXPECT_FALSE(ParseJavaInteger("-9223372036854775809", INT64_MIN, INT64_MAX));
  EXPECT_FALSE(ParseJavaInteger("2147483648", INT32_MIN, INT32_MAX));
  EXPECT_FALSE(ParseJavaInteger("", INT32_MIN, INT32_MAX));
  EXPECT_FALSE(ParseJavaInteger("-", INT32_MIN, INT32_MAX));
  EXPECT_FALSE(ParseJavaInteger(" 1", INT32_MIN, INT32_MAX));
  EXPECT_FALSE(ParseJavaInteger("1.0", INT32_MIN, INT32_MAX));
  EXPECT_FALSE(ParseJavaInteger("99999999999999999999999", INT64_MIN, INT64_MAX));
}

TEST(BigNumberTest, JavaFloatingParsing) {
  EXPECT_EQ(ParseJavaDouble("1.5"), 1.5);
  EXPECT_EQ(ParseJavaDouble("-2.5e-3"), -0.0025);
  EXPECT_EQ(ParseJavaDouble(".5"), 0.5);
  EXPECT_EQ(ParseJavaDouble("1."), 1.0);
  EXPECT_EQ(ParseJavaDouble("3f"), 3.0);
  EXPECT_EQ(ParseJavaDouble("  7d "), 7.0);
  EXPECT_EQ(ParseJavaDouble("1e400"), INFINITY);
  EXPECT_EQ(ParseJavaDouble("-1e400"), -INFINITY);
  EXPECT_EQ(ParseJavaDouble("1e-400"), 0.0);
  EXPECT_EQ(ParseJavaDouble("Infinity"), INFINITY);
  EXPECT_EQ(ParseJavaDouble("-Infinity"), -INFINITY);
  EXPECT_TRUE(std::isnan(*ParseJavaDouble("NaN")));
  EXPECT_TRUE(std::signbit(*ParseJavaDouble("-0.0")));
  EXPECT_EQ(ParseJavaFloat("0.1"), 0.1f);
  EXPECT_EQ(ParseJavaFloat("3.4028235e38"), 3.4028235e38f);
  EXPECT_EQ(ParseJavaFloat("1e39"), INFINITY);
  EXPECT_EQ(ParseJavaFloat("16777217"), 16777216.0f);  // correctly rounded, not via double
  for (std::string_view bad : {"", "nan", "inf", "infinity", "1e", "e1", ".", "0x1p3", "1,5", "--1",
                               "1.5.2", "Infinityx"}) {
    EXPECT_FALSE(ParseJavaDouble(bad)) << bad;
    EXPECT_FALSE(ParseJavaFloat(bad)) << bad;
  }
}

}  // namespace
}  // namespace cql
