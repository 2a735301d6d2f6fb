#include "storage/cell_merge.h"

#include <algorithm>
#include <string_view>
#include <utility>

namespace storage {
namespace {

// Rank for rule 1b/1c: live < expiring < tombstone.
int KindRank(CellKind kind) {
  switch (kind) {
    case CellKind::kLive:
      return 0;
    case CellKind::kExpiring:
      return 1;
    case CellKind::kTombstone:
      return 2;
  }
  return 0;
}

// Unsigned lexicographic byte order (std::string_view compares char_traits<char>, which
// compares as unsigned char).
std::strong_ordering CompareBytes(std::string_view a, std::string_view b) {
  return a.compare(b) <=> 0;
}

bool IsStrictlySorted(const std::vector<Cell>& cells) {
  for (size_t i = 1; i < cells.size(); ++i) {
    if (CompareCellPosition(cells[i - 1], cells[i]) >= 0) return false;
  }
  return true;
}

// Merges `b`'s cells into the sorted, unique `a` cells, moving them out of both.
std::vector<Cell> MergeCellLists(std::vector<Cell> a, std::vector<Cell> b) {
  if (b.empty()) return a;
  if (a.empty()) return b;
  std::vector<Cell> out;
  out.reserve(a.size() + b.size());
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size()) {
      out.push_back(std::move(a[i++]));
    } else if (i == a.size()) {
      out.push_back(std::move(b[j++]));
    } else {
      std::strong_ordering c = CompareCellPosition(a[i], b[j]);
      if (c < 0) {
        out.push_back(std::move(a[i++]));
      } else if (c > 0) {
        out.push_back(std::move(b[j++]));
      } else {
        out.push_back(CompareForReconcile(a[i], b[j]) >= 0 ? std::move(a[i]) : std::move(b[j]));
        ++i;
        ++j;
      }
    }
  }
  return out;
}

// Whether `cell` is shadowed by a deletion of `f` (invariant 4).
bool IsShadowed(const RowFragment& f, const Cell& cell) {
  if (f.deletion && f.deletion->Deletes(cell.timestamp)) return true;
  if (cell.path) {
    auto it = f.collection_deletions.find(cell.column_id);
    if (it != f.collection_deletions.end() && it->second.Deletes(cell.timestamp)) return true;
  }
  return false;
}

// Applies invariant 4 in place.
void DropShadowed(RowFragment* f) {
  if (f->deletion) {
    const DeletionTime& d = *f->deletion;
    if (f->liveness && d.Deletes(f->liveness->timestamp)) f->liveness.reset();
    std::erase_if(f->collection_deletions,
                  [&](const auto& entry) { return !entry.second.Supersedes(d); });
  }
  std::erase_if(f->cells, [&](const Cell& cell) { return IsShadowed(*f, cell); });
}

}  // namespace

std::strong_ordering CompareForReconcile(const Cell& a, const Cell& b) {
  if (a.timestamp != b.timestamp) return a.timestamp <=> b.timestamp;
  int rank_a = KindRank(a.kind);
  int rank_b = KindRank(b.kind);
  if (rank_a != rank_b) return rank_a <=> rank_b;
  if (a.kind != CellKind::kLive && a.local_deletion_time != b.local_deletion_time) {
    return a.local_deletion_time <=> b.local_deletion_time;
  }
  std::strong_ordering by_value = CompareBytes(a.value, b.value);
  if (by_value != 0) return by_value;
  return a.ttl <=> b.ttl;
}

const Cell& ReconcileCells(const Cell& a, const Cell& b) {
  return CompareForReconcile(a, b) >= 0 ? a : b;
}

const DeletionTime& MergeDeletion(const DeletionTime& a, const DeletionTime& b) {
  return b.Supersedes(a) ? b : a;
}

bool LivenessSupersedes(const LivenessInfo& a, const LivenessInfo& b) {
  if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp;
  if (a.expiring() != b.expiring()) return a.expiring();
  if (a.local_expiration_time != b.local_expiration_time) {
    return a.local_expiration_time > b.local_expiration_time;
  }
  return a.ttl > b.ttl;
}

bool IsCanonical(const RowFragment& fragment) {
  if (!IsStrictlySorted(fragment.cells)) return false;
  if (const std::optional<DeletionTime>& d = fragment.deletion) {
    if (fragment.liveness && d->Deletes(fragment.liveness->timestamp)) return false;
    for (const auto& entry : fragment.collection_deletions) {
      if (!entry.second.Supersedes(*d)) return false;
    }
  }
  return std::none_of(fragment.cells.begin(), fragment.cells.end(),
                      [&](const Cell& cell) { return IsShadowed(fragment, cell); });
}

RowFragment Canonical(RowFragment fragment) {
  SortCells(&fragment);
  std::vector<Cell> unique;
  unique.reserve(fragment.cells.size());
  for (Cell& cell : fragment.cells) {
    if (!unique.empty() && CompareCellPosition(unique.back(), cell) == 0) {
      if (CompareForReconcile(cell, unique.back()) > 0) unique.back() = std::move(cell);
    } else {
      unique.push_back(std::move(cell));
    }
  }
  fragment.cells = std::move(unique);
  DropShadowed(&fragment);
  return fragment;
}

RowFragment MergeFragments(RowFragment a, RowFragment b) {
  RowFragment out;
  if (a.liveness && b.liveness) {
    out.liveness = LivenessSupersedes(*b.liveness, *a.liveness) ? b.liveness : a.liveness;
  } else {
    out.liveness = a.liveness ? a.liveness : b.liveness;
  }
  if (a.deletion && b.deletion) {
    out.deletion = MergeDeletion(*a.deletion, *b.deletion);
  } else {
    out.deletion = a.deletion ? a.deletion : b.deletion;
  }
  out.collection_deletions = std::move(a.collection_deletions);
  for (const auto& [column_id, deletion] : b.collection_deletions) {
    auto [it, inserted] = out.collection_deletions.emplace(column_id, deletion);
    if (!inserted) it->second = MergeDeletion(it->second, deletion);
  }
  if (IsStrictlySorted(a.cells) && IsStrictlySorted(b.cells)) {
    out.cells = MergeCellLists(std::move(a.cells), std::move(b.cells));
  } else {
    // Canonical(x) only drops data that x's own deletions shadow, which the merged deletions
    // (never smaller) shadow too.
    out.cells = MergeCellLists(Canonical(std::move(a)).cells, Canonical(std::move(b)).cells);
  }
  DropShadowed(&out);
  return out;
}

RowFragment MergeAllFragments(std::span<const RowFragment> fragments) {
  if (fragments.empty()) return RowFragment{};
  RowFragment out = Canonical(fragments[0]);
  for (size_t i = 1; i < fragments.size(); ++i) out = MergeFragments(std::move(out), fragments[i]);
  return out;
}

}  // namespace storage
