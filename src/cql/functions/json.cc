#include "cql/functions/json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/utf8.h"
#include "common/uuid.h"
#include "cql/functions/cast.h"
#include "cql/functions/functions_numeric.h"
#include "cql/types/big_number.h"
#include "cql/types/temporal.h"
#include "cql/types/value_codec.h"

namespace cql {
namespace {

using common::Bytes;
using common::Result;
using common::Status;

// --- Parser ------------------------------------------------------------------------------

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : text_(text) {}

  Result<JsonValue> ParseDocument() {
    SkipSpace();
    ASSIGN_OR_RETURN(JsonValue value, ParseValue(0));
    SkipSpace();
    if (pos_ != text_.size()) return Error("Unexpected trailing content");
    return value;
  }

 private:
  Status Error(std::string_view what) const {
    return Status::Invalid(std::string(what) + " at character " + std::to_string(pos_ + 1));
  }

  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool Consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Result<JsonValue> ParseValue(int depth) {
    if (depth > kMaxValueNestingDepth) return Error("JSON nested too deeply");
    if (pos_ >= text_.size()) return Error("Unexpected end of input: expected a value");
    JsonValue value;
    char c = text_[pos_];
    if (c == '{') return ParseObject(depth);
    if (c == '[') return ParseArray(depth);
    if (c == '"') {
      value.kind = JsonValue::Kind::kString;
      ASSIGN_OR_RETURN(value.text, ParseString());
      return value;
    }
    if (Consume("true")) {
      value.kind = JsonValue::Kind::kBoolean;
      value.boolean = true;
      return value;
    }
    if (Consume("false")) {
      value.kind = JsonValue::Kind::kBoolean;
      return value;
    }
    if (Consume("null")) return value;
    if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber();
    // Quote the whole character: a lone lead byte of a multi-byte one is not text.
    size_t length = std::max<size_t>(1, common::Utf8SequenceLength(text_.substr(pos_)));
    return Error("Unexpected character '" + std::string(text_.substr(pos_, length)) +
                 "': expected a value");
  }

  Result<JsonValue> ParseNumber() {
    size_t start = pos_;
    auto digits = [this] {
      size_t begin = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ - begin;
    };
    if (text_[pos_] == '-') ++pos_;
    size_t int_start = pos_;
    if (digits() == 0) return Error("Invalid number: expected a digit");
    if (pos_ - int_start > 1 && text_[int_start] == '0') {
      return Error("Invalid number: leading zeroes not allowed");
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (digits() == 0) return Error("Invalid number: expected a digit after '.'");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (digits() == 0) return Error("Invalid number: expected a digit in the exponent");
    }
    JsonValue value;
    value.kind = JsonValue::Kind::kNumber;
    value.text = std::string(text_.substr(start, pos_ - start));
    return value;
  }

  static void AppendUtf8(uint32_t code_point, std::string* out) {
    if (code_point < 0x80) {
      out->push_back(static_cast<char>(code_point));
    } else if (code_point < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (code_point >> 6)));
      out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
    } else if (code_point < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (code_point >> 12)));
      out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (code_point >> 18)));
      out->push_back(static_cast<char>(0x80 | ((code_point >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
    }
  }

  Result<uint32_t> ParseHex4() {
    if (pos_ + 4 > text_.size()) return Error("Unexpected end of input in a \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text_[pos_++];
      v <<= 4;
      if (h >= '0' && h <= '9') {
        v |= static_cast<uint32_t>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        v |= static_cast<uint32_t>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        v |= static_cast<uint32_t>(h - 'A' + 10);
      } else {
        return Error("Invalid hex digit in a \\u escape");
      }
    }
    return v;
  }

  Result<std::string> ParseString() {
    ++pos_;  // opening quote
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) return Error("Unexpected end of input in a string");
      char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) {
        return Error("Illegal unquoted control character in a string");
      }
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos_ >= text_.size()) return Error("Unexpected end of input in a string");
      char e = text_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out.push_back(e);
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u': {
          ASSIGN_OR_RETURN(uint32_t cp, ParseHex4());
          if (cp >= 0xD800 && cp < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
            size_t saved = pos_;
            pos_ += 2;
            ASSIGN_OR_RETURN(uint32_t low, ParseHex4());
            if (low >= 0xDC00 && low < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else {
              pos_ = saved;
            }
          }
          if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD;  // lone surrogate
          AppendUtf8(cp, &out);
          break;
        }
        default:
          return Error(std::string("Unrecognized character escape '") + e + "'");
      }
    }
  }

  Result<JsonValue> ParseArray(int depth) {
    ++pos_;
    JsonValue value;
    value.kind = JsonValue::Kind::kArray;
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return value;
    }
    while (true) {
      SkipSpace();
      ASSIGN_OR_RETURN(JsonValue element, ParseValue(depth + 1));
      value.elements.push_back(std::move(element));
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return value;
      }
      return Error("Unexpected character: expected ',' or ']' in an array");
    }
  }

  Result<JsonValue> ParseObject(int depth) {
    ++pos_;
    JsonValue value;
    value.kind = JsonValue::Kind::kObject;
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return value;
    }
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') {
        return Error("Unexpected character: expected a double-quoted field name");
      }
      ASSIGN_OR_RETURN(std::string key, ParseString());
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ':') {
        return Error("Unexpected character: expected ':' after a field name");
      }
      ++pos_;
      SkipSpace();
      ASSIGN_OR_RETURN(JsonValue member, ParseValue(depth + 1));
      value.keys.push_back(std::move(key));
      value.elements.push_back(std::move(member));
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return value;
      }
      return Error("Unexpected character: expected ',' or '}' in an object");
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// --- Writer ------------------------------------------------------------------------------

