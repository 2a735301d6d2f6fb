// CREATE / ALTER / DROP MATERIALIZED VIEW, with Cassandra 4.1's rules and messages (materialized
// views are enabled). A view is a TableMetadata with `view` set, kept in
// KeyspaceMetadata::views; the protocol announces view changes with the TABLE target.
// Declared in ddl_internal.h; dispatched from ApplyDdl (ddl.cc).

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <utility>
#include <variant>
#include <vector>

#include "schema/ddl_internal.h"
#include "schema/ddl_options.h"
#include "schema/type_resolver.h"

namespace schema::internal {
namespace {

using common::Status;

bool IsBaseKey(const ColumnMetadata& column) {
  return column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering;
}

bool HasBindMarker(const cql::Relation& relation) {
  auto is_marker = [](const cql::Term& term) {
    return std::holds_alternative<cql::BindMarker>(term.value);
  };
  if (is_marker(relation.value)) return true;
  if (relation.map_key && is_marker(*relation.map_key)) return true;
  return std::any_of(relation.in_values.begin(), relation.in_values.end(), is_marker);
}

std::string UndefinedColumn(std::string_view column, const TableMetadata& table) {
  return fmt::format("Undefined column name {} in table {}", cql::QuoteIdentifierIfNeeded(column),
                     QualifiedToString(table.keyspace, table.name));
}

// The selected base columns (all of them for `*`), by name.
common::Result<std::set<std::string>> SelectedColumns(const cql::CreateMaterializedView& stmt,
                                                      const TableMetadata& base) {
  std::set<std::string> selected;
  if (stmt.selectors.empty()) {
    for (const ColumnMetadata& column : base.columns) selected.insert(column.name);
  }
  for (const cql::Selector& selector : stmt.selectors) {
    if (!selector.alias.empty()) {
      return Status::Invalid(
          fmt::format("Cannot use aliases when defining a materialized view (got {} AS {})",
                      cql::ToCql(selector.expression), selector.alias));
    }
    if (selector.expression.kind != cql::Selectable::Kind::kColumn) {
      return Status::Invalid(
          fmt::format("Can only select columns by name when defining a materialized view (got {})",
                      cql::ToCql(selector.expression)));
    }
    if (base.FindColumn(selector.expression.name) == nullptr) {
      return Status::Invalid(UndefinedColumn(selector.expression.name, base));
    }
    selected.insert(selector.expression.name);
  }
  return selected;
}

// Checks the view's primary key as Cassandra does; fills `key` with the view key columns.
Status CheckViewPrimaryKey(const cql::CreateMaterializedView& stmt, const TableMetadata& base,
                           const std::set<std::string>& selected, std::vector<std::string>* key) {
  const std::string& view_name = stmt.view.name;
  std::set<std::string> seen;
  *key = stmt.partition_key;
  key->insert(key->end(), stmt.clustering_columns.begin(), stmt.clustering_columns.end());
  for (const std::string& name : *key) {
    const ColumnMetadata* column = base.FindColumn(name);
    if (column == nullptr || !selected.contains(name)) {
      return Status::Invalid(
          fmt::format("Unknown column '{}' referenced in PRIMARY KEY for materialized view '{}'",
                      name, view_name));
    }
    if (!seen.insert(name).second) {
      return Status::Invalid(
          fmt::format("Duplicate column '{}' in PRIMARY KEY clause for materialized view '{}'",
                      name, view_name));
    }
    const cql::CqlType& type = column->type;
    if (type.IsMultiCell()) {
      if (type.IsCollection()) {
        return Status::Invalid(
            fmt::format("Invalid non-frozen collection type '{}' for PRIMARY KEY column '{}'",
                        type.ToCql(), name));
      }
      return Status::Invalid(
          fmt::format("Invalid non-frozen user-defined type '{}' for PRIMARY KEY column '{}'",
                      type.ToCql(), name));
    }
    if (type.IsCounter()) {
      return Status::Invalid(
          fmt::format("counter type is not supported for PRIMARY KEY column '{}'", name));
    }
    if (ReferencesDuration(type)) {
      return Status::Invalid(
          fmt::format("duration type is not supported for PRIMARY KEY column '{}'", name));
    }
  }
  if (!stmt.clustering_order.empty()) {
    bool same = stmt.clustering_order.size() == stmt.clustering_columns.size();
    for (size_t i = 0; same && i < stmt.clustering_order.size(); ++i) {
      same = stmt.clustering_order[i].column == stmt.clustering_columns[i];
    }
    if (!same) {
      return Status::Invalid(
          "Clustering key columns must exactly match columns in CLUSTERING ORDER BY directive");
    }
  }
  std::vector<std::string> missing;
  for (const ColumnMetadata& column : base.columns) {
    if (IsBaseKey(column) && !seen.contains(column.name)) missing.push_back(column.name);
  }
  if (!missing.empty()) {
    return Status::Invalid(fmt::format(
        "Cannot create materialized view '{}' without primary key columns {} from base table "
        "'{}'",
        view_name, fmt::join(missing, ", "), base.name));
  }
  std::vector<std::string> regular;
  for (const std::string& name : *key) {
    if (!IsBaseKey(*base.FindColumn(name))) regular.push_back(name);
  }
  if (regular.size() > 1) {
    return Status::Invalid(fmt::format(
        "Cannot include more than one non-primary key column in materialized view primary key "
        "(got {})",
        fmt::join(regular, ", ")));
  }
  return Status::Ok();
}

Status CheckWhere(const cql::CreateMaterializedView& stmt, const TableMetadata& base,
                  const std::vector<std::string>& key) {
  std::set<std::string> restricted;
  std::vector<std::string> illegal;
  for (const cql::Relation& relation : stmt.where) {
    if (relation.kind == cql::Relation::Kind::kToken) {
      return Status::Invalid("Cannot use token relation when defining a materialized view");
    }
    if (relation.kind == cql::Relation::Kind::kCustomIndex) {
      return Status::Invalid(fmt::format(
          "WHERE clause for materialized view '{}' cannot contain custom index expressions",
          stmt.view.name));
    }
    for (const std::string& name : relation.columns) {
      const ColumnMetadata* column = base.FindColumn(name);
      if (column == nullptr) return Status::Invalid(UndefinedColumn(name, base));
      restricted.insert(name);
      if (!IsBaseKey(*column) && relation.op != cql::Operator::kIsNot) {
        illegal.push_back(cql::QuoteIdentifierIfNeeded(name));
      }
    }
  }
  std::vector<std::string> unrestricted;
  for (const std::string& name : key) {
    if (!restricted.contains(name)) unrestricted.push_back(name);
  }
  if (!unrestricted.empty()) {
    return Status::Invalid(
        fmt::format("Primary key columns {} must be restricted with 'IS NOT NULL' or otherwise",
                    fmt::join(unrestricted, ", ")));
  }
  if (!illegal.empty()) {
    return Status::Invalid(fmt::format(
        "Non-primary key columns can only be restricted with 'IS NOT NULL' (got: {} restricted "
        "illegally)",
        fmt::join(illegal, ",")));
  }
  return Status::Ok();
}

}  // namespace

std::string WhereClauseText(const std::vector<cql::Relation>& where) {
  std::vector<std::string> parts;
  for (const cql::Relation& relation : where) parts.push_back(cql::ToCql(relation));
  return fmt::format("{}", fmt::join(parts, " AND "));
}

common::Result<DdlResult> CreateView(const Catalog& current,
                                     const cql::CreateMaterializedView& stmt,
                                     std::string_view session_keyspace) {
  ASSIGN_OR_RETURN(std::string ks_name, KeyspaceOf(stmt.view, session_keyspace));
  const std::string& view_name = stmt.view.name;
  if (!stmt.base_table.keyspace.empty() && stmt.base_table.keyspace != ks_name) {
    return Status::Invalid("Cannot create a materialized view on a table in a different keyspace");
  }
  if (std::any_of(stmt.where.begin(), stmt.where.end(), HasBindMarker)) {
    return Status::Invalid("Bind variables are not allowed in CREATE MATERIALIZED VIEW statements");
  }
  if (stmt.partition_key.empty()) {
    return Status::Invalid(
        fmt::format("No PRIMARY KEY specifed for view '{}' (exactly one required)",
                    stmt.view.keyspace.empty() ? view_name : stmt.view.keyspace + "." + view_name));
  }
  std::set<std::string> ordered;
  for (const cql::ClusteringOrder& order : stmt.clustering_order) {
    if (!ordered.insert(order.column).second) {
      return Status::Invalid(
          fmt::format("Duplicate column '{}' in CLUSTERING ORDER BY clause for view '{}'",
                      order.column, view_name));
    }
  }
  const KeyspaceMetadata* ks = current.FindKeyspace(ks_name);
  if (ks == nullptr) return Status::Invalid(fmt::format("Keyspace '{}' doesn't exist", ks_name));
  const TableMetadata* base = ks->FindTable(stmt.base_table.name);
  if (base == nullptr) {
    return Status::Invalid(fmt::format("Base table '{}' doesn't exist", stmt.base_table.name));
  }
  if (ks->FindTable(view_name) != nullptr) {
    return Status::Invalid(fmt::format(
        "Cannot create materialized view '{}' - a table with the same name already exists",
        view_name));
  }
  if (ks->FindView(view_name) != nullptr) {
    if (stmt.if_not_exists) return DdlResult{};
    return Status::AlreadyExists(fmt::format(
        "Cannot add already existing table \"{}\" to keyspace \"{}\"", view_name, ks_name));
  }
  if (base->is_counter) {
    return Status::Invalid("Materialized views are not supported on counter tables");
  }
  if (base->options.gc_grace_seconds == 0) {
    return Status::Invalid(fmt::format(
        "Cannot create materialized view '{}' for base table '{}' with gc_grace_seconds of 0, "
        "since this value is used to TTL undelivered updates. Setting gc_grace_seconds too low "
        "might cause undelivered updates to expire before being replayed.",
        view_name, base->name));
  }
  ASSIGN_OR_RETURN(std::set<std::string> selected, SelectedColumns(stmt, *base));
  for (const ColumnMetadata& column : base->columns) {
    if (column.kind == ColumnKind::kStatic && selected.contains(column.name)) {
      return Status::Invalid(fmt::format(
          "Cannot include static column '{}' in materialized view '{}'", column.name, view_name));
    }
  }
  std::vector<std::string> key;
  RETURN_IF_ERROR(CheckViewPrimaryKey(stmt, *base, selected, &key));
  RETURN_IF_ERROR(CheckWhere(stmt, *base, key));
  ASSIGN_OR_RETURN(ParsedTableOptions options, ParseTableOptions(stmt.properties));
  if (HasProperty(stmt.properties, "default_time_to_live")) {
    return Status::Invalid(
        "Cannot set default_time_to_live for a materialized view. Data in a materialized view "
        "always expire at the same time than the corresponding data in the parent table.");
  }
  if (!IsValidSchemaName(view_name)) {
    return Status::ConfigError(
        fmt::format("{}.{}: Table name must not be empty, more than 48 characters long, or "
                    "contain non-alphanumeric-underscore characters (got \"{}\")",
                    ks_name, view_name, view_name));
  }

  auto view = std::make_shared<TableMetadata>();
  view->id = options.has_id ? options.id : common::Uuid::Random();
  view->keyspace = ks_name;
  view->name = view_name;
  view->options = std::move(options.options);
  for (size_t i = 0; i < stmt.partition_key.size(); ++i) {
    const std::string& name = stmt.partition_key[i];
    view->columns.push_back(ColumnMetadata{name, base->FindColumn(name)->type,
                                           ColumnKind::kPartitionKey, static_cast<int>(i),
                                           ClusteringOrder::kAsc, 0});
  }
  for (size_t i = 0; i < stmt.clustering_columns.size(); ++i) {
    const std::string& name = stmt.clustering_columns[i];
    ClusteringOrder order = ClusteringOrder::kAsc;
    if (i < stmt.clustering_order.size() && !stmt.clustering_order[i].ascending) {
      order = ClusteringOrder::kDesc;
    }
    view->columns.push_back(ColumnMetadata{name, base->FindColumn(name)->type,
                                           ColumnKind::kClustering, static_cast<int>(i), order, 0});
  }
  for (const std::string& name : selected) {  // std::set: sorted by name
    if (std::find(key.begin(), key.end(), name) != key.end()) continue;
    view->columns.push_back(ColumnMetadata{name, base->FindColumn(name)->type, ColumnKind::kRegular,
                                           0, ClusteringOrder::kAsc, 0});
  }
  for (size_t i = 0; i < view->columns.size(); ++i) {
    view->columns[i].column_id = static_cast<uint32_t>(i);
  }
  view->next_column_id = static_cast<uint32_t>(view->columns.size());
  ViewInfo info;
  info.base_table_id = base->id;
  info.base_table_name = base->name;
  info.include_all_columns = stmt.selectors.empty();
  info.where_clause = WhereClauseText(stmt.where);
  info.where = stmt.where;
  view->view = std::move(info);

  auto updated = std::make_shared<KeyspaceMetadata>(*ks);
  updated->views.insert_or_assign(view_name, std::move(view));
  return Changed(current.WithKeyspace(std::move(updated)), ChangeType::kCreated,
                 ChangeTarget::kTable, ks_name, view_name);
}

common::Result<DdlResult> AlterView(const Catalog& current, const cql::AlterMaterializedView& stmt,
                                    std::string_view session_keyspace) {
  ASSIGN_OR_RETURN(std::string ks_name, KeyspaceOf(stmt.view, session_keyspace));
  const std::string& view_name = stmt.view.name;
  const KeyspaceMetadata* ks = current.FindKeyspace(ks_name);
  const TableMetadata* view = ks == nullptr ? nullptr : ks->FindView(view_name);
  if (view == nullptr) {
    if (stmt.if_exists) return DdlResult{};
    return Status::Invalid(
        fmt::format("Materialized view '{}.{}' doesn't exist", ks_name, view_name));
  }
  ASSIGN_OR_RETURN(ParsedTableOptions options, ParseTableOptions(stmt.properties, view->options));
  if (options.has_id) return Status::ConfigError("Cannot alter table id.");
  if (options.options.gc_grace_seconds == 0) {
    return Status::Invalid(
        "Cannot alter gc_grace_seconds of a materialized view to 0, since this value is used to "
        "TTL undelivered updates. Setting gc_grace_seconds too low might cause undelivered "
        "updates to expire before being replayed.");
  }
  if (options.options.default_time_to_live > 0) {
    return Status::Invalid(
        "Forbidden default_time_to_live detected for a materialized view. Data in a materialized "
        "view always expire at the same time than the corresponding data in the parent table. "
        "default_time_to_live must be set to zero, see CASSANDRA-12868 for more information");
  }
  if (options.options == view->options) return DdlResult{};
  auto updated_view = std::make_shared<TableMetadata>(*view);
  updated_view->options = std::move(options.options);
  auto updated = std::make_shared<KeyspaceMetadata>(*ks);
  updated->views.insert_or_assign(view_name, std::move(updated_view));
  return Changed(current.WithKeyspace(std::move(updated)), ChangeType::kUpdated,
                 ChangeTarget::kTable, ks_name, view_name);
}

common::Result<DdlResult> DropView(const Catalog& current, const cql::DropMaterializedView& stmt,
                                   std::string_view session_keyspace) {
  ASSIGN_OR_RETURN(std::string ks_name, KeyspaceOf(stmt.view, session_keyspace));
  const std::string& view_name = stmt.view.name;
  const KeyspaceMetadata* ks = current.FindKeyspace(ks_name);
  if (ks == nullptr || ks->FindView(view_name) == nullptr) {
    if (stmt.if_exists) return DdlResult{};
    return Status::Invalid(
        fmt::format("Materialized view '{}.{}' doesn't exist", ks_name, view_name));
  }
  auto updated = std::make_shared<KeyspaceMetadata>(*ks);
  updated->views.erase(view_name);
  return Changed(current.WithKeyspace(std::move(updated)), ChangeType::kDropped,
                 ChangeTarget::kTable, ks_name, view_name);
}

}  // namespace schema::internal
