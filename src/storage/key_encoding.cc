#include "storage/key_encoding.h"

#include <optional>
#include <string>
#include <vector>

#include "cql/types/canonical_decimal.h"
#include "cql/types/element_cursor.h"
#include "cql/types/value_compare.h"

namespace storage {
namespace {

using common::Bytes;
using common::Result;
using common::Status;
using cql::CanonicalDecimal;
using cql::CanonicalizeDecimal;
using cql::ClassifyValue;
using cql::CqlType;
using cql::DecimalFromCanonical;
using cql::DoubleOrderKey;
using cql::ElementCursor;
using cql::FixedValueSize;
using cql::FloatOrderKey;
using cql::RestoreTimestampBytes;
using cql::TimeuuidLsbOrderKey;
using cql::TimeuuidMsbOrderKey;
using cql::TrimVarint;
using cql::TypeKind;
using cql::UnscaledDigitCount;
using cql::UuidMsbOrderKey;
using cql::ValueClass;
using cql::VectorElementFixedSize;

constexpr uint8_t kEnd = 0x00;
constexpr uint8_t kNull = 0x01;
constexpr uint8_t kEmpty = 0x02;
constexpr uint8_t kValue = 0x03;
constexpr uint8_t kMalformed = 0x04;

// Varint / decimal sign classes.
constexpr uint8_t kNegative = 0x01;
constexpr uint8_t kZero = 0x02;
constexpr uint8_t kPositive = 0x03;

void PutByte(Bytes* out, uint8_t b) { out->push_back(static_cast<char>(b)); }

void PutBigEndian(Bytes* out, uint64_t v, int size) {
  for (int i = size - 1; i >= 0; --i) PutByte(out, static_cast<uint8_t>(v >> (8 * i)));
}

void InvertFrom(Bytes* out, size_t start) {
  for (size_t i = start; i < out->size(); ++i) (*out)[i] = static_cast<char>(~(*out)[i]);
}

// len(L): order-preserving, self-delimiting unsigned length.
void PutLength(Bytes* out, uint64_t length) {
  if (length < 0x80) {
    PutByte(out, static_cast<uint8_t>(length));
    return;
  }
  int n = 1;
  while (n < 8 && (length >> (8 * n)) != 0) ++n;
  PutByte(out, static_cast<uint8_t>(0x80 | n));
  PutBigEndian(out, length, n);
}

bool IsTupleLike(const CqlType& type) {
  return type.kind() == TypeKind::kTuple || (type.kind() == TypeKind::kUdt && type.IsResolved());
}

// Whether values of `type` can carry a recovery part.
bool NeedsRecovery(const CqlType& type) {
  switch (type.kind()) {
    case TypeKind::kDecimal:
      return true;
    case TypeKind::kTuple:
    case TypeKind::kUdt:
      return IsTupleLike(type);
    case TypeKind::kList:
    case TypeKind::kSet:
    case TypeKind::kVector:
      return NeedsRecovery(type.element());
    case TypeKind::kMap:
      return NeedsRecovery(type.key()) || NeedsRecovery(type.value());
    default:
      return false;
  }
}

// Minimal two's-complement bytes of a 64-bit integer.
Bytes Int64ToVarint(int64_t v) {
  Bytes bytes;
  PutBigEndian(&bytes, static_cast<uint64_t>(v), 8);
  return Bytes(TrimVarint(bytes));
}

// ----------------------------------------------------------------------------- encoding

class Encoder {
 public:
  Encoder(Bytes* order, Bytes* recovery) : order_(order), recovery_(recovery) {}

  // The order part of a component (marker and payload).
  void Component(const CqlType& type, std::string_view value) {
    switch (ClassifyValue(type, value)) {
      case ValueClass::kEmpty:
        PutByte(order_, kEmpty);
        return;
      case ValueClass::kMalformed:
        PutByte(order_, kMalformed);
        Escaped(value);
        return;
      case ValueClass::kWellFormed:
        PutByte(order_, kValue);
        Payload(type, value);
        return;
    }
  }

 private:
  void Item(const CqlType& type, const std::optional<std::string_view>& item) {
    if (!item.has_value()) {
      PutByte(order_, kNull);
    } else {
      Component(type, *item);
    }
  }

