#include "schema/describe.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <utility>

#include "schema/system_table_params.h"

namespace schema {
namespace {

using cql::QuoteIdentifierIfNeeded;

constexpr std::string_view kIndent = "    ";

std::string SingleQuoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  out += '\'';
  return out;
}

std::string MapCql(const std::map<std::string, std::string>& map) {
  std::string out = "{";
  bool first = true;
  for (const auto& [key, value] : map) {
    if (!first) out += ", ";
    first = false;
    out += SingleQuoted(key) + ": " + SingleQuoted(value);
  }
  return out + "}";
}

std::string QualifiedName(std::string_view keyspace, std::string_view name) {
  return QuoteIdentifierIfNeeded(keyspace) + "." + QuoteIdentifierIfNeeded(name);
}

// Columns in Cassandra's create order: partition key, clustering, then static and regular
// columns, each group with simple columns before non-frozen collections/UDTs, by name.
std::vector<const ColumnMetadata*> CreateOrder(const TableMetadata& table) {
  std::vector<const ColumnMetadata*> keys;
  std::vector<const ColumnMetadata*> others;
  for (const ColumnMetadata& column : table.columns) {
    const bool is_key =
        column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering;
    (is_key ? keys : others).push_back(&column);
  }
  std::stable_sort(keys.begin(), keys.end(), [](const auto* a, const auto* b) {
    if (a->kind != b->kind) return a->kind == ColumnKind::kPartitionKey;
    return a->position < b->position;
  });
  std::stable_sort(others.begin(), others.end(), [](const auto* a, const auto* b) {
    const bool a_static = a->kind == ColumnKind::kStatic;
    const bool b_static = b->kind == ColumnKind::kStatic;
    if (a_static != b_static) return a_static;
    if (a->type.IsMultiCell() != b->type.IsMultiCell()) return !a->type.IsMultiCell();
    return a->name < b->name;
  });
  keys.insert(keys.end(), others.begin(), others.end());
  return keys;
}

std::string ColumnCql(std::string_view name, const cql::CqlType& type, bool is_static) {
  return fmt::format("{} {}{}", QuoteIdentifierIfNeeded(name), type.ToCql(),
                     is_static ? " static" : "");
}

std::string PrimaryKeyCql(const TableMetadata& table) {
  std::vector<std::string> pk;
  std::vector<std::string> ck;
  for (const ColumnMetadata* column : CreateOrder(table)) {
    if (column->kind == ColumnKind::kPartitionKey)
      pk.push_back(QuoteIdentifierIfNeeded(column->name));
    if (column->kind == ColumnKind::kClustering)
      ck.push_back(QuoteIdentifierIfNeeded(column->name));
  }
  std::string out = "PRIMARY KEY (";
  out += pk.size() > 1 ? "(" + fmt::format("{}", fmt::join(pk, ", ")) + ")" : pk.front();
  if (!ck.empty()) out += ", " + fmt::format("{}", fmt::join(ck, ", "));
  return out + ")";
}

// The `WITH ...;` part after `) ` (or after the view's key line), option lines indented.
std::string TableOptionsCql(const TableMetadata& table, bool with_internals, bool is_virtual) {
  std::vector<std::string> lines;
  if (with_internals) lines.push_back("ID = " + table.id.ToString());
  std::vector<std::string> order;
  for (const ColumnMetadata* column : CreateOrder(table)) {
    if (column->kind != ColumnKind::kClustering) continue;
    order.push_back(QuoteIdentifierIfNeeded(column->name) +
                    (column->order == ClusteringOrder::kDesc ? " DESC" : " ASC"));
  }
  if (!order.empty()) {
    lines.push_back(fmt::format("CLUSTERING ORDER BY ({})", fmt::join(order, ", ")));
  }
  if (is_virtual) {
    lines.push_back("comment = " + SingleQuoted(table.options.comment));
  } else {
    const EffectiveTableParams p = EffectiveParams(table.options);
    lines.push_back("additional_write_policy = " + SingleQuoted(p.additional_write_policy));
    lines.push_back("bloom_filter_fp_chance = " + JavaDoubleToString(p.bloom_filter_fp_chance));
    lines.push_back("caching = " + MapCql(p.caching));
    lines.push_back(fmt::format("cdc = {}", p.cdc));
    lines.push_back("comment = " + SingleQuoted(p.comment));
    lines.push_back("compaction = " + MapCql(p.compaction));
    lines.push_back("compression = " + MapCql(p.compression));
    lines.push_back("memtable = " + SingleQuoted(p.memtable));
    lines.push_back("crc_check_chance = " + JavaDoubleToString(p.crc_check_chance));
    if (!table.view.has_value()) {
      lines.push_back(fmt::format("default_time_to_live = {}", p.default_time_to_live));
    }
    std::string extensions = "{";
    bool first = true;
    for (const auto& [key, value] : p.extensions) {
      if (!first) extensions += ", ";
      first = false;
      extensions += SingleQuoted(key) + ": 0x" + common::ToHex(value);
    }
    lines.push_back("extensions = " + extensions + "}");
    lines.push_back(fmt::format("gc_grace_seconds = {}", p.gc_grace_seconds));
    lines.push_back(fmt::format("max_index_interval = {}", p.max_index_interval));
    lines.push_back(fmt::format("memtable_flush_period_in_ms = {}", p.memtable_flush_period_in_ms));
    lines.push_back(fmt::format("min_index_interval = {}", p.min_index_interval));
    lines.push_back("read_repair = " + SingleQuoted(p.read_repair));
    lines.push_back("speculative_retry = " + SingleQuoted(p.speculative_retry));
  }
  std::string out = "WITH " + lines.front();
  for (size_t i = 1; i < lines.size(); ++i) out += fmt::format("\n{}AND {}", kIndent, lines[i]);
  return out + ";";
}

std::vector<const KeyspaceMetadata*> AllKeyspaces(const Catalog& catalog) {
  std::vector<const KeyspaceMetadata*> keyspaces;
  for (const auto& keyspace : SystemKeyspaceMetadata()) keyspaces.push_back(keyspace.get());
  for (const auto& entry : catalog.keyspaces()) {
    // Not a structured binding: clang before 16 rejects a lambda that captures one.
    const std::string& name = entry.first;
    if (std::none_of(keyspaces.begin(), keyspaces.end(),
                     [&](const KeyspaceMetadata* k) { return k->name == name; })) {
      keyspaces.push_back(entry.second.get());
    }
  }
  std::sort(keyspaces.begin(), keyspaces.end(),
            [](const auto* a, const auto* b) { return a->name < b->name; });
  return keyspaces;
}

const KeyspaceMetadata* FindKeyspace(const std::vector<const KeyspaceMetadata*>& keyspaces,
                                     std::string_view name) {
  for (const KeyspaceMetadata* keyspace : keyspaces) {
    if (keyspace->name == name) return keyspace;
  }
  return nullptr;
}

DescribeRow Element(std::string_view keyspace, std::string_view type, std::string_view name,
                    std::string create) {
  return DescribeRow{QuoteIdentifierIfNeeded(keyspace), std::string(type),
                     QuoteIdentifierIfNeeded(name), std::move(create)};
}

DescribeRow KeyspaceRow(const KeyspaceMetadata& keyspace) {
  return Element(keyspace.name, "keyspace", keyspace.name, DescribeKeyspaceCql(keyspace));
}

DescribeRow TypeRow(const KeyspaceMetadata& keyspace, const cql::CqlType& type) {
  return Element(keyspace.name, "type", type.name(), DescribeTypeCql(type));
}

DescribeRow IndexRow(const TableMetadata& table, const IndexMetadata& index) {
  return Element(table.keyspace, "index", index.name, DescribeIndexCql(table, index));
}

DescribeRow TableOrViewRow(const TableMetadata& table, bool with_internals) {
  if (table.view.has_value()) {
    return Element(table.keyspace, "materialized_view", table.name,
                   DescribeViewCql(table, with_internals));
  }
  return Element(table.keyspace, "table", table.name, DescribeTableCql(table, with_internals));
}

void AppendIndexes(const TableMetadata& table, std::vector<DescribeRow>* rows) {
  for (const auto& [name, index] : table.indexes) rows->push_back(IndexRow(table, index));
}

void AppendKeyspaceElements(const KeyspaceMetadata& keyspace, bool only, bool with_internals,
                            std::vector<DescribeRow>* rows) {
  rows->push_back(KeyspaceRow(keyspace));
  if (only) return;
  for (const auto& [name, type] : keyspace.types) rows->push_back(TypeRow(keyspace, type));
  for (const auto& [name, table] : keyspace.tables) {
    rows->push_back(TableOrViewRow(*table, with_internals));
    AppendIndexes(*table, rows);
    std::vector<const TableMetadata*> views = keyspace.ViewsOf(table->id);
    std::sort(views.begin(), views.end(),
              [](const auto* a, const auto* b) { return a->name < b->name; });
    for (const TableMetadata* view : views) rows->push_back(TableOrViewRow(*view, with_internals));
  }
}

DescribeResult Listing() {
  DescribeResult result;
  result.shape = DescribeResult::Shape::kListing;
  return result;
}

common::Status NotFound(std::string_view what) {
  return common::Status::Invalid(std::string(what));
}

}  // namespace

