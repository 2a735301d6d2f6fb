// Tests of the system_views tables: Cassandra 4.1's definitions, and rows from plain data.

#include "schema/system_views.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cql/types/value_codec.h"

namespace schema {
namespace {

const TableMetadata& View(std::string_view name) {
  const TableMetadata* table = FindSystemTable(kSystemViewsKeyspace, name);
  EXPECT_NE(table, nullptr) << name;
  static const TableMetadata kNone;
  return table == nullptr ? kNone : *table;
}

// "name type kind" of every column, in the table's order.
std::string Shape(const TableMetadata& table) {
  std::string out;
  for (const ColumnMetadata& column : table.columns) {
    std::string kind = column.kind == ColumnKind::kPartitionKey ? "pk"
                       : column.kind == ColumnKind::kClustering ? "ck"
                                                                : "";
    out += (out.empty() ? "" : ",") + column.name + " " + column.type.ToCql();
    if (!kind.empty()) out += " " + kind;
  }
  return out;
}

std::vector<SystemRow> Rows(std::string_view table, const SystemViewsData& data) {
  auto rows = SystemViewsRows(View(table), data);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  return rows.ok() ? rows.value() : std::vector<SystemRow>{};
}

std::optional<common::Bytes> Get(std::string_view table, const SystemRow& row,
                                 std::string_view column) {
  const TableMetadata& metadata = View(table);
  for (size_t i = 0; i < metadata.columns.size(); ++i) {
    if (metadata.columns[i].name == column) return row[i];
  }
  ADD_FAILURE() << "no column " << column;
  return std::nullopt;
}

int64_t Bigint(const std::optional<common::Bytes>& value) {
  EXPECT_TRUE(value.has_value());
  return value ? cql::DeserializeBigint(*value).value() : -1;
}

double Double(const std::optional<common::Bytes>& value) {
  EXPECT_TRUE(value.has_value());
  return value ? cql::DeserializeDouble(*value).value() : -1;
}

TEST(SystemViewsTest, DefinitionsMatchCassandra41) {
  EXPECT_EQ(Shape(View("settings")), "name text pk,value text");
  EXPECT_EQ(View("settings").options.comment, "current settings");
  EXPECT_EQ(Shape(View("clients")),
            "address inet pk,port int ck,connection_stage text,driver_name text,driver_version "
            "text,hostname text,protocol_version int,request_count bigint,ssl_cipher_suite text,"
            "ssl_enabled boolean,ssl_protocol text,username text,client_options map<text, text>");
  EXPECT_EQ(View("clients").options.comment, "currently connected clients");
  EXPECT_EQ(Shape(View("caches")),
            "name text pk,capacity_bytes bigint,entry_count int,hit_count bigint,hit_ratio "
            "double,recent_hit_rate_per_second bigint,recent_request_rate_per_second bigint,"
            "request_count bigint,size_bytes bigint");
  for (std::string_view table : {"disk_usage", "max_partition_size"}) {
    EXPECT_EQ(Shape(View(table)), "keyspace_name text pk,table_name text pk,mebibytes bigint");
  }
  for (std::string_view table : {"local_read_latency", "local_write_latency",
                                 "coordinator_read_latency", "coordinator_write_latency"}) {
    EXPECT_EQ(Shape(View(table)),
              "keyspace_name text pk,table_name text pk,50th_ms double,99th_ms double,count "
              "bigint,max_ms double,per_second double");
  }
  EXPECT_EQ(Shape(View("sstable_tasks")),
            "keyspace_name text pk,table_name text ck,task_id uuid ck,completion_ratio double,"
            "kind text,progress bigint,total bigint,unit text");
  EXPECT_EQ(Shape(View("thread_pools")),
            "name text pk,active_tasks int,active_tasks_limit int,blocked_tasks bigint,"
            "blocked_tasks_all_time bigint,completed_tasks bigint,pending_tasks int");
}

TEST(SystemViewsTest, KeyspaceIsVirtualAndListed) {
  EXPECT_TRUE(IsSystemKeyspace("system_views"));
  EXPECT_TRUE(IsVirtualKeyspace("system_views"));
  size_t tables = 0;
  for (const auto& keyspace : SystemKeyspaceMetadata()) {
    if (keyspace->name == "system_views") tables = keyspace->tables.size();
  }
  EXPECT_EQ(tables, 12u);  // Cassandra 4.1's 11 and cqld's partition_histograms
  // Its rows come from SystemViewsRows, not SystemTableRows.
  LocalNodeInfo node;
  EXPECT_FALSE(SystemTableRows(View("settings"), *Catalog::Empty(), node).ok());
  EXPECT_FALSE(SystemViewsRows(*FindSystemTable("system", "local"), SystemViewsData{}).ok());
}

TEST(SystemViewsTest, SettingsInNameOrderWithNulls) {
  SystemViewsData data;
  data.settings["tombstone_warn_threshold"] = "1000";
  data.settings["cluster_name"] = "Test Cluster";
  data.settings["client_encryption_options.truststore"] = std::nullopt;
  std::vector<SystemRow> rows = Rows("settings", data);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0][0], "client_encryption_options.truststore");
  EXPECT_FALSE(rows[0][1].has_value());
  EXPECT_EQ(rows[1][0], "cluster_name");
  EXPECT_EQ(rows[1][1], "Test Cluster");
  EXPECT_EQ(rows[2][0], "tombstone_warn_threshold");
}