  void Escaped(std::string_view bytes) {
    for (char c : bytes) {
      order_->push_back(c);
      if (c == 0) PutByte(order_, 0xFF);
    }
    PutByte(order_, 0x00);
    PutByte(order_, 0x00);
  }

  // The varint payload of minimal two's-complement bytes `t`.
  void VarintPayload(std::string_view t) {
    if (t.size() == 1 && t[0] == 0) {
      PutByte(order_, kZero);
      return;
    }
    const bool negative = (static_cast<unsigned char>(t[0]) & 0x80) != 0;
    PutByte(order_, negative ? kNegative : kPositive);
    const size_t length_start = order_->size();
    PutLength(order_, t.size());
    if (negative) InvertFrom(order_, length_start);
    order_->append(t);
  }

  void Decimal(std::string_view value) {
    auto canonical = CanonicalizeDecimal(value);
    // ClassifyValue guarantees >= 5 bytes, so this cannot fail; stay total anyway.
    CanonicalDecimal decimal = canonical.ok() ? *canonical : CanonicalDecimal{};
    if (decimal.sign == 0) {
      PutByte(order_, kZero);
    } else {
      PutByte(order_, decimal.sign < 0 ? kNegative : kPositive);
      const size_t start = order_->size();
      VarintPayload(Int64ToVarint(decimal.exponent));
      const std::string& digits = decimal.digits;
      for (size_t i = 0; i < digits.size(); i += 2) {
        const int high = digits[i] - '0';
        const int low = i + 1 < digits.size() ? digits[i + 1] - '0' : 0;
        PutByte(order_, static_cast<uint8_t>(10 * high + low + 1));
      }
      PutByte(order_, kEnd);
      if (decimal.sign < 0) InvertFrom(order_, start);
    }
    recovery_->append(value.substr(0, 4));  // the scale
  }

  void Sequence(ElementCursor cursor, const CqlType& first_type, const CqlType& second_type,
                bool terminated) {
    std::optional<std::string_view> item;
    while (cursor.Next(&item)) {
      Item(cursor.position() % 2 == 1 ? first_type : second_type, item);
    }
    if (terminated) PutByte(order_, kEnd);
  }

  void Tuple(const CqlType& type, std::string_view value) {
    std::vector<std::optional<std::string_view>> fields;
    ElementCursor cursor = ElementCursor::Tuple(value);
    std::optional<std::string_view> field;
    while (cursor.Next(&field)) fields.push_back(field);
    size_t significant = fields.size();
    while (significant > 0 && !fields[significant - 1].has_value()) --significant;
    for (size_t i = 0; i < significant; ++i) Item(type.params()[i], fields[i]);
    PutByte(order_, kEnd);
    PutLength(recovery_, fields.size() - significant);
  }

  void Payload(const CqlType& type, std::string_view value) {
    switch (type.kind()) {
      case TypeKind::kBoolean:
        PutByte(order_, value[0] != 0 ? 1 : 0);
        return;
      case TypeKind::kTinyint:
      case TypeKind::kSmallint:
      case TypeKind::kInt:
      case TypeKind::kBigint:
      case TypeKind::kCounter:
      case TypeKind::kTimestamp: {
        const size_t start = order_->size();
        order_->append(value);
        (*order_)[start] = static_cast<char>((*order_)[start] ^ 0x80);
        return;
      }
      case TypeKind::kFloat:
        PutBigEndian(order_, FloatOrderKey(common::LoadBigEndian32(value.data())), 4);
        return;
      case TypeKind::kDouble:
        PutBigEndian(order_, DoubleOrderKey(common::LoadBigEndian64(value.data())), 8);
        return;
      case TypeKind::kUuid:
        PutBigEndian(order_, UuidMsbOrderKey(common::LoadBigEndian64(value.data())), 8);
        order_->append(value.substr(8));
        return;
      case TypeKind::kTimeuuid:
        PutBigEndian(order_, TimeuuidMsbOrderKey(common::LoadBigEndian64(value.data())), 8);
        PutBigEndian(order_, TimeuuidLsbOrderKey(common::LoadBigEndian64(value.data() + 8)), 8);
        return;
      case TypeKind::kDate:
      case TypeKind::kTime:
        order_->append(value);
        return;
      case TypeKind::kVarint:
        VarintPayload(TrimVarint(value));
        return;
      case TypeKind::kDecimal:
        Decimal(value);
        return;
      case TypeKind::kList:
      case TypeKind::kSet:
        Sequence(ElementCursor::Collection(value, 1), type.element(), type.element(), true);
        return;
      case TypeKind::kMap:
        Sequence(ElementCursor::Collection(value, 2), type.key(), type.value(), true);
        return;
      case TypeKind::kVector:
        Sequence(
            ElementCursor::Vector(value, type.dimension(), VectorElementFixedSize(type.element())),
            type.element(), type.element(), false);
        return;
      case TypeKind::kTuple:
      case TypeKind::kUdt:
        if (IsTupleLike(type)) {
          Tuple(type, value);
          return;
        }
        Escaped(value);
        return;
      default:  // ascii, text, blob, inet, duration, custom
        Escaped(value);
        return;
    }
  }

