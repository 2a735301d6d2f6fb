#include "model/schema_model.h"

#include <fmt/format.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <type_traits>
#include <variant>

#include "cql/parser/parser.h"

namespace model {
namespace {

using common::Result;
using common::Status;

// The loader's state while it walks the script: the model so far and the keyspace of `USE`.
class Loader {
 public:
  Status Apply(const cql::Statement& statement) {
    return std::visit(
        [this](const auto& s) -> Status {
          using T = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<T, cql::Use>) {
            current_keyspace_ = s.keyspace;
            return Status::Ok();
          } else if constexpr (std::is_same_v<T, cql::CreateKeyspace>) {
            return AddKeyspace(s);
          } else if constexpr (std::is_same_v<T, cql::CreateType>) {
            return AddType(s);
          } else if constexpr (std::is_same_v<T, cql::CreateTable>) {
            return AddTable(s);
          } else if constexpr (std::is_same_v<T, cql::CreateMaterializedView>) {
            return AddView(s);
          } else if constexpr (std::is_same_v<T, cql::CreateIndex>) {
            return AddIndex(s);
          } else {
            return Status::Ok();  // not a schema definition: skipped
          }
        },
        statement);
  }

  SchemaModel Take() { return std::move(model_); }

 private:
  Result<std::string> KeyspaceOf(const cql::QualifiedName& name) {
    std::string keyspace = name.keyspace.empty() ? current_keyspace_ : name.keyspace;
    if (keyspace.empty()) {
      return Status::Invalid(
          "No keyspace has been specified. USE a keyspace, or explicitly specify "
          "keyspace.tablename");
    }
    EnsureKeyspace(keyspace);
    return keyspace;
  }

  void EnsureKeyspace(const std::string& name) {
    for (const Keyspace& keyspace : model_.keyspaces) {
      if (keyspace.name == name) return;
    }
    model_.keyspaces.push_back(Keyspace{name, 0});
  }

  Status AddKeyspace(const cql::CreateKeyspace& s) {
    for (const Keyspace& keyspace : model_.keyspaces) {
      if (keyspace.name == s.keyspace && !s.if_not_exists) {
        return Status::AlreadyExists(
            fmt::format("Cannot add existing keyspace \"{}\"", s.keyspace));
      }
    }
    Keyspace keyspace{s.keyspace, 0};
    for (const cql::Property& property : s.properties) {
      if (property.name != "replication") continue;
      for (const auto& [key, value] : property.value.entries) {
        if (key.text == "replication_factor")
          keyspace.replication_factor = std::atoi(value.text.c_str());
      }
    }
    EnsureKeyspace(keyspace.name);
    for (Keyspace& existing : model_.keyspaces) {
      if (existing.name == keyspace.name) existing = keyspace;
    }
    return Status::Ok();
  }

  Status AddType(const cql::CreateType& s) {
    ASSIGN_OR_RETURN(std::string keyspace, KeyspaceOf(s.type));
    if (model_.FindType(keyspace, s.type.name) != nullptr) {
      if (s.if_not_exists) return Status::Ok();
      return Status::Invalid(fmt::format("A user type with name '{}' already exists", s.type.name));
    }
    UserType type{keyspace, s.type.name, {}, {}};
    for (const cql::UserTypeField& field : s.fields) {
      type.field_names.push_back(field.name);
      type.field_types.push_back(field.type);
    }
    model_.types.push_back(std::move(type));
    return Status::Ok();
  }

  // Orders `definitions` as the model keeps them: partition key, clustering, static, regular.
  static Result<std::vector<Column>> KeyedColumns(
      const std::vector<cql::ColumnDefinition>& definitions,
      const std::vector<std::string>& partition_key, const std::vector<std::string>& clustering,
      const std::vector<cql::ClusteringOrder>& order, const std::string& table) {
    auto find = [&](const std::string& name) -> const cql::ColumnDefinition* {
      for (const cql::ColumnDefinition& definition : definitions) {
        if (definition.name == name) return &definition;
      }
      return nullptr;
    };
    std::vector<Column> columns;
    auto add_key = [&](const std::string& name, ColumnKind kind) -> Status {
      const cql::ColumnDefinition* definition = find(name);
      if (definition == nullptr) {
        return Status::Invalid(fmt::format(
            "Unknown column '{}' referenced in PRIMARY KEY for table '{}'", name, table));
      }
      Column column{name, definition->type, kind, false};
      for (const cql::ClusteringOrder& entry : order) {
        if (entry.column == name) column.descending = !entry.ascending;
      }
      columns.push_back(std::move(column));
      return Status::Ok();
    };
    for (const std::string& name : partition_key)
      RETURN_IF_ERROR(add_key(name, ColumnKind::kPartitionKey));
    for (const std::string& name : clustering)
      RETURN_IF_ERROR(add_key(name, ColumnKind::kClustering));
    for (ColumnKind kind : {ColumnKind::kStatic, ColumnKind::kRegular}) {
      for (const cql::ColumnDefinition& definition : definitions) {
        bool in_key = false;
        for (const Column& column : columns) in_key = in_key || column.name == definition.name;
        if (in_key || (definition.is_static != (kind == ColumnKind::kStatic))) continue;
        columns.push_back(Column{definition.name, definition.type, kind, false});
      }
    }
    return columns;
  }

