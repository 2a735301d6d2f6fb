// JsonToValue: INSERT JSON / fromJson() input (Cassandra's AbstractType.fromJSONObject).

#include <algorithm>
#include <cmath>

#include "common/ascii.h"
#include "cql/functions/json.h"
#include "cql/parser/literal.h"
#include "cql/types/big_number.h"
#include "cql/types/value_codec.h"

namespace cql {
namespace {

using common::Bytes;
using common::Result;
using common::Status;
using Kind = JsonValue::Kind;

Status Expected(std::string_view what, const JsonValue& value) {
  return Status::Invalid("Expected " + std::string(what) + ", but got a " + value.JavaClassName() +
                         ": " + value.JavaString());
}

Result<Bytes> FromString(const CqlType& type, std::string_view text) {
  return ParseValueText(type, text);
}

Result<Bytes> NativeFromJson(const CqlType& type, const JsonValue& value) {
  bool is_string = value.kind == Kind::kString;
  bool is_number = value.kind == Kind::kNumber;
  std::string java_class = value.JavaClassName();
  switch (type.kind()) {
    case TypeKind::kAscii:
      if (!is_string) return Expected("an ascii string", value);
      return FromString(type, value.text);
    case TypeKind::kText:
      if (!is_string) return Expected("a UTF-8 string", value);
      return FromString(type, value.text);
    case TypeKind::kBoolean:
      if (value.kind == Kind::kBoolean) return SerializeBoolean(value.boolean);
      if (is_string) return FromString(type, value.text);
      return Expected("a boolean value", value);
    case TypeKind::kTinyint:
      if (is_string || is_number) return FromString(type, value.JavaString());
      return Expected("a byte value", value);
    case TypeKind::kSmallint:
      if (is_string || is_number) return FromString(type, value.JavaString());
      return Expected("a short value", value);
    case TypeKind::kInt:
      if (is_string) return FromString(type, value.text);
      if (java_class != "Integer") return Expected("an int value", value);
      return FromString(type, value.text);
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      if (is_string) return FromString(type, value.text);
      if (java_class != "Integer" && java_class != "Long") return Expected("a bigint value", value);
      return FromString(type, value.text);
    case TypeKind::kVarint:
      if (is_string) return FromString(type, value.text);
      if (!value.IsIntegralNumber()) return Expected("an integer value", value);
      return FromString(type, value.text);
    case TypeKind::kDecimal: {
      if (is_string || is_number || value.kind == Kind::kBoolean) {
        std::string text = value.JavaString();
        auto decimal = DecimalFromText(text);
        if (decimal.ok()) return decimal;
        return Status::Invalid("Value '" + text +
                               "' is not a valid representation of a decimal value");
      }
      return Expected("a decimal value", value);
    }
    case TypeKind::kFloat:
      if (is_string) return FromString(type, value.text);
      if (is_number) {
        auto v = ParseJavaDouble(value.text);
        if (v) return SerializeFloat(static_cast<float>(*v));
      }
      return Expected("a float value", value);
    case TypeKind::kDouble:
      if (is_string) return FromString(type, value.text);
      if (is_number) {
        auto v = ParseJavaDouble(value.text);
        if (v) return SerializeDouble(*v);
      }
      return Expected("a double value", value);
    case TypeKind::kBlob:
    case TypeKind::kCustom:
      if (!is_string) return Expected("a string representation of a blob", value);
      if (value.text.rfind("0x", 0) != 0) {
        return Status::Invalid("String representation of blob is missing 0x prefix: " + value.text);
      }
      return FromString(type, value.text);
    case TypeKind::kUuid:
      if (!is_string) return Expected("a string representation of a uuid", value);
      return FromString(type, value.text);
    case TypeKind::kTimeuuid:
      if (!is_string) return Expected("a string representation of a timeuuid", value);
      return FromString(type, value.text);
    case TypeKind::kTimestamp:
      if (java_class == "Integer" || java_class == "Long") return FromString(type, value.text);
      if (is_string) return FromString(type, value.text);
      return Expected("a long or a datestring representation of a timestamp value", value);
    case TypeKind::kDate:
      if (!is_string) return Expected("a string representation of a date value", value);
      return FromString(type, value.text);
    case TypeKind::kTime:
      if (!is_string) return Expected("a string representation of a time value", value);
      return FromString(type, value.text);
    case TypeKind::kInet:
      if (!is_string) return Expected("a string representation of an inet value", value);
      return FromString(type, value.text);
    case TypeKind::kDuration:
      if (!is_string) return Expected("a string representation of a duration", value);
      return FromString(type, value.text);
    default:
      return Status::Invalid("Unsupported type for JSON: " + type.ToCql());
  }
}

Result<Bytes> FromJsonAt(const CqlType& type, const JsonValue& input, int depth);

// Collections, tuples and UDTs also accept a string holding their JSON.
Result<JsonValue> DecodeNested(const JsonValue& value) {
  if (value.kind != Kind::kString) return value;
  Result<JsonValue> parsed = ParseJson(value.text);
  if (!parsed.ok()) {
    return Status::Invalid("Error decoding JSON string: " + parsed.status().message());
  }
  return parsed;
}

Result<std::vector<Bytes>> Elements(const CqlType& element_type, const JsonValue& list,
                                    const char* container, int depth) {
  std::vector<Bytes> out;
  for (const JsonValue& element : list.elements) {
    if (element.kind == Kind::kNull) {
      return Status::Invalid(std::string("Invalid null element in ") + container);
    }
    ASSIGN_OR_RETURN(Bytes bytes, FromJsonAt(element_type, element, depth + 1));
    out.push_back(std::move(bytes));
  }
  return out;
}

Result<Bytes> FromJsonAt(const CqlType& type, const JsonValue& input, int depth) {
  if (depth > kMaxValueNestingDepth) return Status::Invalid("JSON value nested too deeply");
  if (type.IsNative() || type.kind() == TypeKind::kCustom) return NativeFromJson(type, input);
  ASSIGN_OR_RETURN(JsonValue value, DecodeNested(input));
  switch (type.kind()) {
    case TypeKind::kList:
    case TypeKind::kVector: {
      if (value.kind != Kind::kArray) return Expected("a list", value);
      ASSIGN_OR_RETURN(std::vector<Bytes> elements, Elements(type.element(), value, "list", depth));
      if (type.kind() == TypeKind::kVector) return SerializeVector(type, elements);
      return SerializeCollection(type, std::move(elements));
    }
    case TypeKind::kSet: {
      if (value.kind != Kind::kArray) return Expected("a list (representing a set)", value);
      ASSIGN_OR_RETURN(std::vector<Bytes> elements, Elements(type.element(), value, "set", depth));
      return SerializeCollection(type, std::move(elements));
    }
    case TypeKind::kMap: {
      if (value.kind != Kind::kObject) return Expected("a map", value);
      std::vector<std::pair<Bytes, Bytes>> entries;
      for (size_t i = 0; i < value.keys.size(); ++i) {
        if (value.elements[i].kind == Kind::kNull) {
          return Status::Invalid("Invalid null value in map");
        }
        JsonValue key;
        key.kind = Kind::kString;
        key.text = value.keys[i];
        ASSIGN_OR_RETURN(Bytes key_bytes, FromJsonAt(type.key(), key, depth + 1));
        ASSIGN_OR_RETURN(Bytes value_bytes, FromJsonAt(type.value(), value.elements[i], depth + 1));
        entries.emplace_back(std::move(key_bytes), std::move(value_bytes));
      }
      return SerializeMap(type, std::move(entries));
    }
    case TypeKind::kTuple: {
      if (value.kind != Kind::kArray) return Expected("a list representation of a tuple", value);
      if (value.elements.size() > type.params().size()) {
        return Status::Invalid("Tuple contains extra items (expected " +
                               std::to_string(type.params().size()) + "): " + value.JavaString());
      }
      std::vector<std::optional<Bytes>> fields;
      for (size_t i = 0; i < value.elements.size(); ++i) {
        if (value.elements[i].kind == Kind::kNull) {
          fields.emplace_back();
          continue;
        }
        ASSIGN_OR_RETURN(Bytes bytes, FromJsonAt(type.params()[i], value.elements[i], depth + 1));
        fields.emplace_back(std::move(bytes));
      }
      return SerializeTupleOrUdt(fields);
    }
    case TypeKind::kUdt: {
      if (!type.IsResolved()) return Status::Internal("unresolved user type " + type.name());
      if (value.kind != Kind::kObject) return Expected("a map", value);
      std::vector<std::pair<std::string, const JsonValue*>> members;
      for (size_t i = 0; i < value.keys.size(); ++i) {
        const std::string& key = value.keys[i];
        std::string name = key.size() >= 2 && key.front() == '"' && key.back() == '"'
                               ? key.substr(1, key.size() - 2)
                               : common::AsciiLower(key);
        members.emplace_back(std::move(name), &value.elements[i]);
      }
      std::vector<std::optional<Bytes>> fields(type.params().size());
      std::vector<bool> used(members.size(), false);
      for (size_t f = 0; f < type.params().size(); ++f) {
        for (size_t m = 0; m < members.size(); ++m) {
          if (members[m].first != type.field_names()[f]) continue;
          used[m] = true;
          if (members[m].second->kind == Kind::kNull) {
            fields[f].reset();
          } else {
            ASSIGN_OR_RETURN(Bytes bytes,
                             FromJsonAt(type.params()[f], *members[m].second, depth + 1));
            fields[f] = std::move(bytes);
          }
        }
      }
      for (size_t m = 0; m < members.size(); ++m) {
        if (!used[m]) {
          return Status::Invalid("Unknown field '" + members[m].first +
                                 "' in value of user defined type " + type.name());
        }
      }
      return SerializeTupleOrUdt(fields);
    }
    default:
      return Status::Invalid("Unsupported type for JSON: " + type.ToCql());
  }
}

}  // namespace

Result<std::optional<Bytes>> JsonToValue(const CqlType& type, const JsonValue& value) {
  if (value.kind == Kind::kNull) return std::optional<Bytes>();
  ASSIGN_OR_RETURN(Bytes bytes, FromJsonAt(type, value, 0));
  return std::optional<Bytes>(std::move(bytes));
}

}  // namespace cql
