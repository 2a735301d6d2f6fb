// IndexScan: the read half of secondary indexes — finds, through an index's entries
// (index_schema.h), the base partitions and rows a query restricted by an indexed value may
// return, in base storage order (token, partition key, clustering).
//
// Pipeline position: SelectStatement::Execute (select_statement.h) runs a query through an
// index when its restrictions chose one (restrictions.h `IndexQuery`). The scan only locates
// candidates: the statement reads each base row and re-checks every restriction, so stale
// entries (index_maintenance.h I1) never reach a result.
//
// Paging: a query resumes after the base row key of the last row it returned
// (paging_state.h). Row-level hits restart just after that row's entry; partition-level hits
// (static columns, DISTINCT) restart at its partition, which the statement reads again from
// after the row.
//
// Thread-safety: an IndexScan is used by one thread; the Store it reads is thread-safe.

#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "engine/index_schema.h"
#include "engine/restrictions.h"
#include "storage/store.h"

namespace engine {

// A base partition the index points at.
struct IndexHit {
  common::Bytes prefix;  // storage::PartitionPrefix of the base partition
  std::vector<common::Bytes> partition_key;
  // Row-level hits: the storage keys of the base rows the entries name, in order (a partition
  // with many entries comes as several consecutive hits). Empty for partition-level hits: read
  // the partition's rows as the query selects them.
  std::vector<common::Bytes> rows;
};

struct IndexScanOptions {
  // When set, only these base partitions (sorted in storage order, as EvaluatePartitionKeys
  // returns them); otherwise every partition in [token_start, token_end).
  std::span<const PartitionKey> partitions;
  bool single_partitions = false;
  // A token range as base storage keys (EvaluateTokenRange); empty strings are unbounded.
  std::string_view token_start;
  std::string_view token_end;
  // Base storage key of the last row already returned (PagingState::last_key); empty: none.
  std::string_view resume_after;
  // One partition-level hit per partition even for a row-level index (SELECT DISTINCT).
  bool per_partition = false;
};

using IndexHitCallback = std::function<common::Result<bool>(IndexHit&)>;

class IndexScan {
 public:
  // REQUIRES: `store` and `index` (and its base table) outlive the scan.
  IndexScan(const storage::Store* store, const IndexSchema* index, int64_t now_seconds)
      : store_(store), index_(index), now_seconds_(now_seconds) {}

  // Calls `visit` for each hit of the value `parts` (one part, or a map key and value for an
  // entries index), in base storage order, until it returns false. Entries that are dead
  // (removed or expired) are skipped. Errors: Invalid ("Invalid value for the paging state")
  // when `resume_after` is not a key of the base table; the store's errors.
  common::Status Scan(std::span<const common::Bytes> parts, const IndexScanOptions& options,
                      const IndexHitCallback& visit) const;

  // Most row keys one hit carries (so a huge partition never builds a huge list).
  static constexpr size_t kMaxRowsPerHit = 256;

 private:
  const storage::Store* store_;
  const IndexSchema* index_;
  int64_t now_seconds_;
};

}  // namespace engine
