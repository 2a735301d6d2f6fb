// Order-preserving key encoding: the bytes of RocksDB keys (docs/dev/storage_format.md).
//
// A storage key is `EncodeToken(token) ‖ partition-key components ‖ section ‖ clustering
// components ‖ ...`. Each component is a CQL value in its native-protocol serialization,
// transcoded here so that plain `memcmp` of keys sorts like Cassandra's comparators:
//
//   sign(memcmp(Enc(a), Enc(b))) == sign(CompareValues(type, a, b))      (ascending)
//   sign(memcmp(Enc(a), Enc(b))) == -sign(CompareValues(type, a, b))     (descending)
//
// whenever CompareValues(a, b) != 0 (see "Equal values" below for == 0). Every encoding is
// self-delimiting and prefix-free (no component's encoding is a proper prefix of another's), so
// concatenated components sort like tuples of values, lexicographically, and a reader can split
// them again (`ReadKeyComponent` returns the original protocol bytes).
//
// ---------------------------------------------------------------------------------------------
// Byte format (ascending; a DESC component is the same bytes with every byte inverted, ~b).
//
// component  := order-part recovery-part
//   The order part decides the sort order; the recovery part holds what the order part drops
//   but the protocol bytes need (decimal scales, counts of trailing null tuple fields). The
//   recovery part of a component comes after its whole order part, so it can only break ties
//   between values that compare equal. It is empty unless the type contains a decimal, tuple or
//   UDT. Items of the recovery part appear in the order the values are visited (depth first,
//   left to right; a tuple's own item after its fields').
//
// order-part := 0x02                                  empty (zero-length) value
//            |  0x03 payload                          well-formed value (see below)
//            |  0x04 escaped(raw bytes)               malformed value (value_compare.h)
// Nested items of collections/tuples/UDTs also use 0x01 = null and 0x00 = end of items. So the
// first byte of any component is in [0x02, 0x04] ascending and [0xFB, 0xFD] descending: a
// range scan can use 0x00/0x01 as "before any component" and 0xFE/0xFF as "after any".
//
// escaped(b) := b with each 0x00 written as 0x00 0xFF, then the terminator 0x00 0x00.
//
// payload, by type:
//   ascii, text, blob, inet, duration, custom, unresolved UDT
//                      escaped(bytes)
//   boolean            1 byte: 0x00 false, 0x01 true (any non-zero byte is true)
//   tinyint, smallint, int, bigint, counter, timestamp
//                      the big-endian bytes with the sign bit flipped (1/2/4/8 bytes)
//   date, time         the 4/8 bytes unchanged (Cassandra orders them as unsigned)
//   float, double      IEEE bits with NaN canonicalized; if the sign bit is set all bits
//                      inverted, else the sign bit flipped (4/8 bytes)
//   uuid               K (8 bytes) then the 8 lsb bytes unchanged, where with v = the version
//                      nibble (msb bits 12..15; see UuidMsbOrderKey):
//                        v == 1: K = msb bits 15..0 (version, time_hi) ‖ 31..16 (time_mid) ‖
//                                    63..32 (time_low), i.e. the timestamp, most significant first
//                        v != 1: K = v (4 bits) ‖ msb bits 63..16 ‖ msb bits 11..0
//   timeuuid           the v == 1 form of K with its top bit flipped, then the 8 lsb bytes each
//                      with its top bit flipped (Cassandra compares them as signed bytes)
//   varint             with T = the minimal two's-complement bytes, L = |T|:
//                        0x01 ~len(L) T   negative
//                        0x02             zero
//                        0x03 len(L) T    positive
//                      where len(L) = 1 byte L when L < 0x80, else 0x80|n then L in n
//                      big-endian bytes (n minimal, 1..8); so more bytes = larger magnitude.
//   decimal            value = sign * 0.d1..dn * 10^E, d1 != 0, dn != 0 (CanonicalDecimal):
//                        0x01 ~(E' D)     negative
//                        0x02             zero
//                        0x03 E' D        positive
//                      E' = the varint payload (above) of E as a 64-bit integer;
//                      D = digit pairs d(2i+1)d(2i+2) as one byte 10*d1+d2+1 (1..100), an odd
//                      count padded with a 0 digit, then 0x00.
//                      recovery: the 4-byte big-endian scale.
//   list, set          items then 0x00
//   map                key item, value item, ... then 0x00
//                      item := 0x01 (null) | component order-part of the element type
//   tuple, UDT         fields up to the last non-null one as items, then 0x00
//                      recovery: len(number of trailing null fields that were present)
//   vector             `dimension` element order-parts, no terminator
//
// Equal values. Values that compare equal but differ in bytes get different keys, ordered by
// the recovery part: decimals that differ only in scale (1.0, 1.00), tuples/UDTs that differ
// only in trailing null fields. Cassandra would treat them as one clustering; we keep both,
// which is the price of returning the exact original bytes (a canonical-only encoding would
// lose the scale the user wrote). Representations that carry no user-visible meaning are
// canonicalized instead, so decoding returns the canonical bytes: a boolean true is 0x01, a
// varint (and a decimal's unscaled value) is minimal, a NaN is 0x7fc00000 / 0x7ff8000000000000.
//
// EncodeToken(t) = the 8 big-endian bytes of t with the sign bit flipped.
// ---------------------------------------------------------------------------------------------
//
// Thread-safety: pure functions.

#pragma once

#include <cstdint>
#include <string_view>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/types/types.h"

namespace storage {

// The most unscaled digits the decimals of one key component may add up to when decoded. A key
// component is at most 65535 bytes, whose varints hold at most ~157,800 digits; the budget is
// per component, not per decimal, because a short corrupt or forged key (a paging state comes
// from the client) can otherwise name many decimals of this size, each costing a quadratic
// digit conversion.
inline constexpr int64_t kMaxDecimalDigits = 200000;

// Appends the order-preserving encoding of `value` (a protocol serialization of `type`, not
// null) to `*out`; with `descending` every appended byte is inverted. Never fails: malformed
// values get the malformed encoding. Values of every type can be encoded, also those CQL does
// not allow in keys (counter, duration, non-frozen collections as their protocol bytes).
void AppendKeyComponent(const cql::CqlType& type, std::string_view value, bool descending,
                        common::Bytes* out);

// Reads one component written by AppendKeyComponent(type, ..., descending, ...) from the front
// of `*in`, advances `*in` past it and returns the protocol bytes of the value (equal to the
// encoded ones, except for the canonicalized representations listed above).
// Fails with Corruption, leaving `*in` unchanged, when the bytes are not a valid encoding.
common::Result<common::Bytes> ReadKeyComponent(const cql::CqlType& type, bool descending,
                                               std::string_view* in);

// The 8-byte key prefix of a partition token: big-endian with the sign bit flipped, so that
// memcmp order is signed token order.
common::Bytes EncodeToken(int64_t token);

// Inverse of EncodeToken over the first 8 bytes of `key`. Fails with Corruption when `key` is
// shorter than 8 bytes.
common::Result<int64_t> DecodeToken(std::string_view key);

}  // namespace storage
