// ALTER TABLE: ADD / DROP / RENAME columns and WITH options, with Cassandra 4.1's rules and
// messages (refused on views; DROP refused for indexed columns and base tables of views; ADD
// extends the views that select `*`). Declared in ddl_internal.h; dispatched from ApplyDdl
// (ddl.cc).

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

std::string TableToString(const TableMetadata& table) {
  return fmt::format("{}.{}", cql::QuoteIdentifierIfNeeded(table.keyspace),
                     cql::QuoteIdentifierIfNeeded(table.name));
}

std::string_view KindName(ColumnKind kind) {
  switch (kind) {
    case ColumnKind::kPartitionKey:
      return "PARTITION_KEY";
    case ColumnKind::kClustering:
      return "CLUSTERING";
    case ColumnKind::kStatic:
      return "STATIC";
    case ColumnKind::kRegular:
      return "REGULAR";
  }
  return "REGULAR";
}

bool IsPrimaryKey(const ColumnMetadata& column) {
  return column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering;
}

// Restores the column order documented in catalog.h after an addition.
void SortColumns(TableMetadata* table) {
  auto rank = [](const ColumnMetadata& column) {
    switch (column.kind) {
      case ColumnKind::kPartitionKey:
        return 0;
      case ColumnKind::kClustering:
        return 1;
      case ColumnKind::kStatic:
        return 2;
      case ColumnKind::kRegular:
        return 3;
    }
    return 3;
  };
  std::stable_sort(table->columns.begin(), table->columns.end(),
                   [&](const ColumnMetadata& a, const ColumnMetadata& b) {
                     if (rank(a) != rank(b)) return rank(a) < rank(b);
                     if (IsPrimaryKey(a)) return a.position < b.position;
                     return a.name < b.name;
                   });
}

Status AddColumn(const cql::ColumnDefinition& definition, bool if_not_exists,
                 const KeyspaceMetadata& ks, TableMetadata* table, bool* changed) {
  ASSIGN_OR_RETURN(cql::CqlType type, ResolveType(definition.type, ks.name, ks));
  const std::string& name = definition.name;
  if (table->FindColumn(name) != nullptr) {
    if (if_not_exists) return Status::Ok();
    return Status::Invalid(fmt::format("Column with name '{}' already exists", name));
  }
  if (definition.is_static && table->ClusteringSize() == 0) {
    return Status::Invalid(
        "Static columns are only useful (and thus allowed) if the table has at least one "
        "clustering column");
  }
  if (type.kind() == cql::TypeKind::kUdt && type.IsMultiCell()) {
    for (const cql::CqlType& field : type.params()) {
      if (field.IsMultiCell()) {
        return Status::Invalid(fmt::format(
            "Non-frozen UDTs with nested non-frozen collections are not supported for column {}",
            name));
      }
    }
  }
  const ColumnKind kind = definition.is_static ? ColumnKind::kStatic : ColumnKind::kRegular;
  auto dropped = table->dropped_columns.find(name);
  if (dropped != table->dropped_columns.end()) {
    if (dropped->second.type != type) {
      return Status::Invalid(fmt::format(
          "Cannot re-add previously dropped column '{}' of type {}, incompatible with previous "
          "type {}",
          name, type.ToCql(), dropped->second.type.ToCql()));
    }
    if (dropped->second.kind != kind) {
      return Status::Invalid(fmt::format(
          "Cannot re-add previously dropped column '{}' of kind {}, incompatible with previous "
          "kind {}",
          name, KindName(kind), KindName(dropped->second.kind)));
    }
    if (table->is_counter) {
      return Status::Invalid(
          fmt::format("Cannot re-add previously dropped counter column {}", name));
    }
  }
  if (table->is_counter && !type.IsCounter()) {
    return Status::ConfigError(
        fmt::format("Cannot add a non counter column ({}) in a counter table", name));
  }
  if (!table->is_counter && type.IsCounter()) {
    return Status::ConfigError(
        fmt::format("Cannot add a counter column ({}) in a non counter table", name));
  }
  table->columns.push_back(
      ColumnMetadata{name, type, kind, 0, ClusteringOrder::kAsc, table->next_column_id++});
  SortColumns(table);
  *changed = true;
  return Status::Ok();
}

