#include "server/config.h"

#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string_view>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace server {
namespace {

using Kind = CassandraYamlKey::Kind;

const CassandraYamlKey* FindCassandraKey(const std::string& key) {
  for (const CassandraYamlKey& known : CassandraYamlKeys()) {
    if (key == known.yaml_key) return &known;
  }
  return nullptr;
}

// "5KiB" -> 5 with `unit_bytes` 1024; a bare number is already in the unit. nullopt: malformed,
// negative or not a whole number of units.
std::optional<uint64_t> ParseQuantity(const std::string& text, Kind kind) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 15) return std::nullopt;
  uint64_t number = std::stoull(text.substr(0, digits));
  std::string unit = text.substr(digits);
  if (unit.empty()) return number;
  struct Unit {
    const char* name;
    uint64_t factor;  // in the smallest unit of its kind (bytes or milliseconds)
  };
  static constexpr Unit kSizes[] = {{"B", 1}, {"KiB", 1024}, {"MiB", 1 << 20}, {"GiB", 1 << 30}};
  static constexpr Unit kDurations[] = {
      {"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}, {"d", 86400000}};
  uint64_t target = kind == Kind::kKib ? 1024 : kind == Kind::kMib ? (1 << 20) : 1;
  const bool sizes = kind == Kind::kKib || kind == Kind::kMib;
  for (const Unit& known :
       sizes ? std::span<const Unit>(kSizes) : std::span<const Unit>(kDurations)) {
    if (unit != known.name) continue;
    uint64_t total = number * known.factor;
    if (total % target != 0) return std::nullopt;
    return total / target;
  }
  return std::nullopt;
}

// The setting text for `node`, the value of a key of kind `kind`; or an error message.
std::optional<std::string> Convert(const YAML::Node& node, Kind kind, std::string* error) {
  if (kind == Kind::kClassName && node.IsSequence()) {
    // 4.1's `logger: [{class_name: FileAuditLogger}]`
    if (node.size() != 1 || !node[0].IsMap() || !node[0]["class_name"] ||
        !node[0]["class_name"].IsScalar()) {
      *error = "must be a class name, or a list of one `class_name: NAME`";
      return std::nullopt;
    }
    return node[0]["class_name"].Scalar();
  }
  if (kind == Kind::kList) {
    if (!node.IsSequence() || node.size() != 1 || !node[0].IsScalar()) {
      *error = "must list exactly one directory (cqld keeps its data in one directory)";
      return std::nullopt;
    }
    return node[0].Scalar();
  }
  if (!node.IsScalar()) {
    *error = "must be a single value";
    return std::nullopt;
  }
  const std::string& text = node.Scalar();
  if (kind == Kind::kSwitch) {
    bool value = false;
    if (!YAML::convert<bool>::decode(node, value)) {
      *error = "must be true or false";
      return std::nullopt;
    }
    return value ? "true" : "false";
  }
  if (kind == Kind::kConnections) {
    if (text == "-1") return std::string();  // Cassandra's "unlimited": cqld's default
    return text;
  }
  if (kind == Kind::kKib || kind == Kind::kMib || kind == Kind::kMs) {
    std::optional<uint64_t> quantity = ParseQuantity(text, kind);
    if (!quantity) {
      *error = fmt::format("'{}' is not a whole number of {}", text,
                           kind == Kind::kKib   ? "KiB"
                           : kind == Kind::kMib ? "MiB"
                                                : "ms");
      return std::nullopt;
    }
    return std::to_string(*quantity);
  }
  return text;
}

struct Reader {
  const std::string& path;
  const std::function<bool(const std::string&)>& is_setting;
  const std::function<bool(const std::string&)>& is_switch;
  Settings* settings;
  std::set<std::string>* seen;  // the keys read so far

  std::string Fail(const YAML::Node& node, const std::string& message) const {
    return fmt::format("{}:{}: {}", path, node.Mark().line + 1, message);
  }

  // One key of the file (dotted when nested) and its value. Returns "" or an error.
  std::string ReadKey(const std::string& key, const YAML::Node& key_node,
                      const YAML::Node& value) const {
    if (!seen->insert(key).second) {
      return Fail(key_node, fmt::format("key '{}' is given twice", key));
    }
    std::optional<Kind> kind;
    std::string setting;
    if (const CassandraYamlKey* known = FindCassandraKey(key)) {
      kind = known->kind;
      setting = known->setting;
    } else if (is_setting(key)) {
      kind = is_switch(key) ? Kind::kSwitch : Kind::kText;
      setting = key;
    } else if (value.IsMap()) {
      return ReadMap(value, key + ".");
    } else {
      return Fail(key_node,
                  fmt::format("unknown key '{}' (docs/operations.md lists the keys)", key));
    }
    if (value.IsNull()) return "";  // `authorizer:` with no value: not set
    std::string error;
    std::optional<std::string> text = Convert(value, *kind, &error);
    if (!text) return Fail(value, fmt::format("'{}' {}", key, error));
    if (!text->empty()) settings->try_emplace(setting, *text);
    return "";
  }

  std::string ReadMap(const YAML::Node& map, const std::string& prefix) const {
    for (const auto& entry : map) {
      if (!entry.first.IsScalar()) return Fail(entry.first, "a key must be a name");
      std::string error = ReadKey(prefix + entry.first.Scalar(), entry.first, entry.second);
      if (!error.empty()) return error;
    }
    return "";
  }
};

}  // namespace

