#include "cql/functions/functions_numeric.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "cql/types/big_number.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_compare.h"

namespace cql::numeric {
namespace {

using common::Bytes;
using common::Result;
using common::Status;

// Shortest round-trip digits of a finite non-zero |value| and its decimal exponent: value =
// 0.d1d2d3... * 10^(exponent + 1), i.e. d1.d2d3... * 10^exponent.
template <typename T>
void ShortestDigits(T value, std::string* digits, int* exponent) {
  char buffer[64];
  auto result =
      std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
  std::string_view text(buffer, static_cast<size_t>(result.ptr - buffer));
  size_t e = text.find('e');
  std::string_view mantissa = text.substr(0, e);
  *exponent = std::stoi(std::string(text.substr(e + 1)));
  digits->clear();
  for (char c : mantissa) {
    if (c >= '0' && c <= '9') digits->push_back(c);
  }
  while (digits->size() > 1 && digits->back() == '0') digits->pop_back();
}

template <typename T>
std::string JavaToString(T value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  std::string out = std::signbit(value) ? "-" : "";
  if (value == 0) return out + "0.0";
  T magnitude = std::fabs(value);
  std::string digits;
  int exponent = 0;
  ShortestDigits(magnitude, &digits, &exponent);
  if (magnitude >= T(1e-3) && magnitude < T(1e7)) {
    if (exponent >= 0) {
      std::string integer = digits.substr(0, std::min<size_t>(digits.size(), exponent + 1));
      while (static_cast<int>(integer.size()) < exponent + 1) integer.push_back('0');
      std::string fraction =
          digits.size() > static_cast<size_t>(exponent + 1) ? digits.substr(exponent + 1) : "0";
      return out + integer + "." + fraction;
    }
    return out + "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
  }
  std::string fraction = digits.size() > 1 ? digits.substr(1) : "0";
  return out + digits.substr(0, 1) + "." + fraction + "E" + std::to_string(exponent);
}

Int128 Pow10(int n) {
  Int128 result = 1;
  for (int i = 0; i < n; ++i) result *= 10;
  return result;
}

constexpr Int128 kInt128Max = static_cast<Int128>((static_cast<unsigned __int128>(1) << 127) - 1);

}  // namespace

bool IsNumeric(TypeKind kind) {
  switch (kind) {
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kFloat:
    case TypeKind::kDouble:
    case TypeKind::kVarint:
    case TypeKind::kDecimal:
      return true;
    default:
      return false;
  }
}

bool IsIntegral(TypeKind kind) {
  return IsNumeric(kind) && kind != TypeKind::kFloat && kind != TypeKind::kDouble &&
         kind != TypeKind::kDecimal;
}

Status PrecisionError() {
  return Status(common::StatusCode::kFunctionFailure,
                "value exceeds the supported precision (128 bits)");
}

Result<Int128> VarintToInt128(std::string_view bytes) {
  std::string_view trimmed = TrimVarint(bytes);
  if (trimmed.empty()) return Int128{0};
  if (trimmed.size() > 16) return PrecisionError();
  unsigned __int128 value =
      static_cast<uint8_t>(trimmed[0]) >= 0x80 ? ~static_cast<unsigned __int128>(0) : 0;
  for (char c : trimmed) value = (value << 8) | static_cast<uint8_t>(c);
  return static_cast<Int128>(value);
}

Bytes Int128ToVarint(Int128 value) {
  Bytes out(16, '\0');
  auto bits = static_cast<unsigned __int128>(value);
  for (int i = 15; i >= 0; --i) {
    out[static_cast<size_t>(i)] = static_cast<char>(static_cast<uint8_t>(bits & 0xff));
    bits >>= 8;
  }
  return Bytes(TrimVarint(out));
}

Result<BigDecimal> DecimalFromBytes(std::string_view bytes) {
  if (bytes.size() < 4) return Status::Invalid("Invalid decimal value");
  int32_t scale = static_cast<int32_t>(common::LoadBigEndian32(bytes.data()));
  ASSIGN_OR_RETURN(Int128 unscaled, VarintToInt128(bytes.substr(4)));
  return BigDecimal{unscaled, scale};
}

Bytes DecimalToBytes(const BigDecimal& value) {
  return DecimalFromParts(Int128ToVarint(value.unscaled), value.scale);
}

std::string DecimalToString(const BigDecimal& value) {
  auto text = DecimalToText(DecimalToBytes(value));
  return text.ok() ? *text : "0";
}

Result<BigDecimal> Rescale(const BigDecimal& value, int32_t scale) {
  int64_t diff = int64_t{scale} - value.scale;
  if (diff < 0) return Status::Internal("Rescale to a smaller scale");
  if (value.unscaled == 0) return BigDecimal{0, scale};
  if (diff > 38) return PrecisionError();
  Int128 factor = Pow10(static_cast<int>(diff));
  Int128 limit = kInt128Max / factor;
  if (value.unscaled > limit || value.unscaled < -limit) return PrecisionError();
  return BigDecimal{value.unscaled * factor, scale};
}

Result<int64_t> ToInt64(TypeKind kind, std::string_view bytes) {
  switch (kind) {
    case TypeKind::kTinyint: {
      ASSIGN_OR_RETURN(int8_t v, DeserializeTinyint(bytes));
      return int64_t{v};
    }
    case TypeKind::kSmallint: {
      ASSIGN_OR_RETURN(int16_t v, DeserializeSmallint(bytes));
      return int64_t{v};
    }
    case TypeKind::kInt: {
      ASSIGN_OR_RETURN(int32_t v, DeserializeInt(bytes));
      return int64_t{v};
    }
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kTimestamp:
      return DeserializeBigint(bytes);
    case TypeKind::kFloat: {
      ASSIGN_OR_RETURN(float v, DeserializeFloat(bytes));
      return JavaDoubleToLong(v);
    }
    case TypeKind::kDouble: {
      ASSIGN_OR_RETURN(double v, DeserializeDouble(bytes));
      return JavaDoubleToLong(v);
    }
    case TypeKind::kVarint:
    case TypeKind::kDecimal: {
      ASSIGN_OR_RETURN(Int128 v, ToInt128(kind, bytes));
      return static_cast<int64_t>(static_cast<uint64_t>(static_cast<unsigned __int128>(v)));
    }
    default:
      return Status::Invalid("Not a numeric type");
  }
}

Result<double> ToDouble(TypeKind kind, std::string_view bytes) {
  switch (kind) {
    case TypeKind::kFloat: {
      ASSIGN_OR_RETURN(float v, DeserializeFloat(bytes));
      return double{v};
    }
    case TypeKind::kDouble:
      return DeserializeDouble(bytes);
    case TypeKind::kVarint: {
      ASSIGN_OR_RETURN(Int128 v, VarintToInt128(bytes));
      return static_cast<double>(v);
    }
    case TypeKind::kDecimal: {
      ASSIGN_OR_RETURN(std::string text, DecimalToText(bytes));
      auto v = ParseJavaDouble(text);
      if (!v) return Status::Invalid("Invalid decimal value");
      return *v;
    }
    default: {
      ASSIGN_OR_RETURN(int64_t v, ToInt64(kind, bytes));
      return static_cast<double>(v);
    }
  }
}

Result<BigDecimal> ToDecimal(TypeKind kind, std::string_view bytes) {
  switch (kind) {
    case TypeKind::kDecimal:
      return DecimalFromBytes(bytes);
    case TypeKind::kVarint: {
      ASSIGN_OR_RETURN(Int128 v, VarintToInt128(bytes));
      return BigDecimal{v, 0};
    }
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      ASSIGN_OR_RETURN(double v, ToDouble(kind, bytes));
      if (!std::isfinite(v)) {
        return Status(common::StatusCode::kFunctionFailure,
                      "Character " + std::string(std::isnan(v) ? "N" : "I") +
                          " is neither a decimal digit number, decimal point, nor \"e\" "
                          "notation exponential mark.");
      }
      ASSIGN_OR_RETURN(Bytes decimal, DecimalFromText(JavaDoubleToString(v)));
      return DecimalFromBytes(decimal);
    }
    default: {
      ASSIGN_OR_RETURN(int64_t v, ToInt64(kind, bytes));
      return BigDecimal{v, 0};
    }
  }
}

