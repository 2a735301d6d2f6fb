// Test-only: random CQL types and random serialized values (native_protocol_v4.spec §6), for
// property tests of value ordering (value_compare_test.cc) and key encoding
// (storage/key_encoding_test.cc). Header-only; include it from *_test.cc files only.
//
// Values are serialized directly with ByteWriter (no dependency on value_codec). Generators
// favour edge values and small domains so that random pairs are often equal or adjacent: type
// minima/maxima, -0.0, NaN, strings made of 0x00/0x01/0x7f/0x80/0xff bytes, varints at byte
// boundaries, decimals that are equal under different scales, nested empties and nulls.
//
// With `canonical_only` false, values also use representations that carry no meaning and that
// the key encoding canonicalizes (booleans other than 0x01 for true, NaN payloads, varints with
// redundant sign bytes).
//
// Thread-safety: a RandomValues object belongs to one thread.

#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "cql/types/element_cursor.h"
#include "cql/types/types.h"

namespace cql::testing {

// --- Direct serializers. ---

inline common::Bytes SerializeFixed(uint64_t value, int size) {
  common::Bytes out;
  for (int i = size - 1; i >= 0; --i) out.push_back(static_cast<char>(value >> (8 * i)));
  return out;
}

inline common::Bytes SerializeInt(int32_t v) { return SerializeFixed(static_cast<uint32_t>(v), 4); }
inline common::Bytes SerializeBigint(int64_t v) {
  return SerializeFixed(static_cast<uint64_t>(v), 8);
}
inline common::Bytes SerializeDouble(double v) {
  return SerializeFixed(std::bit_cast<uint64_t>(v), 8);
}
inline common::Bytes SerializeFloat(float v) {
  return SerializeFixed(std::bit_cast<uint32_t>(v), 4);
}

// Minimal two's-complement varint of a 64-bit value.
inline common::Bytes SerializeVarint(int64_t v) {
  common::Bytes out = SerializeBigint(v);
  size_t start = 0;
  while (start + 1 < out.size()) {
    auto first = static_cast<unsigned char>(out[start]);
    auto next = static_cast<unsigned char>(out[start + 1]);
    if ((first == 0 && next < 0x80) || (first == 0xFF && next >= 0x80)) {
      ++start;
    } else {
      break;
    }
  }
  return out.substr(start);
}

inline common::Bytes SerializeDecimal(int32_t scale, std::string_view unscaled_varint) {
  common::ByteWriter writer;
  writer.PutI32(scale);
  writer.PutRaw(unscaled_varint);
  return writer.Release();
}

// A list/set (`items` elements) or map (`items` = key, value, key, value...) value;
// `entries` is the element/entry count written in front.
inline common::Bytes SerializeCollection(const std::vector<std::optional<common::Bytes>>& items,
                                         int32_t entries) {
  common::ByteWriter writer;
  writer.PutI32(entries);
  for (const auto& item : items) {
    if (item.has_value()) {
      writer.PutIntBytes(*item);
    } else {
      writer.PutNullIntBytes();
    }
  }
  return writer.Release();
}

inline common::Bytes SerializeTuple(const std::vector<std::optional<common::Bytes>>& fields) {
  common::ByteWriter writer;
  for (const auto& field : fields) {
    if (field.has_value()) {
      writer.PutIntBytes(*field);
    } else {
      writer.PutNullIntBytes();
    }
  }
  return writer.Release();
}

inline common::Bytes SerializeVector(const CqlType& vector_type,
                                     const std::vector<common::Bytes>& elements) {
  common::ByteWriter writer;
  const bool fixed = VectorElementFixedSize(vector_type.element()) > 0;
  for (const auto& element : elements) {
    if (!fixed) writer.PutUnsignedVInt(element.size());
    writer.PutRaw(element);
  }
  return writer.Release();
}

// --- Random generation. ---

class RandomValues {
 public:
  explicit RandomValues(uint64_t seed, bool canonical_only = true)
      : engine_(seed), canonical_only_(canonical_only) {}

  std::mt19937_64& engine() { return engine_; }
  // Uniform in [lo, hi].
  int64_t Uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(engine_);
  }
  uint64_t Bits() { return engine_(); }
  bool OneIn(int n) { return Uniform(1, n) == 1; }
  template <typename T>
  const T& Pick(const std::vector<T>& options) {
    return options[static_cast<size_t>(Uniform(0, static_cast<int64_t>(options.size()) - 1))];
  }

  // The native types allowed in primary keys (no counter, no duration).
  std::vector<CqlType> NativeKeyTypes() const {
    return {CqlType::Ascii(), CqlType::Bigint(),    CqlType::Blob(),     CqlType::Boolean(),
            CqlType::Date(),  CqlType::Decimal(),   CqlType::Double(),   CqlType::Float(),
            CqlType::Inet(),  CqlType::Int(),       CqlType::Smallint(), CqlType::Text(),
            CqlType::Time(),  CqlType::Timestamp(), CqlType::Timeuuid(), CqlType::Tinyint(),
            CqlType::Uuid(),  CqlType::Varint()};
  }

