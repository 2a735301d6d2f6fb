#include "schema/ddl.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "schema/ddl_internal.h"
#include "schema/ddl_options.h"
#include "schema/type_resolver.h"

namespace schema {
namespace {

using common::Status;
using internal::Changed;
using internal::KeyspaceOf;

DdlResult NoChange() { return DdlResult{}; }

// ---- keyspaces ----

common::Result<DdlResult> CreateKeyspace(const Catalog& current, const cql::CreateKeyspace& stmt,
                                         std::string_view local_datacenter) {
  ASSIGN_OR_RETURN(KeyspaceOptions options, ParseKeyspaceOptions(stmt.properties));
  if (!options.has_replication) return Status::Invalid("Missing mandatory option 'replication'");
  if (current.FindKeyspace(stmt.keyspace) != nullptr) {
    if (stmt.if_not_exists) return NoChange();
    return Status::AlreadyExists(fmt::format("Cannot add existing keyspace \"{}\"", stmt.keyspace));
  }
  auto keyspace = std::make_shared<KeyspaceMetadata>();
  keyspace->name = stmt.keyspace;
  keyspace->durable_writes = options.durable_writes;
  ASSIGN_OR_RETURN(keyspace->replication,
                   ValidateReplication(options.replication, stmt.keyspace, local_datacenter));
  return Changed(current.WithKeyspace(std::move(keyspace)), ChangeType::kCreated,
                 ChangeTarget::kKeyspace, stmt.keyspace, "");
}

common::Result<DdlResult> DropKeyspace(const Catalog& current, const cql::DropKeyspace& stmt) {
  if (current.FindKeyspace(stmt.keyspace) == nullptr) {
    if (stmt.if_exists) return NoChange();
    return Status::Invalid(fmt::format("Keyspace '{}' doesn't exist", stmt.keyspace));
  }
  return Changed(current.WithoutKeyspace(stmt.keyspace), ChangeType::kDropped,
                 ChangeTarget::kKeyspace, stmt.keyspace, "");
}

// ---- user types ----

common::Result<DdlResult> CreateType(const Catalog& current, const cql::CreateType& stmt,
                                     std::string_view session_keyspace) {
  ASSIGN_OR_RETURN(std::string ks_name, KeyspaceOf(stmt.type, session_keyspace));
  const KeyspaceMetadata* ks = current.FindKeyspace(ks_name);
  if (ks == nullptr) return Status::Invalid(fmt::format("Keyspace '{}' doesn't exist", ks_name));
  const std::string& type_name = stmt.type.name;
  if (ks->FindType(type_name) != nullptr) {
    if (stmt.if_not_exists) return NoChange();
    return Status::Invalid(fmt::format("A user type with name '{}' already exists", type_name));
  }
  std::set<std::string_view> field_names;
  for (const cql::UserTypeField& field : stmt.fields) {
    if (!field_names.insert(field.name).second) {
      return Status::Invalid(
          fmt::format("Duplicate field name '{}' in type '{}'", field.name, type_name));
    }
  }
  for (const cql::UserTypeField& field : stmt.fields) {
    if (field.type.IsCounter()) return Status::Invalid("A user type cannot contain counters");
    if (field.type.kind() == cql::TypeKind::kUdt && !field.type.frozen()) {
      return Status::Invalid("A user type cannot contain non-frozen UDTs");
    }
  }
  std::vector<std::string> names;
  std::vector<cql::CqlType> types;
  for (const cql::UserTypeField& field : stmt.fields) {
    ASSIGN_OR_RETURN(cql::CqlType type, ResolveType(field.type, ks_name, *ks));
    names.push_back(field.name);
    types.push_back(std::move(type));
  }
  cql::CqlType udt = cql::CqlType::Udt(ks_name, type_name, std::move(names), std::move(types));
  RETURN_IF_ERROR(CheckTypeDepth(udt, fmt::format("Type {}.{}", ks_name, type_name)));
  auto updated = std::make_shared<KeyspaceMetadata>(*ks);
  updated->types.insert_or_assign(type_name, std::move(udt));
  return Changed(current.WithKeyspace(std::move(updated)), ChangeType::kCreated,
                 ChangeTarget::kType, ks_name, type_name);
}

std::string JoinNames(const std::vector<std::string>& names) {
  return fmt::format("{}", fmt::join(names, ", "));
}

common::Result<DdlResult> DropType(const Catalog& current, const cql::DropType& stmt,
                                   std::string_view session_keyspace) {
  ASSIGN_OR_RETURN(std::string ks_name, KeyspaceOf(stmt.type, session_keyspace));
  const std::string& type_name = stmt.type.name;
  const KeyspaceMetadata* ks = current.FindKeyspace(ks_name);
  if (ks == nullptr || ks->FindType(type_name) == nullptr) {
    if (stmt.if_exists) return NoChange();
    return Status::Invalid(fmt::format("Type '{}.{}' doesn't exist", ks_name, type_name));
  }
  std::vector<std::string> using_types;
  for (const auto& [name, type] : ks->types) {
    if (name == type_name) continue;
    for (const cql::CqlType& field : type.params()) {
      if (ReferencesUserType(field, ks_name, type_name)) {
        using_types.push_back(name);
        break;
      }
    }
  }
  if (!using_types.empty()) {
    return Status::Invalid(
        fmt::format("Cannot drop user type '{}.{}' as it is still used by user types {}", ks_name,
                    type_name, JoinNames(using_types)));
  }
  std::vector<std::string> using_tables;
  for (const auto& [name, table] : ks->tables) {
    for (const ColumnMetadata& column : table->columns) {
      if (ReferencesUserType(column.type, ks_name, type_name)) {
        using_tables.push_back(name);
        break;
      }
    }
  }
  if (!using_tables.empty()) {
    return Status::Invalid(
        fmt::format("Cannot drop user type '{}.{}' as it is still used by tables {}", ks_name,
                    type_name, JoinNames(using_tables)));
  }
  auto updated = std::make_shared<KeyspaceMetadata>(*ks);
  updated->types.erase(type_name);
  return Changed(current.WithKeyspace(std::move(updated)), ChangeType::kDropped,
                 ChangeTarget::kType, ks_name, type_name);
}

// ---- tables ----

std::string RawTableName(const cql::QualifiedName& name) {
  return name.keyspace.empty() ? name.name : fmt::format("{}.{}", name.keyspace, name.name);
}

// Checks the primary key columns as Cassandra does, in key order.
Status CheckPrimaryKey(const cql::CreateTable& stmt,
                       const std::map<std::string, cql::CqlType>& types,
                       const std::set<std::string>& static_columns) {
  std::set<std::string> seen;
  std::vector<std::string> key = stmt.partition_key;
  key.insert(key.end(), stmt.clustering_columns.begin(), stmt.clustering_columns.end());
  for (const std::string& column : key) {
    auto it = types.find(column);
    if (it == types.end()) {
      return Status::Invalid(fmt::format(
          "Unknown column '{}' referenced in PRIMARY KEY for table '{}'", column, stmt.table.name));
    }
    if (!seen.insert(column).second) {
      return Status::Invalid(fmt::format(
          "Duplicate column '{}' in PRIMARY KEY clause for table '{}'", column, stmt.table.name));
    }
    const cql::CqlType& type = it->second;
    if (type.IsMultiCell()) {
      if (type.IsCollection()) {
        return Status::Invalid(
            fmt::format("Invalid non-frozen collection type {} for PRIMARY KEY column '{}'",
                        type.ToCql(), column));
      }
      return Status::Invalid(
          fmt::format("Invalid non-frozen user-defined type {} for PRIMARY KEY column '{}'",
                      type.ToCql(), column));
    }
    if (type.IsCounter()) {
      return Status::Invalid(
          fmt::format("counter type is not supported for PRIMARY KEY column '{}'", column));
    }
    if (ReferencesDuration(type)) {
      return Status::Invalid(
          fmt::format("duration type is not supported for PRIMARY KEY column '{}'", column));
    }
    if (static_columns.contains(column)) {
      return Status::Invalid(
          fmt::format("Static column '{}' cannot be part of the PRIMARY KEY", column));
    }
  }
  return Status::Ok();
}

Status CheckClusteringOrder(const cql::CreateTable& stmt) {
  const auto& order = stmt.clustering_order;
  const auto& clustering = stmt.clustering_columns;
  if (order.size() > clustering.size()) {
    return Status::Invalid("Only clustering columns can be defined in CLUSTERING ORDER directive");
  }
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i].column == clustering[i]) continue;
    bool ordered_later = false;
    for (const cql::ClusteringOrder& entry : order) {
      if (entry.column == clustering[i]) ordered_later = true;
    }
    if (ordered_later) {
      return Status::Invalid(fmt::format(
          "The order of columns in the CLUSTERING ORDER directive must match that of the "
          "clustering columns ({} must appear before {})",
          clustering[i], order[i].column));
    }
    return Status::Invalid(fmt::format("Missing CLUSTERING ORDER for column {}", clustering[i]));
  }
  return Status::Ok();
}

