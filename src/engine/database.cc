#include "engine/database.h"

#include "common/logging.h"

#include <algorithm>
#include <set>
#include <shared_mutex>
#include <utility>

#include <fmt/format.h>

#include "common/utf8.h"
#include "cql/types/value_codec.h"
#include "engine/batch_statement.h"
#include "engine/embedded_session.h"
#include "engine/maintenance_plan.h"
#include "engine/modification_statement.h"
#include "engine/select_statement.h"
#include "storage/cell_merge.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;

Database::~Database() {
  metrics_collector_.Reset();
  // Writes made while the members are torn down (the purge scheduler's) no longer reach the
  // row cache, which goes before the store: they only leave its slices stale.
  if (store_ != nullptr) store_->set_write_observer(nullptr);
}

Result<std::unique_ptr<Database>> Database::Open(const std::string& directory,
                                                 const DatabaseOptions& options) {
  std::unique_ptr<Database> db(new Database());
  db->options_ = options;
  db->directory_ = directory;
  if (options.clock == nullptr) {
    db->system_clock_ = std::make_unique<common::SystemClock>();
    db->clock_ = db->system_clock_.get();
  } else {
    db->clock_ = options.clock;
  }
  storage::StoreOptions store_options;
  store_options.clock = db->clock_;
  store_options.sync_writes = options.durability == DatabaseOptions::Durability::kBatch;
  store_options.bulk_load = options.durability == DatabaseOptions::Durability::kBulkLoad;
  store_options.block_cache_bytes = options.block_cache_bytes;
  store_options.min_free_space_bytes = options.min_free_space_bytes;
  ASSIGN_OR_RETURN(db->store_, storage::Store::Open(directory, store_options));
  db->timeuuids_ = std::make_unique<common::TimeuuidGenerator>(db->clock_);
  db->timestamps_ = std::make_unique<common::WriteTimestampGenerator>(db->clock_);
  db->list_paths_ = std::make_unique<ListPathAllocator>(db->timeuuids_.get());
  db->locks_ = std::make_unique<PartitionLocks>();
  if (options.row_cache_bytes > 0) {
    db->row_cache_ = std::make_unique<RowCache>(options.row_cache_bytes);
    // Writes update the cached partitions instead of only leaving them stale (row_cache.h
    // write-through).
    db->store_->set_write_observer(db->row_cache_.get());
  }
  db->metrics_ = std::make_unique<EngineMetrics>();
  RETURN_IF_ERROR(db->DescribeLocalNode());
  db->tracer_ =
      std::make_unique<Tracer>(db->clock_, db->timeuuids_.get(), &db->options_.local_node);
  db->WireContext();
  db->schema_ = std::make_unique<SchemaManager>(
      &db->context_, &db->write_gate_, db->options_.local_node.data_center, options.backfill_fault);
  RETURN_IF_ERROR(db->schema_->Load());
  RETURN_IF_ERROR(db->OpenRoles());
  db->processor_ =
      std::make_unique<QueryProcessor>(&db->context_, db->schema_.get(), db->roles_.get(),
                                       db->authorizer_.get(), &db->options_.local_node);
  db->StartMetrics();
  if (options.purge_interval.count() > 0) {
    db->purge_scheduler_ =
        std::make_unique<PurgeScheduler>(db->store_.get(), options.purge_interval);
  }
  return db;
}

Status Database::OpenRoles() {
  const bool authorize = options_.authorizer == DatabaseOptions::Authorizer::kCassandra;
  if (authorize && options_.authenticator != DatabaseOptions::Authenticator::kPassword) {
    return Status::ConfigError(
        "AllowAllAuthenticator can't be used with CassandraAuthorizer: turn on the "
        "PasswordAuthenticator too");
  }
  roles_ = std::make_unique<RoleManager>(store_.get());
  RETURN_IF_ERROR(roles_->Load());
  authorizer_ = std::make_unique<engine::Authorizer>(store_.get(), roles_.get(), authorize);
  RETURN_IF_ERROR(authorizer_->Load());
  context_.auth_tables = [this] { return AuthTablesSnapshot(*roles_, *authorizer_); };
  if (options_.authenticator != DatabaseOptions::Authenticator::kPassword || read_only()) {
    return Status::Ok();
  }
  const std::string password = options_.superuser_password.value_or("cassandra");
  ASSIGN_OR_RETURN(bool created, roles_->Bootstrap(password));
  if (created) {
    LOG_INFO("Created the default superuser role '{}'", RoleManager::kDefaultSuperuser);
    if (!options_.superuser_password) {
      LOG_WARNING(
          "The superuser '{}' has the default password: change it (ALTER ROLE {} WITH "
          "PASSWORD = '...') or start with CQLD_SUPERUSER_PASSWORD set",
          RoleManager::kDefaultSuperuser, RoleManager::kDefaultSuperuser);
    }
  }
  return Status::Ok();
}

Result<std::string> Database::Authenticate(std::string_view username,
                                           std::string_view password) const {
  if (options_.authenticator != DatabaseOptions::Authenticator::kPassword) {
    return Status(common::StatusCode::kAuthenticationError,
                  "Authentication is not enabled (authenticator: AllowAllAuthenticator)");
  }
  return roles_->Authenticate(username, password);
}