  // A random type usable in a primary key: a native key type, or (while depth > 0) a frozen
  // list/set/map, tuple, frozen UDT or vector of such types.
  CqlType KeyType(int depth) {
    if (depth <= 0 || Uniform(0, 9) < 5) return Pick(NativeKeyTypes());
    switch (Uniform(0, 5)) {
      case 0:
        return CqlType::List(KeyType(depth - 1), /*frozen=*/true);
      case 1:
        return CqlType::Set(KeyType(depth - 1), /*frozen=*/true);
      case 2:
        return CqlType::Map(KeyType(depth - 1), KeyType(depth - 1), /*frozen=*/true);
      case 3: {
        std::vector<CqlType> fields;
        for (int64_t i = Uniform(1, 3); i > 0; --i) fields.push_back(KeyType(depth - 1));
        return CqlType::Tuple(std::move(fields));
      }
      case 4: {
        std::vector<CqlType> fields;
        std::vector<std::string> names;
        for (int64_t i = Uniform(1, 3); i > 0; --i) {
          fields.push_back(KeyType(depth - 1));
          names.push_back("f" + std::to_string(names.size()));
        }
        return CqlType::Udt("ks", "udt", std::move(names), std::move(fields), /*frozen=*/true);
      }
      default:
        return CqlType::Vector(KeyType(depth - 1), static_cast<int32_t>(Uniform(1, 3)));
    }
  }

  // A well-formed value of `type`, or (one time in `empty_one_in`) the empty value.
  common::Bytes ValueOrEmpty(const CqlType& type, int empty_one_in = 12) {
    if (OneIn(empty_one_in)) return "";
    return Value(type);
  }

  // A well-formed, non-empty (except possibly text/blob-like) value of `type`.
  common::Bytes Value(const CqlType& type) {
    switch (type.kind()) {
      case TypeKind::kBoolean:
        if (!canonical_only_ && OneIn(3)) return std::string(1, static_cast<char>(Uniform(2, 255)));
        return std::string(1, OneIn(2) ? '\x01' : '\x00');
      case TypeKind::kTinyint:
        return SerializeFixed(static_cast<uint64_t>(Integer(8)), 1);
      case TypeKind::kSmallint:
        return SerializeFixed(static_cast<uint64_t>(Integer(16)), 2);
      case TypeKind::kInt:
      case TypeKind::kDate:
        return SerializeFixed(static_cast<uint64_t>(Integer(32)), 4);
      case TypeKind::kBigint:
      case TypeKind::kCounter:
      case TypeKind::kTimestamp:
      case TypeKind::kTime:
        return SerializeBigint(Integer(64));
      case TypeKind::kFloat:
        return SerializeFixed(FloatBits(), 4);
      case TypeKind::kDouble:
        return SerializeFixed(DoubleBits(), 8);
      case TypeKind::kUuid:
      case TypeKind::kTimeuuid:
        return UuidBytes(type.kind() == TypeKind::kTimeuuid);
      case TypeKind::kVarint:
        return Varint();
      case TypeKind::kDecimal:
        return Decimal();
      case TypeKind::kInet:
        return ByteString(OneIn(2) ? 4 : 16);
      case TypeKind::kDuration: {
        common::ByteWriter writer;
        for (int i = 0; i < 3; ++i) writer.PutVInt(Uniform(-3, 3));
        return writer.Release();
      }
      case TypeKind::kList:
      case TypeKind::kSet: {
        std::vector<std::optional<common::Bytes>> items;
        const int64_t count = Uniform(0, 4);
        for (int64_t i = 0; i < count; ++i) items.push_back(Item(type.element()));
        return SerializeCollection(items, static_cast<int32_t>(count));
      }
      case TypeKind::kMap: {
        std::vector<std::optional<common::Bytes>> items;
        const int64_t count = Uniform(0, 3);
        for (int64_t i = 0; i < count; ++i) {
          items.push_back(Item(type.key()));
          items.push_back(Item(type.value()));
        }
        return SerializeCollection(items, static_cast<int32_t>(count));
      }
      case TypeKind::kTuple:
      case TypeKind::kUdt: {
        if (!type.IsResolved()) return ByteString(Uniform(1, 6));
        std::vector<std::optional<common::Bytes>> fields;
        for (const CqlType& field_type : type.params()) {
          fields.push_back(OneIn(4) ? std::nullopt : std::optional(ValueOrEmpty(field_type)));
        }
        // Sometimes leave out trailing fields (values written before ALTER TYPE ... ADD).
        if (OneIn(4))
          fields.resize(static_cast<size_t>(Uniform(0, static_cast<int64_t>(fields.size()))));
        common::Bytes out = SerializeTuple(fields);
        return out.empty() ? SerializeTuple({std::nullopt}) : out;
      }
      case TypeKind::kVector: {
        std::vector<common::Bytes> elements;
        const bool fixed = VectorElementFixedSize(type.element()) > 0;
        for (int32_t i = 0; i < type.dimension(); ++i) {
          elements.push_back(fixed ? Value(type.element()) : ValueOrEmpty(type.element()));
        }
        return SerializeVector(type, elements);
      }
      default:  // ascii, text, blob, custom
        return ByteString(Length());
    }
  }

