#include "server/config.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace server {
namespace {

class ConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() /
             ("cqld_config_test_" + std::to_string(::getpid()) + ".yaml"))
                .string();
  }
  void TearDown() override { std::filesystem::remove(path_); }

  // Reads `text` as a config file into settings_; the error or "".
  std::string Read(const std::string& text) {
    std::ofstream(path_) << text;
    auto is_setting = [](const std::string& key) {
      return key == "port" || key == "min-free-space-mb" || key == "tls-optional" ||
             key == "log-level" || key == "data";
    };
    auto is_switch = [](const std::string& key) { return key == "tls-optional"; };
    return ReadConfigFile(path_, is_setting, is_switch, &settings_);
  }

  std::string path_;
  Settings settings_;
};

TEST_F(ConfigTest, CassandraYamlKeysBecomeSettings) {
  EXPECT_EQ(Read("cluster_name: 'Hotels'\n"
                 "native_transport_port: 9142\n"
                 "rpc_address: 0.0.0.0\n"
                 "data_file_directories:\n"
                 "    - /var/lib/cqld/data\n"
                 "commitlog_sync: batch\n"
                 "authenticator: PasswordAuthenticator\n"
                 "authorizer: CassandraAuthorizer\n"
                 "native_transport_max_frame_size_in_mb: 32\n"
                 "native_transport_max_concurrent_connections: -1\n"
                 "client_encryption_options:\n"
                 "  enabled: yes\n"
                 "  certificate: /etc/cqld/node.crt\n"
                 "  private_key: /etc/cqld/node.key\n"
                 "  require_client_auth: false\n"),
            "");
  EXPECT_EQ(settings_["cluster-name"], "Hotels");
  EXPECT_EQ(settings_["port"], "9142");
  EXPECT_EQ(settings_["address"], "0.0.0.0");
  EXPECT_EQ(settings_["data"], "/var/lib/cqld/data");
  EXPECT_EQ(settings_["durability"], "batch");
  EXPECT_EQ(settings_["authenticator"], "PasswordAuthenticator");
  EXPECT_EQ(settings_["authorizer"], "CassandraAuthorizer");
  EXPECT_EQ(settings_["max-frame-size-mb"], "32");
  EXPECT_EQ(settings_.count("max-connections"), 0u);  // -1: unlimited, cqld's default
  EXPECT_EQ(settings_["tls-enabled"], "true");
  EXPECT_EQ(settings_["tls-cert"], "/etc/cqld/node.crt");
  EXPECT_EQ(settings_["tls-require-client-cert"], "false");
}

TEST_F(ConfigTest, OwnSettingsAndTheCommandLineWins) {
  settings_["port"] = "9999";  // from the command line
  EXPECT_EQ(Read("# comment\nport: 9042\nmin-free-space-mb: 512\ntls-optional: on\n"
                 "log-level:\n"),
            "");
  EXPECT_EQ(settings_["port"], "9999");
  EXPECT_EQ(settings_["min-free-space-mb"], "512");
  EXPECT_EQ(settings_["tls-optional"], "true");
  EXPECT_EQ(settings_.count("log-level"), 0u);  // empty value: unset
}

TEST_F(ConfigTest, UnitSuffixedNamesConvert) {
  EXPECT_EQ(Read("native_transport_max_frame_size: 64MiB\nnative_transport_idle_timeout: 2s\n"
                 "slow_query_log_timeout: 1s\ntombstone_warn_threshold: 500\n"),
            "");
  EXPECT_EQ(settings_["slow-query-log-ms"], "1000");
  EXPECT_EQ(settings_["tombstone-warn-threshold"], "500");
  EXPECT_EQ(settings_["max-frame-size-mb"], "64");
  EXPECT_EQ(settings_["idle-timeout-ms"], "2000");
  settings_.clear();
  EXPECT_EQ(Read("batch_size_warn_threshold: 8KiB\nbatch_size_fail_threshold_in_kb: 100\n"
                 "unlogged_batch_across_partitions_warn_threshold: 20\n"),
            "");
  EXPECT_EQ(settings_["batch-size-warn-threshold-kb"], "8");
  EXPECT_EQ(settings_["batch-size-fail-threshold-kb"], "100");
  EXPECT_EQ(settings_["unlogged-batch-across-partitions-warn-threshold"], "20");
  settings_.clear();
  EXPECT_EQ(Read("row_cache_size: 1GiB\n"), "");
  EXPECT_EQ(settings_["row-cache-size-mb"], "1024");
  settings_.clear();
  EXPECT_EQ(Read("row_cache_size_in_mb: 0\n"), "");
  EXPECT_EQ(settings_["row-cache-size-mb"], "0");
  settings_.clear();
  EXPECT_EQ(Read("native_transport_max_frame_size: 1536KiB\n"),
            path_ + ":1: 'native_transport_max_frame_size' '1536KiB' is not a whole number of MiB");
}