const std::vector<CassandraYamlKey>& CassandraYamlKeys() {
  static const std::vector<CassandraYamlKey> keys = {
      {"cluster_name", "cluster-name", Kind::kText},
      {"native_transport_port", "port", Kind::kText},
      {"rpc_address", "address", Kind::kText},
      {"data_file_directories", "data", Kind::kList},
      {"commitlog_sync", "durability", Kind::kText},
      {"authenticator", "authenticator", Kind::kText},
      {"authorizer", "authorizer", Kind::kText},
      {"native_transport_max_frame_size_in_mb", "max-frame-size-mb", Kind::kMib},
      {"native_transport_max_frame_size", "max-frame-size-mb", Kind::kMib},
      {"native_transport_max_concurrent_connections", "max-connections", Kind::kConnections},
      {"native_transport_idle_timeout_in_ms", "idle-timeout-ms", Kind::kMs},
      {"native_transport_idle_timeout", "idle-timeout-ms", Kind::kMs},
      {"row_cache_size_in_mb", "row-cache-size-mb", Kind::kMib},
      {"row_cache_size", "row-cache-size-mb", Kind::kMib},
      {"slow_query_log_timeout_in_ms", "slow-query-log-ms", Kind::kMs},
      {"slow_query_log_timeout", "slow-query-log-ms", Kind::kMs},
      {"tombstone_warn_threshold", "tombstone-warn-threshold", Kind::kText},
      {"tombstone_failure_threshold", "tombstone-failure-threshold", Kind::kText},
      {"batch_size_warn_threshold_in_kb", "batch-size-warn-threshold-kb", Kind::kKib},
      {"batch_size_warn_threshold", "batch-size-warn-threshold-kb", Kind::kKib},
      {"batch_size_fail_threshold_in_kb", "batch-size-fail-threshold-kb", Kind::kKib},
      {"batch_size_fail_threshold", "batch-size-fail-threshold-kb", Kind::kKib},
      {"unlogged_batch_across_partitions_warn_threshold",
       "unlogged-batch-across-partitions-warn-threshold", Kind::kText},
      {"client_encryption_options.enabled", "tls-enabled", Kind::kSwitch},
      {"client_encryption_options.optional", "tls-optional", Kind::kSwitch},
      {"client_encryption_options.certificate", "tls-cert", Kind::kText},
      {"client_encryption_options.private_key", "tls-key", Kind::kText},
      {"client_encryption_options.truststore", "tls-ca", Kind::kText},
      {"client_encryption_options.require_client_auth", "tls-require-client-cert", Kind::kSwitch},
      {"audit_logging_options.enabled", "audit-log", Kind::kSwitch},
      {"audit_logging_options.logger", "audit-log-logger", Kind::kClassName},
      {"audit_logging_options.audit_logs_dir", "audit-log-dir", Kind::kText},
      {"audit_logging_options.included_keyspaces", "audit-log-included-keyspaces", Kind::kText},
      {"audit_logging_options.excluded_keyspaces", "audit-log-excluded-keyspaces", Kind::kText},
      {"audit_logging_options.included_categories", "audit-log-included-categories", Kind::kText},
      {"audit_logging_options.excluded_categories", "audit-log-excluded-categories", Kind::kText},
      {"audit_logging_options.included_users", "audit-log-included-users", Kind::kText},
      {"audit_logging_options.excluded_users", "audit-log-excluded-users", Kind::kText},
      {"audit_logging_options.max_log_size", "audit-log-max-log-size", Kind::kText},
      {"audit_logging_options.max_queue_weight", "audit-log-max-queue-weight", Kind::kText},
      {"audit_logging_options.block", "audit-log-block", Kind::kSwitch},
  };
  return keys;
}

std::string ReadConfigFile(const std::string& path,
                           const std::function<bool(const std::string&)>& is_setting,
                           const std::function<bool(const std::string&)>& is_switch,
                           Settings* settings) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    return "cannot read config file " + path;
  } catch (const YAML::Exception& e) {
    return fmt::format("{}:{}: {}", path, e.mark.line + 1, e.msg);
  }
  if (root.IsNull()) return "";  // an empty file
  if (!root.IsMap()) return path + ": expected `key: value` lines (a YAML map)";
  std::set<std::string> seen;
  Reader reader{path, is_setting, is_switch, settings, &seen};
  try {
    return reader.ReadMap(root, "");
  } catch (const YAML::Exception& e) {
    return fmt::format("{}:{}: {}", path, e.mark.line + 1, e.msg);
  }
}

}  // namespace server
