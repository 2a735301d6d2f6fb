// Data check: what `cqld --data DIR --check` reports about a data directory, without serving it
// and without changing it.
//
// It reads the catalogue exactly as `Database::Open` does (schema/catalog_store.h: entries that
// cannot be read are quarantined, the rest loads) and compares it with the column families on
// disk, but writes nothing of its own: no format 1 migration, no family created or dropped.
// (RocksDB's own open may still replay its write-ahead log into new files.) The directory must
// exist and must not be open in another process (RocksDB's lock).
//
// Thread-safety: a pure function of the directory; the directory must not be open elsewhere.

#pragma once

#include <string>
#include <vector>

#include "common/result.h"

namespace engine {

struct DataCheckReport {
  // One line per finding, in catalogue order: each keyspace, type, table, index and view with
  // "ok" or what is wrong, then quarantined entries, column families no table uses, and a
  // summary line.
  std::vector<std::string> lines;
  // Quarantined entries plus live tables or views whose data (column family) is missing.
  int damaged = 0;
  bool clean() const { return damaged == 0; }
};

// Checks the data directory `directory`. Errors: NotFound "<directory> is not a data
// directory" when it holds no database (nothing is created); the store's open errors (IOError
// "... in use by another process" while a server has it open);
// Corruption when the catalogue cannot be read at all (an unreadable manifest or format 1
// value).
common::Result<DataCheckReport> CheckDataDirectory(const std::string& directory);

}  // namespace engine