TEST_F(ConfigTest, UnknownKeysAreErrorsNamingKeyAndLine) {
  EXPECT_EQ(Read("port: 9042\nnum_tokens: 16\n"),
            path_ + ":2: unknown key 'num_tokens' (docs/operations.md lists the keys)");
  EXPECT_EQ(Read("client_encryption_options:\n  keystore: conf/.keystore\n"),
            path_ +
                ":2: unknown key 'client_encryption_options.keystore' (docs/operations.md "
                "lists the keys)");
}

TEST_F(ConfigTest, MalformedValuesAndFilesAreErrors) {
  EXPECT_EQ(Read("data_file_directories:\n  - /a\n  - /b\n"),
            path_ +
                ":2: 'data_file_directories' must list exactly one directory (cqld keeps its "
                "data in one directory)");
  EXPECT_EQ(Read("tls-optional: maybe\n"), path_ + ":1: 'tls-optional' must be true or false");
  EXPECT_EQ(Read("port: [1, 2]\n"), path_ + ":1: 'port' must be a single value");
  EXPECT_EQ(Read("port: 1\nport: 2\n"), path_ + ":2: key 'port' is given twice");
  EXPECT_EQ(Read("port: [1, 2\n").rfind(path_ + ":2: ", 0), 0u);
  EXPECT_EQ(Read("- a\n- b\n"), path_ + ": expected `key: value` lines (a YAML map)");
  EXPECT_EQ(Read(""), "");
  EXPECT_EQ(ReadConfigFile(
                "/nonexistent/cqld.yaml", [](const std::string&) { return true; },
                [](const std::string&) { return false; }, &settings_),
            "cannot read config file /nonexistent/cqld.yaml");
}

TEST_F(ConfigTest, AuditLoggingOptions) {
  EXPECT_EQ(Read("audit_logging_options:\n"
                 "  enabled: true\n"
                 "  logger:\n"
                 "    - class_name: FileAuditLogger\n"
                 "  audit_logs_dir: /var/log/cqld/audit\n"
                 "  included_categories: DDL,DCL,AUTH\n"
                 "  excluded_keyspaces: system, system_schema\n"
                 "  excluded_users:\n"
                 "  max_log_size: 1073741824\n"
                 "  block: false\n"),
            "");
  EXPECT_EQ(settings_["audit-log"], "true");
  EXPECT_EQ(settings_["audit-log-logger"], "FileAuditLogger");
  EXPECT_EQ(settings_["audit-log-dir"], "/var/log/cqld/audit");
  EXPECT_EQ(settings_["audit-log-included-categories"], "DDL,DCL,AUTH");
  EXPECT_EQ(settings_["audit-log-excluded-keyspaces"], "system, system_schema");
  EXPECT_EQ(settings_.count("audit-log-excluded-users"), 0u);
  EXPECT_EQ(settings_["audit-log-max-log-size"], "1073741824");
  EXPECT_EQ(settings_["audit-log-block"], "false");

  settings_.clear();
  EXPECT_EQ(Read("audit_logging_options:\n  logger: BinAuditLogger\n"), "");
  EXPECT_EQ(settings_["audit-log-logger"], "BinAuditLogger");  // refused where it is used
  EXPECT_NE(Read("audit_logging_options:\n  logger:\n    - name: x\n"), "");
  EXPECT_NE(Read("audit_logging_options:\n  roll_cycle: HOURLY\n")
                .find("unknown key "
                      "'audit_logging_options."
                      "roll_cycle'"),
            std::string::npos);
}

}  // namespace
}  // namespace server