  // Bytes that are not a well-formed serialization of `type` (and not empty), or std::nullopt
  // when every non-empty byte string is well-formed for it (text, blob, varint...).
  std::optional<common::Bytes> Malformed(const CqlType& type) {
    const size_t fixed = FixedValueSize(type.kind());
    if (fixed > 0) {
      size_t size = static_cast<size_t>(Uniform(1, static_cast<int64_t>(fixed) + 3));
      if (size == fixed) ++size;
      return ByteString(size);
    }
    switch (type.kind()) {
      case TypeKind::kDecimal:
        return ByteString(static_cast<size_t>(Uniform(1, 4)));
      case TypeKind::kList:
      case TypeKind::kSet:
      case TypeKind::kMap:
      case TypeKind::kVector:
      case TypeKind::kTuple:
      case TypeKind::kUdt: {
        if ((type.kind() == TypeKind::kUdt && !type.IsResolved())) return std::nullopt;
        common::Bytes good = Value(type);
        if (type.kind() == TypeKind::kTuple || type.kind() == TypeKind::kUdt) {
          // One field more than the type has, or a truncated length.
          if (OneIn(2)) {
            std::vector<std::optional<common::Bytes>> fields(type.params().size() + 1,
                                                             common::Bytes("x"));
            return SerializeTuple(fields);
          }
          return good + common::Bytes("\x00\x00", 2);
        }
        if (OneIn(2) && good.size() > 1) return good.substr(0, good.size() - 1);
        return good + "\x07";
      }
      default:
        return std::nullopt;
    }
  }

 private:
  std::optional<common::Bytes> Item(const CqlType& type) {
    if (OneIn(25)) return std::nullopt;  // Cassandra never stores these; we order them anyway
    return ValueOrEmpty(type);
  }

  size_t Length() {
    switch (Uniform(0, 9)) {
      case 0:
        return static_cast<size_t>(Uniform(20, 300));
      case 1:
        return 0;
      default:
        return static_cast<size_t>(Uniform(1, 4));
    }
  }

  common::Bytes ByteString(size_t length) {
    static const std::vector<unsigned char> kAlphabet = {0x00, 0x01, 0x61, 0x62,
                                                         0x7F, 0x80, 0xFE, 0xFF};
    common::Bytes out;
    const bool arbitrary = OneIn(4);
    for (size_t i = 0; i < length; ++i) {
      out.push_back(
          static_cast<char>(arbitrary ? static_cast<unsigned char>(Bits()) : Pick(kAlphabet)));
    }
    return out;
  }

  // A `bits`-bit two's-complement integer, biased to edges and small values.
  int64_t Integer(int bits) {
    const int64_t max =
        bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
    const int64_t min = -max - 1;
    switch (Uniform(0, 5)) {
      case 0:
        return Pick(std::vector<int64_t>{min, min + 1, -1, 0, 1, max - 1, max});
      case 1:
      case 2:
        return Uniform(-3, 3);
      default:
        return Uniform(min, max);
    }
  }

  uint64_t DoubleBits() {
    if (!canonical_only_ && OneIn(8)) {
      // A NaN with a random payload and sign.
      return 0x7FF0000000000000ULL | (Bits() & 0x800FFFFFFFFFFFFFULL) | 1;
    }
    const double kInf = std::numeric_limits<double>::infinity();
    switch (Uniform(0, 3)) {
      case 0:
        return std::bit_cast<uint64_t>(Pick(std::vector<double>{
            0.0, -0.0, 1.0, -1.0, kInf, -kInf, std::numeric_limits<double>::quiet_NaN(),
            std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min(),
            std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(),
            std::numeric_limits<double>::min(), 0.5, -2.5}));
      case 1:
        return std::bit_cast<uint64_t>(static_cast<double>(Uniform(-3, 3)) / 2);
      default: {
        uint64_t bits = Bits();
        // Random bits may be a non-canonical NaN; keep canonical-only runs canonical.
        if (canonical_only_ && std::isnan(std::bit_cast<double>(bits))) {
          bits = 0x7FF8000000000000ULL;
        }
        return bits;
      }
    }
  }

