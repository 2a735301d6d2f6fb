// Row generation for the system virtual tables (`system_tables.h`).

#include "schema/system_tables.h"

#include <fmt/format.h>

#include <functional>
#include <utility>

#include "cql/types/value_codec.h"
#include "schema/system_row_set.h"
#include "schema/system_table_params.h"
#include "schema/system_views.h"

namespace schema {
namespace {

using common::Bytes;
using cql::CqlType;

Bytes Text(std::string_view text) { return Bytes(text); }

Bytes TextList(const std::vector<std::string>& items) {
  std::vector<Bytes> elements(items.begin(), items.end());
  return cql::SerializeCollection(CqlType::List(CqlType::Text(), true), std::move(elements));
}

Bytes TextMap(const std::map<std::string, std::string>& map) {
  std::vector<std::pair<Bytes, Bytes>> entries(map.begin(), map.end());
  return cql::SerializeMap(CqlType::Map(CqlType::Text(), CqlType::Text(), true),
                           std::move(entries));
}

std::string_view KindName(ColumnKind kind) {
  switch (kind) {
    case ColumnKind::kPartitionKey:
      return "partition_key";
    case ColumnKind::kClustering:
      return "clustering";
    case ColumnKind::kStatic:
      return "static";
    case ColumnKind::kRegular:
      break;
  }
  return "regular";
}

// A UDT as Cassandra records a dropped column's type: user types expanded to tuples.
CqlType ExpandUserTypes(const CqlType& type) {
  switch (type.kind()) {
    case cql::TypeKind::kUdt: {
      std::vector<CqlType> fields;
      for (const CqlType& field : type.params()) fields.push_back(ExpandUserTypes(field));
      return CqlType::Tuple(std::move(fields));
    }
    case cql::TypeKind::kTuple: {
      std::vector<CqlType> fields;
      for (const CqlType& field : type.params()) fields.push_back(ExpandUserTypes(field));
      return CqlType::Tuple(std::move(fields));
    }
    case cql::TypeKind::kList:
      return CqlType::List(ExpandUserTypes(type.element()), type.frozen());
    case cql::TypeKind::kSet:
      return CqlType::Set(ExpandUserTypes(type.element()), type.frozen());
    case cql::TypeKind::kMap:
      return CqlType::Map(ExpandUserTypes(type.key()), ExpandUserTypes(type.value()),
                          type.frozen());
    default:
      return type;
  }
}

// Every keyspace system_schema describes: the catalogue's plus `system`, `system_auth` and
// `system_schema`.
std::vector<const KeyspaceMetadata*> SchemaKeyspaces(const Catalog& catalog) {
  std::vector<const KeyspaceMetadata*> keyspaces;
  for (const auto& keyspace : SystemKeyspaceMetadata()) {
    if (!IsVirtualKeyspace(keyspace->name)) keyspaces.push_back(keyspace.get());
  }
  for (const auto& [name, keyspace] : catalog.keyspaces()) {
    if (!IsSystemKeyspace(name)) keyspaces.push_back(keyspace.get());
  }
  return keyspaces;
}

void AddColumnRows(SystemRowSet& rows, const TableMetadata& table) {
  for (const ColumnMetadata& column : table.columns) {
    SystemRow& row = rows.Add();
    rows.Set(row, "keyspace_name", Text(table.keyspace));
    rows.Set(row, "table_name", Text(table.name));
    rows.Set(row, "column_name", Text(column.name));
    const bool is_key =
        column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering;
    std::string_view order = "none";
    if (column.kind == ColumnKind::kClustering) {
      order = column.order == ClusteringOrder::kDesc ? "desc" : "asc";
    }
    rows.Set(row, "clustering_order", Text(order));
    rows.Set(row, "column_name_bytes", Text(column.name));
    rows.Set(row, "kind", Text(KindName(column.kind)));
    rows.Set(row, "position", cql::SerializeInt(is_key ? column.position : -1));
    rows.Set(row, "type", Text(column.type.ToCql()));
  }
}

void AddOptionColumns(SystemRowSet& rows, SystemRow& row, const TableMetadata& table) {
  const EffectiveTableParams params = EffectiveParams(table.options);
  rows.Set(row, "additional_write_policy", Text(params.additional_write_policy));
  rows.Set(row, "bloom_filter_fp_chance", cql::SerializeDouble(params.bloom_filter_fp_chance));
  rows.Set(row, "caching", TextMap(params.caching));
  rows.Set(row, "cdc", cql::SerializeBoolean(params.cdc));
  rows.Set(row, "comment", Text(params.comment));
  rows.Set(row, "compaction", TextMap(params.compaction));
  rows.Set(row, "compression", TextMap(params.compression));
  rows.Set(row, "memtable", Text(params.memtable));
  rows.Set(row, "crc_check_chance", cql::SerializeDouble(params.crc_check_chance));
  rows.Set(row, "dclocal_read_repair_chance", cql::SerializeDouble(0.0));
  rows.Set(row, "default_time_to_live", cql::SerializeInt(params.default_time_to_live));
  std::vector<std::pair<Bytes, Bytes>> extensions(params.extensions.begin(),
                                                  params.extensions.end());
  rows.Set(row, "extensions",
           cql::SerializeMap(CqlType::Map(CqlType::Text(), CqlType::Blob(), true),
                             std::move(extensions)));
  rows.Set(row, "gc_grace_seconds", cql::SerializeInt(params.gc_grace_seconds));
  rows.Set(row, "id", table.id.ToBytes());
  rows.Set(row, "max_index_interval", cql::SerializeInt(params.max_index_interval));
  rows.Set(row, "memtable_flush_period_in_ms",
           cql::SerializeInt(params.memtable_flush_period_in_ms));
  rows.Set(row, "min_index_interval", cql::SerializeInt(params.min_index_interval));
  rows.Set(row, "read_repair_chance", cql::SerializeDouble(0.0));
  rows.Set(row, "speculative_retry", Text(params.speculative_retry));
  rows.Set(row, "read_repair", Text(params.read_repair));
}

common::Status AddLocalRow(SystemRowSet& rows, const Catalog& catalog, const LocalNodeInfo& node) {
  ASSIGN_OR_RETURN(Bytes listen, InetBytes(node.listen_address));
  ASSIGN_OR_RETURN(Bytes rpc, InetBytes(node.rpc_address));
  SystemRow& row = rows.Add();
  rows.Set(row, "key", Text("local"));
  rows.Set(row, "bootstrapped", Text("COMPLETED"));
  rows.Set(row, "broadcast_address", listen);
  rows.Set(row, "broadcast_port", cql::SerializeInt(node.listen_port));
  rows.Set(row, "cluster_name", Text(node.cluster_name));
  rows.Set(row, "cql_version", Text(node.cql_version));
  rows.Set(row, "data_center", Text(node.data_center));
  rows.Set(row, "gossip_generation", cql::SerializeInt(node.gossip_generation));
  rows.Set(row, "host_id", node.host_id.ToBytes());
  rows.Set(row, "listen_address", listen);
  rows.Set(row, "listen_port", cql::SerializeInt(node.listen_port));
  rows.Set(row, "native_protocol_version", Text(node.native_protocol_version));
  rows.Set(row, "partitioner", Text(node.partitioner));
  rows.Set(row, "rack", Text(node.rack));
  rows.Set(row, "release_version", Text(node.release_version));
  rows.Set(row, "rpc_address", rpc);
  rows.Set(row, "rpc_port", cql::SerializeInt(node.native_port));
  rows.Set(row, "schema_version", catalog.schema_version().ToBytes());
  if (!node.tokens.empty()) {
    std::vector<Bytes> tokens(node.tokens.begin(), node.tokens.end());
    rows.Set(row, "tokens", cql::SerializeCollection(CqlType::Set(CqlType::Text()), tokens));
  }
  return common::Status::Ok();
}

// system."IndexInfo": one row per built secondary index, keyed by keyspace. CREATE INDEX builds
// the index before it returns, so every index of the catalogue is built.
void AddBuiltIndexRows(SystemRowSet& rows, const Catalog& catalog) {
  for (const auto& [keyspace_name, keyspace] : catalog.keyspaces()) {
    for (const auto& [table_name, table] : keyspace->tables) {
      for (const auto& [index_name, index] : table->indexes) {
        SystemRow& row = rows.Add();
        rows.Set(row, "table_name", Text(keyspace_name));
        rows.Set(row, "index_name", Text(index_name));
      }
    }
  }
}

void AddSchemaRows(SystemRowSet& rows, std::string_view table_name, const Catalog& catalog) {
  for (const KeyspaceMetadata* keyspace : SchemaKeyspaces(catalog)) {
    const Bytes keyspace_name = Text(keyspace->name);
    if (table_name == "keyspaces") {
      SystemRow& row = rows.Add();
      rows.Set(row, "keyspace_name", keyspace_name);
      rows.Set(row, "durable_writes", cql::SerializeBoolean(keyspace->durable_writes));
      rows.Set(row, "replication", TextMap(keyspace->replication));
    } else if (table_name == "tables") {
      for (const auto& [name, table] : keyspace->tables) {
        SystemRow& row = rows.Add();
        rows.Set(row, "keyspace_name", keyspace_name);
        rows.Set(row, "table_name", Text(name));
        AddOptionColumns(rows, row, *table);
        std::vector<Bytes> flags = {Text("compound")};
        if (table->is_counter) flags.push_back(Text("counter"));
        rows.Set(row, "flags",
                 cql::SerializeCollection(CqlType::Set(CqlType::Text(), true), flags));
      }
    } else if (table_name == "views") {
      for (const auto& [name, view] : keyspace->views) {
        SystemRow& row = rows.Add();
        rows.Set(row, "keyspace_name", keyspace_name);
        rows.Set(row, "view_name", Text(name));
        AddOptionColumns(rows, row, *view);
        if (view->view.has_value()) {
          rows.Set(row, "base_table_id", view->view->base_table_id.ToBytes());
          rows.Set(row, "base_table_name", Text(view->view->base_table_name));
          rows.Set(row, "include_all_columns",
                   cql::SerializeBoolean(view->view->include_all_columns));
          rows.Set(row, "where_clause", Text(view->view->where_clause));
        }
      }
    } else if (table_name == "columns") {
      for (const auto& [name, table] : keyspace->tables) AddColumnRows(rows, *table);
      for (const auto& [name, view] : keyspace->views) AddColumnRows(rows, *view);
    } else if (table_name == "dropped_columns") {
      for (const auto& [name, table] : keyspace->tables) {
        for (const auto& [column_name, dropped] : table->dropped_columns) {
          SystemRow& row = rows.Add();
          rows.Set(row, "keyspace_name", keyspace_name);
          rows.Set(row, "table_name", Text(name));
          rows.Set(row, "column_name", Text(column_name));
          rows.Set(row, "dropped_time",
                   cql::SerializeTimestamp(dropped.dropped_time_micros / 1000));
          rows.Set(row, "kind", Text(KindName(dropped.kind)));
          rows.Set(row, "type", Text(ExpandUserTypes(dropped.type).ToCql()));
        }
      }
    } else if (table_name == "types") {
      for (const auto& [name, type] : keyspace->types) {
        SystemRow& row = rows.Add();
        rows.Set(row, "keyspace_name", keyspace_name);
        rows.Set(row, "type_name", Text(name));
        std::vector<std::string> field_types;
        for (const CqlType& field : type.params()) field_types.push_back(field.ToCql());
        rows.Set(row, "field_names", TextList(type.field_names()));
        rows.Set(row, "field_types", TextList(field_types));
      }
    } else if (table_name == "indexes") {
      for (const auto& [name, table] : keyspace->tables) {
        for (const auto& [index_name, index] : table->indexes) {
          SystemRow& row = rows.Add();
          rows.Set(row, "keyspace_name", keyspace_name);
          rows.Set(row, "table_name", Text(name));
          rows.Set(row, "index_name", Text(index_name));
          rows.Set(row, "kind", Text(index.kind));
          rows.Set(row, "options", TextMap(index.options));
        }
      }
    }
    // functions, aggregates, triggers: no user functions or triggers exist.
  }
}

void AddVirtualSchemaRows(SystemRowSet& rows, std::string_view table_name) {
  for (const auto& keyspace : SystemKeyspaceMetadata()) {
    if (!IsVirtualKeyspace(keyspace->name)) continue;
    if (table_name == "keyspaces") {
      rows.Set(rows.Add(), "keyspace_name", Text(keyspace->name));
      continue;
    }
    for (const auto& [name, table] : keyspace->tables) {
      if (table_name == "tables") {
        SystemRow& row = rows.Add();
        rows.Set(row, "keyspace_name", Text(keyspace->name));
        rows.Set(row, "table_name", Text(name));
        rows.Set(row, "comment", Text(table->options.comment));
      } else if (table_name == "columns") {
        AddColumnRows(rows, *table);
      }
    }
  }
}

Bytes TextSet(const std::set<std::string>& items) {
  std::vector<Bytes> elements(items.begin(), items.end());  // a std::set: sorted, distinct
  return cql::SerializeCollection(CqlType::Set(CqlType::Text()), std::move(elements));
}

void AddRoleRows(SystemRowSet& rows, std::string_view table_name, const AuthTablesData& auth) {
  for (const AuthTablesData::Role& role : auth.roles) {
    if (table_name == "roles") {
      SystemRow& row = rows.Add();
      rows.Set(row, "role", Text(role.name));
      rows.Set(row, "can_login", cql::SerializeBoolean(role.can_login));
      rows.Set(row, "is_superuser", cql::SerializeBoolean(role.is_superuser));
      if (!role.member_of.empty()) rows.Set(row, "member_of", TextSet(role.member_of));
      if (role.salted_hash) rows.Set(row, "salted_hash", Text(*role.salted_hash));
    } else if (table_name == "role_members") {
      // Partition: the granted role; clustering: the role it was granted to.
      for (const std::string& granted : role.member_of) {
        SystemRow& row = rows.Add();
        rows.Set(row, "role", Text(granted));
        rows.Set(row, "member", Text(role.name));
      }
    }
  }
}

void AddPermissionRows(SystemRowSet& rows, std::string_view table_name,
                       const AuthTablesData& auth) {
  for (const auto& [role, resources] : auth.permissions) {
    for (const auto& [resource, permissions] : resources) {
      if (permissions.empty()) continue;
      SystemRow& row = rows.Add();
      if (table_name == "role_permissions") {
        rows.Set(row, "role", Text(role));
        rows.Set(row, "resource", Text(resource));
        rows.Set(row, "permissions", TextSet(permissions));
      } else {  // resource_role_permissons_index
        rows.Set(row, "resource", Text(resource));
        rows.Set(row, "role", Text(role));
      }
    }
  }
}

void AddAuthRows(SystemRowSet& rows, std::string_view table_name, const AuthTablesData& auth) {
  if (table_name == "roles" || table_name == "role_members") {
    AddRoleRows(rows, table_name, auth);
  } else if (table_name == "role_permissions" || table_name == "resource_role_permissons_index") {
    AddPermissionRows(rows, table_name, auth);
  }
  // network_permissions: empty, as with AllowAllNetworkAuthorizer.
}

Bytes TextMapOf(const std::map<std::string, std::string>& map) {
  std::vector<std::pair<Bytes, Bytes>> entries(map.begin(), map.end());
  return cql::SerializeMap(CqlType::Map(CqlType::Text(), CqlType::Text()), std::move(entries));
}

common::Status AddTraceRows(SystemRowSet& rows, std::string_view table_name,
                            const TraceTablesData& traces) {
  if (table_name == "sessions") {
    for (const TraceTablesData::Session& session : traces.sessions) {
      SystemRow& row = rows.Add();
      rows.Set(row, "session_id", session.session_id.ToBytes());
      ASSIGN_OR_RETURN(Bytes client, InetBytes(session.client));
      rows.Set(row, "client", std::move(client));
      rows.Set(row, "command", Text(session.command));
      ASSIGN_OR_RETURN(Bytes coordinator, InetBytes(session.coordinator));
      rows.Set(row, "coordinator", std::move(coordinator));
      rows.Set(row, "coordinator_port", cql::SerializeInt(session.coordinator_port));
      if (session.duration) rows.Set(row, "duration", cql::SerializeInt(*session.duration));
      if (!session.parameters.empty()) rows.Set(row, "parameters", TextMapOf(session.parameters));
      rows.Set(row, "request", Text(session.request));
      rows.Set(row, "started_at", cql::SerializeBigint(session.started_at_millis));
    }
    return common::Status::Ok();
  }
  for (const TraceTablesData::Event& event : traces.events) {
    SystemRow& row = rows.Add();
    rows.Set(row, "session_id", event.session_id.ToBytes());
    rows.Set(row, "event_id", event.event_id.ToBytes());
    rows.Set(row, "activity", Text(event.activity));
    ASSIGN_OR_RETURN(Bytes source, InetBytes(event.source));
    rows.Set(row, "source", std::move(source));
    rows.Set(row, "source_elapsed", cql::SerializeInt(event.source_elapsed));
    rows.Set(row, "source_port", cql::SerializeInt(event.source_port));
    rows.Set(row, "thread", Text(event.thread));
  }
  return common::Status::Ok();
}

}  // namespace

common::Result<std::vector<SystemRow>> SystemTableRows(const TableMetadata& table,
                                                       const Catalog& catalog,
                                                       const LocalNodeInfo& node,
                                                       const AuthTablesData* auth,
                                                       const TraceTablesData* traces) {
  if (FindSystemTable(table.keyspace, table.name) == nullptr ||
      table.keyspace == kSystemViewsKeyspace) {
    return common::Status::Invalid(
        fmt::format("{}.{} is not a system table", table.keyspace, table.name));
  }
  SystemRowSet rows(table);
  if (table.keyspace == kSystemKeyspace) {
    if (table.name == "local") RETURN_IF_ERROR(AddLocalRow(rows, catalog, node));
    if (table.name == "IndexInfo") AddBuiltIndexRows(rows, catalog);
    return std::move(rows).Sorted(/*by_token=*/true);
  }
  if (table.keyspace == kSystemSchemaKeyspace) {
    AddSchemaRows(rows, table.name, catalog);
    return std::move(rows).Sorted(/*by_token=*/true);
  }
  if (table.keyspace == kSystemAuthKeyspace) {
    if (auth != nullptr) AddAuthRows(rows, table.name, *auth);
    return std::move(rows).Sorted(/*by_token=*/true);
  }
  if (table.keyspace == kSystemTracesKeyspace) {
    if (traces != nullptr) RETURN_IF_ERROR(AddTraceRows(rows, table.name, *traces));
    return std::move(rows).Sorted(/*by_token=*/true);
  }
  AddVirtualSchemaRows(rows, table.name);
  return std::move(rows).Sorted(/*by_token=*/false);
}

}  // namespace schema
