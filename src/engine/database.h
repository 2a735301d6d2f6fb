// Database: the embedded engine's facade (docs/dev/architecture.md §1, §2, §4; docs/reliability.md
// §5).
//
// `Database::Open(directory, options)` opens (or creates) a data directory: the RocksDB store,
// the persisted catalogue, and the clocks and generators executions share. It owns and wires
// the engine's parts and forwards to them:
//   - the query processor (query_processor.h): `Prepare` parses and binds a statement to the
//     current catalogue and caches it by id in a bounded LRU cache; `Execute` runs it; text
//     queries use the same cache, so the hot path never re-parses; statements bound to an
//     older catalogue are re-bound transparently after a schema change;
//   - the schema manager (schema_manager.h): DDL, the catalogue and its persisted copy, the
//     column families, the backfill of new views and indexes, schema listeners;
//   - batches (`ExecuteBatch` here; BEGIN BATCH statements through the processor; both run in
//     batch_statement.h).
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
#include "common/metrics.h"
#include "common/result.h"
#include "common/uuid.h"
#include "cql/parser/statement.h"
#include "cql/session.h"
#include "engine/authorizer.h"
#include "engine/execution_context.h"
#include "engine/purge_scheduler.h"
#include "engine/query_processor.h"
#include "engine/request_metrics.h"
#include "engine/role_manager.h"
#include "engine/row_cache.h"
#include "engine/schema_manager.h"
#include "engine/system_views.h"
#include "engine/table_statistics.h"
#include "engine/tracing.h"
#include "schema/catalog.h"
#include "schema/system_tables.h"
#include "storage/store.h"

namespace engine {

class SelectStatement;
class ModificationStatement;

struct DatabaseOptions {
  // Source of time; the system clock when null. REQUIRES: outlives the Database.
  const common::Clock* clock = nullptr;
  // Durability (docs/reliability.md §5): `batch` syncs the write-ahead log before a write is
  // acknowledged (concurrent writers share one sync); `periodic` leaves syncing to the OS,
  // so a killed process loses nothing acknowledged but a power cut may lose the last writes;
  // `bulk_load` (`hotel load`) writes rows without the log and makes them durable when the
  // memtables are flushed (NodeOperations::Flush, or on close): a crash before that loses the
  // rows written so far (storage::StoreOptions::bulk_load).
  enum class Durability : uint8_t { kPeriodic, kBatch, kBulkLoad };
  Durability durability = Durability::kPeriodic;
  // What system.local reports.
  schema::LocalNodeInfo local_node;
  // How often a background thread compacts every table to purge what gc_grace_seconds allows
  // (engine/purge_scheduler.h); zero: never (call Purge()).
  std::chrono::seconds purge_interval = std::chrono::hours(24);
  // Capacity of the block cache shared by all tables (storage::StoreOptions::block_cache_bytes);
  // 0: RocksDB's default small cache per table.
  size_t block_cache_bytes = storage::StoreOptions().block_cache_bytes;
  // Capacity of the row cache (engine/row_cache.h): slices of partitions with clustering
  // columns that single-partition SELECTs read, served again without RocksDB until a write
  // to the partition. 0: no row cache (cassandra.yaml's row_cache_size, off there by default).
  size_t row_cache_bytes = size_t{64} << 20;
  // Free bytes the data directory's disk keeps: below them every change (writes, DDL) fails
  // with WriteFailure "Write refused: the disk holding DIR is full (N MiB free, floor M MiB)"
  // while reads go on, and a database opened below them is read-only until space is back
  // (storage/store.h). nullopt: 64 MiB or 1% of the disk, whichever is larger; 0: never refuse.
  std::optional<uint64_t> min_free_space_bytes = std::nullopt;
  // Who may connect (docs/security.md), as cassandra.yaml's `authenticator`: kAllowAll lets
  // anyone in anonymously (role statements then fail: no one is logged in); kPassword is
  // PasswordAuthenticator: sessions log in with a role's name and password, and on the first
  // open with no role the superuser `cassandra` is created with `superuser_password`.
  enum class Authenticator : uint8_t { kAllowAll, kPassword };
  Authenticator authenticator = Authenticator::kAllowAll;
  // The first superuser's password (CQLD_SUPERUSER_PASSWORD); nullopt: "cassandra", with a
  // warning in the log to change it.
  std::optional<std::string> superuser_password;
  // Who may do what, as cassandra.yaml's `authorizer`: kAllowAll lets every logged-in role run
  // every statement; kCassandra is CassandraAuthorizer (GRANT/REVOKE of permissions).
  // REQUIRES: kCassandra only with the kPassword authenticator (Open refuses it otherwise).
  enum class Authorizer : uint8_t { kAllowAll, kCassandra };
  Authorizer authorizer = Authorizer::kAllowAll;
  // Tombstones one read may scan (cassandra.yaml's tombstone_warn_threshold and
  // tombstone_failure_threshold, with their defaults): over the first, the client gets
  // Cassandra's warning "Read N live rows and M tombstone cells for query ... (see
  // tombstone_warn_threshold)" and the log a WARN line; over the second the read stops and
  // fails with ReadFailure (READ_TOO_MANY_TOMBSTONES). Counted as Cassandra counts them:
  // tombstone and expired cells, row tombstones of rows with nothing live, and both bounds of
  // each range tombstone (row_reader.h).
  int64_t tombstone_warn_threshold = 1000;
  int64_t tombstone_failure_threshold = 100000;
  // Batch sizes (cassandra.yaml's batch_size_warn_threshold_in_kb = 5,
  // batch_size_fail_threshold_in_kb = 50, unlogged_batch_across_partitions_warn_threshold = 10):
  // a batch over more than one partition whose mutations pass `warn_bytes` (counted as
  // Cassandra counts them) gets a client warning and a WARN line; one passing `fail_bytes` fails
  // with Invalid "Batch too large"; an unlogged batch over more partitions than
  // `unlogged_partitions_warn` gets a warning (engine/batch_statement.cc).
  BatchThresholds batch_thresholds;
  // A request that takes longer is logged at WARN with its statement text (passwords
  // redacted, never bound values), its keyspace and the milliseconds it took;
  // Cassandra's slow_query_log_timeout_in_ms (default 500). Zero: off.
  std::chrono::milliseconds slow_query_log_threshold{500};
  // Tests only: fault injection into the backfill of new views and indexes (schema_manager.h).
  BackfillFault backfill_fault = nullptr;
};

class Database {
 public:
  // Opens (or creates) `directory`. On a disk below the free-space floor the database opens
  // read-only (`read_only()`): reads work, changes fail with WriteFailure, and it becomes
  // writable by itself once space is back; the repairs Open makes to the table storage (see
  // schema_manager.h Load) then wait for the next open.
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

