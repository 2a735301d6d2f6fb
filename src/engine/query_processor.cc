#include "engine/query_processor.h"

#include <chrono>
#include <utility>

#include <fmt/format.h>

#include "auth/permissions.h"
#include "common/utf8.h"
#include "cql/parser/parser.h"
#include "cql/types/murmur3.h"
#include "cql/types/value_codec.h"
#include "engine/authorizer.h"
#include "engine/batch_statement.h"
#include "engine/modification_statement.h"
#include "engine/request_metrics.h"
#include "engine/role_manager.h"
#include "engine/schema_lookup.h"
#include "engine/schema_manager.h"
#include "engine/select_statement.h"
#include "engine/tracing.h"
#include "engine/value_expr.h"
#include "schema/describe.h"

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

// The id of a result's column metadata (native protocol v5 result_metadata_id).
Bytes ResultMetadataId(const std::vector<cql::ColumnSpec>& columns) {
  common::ByteWriter writer;
  for (const cql::ColumnSpec& spec : columns) {
    writer.PutShortBytes(spec.name.substr(0, 65535));
    writer.PutShortBytes(spec.type.ToCql().substr(0, 65535));
  }
  return StatementId("", writer.data());
}

// `values` in marker order: positional as given, or placed by name. Errors: Invalid for an
// unknown name or a count that does not match the markers.
Status WrongValueCount(const std::vector<cql::ColumnSpec>& specs,
                       const std::vector<cql::BoundValue>& values) {
  return Status::Invalid(fmt::format("There were {} markers(?) in CQL but {} bound variables",
                                     specs.size(), values.size()));
}

Result<std::vector<cql::BoundValue>> ResolveValues(const std::vector<cql::ColumnSpec>& specs,
                                                   const cql::QueryOptions& options) {
  std::vector<cql::BoundValue> values = options.values;
  if (!options.value_names.empty()) {
    values.assign(specs.size(), cql::BoundValue::Unset());
    for (size_t i = 0; i < options.value_names.size() && i < options.values.size(); ++i) {
      bool matched = false;
      for (size_t j = 0; j < specs.size(); ++j) {
        if (specs[j].name == options.value_names[i]) {
          values[j] = options.values[i];
          matched = true;
        }
      }
      if (!matched) {
        return Status::Invalid(fmt::format("Invalid value name: {}", options.value_names[i]));
      }
    }
  }
  if (values.size() != specs.size()) return WrongValueCount(specs, values);
  return values;
}

}  // namespace

PreparedStatement::~PreparedStatement() = default;

QueryProcessor::QueryProcessor(const ExecutionContext* context, SchemaManager* schema,
                               RoleManager* roles, Authorizer* authorizer,
                               const schema::LocalNodeInfo* local_node, size_t cache_capacity)
    : context_(context),
      schema_(schema),
      roles_(roles),
      authorizer_(authorizer),
      local_node_(local_node),
      cache_(cache_capacity) {}

std::shared_ptr<const schema::Catalog> QueryProcessor::catalog() const {
  return schema_->catalog();
}

Result<std::shared_ptr<const PreparedStatement>> QueryProcessor::Bind(cql::Statement statement,
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
  if (!names.empty() && std::holds_alternative<cql::CreateMaterializedView>(statement)) {
    return Status::Invalid("Bind variables are not allowed in CREATE MATERIALIZED VIEW statements");
  }
  BindCollector binds(names, prepared->keyspace, "");
  RETURN_IF_ERROR(PrepareStatement(statement, prepared.get(), metadata.get(), &binds));
  metadata->bind_variables = binds.specs();
  if (metadata->bind_variables.size() > 0 && names.size() != metadata->bind_variables.size()) {
    return Status::Internal("bind variable count mismatch");
  }
  metadata->result_metadata_id = ResultMetadataId(metadata->result_columns);
  prepared->metadata = std::move(metadata);
  prepared->statement = std::move(statement);
  return std::shared_ptr<const PreparedStatement>(std::move(prepared));
}

