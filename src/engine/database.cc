#include "engine/database.h"

#include <algorithm>
#include <set>
#include <shared_mutex>
#include <utility>

#include <fmt/format.h>

#include "cql/value_codec.h"
#include "engine/embedded_session.h"
#include "engine/maintenance_plan.h"
#include "engine/modification_statement.h"
#include "engine/select_statement.h"
#include "storage/cell_merge.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;

Database::~Database() = default;

Result<std::unique_ptr<Database>> Database::Open(const std::string& directory,
                                                 const DatabaseOptions& options) {
  std::unique_ptr<Database> db(new Database());
  db->options_ = options;
  if (options.clock == nullptr) {
    db->system_clock_ = std::make_unique<common::SystemClock>();
    db->clock_ = db->system_clock_.get();
  } else {
    db->clock_ = options.clock;
  }
  storage::StoreOptions store_options;
  store_options.clock = db->clock_;
  store_options.sync_writes = options.durability == DatabaseOptions::Durability::kBatch;
  store_options.block_cache_bytes = options.block_cache_bytes;
  store_options.min_free_space_bytes = options.min_free_space_bytes;
  ASSIGN_OR_RETURN(db->store_, storage::Store::Open(directory, store_options));
  db->timeuuids_ = std::make_unique<common::TimeuuidGenerator>(db->clock_);
  db->timestamps_ = std::make_unique<common::WriteTimestampGenerator>(db->clock_);
  db->list_paths_ = std::make_unique<ListPathAllocator>(db->timeuuids_.get());
  db->locks_ = std::make_unique<PartitionLocks>();
  RETURN_IF_ERROR(db->DescribeLocalNode());
  db->WireContext();
  db->schema_ = std::make_unique<SchemaManager>(
      &db->context_, &db->write_gate_, db->options_.local_node.data_center, options.backfill_fault);
  RETURN_IF_ERROR(db->schema_->Load());
  Database* self = db.get();
  db->processor_ = std::make_unique<QueryProcessor>(
      &db->context_, db->schema_.get(), &db->options_.local_node,
      [self](cql::BatchType type, const std::vector<const ModificationStatement*>& statements,
             const std::vector<std::span<const cql::BoundValue>>& values,
             std::optional<int64_t> timestamp) {
        return self->ExecuteBatchEntries(type, statements, values, timestamp);
      });
  if (options.purge_interval.count() > 0) {
    db->purge_scheduler_ =
        std::make_unique<PurgeScheduler>(db->store_.get(), options.purge_interval);
  }
  return db;
}

Status Database::DescribeLocalNode() {
  schema::LocalNodeInfo& node = options_.local_node;
  if (node.host_id.IsNil()) {
    // A stable host id: kept in the meta family.
    ASSIGN_OR_RETURN(std::optional<Bytes> host, store_->GetMeta("host_id"));
    if (host) {
      ASSIGN_OR_RETURN(node.host_id, common::Uuid::FromBytes(*host));
    } else {
      node.host_id = common::Uuid::Random();
      if (!store_->read_only()) {  // else kept from the next open on
        storage::WriteBatch batch;
        batch.PutMeta("host_id", node.host_id.ToBytes());
        RETURN_IF_ERROR(store_->Write(batch));
      }
    }
  }
  if (node.tokens.empty()) node.tokens.push_back(fmt::format("{}", INT64_MIN));
  if (node.gossip_generation == 0) {
    node.gossip_generation = static_cast<int32_t>(clock_->NowMicros() / 1000000);
  }
  return Status::Ok();
}

void Database::WireContext() {
  context_.store = store_.get();
  context_.clock = clock_;
  context_.timeuuids = timeuuids_.get();
  context_.timestamps = timestamps_.get();
  context_.list_paths = list_paths_.get();
  context_.locks = locks_.get();
  context_.write_gate = &write_gate_;
  context_.local_node = &options_.local_node;
  context_.catalog = [this]() { return catalog(); };
}

std::shared_ptr<const schema::Catalog> Database::catalog() const { return schema_->catalog(); }

Status Database::Purge() { return PurgeScheduler::RunOnce(store_.get()); }

void Database::AddSchemaListener(std::function<void(const cql::SchemaChangeEvent&)> listener) {
  schema_->AddListener(std::move(listener));
}

std::unique_ptr<cql::Session> Database::NewSession() {
  return std::make_unique<EmbeddedSession>(this);
}

Result<std::shared_ptr<const PreparedStatement>> Database::Prepare(std::string_view query,
                                                                   std::string_view keyspace) {
  return processor_->Prepare(query, keyspace);
}