  Bytes* order_;
  Bytes* recovery_;
};

// ----------------------------------------------------------------------------- decoding

// Reads bytes XOR-ed with a mask (0xFF inside descending components and negative magnitudes).
class MaskedReader {
 public:
  MaskedReader(std::string_view in, uint8_t mask) : in_(in), mask_(mask) {}

  Result<uint8_t> Byte() {
    if (pos_ >= in_.size()) return Truncated();
    return static_cast<uint8_t>(static_cast<uint8_t>(in_[pos_++]) ^ mask_);
  }
  Result<uint64_t> BigEndian(int size) {
    if (in_.size() - pos_ < static_cast<size_t>(size)) return Truncated();
    uint64_t v = 0;
    for (int i = 0; i < size; ++i) {
      v = (v << 8) | static_cast<uint8_t>(static_cast<uint8_t>(in_[pos_++]) ^ mask_);
    }
    return v;
  }
  Status Append(size_t n, Bytes* out) {
    if (in_.size() - pos_ < n) return Truncated();
    for (size_t i = 0; i < n; ++i) {
      out->push_back(static_cast<char>(static_cast<uint8_t>(in_[pos_++]) ^ mask_));
    }
    return Status::Ok();
  }
  void FlipMask() { mask_ = static_cast<uint8_t>(~mask_); }
  size_t position() const { return pos_; }

 private:
  static Status Truncated() { return Status::Corruption("Truncated key component"); }

  std::string_view in_;
  uint8_t mask_;
  size_t pos_ = 0;
};

Status Corrupt(const std::string& what) {
  return Status::Corruption("Invalid key component: " + what);
}

Result<uint64_t> ReadLength(MaskedReader* in) {
  ASSIGN_OR_RETURN(uint8_t first, in->Byte());
  if (first < 0x80) return uint64_t{first};
  const int n = first & 0x7F;
  if (n < 1 || n > 8) return Corrupt("bad length header");
  ASSIGN_OR_RETURN(uint64_t length, in->BigEndian(n));
  if (length < 0x80 || (length >> (8 * (n - 1))) == 0) return Corrupt("non-minimal length");
  return length;
}

class Decoder {
 public:
  // With `recovery` null the decoder only walks the order part (to find where it ends):
  // decimals and tuples then produce bytes that are not the original value (only where the
  // order part ends matters).
  Decoder(MaskedReader* order, MaskedReader* recovery) : order_(order), recovery_(recovery) {}

  Status Component(const CqlType& type, Bytes* out) {
    ASSIGN_OR_RETURN(uint8_t marker, order_->Byte());
    return AfterMarker(marker, type, out);
  }

 private:
  Status AfterMarker(uint8_t marker, const CqlType& type, Bytes* out) {
    ValueClass expected;
    const size_t start = out->size();
    switch (marker) {
      case kEmpty:
        return Status::Ok();
      case kMalformed:
        RETURN_IF_ERROR(Escaped(out));
        expected = ValueClass::kMalformed;
        break;
      case kValue:
        RETURN_IF_ERROR(Payload(type, out));
        expected = ValueClass::kWellFormed;
        break;
      default:
        return Corrupt("bad marker");
    }
    return CheckMarkerMatches(expected, type, std::string_view(*out).substr(start));
  }

