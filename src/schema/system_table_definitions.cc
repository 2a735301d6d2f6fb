// Definitions of the system virtual tables (`system_tables.h`): columns, keys and types as
// Cassandra 4.1 declares them in SystemKeyspace, SchemaKeyspace and VirtualSchemaKeyspace.

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "schema/system_tables.h"
#include "schema/system_views.h"

namespace schema {
namespace {

// --- MD5 (RFC 1321), only for name-based UUIDs -----------------------------------------

std::array<uint8_t, 16> Md5(std::string_view input) {
  static constexpr std::array<uint32_t, 64> kSines = {
      0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613,
      0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193,
      0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d,
      0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
      0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122,
      0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
      0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244,
      0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
      0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
      0xeb86d391};
  static constexpr std::array<uint32_t, 64> kShifts = {
      7,  12, 17, 22, 7,  12, 17, 22, 7,  12, 17, 22, 7,  12, 17, 22, 5,  9,  14, 20, 5,  9,
      14, 20, 5,  9,  14, 20, 5,  9,  14, 20, 4,  11, 16, 23, 4,  11, 16, 23, 4,  11, 16, 23,
      4,  11, 16, 23, 6,  10, 15, 21, 6,  10, 15, 21, 6,  10, 15, 21, 6,  10, 15, 21};
  std::string message(input);
  const uint64_t bit_length = static_cast<uint64_t>(input.size()) * 8;
  message.push_back(static_cast<char>(0x80));
  while (message.size() % 64 != 56) message.push_back('\0');
  for (int i = 0; i < 8; ++i) message.push_back(static_cast<char>((bit_length >> (8 * i)) & 0xff));
  uint32_t a0 = 0x67452301, b0 = 0xefcdab89, c0 = 0x98badcfe, d0 = 0x10325476;
  for (size_t chunk = 0; chunk < message.size(); chunk += 64) {
    std::array<uint32_t, 16> words{};
    for (size_t i = 0; i < 16; ++i) {
      for (size_t j = 0; j < 4; ++j) {
        words[i] |= static_cast<uint32_t>(static_cast<uint8_t>(message[chunk + i * 4 + j]))
                    << (8 * j);
      }
    }
    uint32_t a = a0, b = b0, c = c0, d = d0;
    for (uint32_t i = 0; i < 64; ++i) {
      uint32_t f = 0;
      uint32_t g = 0;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) % 16;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) % 16;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) % 16;
      }
      f = f + a + kSines[i] + words[g];
      a = d;
      d = c;
      c = b;
      b = b + ((f << kShifts[i]) | (f >> (32 - kShifts[i])));
    }
    a0 += a;
    b0 += b;
    c0 += c;
    d0 += d;
  }
  std::array<uint8_t, 16> digest{};
  const std::array<uint32_t, 4> state = {a0, b0, c0, d0};
  for (size_t i = 0; i < 4; ++i) {
    for (size_t j = 0; j < 4; ++j) digest[i * 4 + j] = static_cast<uint8_t>(state[i] >> (8 * j));
  }
  return digest;
}

// --- Table definitions -------------------------------------------------------------------

using cql::CqlType;

struct Col {
  std::string_view name;
  CqlType type;
};

CqlType FrozenTextMap() { return CqlType::Map(CqlType::Text(), CqlType::Text(), true); }
CqlType FrozenTextList() { return CqlType::List(CqlType::Text(), true); }

