// Tests of the system virtual tables: definitions, and rows generated from the seeds' schema.

#include "schema/system_tables.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cql/types/murmur3.h"
#include "cql/types/value_codec.h"
#include "schema/ddl_testing.h"
#include "schema/system_table_params.h"

namespace schema {
namespace {

std::shared_ptr<const Catalog> SeedsCatalog() {
  auto catalog = Catalog::Empty();
  EXPECT_TRUE(ApplyScript(&catalog, kHotelSchema).ok());
  EXPECT_TRUE(ApplyScript(&catalog, kReservationSchema).ok());
  return catalog;
}

std::vector<SystemRow> Rows(std::string_view keyspace, std::string_view table,
                            const Catalog& catalog, const LocalNodeInfo& node = {}) {
  const TableMetadata* metadata = FindSystemTable(keyspace, table);
  EXPECT_NE(metadata, nullptr) << keyspace << "." << table;
  if (metadata == nullptr) return {};
  auto rows = SystemTableRows(*metadata, catalog, node);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  return rows.ok() ? rows.value() : std::vector<SystemRow>{};
}

// The value of column `column` of `row` in table ks.table.
std::optional<common::Bytes> Get(std::string_view keyspace, std::string_view table,
                                 const SystemRow& row, std::string_view column) {
  const TableMetadata* metadata = FindSystemTable(keyspace, table);
  for (size_t i = 0; i < metadata->columns.size(); ++i) {
    if (metadata->columns[i].name == column) return row[i];
  }
  ADD_FAILURE() << "no column " << column;
  return std::nullopt;
}

std::string ColumnNames(const TableMetadata& table) {
  std::string out;
  for (const ColumnMetadata& column : table.columns) {
    out += (out.empty() ? "" : ",") + column.name + " " + column.type.ToCql();
  }
  return out;
}

// Table `keyspace.name` exists with Cassandra's id and columns ("name type,...").
void ExpectDefinition(std::string_view keyspace, std::string_view name, std::string_view id,
                      std::string_view columns) {
  const TableMetadata* table = FindSystemTable(keyspace, name);
  ASSERT_NE(table, nullptr) << keyspace << "." << name;
  EXPECT_EQ(table->id.ToString(), id) << name;
  EXPECT_EQ(ColumnNames(*table), columns) << name;
}

std::vector<std::string> TextList(std::string_view bytes) {
  auto elements = cql::SplitListOrSet(cql::CqlType::List(cql::CqlType::Text(), true), bytes);
  EXPECT_TRUE(elements.ok());
  return std::vector<std::string>(elements.value().begin(), elements.value().end());
}

std::map<std::string, std::string> TextMap(std::string_view bytes) {
  auto entries = cql::SplitMap(bytes);
  EXPECT_TRUE(entries.ok());
  std::map<std::string, std::string> out;
  for (const auto& entry : entries.value()) out[std::string(entry.key)] = entry.value;
  return out;
}

TEST(SystemTablesTest, DefinitionsMatchCassandra41) {
  const TableMetadata* local = FindSystemTable("system", "local");
  ASSERT_NE(local, nullptr);
  EXPECT_EQ(ColumnNames(*local),
            "key text,bootstrapped text,broadcast_address inet,broadcast_port int,cluster_name "
            "text,cql_version text,data_center text,gossip_generation int,host_id uuid,"
            "listen_address inet,listen_port int,native_protocol_version text,partitioner text,"
            "rack text,release_version text,rpc_address inet,rpc_port int,schema_version uuid,"
            "tokens set<text>,truncated_at map<uuid, blob>");
  EXPECT_EQ(local->id.ToString(), "7ad54392-bcdd-35a6-8417-4e047860b377");
  const TableMetadata* columns = FindSystemTable("system_schema", "columns");
  ASSERT_NE(columns, nullptr);
  EXPECT_EQ(ColumnNames(*columns),
            "keyspace_name text,table_name text,column_name text,clustering_order text,"
            "column_name_bytes blob,kind text,position int,type text");
  EXPECT_EQ(columns->ClusteringSize(), 2u);
  ExpectDefinition(
      "system_schema", "tables", "afddfb9d-bc1e-3068-8056-eed6c302ba09",
      "keyspace_name text,table_name text,additional_write_policy text,"
      "bloom_filter_fp_chance double,caching frozen<map<text, text>>,cdc boolean,comment "
      "text,compaction frozen<map<text, text>>,compression frozen<map<text, text>>,"
      "crc_check_chance double,dclocal_read_repair_chance double,default_time_to_live "
      "int,extensions frozen<map<text, blob>>,flags frozen<set<text>>,gc_grace_seconds "
      "int,id uuid,max_index_interval int,memtable text,memtable_flush_period_in_ms int,"
      "min_index_interval int,read_repair text,read_repair_chance double,"
      "speculative_retry text");
  ExpectDefinition("system", "IndexInfo", "9f5c6374-d485-3229-9a0a-5094af9ad1e3",
                   "table_name text,index_name text,value blob");
  EXPECT_EQ(SystemTables().size(), 25u + 12u);  // + system_views
  // system.size_estimates (rows from engine/size_estimates.h), with the id of Cassandra's data
  // directory "size_estimates-618f817b005f3678b8a453f3930b8e86".
  ExpectDefinition("system", "size_estimates", "618f817b-005f-3678-b8a4-53f3930b8e86",
                   "keyspace_name text,table_name text,range_start text,range_end text,"
                   "mean_partition_size bigint,partitions_count bigint");
  // system_traces's tables (Cassandra 4's TraceKeyspace), with Cassandra's ids.
  ExpectDefinition("system_traces", "sessions", "c5e99f16-8677-3914-b17e-960613512345",
                   "session_id uuid,client inet,command text,coordinator inet,coordinator_port int,"
                   "duration int,request text,started_at timestamp,parameters map<text, text>");
  ExpectDefinition("system_traces", "events", "8826e8e9-e16a-3728-8753-3bc1fc713c25",
                   "session_id uuid,event_id timeuuid,activity text,source inet,source_elapsed int,"
                   "source_port int,thread text");
  // system_auth's tables, with the ids Cassandra's data directories are named after.
  ExpectDefinition(
      "system_auth", "roles", "5bc52802-de25-35ed-aeab-188eecebb090",
      "role text,can_login boolean,is_superuser boolean,salted_hash text,member_of set<text>");
  EXPECT_EQ(FindSystemTable("system_auth", "role_members")->id.ToString(),
            "0ecdaa87-f8fb-3e60-88d1-74fb36fe5c0d");
  EXPECT_EQ(FindSystemTable("system_auth", "role_permissions")->id.ToString(),
            "3afbe79f-2194-31a7-add7-f5ab90d8ec9c");
  EXPECT_EQ(FindSystemTable("system", "nope"), nullptr);
  EXPECT_NE(FindSystemTable("system_virtual_schema", "columns"), nullptr);
  EXPECT_TRUE(IsSystemKeyspace("system_auth"));
  EXPECT_FALSE(IsSystemKeyspace("hotel"));
}

TEST(SystemTablesTest, ColumnsRowsOfSeedTable) {
  auto catalog = SeedsCatalog();
  std::vector<std::string> got;
  for (const SystemRow& row : Rows("system_schema", "columns", *catalog)) {
    auto get = [&](std::string_view column) {
      return Get("system_schema", "columns", row, column).value_or("<null>");
    };
    if (get("keyspace_name") != "hotel" || get("table_name") != "hotels_by_poi") continue;
    auto position = cql::DeserializeInt(get("position"));
    ASSERT_TRUE(position.ok());
    got.push_back(get("column_name") + "|" + get("clustering_order") + "|" +
                  get("column_name_bytes") + "|" + get("kind") + "|" +
                  std::to_string(position.value()) + "|" + get("type"));
  }
  EXPECT_EQ(got, (std::vector<std::string>{
                     "address|none|address|regular|-1|frozen<address>",
                     "hotel_id|asc|hotel_id|clustering|0|text",
                     "name|none|name|regular|-1|text",
                     "phone|none|phone|regular|-1|text",
                     "poi_description|none|poi_description|static|-1|text",
                     "poi_name|none|poi_name|partition_key|0|text",
                 }));
}

TEST(SystemTablesTest, SchemaPartitionsInTokenOrder) {
  auto catalog = SeedsCatalog();
  std::vector<std::string> keyspaces;
  for (const SystemRow& row : Rows("system_schema", "keyspaces", *catalog)) {
    keyspaces.push_back(Get("system_schema", "keyspaces", row, "keyspace_name").value());
  }
  // system, system_auth, system_schema, system_traces, hotel, reservation
  ASSERT_EQ(keyspaces.size(), 6u);
  for (size_t i = 1; i < keyspaces.size(); ++i) {
    EXPECT_LT(cql::Murmur3Token(keyspaces[i - 1]), cql::Murmur3Token(keyspaces[i]));
  }
  // Within a keyspace, tables come in name order; keyspaces are contiguous.
  std::vector<std::string> hotel_tables;
  for (const SystemRow& row : Rows("system_schema", "tables", *catalog)) {
    if (Get("system_schema", "tables", row, "keyspace_name") == "hotel") {
      hotel_tables.push_back(Get("system_schema", "tables", row, "table_name").value());
    }
  }
  EXPECT_EQ(hotel_tables,
            (std::vector<std::string>{"amenities_by_room", "available_rooms_by_hotel_date",
                                      "hotels", "hotels_by_poi", "pois_by_hotel"}));
}

TEST(SystemTablesTest, TableOptionDefaults) {
  auto catalog = SeedsCatalog();
  bool found = false;
  for (const SystemRow& row : Rows("system_schema", "tables", *catalog)) {
    auto get = [&](std::string_view column) { return Get("system_schema", "tables", row, column); };
    if (get("table_name") != "hotels") continue;
    found = true;
    EXPECT_EQ(get("comment"), "Q2. Find information about a hotel");
    EXPECT_EQ(cql::DeserializeDouble(*get("bloom_filter_fp_chance")).value(), 0.01);
    EXPECT_EQ(cql::DeserializeDouble(*get("crc_check_chance")).value(), 1.0);
    EXPECT_EQ(TextMap(*get("caching")), (std::map<std::string, std::string>{
                                            {"keys", "ALL"}, {"rows_per_partition", "NONE"}}));
    EXPECT_EQ(TextMap(*get("compaction")),
              (std::map<std::string, std::string>{
                  {"class", "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy"},
                  {"max_threshold", "32"},
                  {"min_threshold", "4"}}));
    EXPECT_EQ(TextMap(*get("compression")),
              (std::map<std::string, std::string>{
                  {"chunk_length_in_kb", "16"},
                  {"class", "org.apache.cassandra.io.compress.LZ4Compressor"}}));
    EXPECT_EQ(TextList(*get("flags")), std::vector<std::string>{"compound"});
    EXPECT_EQ(cql::DeserializeInt(*get("gc_grace_seconds")).value(), 864000);
    EXPECT_EQ(cql::DeserializeInt(*get("default_time_to_live")).value(), 0);
    EXPECT_EQ(cql::DeserializeInt(*get("max_index_interval")).value(), 2048);
    EXPECT_EQ(cql::DeserializeInt(*get("min_index_interval")).value(), 128);
    EXPECT_EQ(cql::DeserializeInt(*get("memtable_flush_period_in_ms")).value(), 0);
    EXPECT_EQ(get("read_repair"), "BLOCKING");
    EXPECT_EQ(get("speculative_retry"), "99p");
    EXPECT_EQ(get("additional_write_policy"), "99p");
    EXPECT_EQ(get("memtable"), "default");
    EXPECT_EQ(cql::DeserializeBoolean(*get("cdc")).value(), false);
    EXPECT_EQ(TextMap(*get("extensions")).size(), 0u);
    EXPECT_EQ(get("id"), catalog->FindTable("hotel", "hotels")->id.ToBytes());
  }
  EXPECT_TRUE(found);
}

TEST(SystemTablesTest, TableOptionsGiven) {
  auto catalog = Catalog::Empty();
  ASSERT_TRUE(ApplyScript(&catalog, R"(
    CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
    CREATE TABLE ks.t (k int PRIMARY KEY, c counter)
      WITH compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '160'}
      AND caching = {'keys': 'none', 'rows_per_partition': '10'}
      AND speculative_retry = '95PERCENTILE' AND read_repair = 'none'
      AND compression = {'enabled': 'false'} AND crc_check_chance = 0.5
      AND gc_grace_seconds = 10 AND max_index_interval = 4096;)")
                  .ok());
  auto rows = Rows("system_schema", "tables", *catalog);
  const SystemRow* row = nullptr;
  for (const SystemRow& candidate : rows) {
    if (Get("system_schema", "tables", candidate, "keyspace_name") == "ks") row = &candidate;
  }
  ASSERT_NE(row, nullptr);
  auto get = [&](std::string_view column) { return Get("system_schema", "tables", *row, column); };
  EXPECT_EQ(TextMap(*get("compaction")),
            (std::map<std::string, std::string>{
                {"class", "org.apache.cassandra.db.compaction.LeveledCompactionStrategy"},
                {"max_threshold", "32"},
                {"min_threshold", "4"},
                {"sstable_size_in_mb", "160"}}));
  EXPECT_EQ(cql::DeserializeDouble(*get("bloom_filter_fp_chance")).value(), 0.1);
  EXPECT_EQ(TextMap(*get("caching")),
            (std::map<std::string, std::string>{{"keys", "NONE"}, {"rows_per_partition", "10"}}));
  EXPECT_EQ(get("speculative_retry"), "95p");
  EXPECT_EQ(get("read_repair"), "NONE");
  EXPECT_EQ(TextMap(*get("compression")),
            (std::map<std::string, std::string>{{"enabled", "false"}}));
  EXPECT_EQ(cql::DeserializeDouble(*get("crc_check_chance")).value(), 0.5);
  EXPECT_EQ(cql::DeserializeInt(*get("gc_grace_seconds")).value(), 10);
  EXPECT_EQ(cql::DeserializeInt(*get("max_index_interval")).value(), 4096);
  EXPECT_EQ(TextList(*get("flags")), (std::vector<std::string>{"compound", "counter"}));
}

TEST(SystemTablesTest, KeyspacesTypesAndLocal) {
  auto catalog = SeedsCatalog();
  for (const SystemRow& row : Rows("system_schema", "keyspaces", *catalog)) {
    auto get = [&](std::string_view c) { return Get("system_schema", "keyspaces", row, c); };
    if (get("keyspace_name") != "hotel") continue;
    EXPECT_EQ(TextMap(*get("replication")),
              (std::map<std::string, std::string>{
                  {"class", "org.apache.cassandra.locator.SimpleStrategy"},
                  {"replication_factor", "3"}}));
    EXPECT_EQ(cql::DeserializeBoolean(*get("durable_writes")).value(), true);
  }
  auto types = Rows("system_schema", "types", *catalog);
  ASSERT_EQ(types.size(), 2u);
  EXPECT_EQ(
      TextList(*Get("system_schema", "types", types[0], "field_names")),
      (std::vector<std::string>{"street", "city", "state_or_province", "postal_code", "country"}));
  EXPECT_EQ(TextList(*Get("system_schema", "types", types[0], "field_types")),
            (std::vector<std::string>(5, "text")));

  LocalNodeInfo node;
  node.host_id = common::Uuid::FromHalves(1, 2);
  node.tokens = {"-100", "42"};
  auto local = Rows("system", "local", *catalog, node);
  ASSERT_EQ(local.size(), 1u);
  auto get = [&](std::string_view c) { return Get("system", "local", local[0], c); };
  EXPECT_EQ(get("key"), "local");
  EXPECT_EQ(get("schema_version"), catalog->schema_version().ToBytes());
  EXPECT_EQ(get("host_id"), node.host_id.ToBytes());
  EXPECT_EQ(get("cluster_name"), "Test Cluster");
  EXPECT_EQ(get("release_version"), "4.1.3");
  EXPECT_EQ(get("bootstrapped"), "COMPLETED");
  EXPECT_EQ(get("rpc_address"), std::string("\x7f\x00\x00\x01", 4));
  EXPECT_EQ(cql::DeserializeInt(*get("rpc_port")).value(), 9042);
  EXPECT_EQ(TextList(*get("tokens")), (std::vector<std::string>{"-100", "42"}));
  EXPECT_EQ(get("truncated_at"), std::nullopt);
  EXPECT_TRUE(Rows("system", "peers", *catalog).empty());
  EXPECT_TRUE(Rows("system", "peers_v2", *catalog).empty());

  node.listen_address = "not an address";
  EXPECT_FALSE(SystemTableRows(*FindSystemTable("system", "local"), *catalog, node).ok());
  EXPECT_FALSE(SystemTableRows(*catalog->FindTable("hotel", "hotels"), *catalog, node).ok());
}

TEST(SystemTablesTest, VirtualSchemaDescribesItself) {
  auto catalog = SeedsCatalog();
  // The virtual keyspaces, in key order (LocalPartitioner): system_views, then itself.
  auto keyspaces = Rows("system_virtual_schema", "keyspaces", *catalog);
  ASSERT_EQ(keyspaces.size(), 2u);
  EXPECT_EQ(keyspaces[0][0], "system_views");
  EXPECT_EQ(keyspaces[1][0], "system_virtual_schema");
  std::vector<std::string> tables;
  for (const SystemRow& row : Rows("system_virtual_schema", "tables", *catalog)) {
    if (row[0] == "system_virtual_schema") tables.push_back(*row[1] + ":" + *row[2]);
  }
  EXPECT_EQ(tables, (std::vector<std::string>{"columns:virtual column definitions",
                                              "keyspaces:virtual keyspace definitions",
                                              "tables:virtual table definitions"}));
  size_t own_columns = 0;
  for (const SystemRow& row : Rows("system_virtual_schema", "columns", *catalog)) {
    if (row[0] == "system_virtual_schema") ++own_columns;
  }
  EXPECT_EQ(own_columns, 8u + 1u + 3u);
  // system_schema lists its own tables.
  size_t schema_tables = 0;
  for (const SystemRow& row : Rows("system_schema", "tables", *catalog)) {
    if (row[0] == "system_schema") ++schema_tables;
  }
  EXPECT_EQ(schema_tables, 10u);
}

TEST(SystemTablesTest, JavaDoubleFormatting) {
  EXPECT_EQ(JavaDoubleToString(0.01), "0.01");
  EXPECT_EQ(JavaDoubleToString(1.0), "1.0");
  EXPECT_EQ(JavaDoubleToString(0.1), "0.1");
  EXPECT_EQ(JavaDoubleToString(123.5), "123.5");
  EXPECT_EQ(JavaDoubleToString(0.0001), "1.0E-4");
  EXPECT_EQ(JavaDoubleToString(12345678.0), "1.2345678E7");
  EXPECT_EQ(JavaDoubleToString(1000000.0), "1000000.0");
  EXPECT_EQ(JavaDoubleToString(-0.5), "-0.5");
}

TEST(SystemTablesTest, NameBasedUuidMatchesJava) {
  // UUID.nameUUIDFromBytes("") in Java.
  EXPECT_EQ(NameBasedUuid("").ToString(), "d41d8cd9-8f00-3204-a980-0998ecf8427e");
}

TEST(SystemTablesTest, IndexAndViewRows) {
  auto catalog = SeedsCatalog();
  ASSERT_TRUE(ApplyScript(&catalog, R"(
    CREATE INDEX hotels_pois ON hotel.hotels (pois);
    CREATE MATERIALIZED VIEW reservation.by_guest_id AS
      SELECT * FROM reservation.reservations_by_confirmation
      WHERE guest_id IS NOT NULL AND confirm_number IS NOT NULL
      PRIMARY KEY (guest_id, confirm_number);)")
                  .ok());
  auto indexes = Rows("system_schema", "indexes", *catalog);
  ASSERT_EQ(indexes.size(), 1u);
  auto index = [&](std::string_view c) { return Get("system_schema", "indexes", indexes[0], c); };
  EXPECT_EQ(index("table_name"), "hotels");
  EXPECT_EQ(index("index_name"), "hotels_pois");
  EXPECT_EQ(index("kind"), "COMPOSITES");
  EXPECT_EQ(TextMap(*index("options")),
            (std::map<std::string, std::string>{{"target", "values(pois)"}}));
  auto views = Rows("system_schema", "views", *catalog);
  ASSERT_EQ(views.size(), 1u);
  auto view = [&](std::string_view c) { return Get("system_schema", "views", views[0], c); };
  EXPECT_EQ(view("view_name"), "by_guest_id");
  EXPECT_EQ(view("base_table_name"), "reservations_by_confirmation");
  EXPECT_EQ(view("base_table_id"),
            catalog->FindTable("reservation", "reservations_by_confirmation")->id.ToBytes());
  EXPECT_EQ(view("where_clause"), "guest_id IS NOT NULL AND confirm_number IS NOT NULL");
  EXPECT_EQ(cql::DeserializeBoolean(*view("include_all_columns")).value(), true);
  EXPECT_EQ(view("speculative_retry"), "99p");
  size_t view_columns = 0;
  for (const SystemRow& row : Rows("system_schema", "columns", *catalog)) {
    if (Get("system_schema", "columns", row, "table_name") == "by_guest_id") ++view_columns;
  }
  EXPECT_EQ(view_columns, 6u);
  // Views are not tables.
  for (const SystemRow& row : Rows("system_schema", "tables", *catalog)) {
    EXPECT_NE(Get("system_schema", "tables", row, "table_name"), "by_guest_id");
  }
}

}  // namespace
}  // namespace schema
