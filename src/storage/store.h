// Store: the storage layer's handle on one RocksDB database (docs/dev/storage_format.md;
// docs/reliability.md §5).
//
// One column family per table (named by the table id the schema layer chooses, e.g. its
// UUID), each with the row-fragment merge operator, the purge compaction filter and the token
// prefix extractor, plus a "meta" family for schema and engine metadata. Writes are blind
// `Merge`s of encoded RowFragments collected in a `storage::WriteBatch`, applied atomically
// across tables. Reads decode fragments; the fragment of a key is the merge of everything ever
// written to it, so there is no read-before-write anywhere.
//
// rocksdb::Status is converted to common::Status here and nowhere else: NotFound → NotFound,
// Corruption → Corruption, IOError → IOError, anything else → Internal; except that a write
// which cannot be made (a full disk, an I/O error) is a WriteFailure that says why.
//
// Full disk and I/O errors (docs/reliability.md §2). Numbered, because each guards the others:
//  1. Writes, CreateTable, AlterTable and CompactTable are refused, as WriteFailure, while the
//     disk's free space is below the floor (disk_space.h), before RocksDB sees them; so in
//     normal operation RocksDB never meets ENOSPC. DropTable and TruncateTable, which free
//     space, are let through. Reads are never refused.
//  2. RocksDB's informational LOG is written by `InfoLogFile` (info_log.h): RocksDB's own file
//     logger aborts the process (an assertion the Debian build keeps) on the line after a
//     failed append.
//  3. Should RocksDB still fail to write (the disk filled by someone else, the floor set to
//     0, EIO), it stops accepting writes (a background error) and every write fails with that
//     error. The store's listener records it; RocksDB's own recovery from a full disk is turned
//     off (it waits for `write_buffer_size` free bytes and makes DB::Resume busy meanwhile) and
//     the store's recovery thread calls DB::Resume once the free space is back above the
//     floor, retrying with a growing pause while it fails.
//  4. While a background error stands, the write-ahead log is never synced by hand (FlushWAL
//     on a log writer that has seen an error trips the same assertion as 2); Close is safe.
//  5. Open on a disk below the floor (or whose read-write open fails for lack of space, since
//     opening writes the manifest, the options file and a new log) opens read-only: reads are
//     served, every change is refused as in 1, and the recovery thread reopens the database
//     read-write once space is back. RocksDB's read-only instances take no lock, so the
//     read-write instance opens beside it; tables and iterators bound to the read-only
//     instance keep it alive until they are gone.
//  6. An SstFileManager keeps automatic compactions from starting without the floor to spare.
//  7. With `sync_writes`, write-ahead log files are zero-filled ahead of the log
//     (wal_file_system.h), so that the sync a write waits for is one data write, not a data
//     write and a journal commit.
//
// Thread-safety: `Store` is thread-safe. Reads and writes take a shared lock on the table
// map; CreateTable/DropTable/TruncateTable and the switch from read-only to read-write take
// it exclusively (they are rare); CompactTable calls on one table run one after the other (a
// per-table mutex). The recovery thread belongs to the Store and is stopped by its
// destructor. Iterators and WriteBatches are not thread-safe; each belongs to one thread. An
// iterator keeps its table's column family (and RocksDB instance) alive across a concurrent
// DROP/TRUNCATE or reopen (it keeps reading the old data) but must be destroyed before the
// Store.

#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/bytes.h"
#include "common/clock.h"
#include "common/result.h"
#include "storage/disk_space.h"
#include "storage/partition_versions.h"
#include "storage/row_fragment.h"
#include "storage/store_statistics.h"
#include "storage/table_options.h"

namespace rocksdb {
class Cache;
class DB;
class ColumnFamilyHandle;
class Env;
class Iterator;
class Logger;
class Slice;
class SstFileManager;
class Statistics;
struct DBOptions;
}  // namespace rocksdb