// A table whose regular columns are listed in Cassandra's select order (sorted by name, simple
// columns before non-frozen collections).
std::shared_ptr<const TableMetadata> MakeTable(std::string_view keyspace, std::string_view name,
                                               std::string_view comment,
                                               std::vector<Col> partition_key,
                                               std::vector<Col> clustering,
                                               std::vector<Col> regular) {
  auto table = std::make_shared<TableMetadata>();
  table->keyspace = std::string(keyspace);
  table->name = std::string(name);
  table->id = NameBasedUuid(std::string(keyspace) + std::string(name));
  table->options.comment = std::string(comment);
  if (keyspace == kSystemSchemaKeyspace) {
    table->options.gc_grace_seconds = 604800;  // 7 days
    cql::Property flush;
    flush.name = "memtable_flush_period_in_ms";
    flush.value.constant.text = "3600000";
    table->options.other.push_back(flush);
  } else if (keyspace == kSystemKeyspace || keyspace == kSystemTracesKeyspace) {
    table->options.gc_grace_seconds = 0;
  } else if (keyspace == kSystemAuthKeyspace) {
    table->options.gc_grace_seconds = 7776000;  // 90 days
    cql::Property flush;
    flush.name = "memtable_flush_period_in_ms";
    flush.value.constant.text = "3600000";
    table->options.other.push_back(flush);
  }
  uint32_t id = 0;
  auto add = [&](const Col& col, ColumnKind kind, int position) {
    ColumnMetadata column;
    column.name = std::string(col.name);
    column.type = col.type;
    column.kind = kind;
    column.position = position;
    column.column_id = id++;
    table->columns.push_back(std::move(column));
  };
  for (size_t i = 0; i < partition_key.size(); ++i) {
    add(partition_key[i], ColumnKind::kPartitionKey, static_cast<int>(i));
  }
  for (size_t i = 0; i < clustering.size(); ++i) {
    add(clustering[i], ColumnKind::kClustering, static_cast<int>(i));
  }
  std::stable_sort(regular.begin(), regular.end(), [](const Col& a, const Col& b) {
    if (a.type.IsMultiCell() != b.type.IsMultiCell()) return !a.type.IsMultiCell();
    return a.name < b.name;
  });
  for (const Col& col : regular) add(col, ColumnKind::kRegular, 0);
  table->next_column_id = id;
  return table;
}

// The option columns shared by system_schema.tables and system_schema.views (4.1).
std::vector<Col> OptionColumns() {
  return {{"bloom_filter_fp_chance", CqlType::Double()},
          {"caching", FrozenTextMap()},
          {"comment", CqlType::Text()},
          {"compaction", FrozenTextMap()},
          {"compression", FrozenTextMap()},
          {"memtable", CqlType::Text()},
          {"crc_check_chance", CqlType::Double()},
          {"dclocal_read_repair_chance", CqlType::Double()},
          {"default_time_to_live", CqlType::Int()},
          {"extensions", CqlType::Map(CqlType::Text(), CqlType::Blob(), true)},
          {"gc_grace_seconds", CqlType::Int()},
          {"id", CqlType::Uuid()},
          {"max_index_interval", CqlType::Int()},
          {"memtable_flush_period_in_ms", CqlType::Int()},
          {"min_index_interval", CqlType::Int()},
          {"read_repair_chance", CqlType::Double()},
          {"speculative_retry", CqlType::Text()},
          {"additional_write_policy", CqlType::Text()},
          {"cdc", CqlType::Boolean()},
          {"read_repair", CqlType::Text()}};
}

std::vector<Col> ColumnsTableColumns() {
  return {{"clustering_order", CqlType::Text()},
          {"column_name_bytes", CqlType::Blob()},
          {"kind", CqlType::Text()},
          {"position", CqlType::Int()},
          {"type", CqlType::Text()}};
}

// Cassandra 4.1's AuthKeyspace tables (the index table's name is spelled as Cassandra spells it).
void AddAuthTables(std::vector<std::shared_ptr<const TableMetadata>>& tables) {
  const CqlType text = CqlType::Text();
  const CqlType boolean = CqlType::Boolean();
  constexpr std::string_view auth = kSystemAuthKeyspace;
  tables.push_back(MakeTable(auth, "network_permissions", "user network permissions",
                             {{"role", text}}, {}, {{"dcs", CqlType::Set(text, true)}}));
  tables.push_back(MakeTable(auth, "resource_role_permissons_index",
                             "index of db roles with permissions granted on a resource",
                             {{"resource", text}}, {{"role", text}}, {}));
  tables.push_back(MakeTable(auth, "role_members", "role memberships lookup table",
                             {{"role", text}}, {{"member", text}}, {}));
  tables.push_back(MakeTable(auth, "role_permissions", "permissions granted to db roles",
                             {{"role", text}}, {{"resource", text}},
                             {{"permissions", CqlType::Set(text)}}));
  tables.push_back(MakeTable(auth, "roles", "role definitions", {{"role", text}}, {},
                             {{"can_login", boolean},
                              {"is_superuser", boolean},
                              {"member_of", CqlType::Set(text)},
                              {"salted_hash", text}}));
}