std::string DescribeKeyspaceCql(const KeyspaceMetadata& keyspace) {
  if (IsVirtualKeyspace(keyspace.name)) {
    return fmt::format(
        "/*\nWarning: Keyspace {0} is a virtual keyspace and cannot be recreated with CQL.\n"
        "Structure, for reference:\nVIRTUAL KEYSPACE {0};\n*/",
        QuoteIdentifierIfNeeded(keyspace.name));
  }
  return fmt::format("CREATE KEYSPACE {} WITH replication = {}  AND durable_writes = {};",
                     QuoteIdentifierIfNeeded(keyspace.name), MapCql(keyspace.replication),
                     keyspace.durable_writes);
}

std::string DescribeTableCql(const TableMetadata& table, bool with_internals) {
  const bool is_virtual = IsVirtualKeyspace(table.keyspace);
  const std::string name = QualifiedName(table.keyspace, table.name);
  std::string out;
  if (is_virtual) {
    out = fmt::format(
        "/*\nWarning: Table {} is a virtual table and cannot be recreated with CQL.\n"
        "Structure, for reference:\nVIRTUAL",
        name);
  } else {
    out = "CREATE";
  }
  out += fmt::format(" TABLE {} (\n", name);
  const std::vector<const ColumnMetadata*> columns = CreateOrder(table);
  const bool single_key = table.PartitionKeySize() == 1 && table.ClusteringSize() == 0;
  const bool with_dropped = with_internals && !table.dropped_columns.empty();
  std::vector<std::string> definitions;
  for (const ColumnMetadata* column : columns) {
    if (with_dropped && table.dropped_columns.contains(column->name)) continue;
    std::string definition =
        ColumnCql(column->name, column->type, column->kind == ColumnKind::kStatic);
    if (single_key && column->kind == ColumnKind::kPartitionKey) definition += " PRIMARY KEY";
    definitions.push_back(std::move(definition));
  }
  if (with_dropped) {
    for (const auto& [dropped_name, dropped] : table.dropped_columns) {
      definitions.push_back(
          ColumnCql(dropped_name, dropped.type, dropped.kind == ColumnKind::kStatic));
    }
  }
  if (!single_key) definitions.push_back(PrimaryKeyCql(table));
  for (size_t i = 0; i < definitions.size(); ++i) {
    out += fmt::format("{}{}{}\n", kIndent, definitions[i], i + 1 < definitions.size() ? "," : "");
  }
  out += ") " + TableOptionsCql(table, with_internals, is_virtual);
  if (is_virtual) out += "\n*/";
  if (with_dropped) {
    for (const auto& [dropped_name, dropped] : table.dropped_columns) {
      out += fmt::format("\nALTER TABLE {} DROP {} USING TIMESTAMP {};", name,
                         QuoteIdentifierIfNeeded(dropped_name), dropped.dropped_time_micros);
      if (const ColumnMetadata* column = table.FindColumn(dropped_name)) {
        out +=
            fmt::format("\nALTER TABLE {} ADD {};", name,
                        ColumnCql(column->name, column->type, column->kind == ColumnKind::kStatic));
      }
    }
  }
  return out;
}

