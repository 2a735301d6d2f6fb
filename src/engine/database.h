// Database: the embedded engine's entry point (ARCHITECTURE.md §2, §3, §6, §7).
//
// `Database::Open(directory, options)` opens (or creates) a data directory: the RocksDB store,
// the persisted catalogue, and the clocks and generators executions share. Statements go
// through `Prepare` (parse, bind to the current catalogue, cache by id) and `Execute`; text
// queries use the same cache keyed by their id, so the hot path never re-parses. Prepared
// statements bound to an older catalogue are re-bound transparently after a schema change.
//
// DDL is serialized by one schema mutex: the new catalogue snapshot is built (schema/ddl.h),
// the storage column families it needs are created (or dropped), the snapshot is persisted in
// the store's meta family, then published behind an atomic pointer, and schema listeners are
// told (the server turns that into SCHEMA_CHANGE events). A change that creates or drops
// storage (a table, view or index) then drains in-flight writes through the write gate
// (execution_context.h), so no write maintains a dropped object or misses a new one, and
// CREATE MATERIALIZED VIEW / CREATE INDEX backfill the existing rows before they return.
//
// `EmbeddedSession` is the in-process `cql::Session`.
//
// Thread-safety: Database is thread-safe; so is EmbeddedSession.

#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/clock.h"
#include "common/result.h"
#include "common/uuid.h"
#include "cql/session.h"
#include "cql/statement.h"
#include "engine/execution_context.h"
#include "engine/purge_scheduler.h"
#include "schema/catalog.h"
#include "schema/system_tables.h"
#include "storage/store.h"

namespace engine {

class SelectStatement;
class ModificationStatement;

struct DatabaseOptions {
  // Source of time; the system clock when null. REQUIRES: outlives the Database.
  const common::Clock* clock = nullptr;
  // Durability (ARCHITECTURE.md §6): `batch` syncs the write-ahead log before a write is
  // acknowledged (concurrent writers share one sync); `periodic` leaves syncing to the OS,
  // so a killed process loses nothing acknowledged but a power cut may lose the last writes.
  enum class Durability : uint8_t { kPeriodic, kBatch };
  Durability durability = Durability::kPeriodic;
  // What system.local reports.
  schema::LocalNodeInfo local_node;
  // How often a background thread compacts every table to purge what gc_grace_seconds allows
  // (engine/purge_scheduler.h); zero: never (call Purge()).
  std::chrono::seconds purge_interval = std::chrono::hours(24);
  // Capacity of the block cache shared by all tables (storage::StoreOptions::block_cache_bytes);
  // 0: RocksDB's default small cache per table.
  size_t block_cache_bytes = storage::StoreOptions().block_cache_bytes;
  // Free bytes the data directory's disk keeps: below them every change (writes, DDL) fails
  // with WriteFailure "Write refused: the disk holding DIR is full (N MiB free, floor M MiB)"
  // while reads go on, and a database opened below them is read-only until space is back
  // (storage/store.h). nullopt: 64 MiB or 1% of the disk, whichever is larger; 0: never refuse.
  std::optional<uint64_t> min_free_space_bytes = std::nullopt;
};

// A statement prepared against one catalogue snapshot.
struct PreparedStatement {
  cql::Statement statement;
  std::string keyspace;  // session keyspace at prepare time
  std::shared_ptr<const schema::Catalog> catalog;
  std::shared_ptr<const cql::PreparedMetadata> metadata;
  std::unique_ptr<SelectStatement> select;
  std::unique_ptr<ModificationStatement> modification;
  // BEGIN BATCH ... APPLY BATCH: one prepared statement per entry.
  std::vector<std::unique_ptr<ModificationStatement>> batch;
  ~PreparedStatement();
};

// Per-session state the engine reads and updates (USE).
struct SessionState {
  std::string keyspace;
};

class Database {
 public:
  // Opens (or creates) `directory`. On a disk below the free-space floor the database opens
  // read-only (`read_only()`): reads work, changes fail with WriteFailure, and it becomes
  // writable by itself once space is back; the repairs Open makes to the table storage (see
  // database.cc) then wait for the next open.
  static common::Result<std::unique_ptr<Database>> Open(const std::string& directory,
                                                        const DatabaseOptions& options);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Parses and prepares `query` (cached by id). Errors: the parser's SyntaxError, or the
  // binding errors of the statement.
  common::Result<std::shared_ptr<const PreparedStatement>> Prepare(std::string_view query,
                                                                   std::string_view keyspace);
  // The prepared statement with `id`, or Unprepared.
  common::Result<std::shared_ptr<const PreparedStatement>> FindPrepared(std::string_view id);