// Cassandra 4's TraceKeyspace tables (gc_grace_seconds 0, as it declares them).
void AddTraceTables(std::vector<std::shared_ptr<const TableMetadata>>& tables) {
  const CqlType text = CqlType::Text();
  const CqlType inet = CqlType::Inet();
  const CqlType integer = CqlType::Int();
  constexpr std::string_view traces = kSystemTracesKeyspace;
  tables.push_back(MakeTable(traces, "events", "tracing events", {{"session_id", CqlType::Uuid()}},
                             {{"event_id", CqlType::Timeuuid()}},
                             {{"activity", text},
                              {"source", inet},
                              {"source_elapsed", integer},
                              {"source_port", integer},
                              {"thread", text}}));
  tables.push_back(MakeTable(traces, "sessions", "tracing sessions",
                             {{"session_id", CqlType::Uuid()}}, {},
                             {{"client", inet},
                              {"command", text},
                              {"coordinator", inet},
                              {"coordinator_port", integer},
                              {"duration", integer},
                              {"request", text},
                              {"started_at", CqlType::Timestamp()},
                              {"parameters", CqlType::Map(text, text)}}));
}

// Cassandra 4.1's system_views tables (db/virtual/: SettingsTable, ClientsTable, CachesTable,
// TableMetricTables, SSTableTasksTable, ThreadPoolsTable); the others it has are not served.
void AddViewsTables(std::vector<std::shared_ptr<const TableMetadata>>& tables) {
  const CqlType text = CqlType::Text();
  const CqlType integer = CqlType::Int();
  const CqlType bigint = CqlType::Bigint();
  const CqlType real = CqlType::Double();
  constexpr std::string_view views = kSystemViewsKeyspace;
  tables.push_back(MakeTable(views, "caches", "system caches", {{"name", text}}, {},
                             {{"capacity_bytes", bigint},
                              {"size_bytes", bigint},
                              {"entry_count", integer},
                              {"request_count", bigint},
                              {"hit_count", bigint},
                              {"hit_ratio", real},
                              {"recent_request_rate_per_second", bigint},
                              {"recent_hit_rate_per_second", bigint}}));
  tables.push_back(MakeTable(views, "clients", "currently connected clients",
                             {{"address", CqlType::Inet()}}, {{"port", integer}},
                             {{"hostname", text},
                              {"username", text},
                              {"connection_stage", text},
                              {"protocol_version", integer},
                              {"client_options", CqlType::Map(text, text)},
                              {"driver_name", text},
                              {"driver_version", text},
                              {"request_count", bigint},
                              {"ssl_enabled", CqlType::Boolean()},
                              {"ssl_protocol", text},
                              {"ssl_cipher_suite", text}}));
  // TableMetricTables: keyed by (keyspace_name, table_name), no comment.
  const std::vector<Col> table_key = {{"keyspace_name", text}, {"table_name", text}};
  const std::vector<Col> latency = {{"count", bigint},
                                    {"50th_ms", real},
                                    {"99th_ms", real},
                                    {"max_ms", real},
                                    {"per_second", real}};
  for (std::string_view name : {"coordinator_read_latency", "coordinator_write_latency",
                                "local_read_latency", "local_write_latency"}) {
    tables.push_back(MakeTable(views, name, "", table_key, {}, latency));
  }
  tables.push_back(MakeTable(views, "disk_usage", "", table_key, {}, {{"mebibytes", bigint}}));
  tables.push_back(
      MakeTable(views, "max_partition_size", "", table_key, {}, {{"mebibytes", bigint}}));
  // cqld's own (no Cassandra counterpart): `nodetool tablehistograms`' partition sizes and
  // rows per partition, for `cqlmodel size --source histograms` (engine/size_estimates.h).
  std::vector<Col> histogram = {{"partitions", bigint},
                                {"sstables_without_statistics", bigint},
                                {"mean_bytes", bigint},
                                {"mean_rows", real}};
  for (std::string_view name :
       {"min_bytes", "p50_bytes", "p75_bytes", "p95_bytes", "p98_bytes", "p99_bytes", "max_bytes",
        "min_rows", "p50_rows", "p75_rows", "p95_rows", "p98_rows", "p99_rows", "max_rows"}) {
    histogram.push_back({name, bigint});
  }
  tables.push_back(MakeTable(views, "partition_histograms",
                             "partition sizes and rows per partition in the live SST files",
                             table_key, {}, histogram));
  tables.push_back(
      MakeTable(views, "settings", "current settings", {{"name", text}}, {}, {{"value", text}}));
  tables.push_back(MakeTable(views, "sstable_tasks", "current sstable tasks",
                             {{"keyspace_name", text}},
                             {{"table_name", text}, {"task_id", CqlType::Uuid()}},
                             {{"completion_ratio", real},
                              {"kind", text},
                              {"progress", bigint},
                              {"total", bigint},
                              {"unit", text}}));
  tables.push_back(MakeTable(views, "thread_pools", "", {{"name", text}}, {},
                             {{"active_tasks", integer},
                              {"active_tasks_limit", integer},
                              {"pending_tasks", integer},
                              {"completed_tasks", bigint},
                              {"blocked_tasks", bigint},
                              {"blocked_tasks_all_time", bigint}}));
}