  static void ReadOptions(const std::vector<cql::Property>& properties, Table* table) {
    for (const cql::Property& property : properties) {
      if (property.name == "comment") table->comment = property.value.constant.text;
      if (property.name == "default_time_to_live") {
        table->default_ttl = std::atoi(property.value.constant.text.c_str());
      }
    }
  }

  Status CheckNewTable(const std::string& keyspace, const std::string& name, bool if_not_exists,
                       bool* skip) {
    *skip = false;
    if (model_.FindTable(keyspace, name) == nullptr) return Status::Ok();
    if (if_not_exists) {
      *skip = true;
      return Status::Ok();
    }
    return Status::AlreadyExists(
        fmt::format("Cannot add already existing table \"{}\" to keyspace \"{}\"", name, keyspace));
  }

  Status AddTable(const cql::CreateTable& s) {
    ASSIGN_OR_RETURN(std::string keyspace, KeyspaceOf(s.table));
    bool skip = false;
    RETURN_IF_ERROR(CheckNewTable(keyspace, s.table.name, s.if_not_exists, &skip));
    if (skip) return Status::Ok();
    if (s.partition_key.empty()) {
      return Status::Invalid(fmt::format(
          "No PRIMARY KEY specifed for table '{}' (exactly one required)", s.table.name));
    }
    Table table;
    table.keyspace = keyspace;
    table.name = s.table.name;
    return AddKeyed(std::move(table), s.columns, s.partition_key, s.clustering_columns,
                    s.clustering_order, s.properties);
  }

  // Completes `table` with its columns and options and adds it to the model.
  Status AddKeyed(Table table, const std::vector<cql::ColumnDefinition>& definitions,
                  const std::vector<std::string>& partition_key,
                  const std::vector<std::string>& clustering,
                  const std::vector<cql::ClusteringOrder>& order,
                  const std::vector<cql::Property>& properties) {
    ASSIGN_OR_RETURN(table.columns,
                     KeyedColumns(definitions, partition_key, clustering, order, table.name));
    ReadOptions(properties, &table);
    model_.tables.push_back(std::move(table));
    return Status::Ok();
  }

  Status AddView(const cql::CreateMaterializedView& s) {
    ASSIGN_OR_RETURN(std::string keyspace, KeyspaceOf(s.view));
    bool skip = false;
    RETURN_IF_ERROR(CheckNewTable(keyspace, s.view.name, s.if_not_exists, &skip));
    if (skip) return Status::Ok();
    if (s.partition_key.empty()) {
      return Status::Invalid(
          fmt::format("No PRIMARY KEY specifed for view '{}' (exactly one required)", s.view.name));
    }
    std::string base_keyspace = s.base_table.keyspace.empty() ? keyspace : s.base_table.keyspace;
    const Table* base = model_.FindTable(base_keyspace, s.base_table.name);
    if (base == nullptr) {
      return Status::Invalid(fmt::format("Base table '{}' doesn't exist", s.base_table.name));
    }
    std::vector<cql::ColumnDefinition> definitions;
    for (const Column& column : base->columns) {
      bool selected = s.selectors.empty();
      for (const cql::Selector& selector : s.selectors) {
        selected = selected || (selector.expression.kind == cql::Selectable::Kind::kColumn &&
                                selector.expression.name == column.name);
      }
      bool in_key = false;
      for (const std::string& name : s.partition_key) in_key = in_key || name == column.name;
      for (const std::string& name : s.clustering_columns) in_key = in_key || name == column.name;
      if (selected || in_key)
        definitions.push_back(cql::ColumnDefinition{column.name, column.type, false});
    }
    Table view;
    view.keyspace = keyspace;
    view.name = s.view.name;
    view.is_view = true;
    view.base_table = base->name;
    return AddKeyed(std::move(view), definitions, s.partition_key, s.clustering_columns,
                    s.clustering_order, s.properties);
  }

