// Secondary index maintenance: the index entries a base-table write adds and removes
// (docs/dev/storage_format.md §7-8). Each index has its own column family (StorageId(index.id))
// whose keys and values index_schema.h describes.
//
// Pipeline position: change capture (row_change.h) hands the rows a write changed, under the
// partition locks; the entry mutations go into the same atomic WriteBatch as the base write.
// CREATE INDEX backfill calls it with changes that have no `before`.
//
// Invariants (index_maintenance.cc proves them; docs/dev/storage_format.md records them):
//   I1. An index never misses a live row: whenever a base row holds an indexed value, the entry
//       (value, row) is live. Reads re-check every row against the query, so entries may be
//       stale (point at rows that no longer hold the value); they are never wrong the other way.
//   I2. Only built-in ("COMPOSITES") indexes are maintained; custom indexes are skipped.
//
// Thread-safety: pure functions.

#pragma once

#include <span>

#include "common/result.h"
#include "engine/modification_statement.h"
#include "engine/row_change.h"
#include "engine/table_schema.h"
#include "schema/catalog.h"
#include "storage/store.h"

namespace engine {

// Why entries are written: for a base-table write, an oversized value fails the write (as
// Cassandra refuses it); while CREATE INDEX builds the index from existing rows, it is skipped
// with a warning (Cassandra's asynchronous build skips it too), so the index serves the rest.
enum class IndexBuild : uint8_t { kWrite, kBackfill };

// Adds to `batch` the entry changes of `indexes` (indexes of `base`) implied by `changes`.
// Entries are added for values a row holds after the write that it did not hold before (or
// that were written again), and removed for values it held before and no longer does; the
// entry timestamps come from the changes' live cells and liveness (and, for list elements, map
// values and key columns, from the stored entry, read from `store`), so that a removal never
// shadows a later re-add (I1; index_maintenance.cc).
// Errors (the caller must then drop the whole batch): Invalid when an indexed value to add is
// 65535 bytes or longer (Cassandra's "Cannot index value of size ..."; for `kBackfill` such a
// value is skipped and logged instead); Corruption when a stored
// collection element does not parse; the store's.
// REQUIRES: the partition locks of the changes' partitions are held; `params.now_seconds` is the
// node's clock at the write (the local deletion time of removals).
common::Status AddIndexMutations(const storage::Store& store, const TableSchema& base,
                                 std::span<const schema::IndexMetadata* const> indexes,
                                 std::span<const RowChange> changes, const WriteParams& params,
                                 storage::WriteBatch* batch, IndexBuild build = IndexBuild::kWrite);

}  // namespace engine
