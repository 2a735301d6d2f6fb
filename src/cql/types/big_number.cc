#include "cql/types/big_number.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

namespace cql {
namespace {

using common::Bytes;
using common::Result;
using common::Status;

// An unsigned magnitude as little-endian 32-bit limbs, without high zero limbs (0 is empty).
using Magnitude = std::vector<uint32_t>;

constexpr uint32_t kBillion = 1000000000;

void Trim(Magnitude* m) {
  while (!m->empty() && m->back() == 0) m->pop_back();
}

// m = m * factor + addend.
void MultiplyAdd(Magnitude* m, uint32_t factor, uint32_t addend) {
  uint64_t carry = addend;
  for (uint32_t& limb : *m) {
    uint64_t v = uint64_t{limb} * factor + carry;
    limb = static_cast<uint32_t>(v);
    carry = v >> 32;
  }
  if (carry != 0) m->push_back(static_cast<uint32_t>(carry));
}

// m = m / divisor; returns the remainder. REQUIRES: divisor > 0.
uint32_t DivideSmall(Magnitude* m, uint32_t divisor) {
  uint64_t remainder = 0;
  for (size_t i = m->size(); i-- > 0;) {
    uint64_t v = (remainder << 32) | (*m)[i];
    (*m)[i] = static_cast<uint32_t>(v / divisor);
    remainder = v % divisor;
  }
  Trim(m);
  return static_cast<uint32_t>(remainder);
}

// REQUIRES: `digits` holds only '0'..'9'.
Magnitude MagnitudeFromDigits(std::string_view digits) {
  Magnitude m;
  size_t first_chunk = digits.size() % 9 == 0 ? 9 : digits.size() % 9;
  size_t pos = 0;
  while (pos < digits.size()) {
    size_t len = pos == 0 ? std::min(first_chunk, digits.size()) : 9;
    uint32_t chunk = 0;
    uint32_t scale = 1;
    for (size_t i = 0; i < len; ++i) {
      chunk = chunk * 10 + static_cast<uint32_t>(digits[pos + i] - '0');
      scale *= 10;
    }
    MultiplyAdd(&m, scale, chunk);
    pos += len;
  }
  Trim(&m);
  return m;
}

std::string MagnitudeToDigits(Magnitude m) {
  if (m.empty()) return "0";
  std::vector<uint32_t> chunks;  // base 10^9, least significant first
  while (!m.empty()) chunks.push_back(DivideSmall(&m, kBillion));
  std::string out = std::to_string(chunks.back());
  for (size_t i = chunks.size() - 1; i-- > 0;) {
    std::string part = std::to_string(chunks[i]);
    out.append(9 - part.size(), '0');
    out += part;
  }
  return out;
}

// The minimal two's-complement big-endian bytes of (negative ? -m : m).
Bytes EncodeVarint(bool negative, const Magnitude& m) {
  Bytes be;  // magnitude, big-endian, with one leading zero byte of headroom
  be.push_back('\0');
  for (size_t i = m.size(); i-- > 0;) {
    uint32_t limb = m[i];
    for (int shift = 24; shift >= 0; shift -= 8) be.push_back(static_cast<char>(limb >> shift));
  }
  if (negative && !m.empty()) {
    // Two's complement: invert and add one.
    for (char& c : be) c = static_cast<char>(~static_cast<unsigned char>(c));
    for (size_t i = be.size(); i-- > 0;) {
      auto v = static_cast<unsigned char>(be[i]);
      be[i] = static_cast<char>(v + 1);
      if (v != 0xFF) break;
    }
  }
  // Strip sign-redundant leading bytes.
  size_t start = 0;
  while (start + 1 < be.size()) {
    auto b0 = static_cast<unsigned char>(be[start]);
    auto b1 = static_cast<unsigned char>(be[start + 1]);
    if ((b0 == 0x00 && (b1 & 0x80) == 0) || (b0 == 0xFF && (b1 & 0x80) != 0)) {
      ++start;
    } else {
      break;
    }
  }
  return be.substr(start);
}

struct SignedMagnitude {
  bool negative = false;
  Magnitude magnitude;
};

SignedMagnitude DecodeVarint(std::string_view bytes) {
  SignedMagnitude out;
  if (bytes.empty()) return out;
  out.negative = (static_cast<unsigned char>(bytes[0]) & 0x80) != 0;
  std::string be(bytes);
  if (out.negative) {
    for (char& c : be) c = static_cast<char>(~static_cast<unsigned char>(c));
    for (size_t i = be.size(); i-- > 0;) {
      auto v = static_cast<unsigned char>(be[i]);
      be[i] = static_cast<char>(v + 1);
      if (v != 0xFF) break;
    }
  }
  // Little-endian limbs from the big-endian bytes.
  out.magnitude.assign((be.size() + 3) / 4, 0);
  for (size_t i = 0; i < be.size(); ++i) {
    size_t byte_index = be.size() - 1 - i;  // 0 = least significant
    out.magnitude[byte_index / 4] |= uint32_t{static_cast<unsigned char>(be[i])}
                                     << (8 * (byte_index % 4));
  }
  Trim(&out.magnitude);
  return out;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool AllDigits(std::string_view s) { return std::all_of(s.begin(), s.end(), IsDigit); }

std::string_view StripLeadingZeros(std::string_view digits) {
  size_t i = 0;
  while (i + 1 < digits.size() && digits[i] == '0') ++i;
  return digits.substr(i);
}

struct DecimalParts {
  bool negative = false;
  std::string digits;  // |unscaled| in base 10, no leading zeros ("0" for zero)
  int32_t scale = 0;
};

Result<DecimalParts> SplitDecimal(std::string_view bytes) {
  if (bytes.size() < 4) {
    return Status::Invalid("Expected 0 or at least 4 bytes (" + std::to_string(bytes.size()) + ")");
  }
  DecimalParts parts;
  parts.scale = static_cast<int32_t>(common::LoadBigEndian32(bytes.data()));
  SignedMagnitude value = DecodeVarint(bytes.substr(4));
  parts.negative = value.negative && !value.magnitude.empty();
  parts.digits = MagnitudeToDigits(std::move(value.magnitude));
  return parts;
}

// Java floating-point text, checked: either a special value or the decimal text (sign, digits,
// fraction, exponent; no suffix) that strtod/strtof read with the same rounding as Java.
struct JavaFloating {
  enum class Kind : uint8_t { kInvalid, kSpecial, kDecimal };
  Kind kind = Kind::kInvalid;
  double special = 0;   // NaN or an infinity, for kSpecial
  std::string decimal;  // for kDecimal
};

JavaFloating CheckJavaFloating(std::string_view text) {
  JavaFloating out;
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') text.remove_prefix(1);
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') text.remove_suffix(1);
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text == "NaN" || text == "Infinity") {
    out.kind = JavaFloating::Kind::kSpecial;
    double infinity = std::numeric_limits<double>::infinity();
    out.special = text == "NaN" ? std::numeric_limits<double>::quiet_NaN()
                  : negative    ? -infinity
                                : infinity;
    return out;
  }
  if (!text.empty() && std::string_view("fFdD").find(text.back()) != std::string_view::npos) {
    text.remove_suffix(1);
  }
  // Counts the digits starting at `*i` and moves past them.
  auto skip_digits = [&text](size_t* i) {
    size_t start = *i;
    while (*i < text.size() && IsDigit(text[*i])) ++*i;
    return *i - start;
  };
  size_t i = 0;
  size_t digits = skip_digits(&i);
  if (i < text.size() && text[i] == '.') {
    ++i;
    digits += skip_digits(&i);
  }
  if (digits == 0) return out;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    if (skip_digits(&i) == 0) return out;
  }
  if (i != text.size()) return out;
  out.kind = JavaFloating::Kind::kDecimal;
  out.decimal = (negative ? "-" : "") + std::string(text);
  return out;
}

}  // namespace

