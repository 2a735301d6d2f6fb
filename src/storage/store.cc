#include "storage/store.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <utility>

#include <fmt/format.h>
#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/listener.h>
#include <rocksdb/options.h>
#include <rocksdb/slice.h>
#include <rocksdb/sst_file_manager.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include "common/logging.h"
#include "storage/compaction_filter.h"
#include "storage/info_log.h"
#include "storage/key_layout.h"
#include "storage/merge_operator.h"
#include "storage/partition_statistics.h"
#include "storage/wal_file_system.h"

namespace storage {

struct StoreTable {
  std::string id;
  TableOptions options;  // GUARDED_BY(Store::mutex_)
  std::shared_ptr<RowFragmentCompactionFilterFactory> filter_factory;
  // The instance `handle` belongs to; declared before it so that it outlives the handle.
  std::shared_ptr<rocksdb::DB> db;
  std::unique_ptr<rocksdb::ColumnFamilyHandle> handle;
  // Held across both passes of CompactTable (the purge flag of the factory is per table).
  std::mutex compact_mutex;
};

struct StoreHealth {
  // Set when RocksDB reports a background error (it then refuses writes), cleared when it
  // recovers (store.h header invariant 3).
  std::atomic<bool> background_error{false};
};

struct Store::Instance {
  std::shared_ptr<rocksdb::DB> db;
  std::shared_ptr<StoreTable> meta;
  std::vector<std::shared_ptr<StoreTable>> tables;
};

namespace {

// Brackets a change of any number of partitions in PartitionVersions for its scope
// (partition_versions.h invariant 1): drop, truncate, option changes, full compactions.
class TableWideChange {
 public:
  explicit TableWideChange(PartitionVersions* versions) : versions_(versions) {
    versions_->BeginAll();
  }
  ~TableWideChange() { versions_->EndAll(); }
  TableWideChange(const TableWideChange&) = delete;
  TableWideChange& operator=(const TableWideChange&) = delete;