common::Result<DdlResult> CreateTable(const Catalog& current, const cql::CreateTable& stmt,
                                      std::string_view session_keyspace) {
  std::set<std::string> static_columns;
  std::set<std::string_view> declared;
  for (const cql::ColumnDefinition& column : stmt.columns) {
    if (!declared.insert(column.name).second) {
      return Status::Invalid(fmt::format("Duplicate column '{}' declaration for table '{}'",
                                         column.name, RawTableName(stmt.table)));
    }
    if (column.is_static) static_columns.insert(column.name);
  }
  ASSIGN_OR_RETURN(std::string ks_name, KeyspaceOf(stmt.table, session_keyspace));
  if (stmt.partition_key.empty()) {
    return Status::Invalid(fmt::format(
        "No PRIMARY KEY specifed for table '{}' (exactly one required)", RawTableName(stmt.table)));
  }
  if (stmt.compact_storage) {
    return Status::Invalid(
        "Compact tables are not allowed in Cassandra starting with 4.0 version.");
  }
  const KeyspaceMetadata* ks = current.FindKeyspace(ks_name);
  if (ks == nullptr) return Status::Invalid(fmt::format("Keyspace '{}' doesn't exist", ks_name));
  const std::string& table_name = stmt.table.name;
  if (ks->FindTableOrView(table_name) != nullptr) {  // tables and views share names
    if (stmt.if_not_exists) return NoChange();
    return Status::AlreadyExists(fmt::format(
        "Cannot add already existing table \"{}\" to keyspace \"{}\"", table_name, ks_name));
  }
  ASSIGN_OR_RETURN(ParsedTableOptions options, ParseTableOptions(stmt.properties));

  // Cassandra resolves the column types in name order.
  std::map<std::string, cql::CqlType> types;
  for (const cql::ColumnDefinition& column : stmt.columns) types.emplace(column.name, column.type);
  for (auto& [name, type] : types) {
    ASSIGN_OR_RETURN(type, ResolveType(type, ks_name, *ks));
  }
  for (const auto& [name, type] : types) {
    if (type.kind() == cql::TypeKind::kUdt && type.IsMultiCell()) {
      for (const cql::CqlType& field : type.params()) {
        if (field.IsMultiCell()) {
          return Status::Invalid(
              "Non-frozen UDTs with nested non-frozen collections are not supported");
        }
      }
    }
  }
  RETURN_IF_ERROR(CheckPrimaryKey(stmt, types, static_columns));
  RETURN_IF_ERROR(CheckClusteringOrder(stmt));
  if (stmt.clustering_columns.empty() && !static_columns.empty()) {
    return Status::Invalid(
        "Static columns are only useful (and thus allowed) if the table has at least one "
        "clustering column");
  }

  auto table = std::make_shared<TableMetadata>();
  table->id = options.has_id ? options.id : common::Uuid::Random();
  table->keyspace = ks_name;
  table->name = table_name;
  table->options = std::move(options.options);
  for (size_t i = 0; i < stmt.partition_key.size(); ++i) {
    const std::string& name = stmt.partition_key[i];
    table->columns.push_back(ColumnMetadata{name, types.at(name), ColumnKind::kPartitionKey,
                                            static_cast<int>(i), ClusteringOrder::kAsc, 0});
    types.erase(name);
  }
  for (size_t i = 0; i < stmt.clustering_columns.size(); ++i) {
    const std::string& name = stmt.clustering_columns[i];
    ClusteringOrder order = ClusteringOrder::kAsc;
    if (i < stmt.clustering_order.size() && !stmt.clustering_order[i].ascending) {
      order = ClusteringOrder::kDesc;
    }
    table->columns.push_back(ColumnMetadata{name, types.at(name), ColumnKind::kClustering,
                                            static_cast<int>(i), order, 0});
    types.erase(name);
  }
  bool has_counters = false;
  bool has_non_counters = false;
  for (const cql::ColumnDefinition& column : stmt.columns) {
    if (column.type.IsCounter()) has_counters = true;
  }
  for (const auto& [name, type] : types) {
    if (!type.IsCounter()) has_non_counters = true;
  }
  if (has_counters) {
    if (has_non_counters) {
      return Status::Invalid("Cannot mix counter and non counter columns in the same table");
    }
    if (table->options.default_time_to_live > 0) {
      return Status::Invalid("Cannot set default_time_to_live on a table with counters");
    }
  }
  table->is_counter = has_counters;
  for (bool statics : {true, false}) {
    for (const auto& [name, type] : types) {
      if (static_columns.contains(name) != statics) continue;
      table->columns.push_back(ColumnMetadata{name, type,
                                              statics ? ColumnKind::kStatic : ColumnKind::kRegular,
                                              0, ClusteringOrder::kAsc, 0});
    }
  }
  for (size_t i = 0; i < table->columns.size(); ++i) {
    table->columns[i].column_id = static_cast<uint32_t>(i);
  }
  table->next_column_id = static_cast<uint32_t>(table->columns.size());
  if (!IsValidSchemaName(table_name)) {
    return Status::ConfigError(
        fmt::format("{}.{}: Table name must not be empty, more than 48 characters long, or "
                    "contain non-alphanumeric-underscore characters (got \"{}\")",
                    ks_name, table_name, table_name));
  }

  auto updated = std::make_shared<KeyspaceMetadata>(*ks);
  updated->tables.insert_or_assign(table_name, std::move(table));
  return Changed(current.WithKeyspace(std::move(updated)), ChangeType::kCreated,
                 ChangeTarget::kTable, ks_name, table_name);
}