std::optional<int64_t> ParseJavaInteger(std::string_view text, int64_t min, int64_t max) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  // Accumulate negatively so that INT64_MIN is representable.
  int64_t value = 0;
  for (char c : text) {
    if (!IsDigit(c)) return std::nullopt;
    int digit = c - '0';
    if (value < (INT64_MIN + digit) / 10) return std::nullopt;
    value = value * 10 - digit;
  }
  if (!negative) {
    if (value == INT64_MIN) return std::nullopt;
    value = -value;
  }
  if (value < min || value > max) return std::nullopt;
  return value;
}

std::optional<double> ParseJavaDouble(std::string_view text) {
  JavaFloating checked = CheckJavaFloating(text);
  switch (checked.kind) {
    case JavaFloating::Kind::kSpecial:
      return checked.special;
    case JavaFloating::Kind::kDecimal:
      return std::strtod(checked.decimal.c_str(), nullptr);
    default:
      return std::nullopt;
  }
}

std::optional<float> ParseJavaFloat(std::string_view text) {
  JavaFloating checked = CheckJavaFloating(text);
  switch (checked.kind) {
    case JavaFloating::Kind::kSpecial:
      return static_cast<float>(checked.special);
    case JavaFloating::Kind::kDecimal:
      return std::strtof(checked.decimal.c_str(), nullptr);
    default:
      return std::nullopt;
  }
}

Result<Bytes> VarintFromText(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty() || !AllDigits(text)) {
    return Status::Invalid("Invalid integer text");
  }
  return EncodeVarint(negative, MagnitudeFromDigits(text));
}

Bytes VarintFromInt64(int64_t value) {
  bool negative = value < 0;
  uint64_t magnitude = negative ? ~static_cast<uint64_t>(value) + 1 : static_cast<uint64_t>(value);
  Magnitude m = {static_cast<uint32_t>(magnitude), static_cast<uint32_t>(magnitude >> 32)};
  Trim(&m);
  return EncodeVarint(negative, m);
}

