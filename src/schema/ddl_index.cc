// CREATE [CUSTOM] INDEX and DROP INDEX, with Cassandra 4.1's rules and messages. An index lives
// in its table's `indexes` (catalog.h); both statements announce UPDATED TABLE for that table.
// Declared in ddl_internal.h; dispatched from ApplyDdl (ddl.cc).

#include <fmt/format.h>

#include <cctype>
#include <utility>

#include "schema/ddl_internal.h"
#include "schema/type_resolver.h"

namespace schema::internal {
namespace {

using common::Status;
using Target = IndexMetadata::Target;

// How Cassandra spells target kinds in messages ("values", "keys", "entries", "full").
std::string_view TargetName(Target target) {
  switch (target) {
    case Target::kValues:
      return "values";
    case Target::kKeys:
      return "keys";
    case Target::kEntries:
      return "entries";
    case Target::kFull:
      return "full";
  }
  return "values";
}

// The "target" option as Cassandra stores it: `col` for simple indexes, else `kind(col)`.
std::string TargetOption(Target target, bool simple, std::string_view column) {
  std::string quoted = cql::QuoteIdentifierIfNeeded(column);
  if (simple) return quoted;
  return fmt::format("{}({})", TargetName(target), quoted);
}

// `<table>_<column>_idx` without non-word characters, suffixed `_1`, `_2`... when taken.
std::string DefaultIndexName(const KeyspaceMetadata& ks, std::string_view table,
                             std::string_view column) {
  std::string base;
  for (char c : fmt::format("{}_{}_idx", table, column)) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') base += c;
  }
  if (ks.FindIndexedTable(base) == nullptr) return base;
  for (int i = 1;; ++i) {
    std::string name = fmt::format("{}_{}", base, i);
    if (ks.FindIndexedTable(name) == nullptr) return name;
  }
}

Status ValidateTarget(const TableMetadata& table, const ColumnMetadata& column, Target target) {
  const cql::CqlType& type = column.type;
  const std::string& name = column.name;
  if (ReferencesDuration(type)) {
    if (type.IsCollection()) {
      return Status::Invalid(
          "Secondary indexes are not supported on collections containing durations");
    }
    if (type.kind() == cql::TypeKind::kTuple) {
      return Status::Invalid("Secondary indexes are not supported on tuples containing durations");
    }
    if (type.kind() == cql::TypeKind::kUdt) {
      return Status::Invalid("Secondary indexes are not supported on UDTs containing durations");
    }
    return Status::Invalid("Secondary indexes are not supported on duration columns");
  }
  if (column.kind == ColumnKind::kPartitionKey && table.PartitionKeySize() == 1) {
    return Status::Invalid(
        fmt::format("Cannot create secondary index on the only partition key column {}", name));
  }
  const bool frozen_collection = type.IsCollection() && type.frozen();
  if (frozen_collection && target != Target::kFull) {
    return Status::Invalid(fmt::format(
        "Cannot create {}() index on frozen column {}. Frozen collections are immutable and must "
        "be fully indexed by using the 'full({})' modifier",
        TargetName(target), name, name));
  }
  if (!frozen_collection && target == Target::kFull) {
    return Status::Invalid("full() indexes can only be created on frozen collections");
  }
  return Status::Ok();
}

// The `WITH options = {...}` map of CREATE INDEX, checked against the index kind.
common::Result<std::map<std::string, std::string>> CustomOptions(const cql::CreateIndex& stmt) {
  std::map<std::string, std::string> custom_options;
  for (const cql::Property& property : stmt.properties) {
    if (property.name != "options") {
      return Status::SyntaxError(fmt::format("Unknown property '{}'", property.name));
    }
    if (property.value.kind != cql::PropertyValue::Kind::kMap) {
      return Status::SyntaxError(
          fmt::format("Invalid value for property '{}'. It should be a map.", property.name));
    }
    for (const auto& [key, value] : property.value.entries) custom_options[key.text] = value.text;
  }
  if (stmt.custom && !stmt.using_class) {
    // Cassandra's message has this spelling.
    return Status::Invalid("CUSTOM index requires specifiying the index class");
  }
  if (!stmt.custom && stmt.using_class) {
    return Status::Invalid("Cannot specify index class for a non-CUSTOM index");
  }
  if (!stmt.custom && !stmt.properties.empty()) {
    return Status::Invalid("Cannot specify options for a non-CUSTOM index");
  }
  if (custom_options.contains("class_name")) {
    return Status::Invalid("Cannot specify class_name as a CUSTOM option");
  }
  if (custom_options.contains("target")) {
    return Status::Invalid("Cannot specify target as a CUSTOM option");
  }
  return custom_options;
}

// The one target column of the index on `table`. Errors: no target, several, unknown column.
common::Result<const ColumnMetadata*> TargetColumn(const cql::CreateIndex& stmt,
                                                   const TableMetadata& table) {
  if (stmt.targets.empty()) {
    if (!stmt.custom) {
      return Status::Invalid(
          "Only CUSTOM indexes can be created without specifying a target column");
    }
    return Status::Invalid("CUSTOM indexes without a target column are not supported");
  }
  if (stmt.targets.size() > 1) {
    if (!stmt.custom) return Status::Invalid("Only CUSTOM indexes support multiple columns");
    return Status::Invalid("CUSTOM indexes on multiple columns are not supported");
  }
  const cql::IndexTarget& raw = stmt.targets[0];
  const ColumnMetadata* column = table.FindColumn(raw.column);
  if (column == nullptr) {
    return Status::Invalid(fmt::format("Undefined column name {} in table {}",
                                       cql::QuoteIdentifierIfNeeded(raw.column),
                                       QualifiedToString(table.keyspace, table.name)));
  }
  return column;
}

Target TargetOf(cql::IndexTarget::Kind kind) {
  switch (kind) {
    case cql::IndexTarget::Kind::kKeys:
      return Target::kKeys;
    case cql::IndexTarget::Kind::kEntries:
      return Target::kEntries;
    case cql::IndexTarget::Kind::kFull:
      return Target::kFull;
    case cql::IndexTarget::Kind::kSimple:
    case cql::IndexTarget::Kind::kValues:
      break;
  }
  return Target::kValues;
}

// Whether `target` of `column` can be indexed (its type and the target kind agree).
Status CheckTargetType(const TableMetadata& table, const ColumnMetadata& column, Target target,
                       bool simple) {
  RETURN_IF_ERROR(ValidateTarget(table, column, target));
  const cql::CqlType& type = column.type;
  if (!type.IsCollection() && !simple) {
    return Status::Invalid(fmt::format(
        "Cannot create {}() index on {}. Non-collection columns only support simple indexes",
        TargetName(target), column.name));
  }
  if ((target == Target::kKeys || target == Target::kEntries) &&
      !(type.kind() == cql::TypeKind::kMap && type.IsMultiCell())) {
    return Status::Invalid(fmt::format("Cannot create index on {} of column {} with non-map type",
                                       TargetName(target), column.name));
  }
  if (type.kind() == cql::TypeKind::kUdt && type.IsMultiCell()) {
    return Status::Invalid(
        fmt::format("Cannot create index on non-frozen UDT column {}", column.name));
  }
  return Status::Ok();
}

// The table (not a view or counter table) the index goes on; nullptr with an Ok status when
// IF NOT EXISTS finds the index name taken.
common::Result<const TableMetadata*> IndexedTable(const KeyspaceMetadata& ks,
                                                  const cql::CreateIndex& stmt) {
  const std::string& table_name = stmt.table.name;
  const TableMetadata* table = ks.FindTableOrView(table_name);
  if (table == nullptr) return Status::Invalid(fmt::format("Table '{}' doesn't exist", table_name));
  if (!stmt.name.empty() && ks.FindIndexedTable(stmt.name) != nullptr) {
    if (stmt.if_not_exists) return nullptr;
    return Status::Invalid(fmt::format("Index '{}' already exists", stmt.name));
  }
  if (table->is_counter) {
    return Status::Invalid("Secondary indexes on counter tables aren't supported");
  }
  if (table->view) {
    return Status::Invalid("Secondary indexes on materialized views aren't supported");
  }
  return table;
}

}  // namespace

