#include "engine/schema_manager.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "common/logging.h"
#include "engine/change_capture.h"
#include "engine/maintenance_plan.h"
#include "engine/schema_lookup.h"
#include "schema/catalog_codec.h"
#include "schema/catalog_store.h"

namespace engine {

using common::Result;
using common::Status;

namespace {

// Every storage id (tables, views, indexes) of a catalogue with its gc_grace_seconds.
std::map<std::string, int64_t> StorageIds(const schema::Catalog& catalog) {
  std::map<std::string, int64_t> ids;
  for (const auto& [ks_name, ks] : catalog.keyspaces()) {
    auto add = [&](const schema::TableMetadata& table) {
      ids[StorageId(table.id)] = table.options.gc_grace_seconds;
      for (const auto& [name, index] : table.indexes) {
        ids[StorageId(index.id)] = table.options.gc_grace_seconds;
      }
    };
    for (const auto& [name, table] : ks->tables) add(*table);
    for (const auto& [name, view] : ks->views) add(*view);
  }
  return ids;
}

// The storage options of storage id `id` of `catalog` (storage/table_options.h): `gc_grace`
// and, for a table or view, its key shape, so compaction can apply and purge partition and
// range tombstones; an index family (keys that are not table keys) holds row entries only. A
// table or view without clustering columns gets `single_row_partitions`: its partition
// deletions are written as row deletions (modification_statement.cc), so a read by partition
// key reads one entry. Only new families may get that flag (see KeepSingleRowFlag).
storage::TableOptions StorageOptions(const schema::Catalog& catalog, const std::string& id,
                                     int64_t gc_grace) {
  storage::TableOptions options{.gc_grace_seconds = gc_grace};
  auto find = [&](const schema::TableMetadata& table) {
    if (StorageId(table.id) == id) {
      options.shape = TableSchema(&table).shape;
      options.single_row_partitions = options.shape->clustering.empty();
      return true;
    }
    for (const auto& [name, index] : table.indexes) {
      if (StorageId(index.id) == id) {
        options.row_entries_only = true;
        return true;
      }
    }
    return false;
  };
  for (const auto& [ks_name, ks] : catalog.keyspaces()) {
    for (const auto& [name, table] : ks->tables) {
      if (find(*table)) return options;
    }
    for (const auto& [name, view] : ks->views) {
      if (find(*view)) return options;
    }
  }
  return options;
}

// `implied` for an existing family: it keeps its stored `single_row_partitions`, since a
// family created without the flag may hold partition deletion entries.
storage::TableOptions KeepSingleRowFlag(storage::TableOptions implied,
                                        const storage::TableOptions& stored) {
  implied.single_row_partitions = stored.single_row_partitions;
  return implied;
}

// Makes the column families of `store` match `catalog` (see SchemaManager::Load).
Status RepairStorage(storage::Store* store, const schema::Catalog& catalog) {
  // A crash between creating a family and persisting the catalogue leaves an orphan; a missing
  // one is created. While anything is quarantined no family is dropped: a quarantined table's
  // data (and its indexes') must stay.
  std::map<std::string, int64_t> wanted = StorageIds(catalog);
  for (const std::string& id : store->TableIds()) {
    if (wanted.contains(id)) continue;
    if (catalog.quarantined().empty()) {
      RETURN_IF_ERROR(store->DropTable(id));
    } else {
      LOG_WARNING("keeping column family {}: no live table uses it, and entries are quarantined",
                  id);
    }
  }
  for (const auto& [id, gc_grace] : wanted) {
    storage::TableOptions implied = StorageOptions(catalog, id, gc_grace);
    if (!store->HasTable(id)) {
      RETURN_IF_ERROR(store->CreateTable(id, implied));
      continue;
    }
    // Families created before key shapes were stored (options version 1) have no shape, so
    // their partition and range tombstones are never purged; index families created then are
    // not marked row-entries-only. Give them what the catalogue implies.
    ASSIGN_OR_RETURN(storage::TableOptions stored, store->TableOptionsOf(id));
    if ((implied.shape && !stored.shape) ||
        (implied.row_entries_only && !stored.row_entries_only)) {
      RETURN_IF_ERROR(store->AlterTable(id, KeepSingleRowFlag(implied, stored)));
    }
  }
  return Status::Ok();
}

cql::SchemaChangeEvent ToEvent(const schema::SchemaChange& change) {
  cql::SchemaChangeEvent event;
  event.change_type = std::string(schema::ChangeTypeName(change.change));
  event.target = std::string(schema::ChangeTargetName(change.target));
  event.keyspace = change.keyspace;
  event.name = change.name;
  return event;
}

bool SameStorageIds(const std::map<std::string, int64_t>& a,
                    const std::map<std::string, int64_t>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](auto& x, auto& y) { return x.first == y.first; });
}

}  // namespace

