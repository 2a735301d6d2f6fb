#include "storage/store.h"

#include <mutex>
#include <utility>

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/slice.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include "storage/compaction_filter.h"
#include "storage/key_layout.h"
#include "storage/merge_operator.h"

namespace storage {

struct StoreTable {
  std::string id;
  TableOptions options;  // GUARDED_BY(Store::mutex_)
  std::shared_ptr<RowFragmentCompactionFilterFactory> filter_factory;
  std::unique_ptr<rocksdb::ColumnFamilyHandle> handle;
  // Held across both passes of CompactTable (the purge flag of the factory is per table).
  std::mutex compact_mutex;
};

namespace {

constexpr char kMetaFamily[] = "meta";
constexpr char kTableOptionsPrefix[] = "storage/table_options/";

common::Status FromRocks(const rocksdb::Status& s) {
  if (s.ok()) return common::Status::Ok();
  if (s.IsNotFound()) return common::Status::NotFound(s.ToString());
  if (s.IsCorruption()) return common::Status::Corruption(s.ToString());
  if (s.IsIOError()) return common::Status::IOError(s.ToString());
  return common::Status::Internal(s.ToString());
}

// Whether `s` is RocksDB failing to take the database's LOCK file: "While lock file:
// <dir>/LOCK: Resource temporarily unavailable" when another process holds it, "lock hold by
// current process, ...: <dir>/LOCK: No locks available" when this one does.
bool IsLockHeld(const rocksdb::Status& s) {
  if (!s.IsIOError()) return false;
  std::string message = s.ToString();
  return message.find("/LOCK") != std::string::npos &&
         (message.find("While lock file") != std::string::npos ||
          message.find("lock hold by current process") != std::string::npos);
}

rocksdb::Slice ToSlice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }

// `block_cache`: the Store's shared block cache, or null for RocksDB's default.
rocksdb::ColumnFamilyOptions TableFamilyOptions(
    std::shared_ptr<RowFragmentCompactionFilterFactory> factory,
    const std::shared_ptr<rocksdb::Cache>& block_cache) {
  rocksdb::ColumnFamilyOptions cf;
  cf.merge_operator = MakeRowFragmentMergeOperator();
  cf.compaction_filter_factory = std::move(factory);
  cf.prefix_extractor = NewTokenPrefixExtractor();
  // Universal compaction: each CompactTable pass is one compaction over every file, which is
  // what lets the compaction filter purge (compaction_filter.h invariants 3 and 9).
  cf.compaction_style = rocksdb::kCompactionStyleUniversal;
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  if (block_cache) table.block_cache = block_cache;
  cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return cf;
}

bool IsReservedName(std::string_view id) {
  return id.empty() || id == rocksdb::kDefaultColumnFamilyName || id == kMetaFamily;
}

}  // namespace

// ---- WriteBatch ----

void WriteBatch::Merge(std::string_view table_id, std::string_view key,
                       const RowFragment& fragment) {
  operations_.push_back(
      {Kind::kMerge, std::string(table_id), common::Bytes(key), EncodeRowFragment(fragment)});
}

void WriteBatch::MergeEncoded(std::string_view table_id, std::string_view key,
                              std::string_view value) {
  operations_.push_back(
      {Kind::kMerge, std::string(table_id), common::Bytes(key), common::Bytes(value)});
}

void WriteBatch::PutMeta(std::string_view key, std::string_view value) {
  operations_.push_back({Kind::kPutMeta, "", common::Bytes(key), common::Bytes(value)});
}

void WriteBatch::DeleteMeta(std::string_view key) {
  operations_.push_back({Kind::kDeleteMeta, "", common::Bytes(key), ""});
}

// ---- FragmentIterator ----

FragmentIterator::FragmentIterator(StoreKey /*key*/, std::shared_ptr<StoreTable> table,
                                   KeyRange range)
    : table_(std::move(table)), range_(std::move(range)) {}

FragmentIterator::~FragmentIterator() = default;

void FragmentIterator::SeekToFirst() { iterator_->SeekToFirst(); }
void FragmentIterator::SeekToLast() { iterator_->SeekToLast(); }
void FragmentIterator::Seek(std::string_view target) { iterator_->Seek(ToSlice(target)); }
void FragmentIterator::SeekForPrev(std::string_view target) {
  iterator_->SeekForPrev(ToSlice(target));
}
void FragmentIterator::Next() { iterator_->Next(); }
void FragmentIterator::Prev() { iterator_->Prev(); }
bool FragmentIterator::Valid() const { return iterator_->Valid(); }

std::string_view FragmentIterator::key() const {
  rocksdb::Slice k = iterator_->key();
  return std::string_view(k.data(), k.size());
}

