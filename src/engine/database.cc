#include "engine/database.h"

#include <algorithm>
#include <set>
#include <shared_mutex>
#include <utility>

#include <fmt/format.h>

#include "common/logging.h"
#include "common/utf8.h"
#include "cql/murmur3.h"
#include "cql/parser.h"
#include "cql/value_codec.h"
#include "engine/change_capture.h"
#include "engine/embedded_session.h"
#include "engine/maintenance_plan.h"
#include "engine/modification_statement.h"
#include "engine/schema_lookup.h"
#include "engine/select_statement.h"
#include "schema/catalog_codec.h"
#include "schema/catalog_store.h"
#include "schema/ddl.h"
#include "schema/describe.h"
#include "storage/cell_merge.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;

namespace {

// The error for a statement the engine does not run. User-defined functions and aggregates
// are refused with the words of a Cassandra whose UDFs are disabled (the default); anything
// else names the statement by its start, cut on a character boundary.
Status UnsupportedStatement(const cql::Statement& statement) {
  if (std::holds_alternative<cql::CreateFunction>(statement) ||
      std::holds_alternative<cql::CreateAggregate>(statement)) {
    return Status::Invalid(
        "User-defined functions are disabled: cqld does not support user-defined functions or "
        "aggregates");
  }
  return Status::Invalid(fmt::format("{} statements are not supported",
                                     common::TruncateUtf8(cql::ToCql(statement), 40, "...")));
}

constexpr size_t kMaxPrepared = 20000;

Bytes StatementId(std::string_view keyspace, std::string_view query) {
  std::string input(keyspace);
  input.push_back('\0');
  input.append(query);
  cql::Murmur3Hash128 hash = cql::CassandraMurmur3Hash128(input, 0x5eed);
  common::ByteWriter writer;
  writer.PutI64(hash.h1);
  writer.PutI64(hash.h2);
  return writer.Release();
}

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

// The data directory's catalogue (schema/catalog_store.h: a format 1 catalogue is migrated,
// entries that cannot be read are quarantined), with the column families made to match it.
Result<std::shared_ptr<const schema::Catalog>> OpenCatalog(storage::Store* store) {
  ASSIGN_OR_RETURN(schema::LoadedCatalog loaded, schema::LoadCatalog(*store));
  std::shared_ptr<const schema::Catalog> catalog = loaded.catalog;
  // A read-only store (opened on a full disk) can neither migrate nor repair: both wait for
  // the next open; the catalogue read is served as it is.
  if (store->read_only()) return catalog;
  if (loaded.source == schema::LoadedCatalog::Source::kLegacy) {
    RETURN_IF_ERROR(store->Write(loaded.migration));
    LOG_INFO("schema catalogue migrated to format {} (the format 1 value is kept)",
             schema::kEntryFormatVersion);
  }
  // Column families must match the catalogue (a crash between creating one and persisting
  // the catalogue leaves an orphan; a missing one is created). While anything is quarantined
  // no family is dropped: a quarantined table's data (and its indexes') must stay.
  std::map<std::string, int64_t> wanted = StorageIds(*catalog);
  for (const std::string& id : store->TableIds()) {
    if (wanted.contains(id)) continue;
    if (catalog->quarantined().empty()) {
      RETURN_IF_ERROR(store->DropTable(id));
    } else {
      LOG_WARNING("keeping column family {}: no live table uses it, and entries are quarantined",
                  id);
    }
  }
  for (const auto& [id, gc_grace] : wanted) {
    storage::TableOptions implied = StorageOptions(*catalog, id, gc_grace);
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
  return catalog;
}

cql::SchemaChangeEvent ToEvent(const schema::SchemaChange& change) {
  cql::SchemaChangeEvent event;
  event.change_type = std::string(schema::ChangeTypeName(change.change));
  event.target = std::string(schema::ChangeTargetName(change.target));
  event.keyspace = change.keyspace;
  event.name = change.name;
  return event;
}

bool IsSchemaStatement(const cql::Statement& statement) {
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

}  // namespace

PreparedStatement::~PreparedStatement() = default;
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

  ASSIGN_OR_RETURN(std::shared_ptr<const schema::Catalog> catalog, OpenCatalog(db->store_.get()));
  db->catalog_.store(catalog);

  db->timeuuids_ = std::make_unique<common::TimeuuidGenerator>(db->clock_);
  db->timestamps_ = std::make_unique<common::WriteTimestampGenerator>(db->clock_);
  db->list_paths_ = std::make_unique<ListPathAllocator>(db->timeuuids_.get());
  db->locks_ = std::make_unique<PartitionLocks>();
  if (db->options_.local_node.host_id.IsNil()) {
    // A stable host id: kept in the meta family.
    ASSIGN_OR_RETURN(std::optional<Bytes> host, db->store_->GetMeta("host_id"));
    if (host) {
      ASSIGN_OR_RETURN(db->options_.local_node.host_id, common::Uuid::FromBytes(*host));
    } else if (db->store_->read_only()) {
      db->options_.local_node.host_id = common::Uuid::Random();  // kept from the next open on
    } else {
      db->options_.local_node.host_id = common::Uuid::Random();
      storage::WriteBatch batch;
      batch.PutMeta("host_id", db->options_.local_node.host_id.ToBytes());
      RETURN_IF_ERROR(db->store_->Write(batch));
    }
  }
  if (db->options_.local_node.tokens.empty()) {
    db->options_.local_node.tokens.push_back(fmt::format("{}", INT64_MIN));
  }
  if (db->options_.local_node.gossip_generation == 0) {
    db->options_.local_node.gossip_generation =
        static_cast<int32_t>(db->clock_->NowMicros() / 1000000);
  }
  ExecutionContext& context = db->context_;
  context.store = db->store_.get();
  context.clock = db->clock_;
  context.timeuuids = db->timeuuids_.get();
  context.timestamps = db->timestamps_.get();
  context.list_paths = db->list_paths_.get();
  context.locks = db->locks_.get();
  context.write_gate = &db->write_gate_;
  context.local_node = &db->options_.local_node;
  Database* self = db.get();
  context.catalog = [self]() { return self->catalog(); };
  if (options.purge_interval.count() > 0) {
    db->purge_scheduler_ =
        std::make_unique<PurgeScheduler>(db->store_.get(), options.purge_interval);
  }
  return db;
}

Status Database::Purge() { return PurgeScheduler::RunOnce(store_.get()); }

void Database::AddSchemaListener(std::function<void(const cql::SchemaChangeEvent&)> listener) {
  std::lock_guard<std::mutex> lock(listeners_mutex_);
  listeners_.push_back(std::move(listener));
}

std::unique_ptr<cql::Session> Database::NewSession() {
  return std::make_unique<EmbeddedSession>(this);
}

Result<std::shared_ptr<const PreparedStatement>> Database::Bind(cql::Statement statement,
                                                                std::string keyspace,
                                                                std::string query, Bytes id) {
  auto prepared = std::make_shared<PreparedStatement>();
  prepared->catalog = catalog();
  prepared->keyspace = std::move(keyspace);
  auto metadata = std::make_shared<cql::PreparedMetadata>();
  metadata->id = std::move(id);
  metadata->query = std::move(query);
  metadata->keyspace = prepared->keyspace;
  const std::vector<std::string>& names = cql::BindMarkerNames(statement);
  BindCollector binds(names, prepared->keyspace, "");
  const auto& catalog = prepared->catalog;
  const std::string& ks = prepared->keyspace;
  if (const auto* select = std::get_if<cql::Select>(&statement)) {
    ASSIGN_OR_RETURN(prepared->select, SelectStatement::Prepare(catalog, *select, ks, &binds));
    metadata->result_columns = prepared->select->result_columns();
    metadata->partition_key_indexes = prepared->select->partition_key_bind_indexes();
  } else if (const auto* insert = std::get_if<cql::Insert>(&statement)) {
    ASSIGN_OR_RETURN(prepared->modification,
                     ModificationStatement::PrepareInsert(catalog, *insert, ks, &binds));
  } else if (const auto* update = std::get_if<cql::Update>(&statement)) {
    ASSIGN_OR_RETURN(prepared->modification,
                     ModificationStatement::PrepareUpdate(catalog, *update, ks, &binds));
  } else if (const auto* del = std::get_if<cql::Delete>(&statement)) {
    ASSIGN_OR_RETURN(prepared->modification,
                     ModificationStatement::PrepareDelete(catalog, *del, ks, &binds));
  } else if (const auto* batch = std::get_if<cql::Batch>(&statement)) {
    for (const auto& entry : batch->statements) {
      Result<std::unique_ptr<ModificationStatement>> stmt = std::visit(
          [&](const auto& s) -> Result<std::unique_ptr<ModificationStatement>> {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, cql::Insert>) {
              if (s.using_attributes.timestamp && batch->using_attributes.timestamp) {
                return Status::Invalid(
                    "Timestamp must be set either on BATCH or individual statements");
              }
              return ModificationStatement::PrepareInsert(catalog, s, ks, &binds);
            } else if constexpr (std::is_same_v<T, cql::Update>) {
              if (s.using_attributes.timestamp && batch->using_attributes.timestamp) {
                return Status::Invalid(
                    "Timestamp must be set either on BATCH or individual statements");
              }
              return ModificationStatement::PrepareUpdate(catalog, s, ks, &binds);
            } else {
              return ModificationStatement::PrepareDelete(catalog, s, ks, &binds);
            }
          },
          entry);
      if (!stmt.ok()) return stmt.status();
      prepared->batch.push_back(std::move(stmt).value());
    }
    if (batch->using_attributes.ttl) {
      return Status::Invalid("Global TTL on the BATCH statement is not supported.");
    }
  }
  if (prepared->modification) {
    metadata->partition_key_indexes = prepared->modification->partition_key_bind_indexes();
  }
  metadata->bind_variables = binds.specs();
  if (metadata->bind_variables.size() > 0 && names.size() != metadata->bind_variables.size()) {
    return Status::Internal("bind variable count mismatch");
  }
  {
    common::ByteWriter writer;
    for (const cql::ColumnSpec& spec : metadata->result_columns) {
      writer.PutShortBytes(spec.name.substr(0, 65535));
      writer.PutShortBytes(spec.type.ToCql().substr(0, 65535));
    }
    metadata->result_metadata_id = StatementId("", writer.data());
  }
  prepared->metadata = std::move(metadata);
  prepared->statement = std::move(statement);
  return std::shared_ptr<const PreparedStatement>(std::move(prepared));
}