common::Result<DdlResult> DropTable(const Catalog& current, const cql::DropTable& stmt,
                                    std::string_view session_keyspace) {
  ASSIGN_OR_RETURN(std::string ks_name, KeyspaceOf(stmt.table, session_keyspace));
  const std::string& table_name = stmt.table.name;
  const KeyspaceMetadata* ks = current.FindKeyspace(ks_name);
  const TableMetadata* table = ks == nullptr ? nullptr : ks->FindTableOrView(table_name);
  if (table == nullptr) {
    if (stmt.if_exists) return NoChange();
    return Status::Invalid(fmt::format("Table '{}.{}' doesn't exist", ks_name, table_name));
  }
  if (table->view) {
    return Status::Invalid(
        "Cannot use DROP TABLE on a materialized view. Please use DROP MATERIALIZED VIEW "
        "instead.");
  }
  if (!ks->ViewsOf(table->id).empty()) {
    // Cassandra's format string prints only the keyspace name here.
    return Status::Invalid(fmt::format(
        "Cannot drop a table when materialized views still depend on it ({})", ks_name));
  }
  // The table's indexes go with it.
  auto updated = std::make_shared<KeyspaceMetadata>(*ks);
  updated->tables.erase(table_name);
  return Changed(current.WithKeyspace(std::move(updated)), ChangeType::kDropped,
                 ChangeTarget::kTable, ks_name, table_name);
}

