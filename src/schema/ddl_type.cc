// ALTER KEYSPACE and ALTER TYPE (ADD field, RENAME fields; ALTER field TYPE is refused), with
// Cassandra 4.1's rules and messages. A changed user type is propagated to every type, table,
// view and dropped column that uses it. Declared in ddl_internal.h; dispatched from ApplyDdl.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "schema/ddl_internal.h"
#include "schema/ddl_options.h"
#include "schema/type_resolver.h"

namespace schema::internal {
namespace {

using common::Status;
using cql::CqlType;

// Tables and views of `ks` whose partition key uses the type `type_name`, as "ks.table".
std::vector<std::string> TablesWithTypeInPartitionKey(const KeyspaceMetadata& ks,
                                                      std::string_view type_name) {
  std::vector<std::string> result;
  for (const auto* tables : {&ks.tables, &ks.views}) {
    for (const auto& [name, table] : *tables) {
      for (const ColumnMetadata& column : table->columns) {
        if (column.kind == ColumnKind::kPartitionKey &&
            ReferencesUserType(column.type, ks.name, type_name)) {
          result.push_back(QualifiedToString(ks.name, name));
          break;
        }
      }
    }
  }
  return result;
}

// `table` with every use of `udt` replaced by its new definition; nullptr when it has none.
std::shared_ptr<const TableMetadata> PropagateType(const TableMetadata& table, const CqlType& udt) {
  bool uses = false;
  auto updated = std::make_shared<TableMetadata>(table);
  for (ColumnMetadata& column : updated->columns) {
    if (ReferencesUserType(column.type, udt.keyspace(), udt.name())) {
      column.type = ReplaceUserType(column.type, udt);
      uses = true;
    }
  }
  for (auto& [name, dropped] : updated->dropped_columns) {
    if (ReferencesUserType(dropped.type, udt.keyspace(), udt.name())) {
      dropped.type = ReplaceUserType(dropped.type, udt);
      uses = true;
    }
  }
  return uses ? updated : nullptr;
}

// `ks` with the user type `udt` replaced and propagated everywhere.
std::shared_ptr<KeyspaceMetadata> WithUpdatedType(const KeyspaceMetadata& ks, const CqlType& udt) {
  auto updated = std::make_shared<KeyspaceMetadata>(ks);
  for (auto& [name, type] : updated->types) {
    if (name == udt.name()) {
      type = udt;
    } else if (ReferencesUserType(type, udt.keyspace(), udt.name())) {
      type = ReplaceUserType(type, udt);
    }
  }
  for (auto* tables : {&updated->tables, &updated->views}) {
    for (auto& [name, table] : *tables) {
      if (auto replaced = PropagateType(*table, udt)) table = std::move(replaced);
    }
  }
  return updated;
}

common::Result<CqlType> AddField(const cql::AlterType& stmt, const KeyspaceMetadata& ks,
                                 const CqlType& type, bool* changed) {
  const std::string type_string = QualifiedToString(ks.name, type.name());
  const auto& names = type.field_names();
  if (std::find(names.begin(), names.end(), stmt.field) != names.end()) {
    if (stmt.if_field_not_exists) return type;
    return Status::Invalid(
        fmt::format("Cannot add field {} to type {}: a field with name {} already exists",
                    stmt.field, type_string, stmt.field));
  }
  if (stmt.field_type.IsCounter()) return Status::Invalid("A user type cannot contain counters");
  if (stmt.field_type.kind() == cql::TypeKind::kUdt && !stmt.field_type.frozen()) {
    return Status::Invalid("A user type cannot contain non-frozen UDTs");
  }
  ASSIGN_OR_RETURN(CqlType field_type, ResolveType(stmt.field_type, ks.name, ks));
  if (ReferencesUserType(field_type, ks.name, type.name())) {
    return Status::Invalid(fmt::format(
        "Cannot add new field {} of type {} to user type {} as it would create a circular "
        "reference",
        stmt.field, stmt.field_type.ToCql(), type_string));
  }
  std::vector<std::string> in_partition_keys = TablesWithTypeInPartitionKey(ks, type.name());
  if (!in_partition_keys.empty()) {
    return Status::Invalid(fmt::format(
        "Cannot add new field {} of type {} to user type {} as the type is being used in "
        "partition key by the following tables: {}",
        stmt.field, stmt.field_type.ToCql(), type_string, fmt::join(in_partition_keys, ", ")));
  }
  std::vector<std::string> new_names = names;
  std::vector<CqlType> new_types = type.params();
  new_names.push_back(stmt.field);
  new_types.push_back(std::move(field_type));
  *changed = true;
  return CqlType::Udt(ks.name, type.name(), std::move(new_names), std::move(new_types));
}

common::Result<CqlType> RenameFields(const cql::AlterType& stmt, const KeyspaceMetadata& ks,
                                     const CqlType& type, bool* changed) {
  std::vector<std::string> names = type.field_names();
  for (const auto& [from, to] : stmt.renames) {
    auto it = std::find(type.field_names().begin(), type.field_names().end(), from);
    if (it == type.field_names().end()) {
      if (stmt.if_field_exists) continue;
      // Cassandra's message has this spelling.
      return Status::Invalid(fmt::format("Unkown field {} in user type {}", from,
                                         QualifiedToString(ks.name, type.name())));
    }
    names[it - type.field_names().begin()] = to;
  }
  for (const std::string& name : names) {
    if (std::count(names.begin(), names.end(), name) > 1) {
      // Cassandra prints the keyspace name where the type name is expected.
      return Status::Invalid(fmt::format("Duplicate field name {} in type {}", name, ks.name));
    }
  }
  if (names == type.field_names()) return type;
  *changed = true;
  return CqlType::Udt(ks.name, type.name(), std::move(names), type.params());
}

}  // namespace

common::Result<DdlResult> AlterKeyspace(const Catalog& current, const cql::AlterKeyspace& stmt,
                                        std::string_view local_datacenter) {
  ASSIGN_OR_RETURN(KeyspaceOptions options, ParseKeyspaceOptions(stmt.properties));
  const KeyspaceMetadata* ks = current.FindKeyspace(stmt.keyspace);
  if (ks == nullptr) {
    if (stmt.if_exists) return DdlResult{};
    return Status::Invalid(fmt::format("Keyspace '{}' doesn't exist", stmt.keyspace));
  }
  auto updated = std::make_shared<KeyspaceMetadata>(*ks);
  if (options.has_replication) {
    ASSIGN_OR_RETURN(updated->replication, ValidateReplication(options.replication, stmt.keyspace,
                                                               local_datacenter, ks->replication));
  }
  if (HasProperty(stmt.properties, "durable_writes")) {
    updated->durable_writes = options.durable_writes;
  }
  if (updated->replication == ks->replication && updated->durable_writes == ks->durable_writes) {
    return DdlResult{};
  }
  return Changed(current.WithKeyspace(std::move(updated)), ChangeType::kUpdated,
                 ChangeTarget::kKeyspace, stmt.keyspace, "");
}

common::Result<DdlResult> AlterType(const Catalog& current, const cql::AlterType& stmt,
                                    std::string_view session_keyspace) {
  ASSIGN_OR_RETURN(std::string ks_name, KeyspaceOf(stmt.type, session_keyspace));
  const std::string& type_name = stmt.type.name;
  const KeyspaceMetadata* ks = current.FindKeyspace(ks_name);
  const CqlType* type = ks == nullptr ? nullptr : ks->FindType(type_name);
  if (type == nullptr) {
    if (stmt.if_exists) return DdlResult{};
    return Status::Invalid(fmt::format("Type {}.{} doesn't exist", ks_name, type_name));
  }
  bool changed = false;
  CqlType updated_type;
  switch (stmt.kind) {
    case cql::AlterType::Kind::kAlterFieldType:
      return Status::Invalid("Altering field types is no longer supported");
    case cql::AlterType::Kind::kAddField: {
      ASSIGN_OR_RETURN(updated_type, AddField(stmt, *ks, *type, &changed));
      break;
    }
    case cql::AlterType::Kind::kRenameFields: {
      ASSIGN_OR_RETURN(updated_type, RenameFields(stmt, *ks, *type, &changed));
      break;
    }
  }
  if (!changed) return DdlResult{};
  std::shared_ptr<KeyspaceMetadata> updated = WithUpdatedType(*ks, updated_type);
  // A new field deepens every type and column that holds this type, however indirectly.
  RETURN_IF_ERROR(CheckTypeDepths(*updated));
  return Changed(current.WithKeyspace(std::move(updated)), ChangeType::kUpdated,
                 ChangeTarget::kType, ks_name, type_name);
}

}  // namespace schema::internal