Result<std::shared_ptr<const PreparedStatement>> Database::Prepare(std::string_view query,
                                                                   std::string_view keyspace) {
  Bytes id = StatementId(keyspace, query);
  {
    std::lock_guard<std::mutex> lock(prepared_mutex_);
    auto it = prepared_.find(id);
    if (it != prepared_.end()) {
      std::shared_ptr<const PreparedStatement> found = it->second;
      if (found->catalog == catalog()) return found;
    }
  }
  ASSIGN_OR_RETURN(cql::Statement statement, cql::ParseStatement(query));
  ASSIGN_OR_RETURN(std::shared_ptr<const PreparedStatement> prepared,
                   Bind(std::move(statement), std::string(keyspace), std::string(query), id));
  std::lock_guard<std::mutex> lock(prepared_mutex_);
  if (prepared_.size() >= kMaxPrepared) prepared_.clear();
  prepared_[id] = prepared;
  return prepared;
}

Result<std::shared_ptr<const PreparedStatement>> Database::FindPrepared(std::string_view id) {
  std::lock_guard<std::mutex> lock(prepared_mutex_);
  auto it = prepared_.find(std::string(id));
  if (it == prepared_.end()) {
    return Status(common::StatusCode::kUnprepared,
                  fmt::format("Prepared query with ID {} not found (either the query was not "
                              "prepared on this host (maybe the host has been restarted?) or "
                              "you have prepared too many queries and it has been evicted from "
                              "the internal cache)",
                              common::ToHex(id)));
  }
  return it->second;
}