// Invalid when `statement` creates an object whose name a quarantined entry holds: the entry
// and its data are still on disk, and a new object must not take them over or hide them.
// The keyspace a schema statement changes, as Cassandra's AlterSchemaStatement names it (the
// session keyspace for unqualified names); nullopt when there is none (the statement reports
// that itself).
std::optional<std::string> TargetKeyspace(const cql::Statement& statement,
                                          std::string_view session_keyspace) {
  return std::visit(
      [&](const auto& stmt) -> std::optional<std::string> {
        using T = std::decay_t<decltype(stmt)>;
        const cql::QualifiedName* name = nullptr;
        if constexpr (std::is_same_v<T, cql::CreateKeyspace> ||
                      std::is_same_v<T, cql::AlterKeyspace> ||
                      std::is_same_v<T, cql::DropKeyspace>) {
          return stmt.keyspace;
        } else if constexpr (std::is_same_v<T, cql::CreateTable> ||
                             std::is_same_v<T, cql::AlterTable> ||
                             std::is_same_v<T, cql::DropTable> ||
                             std::is_same_v<T, cql::CreateIndex>) {
          name = &stmt.table;
        } else if constexpr (std::is_same_v<T, cql::CreateType> ||
                             std::is_same_v<T, cql::AlterType> ||
                             std::is_same_v<T, cql::DropType>) {
          name = &stmt.type;
        } else if constexpr (std::is_same_v<T, cql::DropIndex>) {
          name = &stmt.index;
        } else if constexpr (std::is_same_v<T, cql::CreateMaterializedView> ||
                             std::is_same_v<T, cql::AlterMaterializedView> ||
                             std::is_same_v<T, cql::DropMaterializedView>) {
          name = &stmt.view;
        }
        if (name == nullptr) return std::nullopt;
        auto keyspace = KeyspaceOf(*name, session_keyspace);
        if (!keyspace.ok()) return std::nullopt;
        return keyspace.value();
      },
      statement);
}