  std::shared_ptr<const schema::Catalog> catalog() const;
  // Whether the database is (still) read-only because its disk was full when it was opened.
  bool read_only() const { return store_->read_only(); }
  const schema::LocalNodeInfo& local_node() const { return options_.local_node; }
  // The address and port clients reach the native protocol on, for system.local's rpc_address
  // and rpc_port (a server calls it once bound, so `--port 0` reports the real port).
  // REQUIRES: before requests are served (the node info is read without a lock).
  void SetNativeAddress(const std::string& rpc_address, int32_t port);

  // Called after every schema change, from the thread that made it.
  void AddSchemaListener(std::function<void(const cql::SchemaChangeEvent&)> listener);

  // A new in-process session: anonymous, or logged in as the role `user` (see Authenticate).
  std::unique_ptr<cql::Session> NewSession(std::string user = "");

  // The role `username` logs in as with `password` (PasswordAuthenticator). Errors:
  // AuthenticationError with Cassandra's messages; with the kAllowAll authenticator every
  // login is refused (there is nothing to log in to).
  common::Result<std::string> Authenticate(std::string_view username,
                                           std::string_view password) const;
  DatabaseOptions::Authenticator authenticator() const { return options_.authenticator; }

  // The fraction of requests traced without asking for it (Cassandra's nodetool
  // settraceprobability), clamped to [0, 1]; 0 by default. Their traces are in
  // system_traces like the others, but their ids are not returned to clients.
  void SetTraceProbability(double probability) { tracer_->set_probability(probability); }
  double TraceProbability() const { return tracer_->probability(); }
  // Tracing (tracing.h): the server opens a TraceScope on it for traced PREPAREs.
  Tracer& tracer() { return *tracer_; }

  // Compacts every table now, purging tombstones and expired data older than their table's
  // gc_grace_seconds together with what they shadow (what the background purge does; like
  // `nodetool compact`). Safe to run alongside reads and writes.
  common::Status Purge();