 private:
  PartitionVersions* versions_;
};

constexpr char kMetaFamily[] = "meta";
constexpr uint64_t kMaxTotalWalBytes = uint64_t{256} << 20;
constexpr size_t kBulkLoadWriteBufferBytes = size_t{128} << 20;
constexpr size_t kTableBlockBytes = size_t{16} << 10;
constexpr char kTableOptionsPrefix[] = "storage/table_options/";
// The fixed header of a rocksdb::WriteBatch (sequence number and count), and the most a
// record adds to its key and value (a tag and three varint32s: family, key and value sizes).
constexpr size_t kRocksBatchHeaderBytes = 12;
constexpr size_t kRocksRecordOverheadBytes = 16;

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
    const std::shared_ptr<rocksdb::Cache>& block_cache, uint64_t large_partition_bytes,
    bool bulk_load) {
  rocksdb::ColumnFamilyOptions cf;
  // Compression stays RocksDB's default, Snappy at every level, by measurement on the
  // seed-scale load (docs/benchmarks.md, "seed-scale load"): LZ4 cost the same CPU for 4% more
  // bytes; ZSTD at the bottom saved 22% of the bytes but cost 7.5% more CPU and three times as
  // long to compact.
  if (bulk_load) {
    // Every row is written once, to a flushed file, instead of being rewritten by merges while
    // the load runs: compaction is left to the next open (StoreOptions::bulk_load). Without
    // automatic compactions RocksDB does not slow writes for the number of L0 files.
    cf.disable_auto_compactions = true;
    cf.write_buffer_size = kBulkLoadWriteBufferBytes;
  }
  cf.table_properties_collector_factories.push_back(
      std::make_shared<PartitionStatisticsCollectorFactory>(factory, large_partition_bytes));
  cf.merge_operator = MakeRowFragmentMergeOperator();
  cf.compaction_filter_factory = std::move(factory);
  cf.prefix_extractor = NewTokenPrefixExtractor();
  // Universal compaction: each CompactTable pass is one compaction over every file, which is
  // what lets the compaction filter purge (compaction_filter.h invariants 3 and 9).
  cf.compaction_style = rocksdb::kCompactionStyleUniversal;
  rocksdb::BlockBasedTableOptions table;
  // 16 KiB blocks instead of RocksDB's 4 KiB: Snappy finds more of a row's repeats (the cell
  // timestamps, the partition key shared by neighbouring keys): 13% fewer bytes on the
  // seed-scale load for the same CPU, and a quarter of the index entries.
  table.block_size = kTableBlockBytes;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  if (block_cache) table.block_cache = block_cache;
  cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return cf;
}

bool IsReservedName(std::string_view id) {
  return id.empty() || id == rocksdb::kDefaultColumnFamilyName || id == kMetaFamily;
}

// Whether a converted RocksDB status is ENOSPC: RocksDB's NoSpace subcode and the OS error
// text both read "No space left on device".
bool IsNoSpace(const common::Status& status) {
  return status.message().find("No space left on device") != std::string::npos;
}

const char* ReasonName(rocksdb::BackgroundErrorReason reason) {
  switch (reason) {
    case rocksdb::BackgroundErrorReason::kFlush:
    case rocksdb::BackgroundErrorReason::kFlushNoWAL:
      return "flush";
    case rocksdb::BackgroundErrorReason::kCompaction:
      return "compaction";
    case rocksdb::BackgroundErrorReason::kWriteCallback:
      return "write-ahead log";
    case rocksdb::BackgroundErrorReason::kMemTable:
      return "memtable";
    case rocksdb::BackgroundErrorReason::kManifestWrite:
    case rocksdb::BackgroundErrorReason::kManifestWriteNoWAL:
      return "manifest";
  }
  return "background";
}

// Records RocksDB's background errors in the store's health and keeps RocksDB from trying to
// recover from a full disk by itself (store.h header invariant 3). Called on RocksDB's threads,
// sometimes under its mutex: it only sets flags and logs.
class StoreListener final : public rocksdb::EventListener {
 public:
  StoreListener(std::shared_ptr<StoreHealth> health, std::string path)
      : health_(std::move(health)), path_(std::move(path)) {}

  void OnBackgroundError(rocksdb::BackgroundErrorReason reason, rocksdb::Status* error) override {
    health_->background_error.store(true);
    LOG_ERROR("storage: {} refuses writes after a {} error: {}; they resume once it clears", path_,
              ReasonName(reason), error->ToString());
  }

  void OnErrorRecoveryBegin(rocksdb::BackgroundErrorReason /*reason*/, rocksdb::Status error,
                            bool* auto_recovery) override {
    // RocksDB would wait for write_buffer_size free bytes (64 MiB), however small the disk,
    // and answer DB::Resume with Busy meanwhile: the store resumes instead.
    if (error.IsNoSpace()) *auto_recovery = false;
  }

  void OnErrorRecoveryEnd(const rocksdb::BackgroundErrorRecoveryInfo& info) override {
    if (!info.new_bg_error.ok()) return;
    health_->background_error.store(false);
    LOG_INFO("storage: {} recovered from {}", path_, info.old_bg_error.ToString());
  }

 private:
  std::shared_ptr<StoreHealth> health_;
  const std::string path_;
};

constexpr std::chrono::milliseconds kRecoveryPoll{200};
constexpr std::chrono::milliseconds kRecoveryMaxPause{10000};
constexpr char kReadOnlySuffix[] = "; the database is read-only until space is freed";

}  // namespace

// ---- WriteBatch ----

uint32_t WriteBatch::TableIndex(std::string_view table_id) {
  // Batches name few tables, mostly in runs: a linear search from the last one.
  for (size_t i = table_ids_.size(); i > 0; --i) {
    if (table_ids_[i - 1] == table_id) return static_cast<uint32_t>(i - 1);
  }
  table_ids_.emplace_back(table_id);
  return static_cast<uint32_t>(table_ids_.size() - 1);
}