Result<std::shared_ptr<const PreparedStatement>> Database::Rebind(
    const PreparedStatement& prepared) {
  // The same statement bound to the current catalogue, keeping its id.
  ASSIGN_OR_RETURN(
      std::shared_ptr<const PreparedStatement> rebound,
      Bind(prepared.statement, prepared.keyspace, prepared.metadata->query, prepared.metadata->id));
  std::lock_guard<std::mutex> lock(prepared_mutex_);
  prepared_[rebound->metadata->id] = rebound;
  return rebound;
}

Result<cql::ResultSet> Database::ExecuteText(std::string_view query,
                                             const cql::QueryOptions& options,
                                             SessionState* state) {
  std::string_view keyspace = options.keyspace.empty() ? state->keyspace : options.keyspace;
  ASSIGN_OR_RETURN(std::shared_ptr<const PreparedStatement> prepared, Prepare(query, keyspace));
  return Execute(*prepared, options, state);
}

Result<cql::ResultSet> Database::Execute(const PreparedStatement& prepared_in,
                                         const cql::QueryOptions& options, SessionState* state) {
  std::shared_ptr<const PreparedStatement> holder;
  const PreparedStatement* prepared = &prepared_in;
  if (prepared->catalog != catalog() && !IsSchemaStatement(prepared->statement)) {
    ASSIGN_OR_RETURN(holder, Rebind(*prepared));
    prepared = holder.get();
  }
  // Values: positional, or by name.
  std::vector<cql::BoundValue> named;
  std::span<const cql::BoundValue> values = options.values;
  const std::vector<cql::ColumnSpec>& specs = prepared->metadata->bind_variables;
  if (!options.value_names.empty()) {
    named.assign(specs.size(), cql::BoundValue::Unset());
    std::vector<bool> found(specs.size(), false);
    for (size_t i = 0; i < options.value_names.size() && i < options.values.size(); ++i) {
      bool matched = false;
      for (size_t j = 0; j < specs.size(); ++j) {
        if (specs[j].name == options.value_names[i]) {
          named[j] = options.values[i];
          found[j] = true;
          matched = true;
        }
      }
      if (!matched) {
        return Status::Invalid(fmt::format("Invalid value name: {}", options.value_names[i]));
      }
    }
    values = named;
  }
  if (values.size() != specs.size()) {
    return Status::Invalid(fmt::format("There were {} markers(?) in CQL but {} bound variables",
                                       specs.size(), values.size()));
  }
  const cql::Statement& statement = prepared->statement;
  if (prepared->select) return prepared->select->Execute(context_, options, values);
  if (prepared->modification) return prepared->modification->Execute(context_, options, values);
  if (const auto* batch = std::get_if<cql::Batch>(&statement)) {
    std::vector<const ModificationStatement*> statements;
    std::vector<std::span<const cql::BoundValue>> entry_values;
    for (const auto& stmt : prepared->batch) {
      statements.push_back(stmt.get());
      entry_values.push_back(values);
    }
    cql::BatchType type = batch->type == cql::Batch::Type::kCounter    ? cql::BatchType::kCounter
                          : batch->type == cql::Batch::Type::kUnlogged ? cql::BatchType::kUnlogged
                                                                       : cql::BatchType::kLogged;
    std::optional<int64_t> timestamp = options.timestamp;
    if (batch->using_attributes.timestamp) {
      cql::FunctionContext functions = context_.function_context();
      EvalContext eval{values, &functions};
      ASSIGN_OR_RETURN(ValueExpr ts,
                       ValueExpr::Prepare(*batch->using_attributes.timestamp,
                                          cql::CqlType::Bigint(), "[timestamp]", nullptr));
      ASSIGN_OR_RETURN(cql::BoundValue v, ts.Evaluate(eval));
      if (v.is_value()) {
        ASSIGN_OR_RETURN(timestamp, cql::DeserializeBigint(v.bytes));
      }
    }
    return ExecuteBatchEntries(type, statements, entry_values, timestamp);
  }
  if (const auto* use = std::get_if<cql::Use>(&statement)) {
    if (catalog()->FindKeyspace(use->keyspace) == nullptr &&
        !schema::IsSystemKeyspace(use->keyspace)) {
      return Status::Invalid(fmt::format("Keyspace '{}' does not exist", use->keyspace));
    }
    state->keyspace = use->keyspace;
    return cql::ResultSet::SetKeyspace(use->keyspace);
  }
  if (const auto* truncate = std::get_if<cql::Truncate>(&statement)) {
    std::shared_ptr<const schema::Catalog> current = catalog();
    std::string_view keyspace = options.keyspace.empty() ? state->keyspace : options.keyspace;
    ASSIGN_OR_RETURN(TableRef ref, LookupTable(*current, truncate->table, keyspace));
    if (ref.is_system) {
      return Status::Unauthorized(
          fmt::format("{} keyspace is not user-modifiable.", ref.table->keyspace));
    }
    if (ref.is_view)
      return Status::Invalid(
          "Cannot TRUNCATE materialized view directly; must truncate base table instead");
    RETURN_IF_ERROR(store_->TruncateTable(StorageId(ref.table->id)));
    for (const auto& [name, index] : ref.table->indexes) {
      RETURN_IF_ERROR(store_->TruncateTable(StorageId(index.id)));
    }
    const schema::KeyspaceMetadata* ks = current->FindKeyspace(ref.table->keyspace);
    for (const schema::TableMetadata* view : ks->ViewsOf(ref.table->id)) {
      RETURN_IF_ERROR(store_->TruncateTable(StorageId(view->id)));
    }
    return cql::ResultSet::Void();
  }
  if (const auto* describe = std::get_if<cql::Describe>(&statement)) {
    std::string_view keyspace = options.keyspace.empty() ? state->keyspace : options.keyspace;
    ASSIGN_OR_RETURN(schema::DescribeResult described,
                     schema::Describe(*catalog(), *describe, keyspace, options_.local_node));
    cql::CqlType text = cql::CqlType::Text();
    if (described.shape == schema::DescribeResult::Shape::kCluster) {
      std::vector<cql::ColumnSpec> columns = {
          {"", "", "cluster", text}, {"", "", "partitioner", text}, {"", "", "snitch", text}};
      cql::ResultSet result = cql::ResultSet::Rows(columns);
      result.AddRow({described.cluster, described.partitioner, described.snitch});
      return result;
    }
    std::vector<cql::ColumnSpec> columns = {
        {"", "", "keyspace_name", text}, {"", "", "type", text}, {"", "", "name", text}};
    if (described.shape == schema::DescribeResult::Shape::kElements) {
      columns.push_back({"", "", "create_statement", text});
    }
    cql::ResultSet result = cql::ResultSet::Rows(columns);
    for (const schema::DescribeRow& row : described.rows) {
      std::vector<std::optional<Bytes>> cells = {row.keyspace_name, row.type, row.name};
      if (described.shape == schema::DescribeResult::Shape::kElements) {
        cells.emplace_back(row.create_statement);
      }
      result.AddRow(std::move(cells));
    }
    return result;
  }
  if (IsSchemaStatement(statement)) {
    std::string_view keyspace = options.keyspace.empty() ? state->keyspace : options.keyspace;
    return ExecuteSchemaChange(statement, keyspace);
  }
  return UnsupportedStatement(statement);
}