  uint64_t FloatBits() {
    if (!canonical_only_ && OneIn(8)) return 0x7F800000u | (Bits() & 0x807FFFFFu) | 1;
    const float kInf = std::numeric_limits<float>::infinity();
    switch (Uniform(0, 3)) {
      case 0:
        return std::bit_cast<uint32_t>(Pick(std::vector<float>{
            0.0f, -0.0f, 1.0f, -1.0f, kInf, -kInf, std::numeric_limits<float>::quiet_NaN(),
            std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max(),
            std::numeric_limits<float>::lowest()}));
      case 1:
        return std::bit_cast<uint32_t>(static_cast<float>(Uniform(-3, 3)) / 2);
      default: {
        uint32_t bits = static_cast<uint32_t>(Bits());
        // Random bits may be a non-canonical NaN; keep canonical-only runs canonical.
        if (canonical_only_ && std::isnan(std::bit_cast<float>(bits))) bits = 0x7FC00000u;
        return bits;
      }
    }
  }

  common::Bytes UuidBytes(bool time_based) {
    // Few distinct values per field so that ties in one field are common.
    uint64_t msb = Bits();
    uint64_t lsb = Bits();
    if (OneIn(2)) msb = (msb & 0xFFFF0000FFFF0000ULL) | (Uniform(0, 2) << 32);
    if (OneIn(2))
      lsb = Pick(std::vector<uint64_t>{0x8080808080808080ULL, 0x7F7F7F7F7F7F7F7FULL, 0,
                                       ~uint64_t{0}, 0x0080000000000000ULL});
    int version =
        time_based ? 1 : static_cast<int>(Pick(std::vector<int64_t>{0, 1, 1, 2, 4, 4, 15}));
    if (time_based && OneIn(20)) version = 4;  // Cassandra validates, we only order
    msb = (msb & ~0xF000ULL) | (static_cast<uint64_t>(version) << 12);
    if (OneIn(10)) return SerializeFixed(0, 8) + SerializeFixed(0, 8);
    return SerializeFixed(msb, 8) + SerializeFixed(lsb, 8);
  }

  common::Bytes Varint() {
    common::Bytes out;
    if (OneIn(3)) {
      // A long random magnitude: 1..40 bytes.
      out = ByteString(static_cast<size_t>(Uniform(1, 40)));
      if (out.empty()) out = "\x01";
    } else {
      static const std::vector<int64_t> kEdges = {0,
                                                  1,
                                                  -1,
                                                  127,
                                                  128,
                                                  -128,
                                                  -129,
                                                  255,
                                                  256,
                                                  -256,
                                                  -257,
                                                  32767,
                                                  32768,
                                                  -32768,
                                                  -32769,
                                                  std::numeric_limits<int64_t>::max(),
                                                  std::numeric_limits<int64_t>::min()};
      out = SerializeVarint(OneIn(2) ? Pick(kEdges) : Integer(64));
    }
    out = MinimalVarint(out);
    if (!canonical_only_ && OneIn(4)) {
      // A redundant sign-extension byte.
      out.insert(out.begin(), (static_cast<unsigned char>(out[0]) & 0x80) ? '\xff' : '\x00');
    }
    return out;
  }

  static common::Bytes MinimalVarint(common::Bytes v) {
    size_t start = 0;
    while (start + 1 < v.size()) {
      auto first = static_cast<unsigned char>(v[start]);
      auto next = static_cast<unsigned char>(v[start + 1]);
      if ((first == 0 && next < 0x80) || (first == 0xFF && next >= 0x80)) {
        ++start;
      } else {
        break;
      }
    }
    return v.substr(start);
  }

  common::Bytes Decimal() {
    // Small unscaled values with small scales give many equal values (10 E-1 == 1 E0).
    int32_t scale = static_cast<int32_t>(Uniform(-3, 4));
    common::Bytes unscaled;
    switch (Uniform(0, 5)) {
      case 0:
        scale = static_cast<int32_t>(
            Pick(std::vector<int64_t>{std::numeric_limits<int32_t>::min(),
                                      std::numeric_limits<int32_t>::max(), -40, 40, 1000}));
        unscaled = SerializeVarint(Uniform(-5, 5));
        break;
      case 1:
        unscaled = Varint();
        break;
      default: {
        int64_t base = Uniform(-12, 12);
        for (int64_t zeros = Uniform(0, 3); zeros > 0; --zeros) base *= 10;
        unscaled = SerializeVarint(base);
        break;
      }
    }
    if (canonical_only_) unscaled = MinimalVarint(unscaled);
    return SerializeDecimal(scale, unscaled);
  }

  std::mt19937_64 engine_;
  bool canonical_only_;
};

}  // namespace cql::testing
