#include "client/prepared_cache.h"

#include <utility>

namespace client {

std::shared_ptr<const cql::PreparedMetadata> PreparedCache::Find(const common::Bytes& id) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(id);
  return it == entries_.end() ? nullptr : it->second;
}

void PreparedCache::Put(std::shared_ptr<const cql::PreparedMetadata> prepared) {
  std::lock_guard lock(mutex_);
  entries_[prepared->id] = std::move(prepared);
}

std::shared_ptr<const cql::PreparedMetadata> PreparedCache::UpdateResultMetadata(
    const common::Bytes& id, std::vector<cql::ColumnSpec> columns, common::Bytes metadata_id) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return nullptr;
  auto updated = std::make_shared<cql::PreparedMetadata>(*it->second);
  updated->result_columns = std::move(columns);
  updated->result_metadata_id = std::move(metadata_id);
  it->second = updated;
  return updated;
}

size_t PreparedCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace client