common::Result<DdlResult> CreateIndex(const Catalog& current, const cql::CreateIndex& stmt,
                                      std::string_view session_keyspace) {
  ASSIGN_OR_RETURN(std::string ks_name, KeyspaceOf(stmt.table, session_keyspace));
  ASSIGN_OR_RETURN(auto custom_options, CustomOptions(stmt));
  const KeyspaceMetadata* ks = current.FindKeyspace(ks_name);
  if (ks == nullptr) return Status::Invalid(fmt::format("Keyspace '{}' doesn't exist", ks_name));
  ASSIGN_OR_RETURN(const TableMetadata* table, IndexedTable(*ks, stmt));
  if (table == nullptr) return DdlResult{};
  ASSIGN_OR_RETURN(const ColumnMetadata* column, TargetColumn(stmt, *table));
  // A simple index on a collection indexes its values.
  const cql::IndexTarget::Kind kind = stmt.targets[0].kind;
  const bool simple = kind == cql::IndexTarget::Kind::kSimple && !column->type.IsCollection();
  const Target target = TargetOf(kind);
  RETURN_IF_ERROR(CheckTargetType(*table, *column, target, simple));

  IndexMetadata index;
  index.id = common::Uuid::Random();
  index.name = stmt.name.empty() ? DefaultIndexName(*ks, table->name, column->name) : stmt.name;
  index.column = column->name;
  index.target = target;
  if (stmt.custom) {
    index.kind = "CUSTOM";
    index.options = std::move(custom_options);
    index.options["class_name"] = *stmt.using_class;
  }
  index.options["target"] = TargetOption(target, simple, column->name);
  for (const auto& [name, existing] : table->indexes) {
    if (existing.kind == index.kind && existing.options == index.options) {
      if (stmt.if_not_exists) return DdlResult{};
      return Status::Invalid(
          fmt::format("Index {} is a duplicate of existing index {}", index.name, existing.name));
    }
  }
  auto updated_table = std::make_shared<TableMetadata>(*table);
  std::string index_name = index.name;
  updated_table->indexes.emplace(std::move(index_name), std::move(index));
  auto updated = std::make_shared<KeyspaceMetadata>(*ks);
  const std::string table_name = table->name;
  updated->tables.insert_or_assign(table_name, std::move(updated_table));
  return Changed(current.WithKeyspace(std::move(updated)), ChangeType::kUpdated,
                 ChangeTarget::kTable, ks_name, table_name);
}

common::Result<DdlResult> DropIndex(const Catalog& current, const cql::DropIndex& stmt,
                                    std::string_view session_keyspace) {
  ASSIGN_OR_RETURN(std::string ks_name, KeyspaceOf(stmt.index, session_keyspace));
  const std::string& index_name = stmt.index.name;
  const KeyspaceMetadata* ks = current.FindKeyspace(ks_name);
  const TableMetadata* table = ks == nullptr ? nullptr : ks->FindIndexedTable(index_name);
  if (table == nullptr) {
    if (stmt.if_exists) return DdlResult{};
    // Cassandra's message ends with a stray quote.
    return Status::Invalid(fmt::format("Index '{}.{}' doesn't exist'", ks_name, index_name));
  }
  auto updated_table = std::make_shared<TableMetadata>(*table);
  updated_table->indexes.erase(index_name);
  std::string table_name = table->name;
  auto updated = std::make_shared<KeyspaceMetadata>(*ks);
  updated->tables.insert_or_assign(table_name, std::move(updated_table));
  return Changed(current.WithKeyspace(std::move(updated)), ChangeType::kUpdated,
                 ChangeTarget::kTable, ks_name, table_name);
}

}  // namespace schema::internal
