#include "cql/types/value_format.h"

#include <arpa/inet.h>

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

#include "common/bytes.h"
#include "cql/types/big_number.h"
#include "cql/types/temporal.h"
#include "cql/types/value_codec.h"

namespace cql {
namespace {

std::string RawHex(std::string_view bytes) { return "0x" + common::ToHex(bytes); }

// The length of the well-formed UTF-8 sequence at `s[i]` and its code point, or 0 when the
// bytes there are not one.
size_t DecodeUtf8(std::string_view s, size_t i, uint32_t* code_point) {
  auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  uint8_t b = byte(i);
  size_t length = b < 0x80                 ? 1
                  : b >= 0xC2 && b <= 0xDF ? 2
                  : b >= 0xE0 && b <= 0xEF ? 3
                  : b >= 0xF0 && b <= 0xF4 ? 4
                                           : 0;
  if (length == 0 || i + length > s.size()) return 0;
  uint32_t cp = length == 1 ? b : b & (0x7F >> length);
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  *code_point = cp;
  return length;
}

void AppendPythonEscape(std::string* out, uint32_t code_point) {
  switch (code_point) {
    case '\t':
      *out += "\\t";
      return;
    case '\n':
      *out += "\\n";
      return;
    case '\r':
      *out += "\\r";
      return;
    default:
      break;
  }
  char buffer[8];
  std::snprintf(buffer, sizeof(buffer), "\\x%02x", static_cast<unsigned>(code_point));
  *out += buffer;
}

// cqlsh's format_value_text.
std::string FormatText(std::string_view text, bool quote) {
  std::string out;
  out.reserve(text.size() + 2);
  if (quote) out += '\'';
  size_t i = 0;
  while (i < text.size()) {
    uint32_t cp = 0;
    size_t length = DecodeUtf8(text, i, &cp);
    if (length == 0) {  // not UTF-8: show the byte escaped
      AppendPythonEscape(&out, static_cast<uint8_t>(text[i]));
      ++i;
      continue;
    }
    if (cp == '\\') {
      out += "\\\\";
    } else if (cp == '\'' && quote) {
      out += "''";
    } else if (cp <= 0x1F || (cp >= 0x7F && cp <= 0xA0)) {
      AppendPythonEscape(&out, cp);
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  if (quote) out += '\'';
  return out;
}

// cqlsh's format_floating_point_type.
std::string FormatFloating(double value, int precision) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  double magnitude = std::fabs(value);
  if (magnitude > DBL_EPSILON) {
    auto exponent = static_cast<int64_t>(std::log10(magnitude));  // truncated, as Python's int()
    if (exponent >= -4 && exponent < precision) precision += static_cast<int>(exponent) + 1;
  }
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
  return buffer;
}

std::string FormatInet(std::string_view bytes) {
  char buffer[INET6_ADDRSTRLEN] = {};
  if (bytes.size() == 4 && inet_ntop(AF_INET, bytes.data(), buffer, sizeof(buffer)) != nullptr) {
    return buffer;
  }
  if (bytes.size() == 16 && inet_ntop(AF_INET6, bytes.data(), buffer, sizeof(buffer)) != nullptr) {
    return buffer;
  }
  return RawHex(bytes);
}

std::string FormatUuid(std::string_view bytes) {
  std::string hex = common::ToHex(bytes);
  if (hex.size() != 32) return RawHex(bytes);
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

// Whether the Python driver decodes an empty value of this type as a value ('' / b'') rather
// than its EMPTY marker.
bool EmptyIsAValue(const CqlType& type) {
  switch (type.kind()) {
    case TypeKind::kAscii:
    case TypeKind::kText:
    case TypeKind::kBlob:
    case TypeKind::kCustom:
      return true;
    default:
      return false;
  }
}

template <typename T>
std::string Join(const std::vector<T>& items, std::string_view open, std::string_view close) {
  std::string out(open);
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += items[i];
  }
  out += close;
  return out;
}

// The two printers share the traversal of composite values; they differ in the leaves and in
// how UDT field names, nulls and empty values print.
class Printer {
 public:
  virtual ~Printer() = default;

  std::string Print(const CqlType& type, std::string_view bytes, bool nested, int depth) const {
    if (depth > kMaxValueNestingDepth) return RawHex(bytes);
    if (bytes.empty() && !EmptyIsAValue(type)) return EmptyValue(type);
    switch (type.kind()) {
      case TypeKind::kList:
      case TypeKind::kSet: {
        auto elements = SplitListOrSet(type, bytes);
        if (!elements.ok()) return RawHex(bytes);
        std::vector<std::string> parts;
        for (std::string_view element : *elements) {
          parts.push_back(Print(type.element(), element, true, depth + 1));
        }
        return type.kind() == TypeKind::kList ? Join(parts, "[", "]") : Join(parts, "{", "}");
      }
      case TypeKind::kVector: {
        auto elements = SplitVector(type, bytes);
        if (!elements.ok()) return RawHex(bytes);
        std::vector<std::string> parts;
        for (std::string_view element : *elements) {
          parts.push_back(Print(type.element(), element, true, depth + 1));
        }
        return Join(parts, "[", "]");
      }
      case TypeKind::kMap: {
        auto entries = SplitMap(bytes);
        if (!entries.ok()) return RawHex(bytes);
        std::vector<std::string> parts;
        for (const MapEntryView& entry : *entries) {
          parts.push_back(Print(type.key(), entry.key, true, depth + 1) + ": " +
                          Print(type.value(), entry.value, true, depth + 1));
        }
        return Join(parts, "{", "}");
      }
      case TypeKind::kTuple:
      case TypeKind::kUdt: {
        if (type.kind() == TypeKind::kUdt && !type.IsResolved()) return RawHex(bytes);
        const std::vector<CqlType>& field_types = type.params();
        auto fields = SplitTupleOrUdt(bytes, field_types.size());
        if (!fields.ok()) return RawHex(bytes);
        std::vector<std::string> parts;
        for (size_t i = 0; i < field_types.size(); ++i) {
          std::optional<std::string_view> field =
              i < fields->size() ? (*fields)[i] : std::optional<std::string_view>();
          std::string printed;
          if (type.kind() == TypeKind::kUdt) printed = FieldName(type.field_names()[i]) + ": ";
          printed += field ? Print(field_types[i], *field, true, depth + 1) : "null";
          parts.push_back(std::move(printed));
        }
        return type.kind() == TypeKind::kTuple ? Join(parts, "(", ")") : Join(parts, "{", "}");
      }
      default:
        return Native(type, bytes, nested);
    }
  }

 protected:
  virtual std::string EmptyValue(const CqlType& type) const = 0;
  virtual std::string FieldName(const std::string& name) const = 0;
  virtual std::string Native(const CqlType& type, std::string_view bytes, bool nested) const = 0;
};

// The leaves both printers print alike.
std::string CommonNative(const CqlType& type, std::string_view bytes) {
  switch (type.kind()) {
    case TypeKind::kTinyint:
      if (auto v = DeserializeTinyint(bytes); v.ok()) return std::to_string(*v);
      return RawHex(bytes);
    case TypeKind::kSmallint:
      if (auto v = DeserializeSmallint(bytes); v.ok()) return std::to_string(*v);
      return RawHex(bytes);
    case TypeKind::kInt:
      if (auto v = DeserializeInt(bytes); v.ok()) return std::to_string(*v);
      return RawHex(bytes);
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      if (auto v = DeserializeBigint(bytes); v.ok()) return std::to_string(*v);
      return RawHex(bytes);
    case TypeKind::kVarint:
      return VarintToText(bytes);
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      return FormatUuid(bytes);
    default:  // blob, custom
      return RawHex(bytes);
  }
}

class CqlshPrinter : public Printer {
 public:
  explicit CqlshPrinter(int precision) : precision_(precision) {}

 protected:
  std::string EmptyValue(const CqlType&) const override { return ""; }
  std::string FieldName(const std::string& name) const override { return FormatText(name, false); }

  std::string Native(const CqlType& type, std::string_view bytes, bool nested) const override {
    switch (type.kind()) {
      case TypeKind::kAscii:
      case TypeKind::kText:
        return FormatText(bytes, nested);
      case TypeKind::kBoolean:
        if (bytes.size() != 1) return RawHex(bytes);
        return bytes[0] != 0 ? "True" : "False";
      case TypeKind::kFloat:
        if (auto v = DeserializeFloat(bytes); v.ok()) return FormatFloating(*v, precision_);
        return RawHex(bytes);
      case TypeKind::kDouble:
        if (auto v = DeserializeDouble(bytes); v.ok()) return FormatFloating(*v, precision_);
        return RawHex(bytes);
      case TypeKind::kInet: {
        std::string address = FormatInet(bytes);
        return nested ? "'" + address + "'" : address;
      }
      case TypeKind::kDate:
        if (auto v = DeserializeInt(bytes); v.ok()) {
          return FormatDateForCqlsh(static_cast<uint32_t>(*v));
        }
        return RawHex(bytes);
      case TypeKind::kTime:
        if (auto v = DeserializeBigint(bytes); v.ok()) return FormatTime(*v);
        return RawHex(bytes);
      case TypeKind::kTimestamp:
        if (auto v = DeserializeBigint(bytes); v.ok()) {
          std::string text = FormatTimestampForCqlsh(*v);
          return nested ? "'" + text + "'" : text;
        }
        return RawHex(bytes);
      case TypeKind::kDuration:
        if (auto v = DeserializeDuration(bytes); v.ok()) return FormatDuration(*v);
        return RawHex(bytes);
      case TypeKind::kDecimal:
        if (auto text = DecimalToText(bytes); text.ok()) return *text;
        return RawHex(bytes);
      default:
        return CommonNative(type, bytes);
    }
  }

 private:
  int precision_;
};

// Shortest text that reads back (with strtod/strtof) to exactly `value`.
template <typename Float>
std::string ShortestFloatText(Float value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

class CqlPrinter : public Printer {
 protected:
  std::string EmptyValue(const CqlType&) const override { return "null"; }
  std::string FieldName(const std::string& name) const override {
    return QuoteIdentifierIfNeeded(name);
  }

  std::string Native(const CqlType& type, std::string_view bytes, bool) const override {
    auto quoted = [](std::string_view text) {
      std::string out = "'";
      for (char c : text) {
        if (c == '\'') out += '\'';
        out += c;
      }
      return out + "'";
    };
    switch (type.kind()) {
      case TypeKind::kAscii:
      case TypeKind::kText:
        return quoted(bytes);
      case TypeKind::kBoolean:
        if (bytes.size() != 1) return RawHex(bytes);
        return bytes[0] != 0 ? "true" : "false";
      case TypeKind::kFloat:
        if (auto v = DeserializeFloat(bytes); v.ok()) return ShortestFloatText(*v);
        return RawHex(bytes);
      case TypeKind::kDouble:
        if (auto v = DeserializeDouble(bytes); v.ok()) return ShortestFloatText(*v);
        return RawHex(bytes);
      case TypeKind::kDecimal:
        if (auto text = DecimalToLiteralText(bytes); text.ok()) return *text;
        return RawHex(bytes);
      case TypeKind::kInet:
        if (bytes.size() != 4 && bytes.size() != 16) return RawHex(bytes);
        return quoted(FormatInet(bytes));
      case TypeKind::kDate:
        if (auto v = DeserializeInt(bytes); v.ok()) {
          return quoted(FormatDateIso(static_cast<uint32_t>(*v)));
        }
        return RawHex(bytes);
      case TypeKind::kTime:
        if (auto v = DeserializeBigint(bytes); v.ok()) {
          return *v >= 0 && *v < kNanosPerDay ? quoted(FormatTime(*v)) : std::to_string(*v);
        }
        return RawHex(bytes);
      case TypeKind::kTimestamp:
        if (auto v = DeserializeBigint(bytes); v.ok()) {
          std::string text = FormatTimestampIso(*v);
          return text.find('T') != std::string::npos ? quoted(text) : text;
        }
        return RawHex(bytes);
      case TypeKind::kDuration:
        if (auto v = DeserializeDuration(bytes); v.ok()) {
          std::string text = FormatDuration(*v);
          return text.empty() ? "0s" : text;
        }
        return RawHex(bytes);
      default:
        return CommonNative(type, bytes);
    }
  }
};

}  // namespace

std::string FormatValue(const CqlType& type, std::string_view bytes,
                        const CqlshFormatOptions& options) {
  // cqlsh picks the precision from the column's type name: its double precision only for a
  // column that is itself a double; everything else, nested doubles included, gets the float
  // precision.
  int precision =
      type.kind() == TypeKind::kDouble ? options.double_precision : options.float_precision;
  return CqlshPrinter(precision).Print(type, bytes, false, 0);
}

std::string FormatNullableValue(const CqlType& type, std::optional<std::string_view> bytes,
                                const CqlshFormatOptions& options) {
  return bytes ? FormatValue(type, *bytes, options) : "null";
}

std::string FormatValueAsCql(const CqlType& type, std::string_view bytes) {
  return CqlPrinter().Print(type, bytes, false, 0);
}

}  // namespace cql