  // Statistics (table_statistics.h) of the table or materialized view `keyspace`.`table`, as
  // `nodetool tablestats` shows them. Invalid "Unknown table 'ks.t'" when there is none.
  common::Result<TableStatisticsResult> TableStatistics(std::string_view keyspace,
                                                        std::string_view table) const;
  // The statistics of every table and view of `keyspace`, or of every keyspace but the system
  // ones when `keyspace` is empty; sorted by keyspace, then name. Invalid "Unknown keyspace
  // 'ks'" for a keyspace that does not exist.
  common::Result<std::vector<TableStatisticsResult>> AllTableStatistics(
      std::string_view keyspace = "") const;
  // The percentiles `nodetool tablehistograms` prints for `keyspace`.`table`; errors as
  // TableStatistics.
  common::Result<TableHistogramsResult> TableHistograms(std::string_view keyspace,
                                                        std::string_view table) const;
  // Registers what the layer above adds to the system_views tables (system_views.h), replacing
  // the previous source; null removes it. The server sets it when it starts and clears it when
  // it stops.
  void SetSystemViewsSource(std::shared_ptr<const SystemViewsSource> source);
  // What system_views.`table` shows now (the part of it that table needs).
  schema::SystemViewsData SystemViews(std::string_view table) const;

  // For the admin tool's operations (node_operations.h) and logins.
  // The storage the database runs on; lives as long as the Database.
  storage::Store* store() const { return store_.get(); }
  // The row cache; null when DatabaseOptions::row_cache_bytes is 0.
  const RowCache* row_cache() const { return row_cache_.get(); }
  // The data directory Open was given.
  const std::string& directory() const { return directory_; }
  // Whether the role `role`, or a role granted to it, is a superuser (false when it does not
  // exist).
  bool IsSuperuser(std::string_view role) const;

 private:
  Database() = default;

  // Loads the roles and, with the password authenticator, creates the first superuser.
  common::Status OpenRoles();
  // Completes `options_.local_node`: a host id kept in the meta family, the token, the
  // gossip generation.
  common::Status DescribeLocalNode();
  // Points `context_` at the parts above.
  void WireContext();
  // Registers the metrics collector (per-table and store figures, the prepared-statement
  // cache) and keeps the store's table names for its warnings up to date.
  void StartMetrics();
  // The collector: the samples of this database (database_statistics.cc).
  void CollectMetrics(common::metrics::SampleWriter& writer) const;
  // Tells the store the "ks/table" name of each table id (large-partition warnings).
  void PublishTableNames();
  // The parts of SystemViews (system_views.cc).
  std::shared_ptr<const SystemViewsSource> system_views_source() const;
  void AddEngineSettings(schema::SystemViewsData& data) const;
  void AddEngineCaches(schema::SystemViewsData& data) const;
  void AddEngineThreadPools(schema::SystemViewsData& data) const;
  void AddTableMetrics(schema::SystemViewsData& data) const;
  common::Result<std::shared_ptr<const PreparedStatement>> Rebind(
      const PreparedStatement& prepared);
  common::Result<cql::ResultSet> RunBatch(const cql::BatchRequest& batch, SessionState* state);
  // Runs one client request: traced when `tracing` asks or the trace probability samples it
  // (its id into the result when asked), and logged when slower than the slow-query threshold.
  // `query()` gives the statement text; called only when tracing or logging needs it.
  template <typename Query, typename Run>
  common::Result<cql::ResultSet> Monitored(std::string_view request,
                                           const cql::QueryOptions& options,
                                           const SessionState& state, std::string_view keyspace,
                                           Query query, Run run);

  DatabaseOptions options_;
  std::string directory_;
  std::unique_ptr<common::SystemClock> system_clock_;
  const common::Clock* clock_ = nullptr;
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<common::TimeuuidGenerator> timeuuids_;
  std::unique_ptr<common::WriteTimestampGenerator> timestamps_;
  std::unique_ptr<ListPathAllocator> list_paths_;
  std::unique_ptr<PartitionLocks> locks_;
  std::unique_ptr<RowCache> row_cache_;  // null without a row cache
  std::unique_ptr<Tracer> tracer_;
  ExecutionContext context_;
  // Held shared by every write, exclusively by DDL to drain them (execution_context.h).
  std::shared_mutex write_gate_;
  std::unique_ptr<SchemaManager> schema_;
  std::unique_ptr<RoleManager> roles_;
  std::unique_ptr<engine::Authorizer> authorizer_;
  std::unique_ptr<QueryProcessor> processor_;
  std::unique_ptr<PurgeScheduler> purge_scheduler_;  // destroyed first
  std::unique_ptr<EngineMetrics> metrics_;
  mutable std::mutex system_views_mutex_;
  std::shared_ptr<const SystemViewsSource> system_views_source_;  // GUARDED_BY(system_views_mutex_)
  // Reset first thing in the destructor: the collector reads the parts above.
  common::metrics::CollectorHandle metrics_collector_;
};

}  // namespace engine