common::Result<RowFragment> FragmentIterator::fragment() const {
  rocksdb::Slice v = iterator_->value();
  return DecodeRowFragment(std::string_view(v.data(), v.size()));
}

common::Status FragmentIterator::status() const { return FromRocks(iterator_->status()); }

// ---- Store ----

Store::Store(StoreKey /*key*/, const StoreOptions& options) : options_(options) {}

Store::~Store() {
  tables_.clear();
  meta_.reset();
  if (db_) {
    // A clean shutdown leaves the write-ahead log synced in every durability mode, so writes
    // acknowledged under `periodic` survive a power cut after a graceful stop too. Close
    // reports errors of the final sync; there is no caller to hand them to.
    rocksdb::Status ignored = db_->FlushWAL(/*sync=*/true);
    ignored = db_->Close();
    (void)ignored;
  }
}

common::Result<std::unique_ptr<Store>> Store::Open(const std::string& path,
                                                   const StoreOptions& options) {
  if (options.clock == nullptr) return common::Status::Invalid("StoreOptions.clock is null");
  auto store = std::make_unique<Store>(StoreKey(), options);
  if (options.block_cache_bytes > 0) {
    store->block_cache_ = rocksdb::NewLRUCache(options.block_cache_bytes);
  }

  rocksdb::DBOptions db_options;
  db_options.create_if_missing = options.create_if_missing;
  db_options.create_missing_column_families = true;
  // One compaction filter sees a whole compaction, so partitions are never split between
  // filters (compaction_filter.h invariant 8). 1 is RocksDB's default; it is a requirement.
  db_options.max_subcompactions = 1;

  std::vector<std::string> names;
  rocksdb::Status listed = rocksdb::DB::ListColumnFamilies(db_options, path, &names);
  if (!listed.ok()) names = {rocksdb::kDefaultColumnFamilyName};  // a new database

  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  std::vector<std::shared_ptr<StoreTable>> tables;
  descriptors.emplace_back(rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions());
  descriptors.emplace_back(kMetaFamily, rocksdb::ColumnFamilyOptions());
  for (const std::string& name : names) {
    if (IsReservedName(name)) continue;
    auto table = std::make_shared<StoreTable>();
    table->id = name;
    // The saved options are read once the database is open (set_options below).
    table->filter_factory =
        std::make_shared<RowFragmentCompactionFilterFactory>(options.clock, table->options);
    descriptors.emplace_back(name, TableFamilyOptions(table->filter_factory, store->block_cache_));
    tables.push_back(std::move(table));
  }

  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw_db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(db_options, path, descriptors, &handles, &raw_db);
  if (IsLockHeld(s)) {
    return common::Status::IOError("Data directory " + path +
                                   " is in use by another process (RocksDB lock held)");
  }
  if (!s.ok()) return FromRocks(s);
  store->db_.reset(raw_db);
  // The default family is unused; release its handle.
  RETURN_IF_ERROR(FromRocks(store->db_->DestroyColumnFamilyHandle(handles[0])));
  store->meta_.reset(handles[1]);
  for (size_t i = 0; i < tables.size(); ++i) {
    tables[i]->handle.reset(handles[i + 2]);
    auto saved = store->GetMeta(kTableOptionsPrefix + tables[i]->id);
    if (!saved.ok()) return saved.status();
    if (saved->has_value()) {
      ASSIGN_OR_RETURN(tables[i]->options, DecodeTableOptions(**saved));
      tables[i]->filter_factory->set_options(tables[i]->options);
    }
    store->tables_.emplace(tables[i]->id, tables[i]);
  }
  return store;
}

common::Result<std::shared_ptr<StoreTable>> Store::FindTable(std::string_view table_id) const {
  std::shared_lock lock(mutex_);
  auto it = tables_.find(table_id);
  if (it == tables_.end()) {
    return common::Status::NotFound("Unknown table " + std::string(table_id));
  }
  return it->second;
}

common::Result<std::shared_ptr<StoreTable>> Store::CreateColumnFamily(const std::string& table_id,
                                                                      const TableOptions& options) {
  auto table = std::make_shared<StoreTable>();
  table->id = table_id;
  table->options = options;
  table->filter_factory =
      std::make_shared<RowFragmentCompactionFilterFactory>(options_.clock, options);
  rocksdb::ColumnFamilyHandle* handle = nullptr;
  rocksdb::Status s = db_->CreateColumnFamily(
      TableFamilyOptions(table->filter_factory, block_cache_), table_id, &handle);
  if (!s.ok()) return FromRocks(s);
  table->handle.reset(handle);
  return table;
}

