#include "bench/raw_store.h"

#include <vector>

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>

#include "storage/key_layout.h"
#include "storage/merge_operator.h"
#include "storage/store.h"

namespace bench {

namespace {

constexpr char kTableFamily[] = "table";

common::Status FromRocks(const rocksdb::Status& s) {
  if (s.ok()) return common::Status::Ok();
  return common::Status::IOError(s.ToString());
}

// The options store.cc gives a table's column family (kept in step by hand: they are private
// to the storage layer), but for the purge compaction filter: the benchmarks delete nothing,
// and raw RocksDB has none. The block cache has the Store's default size (the Store shares one
// among its tables; each benchmark reads one table, so that is the same).
rocksdb::ColumnFamilyOptions TableFamilyOptions() {
  rocksdb::ColumnFamilyOptions cf;
  cf.merge_operator = storage::MakeRowFragmentMergeOperator();
  cf.prefix_extractor = storage::NewTokenPrefixExtractor();
  cf.compaction_style = rocksdb::kCompactionStyleUniversal;
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  table.block_cache = rocksdb::NewLRUCache(storage::StoreOptions().block_cache_bytes);
  cf.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return cf;
}

common::Status CompactFamily(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* family) {
  RETURN_IF_ERROR(FromRocks(db->Flush(rocksdb::FlushOptions(), family)));
  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  return FromRocks(db->CompactRange(compact, family, nullptr, nullptr));
}

}  // namespace

RawStore::~RawStore() {
  if (!db_) return;
  if (table_ != nullptr) {
    rocksdb::Status ignored = db_->DestroyColumnFamilyHandle(table_);
    (void)ignored;
  }
  rocksdb::Status ignored = db_->Close();
  (void)ignored;
}

common::Result<std::unique_ptr<RawStore>> RawStore::Open(const std::string& path, bool sync) {
  auto store = std::make_unique<RawStore>();
  store->sync_ = sync;
  rocksdb::DBOptions options;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyDescriptor> families = {
      {rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions()},
      {kTableFamily, TableFamilyOptions()}};
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  RETURN_IF_ERROR(FromRocks(rocksdb::DB::Open(options, path, families, &handles, &db)));
  store->db_.reset(db);
  RETURN_IF_ERROR(FromRocks(db->DestroyColumnFamilyHandle(handles[0])));
  store->table_ = handles[1];
  return store;
}

common::Status RawStore::CompactAll() { return CompactFamily(db_.get(), table_); }

common::Result<std::vector<std::optional<common::Bytes>>> RawStore::CompactDirectory(
    const std::string& path, const std::string& family, std::span<const common::Bytes> keys) {
  rocksdb::DBOptions options;
  std::vector<std::string> names;
  RETURN_IF_ERROR(FromRocks(rocksdb::DB::ListColumnFamilies(options, path, &names)));
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const std::string& name : names) {
    bool is_table = name != rocksdb::kDefaultColumnFamilyName && name != "meta";
    families.emplace_back(name, is_table ? TableFamilyOptions() : rocksdb::ColumnFamilyOptions());
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  RETURN_IF_ERROR(FromRocks(rocksdb::DB::Open(options, path, families, &handles, &raw)));
  std::unique_ptr<rocksdb::DB> db(raw);
  common::Status status = common::Status::Ok();
  std::vector<std::optional<common::Bytes>> values;
  for (size_t i = 0; i < handles.size(); ++i) {
    if (status.ok()) status = CompactFamily(db.get(), handles[i]);
    if (status.ok() && names[i] == family) {
      for (const common::Bytes& key : keys) {
        std::string value;
        rocksdb::Status s = db->Get(rocksdb::ReadOptions(), handles[i], key, &value);
        if (s.IsNotFound()) {
          values.emplace_back();
        } else if (s.ok()) {
          values.emplace_back(std::move(value));
        } else {
          status = FromRocks(s);
          break;
        }
      }
    }
  }
  for (rocksdb::ColumnFamilyHandle* handle : handles) {
    rocksdb::Status ignored = db->DestroyColumnFamilyHandle(handle);
    (void)ignored;
  }
  RETURN_IF_ERROR(status);
  if (values.size() != keys.size()) {
    return common::Status::NotFound("No column family " + family + " in " + path);
  }
  RETURN_IF_ERROR(FromRocks(db->Close()));
  return values;
}

}  // namespace bench