namespace storage {

struct StoreOptions {
  // Source of "now" for TTL expiry and gc_grace purging. REQUIRES: non-null and outlives the
  // Store.
  const common::Clock* clock = nullptr;
  // fsync the write-ahead log before Write returns (commitlog_sync: batch). Without it a
  // killed process loses nothing acknowledged (the WAL is in the OS page cache), a power cut
  // may lose the last writes.
  bool sync_writes = false;
  // Bulk load (`hotel load`; docs/reliability.md §5): a write that changes only table rows
  // skips the write-ahead log (RocksDB's `disableWAL`), which saves writing every row twice;
  // a write with catalogue changes (the meta family) still goes through the log. Rows are
  // durable once the memtables are flushed to SST files, which RocksDB syncs: `FlushAll`, or
  // the destructor, which flushes before closing. A crash before that loses the unflushed
  // rows (the load is re-run). Ignored with `sync_writes`. Table families also get no
  // automatic compactions and 128 MiB memtables for the store's lifetime: each row is written
  // once, and the files the load leaves are compacted (universal compaction, in the
  // background) when the database is next opened without this option.
  bool bulk_load = false;
  bool create_if_missing = true;
  // Capacity of the one LRU block cache (uncompressed SST blocks) shared by every table's
  // column family. 0: no shared cache; each family then gets RocksDB's default cache of its
  // own (8 MiB in RocksDB 7.x).
  size_t block_cache_bytes = size_t{256} << 20;
  // Free bytes below which changes are refused (disk_space.h, header invariant 1). nullopt: 64
  // MiB or 1% of the disk, whichever is larger; 0: never refuse.
  std::optional<uint64_t> min_free_space_bytes = std::nullopt;
  // A partition larger than this written to one SST file (flush or compaction) is logged with
  // Cassandra's "Writing large partition" warning (compaction_large_partition_warning_threshold_mb,
  // 100 MiB by default; partition_statistics.h). 0: never.
  uint64_t large_partition_warning_bytes = uint64_t{100} << 20;
};

// Mutations for one atomic Store::Write, across any tables and the meta family.
// Thread-safety: not thread-safe.
class WriteBatch {
 public:
  // Merges `fragment` into the entry `key` of table `table_id`.
  void Merge(std::string_view table_id, std::string_view key, const RowFragment& fragment);
  // Merges an already encoded fragment (EncodeRowFragment).
  void MergeEncoded(std::string_view table_id, std::string_view key, std::string_view value);
  void PutMeta(std::string_view key, std::string_view value);
  void DeleteMeta(std::string_view key);

  size_t size() const { return operations_.size(); }
  bool empty() const { return operations_.empty(); }

 private:
  friend class Store;
  enum class Kind { kMerge, kPutMeta, kDeleteMeta };
  struct Operation {
    Kind kind;
    uint32_t table;  // kMerge: index in table_ids_
    common::Bytes key;
    common::Bytes value;
  };
  // The index of `table_id` in table_ids_, added when new.
  uint32_t TableIndex(std::string_view table_id);
  std::vector<std::string> table_ids_;
  std::vector<Operation> operations_;
};

// A half-open key range [lower, upper) of one table; an empty bound is unbounded.
struct KeyRange {
  common::Bytes lower;
  common::Bytes upper;
};

// One table's open column family; defined in store.cc.
struct StoreTable;
// RocksDB's error state, shared by the Store and its event listener; defined in store.cc.
struct StoreHealth;

// One merge operation of a successful Store::Write, as a WriteObserver sees it. The views
// point into the write's batch and the store's table options: valid during the call only.
struct WrittenMerge {
  std::string_view table_id;
  const KeyShape* shape = nullptr;  // the table's key shape (TableOptions::shape); null: none
  std::string_view key;
  std::string_view value;  // the encoded RowFragment merged into `key`
  size_t stripe = 0;       // PartitionVersions::StripeOf(table_id, key)
  uint64_t started = 0;    // what this write's PartitionVersions::Begin(stripe) returned
};

// Told of every successful Store::Write (engine/row_cache.h applies writes to cached
// partitions through it). Called after the write is visible to reads and before its stripes'
// PartitionVersions::End (partition_versions.h invariant 5), with the store's table lock held
// shared: it must not call back into the store. Not called for a failed write.
// Thread-safety: implementations must be thread-safe (concurrent writes call it concurrently).
class WriteObserver {
 public:
  virtual ~WriteObserver() = default;
  // `merges`: the batch's merge operations in batch order (meta operations are left out).
  virtual void Written(std::span<const WrittenMerge> merges, const PartitionVersions& versions) = 0;
};

// A pass key: only Store can make one, so only Store constructs the classes below even though
// their constructors are public (which std::make_unique needs).
class StoreKey {
 private:
  friend class Store;
  StoreKey() = default;
};

// Iterates the entries of a table in key order, forwards or backwards, decoding fragments.
// Thread-safety: not thread-safe.
class FragmentIterator {
 public:
  FragmentIterator(StoreKey key, std::shared_ptr<StoreTable> table, KeyRange range);
  ~FragmentIterator();
  FragmentIterator(const FragmentIterator&) = delete;
  FragmentIterator& operator=(const FragmentIterator&) = delete;