void WriteBatch::Merge(std::string_view table_id, std::string_view key,
                       const RowFragment& fragment) {
  operations_.push_back(
      {Kind::kMerge, TableIndex(table_id), common::Bytes(key), EncodeRowFragment(fragment)});
}

void WriteBatch::MergeEncoded(std::string_view table_id, std::string_view key,
                              std::string_view value) {
  operations_.push_back(
      {Kind::kMerge, TableIndex(table_id), common::Bytes(key), common::Bytes(value)});
}

void WriteBatch::PutMeta(std::string_view key, std::string_view value) {
  operations_.push_back({Kind::kPutMeta, 0, common::Bytes(key), common::Bytes(value)});
}

void WriteBatch::DeleteMeta(std::string_view key) {
  operations_.push_back({Kind::kDeleteMeta, 0, common::Bytes(key), ""});
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
  {
    std::lock_guard lock(recovery_mutex_);
    stopping_ = true;
  }
  recovery_wake_.notify_all();
  if (recovery_thread_.joinable()) recovery_thread_.join();
  // Rows a bulk load wrote without the log live only in the memtables until flushed.
  if (db_ && options_.bulk_load && !read_only_ && !health_->background_error) {
    common::Status flushed = FlushAll();
    if (!flushed.ok())
      LOG_ERROR("storage: {}: the bulk load's last rows are lost: {}", path_, flushed.ToString());
  }
  tables_.clear();
  meta_.reset();
  if (db_) {
    // A clean shutdown leaves the write-ahead log synced in every durability mode, so writes
    // acknowledged under `periodic` survive a power cut after a graceful stop too; but not
    // while a write error stands (header invariant 4). Close reports errors of the final
    // sync; there is no caller to hand them to.
    rocksdb::Status ignored;
    if (!read_only_ && !health_->background_error) ignored = db_->FlushWAL(/*sync=*/true);
    ignored = db_->Close();
    (void)ignored;
    db_.reset();
  }
}

rocksdb::DBOptions Store::MakeDbOptions() const {
  rocksdb::DBOptions db_options;
  db_options.create_if_missing = options_.create_if_missing;
  db_options.create_missing_column_families = true;
  // One compaction filter sees a whole compaction, so partitions are never split between
  // filters (compaction_filter.h invariant 8). 1 is RocksDB's default; it is a requirement.
  db_options.max_subcompactions = 1;
  // A log is kept until every family with writes in it has flushed them: without a bound, a
  // small table written once keeps every later log of a busy one (3.3 GB of logs beside 0.6 GB
  // of data after a tenth of the seed-scale load). Past the bound RocksDB flushes the families
  // holding the oldest log.
  db_options.max_total_wal_size = kMaxTotalWalBytes;
  db_options.info_log = info_log_;           // header invariant 2
  db_options.sst_file_manager = sst_files_;  // header invariant 6
  db_options.listeners.push_back(std::make_shared<StoreListener>(health_, path_));
  db_options.statistics = statistics_;
  db_options.listeners.push_back(NewLargePartitionListener(display_names_));
  // Header invariant 7: zero-filled write-ahead logs with `sync_writes`.
  if (wal_env_) db_options.env = wal_env_.get();
  return db_options;
}

