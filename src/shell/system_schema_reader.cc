#include "shell/system_schema_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cql/parser/parser.h"
#include "cql/types/value_codec.h"
#include "schema/describe.h"
#include "schema/system_table_params.h"
#include "schema/type_resolver.h"

namespace shell {
namespace {

using common::Result;
using common::Status;

using KeyspacesByName = std::map<std::string, schema::KeyspaceMetadata>;
// Tables or views, and their columns, by (keyspace, name).
using TableKey = std::pair<std::string, std::string>;
using TablesByKey = std::map<TableKey, schema::TableMetadata>;
using ColumnsByTable = std::map<TableKey, std::vector<schema::ColumnMetadata>>;

// One row of a system_schema query, cells by column name.
class Row {
 public:
  Row(const cql::ResultSet& result, size_t row) : result_(result), row_(row) {}

  std::optional<std::string_view> Cell(std::string_view name) const {
    int column = result_.ColumnIndex(name);
    if (column < 0) return std::nullopt;
    return result_.Value(row_, static_cast<size_t>(column));
  }
  std::string Text(std::string_view name) const {
    std::optional<std::string_view> cell = Cell(name);
    return cell ? std::string(*cell) : std::string();
  }
  std::optional<int64_t> Integer(std::string_view name) const {
    int column = result_.ColumnIndex(name);
    if (column < 0 || result_.IsNull(row_, static_cast<size_t>(column))) return std::nullopt;
    Result<int64_t> value = result_.GetInteger(row_, static_cast<size_t>(column));
    return value.ok() ? std::optional<int64_t>(*value) : std::nullopt;
  }
  std::optional<double> Double(std::string_view name) const {
    int column = result_.ColumnIndex(name);
    if (column < 0 || result_.IsNull(row_, static_cast<size_t>(column))) return std::nullopt;
    Result<double> value = result_.GetDouble(row_, static_cast<size_t>(column));
    return value.ok() ? std::optional<double>(*value) : std::nullopt;
  }
  std::optional<bool> Boolean(std::string_view name) const {
    int column = result_.ColumnIndex(name);
    if (column < 0 || result_.IsNull(row_, static_cast<size_t>(column))) return std::nullopt;
    Result<bool> value = result_.GetBoolean(row_, static_cast<size_t>(column));
    return value.ok() ? std::optional<bool>(*value) : std::nullopt;
  }
  // A list<text> or set<text> cell.
  std::vector<std::string> TextList(std::string_view name) const {
    std::vector<std::string> out;
    std::optional<std::string_view> cell = Cell(name);
    if (!cell) return out;
    Result<std::vector<std::string_view>> items =
        cql::SplitListOrSet(cql::CqlType::List(cql::CqlType::Text()), *cell);
    if (items.ok()) out.assign(items->begin(), items->end());
    return out;
  }
  // A map<text, text> cell.
  std::map<std::string, std::string> TextMap(std::string_view name) const {
    std::map<std::string, std::string> out;
    std::optional<std::string_view> cell = Cell(name);
    if (!cell) return out;
    Result<std::vector<cql::MapEntryView>> entries = cql::SplitMap(*cell);
    if (!entries.ok()) return out;
    for (const cql::MapEntryView& entry : *entries) {
      out[std::string(entry.key)] = std::string(entry.value);
    }
    return out;
  }
  std::optional<common::Uuid> Uuid(std::string_view name) const {
    std::optional<std::string_view> cell = Cell(name);
    if (!cell) return std::nullopt;
    Result<common::Uuid> uuid = common::Uuid::FromBytes(*cell);
    return uuid.ok() ? std::optional<common::Uuid>(*uuid) : std::nullopt;
  }