Result<Int128> ToInt128(TypeKind kind, std::string_view bytes) {
  switch (kind) {
    case TypeKind::kVarint:
      return VarintToInt128(bytes);
    case TypeKind::kDecimal: {
      ASSIGN_OR_RETURN(BigDecimal d, DecimalFromBytes(bytes));
      if (d.scale <= 0) {
        if (d.unscaled == 0) return Int128{0};
        if (d.scale < -38) return PrecisionError();
        ASSIGN_OR_RETURN(BigDecimal r, Rescale(BigDecimal{d.unscaled, 0}, -d.scale));
        return r.unscaled;
      }
      if (d.scale > 38) return Int128{0};
      return d.unscaled / Pow10(d.scale);  // truncates toward zero, as toBigInteger()
    }
    case TypeKind::kFloat:
    case TypeKind::kDouble: {
      ASSIGN_OR_RETURN(double v, ToDouble(kind, bytes));
      if (!std::isfinite(v)) return PrecisionError();
      double t = std::trunc(v);
      if (std::fabs(t) >= 1.7e38) return PrecisionError();
      return static_cast<Int128>(t);
    }
    default: {
      ASSIGN_OR_RETURN(int64_t v, ToInt64(kind, bytes));
      return Int128{v};
    }
  }
}

Bytes SerializeIntegral(TypeKind kind, int64_t value) {
  switch (kind) {
    case TypeKind::kTinyint:
      return SerializeTinyint(static_cast<int8_t>(value));
    case TypeKind::kSmallint:
      return SerializeSmallint(static_cast<int16_t>(value));
    case TypeKind::kInt:
      return SerializeInt(static_cast<int32_t>(value));
    default:
      return SerializeBigint(value);
  }
}

std::string JavaDoubleToString(double value) { return JavaToString(value); }
std::string JavaFloatToString(float value) { return JavaToString(value); }

int64_t JavaDoubleToLong(double value) {
  if (std::isnan(value)) return 0;
  if (value >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (value <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(value);
}

int32_t JavaDoubleToInt(double value) {
  if (std::isnan(value)) return 0;
  if (value >= 2147483647.0) return std::numeric_limits<int32_t>::max();
  if (value <= -2147483648.0) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(value);
}

}  // namespace cql::numeric
