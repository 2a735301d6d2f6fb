// MaintenancePlan: what a write to one base table must keep up to date in the same atomic
// WriteBatch — the table's materialized views and secondary indexes as the current catalogue
// has them (docs/dev/storage_format.md §7-8).
//
// Pipeline position: every write path (ModificationStatement::Execute, its conditional path,
// engine::ExecuteBatch in batch_statement.cc) holds the write gate (execution_context.h) shared,
// asks for the plan of each table it writes under the *current* catalogue, and when there is one
// takes the partition locks, builds its mutations and calls `AddMutations`, which captures the
// changed rows (change_capture.h) and adds the view (view_maintenance.h) and index
// (index_maintenance.h) mutations. A table without views and indexes has no plan and keeps
// the blind, lock-free write path. Backfill (CREATE MATERIALIZED VIEW / CREATE INDEX) builds a
// plan restricted to the new view or index and feeds it every existing row.
//
// Why the gate: DDL publishes a catalogue with a new view or index, then takes the gate
// exclusively once. Writes that looked up the older catalogue (and so did not maintain the new
// object) have all reached Store::Write by then; later writes see the new object. Backfill
// then runs, partition by partition under the partition locks, and converges with concurrent
// writes because view and index maintenance derive their mutations from the stored state.
//
// Thread-safety: immutable once built; shared by concurrent writes.

#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "common/result.h"
#include "common/uuid.h"
#include "cql/functions/functions.h"
#include "engine/index_maintenance.h"
#include "engine/modification_statement.h"
#include "engine/row_change.h"
#include "engine/table_schema.h"
#include "engine/view_maintenance.h"
#include "schema/catalog.h"
#include "storage/store.h"

namespace engine {

class MaintenancePlan {
 public:
  // The plan for writes to `table` (its metadata in any catalogue snapshot) under `catalog`:
  // the views and indexes `catalog` gives the table with the same keyspace, name and id; with
  // `only`, just the view or index with that id (backfill). nullptr when there is nothing to
  // maintain (or the table no longer exists in `catalog`). `functions` evaluates the views'
  // WHERE terms. Errors: ViewMaintainer::Create's.
  static common::Result<std::shared_ptr<const MaintenancePlan>> Build(
      std::shared_ptr<const schema::Catalog> catalog, const schema::TableMetadata& table,
      const cql::FunctionContext& functions, std::optional<common::Uuid> only = std::nullopt);

  // Use Build (public for std::make_shared).
  MaintenancePlan() = default;
  MaintenancePlan(const MaintenancePlan&) = delete;
  MaintenancePlan& operator=(const MaintenancePlan&) = delete;
  ~MaintenancePlan();

  // Captures the rows `mutations` change and adds the view and index mutations to `batch`.
  // REQUIRES: every mutation is a write to this plan's table; the partition locks of all
  // their partitions are held (and stay held until the batch is written).
  common::Status AddMutations(const storage::Store& store, std::span<const Mutation> mutations,
                              const WriteParams& params, storage::WriteBatch* batch) const;

  // Adds the view and index mutations implied by already captured `changes` (backfill, with
  // `build` kBackfill: index_maintenance.h). REQUIRES: as for AddMutations.
  common::Status AddChangeMutations(const storage::Store& store, std::span<const RowChange> changes,
                                    const WriteParams& params, storage::WriteBatch* batch,
                                    IndexBuild build = IndexBuild::kWrite) const;

  // The base table as the plan's catalogue has it.
  const TableSchema& base() const { return *base_; }
  const std::shared_ptr<const schema::Catalog>& catalog() const { return catalog_; }
  size_t view_count() const { return views_.size(); }
  size_t index_count() const { return indexes_.size(); }

 private:
  std::shared_ptr<const schema::Catalog> catalog_;  // keeps every pointer below alive
  std::unique_ptr<TableSchema> base_;
  std::vector<std::unique_ptr<ViewMaintainer>> views_;
  std::vector<const schema::IndexMetadata*> indexes_;
  // Whether a change to static columns alone changes anything maintained.
  bool statics_matter_ = false;
};

}  // namespace engine