Status QueryProcessor::PrepareStatement(const cql::Statement& statement,
                                        PreparedStatement* prepared,
                                        cql::PreparedMetadata* metadata, BindCollector* binds) {
  const auto& catalog = prepared->catalog;
  const std::string& ks = prepared->keyspace;
  if (const auto* select = std::get_if<cql::Select>(&statement)) {
    ASSIGN_OR_RETURN(prepared->select, SelectStatement::Prepare(catalog, *select, ks, binds));
    metadata->result_columns = prepared->select->result_columns();
    metadata->partition_key_indexes = prepared->select->partition_key_bind_indexes();
    return Status::Ok();
  }
  if (const auto* insert = std::get_if<cql::Insert>(&statement)) {
    ASSIGN_OR_RETURN(prepared->modification,
                     ModificationStatement::PrepareInsert(catalog, *insert, ks, binds));
  } else if (const auto* update = std::get_if<cql::Update>(&statement)) {
    ASSIGN_OR_RETURN(prepared->modification,
                     ModificationStatement::PrepareUpdate(catalog, *update, ks, binds));
  } else if (const auto* del = std::get_if<cql::Delete>(&statement)) {
    ASSIGN_OR_RETURN(prepared->modification,
                     ModificationStatement::PrepareDelete(catalog, *del, ks, binds));
  } else if (const auto* batch = std::get_if<cql::Batch>(&statement)) {
    RETURN_IF_ERROR(PrepareBatch(*batch, prepared, binds));
  }
  if (prepared->modification) {
    metadata->partition_key_indexes = prepared->modification->partition_key_bind_indexes();
  }
  return Status::Ok();
}

Status QueryProcessor::PrepareBatch(const cql::Batch& batch, PreparedStatement* prepared,
                                    BindCollector* binds) {
  const auto& catalog = prepared->catalog;
  const std::string& ks = prepared->keyspace;
  for (const auto& entry : batch.statements) {
    Result<std::unique_ptr<ModificationStatement>> stmt = std::visit(
        [&](const auto& s) -> Result<std::unique_ptr<ModificationStatement>> {
          using T = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<T, cql::Insert>) {
            return ModificationStatement::PrepareInsert(catalog, s, ks, binds);
          } else if constexpr (std::is_same_v<T, cql::Update>) {
            return ModificationStatement::PrepareUpdate(catalog, s, ks, binds);
          } else {
            return ModificationStatement::PrepareDelete(catalog, s, ks, binds);
          }
        },
        entry);
    if (!stmt.ok()) return stmt.status();
    prepared->batch.push_back(std::move(stmt).value());
  }
  return ValidateBatchStatement(batch, prepared->batch);
}

Result<std::shared_ptr<const PreparedStatement>> QueryProcessor::Prepare(
    std::string_view query, std::string_view keyspace) {
  Bytes id = StatementId(keyspace, query);
  std::shared_ptr<const PreparedStatement> found = cache_.Find(id);
  if (found != nullptr && found->catalog == catalog()) {
    Trace("Found the statement in the prepared statement cache");
    return found;
  }
  Trace("Parsing {}", query);
  ASSIGN_OR_RETURN(cql::Statement statement, cql::ParseStatement(query));
  Trace("Preparing statement");
  ASSIGN_OR_RETURN(std::shared_ptr<const PreparedStatement> prepared,
                   Bind(std::move(statement), std::string(keyspace), std::string(query), id));
  cache_.Put(id, prepared);
  return prepared;
}

Result<std::shared_ptr<const PreparedStatement>> QueryProcessor::FindPrepared(std::string_view id) {
  std::shared_ptr<const PreparedStatement> found = cache_.Find(id);
  if (found == nullptr) {
    return Status(common::StatusCode::kUnprepared,
                  fmt::format("Prepared query with ID {} not found (either the query was not "
                              "prepared on this host (maybe the host has been restarted?) or "
                              "you have prepared too many queries and it has been evicted from "
                              "the internal cache)",
                              common::ToHex(id)));
  }
  return found;
}