Status Database::SyncStorage(const schema::Catalog& old_catalog,
                             const schema::Catalog& new_catalog) {
  std::map<std::string, int64_t> before = StorageIds(old_catalog);
  std::map<std::string, int64_t> after = StorageIds(new_catalog);
  for (const auto& [id, gc_grace] : after) {
    auto it = before.find(id);
    if (it == before.end()) {
      if (!store_->HasTable(id)) {
        RETURN_IF_ERROR(store_->CreateTable(id, StorageOptions(new_catalog, id, gc_grace)));
      }
    } else if (it->second != gc_grace) {
      ASSIGN_OR_RETURN(storage::TableOptions stored, store_->TableOptionsOf(id));
      RETURN_IF_ERROR(store_->AlterTable(
          id, KeepSingleRowFlag(StorageOptions(new_catalog, id, gc_grace), stored)));
    }
  }
  return Status::Ok();
}

Result<cql::ResultSet> Database::ExecuteSchemaChange(const cql::Statement& statement,
                                                     std::string_view keyspace) {
  std::optional<cql::SchemaChangeEvent> event;
  {
    std::lock_guard<std::mutex> lock(schema_mutex_);
    std::shared_ptr<const schema::Catalog> current = catalog();
    ASSIGN_OR_RETURN(schema::DdlResult result,
                     schema::ApplyDdl(*current, statement, keyspace, *clock_));
    if (!result.catalog) return cql::ResultSet::Void();
    // Encoded and decoded back before anything changes: a catalogue the next open could not
    // read is refused here (Invalid), with nothing persisted or published.
    ASSIGN_OR_RETURN(storage::WriteBatch batch,
                     schema::PlanCatalogWrite(*current, *result.catalog));
    RETURN_IF_ERROR(CheckNewViews(result.catalog, *current));
    RETURN_IF_ERROR(SyncStorage(*current, *result.catalog));
    RETURN_IF_ERROR(store_->Write(batch));
    catalog_.store(result.catalog);
    std::map<std::string, int64_t> before = StorageIds(*current);
    std::map<std::string, int64_t> after = StorageIds(*result.catalog);
    bool storage_changed =
        before.size() != after.size() ||
        !std::equal(before.begin(), before.end(), after.begin(),
                    [](const auto& a, const auto& b) { return a.first == b.first; });
    if (storage_changed) {
      // Drain the writes that looked up the previous catalogue: later ones maintain the new
      // views and indexes, and none writes to storage dropped below.
      std::unique_lock<std::shared_mutex> drain(write_gate_);
    }
    // Storage of dropped objects goes after the new catalogue is durable.
    for (const auto& [id, gc_grace] : before) {
      if (!after.contains(id)) RETURN_IF_ERROR(store_->DropTable(id));
    }
    RETURN_IF_ERROR(Backfill(result.catalog, *current));
    if (result.change) event = ToEvent(*result.change);
  }
  if (!event) return cql::ResultSet::Void();
  std::vector<std::function<void(const cql::SchemaChangeEvent&)>> listeners;
  {
    std::lock_guard<std::mutex> lock(listeners_mutex_);
    listeners = listeners_;
  }
  for (const auto& listener : listeners) listener(*event);
  return cql::ResultSet::SchemaChange(*event);
}

