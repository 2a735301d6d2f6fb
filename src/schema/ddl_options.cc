#include "schema/ddl_options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>

#include "common/ascii.h"

namespace schema {
namespace {

constexpr std::string_view kLocatorPackage = "org.apache.cassandra.locator.";
constexpr int64_t kMaxTtlSeconds = 630720000;  // 20 years, Cassandra's MAX_TTL

constexpr std::array<std::string_view, 18> kTableOptionNames = {
    "additional_write_policy",
    "bloom_filter_fp_chance",
    "caching",
    "cdc",
    "comment",
    "compaction",
    "compression",
    "crc_check_chance",
    "default_time_to_live",
    "extensions",
    "gc_grace_seconds",
    "id",
    "max_index_interval",
    "memtable",
    "memtable_flush_period_in_ms",
    "min_index_interval",
    "read_repair",
    "speculative_retry",
};
// Accepted by Cassandra 4.x for compatibility and ignored.
constexpr std::array<std::string_view, 2> kObsoleteTableOptionNames = {
    "read_repair_chance", "dclocal_read_repair_chance"};

bool Contains(const auto& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

common::Status CheckNoDuplicates(const std::vector<cql::Property>& properties) {
  std::set<std::string_view> seen;
  for (const cql::Property& property : properties) {
    if (!seen.insert(property.name).second) {
      return common::Status::SyntaxError(
          fmt::format("Multiple definition for property '{}'", property.name));
    }
  }
  return common::Status::Ok();
}

common::Result<std::string> StringValue(const cql::Property& property) {
  if (property.value.kind == cql::PropertyValue::Kind::kMap) {
    return common::Status::SyntaxError(
        fmt::format("Invalid value for property '{}'. It should be a string", property.name));
  }
  return property.value.constant.text;
}

common::Result<std::map<std::string, std::string>> MapValue(const cql::Property& property) {
  if (property.value.kind != cql::PropertyValue::Kind::kMap) {
    return common::Status::SyntaxError(
        fmt::format("Invalid value for property '{}'. It should be a map.", property.name));
  }
  std::map<std::string, std::string> result;
  for (const auto& [key, value] : property.value.entries) result[key.text] = value.text;
  return result;
}

common::Result<bool> BoolValue(const cql::Property& property) {
  ASSIGN_OR_RETURN(std::string text, StringValue(property));
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "true" || lower == "1" || lower == "yes") return true;
  if (lower == "false" || lower == "0" || lower == "no") return false;
  return common::Status::SyntaxError(
      fmt::format("Invalid boolean value {} for '{}'. Only 'true' and 'false' are allowed.", text,
                  property.name));
}

// Parses a Java int (optional sign, decimal digits, within int32 range).
bool ParseInt32(std::string_view text, int32_t* out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return !text.empty() && error == std::errc() && end == text.data() + text.size();
}

common::Result<int32_t> IntValue(const cql::Property& property) {
  ASSIGN_OR_RETURN(std::string text, StringValue(property));
  int32_t value = 0;
  if (!ParseInt32(text, &value)) {
    return common::Status::SyntaxError(
        fmt::format("Invalid integer value {} for '{}'", text, property.name));
  }
  return value;
}

// Parses one replica count as Java's Integer.valueOf does, with its error text.
common::Result<int32_t> ParseReplicaCount(std::string_view text) {
  int32_t value = 0;
  if (ParseInt32(text, &value)) return value;
  return common::Status::ConfigError(fmt::format("For input string: \"{}\"", text));
}

// Cassandra 4.1's ReplicationFactor.fromString: "<replicas>" or "<replicas>/<transient>".
// Transient replication is disabled (Cassandra's default), so any transient count is refused.
common::Status ValidateReplicationFactor(const std::string& text) {
  int32_t replicas = 0;
  int32_t transient = 0;
  const size_t slash = text.find('/');
  if (slash == std::string::npos) {
    ASSIGN_OR_RETURN(replicas, ParseReplicaCount(text));
  } else {
    // Java's split("/") drops trailing empty parts, so "3/" and "3/1/" count as malformed.
    std::string_view rest(text);
    rest.remove_prefix(slash + 1);
    while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
    if (rest.empty() || rest.find('/') != std::string_view::npos) {
      return common::Status::ConfigError(
          "Replication factor format is <replicas> or <replicas>/<transient>");
    }
    ASSIGN_OR_RETURN(replicas, ParseReplicaCount(std::string_view(text).substr(0, slash)));
    ASSIGN_OR_RETURN(transient, ParseReplicaCount(rest));
  }
  if (transient != 0) {
    return common::Status::ConfigError("Transient replication is not enabled on this node");
  }
  if (replicas < 0) {
    return common::Status::ConfigError(
        fmt::format("Replication factor must be non-negative, found {}", replicas));
  }
  return common::Status::Ok();
}

// The compressors Cassandra 4.1 ships (org.apache.cassandra.io.compress) with the options each
// supports.
const std::map<std::string, std::set<std::string>>& KnownCompressors() {
  static const std::map<std::string, std::set<std::string>> compressors = {
      {"DeflateCompressor", {}},
      {"LZ4Compressor", {"lz4_compressor_type", "lz4_high_compressor_level"}},
      {"NoopCompressor", {}},
      {"SnappyCompressor", {}},
      {"ZstdCompressor", {"compression_level"}},
  };
  return compressors;
}

// Checks a `compression` map as Cassandra 4.1's CompressionParams.fromMap does, with its
// ConfigurationException messages. The legacy keys `sstable_compression` and `chunk_length_kb`
// stand for `class` and `chunk_length_in_kb`.
common::Status ValidateCompression(std::map<std::string, std::string> options) {
  auto rename = [&](const char* legacy, const char* current) {
    auto it = options.find(legacy);
    if (it == options.end()) return;
    options.try_emplace(current, it->second);
    options.erase(it);
  };
  rename("sstable_compression", "class");
  rename("chunk_length_kb", "chunk_length_in_kb");
  bool enabled = true;
  if (auto it = options.find("enabled"); it != options.end()) {
    enabled = common::AsciiLower(it->second) == "true";
    options.erase(it);
  }
  if (!enabled) {
    if (options.empty()) return common::Status::Ok();
    return common::Status::ConfigError(
        "If the 'enabled' option is set to false no other options must be specified");
  }
  if (!options.empty() && !options.contains("class")) {
    return common::Status::ConfigError("Missing sub-option 'class' for the 'compression' option.");
  }
  std::string class_name = options["class"];
  options.erase("class");
  if (auto it = options.find("chunk_length_in_kb"); it != options.end()) {
    int32_t kib = 0;
    if (!ParseInt32(it->second, &kib)) {
      return common::Status::ConfigError("Invalid value for chunk_length_in_kb");
    }
    if (kib > INT32_MAX / 1024) {
      return common::Status::ConfigError(
          fmt::format("Value of chunk_length_in_kb is too large ({})", kib));
    }
    if (kib <= 0) return common::Status::ConfigError("Invalid negative or null chunk_length_in_kb");
    if ((kib & (kib - 1)) != 0) {
      return common::Status::ConfigError("chunk_length_in_kb must be a power of 2");
    }
    options.erase(it);
  }
  options.erase("min_compress_ratio");
  if (class_name.empty()) {
    if (options.empty()) return common::Status::Ok();
    std::vector<std::string> keys;
    for (const auto& [key, value] : options) keys.push_back(key);
    return common::Status::ConfigError(
        fmt::format("Unknown compression options ([{}]) since no compression class found",
                    fmt::join(keys, ", ")));
  }
  constexpr std::string_view kPackage = "org.apache.cassandra.io.compress.";
  std::string simple = class_name;
  if (simple.starts_with(kPackage)) simple.erase(0, kPackage.size());
  auto compressor = KnownCompressors().find(simple);
  if (compressor == KnownCompressors().end()) {
    const std::string qualified =
        class_name.find('.') == std::string::npos ? std::string(kPackage) + class_name : class_name;
    return common::Status::ConfigError(
        fmt::format("Could not create Compression for type {}", qualified));
  }
  for (const auto& [key, value] : options) {
    if (!compressor->second.contains(key)) {
      return common::Status::ConfigError(fmt::format("Unknown compression options {}", key));
    }
  }
  return common::Status::Ok();
}

// NetworkTopologyStrategy as Cassandra 4.1 prepares and validates it: `replication_factor`
// gives every data centre of the cluster (this node's) that count, keeping the data centres
// `previous` (the keyspace's replication before an ALTER) already had; a strategy without any
// option keeps the previous SimpleStrategy's factor; counts of "0" are dropped. The remaining
// options must name data centres the cluster has.
common::Result<std::map<std::string, std::string>> ValidateNetworkTopology(
    std::map<std::string, std::string> options, const std::map<std::string, std::string>& previous,
    std::string_view keyspace, std::string_view local_datacenter) {
  const std::string class_name = options["class"];
  options.erase("class");
  std::optional<std::string> factor;
  if (auto rf = options.find("replication_factor"); rf != options.end()) {
    factor = rf->second;
    options.erase(rf);
    for (const auto& [key, value] : previous) {
      if (key != "class" && key != "replication_factor") options.try_emplace(key, value);
    }
  } else if (options.empty()) {
    if (auto rf = previous.find("replication_factor"); rf != previous.end()) factor = rf->second;
  }
  if (factor) {
    RETURN_IF_ERROR(ValidateReplicationFactor(*factor));
    options.try_emplace(std::string(local_datacenter), *factor);
  }
  std::erase_if(options, [](const auto& entry) { return entry.second == "0"; });
  if (options.empty()) {
    return common::Status::ConfigError("Configuration for at least one datacenter must be present");
  }
  for (const auto& [key, value] : options) {
    if (key != local_datacenter) {
      return common::Status::ConfigError(
          fmt::format("Unrecognized strategy option {{{}}} passed to NetworkTopologyStrategy for "
                      "keyspace {}",
                      key, keyspace));
    }
  }
  for (const auto& [key, value] : options) RETURN_IF_ERROR(ValidateReplicationFactor(value));
  options["class"] = class_name;
  return options;
}

}  // namespace

bool IsValidSchemaName(std::string_view name) {
  if (name.empty() || name.size() > 48) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

common::Result<KeyspaceOptions> ParseKeyspaceOptions(const std::vector<cql::Property>& properties) {
  RETURN_IF_ERROR(CheckNoDuplicates(properties));
  KeyspaceOptions options;
  for (const cql::Property& property : properties) {
    if (property.name == "replication") {
      ASSIGN_OR_RETURN(options.replication, MapValue(property));
      options.has_replication = true;
    } else if (property.name == "durable_writes") {
      ASSIGN_OR_RETURN(options.durable_writes, BoolValue(property));
    } else {
      return common::Status::SyntaxError(fmt::format("Unknown property '{}'", property.name));
    }
  }
  if (options.has_replication && !options.replication.empty() &&
      !options.replication.contains("class")) {
    return common::Status::ConfigError("Missing replication strategy class");
  }
  return options;
}

common::Result<std::map<std::string, std::string>> ValidateReplication(
    const std::map<std::string, std::string>& replication, std::string_view keyspace,
    std::string_view local_datacenter, const std::map<std::string, std::string>& previous) {
  std::map<std::string, std::string> result = replication;
  std::string class_name = result["class"];
  if (class_name.find('.') == std::string::npos) {
    class_name = std::string(kLocatorPackage) + class_name;
  }
  result["class"] = class_name;
  if (class_name == std::string(kLocatorPackage) + "SimpleStrategy") {
    auto rf = result.find("replication_factor");
    if (rf == result.end()) {
      return common::Status::ConfigError(
          "SimpleStrategy requires a replication_factor strategy option.");
    }
    RETURN_IF_ERROR(ValidateReplicationFactor(rf->second));
    for (const auto& [key, value] : result) {
      if (key != "class" && key != "replication_factor") {
        return common::Status::ConfigError(
            fmt::format("Unrecognized strategy option {{{}}} passed to SimpleStrategy for "
                        "keyspace {}",
                        key, keyspace));
      }
    }
    return result;
  }
  if (class_name == std::string(kLocatorPackage) + "NetworkTopologyStrategy") {
    return ValidateNetworkTopology(std::move(result), previous, keyspace, local_datacenter);
  }
  if (class_name == std::string(kLocatorPackage) + "LocalStrategy") {
    return common::Status::Invalid(
        "Unable to use given strategy class: LocalStrategy is reserved for internal use.");
  }
  return common::Status::ConfigError(
      fmt::format("Unable to find replication strategy class '{}'", class_name));
}

namespace {

// Keeps `property` among the options stored as given, replacing an earlier value.
void KeepOther(TableOptions* options, const cql::Property& property) {
  auto same = std::find_if(options->other.begin(), options->other.end(),
                           [&](const cql::Property& p) { return p.name == property.name; });
  if (same != options->other.end()) {
    *same = property;
  } else {
    options->other.push_back(property);
  }
}

}  // namespace

common::Result<ParsedTableOptions> ParseTableOptions(const std::vector<cql::Property>& properties,
                                                     const TableOptions& base) {
  RETURN_IF_ERROR(CheckNoDuplicates(properties));
  ParsedTableOptions parsed;
  parsed.options = base;
  TableOptions& options = parsed.options;
  for (const cql::Property& property : properties) {
    const std::string& name = property.name;
    if (!Contains(kTableOptionNames, name) && !Contains(kObsoleteTableOptionNames, name)) {
      return common::Status::SyntaxError(fmt::format("Unknown property '{}'", name));
    }
    if (name == "comment") {
      ASSIGN_OR_RETURN(options.comment, StringValue(property));
    } else if (name == "default_time_to_live") {
      ASSIGN_OR_RETURN(options.default_time_to_live, IntValue(property));
    } else if (name == "gc_grace_seconds") {
      ASSIGN_OR_RETURN(options.gc_grace_seconds, IntValue(property));
    } else if (name == "id") {
      ASSIGN_OR_RETURN(std::string text, StringValue(property));
      auto id = common::Uuid::Parse(text);
      if (!id.ok()) {
        return common::Status::ConfigError("Invalid table id");
      }
      parsed.has_id = true;
      parsed.id = id.value();
    } else if (name == "compression" && property.value.kind == cql::PropertyValue::Kind::kMap) {
      ASSIGN_OR_RETURN(auto compression, MapValue(property));
      RETURN_IF_ERROR(ValidateCompression(std::move(compression)));
      KeepOther(&options, property);
    } else if (name == "read_repair_chance" || name == "dclocal_read_repair_chance") {
      continue;  // obsolete since 4.0, ignored
    } else {
      KeepOther(&options, property);
    }
  }
  if (options.default_time_to_live < 0) {
    return common::Status::ConfigError(
        fmt::format("default_time_to_live must be greater than or equal to 0 (got {})",
                    options.default_time_to_live));
  }
  if (options.default_time_to_live > kMaxTtlSeconds) {
    return common::Status::ConfigError(
        fmt::format("default_time_to_live must be less than or equal to {} (got {})",
                    kMaxTtlSeconds, options.default_time_to_live));
  }
  if (options.gc_grace_seconds < 0) {
    return common::Status::ConfigError(fmt::format(
        "gc_grace_seconds must be greater than or equal to 0 (got {})", options.gc_grace_seconds));
  }
  return parsed;
}

}  // namespace schema