  // The encoder picks the marker from the value's class, so a marker that does not match the
  // class of the value it decodes to (an empty "value", a well-formed "malformed" value) is
  // bytes the encoder never writes: accepting them would give one value two keys. Without
  // recovery bytes, decimals and tuples decode to stand-ins whose class means nothing.
  Status CheckMarkerMatches(ValueClass expected, const CqlType& type, std::string_view value) {
    if (recovery_ == nullptr && NeedsRecovery(type)) return Status::Ok();
    if (ClassifyValue(type, value) != expected) return Corrupt("marker does not match value");
    return Status::Ok();
  }

  // Decodes one item of a collection or tuple, given its (already read) marker, and appends it
  // as [int length][bytes], or length -1 for null.
  Status FramedItem(uint8_t marker, const CqlType& type, Bytes* out) {
    if (marker == kNull) {
      PutBigEndian(out, 0xFFFFFFFFu, 4);
      return Status::Ok();
    }
    Bytes item;
    RETURN_IF_ERROR(AfterMarker(marker, type, &item));
    if (item.size() > 0x7FFFFFFFu) return Corrupt("item too large");
    PutBigEndian(out, item.size(), 4);
    out->append(item);
    return Status::Ok();
  }

  Status Escaped(Bytes* out) {
    while (true) {
      ASSIGN_OR_RETURN(uint8_t b, order_->Byte());
      if (b != 0) {
        PutByte(out, b);
        continue;
      }
      ASSIGN_OR_RETURN(uint8_t next, order_->Byte());
      if (next == 0x00) return Status::Ok();
      if (next != 0xFF) return Corrupt("bad escape");
      PutByte(out, 0);
    }
  }

  // A varint payload: appends the minimal two's-complement bytes.
  Status VarintPayload(Bytes* out) {
    ASSIGN_OR_RETURN(uint8_t sign, order_->Byte());
    if (sign == kZero) {
      PutByte(out, 0);
      return Status::Ok();
    }
    if (sign != kNegative && sign != kPositive) return Corrupt("bad varint sign");
    const bool negative = sign == kNegative;
    if (negative) order_->FlipMask();
    Result<uint64_t> length = ReadLength(order_);
    if (negative) order_->FlipMask();
    if (!length.ok()) return length.status();
    if (*length == 0) return Corrupt("empty varint");
    const size_t start = out->size();
    RETURN_IF_ERROR(order_->Append(*length, out));
    std::string_view t(out->data() + start, *length);
    const auto first = static_cast<unsigned char>(t[0]);
    if (((first & 0x80) != 0) != negative || TrimVarint(t).size() != t.size() ||
        (t.size() == 1 && first == 0)) {
      return Corrupt("non-canonical varint");
    }
    return Status::Ok();
  }

  Status Decimal(Bytes* out) {
    ASSIGN_OR_RETURN(uint8_t sign, order_->Byte());
    CanonicalDecimal decimal;
    if (sign != kZero) {
      if (sign != kNegative && sign != kPositive) return Corrupt("bad decimal sign");
      decimal.sign = sign == kNegative ? -1 : 1;
      if (decimal.sign < 0) order_->FlipMask();
      Status status = DecimalMagnitude(&decimal);
      if (decimal.sign < 0) order_->FlipMask();
      RETURN_IF_ERROR(status);
    }
    if (recovery_ == nullptr) return Status::Ok();  // walking the order part only
    ASSIGN_OR_RETURN(uint64_t scale, recovery_->BigEndian(4));
    const auto scale32 = static_cast<int32_t>(static_cast<uint32_t>(scale));
    auto bytes = DecimalFromCanonical(decimal, scale32, decimal_digits_left_);
    if (!bytes.ok()) return bytes.status();
    decimal_digits_left_ -= UnscaledDigitCount(decimal, scale32);
    out->append(*bytes);
    return Status::Ok();
  }

