// Tests of the system_views tables through the engine: figures from the engine's own
// statistics and from a registered source, key order, WHERE, LIMIT, paging, and writes refused.

#include "engine/system_views.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cql/types/value_codec.h"
#include "engine/session_testing.h"

namespace engine {
namespace {

class SystemViewsTest : public testing::SessionTest {
 protected:
  // The text column `column` of every row of `query`.
  std::vector<std::string> Texts(const std::string& query, size_t column = 0) {
    std::vector<std::string> out;
    for (const auto& row : Fetch(query, 0)) out.push_back(row[column].value_or("null"));
    return out;
  }
  int64_t Bigint(const std::string& query) {
    testing::Rows rows = Fetch(query, 0);
    EXPECT_EQ(rows.size(), 1u) << query;
    if (rows.size() != 1 || !rows[0][0]) return -1;
    return cql::DeserializeBigint(*rows[0][0]).value();
  }
};

TEST_F(SystemViewsTest, SettingsShowTheOptionsInForce) {
  std::map<std::string, std::string> settings;
  for (const auto& row : Fetch("SELECT name, value FROM system_views.settings", 0)) {
    settings[*row[0]] = row[1].value_or("null");
  }
  EXPECT_EQ(settings["cluster_name"], "Test Cluster");
  EXPECT_EQ(settings["commitlog_sync"], "periodic");
  EXPECT_EQ(settings["authenticator"], "AllowAllAuthenticator");
  EXPECT_EQ(settings["authorizer"], "AllowAllAuthorizer");
  EXPECT_EQ(settings["tombstone_warn_threshold"], "1000");
  EXPECT_EQ(settings["tombstone_failure_threshold"], "100000");
  EXPECT_EQ(settings["batch_size_warn_threshold_in_kb"], "5");
  EXPECT_EQ(settings["batch_size_warn_threshold"], "5KiB");
  EXPECT_EQ(settings["batch_size_fail_threshold_in_kb"], "50");
  EXPECT_EQ(settings["unlogged_batch_across_partitions_warn_threshold"], "10");
  EXPECT_EQ(settings["data_file_directories"], "[" + directory_ + "]");
  EXPECT_EQ(settings["row_cache_size"], fmt::format("{}MiB", options_.row_cache_bytes >> 20));
  EXPECT_EQ(settings["row_cache_size_in_mb"], std::to_string(options_.row_cache_bytes >> 20));
  // Without a server no network setting is known.
  EXPECT_EQ(settings.count("native_transport_port"), 0u);

  // A partition key restriction; IN values come back in key order, as in Cassandra.
  EXPECT_EQ(Texts("SELECT value FROM system_views.settings WHERE name IN "
                  "('tombstone_warn_threshold', 'cluster_name')"),
            (std::vector<std::string>{"Test Cluster", "1000"}));
  EXPECT_TRUE(Texts("SELECT value FROM system_views.settings WHERE name = 'nope'").empty());
}

TEST_F(SystemViewsTest, RowsInKeyOrderWithLimitAndPaging) {
  std::vector<std::string> all = Texts("SELECT name FROM system_views.settings");
  ASSERT_GT(all.size(), 10u);
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end())) << "LocalPartitioner: key order";
  testing::Rows paged = Fetch("SELECT name FROM system_views.settings", 3, /*full_pages=*/true);
  ASSERT_EQ(paged.size(), all.size());
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(*paged[i][0], all[i]);
  EXPECT_EQ(Texts("SELECT name FROM system_views.settings LIMIT 2"),
            (std::vector<std::string>{all[0], all[1]}));
  // The virtual schema keyspace is in key order too.
  EXPECT_EQ(Texts("SELECT keyspace_name FROM system_virtual_schema.keyspaces"),
            (std::vector<std::string>{"system_views", "system_virtual_schema"}));
}

TEST_F(SystemViewsTest, TableMetricsForEveryUserTable) {
  Run("CREATE TABLE ks.b (k int PRIMARY KEY, v text)");
  Run("CREATE TABLE ks.a (k int PRIMARY KEY, v text)");
  Run("INSERT INTO ks.a (k, v) VALUES (1, 'x')");
  Run("INSERT INTO ks.a (k, v) VALUES (2, 'y')");
  Run("SELECT * FROM ks.a WHERE k = 1");
  for (std::string table :
       {"disk_usage", "max_partition_size", "local_read_latency", "local_write_latency",
        "coordinator_read_latency", "coordinator_write_latency"}) {
    EXPECT_EQ(Texts("SELECT table_name FROM system_views." + table +
                        " WHERE keyspace_name = 'ks' "
                        "ALLOW FILTERING",
                    0),
              (std::vector<std::string>{"a", "b"}))
        << table;
  }
  EXPECT_EQ(Bigint("SELECT count FROM system_views.local_write_latency WHERE keyspace_name = "
                   "'ks' AND table_name = 'a'"),
            2);
  EXPECT_EQ(Bigint("SELECT count FROM system_views.coordinator_write_latency WHERE "
                   "keyspace_name = 'ks' AND table_name = 'a'"),
            2);
  EXPECT_EQ(Bigint("SELECT count FROM system_views.local_read_latency WHERE keyspace_name = "
                   "'ks' AND table_name = 'a'"),
            1);
  EXPECT_EQ(Bigint("SELECT count FROM system_views.local_read_latency WHERE keyspace_name = "
                   "'ks' AND table_name = 'b'"),
            0);
  // Nothing is flushed yet: no SST file, no disk usage.
  EXPECT_EQ(Bigint("SELECT mebibytes FROM system_views.disk_usage WHERE keyspace_name = 'ks' "
                   "AND table_name = 'a'"),
            0);
}