// Cassandra's system.size_estimates (deprecated, still written by 4.1); the engine fills it
// (engine/size_estimates.h).
void AddSizeEstimatesTable(std::vector<std::shared_ptr<const TableMetadata>>& tables) {
  const CqlType text = CqlType::Text();
  tables.push_back(MakeTable(
      kSystemKeyspace, "size_estimates",
      "*DEPRECATED* per-table primary range size estimates, table is "
      "deprecated in favor of table_estimates",
      {{"keyspace_name", text}}, {{"table_name", text}, {"range_start", text}, {"range_end", text}},
      {{"mean_partition_size", CqlType::Bigint()}, {"partitions_count", CqlType::Bigint()}}));
}

std::vector<std::shared_ptr<const TableMetadata>> BuildSystemTables() {
  const CqlType text = CqlType::Text();
  const CqlType inet = CqlType::Inet();
  const CqlType integer = CqlType::Int();
  const CqlType uuid = CqlType::Uuid();
  const CqlType tokens = CqlType::Set(CqlType::Text());
  std::vector<std::shared_ptr<const TableMetadata>> tables;
  constexpr std::string_view sys = kSystemKeyspace;
  constexpr std::string_view schema = kSystemSchemaKeyspace;
  constexpr std::string_view virtual_schema = kSystemVirtualSchemaKeyspace;

  // "table_name" holds the keyspace name (Cassandra's naming, kept for compatibility).
  tables.push_back(MakeTable(sys, "IndexInfo", "built column indexes", {{"table_name", text}},
                             {{"index_name", text}}, {{"value", CqlType::Blob()}}));
  tables.push_back(MakeTable(sys, "local", "information about the local node", {{"key", text}}, {},
                             {{"bootstrapped", text},
                              {"broadcast_address", inet},
                              {"broadcast_port", integer},
                              {"cluster_name", text},
                              {"cql_version", text},
                              {"data_center", text},
                              {"gossip_generation", integer},
                              {"host_id", uuid},
                              {"listen_address", inet},
                              {"listen_port", integer},
                              {"native_protocol_version", text},
                              {"partitioner", text},
                              {"rack", text},
                              {"release_version", text},
                              {"rpc_address", inet},
                              {"rpc_port", integer},
                              {"schema_version", uuid},
                              {"tokens", tokens},
                              {"truncated_at", CqlType::Map(uuid, CqlType::Blob())}}));
  tables.push_back(MakeTable(sys, "peers", "information about known peers in the cluster",
                             {{"peer", inet}}, {},
                             {{"data_center", text},
                              {"host_id", uuid},
                              {"preferred_ip", inet},
                              {"rack", text},
                              {"release_version", text},
                              {"rpc_address", inet},
                              {"schema_version", uuid},
                              {"tokens", tokens}}));
  tables.push_back(MakeTable(sys, "peers_v2", "information about known peers in the cluster",
                             {{"peer", inet}}, {{"peer_port", integer}},
                             {{"data_center", text},
                              {"host_id", uuid},
                              {"native_address", inet},
                              {"native_port", integer},
                              {"preferred_ip", inet},
                              {"preferred_port", integer},
                              {"rack", text},
                              {"release_version", text},
                              {"schema_version", uuid},
                              {"tokens", tokens}}));
  AddSizeEstimatesTable(tables);

  tables.push_back(MakeTable(schema, "aggregates", "user defined aggregate definitions",
                             {{"keyspace_name", text}},
                             {{"aggregate_name", text}, {"argument_types", FrozenTextList()}},
                             {{"final_func", text},
                              {"initcond", text},
                              {"return_type", text},
                              {"state_func", text},
                              {"state_type", text}}));
  tables.push_back(MakeTable(schema, "columns", "column definitions", {{"keyspace_name", text}},
                             {{"table_name", text}, {"column_name", text}}, ColumnsTableColumns()));
  tables.push_back(
      MakeTable(schema, "dropped_columns", "dropped column registry", {{"keyspace_name", text}},
                {{"table_name", text}, {"column_name", text}},
                {{"dropped_time", CqlType::Timestamp()}, {"kind", text}, {"type", text}}));
  tables.push_back(MakeTable(schema, "functions", "user defined function definitions",
                             {{"keyspace_name", text}},
                             {{"function_name", text}, {"argument_types", FrozenTextList()}},
                             {{"argument_names", FrozenTextList()},
                              {"body", text},
                              {"called_on_null_input", CqlType::Boolean()},
                              {"language", text},
                              {"return_type", text}}));
  tables.push_back(MakeTable(schema, "indexes", "secondary index definitions",
                             {{"keyspace_name", text}},
                             {{"table_name", text}, {"index_name", text}},
                             {{"kind", text}, {"options", FrozenTextMap()}}));
  tables.push_back(
      MakeTable(schema, "keyspaces", "keyspace definitions", {{"keyspace_name", text}}, {},
                {{"durable_writes", CqlType::Boolean()}, {"replication", FrozenTextMap()}}));
  std::vector<Col> table_columns = OptionColumns();
  table_columns.push_back({"flags", CqlType::Set(text, true)});
  tables.push_back(MakeTable(schema, "tables", "table definitions", {{"keyspace_name", text}},
                             {{"table_name", text}}, table_columns));
  tables.push_back(MakeTable(schema, "triggers", "trigger definitions", {{"keyspace_name", text}},
                             {{"table_name", text}, {"trigger_name", text}},
                             {{"options", FrozenTextMap()}}));
  tables.push_back(
      MakeTable(schema, "types", "user defined type definitions", {{"keyspace_name", text}},
                {{"type_name", text}},
                {{"field_names", FrozenTextList()}, {"field_types", FrozenTextList()}}));
  std::vector<Col> view_columns = OptionColumns();
  view_columns.push_back({"base_table_id", uuid});
  view_columns.push_back({"base_table_name", text});
  view_columns.push_back({"include_all_columns", CqlType::Boolean()});
  view_columns.push_back({"where_clause", text});
  tables.push_back(MakeTable(schema, "views", "view definitions", {{"keyspace_name", text}},
                             {{"view_name", text}}, view_columns));

  AddAuthTables(tables);
  AddTraceTables(tables);
  AddViewsTables(tables);

  tables.push_back(MakeTable(virtual_schema, "columns", "virtual column definitions",
                             {{"keyspace_name", text}},
                             {{"table_name", text}, {"column_name", text}}, ColumnsTableColumns()));
  tables.push_back(MakeTable(virtual_schema, "keyspaces", "virtual keyspace definitions",
                             {{"keyspace_name", text}}, {}, {}));
  tables.push_back(MakeTable(virtual_schema, "tables", "virtual table definitions",
                             {{"keyspace_name", text}}, {{"table_name", text}},
                             {{"comment", text}}));
  return tables;
}

