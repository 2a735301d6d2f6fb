#include "cql/types/element_cursor.h"

#include "common/bytes.h"
#include "cql/types/value_codec.h"

namespace cql {

ElementCursor ElementCursor::Collection(std::string_view value, int items_per_entry) {
  ElementCursor cursor(Layout::kCollection, value);
  if (value.size() < 4) {
    cursor.malformed_ = true;
    return cursor;
  }
  auto count = static_cast<int32_t>(common::LoadBigEndian32(value.data()));
  cursor.rest_.remove_prefix(4);
  if (count < 0) {
    cursor.malformed_ = true;
    return cursor;
  }
  cursor.remaining_ = int64_t{count} * items_per_entry;
  return cursor;
}

ElementCursor ElementCursor::Tuple(std::string_view value) {
  return ElementCursor(Layout::kTuple, value);
}

ElementCursor ElementCursor::Vector(std::string_view value, int32_t dimension, size_t fixed_size) {
  ElementCursor cursor(Layout::kVector, value);
  if (dimension <= 0 ||
      (fixed_size > 0 && value.size() != fixed_size * static_cast<uint64_t>(dimension))) {
    cursor.malformed_ = true;
    return cursor;
  }
  cursor.remaining_ = dimension;
  cursor.fixed_size_ = fixed_size;
  return cursor;
}

bool ElementCursor::Next(std::optional<std::string_view>* item) {
  if (malformed_) return false;
  if (layout_ == Layout::kTuple) {
    if (rest_.empty()) return false;
  } else if (remaining_ == 0) {
    return rest_.empty() ? false : Fail();  // bytes left over after the last item
  }

  if (layout_ == Layout::kVector) {
    size_t length = fixed_size_;
    if (length == 0) {
      common::ByteReader reader(rest_);
      auto vint = reader.ReadUnsignedVInt();
      if (!vint.ok() || *vint > reader.remaining()) return Fail();
      length = static_cast<size_t>(*vint);
      rest_.remove_prefix(reader.position());
    }
    if (length > rest_.size()) return Fail();
    *item = rest_.substr(0, length);
    rest_.remove_prefix(length);
  } else {
    if (rest_.size() < 4) return Fail();
    auto length = static_cast<int32_t>(common::LoadBigEndian32(rest_.data()));
    rest_.remove_prefix(4);
    if (length < 0) {
      *item = std::nullopt;
    } else {
      if (static_cast<size_t>(length) > rest_.size()) return Fail();
      *item = rest_.substr(0, static_cast<size_t>(length));
      rest_.remove_prefix(static_cast<size_t>(length));
    }
  }
  if (layout_ != Layout::kTuple) --remaining_;
  ++position_;
  return true;
}

size_t FixedValueSize(TypeKind kind) {
  switch (kind) {
    case TypeKind::kBoolean:
    case TypeKind::kTinyint:
      return 1;
    case TypeKind::kSmallint:
      return 2;
    case TypeKind::kInt:
    case TypeKind::kFloat:
    case TypeKind::kDate:
      return 4;
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kDouble:
    case TypeKind::kTimestamp:
    case TypeKind::kTime:
      return 8;
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      return 16;
    default:
      return 0;
  }
}

size_t VectorElementFixedSize(const CqlType& element) {
  int length = FixedValueLength(element);
  return length > 0 ? static_cast<size_t>(length) : 0;
}

}  // namespace cql