TEST(SystemViewsTest, ClientsByAddressThenPort) {
  SystemViewsData data;
  auto client = [](std::string address, int32_t port) {
    SystemViewsData::Client c;
    c.address = std::move(address);
    c.hostname = c.address;
    c.port = port;
    c.connection_stage = "ready";
    c.protocol_version = 5;
    c.driver_name = "DataStax Python Driver";
    c.request_count = port;
    return c;
  };
  data.clients = {client("127.0.0.2", 10), client("127.0.0.1", 60000), client("127.0.0.1", 5)};
  data.clients[0].protocol_version = 0;  // before STARTUP
  data.clients[1].username = "cassandra";
  data.clients[1].client_options = {{"CQL_VERSION", "3.0.0"}};
  std::vector<SystemRow> rows = Rows("clients", data);
  ASSERT_EQ(rows.size(), 3u);
  std::vector<int32_t> ports;
  for (const SystemRow& row : rows) {
    ports.push_back(cql::DeserializeInt(*Get("clients", row, "port")).value());
  }
  EXPECT_EQ(ports, (std::vector<int32_t>{5, 60000, 10}));
  EXPECT_EQ(Get("clients", rows[0], "address"), std::string("\x7f\x00\x00\x01", 4));
  EXPECT_EQ(Get("clients", rows[1], "username"), "cassandra");
  EXPECT_FALSE(Get("clients", rows[0], "username").has_value());
  EXPECT_TRUE(Get("clients", rows[1], "client_options").has_value());
  EXPECT_FALSE(Get("clients", rows[2], "protocol_version").has_value());
  EXPECT_EQ(Get("clients", rows[0], "driver_name"), "DataStax Python Driver");
  EXPECT_EQ(Bigint(Get("clients", rows[1], "request_count")), 60000);
  EXPECT_EQ(Get("clients", rows[0], "ssl_enabled"), std::string(1, '\0'));
  EXPECT_FALSE(Get("clients", rows[0], "ssl_protocol").has_value());

  data.clients[0].address = "not an address";
  EXPECT_FALSE(SystemViewsRows(View("clients"), data).ok());
}