TEST_F(SystemViewsTest, CachesAndThreadPoolsOfTheEngine) {
  Run("CREATE TABLE ks.t (p int, c int, v int, PRIMARY KEY (p, c))");
  Run("INSERT INTO ks.t (p, c, v) VALUES (1, 1, 1)");
  Fetch("SELECT * FROM ks.t WHERE p = 1", 0);  // a miss, kept
  Fetch("SELECT * FROM ks.t WHERE p = 1", 0);  // a hit
  EXPECT_EQ(Texts("SELECT name FROM system_views.caches"),
            (std::vector<std::string>{"block_cache", "prepared_statements", "rows"}));
  EXPECT_EQ(Bigint("SELECT capacity_bytes FROM system_views.caches WHERE name = 'rows'"),
            static_cast<int64_t>(options_.row_cache_bytes));
  EXPECT_EQ(Bigint("SELECT hit_count FROM system_views.caches WHERE name = 'rows'"), 1);
  EXPECT_EQ(Bigint("SELECT request_count FROM system_views.caches WHERE name = 'rows'"), 2);
  const int64_t capacity =
      Bigint("SELECT capacity_bytes FROM system_views.caches WHERE name = 'block_cache'");
  EXPECT_EQ(capacity, static_cast<int64_t>(options_.block_cache_bytes));
  std::vector<std::string> pools = Texts("SELECT name FROM system_views.thread_pools");
  EXPECT_EQ(pools, (std::vector<std::string>{"CompactionExecutor", "MemtableFlushWriter",
                                             "PurgeScheduler"}));
  EXPECT_TRUE(Texts("SELECT * FROM system_views.sstable_tasks").empty());
  EXPECT_TRUE(Texts("SELECT * FROM system_views.clients").empty());
}

TEST_F(SystemViewsTest, ASourceAddsClientsSettingsAndPools) {
  auto source = std::make_shared<SystemViewsSource>();
  source->clients = [] {
    ClientInfo client;
    client.address = "10.0.0.7";
    client.hostname = client.address;
    client.port = 40000;
    client.connection_stage = "ready";
    client.protocol_version = 5;
    client.driver_name = "test driver";
    return std::vector<ClientInfo>{client};
  };
  source->settings = [] {
    return std::map<std::string, std::optional<std::string>>{{"native_transport_port", "9042"}};
  };
  source->thread_pools = [] {
    SystemViewsSource::ThreadPoolList pools(1);
    pools[0].name = "Native-Transport-Requests";
    return pools;
  };
  db_->SetSystemViewsSource(source);
  EXPECT_EQ(Texts("SELECT driver_name FROM system_views.clients WHERE address = '10.0.0.7'"),
            (std::vector<std::string>{"test driver"}));
  EXPECT_EQ(Texts("SELECT value FROM system_views.settings WHERE name = 'native_transport_port'"),
            (std::vector<std::string>{"9042"}));
  EXPECT_EQ(Texts("SELECT name FROM system_views.thread_pools").size(), 4u);
  db_->SetSystemViewsSource(nullptr);
  EXPECT_TRUE(Texts("SELECT * FROM system_views.clients").empty());
}

TEST_F(SystemViewsTest, WritesAndDdlAreRefused) {
  struct Case {
    const char* statement;
    common::StatusCode code;
    const char* message;
  };
  for (const Case& c : {
           Case{"INSERT INTO system_views.settings (name, value) VALUES ('a', 'b')",
                common::StatusCode::kInvalid,
                "Modification is not supported by table system_views.settings"},
           Case{"UPDATE system_views.settings SET value = 'b' WHERE name = 'a'",
                common::StatusCode::kInvalid,
                "Modification is not supported by table system_views.settings"},
           Case{"DELETE FROM system_views.clients WHERE address = '127.0.0.1'",
                common::StatusCode::kInvalid,
                "Modification is not supported by table system_views.clients"},
           Case{"TRUNCATE system_views.caches", common::StatusCode::kInvalid,
                "Truncation is not supported by table system_views.caches"},
           Case{"INSERT INTO system_virtual_schema.keyspaces (keyspace_name) VALUES ('x')",
                common::StatusCode::kInvalid,
                "Modification is not supported by table system_virtual_schema.keyspaces"},
       }) {
    auto result = session_->Execute(c.statement);
    ASSERT_FALSE(result.ok()) << c.statement;
    EXPECT_EQ(result.status().code(), c.code) << c.statement;
    EXPECT_EQ(result.status().message(), c.message) << c.statement;
  }
  for (const char* ddl :
       {"CREATE TABLE system_views.t (k int PRIMARY KEY)", "DROP TABLE system_views.settings",
        "DROP KEYSPACE system_views", "ALTER TABLE system_views.settings ADD x int"}) {
    EXPECT_FALSE(session_->Execute(ddl).ok()) << ddl;
  }
  auto unknown = session_->Execute("SELECT * FROM system_views.nope");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(), "table nope does not exist");
}

}  // namespace
}  // namespace engine
