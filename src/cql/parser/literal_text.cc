// ParseValueText (declared in literal.h): the text form of native-type values, with the
// semantics and messages of Cassandra's AbstractType.fromString() for each type.

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "common/uuid.h"
#include "cql/parser/literal.h"
#include "cql/types/big_number.h"
#include "cql/types/temporal.h"
#include "cql/types/value_codec.h"

namespace cql {
namespace {

using common::Bytes;
using common::Result;
using common::Status;

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

bool EqualsIgnoreAsciiCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
           return lower(x) == lower(y);
         });
}

// Java's UTF-16 length of the character starting at the first non-ASCII byte: 2 for
// characters outside the BMP (4-byte UTF-8 sequences), else 1.
int FirstNonAsciiUtf16Length(std::string_view text) {
  for (char c : text) {
    auto b = static_cast<unsigned char>(c);
    if (b >= 0x80) return b >= 0xF0 ? 2 : 1;
  }
  return 1;
}

Result<Bytes> AsciiFromText(std::string_view text) {
  if (std::any_of(text.begin(), text.end(),
                  [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) {
    return Status::Invalid(
        "Invalid ASCII character in string literal: "
        "java.nio.charset.UnmappableCharacterException: Input length = " +
        std::to_string(FirstNonAsciiUtf16Length(text)));
  }
  return Bytes(text);
}

Result<Bytes> IntegerFromText(TypeKind kind, std::string_view text) {
  switch (kind) {
    case TypeKind::kTinyint:
      if (auto v = ParseJavaInteger(text, INT8_MIN, INT8_MAX)) {
        return SerializeTinyint(static_cast<int8_t>(*v));
      }
      return Status::Invalid("Unable to make byte from " + Quoted(text));
    case TypeKind::kSmallint:
      if (auto v = ParseJavaInteger(text, INT16_MIN, INT16_MAX)) {
        return SerializeSmallint(static_cast<int16_t>(*v));
      }
      return Status::Invalid("Unable to make short from " + Quoted(text));
    case TypeKind::kInt:
      if (auto v = ParseJavaInteger(text, INT32_MIN, INT32_MAX)) {
        return SerializeInt(static_cast<int32_t>(*v));
      }
      return Status::Invalid("Unable to make int from " + Quoted(text));
    default:  // bigint, counter
      if (auto v = ParseJavaInteger(text, INT64_MIN, INT64_MAX)) return SerializeBigint(*v);
      return Status::Invalid("Unable to make long from " + Quoted(text));
  }
}

// Java's InetAddress.getByName for literal addresses (no DNS): dotted-quad IPv4, IPv6 in any
// RFC 4291 text form (optionally in brackets), and "localhost". IPv4-mapped IPv6 addresses
// become 4-byte IPv4 addresses, as in Java.
Result<Bytes> InetFromText(std::string_view text) {
  Status unable = Status::Invalid("Unable to make inet address from " + Quoted(text));
  if (text == "localhost") return Bytes("\x7F\x00\x00\x01", 4);
  std::string address(text);
  if (address.size() >= 2 && address.front() == '[' && address.back() == ']') {
    address = address.substr(1, address.size() - 2);
  }
  if (address.find('\0') != std::string::npos) return unable;
  std::array<unsigned char, 16> buffer{};
  if (inet_pton(AF_INET, address.c_str(), buffer.data()) == 1) {
    return Bytes(reinterpret_cast<const char*>(buffer.data()), 4);
  }
  if (address.find(':') != std::string::npos &&
      inet_pton(AF_INET6, address.c_str(), buffer.data()) == 1) {
    static constexpr unsigned char kMappedPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
    if (std::memcmp(buffer.data(), kMappedPrefix, sizeof(kMappedPrefix)) == 0) {
      return Bytes(reinterpret_cast<const char*>(buffer.data()) + 12, 4);
    }
    return Bytes(reinterpret_cast<const char*>(buffer.data()), 16);
  }
  return unable;
}

Result<Bytes> BlobFromText(std::string_view text) {
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
  }
  Result<Bytes> bytes = common::FromHex(text);
  if (!bytes.ok()) return Status::Invalid("cannot parse " + Quoted(text) + " as hex bytes");
  return bytes;
}

}  // namespace

Result<Bytes> ParseValueText(const CqlType& type, std::string_view text) {
  const TypeKind kind = type.kind();
  if (text.empty()) {
    // Cassandra's fromString("") is the empty value; a duration prints as "" when zero.
    if (kind == TypeKind::kDuration) return SerializeDuration(Duration{});
    if (type.IsNative() || kind == TypeKind::kCustom) return Bytes();
  }
  switch (kind) {
    case TypeKind::kAscii:
      return AsciiFromText(text);
    case TypeKind::kText:
      RETURN_IF_ERROR(ValidateValue(type, text));  // UTF-8
      return Bytes(text);
    case TypeKind::kBlob:
    case TypeKind::kCustom:
      return BlobFromText(text);
    case TypeKind::kBoolean:
      if (EqualsIgnoreAsciiCase(text, "true")) return SerializeBoolean(true);
      if (EqualsIgnoreAsciiCase(text, "false")) return SerializeBoolean(false);
      return Status::Invalid("Unable to make boolean from " + Quoted(text));
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      return IntegerFromText(kind, text);
    case TypeKind::kVarint: {
      Result<Bytes> varint = VarintFromText(text);
      if (!varint.ok()) return Status::Invalid("unable to make int from " + Quoted(text));
      return varint;
    }
    case TypeKind::kDecimal: {
      Result<Bytes> decimal = DecimalFromText(text);
      if (!decimal.ok()) return Status::Invalid("unable to make BigDecimal from " + Quoted(text));
      return decimal;
    }
    case TypeKind::kFloat:
      if (auto v = ParseJavaFloat(text)) return SerializeFloat(*v);
      return Status::Invalid("Unable to make float from " + Quoted(text));
    case TypeKind::kDouble:
      if (auto v = ParseJavaDouble(text)) return SerializeDouble(*v);
      return Status::Invalid("Unable to make double from " + Quoted(text));
    case TypeKind::kUuid: {
      ASSIGN_OR_RETURN(common::Uuid uuid, common::Uuid::Parse(text));
      return uuid.ToBytes();
    }
    case TypeKind::kTimeuuid: {
      Result<common::Uuid> uuid = common::Uuid::Parse(text);
      if (!uuid.ok())
        return Status::Invalid("Unknown timeuuid representation: " + std::string(text));
      if (uuid->version() != 1) return Status::Invalid("TimeUUID supports only version 1 UUIDs");
      return uuid->ToBytes();
    }
    case TypeKind::kInet:
      return InetFromText(text);
    case TypeKind::kDate: {
      ASSIGN_OR_RETURN(uint32_t days, ParseDate(text));
      return SerializeDate(days);
    }
    case TypeKind::kTime: {
      ASSIGN_OR_RETURN(int64_t nanos, ParseTime(text));
      return SerializeTime(nanos);
    }
    case TypeKind::kTimestamp: {
      ASSIGN_OR_RETURN(int64_t millis, ParseTimestamp(text));
      return SerializeTimestamp(millis);
    }
    case TypeKind::kDuration: {
      ASSIGN_OR_RETURN(Duration duration, ParseDuration(text));
      return SerializeDuration(duration);
    }
    default:
      return Status::Invalid("Cannot parse a value of type " + type.ToCql() +
                             " from text: only native types have a text form");
  }
}

}  // namespace cql
