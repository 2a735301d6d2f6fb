// CAST(x AS type) in SELECT selectors: Cassandra 4.1's CastFcts matrix and conversions.
//
// Pipeline position: when the engine prepares a `Selectable::Kind::kCast`, it checks the
// cast with CheckCast (prepare-time error); at execution it converts each value with
// CastValue.
//
// The matrix (Cassandra registers these as functions `system.castAs<Type>`, e.g. castAsInt):
//   tinyint, smallint, int, bigint, counter, float, double, decimal, varint
//       -> tinyint, smallint, int, bigint, float, double, decimal, varint
//          (Java's Number conversions: integers truncate to the target width, floats
//          saturate through int/long, decimals truncate their fraction; to varint through
//          longValue(); to decimal, floats go through BigDecimal.valueOf(double), so
//          CAST(1.1f AS decimal) is 1.100000023841858)
//   numeric types, inet, boolean, timeuuid, timestamp, date, time, uuid -> text, ascii
//          (the value's text: 1.0E10 for doubles, timestamps as 2011-02-03T04:05:00.000Z,
//          inet in Java's form, dates 2011-02-03, times 04:05:00.000000000);  ascii -> text
//   timeuuid -> timestamp, date;  timestamp -> date;  date -> timestamp
//   any type -> the same type (identity)
// Not castable: blob, duration, text -> anything but text; collections, tuples, UDTs.
// A null or empty input gives null (an empty text stays empty text).
//
// Thread-safety: stateless free functions.

#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/types/types.h"

namespace cql {

// Whether CAST from `from` to `to` is allowed (see the matrix above).
bool CanCast(const CqlType& from, const CqlType& to);

// OK when CanCast, otherwise kInvalid with Cassandra's resolver message, e.g.
// "Invalid call to function system.castAsInt, none of its type signatures match (known type
// signatures: system.castAsInt : (tinyint) -> int, ...)"; for a target that has no cast
// functions at all (boolean, blob, collections...): "Unknown function
// 'system.castAsBoolean'".
common::Status CheckCast(const CqlType& from, const CqlType& to);

// Converts a value of `from` (std::nullopt = null) to `to`.
// REQUIRES: CanCast(from, to) (otherwise returns kInvalid as CheckCast does).
// Errors: kInvalid for bytes that do not decode as `from`, kFunctionFailure for a varint or
// decimal beyond the supported 128 bits (functions_numeric.h), or a date out of range.
common::Result<std::optional<common::Bytes>> CastValue(const CqlType& from, const CqlType& to,
                                                       std::optional<std::string_view> value);

// A non-empty value's text as CAST(x AS text) produces it (see above); also defined for
// blob (bare hex "01ff"), duration ("1h30m") and text, which CAST does not take but JSON uses.
// REQUIRES: `type` is native. Errors: kInvalid for bytes that do not decode.
common::Result<std::string> ValueToJavaText(const CqlType& type, std::string_view bytes);

}  // namespace cql
