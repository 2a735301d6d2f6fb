#include "engine/maintenance_plan.h"

#include <utility>

#include "engine/change_capture.h"
#include "engine/index_maintenance.h"

namespace engine {

using common::Result;
using common::Status;

MaintenancePlan::~MaintenancePlan() = default;

Result<std::shared_ptr<const MaintenancePlan>> MaintenancePlan::Build(
    std::shared_ptr<const schema::Catalog> catalog, const schema::TableMetadata& table,
    const cql::FunctionContext& functions, std::optional<common::Uuid> only) {
  const schema::KeyspaceMetadata* keyspace = catalog->FindKeyspace(table.keyspace);
  if (keyspace == nullptr) return std::shared_ptr<const MaintenancePlan>();
  const schema::TableMetadata* current = keyspace->FindTable(table.name);
  if (current == nullptr || current->id != table.id) {
    return std::shared_ptr<const MaintenancePlan>();
  }
  std::vector<const schema::TableMetadata*> views = keyspace->ViewsOf(current->id);
  std::vector<const schema::IndexMetadata*> indexes;
  for (const auto& [name, index] : current->indexes) indexes.push_back(&index);
  if (only) {
    std::erase_if(views, [&](const schema::TableMetadata* view) { return view->id != *only; });
    std::erase_if(indexes, [&](const schema::IndexMetadata* index) { return index->id != *only; });
  }
  if (views.empty() && indexes.empty()) return std::shared_ptr<const MaintenancePlan>();

  auto plan = std::make_shared<MaintenancePlan>();
  plan->catalog_ = std::move(catalog);
  plan->base_ = std::make_unique<TableSchema>(current);
  plan->indexes_ = std::move(indexes);
  // Index maintenance may depend on static columns; views only through their WHERE clause.
  plan->statics_matter_ = !plan->indexes_.empty();
  for (const schema::TableMetadata* view : views) {
    ASSIGN_OR_RETURN(std::unique_ptr<ViewMaintainer> maintainer,
                     ViewMaintainer::Create(*plan->base_, view, functions));
    plan->statics_matter_ = plan->statics_matter_ || maintainer->depends_on_statics();
    plan->views_.push_back(std::move(maintainer));
  }
  return std::shared_ptr<const MaintenancePlan>(std::move(plan));
}

Status MaintenancePlan::AddMutations(const storage::Store& store,
                                     std::span<const Mutation> mutations, const WriteParams& params,
                                     storage::WriteBatch* batch) const {
  ASSIGN_OR_RETURN(std::vector<RowChange> changes,
                   CaptureChanges(store, *base_, mutations, params.now_seconds, statics_matter_));
  return AddChangeMutations(store, changes, params, batch);
}

Status MaintenancePlan::AddChangeMutations(const storage::Store& store,
                                           std::span<const RowChange> changes,
                                           const WriteParams& params, storage::WriteBatch* batch,
                                           IndexBuild build) const {
  if (changes.empty()) return Status::Ok();
  for (const auto& view : views_) {
    RETURN_IF_ERROR(view->AddMutations(store, changes, params.now_seconds, batch));
  }
  if (!indexes_.empty()) {
    RETURN_IF_ERROR(AddIndexMutations(store, *base_, indexes_, changes, params, batch, build));
  }
  return Status::Ok();
}

}  // namespace engine