common::Result<Store::Instance> Store::OpenInstance(
    bool read_only, const std::vector<std::shared_ptr<StoreTable>>& known) {
  rocksdb::DBOptions db_options = MakeDbOptions();
  std::vector<std::string> names;
  rocksdb::Status listed = rocksdb::DB::ListColumnFamilies(db_options, path_, &names);
  if (!listed.ok()) names = {rocksdb::kDefaultColumnFamilyName};  // a new database

  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  Instance instance;
  descriptors.emplace_back(rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions());
  descriptors.emplace_back(kMetaFamily, rocksdb::ColumnFamilyOptions());
  for (const std::string& name : names) {
    if (IsReservedName(name)) continue;
    auto table = std::make_shared<StoreTable>();
    table->id = name;
    auto same =
        std::find_if(known.begin(), known.end(), [&](const auto& t) { return t->id == name; });
    if (same != known.end()) {
      table->options = (*same)->options;
      table->filter_factory = (*same)->filter_factory;
    } else {
      // A first open: the saved options are read once the database is open (LoadTableOptions).
      table->filter_factory =
          std::make_shared<RowFragmentCompactionFilterFactory>(options_.clock, table->options);
    }
    descriptors.emplace_back(
        name, TableFamilyOptions(table->filter_factory, block_cache_,
                                 options_.large_partition_warning_bytes, options_.bulk_load));
    instance.tables.push_back(std::move(table));
  }

  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw_db = nullptr;
  rocksdb::Status s =
      read_only ? rocksdb::DB::OpenForReadOnly(db_options, path_, descriptors, &handles, &raw_db)
                : rocksdb::DB::Open(db_options, path_, descriptors, &handles, &raw_db);
  if (IsLockHeld(s)) {
    return common::Status::IOError("Data directory " + path_ +
                                   " is in use by another process (RocksDB lock held)");
  }
  if (!s.ok()) return FromRocks(s);
  instance.db.reset(raw_db);
  // The default family is unused; release its handle.
  RETURN_IF_ERROR(FromRocks(instance.db->DestroyColumnFamilyHandle(handles[0])));
  instance.meta = std::make_shared<StoreTable>();
  instance.meta->id = kMetaFamily;
  instance.meta->db = instance.db;
  instance.meta->handle.reset(handles[1]);
  for (size_t i = 0; i < instance.tables.size(); ++i) {
    instance.tables[i]->db = instance.db;
    instance.tables[i]->handle.reset(handles[i + 2]);
  }
  return instance;
}

void Store::Install(Instance instance, bool read_only) {
  db_ = std::move(instance.db);
  meta_ = std::move(instance.meta);
  tables_.clear();
  for (std::shared_ptr<StoreTable>& table : instance.tables) {
    std::string id = table->id;
    tables_.emplace(std::move(id), std::move(table));
  }
  read_only_ = read_only;
}

common::Status Store::LoadTableOptions() {
  for (const std::string& id : TableIds()) {
    ASSIGN_OR_RETURN(std::optional<common::Bytes> saved, GetMeta(kTableOptionsPrefix + id));
    if (!saved) continue;
    ASSIGN_OR_RETURN(TableOptions options, DecodeTableOptions(*saved));
    std::unique_lock lock(mutex_);
    StoreTable& table = *tables_.at(id);
    table.options = options;
    table.filter_factory->set_options(options);
  }
  return common::Status::Ok();
}