common::Status Store::SaveTableOptions(const std::string& table_id, const TableOptions& options) {
  ASSIGN_OR_RETURN(common::Bytes encoded, EncodeTableOptions(options));
  rocksdb::WriteOptions write_options;
  write_options.sync = options_.sync_writes;
  return FromRocks(db_->Put(write_options, meta_.get(), kTableOptionsPrefix + table_id, encoded));
}

common::Status Store::FlushMeta() {
  return FromRocks(db_->Flush(rocksdb::FlushOptions(), meta_.get()));
}

common::Status Store::CreateTable(std::string_view table_id, const TableOptions& options) {
  if (IsReservedName(table_id)) {
    return common::Status::Invalid("Reserved table id '" + std::string(table_id) + "'");
  }
  std::unique_lock lock(mutex_);
  if (tables_.count(table_id) > 0) {
    return common::Status::AlreadyExists("Table " + std::string(table_id) + " already exists");
  }
  std::string id(table_id);
  RETURN_IF_ERROR(SaveTableOptions(id, options));
  ASSIGN_OR_RETURN(std::shared_ptr<StoreTable> table, CreateColumnFamily(id, options));
  tables_.emplace(id, std::move(table));
  return common::Status::Ok();
}

common::Status Store::AlterTable(std::string_view table_id, const TableOptions& options) {
  std::unique_lock lock(mutex_);
  auto it = tables_.find(table_id);
  if (it == tables_.end())
    return common::Status::NotFound("Unknown table " + std::string(table_id));
  RETURN_IF_ERROR(SaveTableOptions(it->first, options));
  it->second->options = options;
  it->second->filter_factory->set_options(options);
  return common::Status::Ok();
}

common::Result<TableOptions> Store::TableOptionsOf(std::string_view table_id) const {
  std::shared_lock lock(mutex_);
  auto it = tables_.find(table_id);
  if (it == tables_.end())
    return common::Status::NotFound("Unknown table " + std::string(table_id));
  return it->second->options;
}

common::Status Store::DropTable(std::string_view table_id) {
  std::unique_lock lock(mutex_);
  auto it = tables_.find(table_id);
  if (it == tables_.end())
    return common::Status::NotFound("Unknown table " + std::string(table_id));
  RETURN_IF_ERROR(FromRocks(db_->DropColumnFamily(it->second->handle.get())));
  rocksdb::WriteOptions write_options;
  write_options.sync = options_.sync_writes;
  RETURN_IF_ERROR(
      FromRocks(db_->Delete(write_options, meta_.get(), kTableOptionsPrefix + it->first)));
  tables_.erase(it);
  return FlushMeta();
}

common::Status Store::TruncateTable(std::string_view table_id) {
  std::unique_lock lock(mutex_);
  auto it = tables_.find(table_id);
  if (it == tables_.end())
    return common::Status::NotFound("Unknown table " + std::string(table_id));
  RETURN_IF_ERROR(FromRocks(db_->DropColumnFamily(it->second->handle.get())));
  ASSIGN_OR_RETURN(it->second, CreateColumnFamily(it->first, it->second->options));
  // A meta write for the flush below to persist (an empty memtable would not be flushed).
  RETURN_IF_ERROR(SaveTableOptions(it->first, it->second->options));
  return FlushMeta();
}

bool Store::HasTable(std::string_view table_id) const {
  std::shared_lock lock(mutex_);
  return tables_.count(table_id) > 0;
}

std::vector<std::string> Store::TableIds() const {
  std::shared_lock lock(mutex_);
  std::vector<std::string> ids;
  for (const auto& [id, table] : tables_) ids.push_back(id);
  return ids;
}

common::Status Store::Write(const WriteBatch& batch) {
  rocksdb::WriteBatch rocks_batch;
  std::shared_lock lock(mutex_);  // keeps every named family alive until the write is done
  for (const WriteBatch::Operation& op : batch.operations_) {
    switch (op.kind) {
      case WriteBatch::Kind::kMerge: {
        auto it = tables_.find(op.table_id);
        if (it == tables_.end()) return common::Status::Invalid("Unknown table " + op.table_id);
        RETURN_IF_ERROR(FromRocks(
            rocks_batch.Merge(it->second->handle.get(), ToSlice(op.key), ToSlice(op.value))));
        break;
      }
      case WriteBatch::Kind::kPutMeta:
        RETURN_IF_ERROR(
            FromRocks(rocks_batch.Put(meta_.get(), ToSlice(op.key), ToSlice(op.value))));
        break;
      case WriteBatch::Kind::kDeleteMeta:
        RETURN_IF_ERROR(FromRocks(rocks_batch.Delete(meta_.get(), ToSlice(op.key))));
        break;
    }
  }
  rocksdb::WriteOptions write_options;
  write_options.sync = options_.sync_writes;
  return FromRocks(db_->Write(write_options, &rocks_batch));
}