std::vector<std::shared_ptr<const KeyspaceMetadata>> BuildSystemKeyspaces() {
  std::vector<std::shared_ptr<const KeyspaceMetadata>> keyspaces;
  for (std::string_view name :
       {kSystemKeyspace, kSystemAuthKeyspace, kSystemSchemaKeyspace, kSystemTracesKeyspace,
        kSystemViewsKeyspace, kSystemVirtualSchemaKeyspace}) {
    auto keyspace = std::make_shared<KeyspaceMetadata>();
    keyspace->name = std::string(name);
    keyspace->replication = {{"class", "org.apache.cassandra.locator.LocalStrategy"}};
    if (name == kSystemAuthKeyspace) {  // replicated in Cassandra, one replica here
      keyspace->replication = {{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                               {"replication_factor", "1"}};
    } else if (name == kSystemTracesKeyspace) {  // Cassandra's SimpleStrategy with 2 replicas
      keyspace->replication = {{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                               {"replication_factor", "2"}};
    }
    keyspace->durable_writes = true;
    for (const auto& table : SystemTables()) {
      if (table->keyspace == name) keyspace->tables[table->name] = table;
    }
    keyspaces.push_back(std::move(keyspace));
  }
  return keyspaces;
}

}  // namespace

common::Uuid NameBasedUuid(std::string_view bytes) {
  std::array<uint8_t, 16> digest = Md5(bytes);
  digest[6] = static_cast<uint8_t>((digest[6] & 0x0f) | 0x30);  // version 3
  digest[8] = static_cast<uint8_t>((digest[8] & 0x3f) | 0x80);  // IETF variant
  return common::Uuid::FromBytes(
             std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()))
      .value();
}