SchemaManager::SchemaManager(const ExecutionContext* context, std::shared_mutex* write_gate,
                             std::string local_datacenter, BackfillFault backfill_fault)
    : context_(context),
      store_(context->store),
      write_gate_(write_gate),
      local_datacenter_(std::move(local_datacenter)),
      backfill_fault_(std::move(backfill_fault)) {}

Status SchemaManager::Load() {
  ASSIGN_OR_RETURN(schema::LoadedCatalog loaded, schema::LoadCatalog(*store_));
  std::shared_ptr<const schema::Catalog> catalog = loaded.catalog;
  // A read-only store (opened on a full disk) can neither migrate nor repair: both wait for
  // the next open; the catalogue read is served as it is.
  if (!store_->read_only()) {
    if (loaded.source == schema::LoadedCatalog::Source::kLegacy) {
      RETURN_IF_ERROR(store_->Write(loaded.migration));
      LOG_INFO("schema catalogue migrated to format {} (the format 1 value is kept)",
               schema::kEntryFormatVersion);
    }
    RETURN_IF_ERROR(RepairStorage(store_, *catalog));
  }
  catalog_.store(std::move(catalog));
  return Status::Ok();
}

bool SchemaManager::IsSchemaStatement(const cql::Statement& statement) {
  return std::holds_alternative<cql::CreateKeyspace>(statement) ||
         std::holds_alternative<cql::AlterKeyspace>(statement) ||
         std::holds_alternative<cql::DropKeyspace>(statement) ||
         std::holds_alternative<cql::CreateTable>(statement) ||
         std::holds_alternative<cql::AlterTable>(statement) ||
         std::holds_alternative<cql::DropTable>(statement) ||
         std::holds_alternative<cql::CreateType>(statement) ||
         std::holds_alternative<cql::AlterType>(statement) ||
         std::holds_alternative<cql::DropType>(statement) ||
         std::holds_alternative<cql::CreateIndex>(statement) ||
         std::holds_alternative<cql::DropIndex>(statement) ||
         std::holds_alternative<cql::CreateMaterializedView>(statement) ||
         std::holds_alternative<cql::AlterMaterializedView>(statement) ||
         std::holds_alternative<cql::DropMaterializedView>(statement);
}

void SchemaManager::AddListener(std::function<void(const cql::SchemaChangeEvent&)> listener) {
  std::lock_guard<std::mutex> lock(listeners_mutex_);
  listeners_.push_back(std::move(listener));
}

Result<cql::ResultSet> SchemaManager::Execute(const cql::Statement& statement,
                                              std::string_view keyspace) {
  cql::SchemaChangeEvent event;
  {
    std::lock_guard<std::mutex> lock(schema_mutex_);
    std::shared_ptr<const schema::Catalog> current = catalog();
    schema::DdlEnvironment environment{.clock = context_->clock,
                                       .local_datacenter = local_datacenter_};
    ASSIGN_OR_RETURN(schema::DdlResult result,
                     schema::ApplyDdl(*current, statement, keyspace, environment));
    if (!result.catalog) return cql::ResultSet::Void();
    RETURN_IF_ERROR(Apply(current, result.catalog));
    if (!result.change) return cql::ResultSet::Void();
    event = ToEvent(*result.change);
  }
  Notify(event);
  return cql::ResultSet::SchemaChange(event);
}

Status SchemaManager::Apply(const std::shared_ptr<const schema::Catalog>& current,
                            const std::shared_ptr<const schema::Catalog>& next) {
  // Encoded and decoded back before anything changes: a catalogue the next open could not
  // read is refused here (Invalid), with nothing persisted or published.
  ASSIGN_OR_RETURN(storage::WriteBatch batch, schema::PlanCatalogWrite(*current, *next));
  RETURN_IF_ERROR(CheckNewViews(next, *current));
  ASSIGN_OR_RETURN(std::vector<std::string> created, SyncStorage(*current, *next));
  if (Status written = store_->Write(batch); !written.ok()) {
    return Revert(*current, nullptr, created, written);
  }
  catalog_.store(next);
  std::map<std::string, int64_t> before = StorageIds(*current);
  std::map<std::string, int64_t> after = StorageIds(*next);
  if (!SameStorageIds(before, after)) {
    // Drain the writes that looked up the previous catalogue: later ones maintain the new
    // views and indexes, and none writes to storage dropped below.
    std::unique_lock<std::shared_mutex> drain(*write_gate_);
  }
  // Storage of dropped objects goes after the new catalogue is durable.
  for (const auto& [id, gc_grace] : before) {
    if (after.contains(id)) continue;
    if (Status dropped = store_->DropTable(id); !dropped.ok()) {
      LOG_WARNING("column family {} not dropped ({}); the next open drops it", id,
                  dropped.ToString());
    }
  }
  if (Status filled = Backfill(next, *current); !filled.ok()) {
    return Revert(*next, current, created, filled);
  }
  return Status::Ok();
}