Status DropColumn(const std::string& name, bool if_exists, int64_t drop_micros,
                  const KeyspaceMetadata& ks, TableMetadata* table, bool* changed) {
  const ColumnMetadata* column = table->FindColumn(name);
  if (column == nullptr) {
    if (if_exists) return Status::Ok();
    return Status::Invalid(
        fmt::format("Column {} was not found in table '{}'", name, TableToString(*table)));
  }
  if (IsPrimaryKey(*column)) {
    return Status::Invalid(fmt::format("Cannot drop PRIMARY KEY column {}", name));
  }
  if (column->type.kind() == cql::TypeKind::kUdt && column->type.IsMultiCell()) {
    return Status::Invalid(fmt::format("Cannot drop non-frozen column {} of user type {}", name,
                                       column->type.ToCql()));
  }
  std::vector<std::string> dependent_indexes;
  for (const auto& [index_name, index] : table->indexes) {
    if (index.column == name) dependent_indexes.push_back(index_name);
  }
  if (!dependent_indexes.empty()) {
    return Status::Invalid(
        fmt::format("Cannot drop column {} because it has dependent secondary indexes ({})", name,
                    fmt::join(dependent_indexes, ", ")));
  }
  if (!ks.ViewsOf(table->id).empty()) {
    return Status::Invalid(fmt::format(
        "Cannot drop column {} on base table {} with materialized views", name, table->name));
  }
  table->dropped_columns.insert_or_assign(
      name, DroppedColumn{name, column->type, column->kind, drop_micros});
  std::erase_if(table->columns, [&](const ColumnMetadata& c) { return c.name == name; });
  *changed = true;
  return Status::Ok();
}

Status RenameColumn(const std::string& from, const std::string& to, bool if_exists,
                    TableMetadata* table, bool* changed) {
  ColumnMetadata* column = nullptr;
  for (ColumnMetadata& candidate : table->columns) {
    if (candidate.name == from) column = &candidate;
  }
  if (column == nullptr) {
    if (if_exists) return Status::Ok();
    return Status::Invalid(
        fmt::format("Column {} was not found in table {}", from, TableToString(*table)));
  }
  if (!IsPrimaryKey(*column)) {
    return Status::Invalid(fmt::format("Cannot rename non PRIMARY KEY column {}", from));
  }
  std::vector<std::string> dependent_indexes;
  for (const auto& [index_name, index] : table->indexes) {
    if (index.column == from) dependent_indexes.push_back(index_name);
  }
  if (!dependent_indexes.empty()) {
    return Status::Invalid(
        fmt::format("Can't rename column {} because it has dependent secondary indexes ({})", from,
                    fmt::join(dependent_indexes, ", ")));
  }
  if (table->FindColumn(to) != nullptr) {
    return Status::Invalid(fmt::format(
        "Cannot rename column {} to {} in table '{}'; another column with that name already "
        "exists",
        from, to, TableToString(*table)));
  }
  column->name = to;
  *changed = true;
  return Status::Ok();
}

}  // namespace