  Status DecimalMagnitude(CanonicalDecimal* decimal) {
    Bytes exponent;
    RETURN_IF_ERROR(VarintPayload(&exponent));
    if (exponent.size() > 8) return Corrupt("decimal exponent too large");
    uint64_t e = (static_cast<unsigned char>(exponent[0]) & 0x80) ? ~uint64_t{0} : 0;
    for (char c : exponent) e = (e << 8) | static_cast<unsigned char>(c);
    decimal->exponent = static_cast<int64_t>(e);
    while (true) {
      ASSIGN_OR_RETURN(uint8_t pair, order_->Byte());
      if (pair == kEnd) break;
      if (pair > 100) return Corrupt("bad decimal digits");
      if (static_cast<int64_t>(decimal->digits.size()) >= decimal_digits_left_) {
        return Corrupt("too many decimal digits");
      }
      decimal->digits.push_back(static_cast<char>('0' + (pair - 1) / 10));
      decimal->digits.push_back(static_cast<char>('0' + (pair - 1) % 10));
    }
    if (!decimal->digits.empty() && decimal->digits.back() == '0') decimal->digits.pop_back();
    if (decimal->digits.empty()) return Corrupt("decimal without digits");
    return Status::Ok();
  }

  Status Collection(const CqlType& first_type, const CqlType& second_type, int items_per_entry,
                    Bytes* out) {
    const size_t count_at = out->size();
    PutBigEndian(out, 0, 4);
    uint64_t entries = 0;
    while (true) {
      ASSIGN_OR_RETURN(uint8_t marker, order_->Byte());
      if (marker == kEnd) break;
      RETURN_IF_ERROR(FramedItem(marker, first_type, out));
      if (items_per_entry == 2) {
        ASSIGN_OR_RETURN(uint8_t value_marker, order_->Byte());
        if (value_marker == kEnd) return Corrupt("map key without value");
        RETURN_IF_ERROR(FramedItem(value_marker, second_type, out));
      }
      if (++entries > 0x7FFFFFFFu) return Corrupt("too many elements");
    }
    for (int i = 0; i < 4; ++i) (*out)[count_at + i] = static_cast<char>(entries >> (24 - 8 * i));
    return Status::Ok();
  }

  Status Tuple(const CqlType& type, Bytes* out) {
    const size_t arity = type.params().size();
    size_t fields = 0;
    while (true) {
      ASSIGN_OR_RETURN(uint8_t marker, order_->Byte());
      if (marker == kEnd) break;
      if (fields == arity) return Corrupt("too many tuple fields");
      RETURN_IF_ERROR(FramedItem(marker, type.params()[fields], out));
      ++fields;
    }
    if (recovery_ == nullptr) return Status::Ok();
    ASSIGN_OR_RETURN(uint64_t trailing_nulls, ReadLength(recovery_));
    if (trailing_nulls > arity - fields) return Corrupt("too many trailing null fields");
    for (uint64_t i = 0; i < trailing_nulls; ++i) PutBigEndian(out, 0xFFFFFFFFu, 4);
    return Status::Ok();
  }

  Status Vector(const CqlType& type, Bytes* out) {
    const size_t fixed = VectorElementFixedSize(type.element());
    for (int32_t i = 0; i < type.dimension(); ++i) {
      ASSIGN_OR_RETURN(uint8_t marker, order_->Byte());
      if (marker == kNull || marker == kEnd) return Corrupt("null vector element");
      Bytes element;
      RETURN_IF_ERROR(AfterMarker(marker, type.element(), &element));
      if (fixed > 0) {
        if (element.size() != fixed) return Corrupt("bad vector element size");
      } else {
        common::ByteWriter length;
        length.PutUnsignedVInt(element.size());
        out->append(length.data());
      }
      out->append(element);
    }
    return Status::Ok();
  }