Result<std::vector<std::string>> SchemaManager::SyncStorage(const schema::Catalog& current,
                                                            const schema::Catalog& next) {
  std::map<std::string, int64_t> before = StorageIds(current);
  std::vector<std::string> created;
  auto sync = [&](const std::string& id, int64_t gc_grace) -> Status {
    auto it = before.find(id);
    if (it == before.end()) {
      if (store_->HasTable(id)) return Status::Ok();
      RETURN_IF_ERROR(store_->CreateTable(id, StorageOptions(next, id, gc_grace)));
      created.push_back(id);
    } else if (it->second != gc_grace) {
      ASSIGN_OR_RETURN(storage::TableOptions stored, store_->TableOptionsOf(id));
      RETURN_IF_ERROR(
          store_->AlterTable(id, KeepSingleRowFlag(StorageOptions(next, id, gc_grace), stored)));
    }
    return Status::Ok();
  };
  for (const auto& [id, gc_grace] : StorageIds(next)) {
    if (Status status = sync(id, gc_grace); !status.ok()) {
      // Nothing of a failed change remains: the families it created go.
      return Revert(current, nullptr, created, status);
    }
  }
  return created;
}

Status SchemaManager::Revert(const schema::Catalog& failed,
                             const std::shared_ptr<const schema::Catalog>& previous,
                             const std::vector<std::string>& created, Status cause) {
  if (previous != nullptr) {
    Result<storage::WriteBatch> batch = schema::PlanCatalogWrite(failed, *previous);
    Status restored = batch.ok() ? store_->Write(batch.value()) : batch.status();
    if (!restored.ok()) {
      LOG_ERROR("schema change failed ({}) and its catalogue could not be reverted: {}",
                cause.ToString(), restored.ToString());
      return cause;
    }
    catalog_.store(previous);
    // No write may still maintain what is dropped below.
    std::unique_lock<std::shared_mutex> drain(*write_gate_);
  }
  for (const std::string& id : created) {
    if (Status dropped = store_->DropTable(id); !dropped.ok()) {
      LOG_WARNING("column family {} not dropped ({}); the next open drops it", id,
                  dropped.ToString());
    }
  }
  return cause;
}

Status SchemaManager::CheckNewViews(const std::shared_ptr<const schema::Catalog>& next,
                                    const schema::Catalog& current) const {
  std::map<std::string, int64_t> old_ids = StorageIds(current);
  cql::FunctionContext functions = context_->function_context();
  for (const auto& [ks_name, ks] : next->keyspaces()) {
    for (const auto& [name, view] : ks->views) {
      if (old_ids.contains(StorageId(view->id))) continue;
      const schema::TableMetadata* base = ks->FindTable(view->view->base_table_name);
      if (base == nullptr) continue;
      RETURN_IF_ERROR(MaintenancePlan::Build(next, *base, functions, view->id).status());
    }
  }
  return Status::Ok();
}

Status SchemaManager::Backfill(const std::shared_ptr<const schema::Catalog>& next,
                               const schema::Catalog& current) const {
  std::map<std::string, int64_t> old_ids = StorageIds(current);
  for (const auto& [ks_name, ks] : next->keyspaces()) {
    for (const auto& [name, view] : ks->views) {
      if (old_ids.contains(StorageId(view->id))) continue;
      const schema::TableMetadata* base = ks->FindTable(view->view->base_table_name);
      if (base != nullptr) RETURN_IF_ERROR(BackfillOne(next, *base, view->id));
    }
    for (const auto& [name, table] : ks->tables) {
      for (const auto& [index_name, index] : table->indexes) {
        if (!old_ids.contains(StorageId(index.id))) {
          RETURN_IF_ERROR(BackfillOne(next, *table, index.id));
        }
      }
    }
  }
  return Status::Ok();
}

Status SchemaManager::BackfillOne(const std::shared_ptr<const schema::Catalog>& next,
                                  const schema::TableMetadata& base, const common::Uuid& id) const {
  if (backfill_fault_) RETURN_IF_ERROR(backfill_fault_(id));
  ASSIGN_OR_RETURN(std::shared_ptr<const MaintenancePlan> plan,
                   MaintenancePlan::Build(next, base, context_->function_context(), id));
  if (plan == nullptr) return Status::Ok();
  LOG_INFO("backfilling {}.{} for {}", base.keyspace, base.name, id.ToString());
  return ForEachBaseRow(
      *context_, plan->base(),
      [&](std::span<const RowChange> rows, int64_t now_seconds, storage::WriteBatch* batch) {
        WriteParams params{context_->timestamps->Next(), now_seconds};
        return plan->AddChangeMutations(*store_, rows, params, batch, IndexBuild::kBackfill);
      });
}

void SchemaManager::Notify(const cql::SchemaChangeEvent& event) {
  std::vector<std::function<void(const cql::SchemaChangeEvent&)>> listeners;
  {
    std::lock_guard<std::mutex> lock(listeners_mutex_);
    listeners = listeners_;
  }
  for (const auto& listener : listeners) listener(event);
}

}  // namespace engine