std::string DescribeTypeCql(const cql::CqlType& type) {
  std::string out = fmt::format("CREATE TYPE {} (\n", QualifiedName(type.keyspace(), type.name()));
  for (size_t i = 0; i < type.field_names().size() && i < type.params().size(); ++i) {
    if (i > 0) out += ",\n";
    out += fmt::format("{}{} {}", kIndent, QuoteIdentifierIfNeeded(type.field_names()[i]),
                       type.params()[i].ToCql());
  }
  return out + "\n);";
}

std::string DescribeViewCql(const TableMetadata& view, bool with_internals) {
  std::string select = "*";
  if (view.view.has_value() && !view.view->include_all_columns) {
    std::vector<std::string> names;
    for (const ColumnMetadata* column : CreateOrder(view)) {
      names.push_back(QuoteIdentifierIfNeeded(column->name));
    }
    select = fmt::format("{}", fmt::join(names, ", "));
  }
  const std::string base = view.view.has_value() ? view.view->base_table_name : "";
  const std::string where = view.view.has_value() ? view.view->where_clause : "";
  return fmt::format(
      "CREATE MATERIALIZED VIEW {} AS\n{}SELECT {}\n{}FROM {}\n{}WHERE {}\n{}{}\n {}",
      QualifiedName(view.keyspace, view.name), kIndent, select, kIndent,
      QualifiedName(view.keyspace, base), kIndent, where, kIndent, PrimaryKeyCql(view),
      TableOptionsCql(view, with_internals, /*is_virtual=*/false));
}