std::string Quoted(const std::string& text) { return QuoteJsonString(text); }

std::string NativeToJson(const CqlType& type, std::string_view bytes, bool* ok) {
  *ok = true;
  switch (type.kind()) {
    case TypeKind::kAscii:
    case TypeKind::kText:
      return QuoteJsonString(bytes);
    case TypeKind::kBoolean:
      if (auto v = DeserializeBoolean(bytes); v.ok()) return *v ? "true" : "false";
      break;
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      if (auto v = numeric::ToInt64(type.kind(), bytes); v.ok()) return std::to_string(*v);
      break;
    case TypeKind::kVarint:
      return VarintToText(bytes);
    case TypeKind::kDecimal:
      if (auto v = DecimalToText(bytes); v.ok()) return *v;
      break;
    case TypeKind::kFloat:
      if (auto v = DeserializeFloat(bytes); v.ok()) {
        // JSON has no NaN or Infinity: Cassandra writes null.
        return std::isfinite(*v) ? numeric::JavaFloatToString(*v) : "null";
      }
      break;
    case TypeKind::kDouble:
      if (auto v = DeserializeDouble(bytes); v.ok()) {
        return std::isfinite(*v) ? numeric::JavaDoubleToString(*v) : "null";
      }
      break;
    case TypeKind::kBlob:
    case TypeKind::kCustom:
      return Quoted("0x" + common::ToHex(bytes));
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
    case TypeKind::kInet:
    case TypeKind::kDate:
    case TypeKind::kTime:
      if (auto text = ValueToJavaText(type, bytes); text.ok()) return Quoted(*text);
      break;
    case TypeKind::kTimestamp:
      if (auto v = DeserializeBigint(bytes); v.ok()) {
        std::string iso = FormatTimestampIso(*v);
        if (iso.size() > 10 && iso[10] == 'T') iso[10] = ' ';
        return Quoted(iso);
      }
      break;
    case TypeKind::kDuration:
      if (auto text = ValueToJavaText(type, bytes); text.ok()) return Quoted(*text);
      break;
    default:
      break;
  }
  *ok = false;
  return "";
}

std::string ToJsonAt(const CqlType& type, std::string_view bytes, int depth);

std::string Hex(std::string_view bytes) { return Quoted("0x" + common::ToHex(bytes)); }

std::string ElementsToJson(const CqlType& element_type,
                           const std::vector<std::string_view>& elements, int depth) {
  std::string out = "[";
  for (size_t i = 0; i < elements.size(); ++i) {
    if (i > 0) out += ", ";
    out += ToJsonAt(element_type, elements[i], depth + 1);
  }
  return out + "]";
}

std::string ToJsonAt(const CqlType& type, std::string_view bytes, int depth) {
  if (depth > kMaxValueNestingDepth) return Hex(bytes);
  if (type.IsNative() || type.kind() == TypeKind::kCustom) {
    if (bytes.empty() && type.kind() != TypeKind::kText && type.kind() != TypeKind::kAscii &&
        type.kind() != TypeKind::kBlob) {
      return "\"\"";
    }
    bool ok = false;
    std::string text = NativeToJson(type, bytes, &ok);
    return ok ? text : Hex(bytes);
  }
  switch (type.kind()) {
    case TypeKind::kList:
    case TypeKind::kSet: {
      auto elements = SplitListOrSet(type, bytes);
      if (!elements.ok()) return Hex(bytes);
      return ElementsToJson(type.element(), *elements, depth);
    }
    case TypeKind::kVector: {
      auto elements = SplitVector(type, bytes);
      if (!elements.ok()) return Hex(bytes);
      return ElementsToJson(type.element(), *elements, depth);
    }
    case TypeKind::kMap: {
      auto entries = SplitMap(bytes);
      if (!entries.ok()) return Hex(bytes);
      std::string out = "{";
      for (size_t i = 0; i < entries->size(); ++i) {
        if (i > 0) out += ", ";
        std::string key = ToJsonAt(type.key(), (*entries)[i].key, depth + 1);
        out += !key.empty() && key[0] == '"' ? key : QuoteJsonString(key);
        out += ": ";
        out += ToJsonAt(type.value(), (*entries)[i].value, depth + 1);
      }
      return out + "}";
    }
    case TypeKind::kTuple: {
      auto fields = SplitTupleOrUdt(bytes, type.params().size());
      if (!fields.ok()) return Hex(bytes);
      std::string out = "[";
      for (size_t i = 0; i < type.params().size(); ++i) {
        if (i > 0) out += ", ";
        if (i < fields->size() && (*fields)[i].has_value()) {
          out += ToJsonAt(type.params()[i], *(*fields)[i], depth + 1);
        } else {
          out += "null";
        }
      }
      return out + "]";
    }
    case TypeKind::kUdt: {
      auto fields = SplitTupleOrUdt(bytes, type.params().size());
      if (!fields.ok()) return Hex(bytes);
      std::string out = "{";
      for (size_t i = 0; i < type.params().size(); ++i) {
        if (i > 0) out += ", ";
        out += QuoteJsonColumnName(type.field_names()[i]);
        out += ": ";
        if (i < fields->size() && (*fields)[i].has_value()) {
          out += ToJsonAt(type.params()[i], *(*fields)[i], depth + 1);
        } else {
          out += "null";
        }
      }
      return out + "}";
    }
    default:
      return Hex(bytes);
  }
}

}  // namespace