common::Result<DdlResult> AlterTable(const Catalog& current, const cql::AlterTable& stmt,
                                     std::string_view session_keyspace,
                                     const common::Clock& clock) {
  ASSIGN_OR_RETURN(std::string ks_name, KeyspaceOf(stmt.table, session_keyspace));
  const std::string& table_name = stmt.table.name;
  const KeyspaceMetadata* ks = current.FindKeyspace(ks_name);
  const TableMetadata* table = ks == nullptr ? nullptr : ks->FindTableOrView(table_name);
  if (table == nullptr) {
    if (stmt.if_exists) return DdlResult{};
    return Status::Invalid(fmt::format("Table '{}.{}' doesn't exist", ks_name, table_name));
  }
  if (table->view) {
    return Status::Invalid(
        "Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW instead");
  }
  auto updated = std::make_shared<TableMetadata>(*table);
  bool changed = false;
  switch (stmt.kind) {
    case cql::AlterTable::Kind::kAlterColumnType:
      return Status::Invalid("Altering column types is no longer supported");
    case cql::AlterTable::Kind::kDropCompactStorage:
      return Status::Invalid("DROP COMPACT STORAGE is disabled. Enable in cassandra.yaml to use.");
    case cql::AlterTable::Kind::kAddColumns:
      for (const cql::ColumnDefinition& column : stmt.added_columns) {
        RETURN_IF_ERROR(AddColumn(column, stmt.if_column_not_exists, *ks, updated.get(), &changed));
      }
      break;
    case cql::AlterTable::Kind::kDropColumns: {
      const int64_t drop_micros = stmt.drop_timestamp.value_or(clock.NowMicros());
      for (const std::string& column : stmt.dropped_columns) {
        RETURN_IF_ERROR(
            DropColumn(column, stmt.if_column_exists, drop_micros, *ks, updated.get(), &changed));
      }
      break;
    }
    case cql::AlterTable::Kind::kRenameColumns:
      for (const auto& [from, to] : stmt.renames) {
        RETURN_IF_ERROR(RenameColumn(from, to, stmt.if_column_exists, updated.get(), &changed));
      }
      break;
    case cql::AlterTable::Kind::kWithOptions: {
      ASSIGN_OR_RETURN(ParsedTableOptions options,
                       ParseTableOptions(stmt.properties, table->options));
      if (options.has_id) return Status::ConfigError("Cannot alter table id.");
      if (table->is_counter && options.options.default_time_to_live > 0) {
        return Status::Invalid("Cannot set default_time_to_live on a table with counters");
      }
      changed = !(options.options == table->options);
      updated->options = std::move(options.options);
      break;
    }
  }
  if (!changed) return DdlResult{};
  auto updated_ks = std::make_shared<KeyspaceMetadata>(*ks);
  if (stmt.kind == cql::AlterTable::Kind::kAddColumns) {
    // Views selecting `*` get the new regular columns too.
    for (const TableMetadata* view : ks->ViewsOf(table->id)) {
      if (!view->view->include_all_columns) continue;
      auto updated_view = std::make_shared<TableMetadata>(*view);
      for (const ColumnMetadata& column : updated->columns) {
        if (column.kind != ColumnKind::kRegular || table->FindColumn(column.name) != nullptr ||
            updated_view->FindColumn(column.name) != nullptr) {
          continue;
        }
        updated_view->columns.push_back(
            ColumnMetadata{column.name, column.type, ColumnKind::kRegular, 0, ClusteringOrder::kAsc,
                           updated_view->next_column_id++});
      }
      SortColumns(updated_view.get());
      updated_ks->views.insert_or_assign(view->name, std::move(updated_view));
    }
  }
  if (stmt.kind == cql::AlterTable::Kind::kRenameColumns) {
    // Renamed (primary key) columns are renamed in the views too, WHERE clause included.
    for (const TableMetadata* view : ks->ViewsOf(table->id)) {
      auto updated_view = std::make_shared<TableMetadata>(*view);
      for (const auto& [from, to] : stmt.renames) {
        for (ColumnMetadata& column : updated_view->columns) {
          if (column.name == from) column.name = to;
        }
        for (cql::Relation& relation : updated_view->view->where) {
          std::replace(relation.columns.begin(), relation.columns.end(), from, to);
        }
      }
      updated_view->view->where_clause = WhereClauseText(updated_view->view->where);
      updated_ks->views.insert_or_assign(view->name, std::move(updated_view));
    }
  }
  updated_ks->tables.insert_or_assign(table_name, std::move(updated));
  return Changed(current.WithKeyspace(std::move(updated_ks)), ChangeType::kUpdated,
                 ChangeTarget::kTable, ks_name, table_name);
}

}  // namespace schema::internal