 private:
  const cql::ResultSet& result_;
  size_t row_;
};

Result<cql::ResultSet> Query(cql::Session& session, std::string_view query) {
  cql::QueryOptions options;
  return session.Execute(query, options);
}

bool IsSystemKeyspace(std::string_view name) { return name.rfind("system", 0) == 0; }

cql::Property MapProperty(std::string name, const std::map<std::string, std::string>& map) {
  cql::Property property;
  property.name = std::move(name);
  property.value.kind = cql::PropertyValue::Kind::kMap;
  for (const auto& [key, value] : map) {
    property.value.entries.push_back({cql::Constant{cql::ConstantKind::kString, key},
                                      cql::Constant{cql::ConstantKind::kString, value}});
  }
  return property;
}

cql::Property ConstantProperty(std::string name, cql::ConstantKind kind, std::string text) {
  cql::Property property;
  property.name = std::move(name);
  property.value.constant = cql::Constant{kind, std::move(text)};
  return property;
}

// The options of a table or view row, as `WITH` properties.
schema::TableOptions OptionsOf(const Row& row) {
  schema::TableOptions options;
  options.comment = row.Text("comment");
  options.default_time_to_live =
      static_cast<int32_t>(row.Integer("default_time_to_live").value_or(0));
  options.gc_grace_seconds = static_cast<int32_t>(row.Integer("gc_grace_seconds").value_or(864000));
  for (std::string_view name :
       {"additional_write_policy", "read_repair", "speculative_retry", "memtable"}) {
    if (row.Cell(name)) {
      options.other.push_back(
          ConstantProperty(std::string(name), cql::ConstantKind::kString, row.Text(name)));
    }
  }
  for (std::string_view name : {"bloom_filter_fp_chance", "crc_check_chance"}) {
    if (std::optional<double> value = row.Double(name)) {
      options.other.push_back(ConstantProperty(std::string(name), cql::ConstantKind::kFloat,
                                               schema::JavaDoubleToString(*value)));
    }
  }
  for (std::string_view name :
       {"max_index_interval", "memtable_flush_period_in_ms", "min_index_interval"}) {
    if (std::optional<int64_t> value = row.Integer(name)) {
      options.other.push_back(
          ConstantProperty(std::string(name), cql::ConstantKind::kInteger, std::to_string(*value)));
    }
  }
  if (std::optional<bool> cdc = row.Boolean("cdc")) {
    options.other.push_back(
        ConstantProperty("cdc", cql::ConstantKind::kBoolean, *cdc ? "true" : "false"));
  }
  for (std::string_view name : {"caching", "compaction", "compression"}) {
    if (row.Cell(name)) options.other.push_back(MapProperty(std::string(name), row.TextMap(name)));
  }
  return options;
}

schema::ColumnKind KindOf(std::string_view kind) {
  if (kind == "partition_key") return schema::ColumnKind::kPartitionKey;
  if (kind == "clustering") return schema::ColumnKind::kClustering;
  if (kind == "static") return schema::ColumnKind::kStatic;
  return schema::ColumnKind::kRegular;
}

// Columns in TableMetadata's order: partition key, clustering (by position), static, regular
// (by name).
void SortColumns(std::vector<schema::ColumnMetadata>* columns) {
  std::stable_sort(columns->begin(), columns->end(),
                   [](const schema::ColumnMetadata& a, const schema::ColumnMetadata& b) {
                     auto rank = [](schema::ColumnKind kind) {
                       switch (kind) {
                         case schema::ColumnKind::kPartitionKey:
                           return 0;
                         case schema::ColumnKind::kClustering:
                           return 1;
                         case schema::ColumnKind::kStatic:
                           return 2;
                         default:
                           return 3;
                       }
                     };
                     if (rank(a.kind) != rank(b.kind)) return rank(a.kind) < rank(b.kind);
                     if (a.kind == schema::ColumnKind::kPartitionKey ||
                         a.kind == schema::ColumnKind::kClustering) {
                       return a.position < b.position;
                     }
                     return a.name < b.name;
                   });
  for (size_t i = 0; i < columns->size(); ++i) (*columns)[i].column_id = static_cast<uint32_t>(i);
}

// Reads the user types of every keyspace into `keyspaces`, resolving types that refer to other
// types after those.
Status ReadTypes(cql::Session& session, KeyspacesByName* keyspaces) {
  ASSIGN_OR_RETURN(cql::ResultSet types,
                   Query(session,
                         "SELECT keyspace_name, type_name, field_names, field_types "
                         "FROM system_schema.types"));
  struct Pending {
    std::string keyspace;
    std::string name;
    std::vector<std::string> field_names;
    std::vector<std::string> field_types;
  };
  std::vector<Pending> pending;
  for (size_t r = 0; r < types.row_count(); ++r) {
    Row row(types, r);
    Pending type{row.Text("keyspace_name"), row.Text("type_name"), row.TextList("field_names"),
                 row.TextList("field_types")};
    if (keyspaces->count(type.keyspace) != 0) pending.push_back(std::move(type));
  }
  while (!pending.empty()) {
    std::vector<Pending> later;
    Status last_error = Status::Ok();
    for (Pending& type : pending) {
      schema::KeyspaceMetadata& keyspace = (*keyspaces)[type.keyspace];
      std::vector<cql::CqlType> fields;
      Status status = Status::Ok();
      for (const std::string& text : type.field_types) {
        Result<cql::CqlType> raw = cql::ParseType(text);
        if (!raw.ok()) {
          status = raw.status();
          break;
        }
        Result<cql::CqlType> resolved = schema::ResolveType(*raw, type.keyspace, keyspace);
        if (!resolved.ok()) {
          status = resolved.status();
          break;
        }
        fields.push_back(*resolved);
      }
      if (!status.ok()) {
        last_error = status;
        later.push_back(std::move(type));
        continue;
      }
      keyspace.types[type.name] =
          cql::CqlType::Udt(type.keyspace, type.name, type.field_names, std::move(fields));
    }
    if (later.size() == pending.size()) return last_error;  // no progress: a bad type
    pending = std::move(later);
  }
  return Status::Ok();
}

// The user keyspaces (names not starting with "system"), without types, tables or views.
Result<KeyspacesByName> ReadKeyspaces(cql::Session& session) {
  KeyspacesByName keyspaces;
  ASSIGN_OR_RETURN(cql::ResultSet keyspace_rows,
                   Query(session,
                         "SELECT keyspace_name, durable_writes, replication "
                         "FROM system_schema.keyspaces"));
  for (size_t r = 0; r < keyspace_rows.row_count(); ++r) {
    Row row(keyspace_rows, r);
    std::string name = row.Text("keyspace_name");
    if (IsSystemKeyspace(name)) continue;
    schema::KeyspaceMetadata& keyspace = keyspaces[name];
    keyspace.name = name;
    keyspace.durable_writes = row.Boolean("durable_writes").value_or(true);
    keyspace.replication = row.TextMap("replication");
  }
  return keyspaces;
}

// A row of system_schema.columns, its type resolved against the types of `keyspace`.
Result<schema::ColumnMetadata> ColumnOf(const Row& row, const std::string& keyspace_name,
                                        const schema::KeyspaceMetadata& keyspace) {
  schema::ColumnMetadata column;
  column.name = row.Text("column_name");
  column.kind = KindOf(row.Text("kind"));
  int64_t position = row.Integer("position").value_or(0);
  column.position = position < 0 ? 0 : static_cast<int>(position);
  column.order = row.Text("clustering_order") == "desc" ? schema::ClusteringOrder::kDesc
                                                        : schema::ClusteringOrder::kAsc;
  ASSIGN_OR_RETURN(cql::CqlType raw, cql::ParseType(row.Text("type")));
  ASSIGN_OR_RETURN(column.type, schema::ResolveType(raw, keyspace_name, keyspace));
  return column;
}

// The columns of every table and view of `keyspaces` (whose types are read), in the order
// system_schema.columns lists them.
Result<ColumnsByTable> ReadColumns(cql::Session& session, const KeyspacesByName& keyspaces) {
  ColumnsByTable columns;
  ASSIGN_OR_RETURN(cql::ResultSet column_rows,
                   Query(session,
                         "SELECT keyspace_name, table_name, column_name, "
                         "clustering_order, kind, position, type "
                         "FROM system_schema.columns"));
  for (size_t r = 0; r < column_rows.row_count(); ++r) {
    Row row(column_rows, r);
    std::string keyspace_name = row.Text("keyspace_name");
    auto keyspace = keyspaces.find(keyspace_name);
    if (keyspace == keyspaces.end()) continue;
    ASSIGN_OR_RETURN(schema::ColumnMetadata column, ColumnOf(row, keyspace_name, keyspace->second));
    columns[{keyspace_name, row.Text("table_name")}].push_back(std::move(column));
  }
  return columns;
}

// The columns of the table or view `name` of `keyspace`, sorted by SortColumns (none when
// system_schema.columns lists none).
std::vector<schema::ColumnMetadata> SortedColumns(const ColumnsByTable& columns,
                                                  const std::string& keyspace,
                                                  const std::string& name) {
  std::vector<schema::ColumnMetadata> sorted;
  if (auto found = columns.find({keyspace, name}); found != columns.end()) sorted = found->second;
  SortColumns(&sorted);
  return sorted;
}

// A row of system_schema.tables, with its columns from `columns`.
schema::TableMetadata TableOf(const Row& row, const ColumnsByTable& columns) {
  schema::TableMetadata table;
  table.keyspace = row.Text("keyspace_name");
  table.name = row.Text("table_name");
  table.id = row.Uuid("id").value_or(common::Uuid());
  table.options = OptionsOf(row);
  table.columns = SortedColumns(columns, table.keyspace, table.name);
  table.next_column_id = static_cast<uint32_t>(table.columns.size());
  table.is_counter =
      std::any_of(table.columns.begin(), table.columns.end(),
                  [](const schema::ColumnMetadata& c) { return c.type.IsCounter(); });
  return table;
}

// The tables of `keyspaces`, without their indexes.
Result<TablesByKey> ReadTables(cql::Session& session, const KeyspacesByName& keyspaces,
                               const ColumnsByTable& columns) {
  TablesByKey tables;
  ASSIGN_OR_RETURN(cql::ResultSet table_rows, Query(session, "SELECT * FROM system_schema.tables"));
  for (size_t r = 0; r < table_rows.row_count(); ++r) {
    Row row(table_rows, r);
    if (keyspaces.count(row.Text("keyspace_name")) == 0) continue;
    schema::TableMetadata table = TableOf(row, columns);
    tables[{table.keyspace, table.name}] = std::move(table);
  }
  return tables;
}

// A row of system_schema.indexes. Its `target` option names the column, quoted when needed,
// wrapped in keys(), entries(), full() or values() for a collection index.
schema::IndexMetadata IndexOf(const Row& row) {
  schema::IndexMetadata index;
  index.name = row.Text("index_name");
  index.kind = row.Text("kind");
  index.options = row.TextMap("options");
  std::string target = index.options["target"];
  index.column = target;
  for (auto [prefix, kind] : {std::pair{"keys(", schema::IndexMetadata::Target::kKeys},
                              {"entries(", schema::IndexMetadata::Target::kEntries},
                              {"full(", schema::IndexMetadata::Target::kFull},
                              {"values(", schema::IndexMetadata::Target::kValues}}) {
    std::string_view p(prefix);
    if (target.rfind(p, 0) == 0 && target.back() == ')') {
      index.target = kind;
      index.column = target.substr(p.size(), target.size() - p.size() - 1);
    }
  }
  if (index.column.size() >= 2 && index.column.front() == '"') {
    index.column = index.column.substr(1, index.column.size() - 2);
  }
  return index;
}

// Adds the indexes of `tables` to them.
Status ReadIndexes(cql::Session& session, TablesByKey* tables) {
  ASSIGN_OR_RETURN(cql::ResultSet index_rows,
                   Query(session,
                         "SELECT keyspace_name, table_name, index_name, kind, options "
                         "FROM system_schema.indexes"));
  for (size_t r = 0; r < index_rows.row_count(); ++r) {
    Row row(index_rows, r);
    auto table = tables->find({row.Text("keyspace_name"), row.Text("table_name")});
    if (table == tables->end()) continue;
    schema::IndexMetadata index = IndexOf(row);
    table->second.indexes[index.name] = std::move(index);
  }
  return Status::Ok();
}

// A row of system_schema.views, with its columns from `columns`.
schema::TableMetadata ViewOf(const Row& row, const ColumnsByTable& columns) {
  schema::TableMetadata view;
  view.keyspace = row.Text("keyspace_name");
  view.name = row.Text("view_name");
  view.id = row.Uuid("id").value_or(common::Uuid());
  view.options = OptionsOf(row);
  view.columns = SortedColumns(columns, view.keyspace, view.name);
  view.next_column_id = static_cast<uint32_t>(view.columns.size());
  schema::ViewInfo info;
  info.base_table_name = row.Text("base_table_name");
  info.base_table_id = row.Uuid("base_table_id").value_or(common::Uuid());
  info.include_all_columns = row.Boolean("include_all_columns").value_or(false);
  info.where_clause = row.Text("where_clause");
  view.view = std::move(info);
  return view;
}

// The materialized views of `keyspaces`.
Result<TablesByKey> ReadViews(cql::Session& session, const KeyspacesByName& keyspaces,
                              const ColumnsByTable& columns) {
  TablesByKey views;
  ASSIGN_OR_RETURN(cql::ResultSet view_rows, Query(session, "SELECT * FROM system_schema.views"));
  for (size_t r = 0; r < view_rows.row_count(); ++r) {
    Row row(view_rows, r);
    if (keyspaces.count(row.Text("keyspace_name")) == 0) continue;
    schema::TableMetadata view = ViewOf(row, columns);
    views[{view.keyspace, view.name}] = std::move(view);
  }
  return views;
}

// The catalog of `keyspaces`, each with its tables and views.
std::shared_ptr<const schema::Catalog> BuildCatalog(KeyspacesByName keyspaces,
                                                    const TablesByKey& tables,
                                                    const TablesByKey& views) {
  std::shared_ptr<const schema::Catalog> catalog = schema::Catalog::Empty();
  for (auto& entry : keyspaces) {
    const std::string& name = entry.first;
    schema::KeyspaceMetadata& keyspace = entry.second;
    for (const auto& [key, table] : tables) {
      if (key.first == name) {
        keyspace.tables[key.second] = std::make_shared<const schema::TableMetadata>(table);
      }
    }
    for (const auto& [key, view] : views) {
      if (key.first == name) {
        keyspace.views[key.second] = std::make_shared<const schema::TableMetadata>(view);
      }
    }
    catalog = catalog->WithKeyspace(std::make_shared<const schema::KeyspaceMetadata>(keyspace));
  }
  return catalog;
}

}  // namespace

Result<std::shared_ptr<const schema::Catalog>> ReadSystemSchema(cql::Session& session) {
  ASSIGN_OR_RETURN(KeyspacesByName keyspaces, ReadKeyspaces(session));
  RETURN_IF_ERROR(ReadTypes(session, &keyspaces));
  ASSIGN_OR_RETURN(ColumnsByTable columns, ReadColumns(session, keyspaces));
  ASSIGN_OR_RETURN(TablesByKey tables, ReadTables(session, keyspaces, columns));
  RETURN_IF_ERROR(ReadIndexes(session, &tables));
  ASSIGN_OR_RETURN(TablesByKey views, ReadViews(session, keyspaces, columns));
  return BuildCatalog(std::move(keyspaces), tables, views);
}

Result<cql::ResultSet> DescribeFromSystemSchema(cql::Session& session, std::string_view statement,
                                                std::string_view keyspace) {
  ASSIGN_OR_RETURN(cql::Statement parsed, cql::ParseStatement(statement));
  const auto* describe = std::get_if<cql::Describe>(&parsed);
  if (describe == nullptr) return Status::SyntaxError("not a DESCRIBE statement");
  ASSIGN_OR_RETURN(std::shared_ptr<const schema::Catalog> catalog, ReadSystemSchema(session));
  schema::LocalNodeInfo node;
  Result<cql::ResultSet> local =
      Query(session, "SELECT cluster_name, partitioner FROM system.local");
  if (local.ok() && local->row_count() == 1) {
    Row row(*local, 0);
    if (row.Cell("cluster_name")) node.cluster_name = row.Text("cluster_name");
  }
  ASSIGN_OR_RETURN(schema::DescribeResult described,
                   schema::Describe(*catalog, *describe, keyspace, node));
  cql::CqlType text = cql::CqlType::Text();
  if (described.shape == schema::DescribeResult::Shape::kCluster) {
    cql::ResultSet result = cql::ResultSet::Rows(
        {{"", "", "cluster", text}, {"", "", "partitioner", text}, {"", "", "snitch", text}});
    result.AddRow({described.cluster, described.partitioner, described.snitch});
    return result;
  }
  std::vector<cql::ColumnSpec> columns = {
      {"", "", "keyspace_name", text}, {"", "", "type", text}, {"", "", "name", text}};
  bool elements = described.shape == schema::DescribeResult::Shape::kElements;
  if (elements) columns.push_back({"", "", "create_statement", text});
  cql::ResultSet result = cql::ResultSet::Rows(columns);
  for (const schema::DescribeRow& row : described.rows) {
    std::vector<std::optional<common::Bytes>> cells = {row.keyspace_name, row.type, row.name};
    if (elements) cells.emplace_back(row.create_statement);
    result.AddRow(std::move(cells));
  }
  return result;
}

}  // namespace shell
