// StoredTable<T>: a table of the auth layer (RoleTable, PermissionTable) kept as one value in
// the storage meta family and served as an immutable snapshot: readers take the current one
// without waiting for writers; Commit writes the next value, then publishes it. Callers
// serialize their changes themselves (read, compute the next table, Commit).
//
// T needs `common::Bytes Encode() const` and `static common::Result<T> Decode(std::string_view)`.
//
// Thread-safety: thread-safe.

#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "common/result.h"
#include "storage/store.h"

namespace auth {

template <typename T>
class StoredTable {
 public:
  // REQUIRES: `store` outlives the table.
  StoredTable(storage::Store* store, std::string_view key) : store_(store), key_(key) {}

  // Reads the stored value (none yet: an empty T). Errors: the store's; Corruption.
  common::Status Load() {
    ASSIGN_OR_RETURN(std::optional<common::Bytes> bytes, store_->GetMeta(key_));
    if (!bytes.has_value()) return common::Status::Ok();
    ASSIGN_OR_RETURN(T table, T::Decode(*bytes));
    Publish(std::move(table));
    return common::Status::Ok();
  }

  std::shared_ptr<const T> Get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return current_;
  }

  // Writes `next` (one atomic storage write), then makes it current.
  common::Status Commit(T next) {
    storage::WriteBatch batch;
    batch.PutMeta(key_, next.Encode());
    RETURN_IF_ERROR(store_->Write(batch));
    Publish(std::move(next));
    return common::Status::Ok();
  }

 private:
  void Publish(T table) {
    auto published = std::make_shared<const T>(std::move(table));
    std::lock_guard<std::mutex> lock(mutex_);
    current_ = std::move(published);
  }

  storage::Store* store_;
  const std::string key_;
  mutable std::mutex mutex_;
  std::shared_ptr<const T> current_ = std::make_shared<const T>();  // GUARDED_BY(mutex_)
};

}  // namespace auth
