// CompareValues: Cassandra's sort order of serialized CQL values.
//
// Values are held in their native-protocol serialization (docs/dev/architecture.md §2). This file
// orders two such values of one type exactly as Cassandra's AbstractType comparators do: it
// decides the order of clustering rows, of set elements and map keys in collection values
// (value_codec), of results, and what `storage/key_encoding.h` must reproduce with plain memcmp.
//
// The order, per type (Cassandra's class in parentheses):
//   tinyint, smallint, int, bigint, counter, timestamp   signed numeric
//   date (SimpleDateType), time (TimeType)  unsigned byte order of the 4/8 bytes (dates are
//                          unsigned days with the epoch at 2^31; valid times are >= 0)
//   float, double          Java Float/Double.compare: -inf < ... < -0.0 < 0.0 < ... < +inf <
//                          NaN, all NaNs equal
//   boolean                false (0x00) < true (any other byte, all equal)
//   varint (IntegerType)   numeric, any encoding length
//   decimal (DecimalType)  numeric (BigDecimal.compareTo): 1.0 == 1.00
//   ascii, text, blob, inet, duration, custom types   unsigned bytes, a prefix first
//   uuid (UUIDType)        version nibble first; then for version 1 the 60-bit timestamp; for
//                          other versions the msb as unsigned; then the lsb as unsigned
//   timeuuid (TimeUUIDType)  the 60-bit timestamp (signed compare of the reordered msb), then
//                          the lsb bytes compared as *signed* bytes (CASSANDRA-8730)
//   list, set              element by element, then the shorter first
//   map                    key, then value, entry by entry, then the shorter first
//   tuple, UDT             field by field, a null field before a present one; trailing null
//                          fields are equal to absent ones (TupleType.compareCustom)
//   vector                 element by element
//
// Two rules apply to every type, at the top level and nested in collections, tuples, UDTs and
// vectors:
//   * An empty (zero-length) value sorts before every non-empty value (Cassandra's "empty
//     values" of native types).
//   * Malformed bytes (a wrong length for a fixed-size type, broken collection framing, more
//     tuple fields than the type has, a decimal without unscaled bytes...) never crash: they
//     sort after every well-formed value, and among themselves in unsigned byte order. Cassandra
//     never has to order such bytes (it validates first); this rule makes the order total and
//     lets `storage/key_encoding.h` reproduce it. A nested malformed element only affects that
//     element.
//
// Cost: linear in the value sizes, except decimals with different scales whose unscaled values
// exceed 8 bytes: those are compared in canonical form (canonical_decimal.h), quadratic in their
// number of digits.
//
// Thread-safety: pure functions.

#pragma once

#include <cstdint>
#include <string_view>

#include "cql/types/types.h"

namespace cql {

// Returns <0, 0 or >0 as `a` sorts before, equal to or after `b` in Cassandra's order for
// `type` (see the file comment). Both are protocol serializations of values of `type`
// (not null). Never fails; malformed input is ordered by the rules above.
// UDTs must be resolved (`IsResolved()`); an unresolved UDT reference orders as bytes.
int CompareValues(const CqlType& type, std::string_view a, std::string_view b);

// As above; with `reversed` the result is negated (ReversedType: a DESC clustering column).
int CompareValues(const CqlType& type, std::string_view a, std::string_view b, bool reversed);

// The three classes every value falls in, in their sort order.
enum class ValueClass : uint8_t {
  kEmpty = 0,       // zero-length
  kWellFormed = 1,  // a proper serialization of `type` (checks this level's framing only)
  kMalformed = 2,   // anything else
};

// The class of `value` as a serialization of `type`. Only the outermost level is checked:
// a list whose framing is fine is well-formed even if an element's bytes are malformed for the
// element type (that element is then ordered as a malformed element).
ValueClass ClassifyValue(const CqlType& type, std::string_view value);

// Unsigned lexicographic comparison of bytes, a strict prefix first: <0, 0, >0.
int CompareBytes(std::string_view a, std::string_view b);

// --- Order-preserving transforms shared with storage/key_encoding.h. Each maps a fixed-size
// value to an unsigned integer whose numeric order is the type's order. ---

// Java's Double.compare order for IEEE-754 binary64 `bits`: all NaNs map to the image of the
// canonical NaN 0x7ff8000000000000 (above +inf); -0.0 sorts just below 0.0.
uint64_t DoubleOrderKey(uint64_t bits);
// Java's Float.compare order for binary32 `bits` (canonical NaN 0x7fc00000).
uint32_t FloatOrderKey(uint32_t bits);

// UUIDType order of a 16-byte uuid given as its msb: the version nibble moved to the top, then
// for version 1 the timestamp fields (time_hi, time_mid, time_low), otherwise the remaining msb
// bits in place. A bijection; compare (key, lsb) as unsigned pairs.
uint64_t UuidMsbOrderKey(uint64_t msb);
// TimeUUIDType order: (TimeuuidMsbOrderKey(msb), TimeuuidLsbOrderKey(lsb)) compared as unsigned
// pairs. The msb key is the reordered timestamp with its sign bit flipped (Cassandra compares
// it signed); the lsb key flips the top bit of every byte (Cassandra compares the lsb bytes as
// signed bytes). Both are bijections (self-inverse for the lsb).
uint64_t TimeuuidMsbOrderKey(uint64_t msb);
uint64_t TimeuuidLsbOrderKey(uint64_t lsb);
// Cassandra's TimeUUIDType.reorderTimestampBytes (time_hi|version, time_mid, time_low) and its
// inverse.
uint64_t ReorderTimestampBytes(uint64_t msb);
uint64_t RestoreTimestampBytes(uint64_t reordered);

// The varint bytes with sign-redundant leading bytes (0x00 before a byte < 0x80, 0xFF before a
// byte >= 0x80) removed; the minimal two's-complement form. Empty input stays empty.
std::string_view TrimVarint(std::string_view varint);

}  // namespace cql
