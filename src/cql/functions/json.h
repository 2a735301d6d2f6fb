// JSON for CQL values: SELECT JSON / toJson() output and INSERT JSON / fromJson() input, as
// Cassandra 4.1 writes and reads them (AbstractType.toJSONString / fromJSONObject, Json.java).
//
// Pipeline position: the engine formats SELECT JSON rows with RowToJson / ValueToJson; INSERT
// JSON parses its string with ParseJsonObject and converts each column's value with
// JsonToValue; the toJson()/fromJson() functions (functions.h) use the same code.
//
// Output (ValueToJson), in Cassandra's spacing (", " and ": "):
//   text/ascii "escaped"   integers, decimal bare   float/double bare (Java toString: 1.0,
//   1.0E10; NaN and infinities as null)   boolean true/false   blob "0x0102"   uuid "lower-case"
//   inet "1.2.3.4" (IPv6 in Java's full form "0:0:0:0:0:0:0:1")   date "2024-01-31"
//   time "08:12:54.123456789"   timestamp "2011-02-03 04:05:00.000Z"   duration "1h30m"
//   list/set/tuple/vector [a, b]   map {"key": v} (non-string keys are quoted: {"1": "a"})
//   UDT {"field": v} ("\"Field\"" for case-sensitive field names)   null as null.
//
// Input (JsonToValue) takes a parsed JSON value (`JsonValue`, kept close to what Jackson
// produces: numbers keep their text and are Integer/Long/BigInteger/Double by form and size)
// and follows each type's rules: numbers from JSON numbers or strings, blobs only from "0x..."
// strings, timestamps from integers or date strings, collections, tuples and UDTs also from a
// string holding their JSON. Errors are kInvalid with Cassandra's MarshalException messages
// ("Expected an int value, but got a Double: 1.5", "Unable to make int from 'abc'", ...).
//
// Thread-safety: stateless free functions over plain data.

#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/types/types.h"

namespace cql {

// A parsed JSON value. Object members keep their order; duplicate keys are kept as written
// (ParseJsonObject resolves them, last wins).
struct JsonValue {
  enum class Kind : uint8_t { kNull, kBoolean, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;                 // kNumber: the number as written; kString: its content
  std::vector<JsonValue> elements;  // kArray: items; kObject: member values
  std::vector<std::string> keys;    // kObject: member names, parallel to `elements`

  // The Java class Jackson would produce: "Integer", "Long", "BigInteger", "Double",
  // "String", "Boolean", "ArrayList", "LinkedHashMap" (null: "null").
  std::string JavaClassName() const;
  // Java's toString of that object: 1.5, abc, [1, 2], {a=1}, null.
  std::string JavaString() const;
  bool IsIntegralNumber() const;
};

// Parses one JSON document (RFC 8259; surrounding whitespace allowed). Nesting is limited to
// kMaxValueNestingDepth. Errors: kInvalid with a parser message naming the offset.
common::Result<JsonValue> ParseJson(std::string_view text);

// JSON string literal with quotes for `text` (escapes as Jackson: \" \\ \b \f \n \r \t and
// \u00XX for other control characters).
std::string QuoteJsonString(std::string_view text);

// INSERT JSON's map of column name -> value. Keys are lower-cased unless wrapped in double
// quotes ("\"Name\"" -> Name), as Cassandra's handleCaseSensitivity; a later duplicate wins.
// Errors: "Could not decode JSON string as a map: <reason>. (String was: <text>)",
// "Got null for INSERT JSON values".
common::Result<std::vector<std::pair<std::string, JsonValue>>> ParseJsonObject(
    std::string_view text);

// The JSON key for a column in SELECT JSON output, with its JSON quotes: `"name"`, or
// `"\"Name\""` when the name is not all lower-case.
std::string QuoteJsonColumnName(std::string_view name);

// The JSON text of a value of `type` (std::nullopt = null). Bytes that do not decode as `type`
// print as a quoted hex string. UDT types must be resolved.
std::string ValueToJson(const CqlType& type, std::optional<std::string_view> bytes);

// A SELECT JSON row: {"name": value, ...} with names quoted by QuoteJsonColumnName.
// REQUIRES: the three spans have the same size.
std::string RowToJson(const std::vector<std::string>& names, const std::vector<CqlType>& types,
                      const std::vector<std::optional<std::string_view>>& values);

// The serialized value of `type` for a parsed JSON value; std::nullopt for JSON null.
// Errors (kInvalid): Cassandra's message for the type (see the file comment); callers wrap it
// ("Error decoding JSON value for <column>: <message>"). UDT types must be resolved.
common::Result<std::optional<common::Bytes>> JsonToValue(const CqlType& type,
                                                         const JsonValue& value);

}  // namespace cql