Result<std::shared_ptr<const PreparedStatement>> Database::FindPrepared(std::string_view id) {
  return processor_->FindPrepared(id);
}

Result<std::shared_ptr<const PreparedStatement>> Database::Rebind(
    const PreparedStatement& prepared) {
  return processor_->Rebind(prepared);
}

Result<cql::ResultSet> Database::Execute(const PreparedStatement& prepared,
                                         const cql::QueryOptions& options, SessionState* state) {
  return processor_->Execute(prepared, options, state);
}

Result<cql::ResultSet> Database::ExecuteText(std::string_view query,
                                             const cql::QueryOptions& options,
                                             SessionState* state) {
  return processor_->ExecuteText(query, options, state);
}

Result<cql::ResultSet> Database::ExecuteBatch(const cql::BatchRequest& request,
                                              SessionState* state) {
  std::vector<std::shared_ptr<const PreparedStatement>> holders;
  std::vector<const ModificationStatement*> statements;
  std::vector<std::vector<cql::BoundValue>> owned_values;
  std::string keyspace = request.keyspace.empty() ? state->keyspace : request.keyspace;
  for (const cql::BatchEntry& entry : request.entries) {
    std::shared_ptr<const PreparedStatement> prepared;
    if (entry.prepared) {
      ASSIGN_OR_RETURN(prepared, FindPrepared(entry.prepared->id));
    } else {
      ASSIGN_OR_RETURN(prepared, Prepare(entry.query, keyspace));
    }
    if (prepared->catalog != catalog()) {
      ASSIGN_OR_RETURN(prepared, Rebind(*prepared));
    }
    if (!prepared->modification) {
      return Status::Invalid(
          "Invalid statement in batch: only UPDATE, INSERT and DELETE statements are allowed.");
    }
    const auto& specs = prepared->metadata->bind_variables;
    std::vector<cql::BoundValue> values = entry.values;
    if (!entry.value_names.empty()) {
      std::vector<cql::BoundValue> named(specs.size(), cql::BoundValue::Unset());
      for (size_t i = 0; i < entry.value_names.size() && i < entry.values.size(); ++i) {
        for (size_t j = 0; j < specs.size(); ++j) {
          if (specs[j].name == entry.value_names[i]) named[j] = entry.values[i];
        }
      }
      values = std::move(named);
    }
    if (values.size() != specs.size()) {
      return Status::Invalid(fmt::format("There were {} markers(?) in CQL but {} bound variables",
                                         specs.size(), values.size()));
    }
    statements.push_back(prepared->modification.get());
    owned_values.push_back(std::move(values));
    holders.push_back(std::move(prepared));
  }
  std::vector<std::span<const cql::BoundValue>> values(owned_values.begin(), owned_values.end());
  return ExecuteBatchEntries(request.type, statements, values, request.timestamp);
}