namespace {

common::Result<std::optional<RowFragment>> GetFragment(rocksdb::DB* db,
                                                       rocksdb::ColumnFamilyHandle* family,
                                                       std::string_view key) {
  // Pinned: the value is decoded where it lies (in the block cache or memtable), not copied.
  rocksdb::PinnableSlice value;
  rocksdb::Status s = db->Get(rocksdb::ReadOptions(), family, ToSlice(key), &value);
  if (s.IsNotFound()) return std::optional<RowFragment>();
  RETURN_IF_ERROR(FromRocks(s));
  ASSIGN_OR_RETURN(RowFragment fragment,
                   DecodeRowFragment(std::string_view(value.data(), value.size())));
  return std::optional<RowFragment>(std::move(fragment));
}

}  // namespace

common::Result<std::optional<RowFragment>> Store::Get(std::string_view table_id,
                                                      std::string_view key) const {
  ASSIGN_OR_RETURN(std::shared_ptr<StoreTable> table, FindTable(table_id));
  return GetFragment(db_.get(), table->handle.get(), key);
}

common::Result<Store::PartitionRow> Store::GetPartitionRow(std::string_view table_id,
                                                           std::string_view partition_deletion_key,
                                                           std::string_view row_key) const {
  std::shared_ptr<StoreTable> table;
  bool single_row_partitions = false;
  {
    std::shared_lock lock(mutex_);
    auto it = tables_.find(table_id);
    if (it == tables_.end()) {
      return common::Status::NotFound("Unknown table " + std::string(table_id));
    }
    table = it->second;
    single_row_partitions = table->options.single_row_partitions;
  }
  PartitionRow result;
  if (!single_row_partitions) {
    ASSIGN_OR_RETURN(result.deletion,
                     GetFragment(db_.get(), table->handle.get(), partition_deletion_key));
  }
  ASSIGN_OR_RETURN(result.row, GetFragment(db_.get(), table->handle.get(), row_key));
  return result;
}

common::Result<std::optional<common::Bytes>> Store::GetMeta(std::string_view key) const {
  std::string value;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), meta_.get(), ToSlice(key), &value);
  if (s.IsNotFound()) return std::optional<common::Bytes>();
  RETURN_IF_ERROR(FromRocks(s));
  return std::optional<common::Bytes>(std::move(value));
}

common::Result<std::unique_ptr<FragmentIterator>> Store::NewIterator(std::string_view table_id,
                                                                     const KeyRange& range) const {
  ASSIGN_OR_RETURN(std::shared_ptr<StoreTable> table, FindTable(table_id));
  auto it = std::make_unique<FragmentIterator>(StoreKey(), table, range);
  rocksdb::ReadOptions read_options;
  read_options.total_order_seek = true;  // ranges may span partitions (tokens)
  if (!it->range_.lower.empty()) {
    it->lower_ = std::make_unique<rocksdb::Slice>(ToSlice(it->range_.lower));
    read_options.iterate_lower_bound = it->lower_.get();
  }
  if (!it->range_.upper.empty()) {
    it->upper_ = std::make_unique<rocksdb::Slice>(ToSlice(it->range_.upper));
    read_options.iterate_upper_bound = it->upper_.get();
  }
  it->iterator_.reset(db_->NewIterator(read_options, table->handle.get()));
  return it;
}

common::Status Store::FlushTable(std::string_view table_id) {
  ASSIGN_OR_RETURN(std::shared_ptr<StoreTable> table, FindTable(table_id));
  return FromRocks(db_->Flush(rocksdb::FlushOptions(), table->handle.get()));
}

common::Status Store::CompactTable(std::string_view table_id) {
  ASSIGN_OR_RETURN(std::shared_ptr<StoreTable> table, FindTable(table_id));
  std::lock_guard compact_lock(table->compact_mutex);
  rocksdb::CompactRangeOptions compact_options;
  compact_options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  // Wait for running automatic compactions so each pass includes every file (a full
  // compaction), and keep each pass in one filter (compaction_filter.h invariant 8).
  compact_options.exclusive_manual_compaction = true;
  compact_options.max_subcompactions = 1;
  // Pass 1: every key's operands become one value (compaction_filter.h invariant 5).
  RETURN_IF_ERROR(
      FromRocks(db_->CompactRange(compact_options, table->handle.get(), nullptr, nullptr)));
  // Pass 2: every value is filtered; partition and range tombstones may go (invariant 9).
  table->filter_factory->set_purge_partition_tombstones(true);
  rocksdb::Status s = db_->CompactRange(compact_options, table->handle.get(), nullptr, nullptr);
  table->filter_factory->set_purge_partition_tombstones(false);
  return FromRocks(s);
}

}  // namespace storage