  // Executes a prepared statement. `state` gives and receives the session keyspace.
  common::Result<cql::ResultSet> Execute(const PreparedStatement& prepared,
                                         const cql::QueryOptions& options, SessionState* state);
  // Parses (through the cache) and executes `query`.
  common::Result<cql::ResultSet> ExecuteText(std::string_view query,
                                             const cql::QueryOptions& options, SessionState* state);
  common::Result<cql::ResultSet> ExecuteBatch(const cql::BatchRequest& batch, SessionState* state);

  std::shared_ptr<const schema::Catalog> catalog() const { return catalog_.load(); }
  // Whether the database is (still) read-only because its disk was full when it was opened.
  bool read_only() const { return store_->read_only(); }
  const schema::LocalNodeInfo& local_node() const { return options_.local_node; }

  // Called after every schema change, from the thread that made it.
  void AddSchemaListener(std::function<void(const cql::SchemaChangeEvent&)> listener);

  // A new in-process session.
  std::unique_ptr<cql::Session> NewSession();

  // Compacts every table now, purging tombstones and expired data older than their table's
  // gc_grace_seconds together with what they shadow (what the background purge does; like
  // `nodetool compact`). Safe to run alongside reads and writes.
  common::Status Purge();

 private:
  Database() = default;

  common::Result<std::shared_ptr<const PreparedStatement>> Bind(cql::Statement statement,
                                                                std::string keyspace,
                                                                std::string query,
                                                                common::Bytes id);
  // `prepared` bound again to the current catalogue (same id), replacing it in the cache.
  common::Result<std::shared_ptr<const PreparedStatement>> Rebind(
      const PreparedStatement& prepared);
  common::Result<cql::ResultSet> ExecuteSchemaChange(const cql::Statement& statement,
                                                     std::string_view keyspace);
  common::Status SyncStorage(const schema::Catalog& old_catalog,
                             const schema::Catalog& new_catalog);
  // Checks that every view `new_catalog` adds can be maintained (its WHERE clause).
  common::Status CheckNewViews(const std::shared_ptr<const schema::Catalog>& new_catalog,
                               const schema::Catalog& old_catalog);
  // Writes the view rows or index entries of the views and indexes `new_catalog` adds for the
  // rows their base tables already hold. REQUIRES: schema_mutex_ held; the new catalogue
  // published and the write gate drained.
  common::Status Backfill(const std::shared_ptr<const schema::Catalog>& new_catalog,
                          const schema::Catalog& old_catalog);

  DatabaseOptions options_;
  std::unique_ptr<common::SystemClock> system_clock_;
  const common::Clock* clock_ = nullptr;
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<PurgeScheduler> purge_scheduler_;  // destroyed before store_
  std::unique_ptr<common::TimeuuidGenerator> timeuuids_;
  std::unique_ptr<common::WriteTimestampGenerator> timestamps_;
  std::unique_ptr<ListPathAllocator> list_paths_;
  std::unique_ptr<PartitionLocks> locks_;
  ExecutionContext context_;

  std::atomic<std::shared_ptr<const schema::Catalog>> catalog_;
  std::mutex schema_mutex_;  // serializes DDL
  // Held shared by every write, exclusively by DDL to drain them (execution_context.h).
  std::shared_mutex write_gate_;

  std::mutex prepared_mutex_;
  std::unordered_map<std::string, std::shared_ptr<const PreparedStatement>>
      prepared_;  // GUARDED_BY(prepared_mutex_)

  std::mutex listeners_mutex_;
  std::vector<std::function<void(const cql::SchemaChangeEvent&)>> listeners_;
};

}  // namespace engine