  Status Payload(const CqlType& type, Bytes* out) {
    switch (type.kind()) {
      case TypeKind::kBoolean: {
        ASSIGN_OR_RETURN(uint8_t b, order_->Byte());
        if (b > 1) return Corrupt("bad boolean");
        PutByte(out, b);
        return Status::Ok();
      }
      case TypeKind::kTinyint:
      case TypeKind::kSmallint:
      case TypeKind::kInt:
      case TypeKind::kBigint:
      case TypeKind::kCounter:
      case TypeKind::kTimestamp: {
        const size_t start = out->size();
        RETURN_IF_ERROR(order_->Append(FixedValueSize(type.kind()), out));
        (*out)[start] = static_cast<char>((*out)[start] ^ 0x80);
        return Status::Ok();
      }
      case TypeKind::kFloat: {
        ASSIGN_OR_RETURN(uint64_t key, order_->BigEndian(4));
        const auto k = static_cast<uint32_t>(key);
        const uint32_t bits = (k & 0x80000000u) ? k ^ 0x80000000u : ~k;
        // The encoder writes one NaN; any other NaN's bits are not an encoding.
        if (FloatOrderKey(bits) != k) return Corrupt("non-canonical NaN");
        PutBigEndian(out, bits, 4);
        return Status::Ok();
      }
      case TypeKind::kDouble: {
        constexpr uint64_t kSignBit = uint64_t{1} << 63;
        ASSIGN_OR_RETURN(uint64_t key, order_->BigEndian(8));
        const uint64_t bits = (key & kSignBit) ? key ^ kSignBit : ~key;
        if (DoubleOrderKey(bits) != key) return Corrupt("non-canonical NaN");
        PutBigEndian(out, bits, 8);
        return Status::Ok();
      }
      case TypeKind::kUuid: {
        ASSIGN_OR_RETURN(uint64_t key, order_->BigEndian(8));
        const uint64_t version = key >> 60;
        const uint64_t msb = version == 1 ? RestoreTimestampBytes(key)
                                          : ((key << 4) & 0xFFFFFFFFFFFF0000ULL) | (version << 12) |
                                                (key & 0xFFFULL);
        PutBigEndian(out, msb, 8);
        return order_->Append(8, out);
      }
      case TypeKind::kTimeuuid: {
        ASSIGN_OR_RETURN(uint64_t msb_key, order_->BigEndian(8));
        ASSIGN_OR_RETURN(uint64_t lsb_key, order_->BigEndian(8));
        PutBigEndian(out, RestoreTimestampBytes(msb_key ^ (uint64_t{1} << 63)), 8);
        PutBigEndian(out, TimeuuidLsbOrderKey(lsb_key), 8);
        return Status::Ok();
      }
      case TypeKind::kDate:
      case TypeKind::kTime:
        return order_->Append(FixedValueSize(type.kind()), out);
      case TypeKind::kVarint:
        return VarintPayload(out);
      case TypeKind::kDecimal:
        return Decimal(out);
      case TypeKind::kList:
      case TypeKind::kSet:
        return Collection(type.element(), type.element(), 1, out);
      case TypeKind::kMap:
        return Collection(type.key(), type.value(), 2, out);
      case TypeKind::kVector:
        return Vector(type, out);
      case TypeKind::kTuple:
      case TypeKind::kUdt:
        if (IsTupleLike(type)) return Tuple(type, out);
        return Escaped(out);
      default:
        return Escaped(out);
    }
  }

  MaskedReader* order_;
  MaskedReader* recovery_;
  // What the decimals of this component may still build (see kMaxDecimalDigits).
  int64_t decimal_digits_left_ = kMaxDecimalDigits;
};

}  // namespace

void AppendKeyComponent(const CqlType& type, std::string_view value, bool descending, Bytes* out) {
  const size_t start = out->size();
  Bytes recovery;
  Encoder(out, &recovery).Component(type, value);
  out->append(recovery);
  if (descending) InvertFrom(out, start);
}

Result<Bytes> ReadKeyComponent(const CqlType& type, bool descending, std::string_view* in) {
  const uint8_t mask = descending ? 0xFF : 0x00;
  size_t order_size = 0;
  if (NeedsRecovery(type)) {
    // First pass: find where the order part ends and the recovery part begins.
    MaskedReader probe(*in, mask);
    Bytes scratch;
    RETURN_IF_ERROR(Decoder(&probe, nullptr).Component(type, &scratch));
    order_size = probe.position();
  } else {
    order_size = in->size();
  }
  MaskedReader order(in->substr(0, order_size), mask);
  MaskedReader recovery(in->substr(order_size), mask);
  Bytes value;
  RETURN_IF_ERROR(Decoder(&order, &recovery).Component(type, &value));
  in->remove_prefix(order.position() + recovery.position());
  return value;
}

Bytes EncodeToken(int64_t token) {
  Bytes out;
  PutBigEndian(&out, static_cast<uint64_t>(token) ^ (uint64_t{1} << 63), 8);
  return out;
}

Result<int64_t> DecodeToken(std::string_view key) {
  if (key.size() < 8) return Status::Corruption("Key shorter than its 8-byte token");
  return static_cast<int64_t>(common::LoadBigEndian64(key.data()) ^ (uint64_t{1} << 63));
}

}  // namespace storage