const std::vector<std::shared_ptr<const TableMetadata>>& SystemTables() {
  // Immutable constant data, built once on first use (thread-safe static initialization).
  static const std::vector<std::shared_ptr<const TableMetadata>> tables = BuildSystemTables();
  return tables;
}

const std::vector<std::shared_ptr<const KeyspaceMetadata>>& SystemKeyspaceMetadata() {
  static const std::vector<std::shared_ptr<const KeyspaceMetadata>> keyspaces =
      BuildSystemKeyspaces();
  return keyspaces;
}

const TableMetadata* FindSystemTable(std::string_view keyspace, std::string_view table) {
  for (const auto& candidate : SystemTables()) {
    if (candidate->keyspace == keyspace && candidate->name == table) return candidate.get();
  }
  return nullptr;
}

bool IsSystemKeyspace(std::string_view keyspace) {
  return keyspace == kSystemKeyspace || keyspace == kSystemSchemaKeyspace ||
         keyspace == kSystemVirtualSchemaKeyspace || keyspace == kSystemAuthKeyspace ||
         keyspace == "system_distributed" || keyspace == kSystemTracesKeyspace ||
         keyspace == kSystemViewsKeyspace;
}

bool IsVirtualKeyspace(std::string_view keyspace) {
  return keyspace == kSystemVirtualSchemaKeyspace || keyspace == kSystemViewsKeyspace;
}

}  // namespace schema
