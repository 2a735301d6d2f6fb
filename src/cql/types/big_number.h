// Number text for CQL values: arbitrary-precision integers and decimals for the `varint` and
// `decimal` types, and Java-compatible parsing of machine integers and floats (Cassandra
// parses numeric literals with Java's Long.parseLong, Double.valueOf...; we accept exactly
// the same texts).
//
// Values are held in their native-protocol serialization (native_protocol_v4.spec §6.6, §6.23):
//   varint  = the minimal two's-complement big-endian bytes of the integer (0 is 0x00,
//             -1 is 0xFF, 128 is 0x0080, -129 is 0xFF7F);
//   decimal = a 4-byte big-endian signed `scale` followed by the varint `unscaled` value; the
//             number is unscaled * 10^-scale (1.5 is scale 1, unscaled 15: 00000001 0F).
// The conversions between those bytes and decimal text here are exact for any size: the
// literal parser (`cql/parser/literal.h`) uses them to build values and the formatter
// (`value_format.h`) to print them. Text syntax follows Java's BigInteger/BigDecimal, which
// Cassandra uses, and printing follows Java's BigDecimal.toString(), which is also what Python's
// str(Decimal) prints, so cqlsh output matches.
//
// Cost: parsing and printing are quadratic in the number of digits, which is fine for the
// sizes CQL values have (an 8 KB varint prints in well under a millisecond).
//
// Thread-safety: stateless free functions; safe to call concurrently.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/bytes.h"
#include "common/result.h"

namespace cql {

// Parses an optionally signed base-10 integer ("42", "-129", "+7", "007") as Java's
// `new BigInteger(text)` does, returning the minimal varint bytes.
// Fails with kInvalid when `text` is empty, is only a sign, or holds a non-digit.
common::Result<common::Bytes> VarintFromText(std::string_view text);

// The minimal varint bytes of `value`.
common::Bytes VarintFromInt64(int64_t value);

// Base-10 text of varint bytes ("-129" for FF7F). Non-minimal encodings (00 01) are read as
// the number they denote. Empty bytes print as "0".
std::string VarintToText(std::string_view bytes);

// The varint as an int64 when it fits (any encoding length); kInvalid otherwise.
common::Result<int64_t> VarintToInt64(std::string_view bytes);

// Parses Java BigDecimal syntax, as Cassandra's `decimal` does: an optional sign, digits with
// an optional '.' and fraction (at least one digit overall: "1", "1.", ".5", "-0.50"), and an
// optional exponent ('e' or 'E', optional sign, digits). The scale is the number of fraction
// digits minus the exponent, so "1.50" keeps scale 2 and "1E+3" has scale -3 (exact, as
// BigDecimal). Returns the decimal bytes (scale then minimal varint unscaled value).
// Fails with kInvalid on bad syntax or when the scale does not fit in 32 bits.
common::Result<common::Bytes> DecimalFromText(std::string_view text);

// The decimal bytes for `unscaled` (varint bytes, any encoding) and `scale`.
common::Bytes DecimalFromParts(std::string_view unscaled_varint, int32_t scale);

// Text of decimal bytes as Java's BigDecimal.toString() and Python's str(Decimal) print it:
// plain notation ("1.50", "0.005", "-12") when scale >= 0 and the adjusted exponent is at
// least -6, otherwise scientific ("1E+3", "1.23E-7", "0E+2").
// Fails with kInvalid when `bytes` is shorter than the 4-byte scale.
common::Result<std::string> DecimalToText(std::string_view bytes);

// Text of decimal bytes that parses back (DecimalFromText) to exactly the same scale and
// unscaled value: plain digits for small non-negative scales ("1.50"), otherwise
// `unscaledE<-scale>` ("15E-40", "1E+3"). Used for CQL literals.
// Fails with kInvalid when `bytes` is shorter than 4 bytes.
common::Result<std::string> DecimalToLiteralText(std::string_view bytes);

// Java's Long.parseLong (Integer.parseInt...): an optional '+' or '-' then one or more ASCII
// digits, no spaces. Returns std::nullopt on bad syntax or when the value is outside
// [min, max].
std::optional<int64_t> ParseJavaInteger(std::string_view text, int64_t min, int64_t max);

// Java's Double.valueOf / Float.parseFloat, correctly rounded: surrounding whitespace, an
// optional sign, then "NaN", "Infinity", or decimal digits with an optional '.', fraction and
// exponent, and an optional f/F/d/D suffix ("1", "-2.5e-3", ".5", "1.", "3f"). Hexadecimal
// floats are not accepted. Values beyond the range become infinity, as in Java.
std::optional<double> ParseJavaDouble(std::string_view text);
std::optional<float> ParseJavaFloat(std::string_view text);

}  // namespace cql