bool Database::IsSuperuser(std::string_view role) const {
  return roles_->roles()->IsSuperuser(role);
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
  context_.row_cache = row_cache_.get();
  context_.metrics = metrics_.get();
  context_.write_gate = &write_gate_;
  context_.local_node = &options_.local_node;
  context_.catalog = [this]() { return catalog(); };
  context_.trace_tables = [this](std::span<const common::Uuid> ids) {
    return tracer_->store().Snapshot(ids);
  };
  context_.system_views = [this](std::string_view table) { return SystemViews(table); };
  context_.tombstone_warn_threshold = options_.tombstone_warn_threshold;
  context_.tombstone_failure_threshold = options_.tombstone_failure_threshold;
  context_.batch_thresholds = options_.batch_thresholds;
}

std::shared_ptr<const schema::Catalog> Database::catalog() const { return schema_->catalog(); }

void Database::SetNativeAddress(const std::string& rpc_address, int32_t port) {
  options_.local_node.rpc_address = rpc_address;
  options_.local_node.native_port = port;
}

Status Database::Purge() { return PurgeScheduler::RunOnce(store_.get()); }

void Database::AddSchemaListener(std::function<void(const cql::SchemaChangeEvent&)> listener) {
  schema_->AddListener(std::move(listener));
}

std::unique_ptr<cql::Session> Database::NewSession(std::string user) {
  return std::make_unique<EmbeddedSession>(this, std::move(user));
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

template <typename Query, typename Run>
Result<cql::ResultSet> Database::Monitored(std::string_view request,
                                           const cql::QueryOptions& options,
                                           const SessionState& state, std::string_view keyspace,
                                           Query query, Run run) {
  TraceScope trace(tracer_.get(), options.tracing, [&] {
    return TraceRequest{std::string(request), TraceParameters(query(), options),
                        state.client_address};
  });
  const std::chrono::milliseconds threshold = options_.slow_query_log_threshold;
  const auto start = std::chrono::steady_clock::now();
  Result<cql::ResultSet> result = run();
  if (threshold.count() > 0) {
    const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    if (elapsed >= threshold) {
      LOG_WARNING("Slow query: {} ms (slow_query_log_timeout {} ms) in keyspace {}: {}",
                  elapsed.count(), threshold.count(), keyspace.empty() ? "(none)" : keyspace,
                  common::TruncateUtf8(RedactPasswords(query()), 1024, "..."));
    }
  }
  if (!result.ok()) {
    Trace("Request failed: {}", result.status().message());
  } else {
    result->set_tracing_id(trace.client_id());
  }
  return result;
}

Result<cql::ResultSet> Database::Execute(const PreparedStatement& prepared,
                                         const cql::QueryOptions& options, SessionState* state) {
  const std::string& query = prepared.metadata->query;
  return Monitored(
      "Execute CQL3 prepared query", options, *state, prepared.keyspace,
      [&]() -> std::string_view { return query; },
      [&] { return processor_->Execute(prepared, options, state); });
}

Result<cql::ResultSet> Database::ExecuteText(std::string_view query,
                                             const cql::QueryOptions& options,
                                             SessionState* state) {
  std::string_view keyspace = options.keyspace.empty() ? state->keyspace : options.keyspace;
  return Monitored(
      "Execute CQL3 query", options, *state, keyspace, [&] { return query; },
      [&] { return processor_->ExecuteText(query, options, state); });
}

Result<cql::ResultSet> Database::ExecuteBatch(const cql::BatchRequest& request,
                                              SessionState* state) {
  cql::QueryOptions options;
  options.consistency = request.consistency;
  options.serial_consistency = request.serial_consistency;
  options.tracing = request.tracing;
  std::string text;  // the batch as CQL, built only for a trace or the slow-query log
  auto query = [&]() -> std::string_view {
    if (!text.empty()) return text;
    text = request.type == cql::BatchType::kUnlogged  ? "BEGIN UNLOGGED BATCH "
           : request.type == cql::BatchType::kCounter ? "BEGIN COUNTER BATCH "
                                                      : "BEGIN BATCH ";
    for (const cql::BatchEntry& entry : request.entries) {
      text += entry.prepared ? entry.prepared->query : entry.query;
      text += "; ";
    }
    text += "APPLY BATCH";
    return text;
  };
  std::string_view keyspace = request.keyspace.empty() ? state->keyspace : request.keyspace;
  return Monitored("Execute batch of CQL3 queries", options, *state, keyspace, query,
                   [&] { return RunBatch(request, state); });
}

Result<cql::ResultSet> Database::RunBatch(const cql::BatchRequest& request, SessionState* state) {
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
    // As Cassandra's BatchStatement.checkAccess: MODIFY on every table written, before any
    // write; unqualified names resolve as the entry was bound (its keyspace at prepare time).
    RETURN_IF_ERROR(authorizer_->CheckAccess(prepared->statement, prepared->keyspace,
                                             *prepared->catalog, state->user));
    ASSIGN_OR_RETURN(std::vector<cql::BoundValue> values,
                     BatchEntryValues(entry, prepared->metadata->bind_variables));
    statements.push_back(prepared->modification.get());
    owned_values.push_back(std::move(values));
    holders.push_back(std::move(prepared));
  }
  std::vector<std::span<const cql::BoundValue>> values(owned_values.begin(), owned_values.end());
  const auto started = std::chrono::steady_clock::now();
  Result<cql::ResultSet> result =
      engine::ExecuteBatch(context_, request.type, statements, values, request.timestamp);
  metrics_->RecordBatch(request.type, statements, std::chrono::steady_clock::now() - started,
                        result);
  return result;
}

std::mutex& PartitionLocks::For(std::string_view table_id, std::string_view partition_prefix) {
  size_t hash = std::hash<std::string_view>()(table_id) * 31 +
                std::hash<std::string_view>()(partition_prefix);
  return stripes_[hash % kStripes];
}

}  // namespace engine
