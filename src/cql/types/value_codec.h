// Native-protocol value serialization (native_protocol_v4.spec §6 and §7): builders that
// produce the bytes of a value, splitters that take composite values apart, and the
// validator that checks bytes from a client or from disk against a CqlType.
//
// Every CQL value is held in exactly this serialization (docs/dev/architecture.md §2): the engine
// stores it, the protocol sends it, and `cql/parser/literal.h`, `value_format.h`, `value_compare.h`
// and `storage/key_encoding.h` interpret it. The formats:
//   boolean 1 byte (0 = false); tinyint/smallint/int/bigint/counter 1/2/4/8-byte two's
//   complement; float/double IEEE 754 binary32/64; ascii/text/blob the bytes themselves;
//   varint/decimal see `big_number.h`; uuid/timeuuid 16 bytes; inet 4 or 16 bytes;
//   date/time/timestamp see `temporal.h`; duration three zig-zag [vint]s (months, days,
//   nanoseconds).
//   list/set: int32 count, then per element an int32 length and the bytes. Sets are sorted
//   by the element type's order without duplicates.
//   map: int32 count, then per entry the key and the value, each as above; sorted by key.
//   tuple/UDT: per field an int32 length (-1 = null) and the bytes; trailing fields may be
//   absent (= null), which is how a UDT value survives ALTER TYPE ADD.
//   vector<T, n>: for a fixed-length T (see `FixedValueLength`) the n elements concatenated;
//   otherwise each element prefixed by its length as an [unsigned vint] (Cassandra 5.0's
//   VectorType).
// Most native types also accept an empty (zero-length) value, which is not null; see
// ValidateValue for which.
//
// Errors are kInvalid with Cassandra's messages, which drivers and users match on.
//
// Thread-safety: stateless free functions; safe to call concurrently.

#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/types/temporal.h"
#include "cql/types/types.h"