common::Result<std::unique_ptr<Store>> Store::Open(const std::string& path,
                                                   const StoreOptions& options) {
  if (options.clock == nullptr) return common::Status::Invalid("StoreOptions.clock is null");
  auto store = std::make_unique<Store>(StoreKey(), options);
  store->path_ = path;
  if (options.create_if_missing) {
    std::error_code ignored;  // RocksDB reports a directory it cannot create
    std::filesystem::create_directories(path, ignored);
  }
  store->disk_space_ = std::make_unique<DiskSpaceGuard>(
      path, DiskSpaceGuardOptions{.floor_bytes = options.min_free_space_bytes});
  if (options.block_cache_bytes > 0) {
    store->block_cache_ = rocksdb::NewLRUCache(options.block_cache_bytes);
  }
  if (options.sync_writes) store->wal_env_ = NewZeroFilledWalEnv();
  store->info_log_ = std::make_shared<InfoLogFile>(path);
  store->health_ = std::make_shared<StoreHealth>();
  store->statistics_ = NewStoreStatistics();
  store->display_names_ = std::make_shared<TableDisplayNames>();
  store->sst_files_.reset(rocksdb::NewSstFileManager(rocksdb::Env::Default(), store->info_log_));
  store->sst_files_->SetCompactionBufferSize(store->disk_space_->floor_bytes());

  bool read_only = !store->disk_space_->HasRoom();
  common::Result<Instance> instance = store->OpenInstance(read_only, {});
  if (!read_only && !instance.ok() && IsNoSpace(instance.status())) {
    LOG_WARNING("storage: cannot open {} read-write: {}", path, instance.status().ToString());
    read_only = true;
    instance = store->OpenInstance(read_only, {});
  }
  if (!instance.ok()) {
    if (!read_only) return instance.status();
    return instance.status().WithPrefix(
        store->disk_space_->Refusal("; opening it read-only failed: ").message());
  }
  if (read_only) {
    LOG_WARNING("storage: {} opened read-only: {}", path,
                store->disk_space_->Refusal(kReadOnlySuffix).message());
  }
  {
    std::unique_lock lock(store->mutex_);
    store->Install(std::move(instance).value(), read_only);
  }
  RETURN_IF_ERROR(store->LoadTableOptions());
  store->recovery_thread_ = std::thread([raw = store.get()] { raw->RecoveryLoop(); });
  return store;
}

bool Store::read_only() const { return read_only_; }

void Store::RecoveryLoop() {
  std::chrono::milliseconds pause = kRecoveryPoll;
  std::unique_lock lock(recovery_mutex_);
  while (!recovery_wake_.wait_for(lock, pause, [this] { return stopping_; })) {
    lock.unlock();
    bool attempted = false;
    bool recovered = false;
    if ((read_only_ || health_->background_error) && disk_space_->HasRoom()) {
      attempted = true;
      recovered = read_only_ ? TryReopenWritable() : TryResume();
    }
    // Failed attempts back off (each may write and delete a partial file); success or
    // nothing to do returns to the short poll.
    pause = attempted && !recovered ? std::min(pause * 2, kRecoveryMaxPause) : kRecoveryPoll;
    lock.lock();
  }
}

bool Store::TryReopenWritable() {
  std::vector<std::shared_ptr<StoreTable>> known;
  {
    std::shared_lock lock(mutex_);
    for (const auto& [id, table] : tables_) known.push_back(table);
  }
  // Tables cannot change meanwhile: every change is refused while read-only.
  common::Result<Instance> instance = OpenInstance(/*read_only=*/false, known);
  if (!instance.ok()) {
    LOG_WARNING("storage: {} stays read-only: {}", path_, instance.status().ToString());
    return false;
  }
  {
    std::unique_lock lock(mutex_);
    Install(std::move(instance).value(), /*read_only=*/false);
  }
  LOG_INFO("storage: {} has room again ({} MiB free); the database is writable", path_,
           disk_space_->free_bytes() >> 20);
  return true;
}

bool Store::TryResume() {
  std::shared_ptr<rocksdb::DB> db;
  {
    std::shared_lock lock(mutex_);
    db = db_;
  }
  // Cleared first: an error during the attempt sets it again through the listener.
  health_->background_error = false;
  rocksdb::Status s = db->Resume();
  if (!s.ok()) {
    health_->background_error = true;
    LOG_WARNING("storage: {} cannot resume writes yet: {}", path_, s.ToString());
    return false;
  }
  LOG_INFO("storage: {} resumed writes ({} MiB free)", path_, disk_space_->free_bytes() >> 20);
  return true;
}

common::Status Store::CheckChange(uint64_t bytes) {
  if (read_only_) return disk_space_->Refusal(kReadOnlySuffix);
  return disk_space_->CheckWrite(bytes);
}