std::string JsonValue::JavaClassName() const {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBoolean:
      return "Boolean";
    case Kind::kString:
      return "String";
    case Kind::kArray:
      return "ArrayList";
    case Kind::kObject:
      return "LinkedHashMap";
    case Kind::kNumber:
      if (!IsIntegralNumber()) return "Double";
      if (ParseJavaInteger(text, INT32_MIN, INT32_MAX)) return "Integer";
      if (ParseJavaInteger(text, INT64_MIN, INT64_MAX)) return "Long";
      return "BigInteger";
  }
  return "Object";
}

bool JsonValue::IsIntegralNumber() const {
  return kind == Kind::kNumber && text.find_first_of(".eE") == std::string::npos;
}

std::string JsonValue::JavaString() const {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBoolean:
      return boolean ? "true" : "false";
    case Kind::kString:
      return text;
    case Kind::kNumber: {
      if (IsIntegralNumber()) {
        auto varint = VarintFromText(text);
        return varint.ok() ? VarintToText(*varint) : text;
      }
      auto v = ParseJavaDouble(text);
      return v ? numeric::JavaDoubleToString(*v) : text;
    }
    case Kind::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i > 0) out += ", ";
        out += elements[i].JavaString();
      }
      return out + "]";
    }
    case Kind::kObject: {
      std::string out = "{";
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i > 0) out += ", ";
        out += keys[i] + "=" + elements[i].JavaString();
      }
      return out + "}";
    }
  }
  return "";
}

Result<JsonValue> ParseJson(std::string_view text) { return JsonParser(text).ParseDocument(); }

std::string QuoteJsonString(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "\"";
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20) {
          out += "\\u00";
          out.push_back(kHex[u >> 4]);
          out.push_back(kHex[u & 0xF]);
        } else {
          out.push_back(c);
        }
    }
  }
  return out + "\"";
}

Result<std::vector<std::pair<std::string, JsonValue>>> ParseJsonObject(std::string_view text) {
  Result<JsonValue> parsed = ParseJson(text);
  if (parsed.ok() && parsed->kind == JsonValue::Kind::kNull) {
    return Status::Invalid("Got null for INSERT JSON values");
  }
  std::string reason;
  if (!parsed.ok()) {
    reason = parsed.status().message();
  } else if (parsed->kind != JsonValue::Kind::kObject) {
    reason = "Cannot deserialize a " + parsed->JavaClassName() + " as a Map";
  }
  if (!reason.empty()) {
    return Status::Invalid("Could not decode JSON string as a map: " + reason +
                           ". (String was: " + std::string(text) + ")");
  }
  std::vector<std::pair<std::string, JsonValue>> out;
  JsonValue& object = *parsed;
  for (size_t i = 0; i < object.keys.size(); ++i) {
    std::string key = std::move(object.keys[i]);
    if (key.size() >= 2 && key.front() == '"' && key.back() == '"') {
      key = key.substr(1, key.size() - 2);
    } else {
      std::transform(key.begin(), key.end(), key.begin(), [](char c) {
        return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
      });
    }
    auto existing = std::find_if(out.begin(), out.end(),
                                 [&key](const auto& entry) { return entry.first == key; });
    if (existing != out.end()) {
      existing->second = std::move(object.elements[i]);
    } else {
      out.emplace_back(std::move(key), std::move(object.elements[i]));
    }
  }
  return out;
}

std::string QuoteJsonColumnName(std::string_view name) {
  bool lower = std::none_of(name.begin(), name.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  if (lower) return QuoteJsonString(name);
  return QuoteJsonString("\"" + std::string(name) + "\"");
}

std::string ValueToJson(const CqlType& type, std::optional<std::string_view> bytes) {
  if (!bytes.has_value()) return "null";
  return ToJsonAt(type, *bytes, 0);
}

std::string RowToJson(const std::vector<std::string>& names, const std::vector<CqlType>& types,
                      const std::vector<std::optional<std::string_view>>& values) {
  std::string out = "{";
  for (size_t i = 0; i < names.size() && i < types.size() && i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += QuoteJsonColumnName(names[i]);
    out += ": ";
    out += ValueToJson(types[i], values[i]);
  }
  return out + "}";
}

}  // namespace cql
