// The read-only virtual tables of keyspaces `system`, `system_schema` and
// `system_virtual_schema`: their definitions (as Cassandra 4.1 declares them) and their rows,
// generated on demand from one catalogue snapshot and the local node's description. This is
// what drivers read on connect (specs/driver_connect_requirements.md, docs/compatibility.md);
// the engine's SELECT path serves these tables from `SystemTableRows` instead of storage.
//
// Served: system.local, system.peers and system.peers_v2 (always empty: one node),
// system."IndexInfo" (the built secondary indexes: all of the catalogue's),
// system_auth.{roles, role_members, role_permissions, resource_role_permissons_index,
// network_permissions} (from the role and permission tables the engine passes in; the last is
// always empty, as with Cassandra's AllowAllNetworkAuthorizer),
// system_traces.{sessions, events} (from the engine's in-memory trace store, engine/tracing.h),
// system_schema.{keyspaces, tables, columns, dropped_columns, types, functions, aggregates,
// triggers, indexes, views} (functions, aggregates, triggers empty), and
// system_virtual_schema.{keyspaces, tables, columns}, which describe the virtual keyspaces
// (itself and system_views, whose rows system_views.h generates). system_schema lists the keyspaces
// `system` and `system_schema` and the tables defined here besides the user keyspaces, as Cassandra
// does.
//
// Thread-safety: everything here is immutable or a pure function; safe from any thread.

#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "common/uuid.h"
#include "schema/catalog.h"

namespace schema {

inline constexpr std::string_view kSystemKeyspace = "system";
inline constexpr std::string_view kSystemSchemaKeyspace = "system_schema";
inline constexpr std::string_view kSystemVirtualSchemaKeyspace = "system_virtual_schema";
inline constexpr std::string_view kSystemAuthKeyspace = "system_auth";
inline constexpr std::string_view kSystemTracesKeyspace = "system_traces";

// What system.local says about this node.
struct LocalNodeInfo {
  common::Uuid host_id;
  std::string cluster_name = "Test Cluster";
  std::string data_center = "datacenter1";
  std::string rack = "rack1";
  // IPv4 or IPv6 text; listen_address also serves as broadcast_address.
  std::string listen_address = "127.0.0.1";
  int32_t listen_port = 7000;
  std::string rpc_address = "127.0.0.1";
  int32_t native_port = 9042;
  std::string release_version = "4.1.3";
  std::string cql_version = "3.4.6";
  std::string native_protocol_version = "5";
  // Decimal token strings (system.local.tokens).
  std::vector<std::string> tokens;
  std::string partitioner = "org.apache.cassandra.dht.Murmur3Partitioner";
  // Seconds since the epoch when the node started (gossip_generation).
  int32_t gossip_generation = 0;
};

// Every virtual table's metadata, in keyspace then table name order. Table ids are
// Cassandra's name-based ids for system tables (UUID v3 of keyspace name ‖ table name), so
// they are stable. Column order and types follow Cassandra 4.1 exactly.
const std::vector<std::shared_ptr<const TableMetadata>>& SystemTables();

// The table `ks.table` of the list above, or nullptr.
const TableMetadata* FindSystemTable(std::string_view keyspace, std::string_view table);

// The keyspaces holding the tables above (`system`, `system_auth`, `system_schema`,
// `system_traces`, `system_views`, `system_virtual_schema`), for DESCRIBE and the schema tables.
const std::vector<std::shared_ptr<const KeyspaceMetadata>>& SystemKeyspaceMetadata();

// Whether `keyspace` is a reserved system keyspace name: the ones above and also
// system_distributed (which this server does not serve but whose name users may not take);
// DESCRIBE SCHEMA leaves them out.
bool IsSystemKeyspace(std::string_view keyspace);

// Whether `keyspace` is virtual (its tables are not in system_schema): system_virtual_schema
// and system_views.
bool IsVirtualKeyspace(std::string_view keyspace);

// What the system_auth tables show, as plain data (the engine copies it from auth/'s role and
// permission tables, which this layer does not see).
struct AuthTablesData {
  struct Role {
    std::string name;
    bool is_superuser = false;
    bool can_login = false;
    std::optional<std::string> salted_hash;
    std::set<std::string> member_of;  // roles granted directly to this one
  };
  std::vector<Role> roles;
  // role -> resource ("data/ks/t", "roles/r", ...) -> permission names ("SELECT", ...).
  std::map<std::string, std::map<std::string, std::set<std::string>>> permissions;
};

// What the system_traces tables show, as plain data (the engine keeps the traces: tracing.h).
// Addresses are IPv4 or IPv6 text.
struct TraceTablesData {
  struct Session {
    common::Uuid session_id;
    std::string command;  // "QUERY"
    std::string client;
    std::string coordinator;
    int32_t coordinator_port = 0;
    std::optional<int32_t> duration;  // microseconds; null while the request runs
    std::map<std::string, std::string> parameters;
    std::string request;            // "Execute CQL3 query", ...
    int64_t started_at_millis = 0;  // Unix milliseconds
  };
  struct Event {
    common::Uuid session_id;
    common::Uuid event_id;  // a timeuuid: when the event happened
    std::string activity;
    std::string source;
    int32_t source_port = 0;
    int32_t source_elapsed = 0;  // microseconds since the session started
    std::string thread;
  };
  std::vector<Session> sessions;
  std::vector<Event> events;
};

// One row: a value per column of the table's `columns`, in that order, each in
// native-protocol serialization; std::nullopt is null.
using SystemRow = std::vector<std::optional<common::Bytes>>;

// All rows of system table `table` (from `SystemTables()`) for the catalogue `catalog` and
// this node, in the order a full scan of a real table returns them: partitions by Murmur3
// token (by key order for the LocalPartitioner virtual keyspaces), rows by clustering order.
// The system_auth tables are empty when `auth` is null, the system_traces ones when `traces` is.
// Fails with Invalid when `table` is not a system table (the system_views ones included: their
// rows come from `SystemViewsRows`), or when `node`'s addresses do not parse.
common::Result<std::vector<SystemRow>> SystemTableRows(const TableMetadata& table,
                                                       const Catalog& catalog,
                                                       const LocalNodeInfo& node,
                                                       const AuthTablesData* auth = nullptr,
                                                       const TraceTablesData* traces = nullptr);

// UUID.nameUUIDFromBytes(bytes): the MD5-based version-3 UUID Cassandra gives system tables.
common::Uuid NameBasedUuid(std::string_view bytes);

}  // namespace schema