TEST(SystemViewsTest, TableMetricsRoundedAsCassandra) {
  SystemViewsData data;
  SystemViewsData::TableMetrics a;
  a.keyspace = "ks";
  a.table = "b";
  a.disk_usage_bytes = (int64_t{3} << 20) + 1;  // rounds up to 4 MiB
  a.max_partition_bytes = 0;
  a.local_read = {7, 0.12345, 1.23456, 2.5};
  SystemViewsData::TableMetrics b = a;
  b.table = "a";
  b.local_read = {};
  data.tables = {a, b};
  std::vector<SystemRow> usage = Rows("disk_usage", data);
  ASSERT_EQ(usage.size(), 2u);
  EXPECT_EQ(usage[0][1], "a");  // by (keyspace_name, table_name)
  EXPECT_EQ(Bigint(Get("disk_usage", usage[0], "mebibytes")), 4);
  std::vector<SystemRow> sizes = Rows("max_partition_size", data);
  EXPECT_EQ(Bigint(Get("max_partition_size", sizes[1], "mebibytes")), 0);
  std::vector<SystemRow> reads = Rows("local_read_latency", data);
  ASSERT_EQ(reads.size(), 2u);
  EXPECT_EQ(Bigint(Get("local_read_latency", reads[1], "count")), 7);
  EXPECT_DOUBLE_EQ(Double(Get("local_read_latency", reads[1], "50th_ms")), 0.123);
  EXPECT_DOUBLE_EQ(Double(Get("local_read_latency", reads[1], "99th_ms")), 1.235);
  EXPECT_DOUBLE_EQ(Double(Get("local_read_latency", reads[1], "max_ms")), 2.5);
  EXPECT_FALSE(Get("local_read_latency", reads[1], "per_second").has_value());
  EXPECT_EQ(Bigint(Get("local_read_latency", reads[0], "count")), 0);
  // The write and coordinator tables read their own figures.
  EXPECT_EQ(Bigint(Get("local_write_latency", Rows("local_write_latency", data)[1], "count")), 0);
}

TEST(SystemViewsTest, CachesTasksAndPools) {
  SystemViewsData data;
  SystemViewsData::Cache cache;
  cache.name = "prepared_statements";
  cache.entry_count = 3;
  data.caches.push_back(cache);
  cache.name = "block_cache";
  cache.capacity_bytes = 1 << 20;
  cache.size_bytes = 4096;
  cache.request_count = 4;
  cache.hit_count = 3;
  data.caches.push_back(cache);
  std::vector<SystemRow> caches = Rows("caches", data);
  ASSERT_EQ(caches.size(), 2u);
  EXPECT_EQ(caches[0][0], "block_cache");
  EXPECT_DOUBLE_EQ(Double(Get("caches", caches[0], "hit_ratio")), 0.75);
  EXPECT_TRUE(std::isnan(Double(Get("caches", caches[1], "hit_ratio"))));
  EXPECT_FALSE(Get("caches", caches[1], "capacity_bytes").has_value());
  EXPECT_FALSE(Get("caches", caches[0], "recent_hit_rate_per_second").has_value());

  SystemViewsData::SSTableTask task;
  task.keyspace = "ks";
  task.table = "t";
  task.task_id = NameBasedUuid("task");
  task.kind = "compaction";
  task.progress = 25;
  task.total = 100;
  task.unit = "bytes";
  data.sstable_tasks.push_back(task);
  std::vector<SystemRow> tasks = Rows("sstable_tasks", data);
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_DOUBLE_EQ(Double(Get("sstable_tasks", tasks[0], "completion_ratio")), 0.25);

  SystemViewsData::ThreadPool pool;
  pool.name = "Native-Transport-Requests";
  pool.active_tasks = 1;
  pool.active_tasks_limit = 2;
  data.thread_pools.push_back(pool);
  pool.name = "CompactionExecutor";
  pool.completed_tasks = std::nullopt;
  data.thread_pools.push_back(pool);
  std::vector<SystemRow> pools = Rows("thread_pools", data);
  ASSERT_EQ(pools.size(), 2u);
  EXPECT_EQ(pools[0][0], "CompactionExecutor");
  EXPECT_FALSE(Get("thread_pools", pools[0], "completed_tasks").has_value());
  EXPECT_EQ(cql::DeserializeInt(*Get("thread_pools", pools[1], "active_tasks_limit")).value(), 2);
}

}  // namespace
}  // namespace schema
