#include "cql/types/canonical_decimal.h"

#include "cql/types/big_number.h"

namespace cql {

common::Result<CanonicalDecimal> CanonicalizeDecimal(std::string_view serialized) {
  if (serialized.size() < 5) {
    return common::Status::Invalid("decimal needs a 4-byte scale and an unscaled value");
  }
  auto scale = static_cast<int32_t>(common::LoadBigEndian32(serialized.data()));
  std::string text = VarintToText(serialized.substr(4));
  CanonicalDecimal out;
  std::string_view magnitude = text;
  if (!magnitude.empty() && magnitude.front() == '-') {
    out.sign = -1;
    magnitude.remove_prefix(1);
  } else {
    out.sign = 1;
  }
  if (magnitude == "0") return CanonicalDecimal{};
  out.exponent = static_cast<int64_t>(magnitude.size()) - scale;
  size_t last = magnitude.find_last_not_of('0');  // never npos: the magnitude is not zero
  out.digits = std::string(magnitude.substr(0, last + 1));
  return out;
}

int CompareCanonicalDecimals(const CanonicalDecimal& a, const CanonicalDecimal& b) {
  if (a.sign != b.sign) return a.sign < b.sign ? -1 : 1;
  if (a.sign == 0) return 0;
  int magnitude_order = 0;
  if (a.exponent != b.exponent) {
    magnitude_order = a.exponent < b.exponent ? -1 : 1;
  } else {
    int c = a.digits.compare(b.digits);  // a strict prefix is the smaller value
    magnitude_order = c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return a.sign > 0 ? magnitude_order : -magnitude_order;
}

common::Result<common::Bytes> DecimalFromCanonical(const CanonicalDecimal& value, int32_t scale,
                                                   int64_t max_digits) {
  std::string text;
  if (value.sign == 0) {
    if (!value.digits.empty() || value.exponent != 0) {
      return common::Status::Corruption("non-canonical decimal zero");
    }
    text = "0";
  } else {
    if (value.digits.empty() || value.digits.front() == '0' || value.digits.back() == '0' ||
        value.digits.find_first_not_of("0123456789") != std::string::npos ||
        (value.sign != 1 && value.sign != -1)) {
      return common::Status::Corruption("non-canonical decimal digits");
    }
    const auto digit_count = static_cast<int64_t>(value.digits.size());
    // `exponent` can be any int64 in a corrupt key: bound it before the arithmetic below.
    if (value.exponent > (int64_t{1} << 40) || value.exponent < -(int64_t{1} << 40)) {
      return common::Status::Corruption("decimal exponent out of range");
    }
    int64_t zeros = value.exponent + scale - digit_count;
    if (zeros < 0 || digit_count + zeros > max_digits) {
      return common::Status::Corruption("decimal digits do not fit its scale");
    }
    if (value.sign < 0) text.push_back('-');
    text += value.digits;
    text.append(static_cast<size_t>(zeros), '0');
  }
  auto unscaled = VarintFromText(text);
  if (!unscaled.ok()) return common::Status::Corruption("bad decimal digits");
  return DecimalFromParts(*unscaled, scale);
}

}  // namespace cql