namespace cql {

// Composite values nest at most this deep (a list of lists ... counts one level per type);
// deeper values are rejected rather than recursed into.
inline constexpr int kMaxValueNestingDepth = 256;

// --- Native types ----------------------------------------------------------------------

common::Bytes SerializeBoolean(bool value);
common::Bytes SerializeTinyint(int8_t value);
common::Bytes SerializeSmallint(int16_t value);
common::Bytes SerializeInt(int32_t value);
// Also the serialization of `counter` values.
common::Bytes SerializeBigint(int64_t value);
common::Bytes SerializeFloat(float value);
common::Bytes SerializeDouble(double value);
// `varint` from a machine integer; see big_number.h for arbitrary sizes.
common::Bytes SerializeVarint(int64_t value);
// `decimal` = unscaled * 10^-scale, e.g. SerializeDecimal(15, 1) is 1.5.
common::Bytes SerializeDecimal(int64_t unscaled, int32_t scale);
// Milliseconds since the Unix epoch.
common::Bytes SerializeTimestamp(int64_t millis);
// `days` in the serialized form: days since 1970-01-01 plus 2^31 (see temporal.h).
common::Bytes SerializeDate(uint32_t days);
// Nanoseconds since midnight.
common::Bytes SerializeTime(int64_t nanoseconds);
// REQUIRES: the three fields have one sign (Duration's invariant).
common::Bytes SerializeDuration(const Duration& duration);

common::Result<bool> DeserializeBoolean(std::string_view bytes);
common::Result<int8_t> DeserializeTinyint(std::string_view bytes);
common::Result<int16_t> DeserializeSmallint(std::string_view bytes);
common::Result<int32_t> DeserializeInt(std::string_view bytes);
// bigint, counter and timestamp.
common::Result<int64_t> DeserializeBigint(std::string_view bytes);
common::Result<float> DeserializeFloat(std::string_view bytes);
common::Result<double> DeserializeDouble(std::string_view bytes);
// Fails unless `bytes` holds exactly three [vint]s of which months and days fit 32 bits.
common::Result<Duration> DeserializeDuration(std::string_view bytes);

// The length every non-empty value of `type` has, or -1 when it varies: boolean 1, int and
// float 4, bigint, double and timestamp 8, uuid and timeuuid 16, a vector of a fixed-length
// type dimension * element length. This is Cassandra 5.0's valueLengthIfFixed, which decides
// how vectors are serialized; note that date, time, smallint and tinyint count as variable.
int FixedValueLength(const CqlType& type);

// --- Composite types -------------------------------------------------------------------

// A list or set value from serialized elements. Lists keep the given order; sets are sorted
// by `cql::CompareValues` on the element type and deduplicated, keeping the first of equal
// elements.
// REQUIRES: `type` is a list or a set (frozen or not).
common::Bytes SerializeCollection(const CqlType& type, std::vector<common::Bytes> elements);

// A map value from serialized (key, value) entries, sorted by key. When keys compare equal,
// the first key's bytes stay and the last value wins (as a CQL map literal: Cassandra puts
// entries in a TreeMap). REQUIRES: `type` is a map.
common::Bytes SerializeMap(const CqlType& type,
                           std::vector<std::pair<common::Bytes, common::Bytes>> entries);

// A tuple or UDT value: each field as [bytes], std::nullopt as null (-1). Fields are written
// as given: pass fewer than the type has to leave trailing fields absent.
common::Bytes SerializeTupleOrUdt(const std::vector<std::optional<common::Bytes>>& fields);

// A vector value. Fails with Cassandra's literal error when the element count is not the
// dimension or a fixed-length element has the wrong size.
// REQUIRES: `type` is a vector.
common::Result<common::Bytes> SerializeVector(const CqlType& type,
                                              const std::vector<common::Bytes>& elements);

struct MapEntryView {
  std::string_view key;
  std::string_view value;
};

// The element views of a serialized list or set (views into `bytes`). Checks the framing only
// (counts, lengths, trailing bytes; nulls are rejected), not the elements themselves. An
// empty value is an empty collection. REQUIRES: `type` is a list or a set (it names the
// collection in error messages).
common::Result<std::vector<std::string_view>> SplitListOrSet(const CqlType& type,
                                                             std::string_view bytes);
// The entries of a serialized map; framing checks as for SplitListOrSet.
common::Result<std::vector<MapEntryView>> SplitMap(std::string_view bytes);
// The fields of a serialized tuple or UDT: std::nullopt for null. Absent trailing fields are
// not included (the result may be shorter than the type). Fails when there are more than
// `field_count` fields or a length runs past the end.
common::Result<std::vector<std::optional<std::string_view>>> SplitTupleOrUdt(std::string_view bytes,
                                                                             size_t field_count);
// The `type.dimension()` elements of a serialized vector. Checks the framing only.
// REQUIRES: `type` is a vector.
common::Result<std::vector<std::string_view>> SplitVector(const CqlType& type,
                                                          std::string_view bytes);

// --- Validation ------------------------------------------------------------------------

// Checks that `bytes` is a well-formed non-null value of `type`, recursively, exactly as
// Cassandra's serializers validate values bound by clients. Returns OK or kInvalid with
// Cassandra's message ("Expected 4 or 0 byte int (3)", "String didn't validate.",
// "Invalid byte for ascii: -61", "Not enough bytes to read a list", ...).
// Zero-length values are accepted for the types Cassandra accepts them for: all native types
// except smallint, tinyint, date, time and duration; and sets, maps, tuples and UDTs (not
// lists or vectors). Never reads outside `bytes`, whatever counts and lengths it claims;
// values nested deeper than kMaxValueNestingDepth fail. Unresolved UDT references fail with
// kInternal (the catalogue must resolve types first).
common::Status ValidateValue(const CqlType& type, std::string_view bytes);

// Whether values of `type` have a canonical order to restore: it is, or contains, a set or map.
bool HasUnorderedParts(const CqlType& type);
// `bytes` in the canonical form literals get (SerializeCollection, SerializeMap): set elements
// sorted by the element type's order and deduplicated, map entries sorted by key (the last of
// equal keys wins), recursively inside lists, sets, maps, tuples and UDTs — so that a bound
// value stores, compares and keys as the literal does. REQUIRES: ValidateValue(type, bytes).
common::Result<common::Bytes> NormalizeValue(const CqlType& type, std::string_view bytes);

}  // namespace cql