Result<cql::ResultSet> Database::ExecuteBatchEntries(
    cql::BatchType type, const std::vector<const ModificationStatement*>& statements,
    const std::vector<std::span<const cql::BoundValue>>& values, std::optional<int64_t> timestamp) {
  bool conditional = false;
  bool needs_lock = false;
  for (const ModificationStatement* stmt : statements) {
    if (type == cql::BatchType::kCounter && !stmt->is_counter()) {
      return Status::Invalid("Cannot include non-counter statement in a counter batch");
    }
    if (type != cql::BatchType::kCounter && stmt->is_counter()) {
      return Status::Invalid(fmt::format("Cannot include a counter statement in a {} batch",
                                         type == cql::BatchType::kLogged ? "logged" : "unlogged"));
    }
    if (stmt->has_conditions()) conditional = true;
    if (stmt->is_counter()) needs_lock = true;
  }
  if (conditional && type == cql::BatchType::kCounter) {
    return Status::Invalid("Cannot include a counter statement in a conditional batch");
  }
  // From here to Store::Write: the views and indexes to maintain are the current catalogue's.
  std::shared_lock<std::shared_mutex> gate(write_gate_);
  std::shared_ptr<const schema::Catalog> current = catalog();
  std::vector<std::shared_ptr<const MaintenancePlan>> plans;
  for (const ModificationStatement* stmt : statements) {
    ASSIGN_OR_RETURN(std::shared_ptr<const MaintenancePlan> plan,
                     stmt->Maintenance(context_, current));
    if (plan != nullptr) needs_lock = true;
    plans.push_back(std::move(plan));
  }
  needs_lock = needs_lock || conditional;
  // Partitions touched, for conditional batch validation and locking.
  std::vector<std::unique_lock<std::mutex>> guards;
  if (needs_lock) {
    std::set<std::mutex*> mutexes;
    std::string table_id;
    Bytes partition;
    for (size_t i = 0; i < statements.size(); ++i) {
      ASSIGN_OR_RETURN(std::vector<PartitionKey> partitions,
                       statements[i]->Partitions(context_, values[i]));
      for (const PartitionKey& p : partitions) {
        if (conditional) {
          if (!table_id.empty() && table_id != statements[i]->table().storage_id) {
            return Status::Invalid("Batch with conditions cannot span multiple tables");
          }
          if (!partition.empty() && partition != p.prefix) {
            return Status::Invalid("Batch with conditions cannot span multiple partitions");
          }
          table_id = statements[i]->table().storage_id;
          partition = p.prefix;
        }
        mutexes.insert(&locks_->For(statements[i]->table().storage_id, p.prefix));
      }
    }
    for (std::mutex* m : mutexes) guards.emplace_back(*m);
  }
  if (conditional) {
    cql::ResultSet report;
    for (size_t i = 0; i < statements.size(); ++i) {
      if (!statements[i]->has_conditions()) continue;
      ASSIGN_OR_RETURN(bool ok, statements[i]->CheckConditions(context_, values[i], &report));
      if (!ok) return report;
    }
  }
  WriteParams params;
  params.now_seconds = context_.NowSeconds();
  params.timestamp = timestamp ? *timestamp : timestamps_->Next();
  CounterTotals counter_totals;
  params.counter_totals = &counter_totals;
  storage::WriteBatch batch;
  // The mutations of each table that has something to maintain, with its plan.
  std::map<std::string, std::pair<const MaintenancePlan*, std::vector<Mutation>>> maintained;
  std::vector<Mutation> mutations;
  // Counter rows, combined before they are written: a later update of a counter carries the
  // batch's running total (CounterTotals) and must replace the earlier cell, which has the same
  // timestamp and would otherwise win the merge whenever its value is greater.
  std::map<std::pair<std::string, Bytes>, storage::RowFragment> counter_rows;
  for (size_t i = 0; i < statements.size(); ++i) {
    mutations.clear();
    RETURN_IF_ERROR(statements[i]->AddMutations(context_, values[i], params, &mutations));
    const std::string& table = statements[i]->table().storage_id;
    for (const Mutation& m : mutations) {
      if (!statements[i]->is_counter()) {
        batch.Merge(table, m.key, m.fragment);
        continue;
      }
      auto [row, added] = counter_rows.try_emplace({table, m.key}, m.fragment);
      if (added) continue;
      std::vector<storage::Cell>& cells = row->second.cells;
      for (const storage::Cell& cell : m.fragment.cells) {
        std::erase_if(cells, [&](const storage::Cell& old) {
          return old.column_id == cell.column_id && old.path == cell.path;
        });
        cells.push_back(cell);
      }
      if (m.fragment.liveness) row->second.liveness = m.fragment.liveness;
      if (m.fragment.deletion) row->second.deletion = m.fragment.deletion;
    }
    if (plans[i] != nullptr) {
      auto& [plan, table_mutations] = maintained[table];
      plan = plans[i].get();
      for (Mutation& m : mutations) table_mutations.push_back(std::move(m));
    }
  }
  for (auto& [key, fragment] : counter_rows) {
    batch.Merge(key.first, key.second, storage::Canonical(std::move(fragment)));
  }
  if (!batch.empty()) {
    for (const auto& [table, entry] : maintained) {
      RETURN_IF_ERROR(entry.first->AddMutations(*store_, entry.second, params, &batch));
    }
    RETURN_IF_ERROR(store_->Write(batch));
  }
  if (conditional) {
    const ModificationStatement* first = statements.front();
    cql::ResultSet result = cql::ResultSet::Rows(
        {cql::ColumnSpec{first->table().table->keyspace, first->table().table->name, "[applied]",
                         cql::CqlType::Boolean()}});
    result.AddCell(cql::SerializeBoolean(true));
    return result;
  }
  return cql::ResultSet::Void();
}

std::mutex& PartitionLocks::For(std::string_view table_id, std::string_view partition_prefix) {
  size_t hash = std::hash<std::string_view>()(table_id) * 31 +
                std::hash<std::string_view>()(partition_prefix);
  return stripes_[hash % kStripes];
}

}  // namespace engine