  void SeekToFirst();
  void SeekToLast();
  // First entry with key >= target (within the range).
  void Seek(std::string_view target);
  // Last entry with key <= target (within the range).
  void SeekForPrev(std::string_view target);
  // REQUIRES: Valid().
  void Next();
  void Prev();

  // False at either end or on error (then status() says which).
  bool Valid() const;
  // REQUIRES: Valid(). The view is valid until the iterator moves.
  std::string_view key() const;
  // The decoded fragment of the current entry; Corruption if it does not decode.
  // REQUIRES: Valid().
  common::Result<RowFragment> fragment() const;
  // OK, or the error that ended the iteration.
  common::Status status() const;

 private:
  friend class Store;

  std::shared_ptr<StoreTable> table_;  // keeps the column family handle alive
  KeyRange range_;
  std::unique_ptr<rocksdb::Slice> lower_;
  std::unique_ptr<rocksdb::Slice> upper_;
  std::unique_ptr<rocksdb::Iterator> iterator_;
};

class Store {
 public:
  // Use Open.
  Store(StoreKey key, const StoreOptions& options);
  // Opens (or creates, with `options.create_if_missing`) the database at `path`, reopening
  // every table column family found there. Fails with Invalid when options.clock is null;
  // IOError "Data directory <path> is in use by another process (RocksDB lock held)" when
  // another Store (in this or another process) has the directory open; IOError/Corruption
  // from RocksDB otherwise. On a disk below the free-space floor, or when the read-write open
  // fails for lack of space, it opens read-only instead (header invariant 5; `read_only()`).
  static common::Result<std::unique_ptr<Store>> Open(const std::string& path,
                                                     const StoreOptions& options);
  // Stops the recovery thread, syncs the write-ahead log (unless a write error stands: header
  // invariant 4) and closes the database (memtables are not flushed: the log replays them on
  // the next open).
  ~Store();

  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Creates the column family of table `table_id` and records its options (gc_grace, key
  // shape; table_options.h) in the meta family. AlreadyExists if it exists; Invalid for an
  // empty id, a reserved name ("default", "meta") or a shape that cannot be encoded;
  // WriteFailure below the free-space floor, while read-only, or when RocksDB cannot write.
  common::Status CreateTable(std::string_view table_id, const TableOptions& options);
  // Replaces a table's options (all of them: pass the shape again). Later compactions use
  // them. NotFound if the table does not exist; Invalid for a shape that cannot be encoded;
  // WriteFailure as CreateTable.
  common::Status AlterTable(std::string_view table_id, const TableOptions& options);
  // The table's options as stored (a table whose options were saved in version 1, or never,
  // has the defaults for the rest: no shape). NotFound if the table does not exist.
  common::Result<TableOptions> TableOptionsOf(std::string_view table_id) const;
  // Drops the column family and all its data, and deletes its options. The meta family is
  // flushed afterwards, so the write-ahead logs that held only the dropped data are released
  // now rather than kept (and replayed) until some other flush. NotFound if the table does
  // not exist; WriteFailure while read-only or when RocksDB cannot write (not below the
  // floor: dropping frees space).
  common::Status DropTable(std::string_view table_id);
  // Removes all data of the table, keeping the table and its options (a new, empty column
  // family of the same name). Like DropTable, rewrites the options and flushes the meta
  // family so the logs of the dropped data are released. NotFound if missing; WriteFailure
  // as DropTable.
  common::Status TruncateTable(std::string_view table_id);
  bool HasTable(std::string_view table_id) const;
  std::vector<std::string> TableIds() const;

  // Applies every operation of `batch` atomically. Invalid (nothing written) if it names a
  // table that does not exist; WriteFailure (nothing written) below the free-space floor,
  // while read-only, or when RocksDB cannot write (header invariants 1, 3, 5). The write is
  // bracketed in `partition_versions()` for every partition it touches.
  common::Status Write(const WriteBatch& batch);

  // The write counters of every table's partitions (partition_versions.h): Write, DropTable,
  // TruncateTable, AlterTable and CompactTable bracket their changes in them, so a cache of
  // reads can tell whether what it holds is still current.
  const PartitionVersions& partition_versions() const { return versions_; }
  // Tells `observer` of every later successful Write (null: nobody). REQUIRES: `observer`
  // outlives the store or is unset first; set before the writes it must see start.
  void set_write_observer(WriteObserver* observer) { observer_.store(observer); }

  // Whether the store is open read-only for lack of space (header invariant 5). It becomes
  // writable by itself once space is back.
  bool read_only() const;

  // The merged fragment stored under `key`, or nullopt if there is none. NotFound if the
  // table does not exist; Corruption if the stored bytes do not decode.
  common::Result<std::optional<RowFragment>> Get(std::string_view table_id,
                                                 std::string_view key) const;
  common::Result<std::optional<common::Bytes>> GetMeta(std::string_view key) const;

  // A partition of a table without clustering columns: its row (the fragment under `row_key`)
  // and its partition deletion (under `partition_deletion_key`; not read, and nullopt, when the
  // table has `single_row_partitions`), with one table lookup. The deletion is read first, so
  // a deletion racing with the read is missed only as a read ordered before it would miss it.
  // Errors as Get.
  struct PartitionRow {
    std::optional<RowFragment> deletion;
    std::optional<RowFragment> row;
  };
  common::Result<PartitionRow> GetPartitionRow(std::string_view table_id,
                                               std::string_view partition_deletion_key,
                                               std::string_view row_key) const;

  // An iterator over `range` of the table, positioned nowhere (call a Seek first).
  // NotFound if the table does not exist.
  common::Result<std::unique_ptr<FragmentIterator>> NewIterator(std::string_view table_id,
                                                                const KeyRange& range) const;

  // Flushes the table's memtable to a file. WriteFailure while read-only or when RocksDB
  // cannot write.
  common::Status FlushTable(std::string_view table_id);
  // Compacts the whole table so that it holds no purgeable data: two full manual compactions
  // (compaction_filter.h invariants 5 and 9). The first folds every key's merge operands
  // into one value at the bottom (RocksDB never filters a merge result); the second filters
  // every value: expired cells become tombstones, data shadowed by partition and range
  // tombstones goes, and tombstones past gc_grace are purged, partition and range tombstones
  // included when the table has a key shape. Concurrent calls on one table are serialized.
  // Writes may continue meanwhile; compaction_filter.h states the remaining hazard for
  // writes with timestamps older than a purged tombstone. NotFound if the table is missing;
  // WriteFailure below the free-space floor or while read-only (header invariant 1).
  common::Status CompactTable(std::string_view table_id);

  // What RocksDB knows about table `table_id` now (store_statistics.h; partition figures are
  // estimates over its SST files, partition_statistics.h). NotFound if the table is missing.
  common::Result<TableStorageStatistics> TableStatistics(std::string_view table_id) const;
  // What RocksDB knows about the whole store now.
  StoreStatistics Statistics() const;
  // The "keyspace/table" names that the large-partition warning prints for table ids (the
  // engine sets them after each schema change); unknown ids are printed as they are.
  void SetTableDisplayNames(std::map<std::string, std::string, std::less<>> names);

  // Operations (store_operations.cc; docs/operations.md §5, §6).

  // The data directory this store opened.
  const std::string& path() const { return path_; }
  // Flushes the memtables of every table and of the meta family to files. WriteFailure while
  // read-only or when RocksDB cannot write.
  common::Status FlushAll();
  // A file of a checkpoint and the column family it belongs to (a table id, or "meta").
  struct CheckpointFile {
    std::string name;  // relative to the checkpoint directory, e.g. "000012.sst"
    std::string column_family;
    uint64_t bytes = 0;
  };
  // Writes a consistent checkpoint of the whole database, every table and the meta family as
  // of one moment, into `directory` (which must not exist; its parent must): memtables are
  // flushed, then the table files are hard-linked (copied when `directory` is on another
  // filesystem) and the manifest and logs copied. The checkpoint is a data directory of its
  // own: Store::Open on (a copy of) it restores the database as it was. Returns the table
  // files of the checkpoint with their column family. WriteFailure below the free-space floor
  // or while read-only (header invariant 1); IOError when `directory` exists or cannot be
  // written (nothing is left behind).
  common::Result<std::vector<CheckpointFile>> Checkpoint(const std::string& directory);
  // The shared block cache: capacity, bytes in use and blocks held (all 0 when there is none).
  struct CacheUsage {
    uint64_t capacity_bytes = 0;
    uint64_t used_bytes = 0;
    uint64_t entries = 0;
  };
  CacheUsage BlockCacheUsage() const;

 private:
  // One opened RocksDB instance with its column families; defined in store.cc.
  struct Instance;

  // Opens the RocksDB instance at path_ (read-write or read-only) with every column family
  // found there, binding them to `known` tables' options and filters when given (a reopen).
  common::Result<Instance> OpenInstance(bool read_only,
                                        const std::vector<std::shared_ptr<StoreTable>>& known);
  rocksdb::DBOptions MakeDbOptions() const;
  // Reads each table's saved options (a first open). REQUIRES: mutex_ not held; only Open.
  common::Status LoadTableOptions();
  // Makes `instance` the store's database (REQUIRES: mutex_ held exclusively).
  void Install(Instance instance, bool read_only);
  // The recovery thread (header invariants 3 and 5): sleeps, and while something is wrong
  // and the disk has room, reopens read-write or resumes.
  void RecoveryLoop();
  // One attempt each; true when it worked.
  bool TryReopenWritable();
  bool TryResume();
  // The refusal of a change, or OK when changes may go ahead (`bytes` more to write).
  common::Status CheckChange(uint64_t bytes);
  // A failed RocksDB write as the store reports it (WriteFailure, header invariant 3).
  common::Status WriteError(const common::Status& rocks_error) const;

  common::Result<std::shared_ptr<StoreTable>> FindTable(std::string_view table_id) const;
  // For store_operations.cc, which does not see StoreTable's definition: a table's column
  // family, and the refusal of a change while read-only.
  static rocksdb::ColumnFamilyHandle* FamilyHandle(const StoreTable& table);
  common::Status ReadOnlyRefusal() const;
  // Creates the column family `table_id` (REQUIRES: mutex_ held exclusively, name unused).
  common::Result<std::shared_ptr<StoreTable>> CreateColumnFamily(const std::string& table_id,
                                                                 const TableOptions& options);
  common::Status SaveTableOptions(const std::string& table_id, const TableOptions& options);
  // Flushes the meta family's memtable, which switches to a new write-ahead log: logs that
  // only dropped column families still referenced become obsolete.
  common::Status FlushMeta();

  StoreOptions options_;
  std::string path_;
  PartitionVersions versions_;
  std::atomic<WriteObserver*> observer_{nullptr};
  std::unique_ptr<DiskSpaceGuard> disk_space_;
  // Shared by every table family (StoreOptions::block_cache_bytes); null when that is 0.
  // Declared before db_ so that it outlives the database.
  std::shared_ptr<rocksdb::Cache> block_cache_;
  // Header invariant 7: set with `sync_writes`, else null (RocksDB's default Env). Declared
  // before db_ so that it outlives the database.
  std::unique_ptr<rocksdb::Env> wal_env_;
  std::shared_ptr<rocksdb::Logger> info_log_;
  std::shared_ptr<rocksdb::SstFileManager> sst_files_;
  std::shared_ptr<StoreHealth> health_;
  // RocksDB's tickers, shared by every instance the store opens (store_statistics.h).
  std::shared_ptr<rocksdb::Statistics> statistics_;
  std::shared_ptr<TableDisplayNames> display_names_;
  // The current RocksDB instance; tables and iterators bound to an older (read-only) one keep
  // that one alive through StoreTable::db.
  std::shared_ptr<rocksdb::DB> db_;     // GUARDED_BY(mutex_)
  std::shared_ptr<StoreTable> meta_;    // GUARDED_BY(mutex_)
  std::atomic<bool> read_only_{false};  // changes only under mutex_ held exclusively
  mutable std::shared_mutex mutex_;
  std::map<std::string, std::shared_ptr<StoreTable>, std::less<>> tables_;  // GUARDED_BY(mutex_)

  std::mutex recovery_mutex_;
  std::condition_variable recovery_wake_;
  bool stopping_ = false;  // GUARDED_BY(recovery_mutex_)
  std::thread recovery_thread_;
};

}  // namespace storage
