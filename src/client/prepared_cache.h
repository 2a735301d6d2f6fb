// PreparedCache: the C++ driver's prepared statements, by id (src/client/).
//
// `RemoteSession::Prepare` stores what the server returned; `ExecutePrepared` reads the newest
// metadata for an id from here: the result columns it sends EXECUTE with skip_metadata against,
// and (protocol v5) the result_metadata_id. When a v5 server answers Metadata_changed, the new
// columns and id replace the cached ones. When a server answers UNPREPARED (it restarted, or
// another node never saw the statement), the query text and keyspace kept here are prepared
// again on that node.
//
// Thread-safety: thread-safe (one mutex; entries are immutable and shared).

#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "common/bytes.h"
#include "cql/session.h"

namespace client {

class PreparedCache {
 public:
  // The entry for `id`, or null.
  std::shared_ptr<const cql::PreparedMetadata> Find(const common::Bytes& id) const;
  // Stores `prepared` under its id (replacing an older entry).
  void Put(std::shared_ptr<const cql::PreparedMetadata> prepared);
  // Replaces the result columns and result_metadata_id of `id` (Metadata_changed); returns the
  // new entry, or null when `id` is unknown.
  std::shared_ptr<const cql::PreparedMetadata> UpdateResultMetadata(
      const common::Bytes& id, std::vector<cql::ColumnSpec> columns, common::Bytes metadata_id);
  size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::map<common::Bytes, std::shared_ptr<const cql::PreparedMetadata>> entries_;  // GUARDED_BY
};

}  // namespace client
