// SchemaManager: executes schema statements (DDL) and keeps the catalogue, its persisted copy
// and the storage column families in step (docs/dev/architecture.md §4). The engine's facade
// (database.h) owns one; the query processor (query_processor.h) hands it every schema
// statement.
//
// A schema change, under one schema mutex:
//   1. the new catalogue snapshot is built (schema/ddl.h) and its encoding checked
//      (schema/catalog_store.h PlanCatalogWrite);
//   2. the views it adds are checked to be maintainable;
//   3. the column families it adds are created, then the snapshot is persisted in the store's
//      meta family and published behind an atomic pointer;
//   4. when storage was added or dropped, in-flight writes are drained through the write gate
//      (execution_context.h), so no write maintains a dropped object or misses a new one;
//   5. the families of dropped objects are dropped;
//   6. a new view or index is backfilled from the rows its base table holds. An indexed value
//      of 64 KiB or more is skipped with a warning, as Cassandra's index build skips it;
//   7. schema listeners are told (the server turns that into SCHEMA_CHANGE events).
//
// Invariant (all or nothing): a change that fails at step 3 or 6 leaves nothing behind — the
// previous catalogue is persisted and published again and the families it created are dropped
// — so the statement can be retried. A failure to drop a family at step 5 is only logged: the
// object is gone from the catalogue and the next open drops the orphan family.
//
// Thread-safety: thread-safe. `catalog()` is lock-free; schema changes are serialized.

#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "common/uuid.h"
#include "cql/parser/statement.h"
#include "cql/session.h"
#include "engine/execution_context.h"
#include "schema/catalog.h"
#include "schema/ddl.h"
#include "storage/store.h"

namespace engine {

// Fault injection for tests: called before the backfill of each new view or index (its id); a
// failure makes the backfill fail with it.
using BackfillFault = std::function<common::Status(const common::Uuid& id)>;

class SchemaManager {
 public:
  // REQUIRES: `context` (its store, clock, locks, timestamps) and `write_gate` outlive the
  // manager. `local_datacenter` is the cluster's one data centre (system.local).
  SchemaManager(const ExecutionContext* context, std::shared_mutex* write_gate,
                std::string local_datacenter, BackfillFault backfill_fault = nullptr);
  SchemaManager(const SchemaManager&) = delete;
  SchemaManager& operator=(const SchemaManager&) = delete;

  // Loads the data directory's catalogue (schema/catalog_store.h: a format 1 catalogue is
  // migrated, unreadable entries quarantined) and makes the column families match it: orphans
  // are dropped (unless entries are quarantined), missing ones created, families created before
  // key shapes were stored given theirs. A read-only store is served as it is. Call once,
  // before anything else.
  common::Status Load();

  // The current catalogue snapshot.
  std::shared_ptr<const schema::Catalog> catalog() const { return catalog_.load(); }

  // Executes the schema statement `statement` (IsSchemaStatement) with `keyspace` for
  // unqualified names. Returns the SCHEMA_CHANGE result, or Void when nothing changed (IF [NOT]
  // EXISTS). Errors: ApplyDdl's (schema/ddl.h), PlanCatalogWrite's Invalid, the store's.
  common::Result<cql::ResultSet> Execute(const cql::Statement& statement,
                                         std::string_view keyspace);

  // Called after every schema change, from the thread that made it, outside the schema mutex.
  void AddListener(std::function<void(const cql::SchemaChangeEvent&)> listener);

  // Whether `statement` is one `Execute` runs (CREATE/ALTER/DROP of keyspaces, tables, types,
  // indexes and materialized views).
  static bool IsSchemaStatement(const cql::Statement& statement);

 private:
  // Steps 3-6 of a change from `current` to `next` (see the file comment).
  // REQUIRES: schema_mutex_ held.
  common::Status Apply(const std::shared_ptr<const schema::Catalog>& current,
                       const std::shared_ptr<const schema::Catalog>& next);
  // Creates the families `next` adds (returned) and alters those whose gc_grace changed.
  common::Result<std::vector<std::string>> SyncStorage(const schema::Catalog& current,
                                                       const schema::Catalog& next);
  // Undoes a failed change (the all-or-nothing invariant): persists and publishes `previous`
  // again in place of `failed` (unless `previous` is null: nothing was published), then drops
  // the families in `created`. Errors are logged; returns `cause`.
  common::Status Revert(const schema::Catalog& failed,
                        const std::shared_ptr<const schema::Catalog>& previous,
                        const std::vector<std::string>& created, common::Status cause);
  // Checks that every view `next` adds can be maintained (its WHERE clause).
  common::Status CheckNewViews(const std::shared_ptr<const schema::Catalog>& next,
                               const schema::Catalog& current) const;
  // Writes the view rows or index entries of the views and indexes `next` adds for the rows
  // their base tables already hold. REQUIRES: schema_mutex_ held; `next` published and the
  // write gate drained.
  common::Status Backfill(const std::shared_ptr<const schema::Catalog>& next,
                          const schema::Catalog& current) const;
  common::Status BackfillOne(const std::shared_ptr<const schema::Catalog>& next,
                             const schema::TableMetadata& base, const common::Uuid& id) const;
  void Notify(const cql::SchemaChangeEvent& event);

  const ExecutionContext* context_;
  storage::Store* store_;
  std::shared_mutex* write_gate_;
  const std::string local_datacenter_;
  const BackfillFault backfill_fault_;

  std::atomic<std::shared_ptr<const schema::Catalog>> catalog_;
  std::mutex schema_mutex_;  // serializes DDL

  std::mutex listeners_mutex_;
  std::vector<std::function<void(const cql::SchemaChangeEvent&)>>
      listeners_;  // GUARDED_BY(listeners_mutex_)
};

}  // namespace engine
