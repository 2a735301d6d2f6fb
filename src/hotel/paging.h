// Paging of the service's lists: the one contract every list of the HTTP API follows
// (docs/staff-console.md, "Paging"), from the repository's reads up to the router's
// `page_size` / `cursor` / `next_cursor`.
//
// Design (numbered invariants; the router, the service and the repository rely on them):
//  1. A list read on a request path reads ONE page: at most `page_size` rows of one query,
//     continuing from the engine's paging state of the previous page. The paging state is
//     opaque to the service: it is the database's (`cql::ResultSet::paging_state()`), so the
//     same code pages on the embedded engine and through the driver against a remote cqld or
//     Cassandra. A `next_cursor` is that state in hex (`FormatCursor`), nothing else.
//  2. A page without a paging state is the last one; a page with one may be followed by an
//     empty page (the database cannot always know it returned the last row). Clients stop on a
//     null `next_cursor` only, never on a short page (invariant 4 makes short pages normal).
//  3. A paging state the database refuses (forged, truncated, from another query) is the
//     client's error: `CursorRefused`, kInvalid, which the router answers as 400
//     `invalid_field` with `field: "cursor"` (`IsCursorRefused`).
//  4. A list that keeps only some rows of its query (`FilteredPage`) reads on from the
//     paging state until the page is full, the query ends, or `kMaxFilteredReads` reads were
//     made; each read asks for at most the rows the page can still take, so the paging state
//     after the last read is exactly past the last row examined and no kept row is skipped or
//     repeated. A page cut short by the read limit carries a paging state (invariant 2).
//  5. A list computed from a whole range read (a hotel's availability: a room qualifies only
//     once all its nights are read) cannot resume from a paging state of that read; it pages
//     by key instead (`KeysetPage`): the cursor is the key of the last item returned, and the
//     next page is the items with a greater key, the range being read again.
//
// Thread-safety: stateless functions and plain values.

#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"

namespace hotel {

// The router's bounds of `page_size` (400 outside [1, kMaxPageSize]) and its default.
inline constexpr int kDefaultPageSize = 50;
inline constexpr int kMaxPageSize = 500;
// The most reads one `FilteredPage` makes before returning a short page (invariant 4).
inline constexpr int kMaxFilteredReads = 8;

// What one read of a list asks for.
struct PageRequest {
  // Rows of the page, 1..kMaxPageSize; 0 reads every row in one answer (the service's own
  // unpaged reads, never a request of the router).
  int32_t page_size = 0;
  // Continue after the page this paging state ended (nullopt: the first page).
  std::optional<common::Bytes> paging_state;
};

// One page of a list: its items, and the paging state to continue from when more may follow.
template <typename T>
struct Page {
  std::vector<T> items;
  std::optional<common::Bytes> paging_state;
};

// The kInvalid status of a refused cursor (invariant 3); `detail` says why.
common::Status CursorRefused(std::string_view detail);
// True for a status made by CursorRefused.
bool IsCursorRefused(const common::Status& status);

// The paging state a `cursor` query parameter carries (hex, at most 2048 digits), or
// CursorRefused. An empty `text` is no cursor: nullopt.
common::Result<std::optional<common::Bytes>> ParseCursor(std::string_view text);
// The `next_cursor` of a paging state: lower-case hex.
std::string FormatCursor(const common::Bytes& paging_state);

// The items of a page read with PageRequest{} (every row): for the unpaged callers.
template <typename T>
common::Result<std::vector<T>> Items(common::Result<Page<T>> page) {
  if (!page.ok()) return page.status();
  return std::move(page->items);
}

// Invariant 4: one page of the items `read` returns for which `keep(item)` holds.
// `read(request)` reads one page of the unfiltered list. With `request.page_size` 0 it reads
// once, every row.
template <typename T, typename Read, typename Keep>
common::Result<Page<T>> FilteredPage(const PageRequest& request, Read read, Keep keep) {
  Page<T> page;
  PageRequest next = request;
  for (int reads = 0; reads < kMaxFilteredReads; ++reads) {
    if (request.page_size > 0) {
      next.page_size = request.page_size - static_cast<int32_t>(page.items.size());
    }
    common::Result<Page<T>> part = read(next);
    if (!part.ok()) return part.status();
    for (T& item : part->items) {
      if (keep(item)) page.items.push_back(std::move(item));
    }
    page.paging_state = std::move(part->paging_state);
    bool full =
        request.page_size > 0 && page.items.size() >= static_cast<size_t>(request.page_size);
    if (!page.paging_state || full || request.page_size == 0) break;
    next.paging_state = page.paging_state;
  }
  return page;
}

// Invariant 5: the page of `items` (sorted by `key`, ascending, keys unique) after the item
// whose key is `request.paging_state`. `key(item)` is the item's key as bytes of
// `key_size` bytes that sort as the keys do (e.g. big-endian); a cursor of another size is
// CursorRefused. With `request.page_size` 0, every item after the cursor.
template <typename T, typename Key>
common::Result<Page<T>> KeysetPage(std::vector<T> items, const PageRequest& request,
                                   size_t key_size, Key key) {
  if (request.paging_state && request.paging_state->size() != key_size) {
    return CursorRefused("it is not a cursor of this list");
  }
  Page<T> page;
  for (T& item : items) {
    common::Bytes item_key = key(item);
    if (request.paging_state && item_key <= *request.paging_state) continue;
    if (request.page_size > 0 && page.items.size() >= static_cast<size_t>(request.page_size)) {
      page.paging_state = key(page.items.back());
      break;
    }
    page.items.push_back(std::move(item));
  }
  return page;
}

// A room number as a KeysetPage key: 2 bytes, big-endian (room numbers are positive).
common::Bytes RoomKey(int16_t room_number);

}  // namespace hotel