Result<std::shared_ptr<const PreparedStatement>> QueryProcessor::Rebind(
    const PreparedStatement& prepared) {
  // The same statement bound to the current catalogue, keeping its id.
  Trace("Preparing statement again for the current schema");
  ASSIGN_OR_RETURN(
      std::shared_ptr<const PreparedStatement> rebound,
      Bind(prepared.statement, prepared.keyspace, prepared.metadata->query, prepared.metadata->id));
  cache_.Put(rebound->metadata->id, rebound);
  return rebound;
}

Result<cql::ResultSet> QueryProcessor::ExecuteText(std::string_view query,
                                                   const cql::QueryOptions& options,
                                                   SessionState* state) {
  std::string_view keyspace = options.keyspace.empty() ? state->keyspace : options.keyspace;
  ASSIGN_OR_RETURN(std::shared_ptr<const PreparedStatement> prepared, Prepare(query, keyspace));
  return Execute(*prepared, options, state);
}

Result<cql::ResultSet> QueryProcessor::Execute(const PreparedStatement& prepared_in,
                                               const cql::QueryOptions& options,
                                               SessionState* state) {
  std::shared_ptr<const PreparedStatement> holder;
  const PreparedStatement* prepared = &prepared_in;
  if (prepared->catalog != catalog() && !SchemaManager::IsSchemaStatement(prepared->statement)) {
    ASSIGN_OR_RETURN(holder, Rebind(*prepared));
    prepared = holder.get();
  }
  const std::vector<cql::ColumnSpec>& specs = prepared->metadata->bind_variables;
  if (options.value_names.empty()) {
    // Positional values, the common case: bound as they are, without a copy.
    if (options.values.size() != specs.size()) return WrongValueCount(specs, options.values);
    return Dispatch(*prepared, options, options.values, state);
  }
  ASSIGN_OR_RETURN(std::vector<cql::BoundValue> values, ResolveValues(specs, options));
  return Dispatch(*prepared, options, values, state);
}

Result<cql::ResultSet> QueryProcessor::Dispatch(const PreparedStatement& prepared,
                                                const cql::QueryOptions& options,
                                                std::span<const cql::BoundValue> values,
                                                SessionState* state) {
  // Names resolve in the keyspace the statement was prepared in, as Cassandra binds them at
  // prepare time (a later USE does not move a prepared statement to another table).
  const std::string& keyspace = prepared.keyspace;
  RETURN_IF_ERROR(
      authorizer_->CheckAccess(prepared.statement, keyspace, *prepared.catalog, state->user));
  const auto started = std::chrono::steady_clock::now();
  Result<cql::ResultSet> ran = Run(prepared, options, values, state);
  if (context_->metrics != nullptr) {
    context_->metrics->RecordStatement(prepared, options,
                                       std::chrono::steady_clock::now() - started, ran);
  }
  if (!ran.ok()) return ran;
  RETURN_IF_ERROR(authorizer_->AfterChange(prepared.statement, keyspace, state->user));
  return ran;
}

Result<cql::ResultSet> QueryProcessor::Run(const PreparedStatement& prepared,
                                           const cql::QueryOptions& options,
                                           std::span<const cql::BoundValue> values,
                                           SessionState* state) {
  if (prepared.select) return prepared.select->Execute(*context_, options, values);
  if (prepared.modification) return prepared.modification->Execute(*context_, options, values);
  const cql::Statement& statement = prepared.statement;
  std::string_view keyspace = prepared.keyspace;
  if (const auto* batch = std::get_if<cql::Batch>(&statement)) {
    return engine::ExecuteBatchStatement(*context_, *batch, prepared.batch, options, values);
  }
  if (const auto* use = std::get_if<cql::Use>(&statement)) return ExecuteUse(*use, state);
  if (const auto* truncate = std::get_if<cql::Truncate>(&statement)) {
    return ExecuteTruncate(*truncate, keyspace);
  }
  if (const auto* describe = std::get_if<cql::Describe>(&statement)) {
    return ExecuteDescribe(*describe, keyspace);
  }
  if (SchemaManager::IsSchemaStatement(statement)) return schema_->Execute(statement, keyspace);
  if (RoleManager::IsRoleStatement(statement)) {
    const bool describe_all_roles =
        authorizer_->Check(state->user, cql::Permission::kDescribe, auth::AllRolesResource()).ok();
    return roles_->Execute(statement, state->user, describe_all_roles);
  }
  if (Authorizer::IsPermissionStatement(statement)) {
    return authorizer_->Execute(statement, keyspace, *catalog(), state->user);
  }
  return UnsupportedStatement(statement);
}