Status RefuseQuarantinedName(const Catalog& current, const cql::Statement& statement,
                             std::string_view session_keyspace) {
  EntryKind kind;
  std::string keyspace;
  std::string name;
  auto qualified = [&](const cql::QualifiedName& qualified_name) -> Status {
    ASSIGN_OR_RETURN(keyspace, KeyspaceOf(qualified_name, session_keyspace));
    name = qualified_name.name;
    return Status::Ok();
  };
  if (const auto* stmt = std::get_if<cql::CreateKeyspace>(&statement)) {
    kind = EntryKind::kKeyspace;
    keyspace = stmt->keyspace;
  } else if (const auto* stmt = std::get_if<cql::CreateType>(&statement)) {
    kind = EntryKind::kType;
    RETURN_IF_ERROR(qualified(stmt->type));
  } else if (const auto* stmt = std::get_if<cql::CreateTable>(&statement)) {
    kind = EntryKind::kTable;
    RETURN_IF_ERROR(qualified(stmt->table));
  } else if (const auto* stmt = std::get_if<cql::CreateMaterializedView>(&statement)) {
    kind = EntryKind::kView;
    RETURN_IF_ERROR(qualified(stmt->view));
  } else {
    return Status::Ok();
  }
  const QuarantinedEntry* entry = current.FindQuarantined(kind, keyspace, name);
  if (entry == nullptr) return Status::Ok();
  std::string what = name.empty() ? keyspace : fmt::format("{}.{}", keyspace, name);
  return Status::Invalid(fmt::format(
      "Cannot create {} {}: a {} of that name is quarantined (its stored definition could not "
      "be read: {}); its definition and data are kept on disk. Run `cqld --data DIR --check` "
      "for details",
      EntryKindName(kind), what, EntryKindName(entry->kind), entry->reason));
}

}  // namespace

std::string_view ChangeTypeName(ChangeType change) {
  switch (change) {
    case ChangeType::kCreated:
      return "CREATED";
    case ChangeType::kUpdated:
      return "UPDATED";
    case ChangeType::kDropped:
      return "DROPPED";
  }
  return "UPDATED";
}