common::Status Store::WriteError(const common::Status& rocks_error) const {
  if (IsNoSpace(rocks_error)) {
    return common::Status(common::StatusCode::kWriteFailure,
                          fmt::format("Write failed: the disk holding {} is full ({}); writes "
                                      "resume once space is freed",
                                      path_, rocks_error.message()));
  }
  return common::Status(
      common::StatusCode::kWriteFailure,
      fmt::format("Write failed: storage error in {}: {}", path_, rocks_error.message()));
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
      TableFamilyOptions(table->filter_factory, block_cache_,
                         options_.large_partition_warning_bytes, options_.bulk_load),
      table_id, &handle);
  if (!s.ok()) return WriteError(FromRocks(s));
  table->db = db_;
  table->handle.reset(handle);
  return table;
}

common::Status Store::SaveTableOptions(const std::string& table_id, const TableOptions& options) {
  ASSIGN_OR_RETURN(common::Bytes encoded, EncodeTableOptions(options));
  rocksdb::WriteOptions write_options;
  write_options.sync = options_.sync_writes;
  rocksdb::Status s =
      db_->Put(write_options, meta_->handle.get(), kTableOptionsPrefix + table_id, encoded);
  return s.ok() ? common::Status::Ok() : WriteError(FromRocks(s));
}

common::Status Store::FlushMeta() {
  rocksdb::Status s = db_->Flush(rocksdb::FlushOptions(), meta_->handle.get());
  return s.ok() ? common::Status::Ok() : WriteError(FromRocks(s));
}

common::Status Store::CreateTable(std::string_view table_id, const TableOptions& options) {
  if (IsReservedName(table_id)) {
    return common::Status::Invalid("Reserved table id '" + std::string(table_id) + "'");
  }
  std::unique_lock lock(mutex_);
  if (tables_.count(table_id) > 0) {
    return common::Status::AlreadyExists("Table " + std::string(table_id) + " already exists");
  }
  RETURN_IF_ERROR(CheckChange(0));
  std::string id(table_id);
  RETURN_IF_ERROR(SaveTableOptions(id, options));
  ASSIGN_OR_RETURN(std::shared_ptr<StoreTable> table, CreateColumnFamily(id, options));
  tables_.emplace(id, std::move(table));
  return common::Status::Ok();
}

common::Status Store::AlterTable(std::string_view table_id, const TableOptions& options) {
  TableWideChange change(&versions_);
  std::unique_lock lock(mutex_);
  auto it = tables_.find(table_id);
  if (it == tables_.end())
    return common::Status::NotFound("Unknown table " + std::string(table_id));
  RETURN_IF_ERROR(CheckChange(0));
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
  TableWideChange change(&versions_);
  std::unique_lock lock(mutex_);
  auto it = tables_.find(table_id);
  if (it == tables_.end())
    return common::Status::NotFound("Unknown table " + std::string(table_id));
  // Below the floor too: dropping frees space (header invariant 1).
  if (read_only_) return disk_space_->Refusal(kReadOnlySuffix);
  rocksdb::Status s = db_->DropColumnFamily(it->second->handle.get());
  if (!s.ok()) return WriteError(FromRocks(s));
  rocksdb::WriteOptions write_options;
  write_options.sync = options_.sync_writes;
  s = db_->Delete(write_options, meta_->handle.get(), kTableOptionsPrefix + it->first);
  if (!s.ok()) return WriteError(FromRocks(s));
  tables_.erase(it);
  return FlushMeta();
}