std::string DescribeIndexCql(const TableMetadata& table, const IndexMetadata& index) {
  std::map<std::string, std::string> options = index.options;
  std::string target;
  if (auto it = options.find("target"); it != options.end()) {
    target = it->second;
    options.erase(it);
  } else {
    const std::string column = QuoteIdentifierIfNeeded(index.column);
    switch (index.target) {
      case IndexMetadata::Target::kKeys:
        target = "keys(" + column + ")";
        break;
      case IndexMetadata::Target::kEntries:
        target = "entries(" + column + ")";
        break;
      case IndexMetadata::Target::kFull:
        target = "full(" + column + ")";
        break;
      case IndexMetadata::Target::kValues:
        target = column;
        break;
    }
  }
  const std::string table_name = QualifiedName(table.keyspace, table.name);
  if (index.kind == "CUSTOM") {
    std::string class_name;
    if (auto it = options.find("class_name"); it != options.end()) {
      class_name = it->second;
      options.erase(it);
    }
    std::string out = fmt::format("CREATE CUSTOM INDEX {} ON {} ({}) USING {}",
                                  QuoteIdentifierIfNeeded(index.name), table_name, target,
                                  SingleQuoted(class_name));
    if (!options.empty()) out += " WITH OPTIONS = " + MapCql(options);
    return out + ";";
  }
  return fmt::format("CREATE INDEX {} ON {} ({});", QuoteIdentifierIfNeeded(index.name), table_name,
                     target);
}

namespace {

// One DESCRIBE statement's answer, step by step: listings, one element, or a generic name.
class Describer {
 public:
  Describer(const Catalog& catalog, const cql::Describe& statement,
            std::string_view session_keyspace)
      : keyspaces_(AllKeyspaces(catalog)),
        statement_(statement),
        session_keyspace_(session_keyspace),
        internals_(statement.with_internals) {}

  DescribeResult Cluster(const LocalNodeInfo& node) const {
    DescribeResult result;
    result.shape = DescribeResult::Shape::kCluster;
    result.cluster = node.cluster_name;
    constexpr std::string_view kDhtPackage = "org.apache.cassandra.dht.";
    result.partitioner = node.partitioner.starts_with(kDhtPackage)
                             ? node.partitioner.substr(kDhtPackage.size())
                             : node.partitioner;
    result.snitch = "SimpleSnitch";
    if (!session_keyspace_.empty() && !IsSystemKeyspace(session_keyspace_)) {
      result.has_range_ownership = true;
      const std::string endpoint = fmt::format("/{}:{}", node.listen_address, node.listen_port);
      for (const std::string& token : node.tokens) result.range_ownership[token] = {endpoint};
    }
    return result;
  }

