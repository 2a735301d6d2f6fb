// The table key shapes the storage fuzz target (storage_fuzz.cc) parses keys against, shared
// with the seed generator (make_binary_corpus.cc) so that seed keys match their shape index:
// the storage target's first byte selects StorageKeyShapes()[(byte >> 2) % size].
//
// Thread-safety: the list is built once (a function-local static) and immutable after.

#pragma once

#include <vector>

#include "storage/key_layout.h"

namespace fuzz {

inline const std::vector<storage::KeyShape>& StorageKeyShapes() {
  using cql::CqlType;
  static const std::vector<storage::KeyShape> shapes = [] {
    CqlType address = CqlType::Udt("hotel", "address", {"street", "city"},
                                   {CqlType::Text(), CqlType::Text()}, /*frozen=*/true);
    std::vector<storage::KeyShape> s;
    // hotel.hotels: one text partition key, no clustering.
    s.push_back({{CqlType::Text()}, {}});
    // hotel.available_rooms_by_hotel_date: (hotel_id), date, room_number.
    s.push_back({{CqlType::Text()}, {{CqlType::Date(), false}, {CqlType::Smallint(), false}}});
    // Composite partition key, descending text clustering.
    s.push_back({{CqlType::Text(), CqlType::Smallint()}, {{CqlType::Text(), true}}});
    // Many native types, mixed orders.
    s.push_back({{CqlType::Uuid(), CqlType::Bigint()},
                 {{CqlType::Timeuuid(), true},
                  {CqlType::Varint(), false},
                  {CqlType::Blob(), false},
                  {CqlType::Boolean(), true},
                  {CqlType::Double(), false}}});
    s.push_back({{CqlType::Decimal()},
                 {{CqlType::Inet(), false},
                  {CqlType::Timestamp(), true},
                  {CqlType::Float(), false},
                  {CqlType::Tinyint(), false},
                  {CqlType::Ascii(), false},
                  {CqlType::Time(), true}}});
    // Frozen collections, tuples, UDTs and vectors as key components.
    s.push_back({{CqlType::List(CqlType::Int(), true)},
                 {{CqlType::Map(CqlType::Text(), CqlType::Decimal(), true), false},
                  {CqlType::Tuple({CqlType::Int(), CqlType::Text(), CqlType::Decimal()}), true},
                  {address, false},
                  {CqlType::Set(CqlType::Varint(), true), true},
                  {CqlType::Vector(CqlType::Float(), 2), false}}});
    return s;
  }();
  return shapes;
}

}  // namespace fuzz