Status Database::CheckNewViews(const std::shared_ptr<const schema::Catalog>& new_catalog,
                               const schema::Catalog& old_catalog) {
  std::map<std::string, int64_t> old_ids = StorageIds(old_catalog);
  cql::FunctionContext functions = context_.function_context();
  for (const auto& [ks_name, ks] : new_catalog->keyspaces()) {
    for (const auto& [name, view] : ks->views) {
      if (old_ids.contains(StorageId(view->id))) continue;
      const schema::TableMetadata* base = ks->FindTable(view->view->base_table_name);
      if (base == nullptr) continue;
      RETURN_IF_ERROR(MaintenancePlan::Build(new_catalog, *base, functions, view->id).status());
    }
  }
  return Status::Ok();
}

Status Database::Backfill(const std::shared_ptr<const schema::Catalog>& new_catalog,
                          const schema::Catalog& old_catalog) {
  std::map<std::string, int64_t> old_ids = StorageIds(old_catalog);
  cql::FunctionContext functions = context_.function_context();
  auto backfill = [&](const schema::TableMetadata& base, const common::Uuid& id) -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<const MaintenancePlan> plan,
                     MaintenancePlan::Build(new_catalog, base, functions, id));
    if (plan == nullptr) return Status::Ok();
    LOG_INFO("backfilling {}.{} for {}", base.keyspace, base.name, id.ToString());
    return ForEachBaseRow(
        context_, plan->base(),
        [&](std::span<const RowChange> rows, int64_t now_seconds, storage::WriteBatch* batch) {
          WriteParams params{timestamps_->Next(), now_seconds};
          return plan->AddChangeMutations(*store_, rows, params, batch);
        });
  };
  for (const auto& [ks_name, ks] : new_catalog->keyspaces()) {
    for (const auto& [name, view] : ks->views) {
      if (old_ids.contains(StorageId(view->id))) continue;
      const schema::TableMetadata* base = ks->FindTable(view->view->base_table_name);
      if (base != nullptr) RETURN_IF_ERROR(backfill(*base, view->id));
    }
    for (const auto& [name, table] : ks->tables) {
      for (const auto& [index_name, index] : table->indexes) {
        if (!old_ids.contains(StorageId(index.id))) RETURN_IF_ERROR(backfill(*table, index.id));
      }
    }
  }
  return Status::Ok();
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
