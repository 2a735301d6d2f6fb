// TableOptions: what storage keeps about one table column family besides its rows — the
// gc_grace period and the key shape the compaction filter needs to apply partition and range
// tombstones (compaction_filter.h) — and their encoding in the meta family
// (docs/dev/storage_format.md §1, "Table options").
//
// Pipeline position: the engine derives the options from the catalogue and hands them to
// `Store::CreateTable` / `AlterTable`; the store persists them under
// `storage/table_options/<table id>` and configures the table's compaction filter factory.
//
// Thread-safety: plain value types and pure functions.

#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/bytes.h"
#include "common/result.h"
#include "storage/key_layout.h"

namespace storage {

struct TableOptions {
  int64_t gc_grace_seconds = 864000;  // Cassandra's default, 10 days
  // The key shape of the family's entries (key_layout.h). With it, compaction drops rows that
  // partition and range tombstones shadow and can purge those tombstones. Without it storage
  // cannot tell a partition or range tombstone entry from a row, so it never purges the
  // deletion of any entry (unless `row_entries_only`): nothing can resurrect, but tombstones
  // stay.
  std::optional<KeyShape> shape = std::nullopt;
  // The family holds only row-level entries whose keys are not table keys (the entries of a
  // secondary index): every deletion is a row's own and purges after gc_grace like a cell
  // tombstone. Only meaningful without `shape`.
  bool row_entries_only = false;
  // Every partition is at most one row entry and has no partition-level entries: the table has
  // no clustering columns (so no static row and no range tombstones) and its partition
  // deletions are written as the row's own deletion. A read by partition key then needs only
  // the row's entry (Store::GetPartitionRow). Set when the family is created; a family created
  // before this flag existed may hold partition deletion entries and never gets it.
  bool single_row_partitions = false;

  bool operator==(const TableOptions&) const = default;
};

// Options encoding version written by EncodeTableOptions.
inline constexpr uint8_t kTableOptionsVersion = 2;

// The bytes stored in the meta family (format in docs/dev/storage_format.md §1). Invalid when
// the shape holds a type that has no [option] encoding (an unresolved UDT reference).
common::Result<common::Bytes> EncodeTableOptions(const TableOptions& options);

// Decodes version 2 and version 1 (gc_grace only: no shape, not row-entries-only). Any other
// input (unknown version or flag bits, truncated, bad type option, trailing bytes) gives
// Corruption; never reads out of bounds.
common::Result<TableOptions> DecodeTableOptions(std::string_view bytes);

}  // namespace storage
