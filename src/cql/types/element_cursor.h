// ElementCursor: walks the elements of a serialized composite value without copying or
// allocating: frozen (or multi-cell, in their protocol form) lists, sets and maps, tuples and
// UDTs, and vectors (native_protocol_v4.spec §6.11-6.13, §6.20; native_protocol_v5.spec §5.25
// for vectors).
//
// It checks the framing as it goes and never reads out of bounds, so it is safe on untrusted
// bytes; `value_compare.cc` and `storage/key_encoding.cc` use it to classify, compare and encode
// values.
//
// Layouts:
//   collection  [int n] then n items (maps: 2n items, key and value alternating); each item is
//               [int length][bytes], a negative length meaning null.
//   tuple/UDT   items as above until the bytes run out (a value may hold fewer fields than the
//               type, Cassandra's rule for UDTs altered with ADD).
//   vector      `dimension` elements, each either exactly `fixed_size` bytes, or (variable-size
//               element types) an [unsigned vint] length and the bytes.
//
// Thread-safety: a cursor is a small value owned by one thread; it views, and must not outlive,
// the bytes it walks.

#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "cql/types/types.h"

namespace cql {

class ElementCursor {
 public:
  // A list or set (`items_per_entry` 1) or a map (`items_per_entry` 2).
  static ElementCursor Collection(std::string_view value, int items_per_entry);
  static ElementCursor Tuple(std::string_view value);
  // A vector of `dimension` elements; `fixed_size` is the element size, 0 for variable-size
  // element types (see `VectorElementFixedSize`).
  static ElementCursor Vector(std::string_view value, int32_t dimension, size_t fixed_size);

  // Moves to the next item and stores it in `*item` (std::nullopt for a null item).
  // Returns false at the end of the value, or when the framing is broken (then malformed()).
  // A cursor whose framing is broken anywhere, including bytes left over after the last item,
  // reports malformed() once Next() has returned false.
  bool Next(std::optional<std::string_view>* item);

  bool malformed() const { return malformed_; }
  // Items returned so far.
  int64_t position() const { return position_; }

 private:
  enum class Layout { kCollection, kTuple, kVector };
  ElementCursor(Layout layout, std::string_view rest) : layout_(layout), rest_(rest) {}
  bool Fail() {
    malformed_ = true;
    return false;
  }

  Layout layout_;
  std::string_view rest_;
  int64_t remaining_ = 0;  // items still to read (collections, vectors)
  size_t fixed_size_ = 0;  // vectors with fixed-size elements
  int64_t position_ = 0;
  bool malformed_ = false;
};

// The byte size of every value of a fixed-size native type (boolean 1, int 4, uuid 16...), or 0
// for variable-size types (and for non-native types).
size_t FixedValueSize(TypeKind kind);

// The size Cassandra's VectorType gives an element of `element` type when it serializes it
// without a length prefix (AbstractType.valueLengthIfFixed): bigint, boolean, double, float,
// int, timestamp, timeuuid, uuid, and vectors of those; 0 for every other type, whose elements
// carry an [unsigned vint] length. (smallint, tinyint, date and time are variable-size here,
// as in Cassandra.) Derived from `FixedValueLength` (value_codec.h): one definition of
// fixed length.
size_t VectorElementFixedSize(const CqlType& element);

}  // namespace cql