std::string VarintToText(std::string_view bytes) {
  SignedMagnitude value = DecodeVarint(bytes);
  std::string digits = MagnitudeToDigits(std::move(value.magnitude));
  return value.negative && digits != "0" ? "-" + digits : digits;
}

Result<int64_t> VarintToInt64(std::string_view bytes) {
  SignedMagnitude value = DecodeVarint(bytes);
  if (value.magnitude.size() > 2) return Status::Invalid("varint does not fit in 64 bits");
  uint64_t magnitude = 0;
  for (size_t i = value.magnitude.size(); i-- > 0;)
    magnitude = (magnitude << 32) | value.magnitude[i];
  if (value.negative) {
    if (magnitude > (uint64_t{1} << 63)) return Status::Invalid("varint does not fit in 64 bits");
    return static_cast<int64_t>(~magnitude + 1);
  }
  if (magnitude > static_cast<uint64_t>(INT64_MAX)) {
    return Status::Invalid("varint does not fit in 64 bits");
  }
  return static_cast<int64_t>(magnitude);
}

Result<Bytes> DecimalFromText(std::string_view text) {
  Status bad = Status::Invalid("Invalid decimal text");
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  size_t exponent_at = text.find_first_of("eE");
  std::string_view significand = text.substr(0, exponent_at);
  std::string_view exponent_text =
      exponent_at == std::string_view::npos ? std::string_view() : text.substr(exponent_at + 1);
  if (exponent_at != std::string_view::npos && exponent_text.empty()) return bad;

  size_t point = significand.find('.');
  std::string_view int_part = significand.substr(0, point);
  std::string_view fraction =
      point == std::string_view::npos ? std::string_view() : significand.substr(point + 1);
  if (int_part.empty() && fraction.empty()) return bad;
  if (!AllDigits(int_part) || !AllDigits(fraction)) return bad;

  int64_t exponent = 0;
  if (exponent_at != std::string_view::npos) {
    bool exponent_negative = false;
    if (exponent_text[0] == '-' || exponent_text[0] == '+') {
      exponent_negative = exponent_text[0] == '-';
      exponent_text.remove_prefix(1);
    }
    if (exponent_text.empty() || !AllDigits(exponent_text)) return bad;
    exponent_text = StripLeadingZeros(exponent_text);
    if (exponent_text.size() > 11) return Status::Invalid("Decimal scale out of range");
    for (char c : exponent_text) exponent = exponent * 10 + (c - '0');
    if (exponent_negative) exponent = -exponent;
  }
  int64_t scale = static_cast<int64_t>(fraction.size()) - exponent;
  if (scale < INT32_MIN || scale > INT32_MAX) return Status::Invalid("Decimal scale out of range");

  std::string digits(int_part);
  digits += fraction;
  return DecimalFromParts(EncodeVarint(negative, MagnitudeFromDigits(digits)),
                          static_cast<int32_t>(scale));
}

Bytes DecimalFromParts(std::string_view unscaled_varint, int32_t scale) {
  common::ByteWriter writer;
  writer.PutI32(scale);
  writer.PutRaw(unscaled_varint.empty() ? std::string_view("\0", 1) : unscaled_varint);
  return writer.Release();
}

Result<std::string> DecimalToText(std::string_view bytes) {
  ASSIGN_OR_RETURN(DecimalParts parts, SplitDecimal(bytes));
  const std::string& digits = parts.digits;
  int64_t scale = parts.scale;
  int64_t adjusted = -scale + static_cast<int64_t>(digits.size()) - 1;
  std::string out = parts.negative ? "-" : "";
  if (scale >= 0 && adjusted >= -6) {
    if (scale == 0) return out + digits;
    auto size = static_cast<int64_t>(digits.size());
    if (size > scale) {
      out += digits.substr(0, static_cast<size_t>(size - scale));
      out += '.';
      out += digits.substr(static_cast<size_t>(size - scale));
    } else {
      out += "0.";
      out.append(static_cast<size_t>(scale - size), '0');
      out += digits;
    }
    return out;
  }
  out += digits[0];
  if (digits.size() > 1) {
    out += '.';
    out += digits.substr(1);
  }
  out += adjusted >= 0 ? "E+" : "E-";
  out += std::to_string(adjusted >= 0 ? adjusted : -adjusted);
  return out;
}

Result<std::string> DecimalToLiteralText(std::string_view bytes) {
  ASSIGN_OR_RETURN(DecimalParts parts, SplitDecimal(bytes));
  constexpr int32_t kMaxPlainScale = 40;
  std::string out = parts.negative ? "-" : "";
  if (parts.scale == 0) return out + parts.digits;
  if (parts.scale > 0 && parts.scale <= kMaxPlainScale) {
    auto scale = static_cast<size_t>(parts.scale);
    std::string digits = parts.digits;
    if (digits.size() <= scale) digits.insert(0, scale - digits.size() + 1, '0');
    out += digits.substr(0, digits.size() - scale);
    out += '.';
    out += digits.substr(digits.size() - scale);
    return out;
  }
  return out + parts.digits + "E" + std::to_string(-static_cast<int64_t>(parts.scale));
}

}  // namespace cql
