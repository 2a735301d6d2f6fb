// Numeric helpers shared by the arithmetic functions (`functions.h`), CAST (`cast.h`),
// aggregates (`aggregates.h`) and JSON (`json.h`): reading any numeric CQL value the way
// Java's Number conversions do (intValue, longValue, doubleValue, BigDecimal), fixed-size
// big numbers, and Java's Float/Double.toString text.
//
// `varint` and `decimal` values are handled as 128-bit integers (decimal: a 128-bit unscaled
// value and an int32 scale). Values or results beyond 128 bits fail with kFunctionFailure
// ("... exceeds the supported precision") instead of being computed: a documented limit
// (Cassandra has arbitrary precision).
//
// Thread-safety: stateless free functions.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/types/types.h"

namespace cql::numeric {

using Int128 = __int128;

struct BigDecimal {
  Int128 unscaled = 0;
  int32_t scale = 0;
};

// Whether `kind` is one of tinyint, smallint, int, bigint, counter, float, double, varint,
// decimal.
bool IsNumeric(TypeKind kind);
// tinyint, smallint, int, bigint, counter, varint.
bool IsIntegral(TypeKind kind);

// Java's conversions of a non-empty value of numeric type `kind`:
//   ToInt64: Number.longValue() (floats saturate, NaN is 0; decimals truncate; big values keep
//   their low 64 bits); ToDouble: doubleValue(); ToDecimal: the BigDecimal Cassandra uses
//   (BigDecimal.valueOf for floats, so 1.5 has scale 1); ToInt128: BigInteger (floats and
//   decimals truncated).
// Errors: kInvalid for malformed bytes, kFunctionFailure beyond 128 bits, NaN/Infinity to
// decimal.
common::Result<int64_t> ToInt64(TypeKind kind, std::string_view bytes);
common::Result<double> ToDouble(TypeKind kind, std::string_view bytes);
common::Result<BigDecimal> ToDecimal(TypeKind kind, std::string_view bytes);
common::Result<Int128> ToInt128(TypeKind kind, std::string_view bytes);

// Varint bytes <-> Int128. VarintToInt128 fails (kFunctionFailure) beyond 128 bits.
common::Result<Int128> VarintToInt128(std::string_view bytes);
common::Bytes Int128ToVarint(Int128 value);
common::Result<BigDecimal> DecimalFromBytes(std::string_view bytes);
common::Bytes DecimalToBytes(const BigDecimal& value);

// The error for a value beyond 128 bits.
common::Status PrecisionError();

// Serializes `value` truncated to the width of integral `kind` (tinyint..bigint, counter) as
// Java's narrowing casts do.
common::Bytes SerializeIntegral(TypeKind kind, int64_t value);

// Java's Double.toString / Float.toString: "1.0", "0.001", "1.0E7", "1.5E-4", "NaN",
// "Infinity", "-0.0", with the shortest digits that round-trip.
std::string JavaDoubleToString(double value);
std::string JavaFloatToString(float value);

// Java's (int)/(long) casts of a double: saturating, NaN -> 0.
int64_t JavaDoubleToLong(double value);
int32_t JavaDoubleToInt(double value);

// Decimal `value` rescaled to `scale` (>= value.scale), failing beyond 128 bits.
common::Result<BigDecimal> Rescale(const BigDecimal& value, int32_t scale);

// Decimal text as Java's BigDecimal.toString.
std::string DecimalToString(const BigDecimal& value);

}  // namespace cql::numeric