  // DESCRIBE KEYSPACES / TABLES / TYPES / FUNCTIONS / AGGREGATES.
  common::Result<DescribeResult> List() const {
    using Kind = cql::Describe::Kind;
    DescribeResult result = Listing();
    if (statement_.kind == Kind::kKeyspaces) {
      for (const KeyspaceMetadata* keyspace : keyspaces_) {
        result.rows.push_back(Element(keyspace->name, "keyspace", keyspace->name, ""));
      }
      return result;
    }
    ASSIGN_OR_RETURN(std::vector<const KeyspaceMetadata*> covered, ListingKeyspaces());
    for (const KeyspaceMetadata* keyspace : covered) {
      if (statement_.kind == Kind::kTables) {
        for (const auto& [name, table] : keyspace->tables) {
          result.rows.push_back(Element(keyspace->name, "table", name, ""));
        }
      } else if (statement_.kind == Kind::kTypes) {
        for (const auto& [name, type] : keyspace->types) {
          result.rows.push_back(Element(keyspace->name, "type", name, ""));
        }
      }
    }
    return result;
  }

  DescribeResult Schema() const {
    DescribeResult result;
    for (const KeyspaceMetadata* keyspace : keyspaces_) {
      if (!statement_.full && IsSystemKeyspace(keyspace->name)) continue;
      AppendKeyspaceElements(*keyspace, /*only=*/false, internals_, &result.rows);
    }
    return result;
  }

  // DESCRIBE KEYSPACE / TABLE / INDEX / MATERIALIZED VIEW / TYPE / FUNCTION / AGGREGATE x.
  common::Result<DescribeResult> NamedElement() const {
    using Kind = cql::Describe::Kind;
    ASSIGN_OR_RETURN(const KeyspaceMetadata* keyspace, ElementKeyspace());
    const std::string& name = statement_.name.name;
    DescribeResult result;
    switch (statement_.kind) {
      case Kind::kKeyspace:
        AppendKeyspaceElements(*keyspace, statement_.only, internals_, &result.rows);
        return result;
      case Kind::kTable: {
        ASSIGN_OR_RETURN(result.rows, TableRows(*keyspace, name));
        return result;
      }
      case Kind::kIndex: {
        ASSIGN_OR_RETURN(DescribeRow row, IndexRowOf(*keyspace, name));
        result.rows.push_back(std::move(row));
        return result;
      }
      case Kind::kMaterializedView: {
        const TableMetadata* view = keyspace->FindView(name);
        if (view == nullptr) {
          return NotFound(
              fmt::format("Materialized view '{}' not found in '{}'", name, keyspace->name));
        }
        result.rows.push_back(TableOrViewRow(*view, internals_));
        return result;
      }
      case Kind::kType: {
        const cql::CqlType* type = keyspace->FindType(name);
        if (type == nullptr) {
          return NotFound(
              fmt::format("User defined type '{}' not found in '{}'", name, keyspace->name));
        }
        result.rows.push_back(TypeRow(*keyspace, *type));
        return result;
      }
      default:  // kFunction, kAggregate: no user functions exist
        return NotFound(fmt::format("User defined {} '{}' not found in '{}'",
                                    statement_.kind == Kind::kFunction ? "function" : "aggregate",
                                    name, keyspace->name));
    }
  }

  // DESCRIBE x: a keyspace, else a table, index or view of the named or session keyspace.
  common::Result<DescribeResult> Generic() const {
    const std::string& name = statement_.name.name;
    std::string keyspace_name = statement_.name.keyspace;
    DescribeResult result;
    if (keyspace_name.empty()) {
      if (const KeyspaceMetadata* keyspace = FindKeyspace(keyspaces_, name)) {
        AppendKeyspaceElements(*keyspace, /*only=*/false, internals_, &result.rows);
        return result;
      }
      keyspace_name = session_keyspace_.empty() ? name : std::string(session_keyspace_);
    }
    const KeyspaceMetadata* keyspace = FindKeyspace(keyspaces_, keyspace_name);
    if (keyspace == nullptr) {
      return NotFound(fmt::format("'{}' not found in keyspaces", keyspace_name));
    }
    if (keyspace->FindTable(name) != nullptr) {
      ASSIGN_OR_RETURN(result.rows, TableRows(*keyspace, name));
      return result;
    }
    if (keyspace->FindIndexedTable(name) != nullptr) {
      ASSIGN_OR_RETURN(DescribeRow row, IndexRowOf(*keyspace, name));
      result.rows.push_back(std::move(row));
      return result;
    }
    if (const TableMetadata* view = keyspace->FindView(name)) {
      result.rows.push_back(TableOrViewRow(*view, internals_));
      return result;
    }
    return NotFound(fmt::format("'{}' not found in keyspace '{}'", name, keyspace_name));
  }

