#include "cql/types/value_compare.h"

#include <cstring>
#include <optional>

#include "common/bytes.h"
#include "cql/types/canonical_decimal.h"
#include "cql/types/element_cursor.h"

namespace cql {
namespace {

int Sign(int64_t v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

template <typename T>
int CompareNumbers(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

// A fixed-size big-endian two's-complement integer of 1..8 bytes, sign-extended.
int64_t LoadSigned(std::string_view v) {
  uint64_t u = 0;
  for (char c : v) u = (u << 8) | static_cast<unsigned char>(c);
  const int unused_bits = 64 - 8 * static_cast<int>(v.size());
  if (unused_bits == 0) return static_cast<int64_t>(u);
  // Arithmetic right shift of a left-justified value sign-extends (defined in C++20).
  return static_cast<int64_t>(u << unused_bits) >> unused_bits;
}

bool IsTupleLike(const CqlType& type) {
  return type.kind() == TypeKind::kTuple || (type.kind() == TypeKind::kUdt && type.IsResolved());
}

int CompareVarints(std::string_view a, std::string_view b) {
  a = TrimVarint(a);
  b = TrimVarint(b);
  const bool a_negative = (static_cast<unsigned char>(a[0]) & 0x80) != 0;
  const bool b_negative = (static_cast<unsigned char>(b[0]) & 0x80) != 0;
  if (a_negative != b_negative) return a_negative ? -1 : 1;
  if (a.size() != b.size()) {
    // Minimal encodings: more bytes means a larger magnitude.
    const int longer_is_larger = a.size() > b.size() ? 1 : -1;
    return a_negative ? -longer_is_larger : longer_is_larger;
  }
  return CompareBytes(a, b);  // same sign and length: two's complement orders as unsigned
}

int CompareDecimals(std::string_view a, std::string_view b) {
  const auto scale_a = static_cast<int32_t>(common::LoadBigEndian32(a.data()));
  const auto scale_b = static_cast<int32_t>(common::LoadBigEndian32(b.data()));
  std::string_view unscaled_a = TrimVarint(a.substr(4));
  std::string_view unscaled_b = TrimVarint(b.substr(4));
  if (scale_a == scale_b) return CompareVarints(unscaled_a, unscaled_b);
  // Fast path: both unscaled values fit in 64 bits and the scales are close, so one side can
  // be rescaled exactly in 128-bit arithmetic.
  const int64_t scale_difference = int64_t{scale_b} - scale_a;
  if (unscaled_a.size() <= 8 && unscaled_b.size() <= 8 && scale_difference >= -18 &&
      scale_difference <= 18) {
    __int128 x = LoadSigned(unscaled_a);
    __int128 y = LoadSigned(unscaled_b);
    __int128 factor = 1;
    for (int64_t i = 0; i < (scale_difference < 0 ? -scale_difference : scale_difference); ++i) {
      factor *= 10;
    }
    if (scale_difference > 0) {
      x *= factor;  // a has the smaller scale: bring it to b's
    } else {
      y *= factor;
    }
    return CompareNumbers(x, y);
  }
  auto canonical_a = CanonicalizeDecimal(a);
  auto canonical_b = CanonicalizeDecimal(b);
  if (!canonical_a.ok() || !canonical_b.ok()) return CompareBytes(a, b);  // unreachable
  return CompareCanonicalDecimals(*canonical_a, *canonical_b);
}

int CompareUuids(std::string_view a, std::string_view b) {
  const uint64_t msb_a = common::LoadBigEndian64(a.data());
  const uint64_t msb_b = common::LoadBigEndian64(b.data());
  int c = CompareNumbers(UuidMsbOrderKey(msb_a), UuidMsbOrderKey(msb_b));
  if (c != 0) return c;
  return CompareNumbers(common::LoadBigEndian64(a.data() + 8),
                        common::LoadBigEndian64(b.data() + 8));
}

int CompareTimeuuids(std::string_view a, std::string_view b) {
  int c = CompareNumbers(TimeuuidMsbOrderKey(common::LoadBigEndian64(a.data())),
                         TimeuuidMsbOrderKey(common::LoadBigEndian64(b.data())));
  if (c != 0) return c;
  return CompareNumbers(TimeuuidLsbOrderKey(common::LoadBigEndian64(a.data() + 8)),
                        TimeuuidLsbOrderKey(common::LoadBigEndian64(b.data() + 8)));
}

// Compares two items of a composite value: null first, then CompareValues.
int CompareItems(const CqlType& type, const std::optional<std::string_view>& a,
                 const std::optional<std::string_view>& b) {
  if (!a.has_value() || !b.has_value()) return CompareNumbers(a.has_value(), b.has_value());
  return CompareValues(type, *a, *b);
}

// Lists, sets, maps and vectors: item by item (`types[i % types.size()]` types item i), then
// the cursor that ran out first is the smaller.
int CompareSequences(ElementCursor cursor_a, ElementCursor cursor_b, const CqlType& first_type,
                     const CqlType& second_type) {
  std::optional<std::string_view> item_a;
  std::optional<std::string_view> item_b;
  while (true) {
    const bool has_a = cursor_a.Next(&item_a);
    const bool has_b = cursor_b.Next(&item_b);
    if (!has_a || !has_b) return CompareNumbers(has_a, has_b);
    const CqlType& type = (cursor_a.position() % 2 == 1) ? first_type : second_type;
    int c = CompareItems(type, item_a, item_b);
    if (c != 0) return c;
  }
}

// Tuples and UDTs: field by field with Cassandra's trailing-null rule.
int CompareTuples(const CqlType& type, std::string_view a, std::string_view b) {
  ElementCursor cursor_a = ElementCursor::Tuple(a);
  ElementCursor cursor_b = ElementCursor::Tuple(b);
  std::optional<std::string_view> field_a;
  std::optional<std::string_view> field_b;
  for (const CqlType& field_type : type.params()) {
    const bool has_a = cursor_a.Next(&field_a);
    const bool has_b = cursor_b.Next(&field_b);
    if (!has_a && !has_b) return 0;
    // An absent field is equal to a null one.
    if (!has_a) field_a.reset();
    if (!has_b) field_b.reset();
    int c = CompareItems(field_type, field_a, field_b);
    if (c != 0) return c;
  }
  return 0;
}

int CompareWellFormed(const CqlType& type, std::string_view a, std::string_view b) {
  switch (type.kind()) {
    case TypeKind::kBoolean:
      return CompareNumbers(a[0] != 0, b[0] != 0);
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInt:
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kTimestamp:
      return CompareNumbers(LoadSigned(a), LoadSigned(b));
    case TypeKind::kFloat:
      return CompareNumbers(FloatOrderKey(common::LoadBigEndian32(a.data())),
                            FloatOrderKey(common::LoadBigEndian32(b.data())));
    case TypeKind::kDouble:
      return CompareNumbers(DoubleOrderKey(common::LoadBigEndian64(a.data())),
                            DoubleOrderKey(common::LoadBigEndian64(b.data())));
    case TypeKind::kUuid:
      return CompareUuids(a, b);
    case TypeKind::kTimeuuid:
      return CompareTimeuuids(a, b);
    case TypeKind::kVarint:
      return CompareVarints(a, b);
    case TypeKind::kDecimal:
      return CompareDecimals(a, b);
    case TypeKind::kList:
    case TypeKind::kSet:
      return CompareSequences(ElementCursor::Collection(a, 1), ElementCursor::Collection(b, 1),
                              type.element(), type.element());
    case TypeKind::kMap:
      return CompareSequences(ElementCursor::Collection(a, 2), ElementCursor::Collection(b, 2),
                              type.key(), type.value());
    case TypeKind::kVector: {
      const size_t fixed = VectorElementFixedSize(type.element());
      return CompareSequences(ElementCursor::Vector(a, type.dimension(), fixed),
                              ElementCursor::Vector(b, type.dimension(), fixed), type.element(),
                              type.element());
    }
    case TypeKind::kTuple:
    case TypeKind::kUdt:
      if (IsTupleLike(type)) return CompareTuples(type, a, b);
      return CompareBytes(a, b);
    default:  // text, ascii, blob, inet, date, time, duration, custom
      return CompareBytes(a, b);
  }
}

bool SequenceIsWellFormed(ElementCursor cursor) {
  std::optional<std::string_view> item;
  while (cursor.Next(&item)) {
  }
  return !cursor.malformed();
}

}  // namespace

int CompareBytes(std::string_view a, std::string_view b) {
  const size_t common_size = a.size() < b.size() ? a.size() : b.size();
  int c = common_size == 0 ? 0 : std::memcmp(a.data(), b.data(), common_size);
  if (c != 0) return c < 0 ? -1 : 1;
  return CompareNumbers(a.size(), b.size());
}

std::string_view TrimVarint(std::string_view varint) {
  size_t start = 0;
  while (start + 1 < varint.size()) {
    const auto first = static_cast<unsigned char>(varint[start]);
    const auto next = static_cast<unsigned char>(varint[start + 1]);
    if ((first == 0x00 && next < 0x80) || (first == 0xFF && next >= 0x80)) {
      ++start;
    } else {
      break;
    }
  }
  return varint.substr(start);
}

uint64_t DoubleOrderKey(uint64_t bits) {
  constexpr uint64_t kSignBit = uint64_t{1} << 63;
  const bool is_nan = (bits & 0x7FF0000000000000ULL) == 0x7FF0000000000000ULL &&
                      (bits & 0x000FFFFFFFFFFFFFULL) != 0;
  if (is_nan) bits = 0x7FF8000000000000ULL;
  return (bits & kSignBit) ? ~bits : bits ^ kSignBit;
}

uint32_t FloatOrderKey(uint32_t bits) {
  constexpr uint32_t kSignBit = uint32_t{1} << 31;
  const bool is_nan = (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0;
  if (is_nan) bits = 0x7FC00000u;
  return (bits & kSignBit) ? ~bits : bits ^ kSignBit;
}

uint64_t ReorderTimestampBytes(uint64_t msb) {
  return (msb << 48) | ((msb << 16) & 0xFFFF00000000ULL) | (msb >> 32);
}

uint64_t RestoreTimestampBytes(uint64_t reordered) {
  return (reordered << 32) | ((reordered >> 16) & 0xFFFF0000ULL) | (reordered >> 48);
}

uint64_t UuidMsbOrderKey(uint64_t msb) {
  const uint64_t version = (msb >> 12) & 0xF;
  if (version == 1) return ReorderTimestampBytes(msb);  // its top nibble is the version
  return (version << 60) | ((msb >> 4) & 0x0FFFFFFFFFFFF000ULL) | (msb & 0xFFFULL);
}

uint64_t TimeuuidMsbOrderKey(uint64_t msb) {
  return ReorderTimestampBytes(msb) ^ (uint64_t{1} << 63);
}

uint64_t TimeuuidLsbOrderKey(uint64_t lsb) { return lsb ^ 0x8080808080808080ULL; }

ValueClass ClassifyValue(const CqlType& type, std::string_view value) {
  if (value.empty()) return ValueClass::kEmpty;
  bool well_formed = true;
  switch (type.kind()) {
    case TypeKind::kDecimal:
      well_formed = value.size() >= 5;
      break;
    case TypeKind::kList:
    case TypeKind::kSet:
      well_formed = SequenceIsWellFormed(ElementCursor::Collection(value, 1));
      break;
    case TypeKind::kMap:
      well_formed = SequenceIsWellFormed(ElementCursor::Collection(value, 2));
      break;
    case TypeKind::kVector:
      well_formed = SequenceIsWellFormed(
          ElementCursor::Vector(value, type.dimension(), VectorElementFixedSize(type.element())));
      break;
    case TypeKind::kTuple:
    case TypeKind::kUdt: {
      if (!IsTupleLike(type)) break;  // unresolved UDT: bytes
      ElementCursor cursor = ElementCursor::Tuple(value);
      std::optional<std::string_view> field;
      while (cursor.Next(&field)) {
      }
      well_formed =
          !cursor.malformed() && cursor.position() <= static_cast<int64_t>(type.params().size());
      break;
    }
    default: {
      const size_t fixed = FixedValueSize(type.kind());
      well_formed = fixed == 0 || value.size() == fixed;
      break;
    }
  }
  return well_formed ? ValueClass::kWellFormed : ValueClass::kMalformed;
}

int CompareValues(const CqlType& type, std::string_view a, std::string_view b) {
  const ValueClass class_a = ClassifyValue(type, a);
  const ValueClass class_b = ClassifyValue(type, b);
  if (class_a != class_b) return class_a < class_b ? -1 : 1;
  switch (class_a) {
    case ValueClass::kEmpty:
      return 0;
    case ValueClass::kMalformed:
      return CompareBytes(a, b);
    case ValueClass::kWellFormed:
      break;
  }
  return Sign(CompareWellFormed(type, a, b));
}

int CompareValues(const CqlType& type, std::string_view a, std::string_view b, bool reversed) {
  int c = CompareValues(type, a, b);
  return reversed ? -c : c;
}

}  // namespace cql
