#include "cql/functions/cast.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "common/uuid.h"
#include "cql/functions/functions_numeric.h"
#include "cql/types/big_number.h"
#include "cql/types/temporal.h"
#include "cql/types/value_codec.h"

namespace cql {
namespace {

using common::Bytes;
using common::Result;
using common::Status;

constexpr int64_t kMillisPerDay = 86400000;

struct CastPair {
  TypeKind from;
  TypeKind to;
};

// Cassandra's CastFcts functions, in registration order (which error messages list).
std::vector<CastPair> BuildCastTable() {
  std::vector<CastPair> table;
  constexpr TypeKind kNumeric[] = {TypeKind::kTinyint, TypeKind::kSmallint, TypeKind::kInt,
                                   TypeKind::kBigint,  TypeKind::kFloat,    TypeKind::kDouble,
                                   TypeKind::kDecimal, TypeKind::kCounter,  TypeKind::kVarint};
  constexpr TypeKind kNumericTargets[] = {
      TypeKind::kTinyint, TypeKind::kSmallint, TypeKind::kInt,     TypeKind::kBigint,
      TypeKind::kFloat,   TypeKind::kDouble,   TypeKind::kDecimal, TypeKind::kVarint};
  auto text = [&table](TypeKind from) {
    table.push_back({from, TypeKind::kAscii});
    table.push_back({from, TypeKind::kText});
  };
  for (TypeKind from : kNumeric) {
    for (TypeKind to : kNumericTargets) {
      if (from != to) table.push_back({from, to});
    }
    text(from);
  }
  table.push_back({TypeKind::kAscii, TypeKind::kText});
  text(TypeKind::kInet);
  text(TypeKind::kBoolean);
  table.push_back({TypeKind::kTimeuuid, TypeKind::kDate});
  table.push_back({TypeKind::kTimeuuid, TypeKind::kTimestamp});
  text(TypeKind::kTimeuuid);
  table.push_back({TypeKind::kTimestamp, TypeKind::kDate});
  text(TypeKind::kTimestamp);
  table.push_back({TypeKind::kDate, TypeKind::kTimestamp});
  text(TypeKind::kDate);
  text(TypeKind::kTime);
  text(TypeKind::kUuid);
  return table;
}

const std::vector<CastPair>& CastTable() {
  static const std::vector<CastPair> table = BuildCastTable();  // constant lookup table
  return table;
}

bool CanCastKinds(TypeKind from, TypeKind to) {
  if (from == to) return true;
  for (const CastPair& pair : CastTable()) {
    if (pair.from == from && pair.to == to) return true;
  }
  return false;
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

Result<Bytes> DateOfMillis(int64_t millis) {
  int64_t days = FloorDiv(millis, kMillisPerDay) + int64_t{kDateEpoch};
  if (days < 0 || days > int64_t{UINT32_MAX}) {
    return Status(common::StatusCode::kFunctionFailure,
                  "timestamp " + std::to_string(millis) + " is out of the date range");
  }
  return SerializeDate(static_cast<uint32_t>(days));
}

// Java's InetAddress.getHostAddress: dotted IPv4 (also for IPv4-mapped IPv6 addresses, which
// Java turns into IPv4 ones); IPv6 as eight lower-case hex groups without leading zeros and
// without "::" compression.
std::string InetJavaText(std::string_view bytes) {
  char buffer[16];
  std::string out;
  static constexpr char kMappedPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '\xff', '\xff'};
  if (bytes.size() == 16 && bytes.substr(0, 12) == std::string_view(kMappedPrefix, 12)) {
    bytes.remove_prefix(12);
  }
  if (bytes.size() == 4) {
    for (size_t i = 0; i < 4; ++i) {
      if (i > 0) out += ".";
      out += std::to_string(static_cast<uint8_t>(bytes[i]));
    }
    return out;
  }
  for (size_t i = 0; i + 1 < bytes.size(); i += 2) {
    if (i > 0) out += ":";
    std::snprintf(buffer, sizeof(buffer), "%x",
                  (static_cast<uint8_t>(bytes[i]) << 8) | static_cast<uint8_t>(bytes[i + 1]));
    out += buffer;
  }
  return out;
}

Result<Bytes> NumericCast(TypeKind from, TypeKind to, std::string_view bytes) {
  bool floating = from == TypeKind::kFloat || from == TypeKind::kDouble;
  switch (to) {
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt: {
      int64_t v = 0;
      if (floating) {
        ASSIGN_OR_RETURN(double d, numeric::ToDouble(from, bytes));
        v = numeric::JavaDoubleToInt(d);
      } else {
        ASSIGN_OR_RETURN(v, numeric::ToInt64(from, bytes));
      }
      return numeric::SerializeIntegral(to, v);
    }
    case TypeKind::kBigint: {
      ASSIGN_OR_RETURN(int64_t v, numeric::ToInt64(from, bytes));
      return SerializeBigint(v);
    }
    case TypeKind::kFloat: {
      if (from == TypeKind::kDecimal) {
        ASSIGN_OR_RETURN(std::string text, DecimalToText(bytes));
        auto f = ParseJavaFloat(text);
        if (!f) return Status::Invalid("Invalid decimal value");
        return SerializeFloat(*f);
      }
      if (numeric::IsIntegral(from) && from != TypeKind::kVarint) {
        ASSIGN_OR_RETURN(int64_t v, numeric::ToInt64(from, bytes));
        return SerializeFloat(static_cast<float>(v));
      }
      ASSIGN_OR_RETURN(double d, numeric::ToDouble(from, bytes));
      return SerializeFloat(static_cast<float>(d));
    }
    case TypeKind::kDouble: {
      ASSIGN_OR_RETURN(double d, numeric::ToDouble(from, bytes));
      return SerializeDouble(d);
    }
    case TypeKind::kDecimal: {
      ASSIGN_OR_RETURN(numeric::BigDecimal d, numeric::ToDecimal(from, bytes));
      return numeric::DecimalToBytes(d);
    }
    case TypeKind::kVarint: {  // BigInteger.valueOf(longValue())
      ASSIGN_OR_RETURN(int64_t v, numeric::ToInt64(from, bytes));
      return numeric::Int128ToVarint(v);
    }
    default:
      return Status::Invalid("Not a numeric cast");
  }
}

// Cassandra 4.1's cast function name: "castAs" + the capitalized type name ("castAsInt").
std::string CastFunctionName(TypeKind to) {
  std::string name(CqlType::Native(to).NativeName());
  if (!name.empty()) name[0] = static_cast<char>(name[0] - 'a' + 'A');
  return "castAs" + name;
}

std::string SignatureList(TypeKind to) {
  std::string target = CqlType::Native(to).ToCql();
  std::string name = CastFunctionName(to);
  std::string out;
  for (const CastPair& pair : CastTable()) {
    if (pair.to != to) continue;
    if (!out.empty()) out += ", ";
    out += "system." + name + " : (" + CqlType::Native(pair.from).ToCql() + ") -> " + target;
  }
  return out;
}

}  // namespace

bool CanCast(const CqlType& from, const CqlType& to) {
  if (from.WithFrozen(true) == to.WithFrozen(true)) return true;
  if (!from.IsNative() || !to.IsNative()) return false;
  return CanCastKinds(from.kind(), to.kind());
}

Status CheckCast(const CqlType& from, const CqlType& to) {
  if (CanCast(from, to)) return Status::Ok();
  std::string signatures = to.IsNative() ? SignatureList(to.kind()) : "";
  if (signatures.empty()) {
    std::string name = to.IsNative() ? CastFunctionName(to.kind()) : "castAs" + to.ToCql();
    return Status::Invalid("Unknown function 'system." + name + "'");
  }
  return Status::Invalid(
      "Invalid call to function system." + CastFunctionName(to.kind()) +
      ", none of its type signatures match (known type signatures: " + signatures + ")");
}

Result<std::string> ValueToJavaText(const CqlType& type, std::string_view bytes) {
  TypeKind kind = type.kind();
  switch (kind) {
    case TypeKind::kAscii:
    case TypeKind::kText:
      return std::string(bytes);
    case TypeKind::kBoolean: {
      ASSIGN_OR_RETURN(bool v, DeserializeBoolean(bytes));
      return std::string(v ? "true" : "false");
    }
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter: {
      ASSIGN_OR_RETURN(int64_t v, numeric::ToInt64(kind, bytes));
      return std::to_string(v);
    }
    case TypeKind::kVarint:
      return VarintToText(bytes);
    case TypeKind::kDecimal:
      return DecimalToText(bytes);
    case TypeKind::kFloat: {
      ASSIGN_OR_RETURN(float v, DeserializeFloat(bytes));
      return numeric::JavaFloatToString(v);
    }
    case TypeKind::kDouble: {
      ASSIGN_OR_RETURN(double v, DeserializeDouble(bytes));
      return numeric::JavaDoubleToString(v);
    }
    case TypeKind::kBlob:
      return common::ToHex(bytes);
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid: {
      ASSIGN_OR_RETURN(common::Uuid uuid, common::Uuid::FromBytes(bytes));
      return uuid.ToString();
    }
    case TypeKind::kInet:
      if (bytes.size() != 4 && bytes.size() != 16) return Status::Invalid("Invalid inet value");
      return InetJavaText(bytes);
    case TypeKind::kDate:
      if (bytes.size() != 4) return Status::Invalid("Expected 4 byte long for date");
      return FormatDateIso(common::LoadBigEndian32(bytes.data()));
    case TypeKind::kTime:
      if (bytes.size() != 8) return Status::Invalid("Expected 8 byte long for time");
      return FormatTime(static_cast<int64_t>(common::LoadBigEndian64(bytes.data())));
    case TypeKind::kTimestamp: {
      ASSIGN_OR_RETURN(int64_t millis, DeserializeBigint(bytes));
      return FormatTimestampIso(millis);
    }
    case TypeKind::kDuration: {
      ASSIGN_OR_RETURN(Duration d, DeserializeDuration(bytes));
      return FormatDuration(d);
    }
    default:
      return Status::Invalid("No text form for type " + type.ToCql());
  }
}

Result<std::optional<Bytes>> CastValue(const CqlType& from, const CqlType& to,
                                       std::optional<std::string_view> value) {
  RETURN_IF_ERROR(CheckCast(from, to));
  if (!value.has_value()) return std::optional<Bytes>();
  if (from.WithFrozen(true) == to.WithFrozen(true)) return std::optional<Bytes>(Bytes(*value));
  if (value->empty()) {
    if ((from.kind() == TypeKind::kText || from.kind() == TypeKind::kAscii) &&
        (to.kind() == TypeKind::kText || to.kind() == TypeKind::kAscii)) {
      return std::optional<Bytes>(Bytes());
    }
    return std::optional<Bytes>();
  }
  TypeKind f = from.kind();
  TypeKind t = to.kind();
  if (t == TypeKind::kText || t == TypeKind::kAscii) {
    ASSIGN_OR_RETURN(std::string text, ValueToJavaText(from, *value));
    RETURN_IF_ERROR(ValidateValue(to, text));
    return std::optional<Bytes>(std::move(text));
  }
  if (numeric::IsNumeric(f)) {
    ASSIGN_OR_RETURN(Bytes out, NumericCast(f, t, *value));
    return std::optional<Bytes>(std::move(out));
  }
  int64_t millis = 0;
  if (f == TypeKind::kTimeuuid) {
    ASSIGN_OR_RETURN(common::Uuid uuid, common::Uuid::FromBytes(*value));
    millis = uuid.UnixMillis();
  } else if (f == TypeKind::kTimestamp) {
    ASSIGN_OR_RETURN(millis, DeserializeBigint(*value));
  } else {  // date
    if (value->size() != 4) return Status::Invalid("Expected 4 byte long for date");
    millis =
        (int64_t{common::LoadBigEndian32(value->data())} - int64_t{kDateEpoch}) * kMillisPerDay;
  }
  if (t == TypeKind::kDate) {
    ASSIGN_OR_RETURN(Bytes out, DateOfMillis(millis));
    return std::optional<Bytes>(std::move(out));
  }
  return std::optional<Bytes>(SerializeTimestamp(millis));
}

}  // namespace cql
