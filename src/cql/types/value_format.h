// Printing serialized values: as cqlsh (Cassandra 4.1) shows them in result tables, and as CQL
// literals that `cql/parser/literal.h` parses back to the same bytes.
//
// Pipeline position: the shell (`src/shell/`) formats result rows with FormatValue; DESCRIBE,
// COPY TO, tracing and error messages use FormatValueAsCql.
//
// cqlsh's rules, reproduced here (pylib/cqlshlib/formatting.py over the Python driver's
// deserializers), for the default settings without colour:
//   text/ascii   as is at the top level; inside collections, tuples and UDTs single-quoted
//                with ' doubled. Backslashes are doubled and control characters (U+0000 to
//                U+001F and U+007F to U+00A0) shown as Python escapes: \n, \t, \r, \x00...
//   blob         0x + lower-case hex
//   boolean      True / False
//   integers     decimal; varint of any size
//   float/double '%.*g' with precision 5, or 12 for a double column (cqlsh applies its
//                float precision to doubles nested in collections); NaN, Infinity, -Infinity
//   decimal      Python's str(Decimal): 1.50, 1E+3, 1.23E-7
//   uuid         lower-case 8-4-4-4-12
//   inet         1.2.3.4 or RFC 5952 IPv6 (::1, ::ffff:1.2.3.4); quoted when nested
//   date         2024-01-31 (days since 1970 outside years 1..9999)
//   time         08:12:54.123456789
//   timestamp    2015-05-03 13:30:54.234000+0000; quoted when nested
//   duration     1y2mo3d4h5m6s7ms8us9ns form; the zero duration is empty
//   list/vector  [1, 2]    set {1, 2}    map {'k': 1}    tuple (1, 'a')
//   UDT          {street: '1 Main', city: null}
//   empty value  nothing (an empty string); nested empty text is ''
// Bytes that do not decode as `type` never crash the formatter: they print as raw hex
// ("0x0001") at the level where decoding failed.
//
// Thread-safety: stateless free functions; safe to call concurrently.

#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cql/types/types.h"

namespace cql {

// cqlsh's display precisions (its `float_precision` and `double_precision` settings).
struct CqlshFormatOptions {
  int float_precision = 5;
  int double_precision = 12;
};

// A non-null value as cqlsh prints it in a result table (see the file comment).
std::string FormatValue(const CqlType& type, std::string_view bytes,
                        const CqlshFormatOptions& options = {});

// As FormatValue, with std::nullopt (a null cell) printed as cqlsh's "null".
std::string FormatNullableValue(const CqlType& type, std::optional<std::string_view> bytes,
                                const CqlshFormatOptions& options = {});

// A non-null value as a CQL literal that EvaluateLiteral (`cql/parser/literal.h`) turns back into
// the same bytes for the same type: strings quoted with '' escapes, blobs 0x..., booleans
// true/false, floats in shortest round-trip form (NaN, Infinity, -Infinity), decimals keeping their
// scale (1.50, 1E3), timestamps as quoted ISO UTC ('2015-05-03T13:30:54.234Z'), dates, times and
// inet addresses quoted, durations as 1h30m (zero as 0s), collections, tuples and UDTs
// ({street: '1 Main', city: null}) in literal syntax. Empty values of types whose empty
// value has no literal print as null; bytes that do not decode print as raw hex.
std::string FormatValueAsCql(const CqlType& type, std::string_view bytes);

}  // namespace cql
