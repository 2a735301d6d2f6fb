// The Store's operations for the admin tool (store.h "Operations"): flushing every family,
// checkpoints of the whole database, and the block cache's figures. Apart from store.cc because
// they are the operator's, not the engine's, and touch RocksDB's checkpoint machinery only.

#include <filesystem>
#include <mutex>
#include <shared_mutex>
#include <system_error>

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/metadata.h>
#include <rocksdb/options.h>
#include <rocksdb/utilities/checkpoint.h>

#include "storage/store.h"

#include <fmt/format.h>

namespace storage {

namespace {

// A RocksDB failure of an operation: IOError (these are file operations) with RocksDB's text.
common::Status OperationError(std::string_view what, const rocksdb::Status& s) {
  return common::Status::IOError(fmt::format("{}: {}", what, s.ToString()));
}

// The table files of the database in `directory` with their column families, read from a
// read-only open of it (which writes nothing there: `info_log` takes RocksDB's log lines).
common::Result<std::vector<Store::CheckpointFile>> ListTableFiles(
    const std::string& directory, const std::shared_ptr<rocksdb::Logger>& info_log) {
  rocksdb::DBOptions options;
  options.info_log = info_log;
  std::vector<std::string> names;
  rocksdb::Status s = rocksdb::DB::ListColumnFamilies(options, directory, &names);
  if (!s.ok()) return OperationError("cannot list the checkpoint's tables", s);
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : names) {
    descriptors.emplace_back(name, rocksdb::ColumnFamilyOptions());
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  s = rocksdb::DB::OpenForReadOnly(options, directory, descriptors, &handles, &raw);
  if (!s.ok()) return OperationError("cannot read the checkpoint", s);
  std::unique_ptr<rocksdb::DB> db(raw);
  std::vector<rocksdb::LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  for (rocksdb::ColumnFamilyHandle* handle : handles) {
    (void)db->DestroyColumnFamilyHandle(handle);
  }
  (void)db->Close();
  std::vector<Store::CheckpointFile> files;
  for (const rocksdb::LiveFileMetaData& file : live) {
    files.push_back({file.relative_filename, file.column_family_name, file.size});
  }
  return files;
}

}  // namespace

common::Status Store::FlushAll() {
  std::vector<std::shared_ptr<StoreTable>> keep;  // keeps the handles alive
  std::shared_ptr<rocksdb::DB> db;
  {
    std::shared_lock lock(mutex_);
    db = db_;
    keep.push_back(meta_);
    for (const auto& [id, table] : tables_) keep.push_back(table);
  }
  if (read_only_) return ReadOnlyRefusal();
  RETURN_IF_ERROR(CheckChange(0));
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  for (const auto& table : keep) handles.push_back(FamilyHandle(*table));
  rocksdb::Status s = db->Flush(rocksdb::FlushOptions(), handles);
  return s.ok() ? common::Status::Ok() : WriteError(OperationError("flush failed", s));
}

common::Result<std::vector<Store::CheckpointFile>> Store::Checkpoint(const std::string& directory) {
  if (read_only_) return ReadOnlyRefusal();
  RETURN_IF_ERROR(CheckChange(0));
  std::error_code error;
  if (std::filesystem::exists(directory, error) || error) {
    return common::Status::IOError(fmt::format("{} already exists", directory));
  }
  std::shared_ptr<rocksdb::DB> db;
  {
    std::shared_lock lock(mutex_);
    db = db_;
  }
  rocksdb::Checkpoint* raw = nullptr;
  rocksdb::Status s = rocksdb::Checkpoint::Create(db.get(), &raw);
  if (!s.ok()) return OperationError("cannot make a checkpoint", s);
  std::unique_ptr<rocksdb::Checkpoint> checkpoint(raw);
  // 0: always flush the memtables first, so the checkpoint needs no log replay to be whole.
  s = checkpoint->CreateCheckpoint(directory, /*log_size_for_flush=*/0);
  if (!s.ok()) {
    std::filesystem::remove_all(directory, error);
    return WriteError(OperationError("checkpoint failed", s));
  }
  auto files = ListTableFiles(directory, info_log_);
  if (!files.ok()) std::filesystem::remove_all(directory, error);
  return files;
}

Store::CacheUsage Store::BlockCacheUsage() const {
  if (!block_cache_) return {};
  return {block_cache_->GetCapacity(), block_cache_->GetUsage(), block_cache_->GetOccupancyCount()};
}

}  // namespace storage
