// Test helpers for the storage layer: builders of cells and fragments, and a random fragment
// generator with a fixed seed for property tests. Only *_test.cc files include this header.
//
// Thread-safety: not thread-safe (the generator holds its engine).

#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "storage/row_fragment.h"

namespace storage::testing {

inline Cell LiveCell(uint32_t column, int64_t timestamp, std::string value) {
  Cell c;
  c.column_id = column;
  c.timestamp = timestamp;
  c.value = std::move(value);
  return c;
}

inline Cell ExpiringCell(uint32_t column, int64_t timestamp, std::string value, int64_t ttl,
                         int64_t expiration) {
  Cell c = LiveCell(column, timestamp, std::move(value));
  c.kind = CellKind::kExpiring;
  c.ttl = ttl;
  c.local_deletion_time = expiration;
  return c;
}

inline Cell TombstoneCell(uint32_t column, int64_t timestamp, int64_t deletion_time) {
  Cell c;
  c.column_id = column;
  c.timestamp = timestamp;
  c.kind = CellKind::kTombstone;
  c.local_deletion_time = deletion_time;
  return c;
}

inline Cell WithPath(Cell c, std::string path) {
  c.path = std::move(path);
  return c;
}

// Random valid fragments over a small domain (few columns, paths, timestamps and values) so
// that collisions, ties and shadowing happen often.
class RandomFragments {
 public:
  explicit RandomFragments(uint32_t seed) : engine_(seed) {}

  int64_t Small(int64_t n) { return std::uniform_int_distribution<int64_t>(0, n - 1)(engine_); }

  Cell RandomCell() {
    uint32_t column = static_cast<uint32_t>(Small(4));
    int64_t ts = Small(6);
    Cell c;
    switch (Small(3)) {
      case 0:
        c = LiveCell(column, ts, std::string(static_cast<size_t>(Small(3)), 'a' + Small(2)));
        break;
      case 1:
        c = ExpiringCell(column, ts, std::string(1, static_cast<char>(0x7f + Small(3))),
                         1 + Small(3), 100 + Small(3));
        break;
      default:
        c = TombstoneCell(column, ts, 100 + Small(3));
        break;
    }
    if (column >= 2) c.path = std::string(1, static_cast<char>('k' + Small(3)));
    return c;
  }

  RowFragment Fragment() {
    RowFragment f;
    if (Small(2) == 0) {
      LivenessInfo l;
      l.timestamp = Small(6);
      if (Small(2) == 0) {
        l.ttl = 1 + Small(2);
        l.local_expiration_time = 100 + Small(3);
      }
      f.liveness = l;
    }
    if (Small(4) == 0) f.deletion = DeletionTime{Small(6), 100 + Small(3)};
    if (Small(3) == 0) {
      f.collection_deletions[static_cast<uint32_t>(2 + Small(2))] =
          DeletionTime{Small(6), 100 + Small(3)};
    }
    int64_t n = Small(6);
    for (int64_t i = 0; i < n; ++i) f.cells.push_back(RandomCell());
    return f;
  }

 private:
  std::mt19937 engine_;
};

}  // namespace storage::testing