  Status AddIndex(const cql::CreateIndex& s) {
    ASSIGN_OR_RETURN(std::string keyspace, KeyspaceOf(s.table));
    const Table* table = model_.FindTable(keyspace, s.table.name);
    if (table == nullptr) {
      return Status::Invalid(fmt::format("Table '{}' doesn't exist", s.table.name));
    }
    static constexpr const char* kTargets[] = {"", "values", "keys", "entries", "full"};
    for (const cql::IndexTarget& target : s.targets) {
      Index index;
      index.keyspace = keyspace;
      index.table = table->name;
      index.column = target.column;
      index.target = kTargets[static_cast<int>(target.kind)];
      index.custom = s.custom;
      index.name = s.name.empty() ? table->name + "_" + target.column + "_idx" : s.name;
      if (table->Find(target.column) == nullptr) {
        return Status::Invalid(
            fmt::format("Column {} not found in table {}", target.column, table->name));
      }
      model_.indexes.push_back(std::move(index));
    }
    return Status::Ok();
  }

  SchemaModel model_;
  std::string current_keyspace_;
};

}  // namespace

std::vector<const Column*> Table::ColumnsOf(ColumnKind kind) const {
  std::vector<const Column*> result;
  for (const Column& column : columns) {
    if (column.kind == kind) result.push_back(&column);
  }
  return result;
}

const Column* Table::Find(std::string_view name) const {
  for (const Column& column : columns) {
    if (column.name == name) return &column;
  }
  return nullptr;
}

bool Table::HasCounters() const {
  for (const Column& column : columns) {
    if (column.type.IsCounter()) return true;
  }
  return false;
}

const Table* SchemaModel::FindTable(std::string_view keyspace, std::string_view name) const {
  for (const Table& table : tables) {
    if (table.keyspace == keyspace && table.name == name) return &table;
  }
  return nullptr;
}

const UserType* SchemaModel::FindType(std::string_view keyspace, std::string_view name) const {
  for (const UserType& type : types) {
    if (type.keyspace == keyspace && type.name == name) return &type;
  }
  return nullptr;
}

std::vector<const Index*> SchemaModel::IndexesOf(const Table& table) const {
  std::vector<const Index*> result;
  for (const Index& index : indexes) {
    if (index.keyspace == table.keyspace && index.table == table.name) result.push_back(&index);
  }
  return result;
}

std::vector<const Table*> SchemaModel::ViewsOf(const Table& table) const {
  std::vector<const Table*> result;
  for (const Table& view : tables) {
    if (view.is_view && view.keyspace == table.keyspace && view.base_table == table.name) {
      result.push_back(&view);
    }
  }
  return result;
}

Result<SchemaModel> LoadSchema(std::string_view cql_text) {
  ASSIGN_OR_RETURN(std::vector<cql::Statement> statements, cql::ParseScript(cql_text));
  Loader loader;
  for (const cql::Statement& statement : statements) {
    RETURN_IF_ERROR(loader.Apply(statement));
  }
  return loader.Take();
}

Result<SchemaModel> LoadSchemaFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(fmt::format("cannot read {}", path));
  std::ostringstream text;
  text << in.rdbuf();
  return LoadSchema(text.str());
}

Result<std::string> DescribeServerSchema(cql::Session& session, const std::string& keyspace) {
  const std::string query = keyspace.empty()
                                ? std::string("DESCRIBE SCHEMA")
                                : "DESCRIBE KEYSPACE " + cql::QuoteIdentifierIfNeeded(keyspace);
  cql::QueryOptions options;
  std::string text;
  while (true) {
    ASSIGN_OR_RETURN(cql::ResultSet page, session.Execute(query, options));
    size_t column = page.columns().size();
    for (size_t c = 0; c < page.columns().size(); ++c) {
      if (page.columns()[c].name == "create_statement") column = c;
    }
    if (column == page.columns().size()) {
      return Status::Invalid(fmt::format("{} returned no create_statement column", query));
    }
    for (size_t row = 0; row < page.row_count(); ++row) {
      std::optional<std::string_view> statement = page.Value(row, column);
      if (statement.has_value()) text.append(*statement).append("\n\n");
    }
    if (!page.paging_state().has_value()) return text;
    options.paging_state = page.paging_state();
  }
}

}  // namespace model