Result<cql::ResultSet> QueryProcessor::ExecuteUse(const cql::Use& use, SessionState* state) {
  if (catalog()->FindKeyspace(use.keyspace) == nullptr && !schema::IsSystemKeyspace(use.keyspace)) {
    return Status::Invalid(fmt::format("Keyspace '{}' does not exist", use.keyspace));
  }
  state->keyspace = use.keyspace;
  return cql::ResultSet::SetKeyspace(use.keyspace);
}

Result<cql::ResultSet> QueryProcessor::ExecuteTruncate(const cql::Truncate& truncate,
                                                       std::string_view keyspace) {
  std::shared_ptr<const schema::Catalog> current = catalog();
  ASSIGN_OR_RETURN(TableRef ref, LookupTable(*current, truncate.table, keyspace));
  if (ref.is_system && schema::IsVirtualKeyspace(ref.table->keyspace)) {
    // Cassandra 4.1's AbstractVirtualTable.truncate.
    return Status::Invalid(fmt::format("Truncation is not supported by table {}.{}",
                                       ref.table->keyspace, ref.table->name));
  }
  if (ref.is_system) {
    return Status::Unauthorized(
        fmt::format("{} keyspace is not user-modifiable.", ref.table->keyspace));
  }
  if (ref.is_view) {
    return Status::Invalid(
        "Cannot TRUNCATE materialized view directly; must truncate base table instead");
  }
  storage::Store* store = context_->store;
  RETURN_IF_ERROR(store->TruncateTable(StorageId(ref.table->id)));
  for (const auto& [name, index] : ref.table->indexes) {
    RETURN_IF_ERROR(store->TruncateTable(StorageId(index.id)));
  }
  const schema::KeyspaceMetadata* ks = current->FindKeyspace(ref.table->keyspace);
  for (const schema::TableMetadata* view : ks->ViewsOf(ref.table->id)) {
    RETURN_IF_ERROR(store->TruncateTable(StorageId(view->id)));
  }
  return cql::ResultSet::Void();
}

Result<cql::ResultSet> QueryProcessor::ExecuteDescribe(const cql::Describe& describe,
                                                       std::string_view keyspace) {
  ASSIGN_OR_RETURN(schema::DescribeResult described,
                   schema::Describe(*catalog(), describe, keyspace, *local_node_));
  cql::CqlType text = cql::CqlType::Text();
  if (described.shape == schema::DescribeResult::Shape::kCluster) {
    std::vector<cql::ColumnSpec> columns = {
        {"", "", "cluster", text}, {"", "", "partitioner", text}, {"", "", "snitch", text}};
    cql::ResultSet result = cql::ResultSet::Rows(columns);
    result.AddRow({described.cluster, described.partitioner, described.snitch});
    return result;
  }
  const bool elements = described.shape == schema::DescribeResult::Shape::kElements;
  std::vector<cql::ColumnSpec> columns = {
      {"", "", "keyspace_name", text}, {"", "", "type", text}, {"", "", "name", text}};
  if (elements) columns.push_back({"", "", "create_statement", text});
  cql::ResultSet result = cql::ResultSet::Rows(columns);
  for (const schema::DescribeRow& row : described.rows) {
    std::vector<std::optional<Bytes>> cells = {row.keyspace_name, row.type, row.name};
    if (elements) cells.emplace_back(row.create_statement);
    result.AddRow(std::move(cells));
  }
  return result;
}

}  // namespace engine