std::string_view ChangeTargetName(ChangeTarget target) {
  switch (target) {
    case ChangeTarget::kKeyspace:
      return "KEYSPACE";
    case ChangeTarget::kTable:
      return "TABLE";
    case ChangeTarget::kType:
      return "TYPE";
  }
  return "KEYSPACE";
}

common::Result<DdlResult> ApplyDdl(const Catalog& current, const cql::Statement& statement,
                                   std::string_view session_keyspace) {
  common::SystemClock clock;
  return ApplyDdl(current, statement, session_keyspace, clock);
}

common::Result<DdlResult> ApplyDdl(const Catalog& current, const cql::Statement& statement,
                                   std::string_view session_keyspace, const common::Clock& clock) {
  return ApplyDdl(current, statement, session_keyspace, DdlEnvironment{.clock = &clock});
}

common::Result<DdlResult> ApplyDdl(const Catalog& current, const cql::Statement& statement,
                                   std::string_view session_keyspace,
                                   const DdlEnvironment& environment) {
  const common::Clock& clock = *environment.clock;
  if (std::optional<std::string> keyspace = TargetKeyspace(statement, session_keyspace);
      keyspace && !IsValidSchemaName(*keyspace)) {
    return Status::Invalid(
        fmt::format("Keyspace name must not be empty, more than 48 characters long, or contain "
                    "non-alphanumeric-underscore characters (got '{}')",
                    *keyspace));
  }
  if (!current.quarantined().empty()) {
    RETURN_IF_ERROR(RefuseQuarantinedName(current, statement, session_keyspace));
  }
  if (const auto* stmt = std::get_if<cql::CreateKeyspace>(&statement)) {
    return CreateKeyspace(current, *stmt, environment.local_datacenter);
  }
  if (const auto* stmt = std::get_if<cql::DropKeyspace>(&statement)) {
    return DropKeyspace(current, *stmt);
  }
  if (const auto* stmt = std::get_if<cql::CreateType>(&statement)) {
    return CreateType(current, *stmt, session_keyspace);
  }
  if (const auto* stmt = std::get_if<cql::DropType>(&statement)) {
    return DropType(current, *stmt, session_keyspace);
  }
  if (const auto* stmt = std::get_if<cql::CreateTable>(&statement)) {
    return CreateTable(current, *stmt, session_keyspace);
  }
  if (const auto* stmt = std::get_if<cql::AlterTable>(&statement)) {
    return internal::AlterTable(current, *stmt, session_keyspace, clock);
  }
  if (const auto* stmt = std::get_if<cql::DropTable>(&statement)) {
    return DropTable(current, *stmt, session_keyspace);
  }
  if (const auto* stmt = std::get_if<cql::AlterKeyspace>(&statement)) {
    return internal::AlterKeyspace(current, *stmt, environment.local_datacenter);
  }
  if (const auto* stmt = std::get_if<cql::AlterType>(&statement)) {
    return internal::AlterType(current, *stmt, session_keyspace);
  }
  if (const auto* stmt = std::get_if<cql::CreateIndex>(&statement)) {
    return internal::CreateIndex(current, *stmt, session_keyspace);
  }
  if (const auto* stmt = std::get_if<cql::DropIndex>(&statement)) {
    return internal::DropIndex(current, *stmt, session_keyspace);
  }
  if (const auto* stmt = std::get_if<cql::CreateMaterializedView>(&statement)) {
    return internal::CreateView(current, *stmt, session_keyspace);
  }
  if (const auto* stmt = std::get_if<cql::AlterMaterializedView>(&statement)) {
    return internal::AlterView(current, *stmt, session_keyspace);
  }
  if (const auto* stmt = std::get_if<cql::DropMaterializedView>(&statement)) {
    return internal::DropView(current, *stmt, session_keyspace);
  }
  return Status::Invalid(
      fmt::format("Statement is not supported by the schema layer: {}", cql::ToCql(statement)));
}

}  // namespace schema
