// NodeOperations: what the admin tool (`cqld admin`, nodetool's commands; docs/operations.md
// §5, §6) does to the data of one database: flush, compact (and garbagecollect), snapshots,
// and the figures `status` and `info` report. The admin API (server/admin_api.h) calls it.
//
// Snapshots. One RocksDB holds every table and the catalogue, so the unit that is consistent
// is the whole database: a snapshot is always a checkpoint of all of it (storage::Store::
// Checkpoint), taken into `<data>/snapshots/<tag>/`, on the data's filesystem so table files
// are hard links. RocksDB ignores the `snapshots` folder (it only reads the files its manifest
// names) and so does `cqld --check`. Each snapshot holds `manifest.json`: the tag, when it was
// taken, the keyspaces asked for (empty: all), and each table's and view's files, from which
// ListSnapshots computes sizes. Restore is of the whole data directory (docs/operations.md §6).
//
// Thread-safety: thread-safe; operations may run concurrently with queries and with each other
// (two snapshots with the same tag: one fails with "already exists").

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "engine/database.h"

namespace engine {

// One table (or view) in a snapshot, with nodetool listsnapshots' figures.
struct SnapshotTable {
  std::string keyspace;
  std::string table;
  // Bytes of its files not shared with the live data (what clearing the snapshot would free).
  uint64_t true_bytes = 0;
  // Bytes of all its files (indexes included).
  uint64_t disk_bytes = 0;
};

struct SnapshotDetails {
  std::string tag;
  std::string created_at;  // ISO 8601, UTC
  // The keyspaces the snapshot was asked for; empty: all of them. (It contains every table.)
  std::vector<std::string> keyspaces;
  // Every table and view it contains, by keyspace then name; then one entry with keyspace "-"
  // and table "catalogue" for its other files (the catalogue, roles, RocksDB's manifest).
  std::vector<SnapshotTable> tables;
};

class NodeOperations {
 public:
  // The folder of `data`'s snapshots.
  static std::string SnapshotRoot(const std::string& data);
  // OK when `tag` may name a snapshot: 1 to 200 letters, digits, '_', '-' and '.', not starting
  // with '.' nor ending with ".tmp" (RocksDB's work folder); Invalid otherwise.
  static common::Status ValidateTag(std::string_view tag);

  // REQUIRES: `database` outlives this object.
  explicit NodeOperations(Database* database) : database_(database) {}

  // Flushes the memtables of `tables` of `keyspace` (their views and indexes included); every
  // table of the keyspace when `tables` is empty; everything, the catalogue included, when
  // `keyspace` is empty. Invalid "Keyspace K does not exist" or "Unknown keyspace/cf pair
  // (K.T)"; WriteFailure as storage::Store::FlushTable.
  common::Status Flush(std::string_view keyspace, const std::vector<std::string>& tables);
  // A full compaction of the same selection through the purge filter (storage::Store::
  // CompactTable): tombstones and expired data past gc_grace_seconds go with what they shadow.
  // nodetool's compact and garbagecollect both run it. Errors as Flush.
  common::Status Compact(std::string_view keyspace, const std::vector<std::string>& tables);

  // Takes snapshot `tag` (ValidateTag) of the whole database, recording `keyspaces` (each must
  // exist; empty: all) in its manifest. Invalid for a bad tag or a missing keyspace;
  // AlreadyExists "Snapshot TAG already exists."; WriteFailure on a full disk or while
  // read-only; IOError when the folder cannot be written (nothing is left behind).
  common::Status Snapshot(std::string_view tag, const std::vector<std::string>& keyspaces);
  // Every snapshot, by tag. A folder without a readable manifest is listed with its total size
  // under the "catalogue" entry.
  common::Result<std::vector<SnapshotDetails>> ListSnapshots() const;
  // Removes snapshot `tag` (every snapshot when empty). With `keyspaces`, only snapshots taken
  // for one of them (a snapshot of all keyspaces is removed only when none is named). Returns
  // how many were removed (0 is not an error). Invalid for a bad tag.
  common::Result<size_t> ClearSnapshots(std::string_view tag,
                                        const std::vector<std::string>& keyspaces);

  // Bytes of the data directory's files, snapshots excluded (nodetool's Load).
  uint64_t LoadBytes() const;

 private:
  // The storage ids (tables, views, indexes) of the selection, as Flush describes it.
  common::Result<std::vector<std::string>> StorageIdsOf(
      std::string_view keyspace, const std::vector<std::string>& tables) const;

  Database* database_;
};

}  // namespace engine