common::Status Store::TruncateTable(std::string_view table_id) {
  TableWideChange change(&versions_);
  std::unique_lock lock(mutex_);
  auto it = tables_.find(table_id);
  if (it == tables_.end())
    return common::Status::NotFound("Unknown table " + std::string(table_id));
  if (read_only_) return disk_space_->Refusal(kReadOnlySuffix);
  rocksdb::Status s = db_->DropColumnFamily(it->second->handle.get());
  if (!s.ok()) return WriteError(FromRocks(s));
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
  // RocksDB's batch grows its buffer by copying as records are appended: sized once instead
  // (a record is its key and value plus a tag, a family id and two lengths, each <= 5 bytes).
  size_t reserved = kRocksBatchHeaderBytes;
  for (const WriteBatch::Operation& op : batch.operations_) {
    reserved += op.key.size() + op.value.size() + kRocksRecordOverheadBytes;
  }
  rocksdb::WriteBatch rocks_batch(reserved);
  uint64_t bytes = 0;
  bool changes_meta = false;
  // The partition stripes the batch touches (partition_versions.h invariant 1); consecutive
  // operations on one partition, the common case, are hashed once.
  std::vector<size_t> stripes;
  const WriteBatch::Operation* previous = nullptr;
  // With an observer, what it is told: the merges, their `started` filled in after Begin.
  WriteObserver* observer = observer_.load();
  std::vector<WrittenMerge> merges;
  std::shared_lock lock(mutex_);  // keeps every named family alive until the write is done
  // The family (and key shape) of each of the batch's tables, looked up once.
  std::vector<rocksdb::ColumnFamilyHandle*> families(batch.table_ids_.size(), nullptr);
  std::vector<const KeyShape*> shapes(batch.table_ids_.size(), nullptr);
  for (size_t i = 0; i < families.size(); ++i) {
    auto it = tables_.find(batch.table_ids_[i]);
    if (it == tables_.end()) return common::Status::Invalid("Unknown table " + batch.table_ids_[i]);
    families[i] = it->second->handle.get();
    if (it->second->options.shape) shapes[i] = &*it->second->options.shape;
  }
  for (const WriteBatch::Operation& op : batch.operations_) {
    switch (op.kind) {
      case WriteBatch::Kind::kMerge: {
        RETURN_IF_ERROR(
            FromRocks(rocks_batch.Merge(families[op.table], ToSlice(op.key), ToSlice(op.value))));
        bytes += op.key.size() + op.value.size();
        if (previous == nullptr || previous->table != op.table ||
            previous->key.compare(0, 8, op.key, 0, 8) != 0) {
          stripes.push_back(PartitionVersions::StripeOf(batch.table_ids_[op.table], op.key));
          previous = &op;
        }
        if (observer != nullptr) {
          merges.push_back(WrittenMerge{batch.table_ids_[op.table], shapes[op.table], op.key,
                                        op.value, stripes.back(), 0});
        }
        break;
      }
      case WriteBatch::Kind::kPutMeta:
        changes_meta = true;
        RETURN_IF_ERROR(
            FromRocks(rocks_batch.Put(meta_->handle.get(), ToSlice(op.key), ToSlice(op.value))));
        bytes += op.key.size() + op.value.size();
        break;
      case WriteBatch::Kind::kDeleteMeta:
        changes_meta = true;
        RETURN_IF_ERROR(FromRocks(rocks_batch.Delete(meta_->handle.get(), ToSlice(op.key))));
        bytes += op.key.size();
        break;
    }
  }
  RETURN_IF_ERROR(CheckChange(bytes));
  std::sort(stripes.begin(), stripes.end());
  stripes.erase(std::unique(stripes.begin(), stripes.end()), stripes.end());
  // started[i]: the number Begin gave this write in stripes[i] (invariant 5), kept only for
  // the observer.
  std::vector<uint64_t> started(merges.empty() ? 0 : stripes.size());
  for (size_t i = 0; i < stripes.size(); ++i) {
    uint64_t number = versions_.Begin(stripes[i]);
    if (!started.empty()) started[i] = number;
  }
  rocksdb::WriteOptions write_options;
  write_options.sync = options_.sync_writes;
  write_options.disableWAL = options_.bulk_load && !options_.sync_writes && !changes_meta;
  rocksdb::Status s = db_->Write(write_options, &rocks_batch);
  if (s.ok() && !merges.empty()) {
    for (WrittenMerge& merge : merges) {
      auto at = std::lower_bound(stripes.begin(), stripes.end(), merge.stripe);
      merge.started = started[static_cast<size_t>(at - stripes.begin())];
    }
    observer->Written(merges, versions_);
  }
  for (size_t stripe : stripes) versions_.End(stripe);
  return s.ok() ? common::Status::Ok() : WriteError(FromRocks(s));
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
  return GetFragment(table->db.get(), table->handle.get(), key);
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
                     GetFragment(table->db.get(), table->handle.get(), partition_deletion_key));
  }
  ASSIGN_OR_RETURN(result.row, GetFragment(table->db.get(), table->handle.get(), row_key));
  return result;
}

