// CanonicalDecimal: one representation per numeric value of a CQL `decimal`, so that values
// that Cassandra's DecimalType (Java BigDecimal.compareTo) considers equal, such as 1.0 and
// 1.00, become identical and values can be ordered field by field.
//
// Used by `value_compare.cc` (the general path of decimal comparison) and by
// `storage/key_encoding.cc` (the order-preserving key bytes of decimals). A decimal's protocol
// bytes are a 4-byte scale and a varint unscaled value (native_protocol_v4.spec §6.6): value =
// unscaled * 10^-scale.
//
// Canonical form: value = sign * 0.d1 d2 ... dn * 10^exponent with d1 != 0 and dn != 0 (digits
// are the unscaled magnitude's decimal digits with trailing zeros removed). Zero has sign 0, no
// digits and exponent 0.
//
// Cost: conversion is quadratic in the number of digits (it goes through decimal text); fine
// for key-sized values (a 64 KB unscaled value has ~158,000 digits).
//
// Thread-safety: value types and pure functions.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/bytes.h"
#include "common/result.h"

namespace cql {

struct CanonicalDecimal {
  int sign = 0;          // -1, 0 or +1
  int64_t exponent = 0;  // 0 when sign == 0
  std::string digits;    // ASCII '1'..'9' first and last; empty when sign == 0

  bool operator==(const CanonicalDecimal&) const = default;
};

// The canonical form of decimal protocol bytes.
// REQUIRES: serialized.size() >= 5 (scale plus at least one unscaled byte); shorter input
// yields Invalid.
common::Result<CanonicalDecimal> CanonicalizeDecimal(std::string_view serialized);

// <0, 0, >0 as the numeric values compare.
int CompareCanonicalDecimals(const CanonicalDecimal& a, const CanonicalDecimal& b);

// The protocol bytes with the given `scale` whose value is `value`: unscaled = digits followed by
// (exponent + scale - digits.size()) zeros. Fails with Corruption when that count is negative
// (the value is not representable with `scale`) or the result would exceed `max_digits` digits,
// or `value` is not canonical. The key decoder passes what its component's budget has left
// (storage/key_encoding.h `kMaxDecimalDigits`).
common::Result<common::Bytes> DecimalFromCanonical(const CanonicalDecimal& value, int32_t scale,
                                                   int64_t max_digits);

// The number of unscaled digits DecimalFromCanonical(value, scale, ...) builds (1 for zero).
// REQUIRES: DecimalFromCanonical(value, scale, ...) succeeded.
inline int64_t UnscaledDigitCount(const CanonicalDecimal& value, int32_t scale) {
  return value.sign == 0 ? 1 : value.exponent + scale;
}

}  // namespace cql