 private:
  // The keyspace of a named element: the statement's, else the session's.
  common::Result<const KeyspaceMetadata*> ElementKeyspace() const {
    std::string name = statement_.name.keyspace;
    if (name.empty()) {
      if (session_keyspace_.empty()) {
        return common::Status::Invalid("No keyspace specified and no current keyspace");
      }
      name = std::string(session_keyspace_);
    }
    const KeyspaceMetadata* keyspace = FindKeyspace(keyspaces_, name);
    if (keyspace == nullptr) return NotFound(fmt::format("'{}' not found in keyspaces", name));
    return keyspace;
  }

  // The keyspaces a listing covers: the session keyspace, else all.
  common::Result<std::vector<const KeyspaceMetadata*>> ListingKeyspaces() const {
    if (session_keyspace_.empty()) return keyspaces_;
    const KeyspaceMetadata* keyspace = FindKeyspace(keyspaces_, session_keyspace_);
    if (keyspace == nullptr) {
      return NotFound(fmt::format("'{}' not found in keyspaces", session_keyspace_));
    }
    return std::vector<const KeyspaceMetadata*>{keyspace};
  }

  common::Result<std::vector<DescribeRow>> TableRows(const KeyspaceMetadata& keyspace,
                                                     std::string_view name) const {
    const TableMetadata* table = keyspace.FindTableOrView(name);
    if (table == nullptr) {
      return NotFound(fmt::format("Table '{}' not found in keyspace '{}'", name, keyspace.name));
    }
    std::vector<DescribeRow> rows = {TableOrViewRow(*table, internals_)};
    AppendIndexes(*table, &rows);
    return rows;
  }

  common::Result<DescribeRow> IndexRowOf(const KeyspaceMetadata& keyspace,
                                         std::string_view name) const {
    const TableMetadata* table = keyspace.FindIndexedTable(name);
    if (table == nullptr) {
      return NotFound(
          fmt::format("Table for existing index '{}' not found in '{}'", name, keyspace.name));
    }
    auto index = table->indexes.find(name);
    if (index == table->indexes.end()) {
      return NotFound(fmt::format("Index '{}' not found in '{}'", name, keyspace.name));
    }
    return IndexRow(*table, index->second);
  }

  const std::vector<const KeyspaceMetadata*> keyspaces_;
  const cql::Describe& statement_;
  const std::string_view session_keyspace_;
  const bool internals_;
};

}  // namespace

common::Result<DescribeResult> Describe(const Catalog& catalog, const cql::Describe& statement,
                                        std::string_view session_keyspace,
                                        const LocalNodeInfo& node) {
  using Kind = cql::Describe::Kind;
  const Describer describer(catalog, statement, session_keyspace);
  switch (statement.kind) {
    case Kind::kCluster:
      return describer.Cluster(node);
    case Kind::kKeyspaces:
    case Kind::kTables:
    case Kind::kTypes:
    case Kind::kFunctions:
    case Kind::kAggregates:
      return describer.List();
    case Kind::kSchema:
      return describer.Schema();
    case Kind::kKeyspace:
    case Kind::kTable:
    case Kind::kIndex:
    case Kind::kMaterializedView:
    case Kind::kType:
    case Kind::kFunction:
    case Kind::kAggregate:
      return describer.NamedElement();
    case Kind::kGeneric:
      return describer.Generic();
  }
  return common::Status::Invalid("Unsupported DESCRIBE statement");
}

}  // namespace schema