common::Result<std::optional<common::Bytes>> Store::GetMeta(std::string_view key) const {
  std::shared_ptr<StoreTable> meta;
  {
    std::shared_lock lock(mutex_);
    meta = meta_;
  }
  std::string value;
  rocksdb::Status s =
      meta->db->Get(rocksdb::ReadOptions(), meta->handle.get(), ToSlice(key), &value);
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
  it->iterator_.reset(table->db->NewIterator(read_options, table->handle.get()));
  return it;
}

common::Status Store::FlushTable(std::string_view table_id) {
  ASSIGN_OR_RETURN(std::shared_ptr<StoreTable> table, FindTable(table_id));
  if (read_only_) return disk_space_->Refusal(kReadOnlySuffix);
  rocksdb::Status s = table->db->Flush(rocksdb::FlushOptions(), table->handle.get());
  return s.ok() ? common::Status::Ok() : WriteError(FromRocks(s));
}

common::Status Store::CompactTable(std::string_view table_id) {
  TableWideChange change(&versions_);
  ASSIGN_OR_RETURN(std::shared_ptr<StoreTable> table, FindTable(table_id));
  // A compaction writes its output before it deletes its input (header invariant 1).
  RETURN_IF_ERROR(CheckChange(0));
  std::lock_guard compact_lock(table->compact_mutex);
  rocksdb::CompactRangeOptions compact_options;
  compact_options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  // Wait for running automatic compactions so each pass includes every file (a full
  // compaction), and keep each pass in one filter (compaction_filter.h invariant 8).
  compact_options.exclusive_manual_compaction = true;
  compact_options.max_subcompactions = 1;
  // Pass 1: every key's operands become one value (compaction_filter.h invariant 5).
  RETURN_IF_ERROR(
      FromRocks(table->db->CompactRange(compact_options, table->handle.get(), nullptr, nullptr)));
  // Pass 2: every value is filtered; partition and range tombstones may go (invariant 9).
  table->filter_factory->set_purge_partition_tombstones(true);
  rocksdb::Status s =
      table->db->CompactRange(compact_options, table->handle.get(), nullptr, nullptr);
  table->filter_factory->set_purge_partition_tombstones(false);
  return FromRocks(s);
}

common::Result<TableStorageStatistics> Store::TableStatistics(std::string_view table_id) const {
  ASSIGN_OR_RETURN(std::shared_ptr<StoreTable> table, FindTable(table_id));
  return CollectTableStatistics(table->db.get(), table->handle.get());
}

StoreStatistics Store::Statistics() const {
  StoreStatistics out;
  std::shared_ptr<rocksdb::DB> db;
  {
    std::shared_lock lock(mutex_);
    db = db_;
  }
  if (db) CollectStoreStatistics(db.get(), statistics_.get(), path_, &out);
  out.disk_free_bytes = disk_space_->free_bytes();
  out.disk_floor_bytes = disk_space_->floor_bytes();
  out.read_only = read_only_;
  return out;
}

void Store::SetTableDisplayNames(std::map<std::string, std::string, std::less<>> names) {
  display_names_->Set(std::move(names));
}

rocksdb::ColumnFamilyHandle* Store::FamilyHandle(const StoreTable& table) {
  return table.handle.get();
}

common::Status Store::ReadOnlyRefusal() const { return disk_space_->Refusal(kReadOnlySuffix); }

}  // namespace storage
