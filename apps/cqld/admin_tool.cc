#include "admin_tool.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <boost/json.hpp>

#include "admin_client.h"

namespace cqld {

namespace json = boost::json;

namespace {

constexpr int kOk = 0;
constexpr int kFailed = 1;
constexpr int kUsage = 2;

// The parsed command line.
struct Invocation {
  AdminEndpoint endpoint;
  std::string command;
  std::vector<std::string> arguments;           // positional, after the command
  std::string tag;                              // -t
  bool all = false;                             // --all
  bool tokens = false;                          // -T
  std::optional<std::chrono::seconds> timeout;  // --timeout
  // enableauditlog's options: the body key (audit_logging_options' name) -> value.
  std::vector<std::pair<std::string, std::string>> audit_options;
};

// enableauditlog's options (nodetool 4.1) and the audit_logging_options key each sets.
struct AuditOption {
  const char* flag;
  const char* key;
};
constexpr AuditOption kAuditOptions[] = {
    {"--logger", "logger"},
    {"--included-keyspaces", "included_keyspaces"},
    {"--excluded-keyspaces", "excluded_keyspaces"},
    {"--included-categories", "included_categories"},
    {"--excluded-categories", "excluded_categories"},
    {"--included-users", "included_users"},
    {"--excluded-users", "excluded_users"},
    {"--roll-cycle", "roll_cycle"},
    {"--blocking", "block"},
    {"--max-queue-weight", "max_queue_weight"},
    {"--max-log-size", "max_log_size"},
    {"--archive-command", "archive_command"},
    {"--max-archive-retries", "max_archive_retries"},
};

const AuditOption* FindAuditOption(std::string_view flag) {
  for (const AuditOption& option : kAuditOptions) {
    if (flag == option.flag) return &option;
  }
  return nullptr;
}

// What a command needs: the invocation, and the API.
class Context {
 public:
  explicit Context(const Invocation& invocation) : invocation_(invocation) {}
  const Invocation& invocation() const { return invocation_; }
  const std::vector<std::string>& arguments() const { return invocation_.arguments; }

  // Calls the API; the answer's JSON object, or nullopt after printing the error (then the
  // command exits kFailed).
  std::optional<json::object> Call(const std::string& method, const std::string& path,
                                   const json::object& body = {}) const {
    std::string text = body.empty() ? "" : json::serialize(body);
    auto answer = CallAdmin(invocation_.endpoint, method, path, text);
    if (!answer.ok()) {
      std::fprintf(stderr, "cqld admin: %s\n", answer.status().message().c_str());
      return std::nullopt;
    }
    boost::system::error_code error;
    json::value value = json::parse(answer->body, error);
    if (answer->status >= 200 && answer->status < 300 && !error && value.is_object()) {
      return std::move(value.get_object());
    }
    std::string message = fmt::format("HTTP status {}", answer->status);
    if (!error && value.is_object() && value.get_object().contains("error")) {
      const json::value& text_value = value.get_object().at("error");
      if (text_value.is_string()) message = std::string(text_value.get_string());
    }
    std::fprintf(stderr, "error: %s\n", message.c_str());
    return std::nullopt;
  }

 private:
  const Invocation& invocation_;
};

std::string Text(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  if (value == nullptr) return "";
  if (value->is_string()) return std::string(value->get_string());
  return json::serialize(*value);
}

uint64_t Number(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  if (value == nullptr) return 0;
  if (value->is_uint64()) return value->get_uint64();
  if (value->is_int64()) return static_cast<uint64_t>(std::max<int64_t>(0, value->get_int64()));
  return 0;
}

// nodetool's sizes: "0 bytes", "306.77 KiB", "48 MiB" (at most two decimals, no trailing 0).
std::string FileSize(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"TiB", "GiB", "MiB", "KiB"};
  for (int i = 0; i < 4; ++i) {
    double unit = static_cast<double>(uint64_t{1} << (10 * (4 - i)));
    if (static_cast<double>(bytes) >= unit) {
      std::string number = fmt::format("{:.2f}", static_cast<double>(bytes) / unit);
      while (number.back() == '0') number.pop_back();
      if (number.back() == '.') number.pop_back();
      return number + " " + kUnits[i];
    }
  }
  return fmt::format("{} bytes", bytes);
}

// Prints rows as nodetool's TableBuilder does: each column as wide as its widest cell, one space
// between columns.
void PrintTable(const std::vector<std::vector<std::string>>& rows, std::string_view separator) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size())
        line += std::string(widths[i] - row[i].size(), ' ') + std::string(separator);
    }
    std::printf("%s\n", line.c_str());
  }
}

// {"keyspace": first argument, "tables": the others}, for flush, compact and garbagecollect.
json::object TableSelection(const Context& context) {
  json::object body;
  const auto& arguments = context.arguments();
  if (arguments.empty()) return body;
  body["keyspace"] = arguments[0];
  json::array tables;
  for (size_t i = 1; i < arguments.size(); ++i) tables.emplace_back(arguments[i]);
  body["tables"] = tables;
  return body;
}

// "[all keyspaces]" or "[ks1, ks2]", as nodetool names keyspaces in its messages.
std::string KeyspaceList(const std::vector<std::string>& keyspaces) {
  if (keyspaces.empty()) return "[all keyspaces]";
  return fmt::format("[{}]", fmt::join(keyspaces, ", "));
}

int NodeStatus(const Context& context) {
  auto node = context.Call("GET", "/api/v1/node");
  if (!node) return kFailed;
  std::string header = "Datacenter: " + Text(*node, "data_center");
  std::printf("%s\n%s\n", header.c_str(), std::string(header.size(), '=').c_str());
  std::printf("Status=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n");
  size_t tokens = node->at("tokens").as_array().size();
  // Up and Normal: the one node answers (even drained: Cassandra's drained node is UN too).
  const std::string state = "UN";
  PrintTable({{"--", "Address", "Load", "Tokens", "Owns (effective)", "Host ID", "Rack"},
              {state, Text(*node, "listen_address"), FileSize(Number(*node, "load_bytes")),
               std::to_string(tokens), "100.0%", Text(*node, "host_id"), Text(*node, "rack")}},
             "  ");
  std::printf("\n");
  return kOk;
}

int Info(const Context& context) {
  auto node = context.Call("GET", "/api/v1/node");
  if (!node) return kFailed;
  auto line = [](std::string_view name, const std::string& value) {
    std::printf("%-23.*s: %s\n", static_cast<int>(name.size()), name.data(), value.c_str());
  };
  const json::object& cache = node->at("block_cache").as_object();
  line("ID", Text(*node, "host_id"));
  line("Gossip active", "false");
  line("Native Transport active", node->at("native_transport_active").as_bool() ? "true" : "false");
  line("Load", FileSize(Number(*node, "load_bytes")));
  line("Generation No", Text(*node, "generation"));
  line("Uptime (seconds)", Text(*node, "uptime_seconds"));
  line("Heap Memory (MB)",
       fmt::format("{:.2f} / n/a", static_cast<double>(Number(*node, "resident_bytes")) / 1048576));
  line("Off Heap Memory (MB)", "n/a");
  line("Data Center", Text(*node, "data_center"));
  line("Rack", Text(*node, "rack"));
  line("Exceptions", "n/a");
  line("Key Cache", "n/a");
  // Older servers send no row cache.
  if (const json::value* rows = node->if_contains("row_cache"); rows != nullptr) {
    const json::object& row_cache = rows->as_object();
    const uint64_t hits = Number(row_cache, "hits");
    const uint64_t requests = Number(row_cache, "requests");
    line("Row Cache",
         fmt::format(
             "entries {}, size {}, capacity {}, {} hits, {} requests, {:.3f} recent hit "
             "rate, 0 save period in seconds",
             Number(row_cache, "entries"), FileSize(Number(row_cache, "used_bytes")),
             FileSize(Number(row_cache, "capacity_bytes")), hits, requests,
             requests > 0 ? static_cast<double>(hits) / static_cast<double>(requests) : 0.0));
  } else {
    line("Row Cache", "n/a");
  }
  line("Counter Cache", "n/a");
  line("Chunk Cache",
       fmt::format("entries n/a, size {}, capacity {}, n/a misses, n/a requests, n/a recent hit "
                   "rate, n/a microseconds miss latency",
                   FileSize(Number(cache, "used_bytes")),
                   FileSize(Number(cache, "capacity_bytes"))));
  line("Percent Repaired", "n/a");
  const json::array& tokens = node->at("tokens").as_array();
  if (tokens.size() == 1 || context.invocation().tokens) {
    for (const json::value& token : tokens) line("Token", std::string(token.as_string()));
  } else {
    line("Token", fmt::format("(invoke with -T/--tokens to see all {} tokens)", tokens.size()));
  }
  return kOk;
}

int Version(const Context& context) {
  auto node = context.Call("GET", "/api/v1/node");
  if (!node) return kFailed;
  std::printf("ReleaseVersion: %s\n", Text(*node, "release_version").c_str());
  return kOk;
}

// "SimpleStrategy {replication_factor=1}" from a keyspace's replication map.
std::string Replication(const json::object& replication) {
  std::string strategy = Text(replication, "class");
  strategy = strategy.substr(strategy.rfind('.') + 1);
  std::vector<std::string> options;
  for (const json::key_value_pair& entry : replication) {
    std::string_view key = entry.key();
    if (key != "class") options.push_back(fmt::format("{}={}", key, Text(replication, key)));
  }
  return fmt::format("{} {{{}}}", strategy, fmt::join(options, ", "));
}

int DescribeCluster(const Context& context) {
  auto node = context.Call("GET", "/api/v1/node");
  if (!node) return kFailed;
  std::string address = Text(*node, "listen_address");
  std::printf(
      "Cluster Information:\n\tName: %s\n\tSnitch: n/a\n\tDynamicEndPointSnitch: disabled\n"
      "\tPartitioner: %s\n\tSchema versions:\n\t\t%s: [%s]\n\n",
      Text(*node, "cluster_name").c_str(), Text(*node, "partitioner").c_str(),
      Text(*node, "schema_version").c_str(), address.c_str());
  std::printf(
      "Stats for all nodes:\n\tLive: 1\n\tJoining: 0\n\tMoving: 0\n\tLeaving: 0\n"
      "\tUnreachable: 0\n\n");
  std::printf("Data Centers: \n\t%s #Nodes: 1 #Down: 0\n\n", Text(*node, "data_center").c_str());
  std::printf("Database versions:\n\t%s: [%s]\n\n", Text(*node, "release_version").c_str(),
              address.c_str());
  std::printf("Keyspaces:\n");
  for (const json::value& keyspace : node->at("keyspaces").as_array()) {
    const json::object& object = keyspace.as_object();
    std::printf("\t%s -> Replication class: %s\n", Text(object, "name").c_str(),
                Replication(object.at("replication").as_object()).c_str());
  }
  return kOk;
}

int Flush(const Context& context) {
  return context.Call("POST", "/api/v1/flush", TableSelection(context)) ? kOk : kFailed;
}

int Compact(const Context& context) {
  return context.Call("POST", "/api/v1/compact", TableSelection(context)) ? kOk : kFailed;
}

int GarbageCollect(const Context& context) {
  return context.Call("POST", "/api/v1/garbagecollect", TableSelection(context)) ? kOk : kFailed;
}

json::array Strings(const std::vector<std::string>& values) {
  json::array array;
  for (const std::string& value : values) array.emplace_back(value);
  return array;
}

int Snapshot(const Context& context) {
  std::string tag = context.invocation().tag;
  if (tag.empty()) {
    tag = std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count());
  }
  std::printf(
      "Requested creating snapshot(s) for %s with snapshot name [%s] and options "
      "{skipFlush=false}\n",
      KeyspaceList(context.arguments()).c_str(), tag.c_str());
  std::fflush(stdout);
  json::object body{{"tag", tag}, {"keyspaces", Strings(context.arguments())}};
  if (!context.Call("POST", "/api/v1/snapshots", body)) return kFailed;
  std::printf("Snapshot directory: %s\n", tag.c_str());
  return kOk;
}

int ListSnapshots(const Context& context) {
  auto answer = context.Call("GET", "/api/v1/snapshots");
  if (!answer) return kFailed;
  const json::array& snapshots = answer->at("snapshots").as_array();
  if (snapshots.empty()) {
    std::printf("Snapshot Details: \nThere are no snapshots\n");
    return kOk;
  }
  std::vector<std::vector<std::string>> rows = {{"Snapshot name", "Keyspace name",
                                                 "Column family name", "True size", "Size on disk",
                                                 "Creation time"}};
  uint64_t total_true = 0;
  for (const json::value& snapshot : snapshots) {
    const json::object& object = snapshot.as_object();
    for (const json::value& table : object.at("tables").as_array()) {
      const json::object& figures = table.as_object();
      total_true += Number(figures, "true_bytes");
      rows.push_back({Text(object, "tag"), Text(figures, "keyspace"), Text(figures, "table"),
                      FileSize(Number(figures, "true_bytes")),
                      FileSize(Number(figures, "disk_bytes")), Text(object, "created_at")});
    }
  }
  std::printf("Snapshot Details: \n");
  PrintTable(rows, " ");
  std::printf("\nTotal TrueDiskSpaceUsed: %s\n\n", FileSize(total_true).c_str());
  return kOk;
}

int ClearSnapshot(const Context& context) {
  const Invocation& invocation = context.invocation();
  if (invocation.tag.empty() && !invocation.all) {
    std::fprintf(stderr, "error: Specify snapshot name or --all\n");
    return kFailed;
  }
  if (!invocation.tag.empty() && invocation.all) {
    std::fprintf(stderr, "error: Specify only one of snapshot name or --all\n");
    return kFailed;
  }
  std::string which =
      invocation.all ? "[all snapshots]" : fmt::format("snapshot name [{}]", invocation.tag);
  std::printf("Requested clearing snapshot(s) for %s with %s\n",
              KeyspaceList(context.arguments()).c_str(), which.c_str());
  std::fflush(stdout);
  json::object body{{"keyspaces", Strings(context.arguments())}};
  if (invocation.all) body["all"] = true;
  if (!invocation.tag.empty()) body["tag"] = invocation.tag;
  return context.Call("DELETE", "/api/v1/snapshots", body) ? kOk : kFailed;
}

int Drain(const Context& context) { return context.Call("POST", "/api/v1/drain") ? kOk : kFailed; }

int GetLoggingLevels(const Context& context) {
  auto answer = context.Call("GET", "/api/v1/logging");
  if (!answer) return kFailed;
  std::printf("\n%-50s%10s\n", "Logger Name", "Log Level");
  const json::object& levels = answer->at("levels").as_object();
  for (const json::key_value_pair& entry : levels) {
    std::printf("%-50s%10s\n", std::string(entry.key()).c_str(), Text(levels, entry.key()).c_str());
  }
  return kOk;
}

int SetLoggingLevel(const Context& context) {
  const auto& arguments = context.arguments();
  json::object body;
  if (arguments.size() == 1) {  // nodetool: a lone argument is the level of the root logger
    body["logger"] = "ROOT";
    body["level"] = arguments[0];
  } else if (arguments.size() == 2) {
    body["logger"] = arguments[0].empty() ? "ROOT" : arguments[0];
    body["level"] = arguments[1];
  }
  return context.Call("PUT", "/api/v1/logging", body) ? kOk : kFailed;
}

// nodetool enableauditlog [--included-categories DDL,DCL ...]: prints nothing on success.
int EnableAuditLog(const Context& context) {
  json::object body;
  for (const auto& [key, value] : context.invocation().audit_options) {
    if (key == "block") {
      if (value != "true" && value != "false" && value != "TRUE" && value != "FALSE") {
        std::fprintf(stderr, "error: Invalid [%s]. Blocking only accepts 'true' or 'false'.\n",
                     value.c_str());
        return kFailed;
      }
      body[key] = value == "true" || value == "TRUE";
    } else if (key == "max_queue_weight" || key == "max_log_size" || key == "max_archive_retries") {
      char* end = nullptr;
      long long number = std::strtoll(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0') {
        std::fprintf(stderr, "error: %s must be a number, not '%s'\n", key.c_str(), value.c_str());
        return kFailed;
      }
      body[key] = number;
    } else {
      body[key] = value;
    }
  }
  return context.Call("POST", "/api/v1/auditlog", body) ? kOk : kFailed;
}

int DisableAuditLog(const Context& context) {
  return context.Call("DELETE", "/api/v1/auditlog") ? kOk : kFailed;
}

// nodetool getauditlog: the options in force, or the configured ones while disabled, as a
// two-column table.
int GetAuditLog(const Context& context) {
  auto answer = context.Call("GET", "/api/v1/auditlog");
  if (!answer) return kFailed;
  std::vector<std::vector<std::string>> rows;
  for (const char* key :
       {"enabled", "logger", "audit_logs_dir", "block", "max_log_size", "max_queue_weight",
        "included_keyspaces", "excluded_keyspaces", "included_categories", "excluded_categories",
        "included_users", "excluded_users"}) {
    rows.push_back({key, Text(*answer, key)});
  }
  PrintTable(rows, " ");
  return kOk;
}

double Real(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  if (value == nullptr || value->is_null()) return std::nan("");
  if (value->is_double()) return value->get_double();
  if (value->is_int64()) return static_cast<double>(value->get_int64());
  if (value->is_uint64()) return static_cast<double>(value->get_uint64());
  return std::nan("");
}

// "0.047 ms" or "NaN ms", as nodetool prints latencies.
std::string Millis(double value) {
  return std::isnan(value) ? "NaN ms" : fmt::format("{:.3f} ms", value);
}

// Whether `table` (a tablestats entry) is named by `filters` ("ks" or "ks.table"; none: all).
bool Selected(const json::object& table, const std::vector<std::string>& filters) {
  if (filters.empty()) return true;
  std::string keyspace = Text(table, "keyspace");
  for (const std::string& filter : filters) {
    if (filter == keyspace || filter == keyspace + "." + Text(table, "table")) return true;
  }
  return false;
}

void PrintTableStats(const json::object& t) {
  std::string levels;
  for (const json::value& files : t.at("sstables_per_level").as_array()) {
    levels += (levels.empty() ? "" : ", ") + json::serialize(files);
  }
  std::printf("\t\tTable: %s\n", Text(t, "table").c_str());
  std::printf("\t\tSSTable count: %llu\n",
              static_cast<unsigned long long>(Number(t, "sstable_count")));
  std::printf("\t\tSSTables in each level: [%s]\n", levels.c_str());
  for (const auto& [label, key] : std::initializer_list<std::pair<const char*, const char*>>{
           {"Space used (live)", "space_used_live_bytes"},
           {"Space used (total)", "space_used_total_bytes"},
           {"Number of partitions (estimate)", "estimated_partition_count"},
           {"Memtable cell count", "memtable_cell_count"},
           {"Memtable data size", "memtable_data_bytes"},
           {"Local read count", nullptr},
           {"Local write count", nullptr},
           {"Pending flushes", "pending_flushes"},
           {"Bloom filter space used", "bloom_filter_space_used_bytes"},
           {"Compacted partition minimum bytes", "partition_min_bytes"},
           {"Compacted partition maximum bytes", "partition_max_bytes"},
           {"Compacted partition mean bytes", "partition_mean_bytes"}}) {
    if (key == nullptr) {
      bool reads = std::string_view(label) == "Local read count";
      std::printf("\t\t%s: %llu\n", label,
                  static_cast<unsigned long long>(
                      Number(t, reads ? "local_read_count" : "local_write_count")));
      std::printf(
          "\t\t%s: %s\n", reads ? "Local read latency" : "Local write latency",
          Millis(Real(t, reads ? "local_read_latency_ms" : "local_write_latency_ms")).c_str());
      continue;
    }
    std::printf("\t\t%s: %llu\n", label, static_cast<unsigned long long>(Number(t, key)));
  }
  std::printf("\t\tSSTable Compression Ratio: %.5f\n", Real(t, "compression_ratio"));
  std::printf("\t\tAverage rows per partition: %.1f\n\n", Real(t, "mean_rows_per_partition"));
}

// nodetool tablestats [ks[.table]...]: per keyspace, its totals, then each table's figures.
int TableStats(const Context& context) {
  auto answer = context.Call("GET", "/api/v1/tablestats");
  if (!answer) return kFailed;
  std::vector<const json::object*> tables;
  for (const json::value& table : answer->at("tables").as_array()) {
    if (Selected(table.as_object(), context.arguments())) tables.push_back(&table.as_object());
  }
  for (const std::string& filter : context.arguments()) {
    bool found = std::any_of(tables.begin(), tables.end(),
                             [&](const json::object* t) { return Selected(*t, {filter}); });
    if (!found) {
      std::fprintf(stderr, "error: Unknown keyspace or table: %s\n", filter.c_str());
      return kFailed;
    }
  }
  std::printf("Total number of tables: %zu\n----------------\n", tables.size());
  for (size_t i = 0; i < tables.size();) {
    std::string keyspace = Text(*tables[i], "keyspace");
    size_t end = i;
    uint64_t reads = 0, writes = 0, pending = 0;
    double read_ms = 0, write_ms = 0;
    for (; end < tables.size() && Text(*tables[end], "keyspace") == keyspace; ++end) {
      const json::object& t = *tables[end];
      reads += Number(t, "local_read_count");
      writes += Number(t, "local_write_count");
      pending += Number(t, "pending_flushes");
      if (!std::isnan(Real(t, "local_read_latency_ms")))
        read_ms +=
            Real(t, "local_read_latency_ms") * static_cast<double>(Number(t, "local_read_count"));
      if (!std::isnan(Real(t, "local_write_latency_ms")))
        write_ms +=
            Real(t, "local_write_latency_ms") * static_cast<double>(Number(t, "local_write_count"));
    }
    std::printf(
        "Keyspace : %s\n\tRead Count: %llu\n\tRead Latency: %s\n\tWrite Count: %llu\n"
        "\tWrite Latency: %s\n\tPending Flushes: %llu\n",
        keyspace.c_str(), static_cast<unsigned long long>(reads),
        Millis(reads == 0 ? std::nan("") : read_ms / static_cast<double>(reads)).c_str(),
        static_cast<unsigned long long>(writes),
        Millis(writes == 0 ? std::nan("") : write_ms / static_cast<double>(writes)).c_str(),
        static_cast<unsigned long long>(pending));
    for (; i < end; ++i) PrintTableStats(*tables[i]);
    std::printf("----------------\n");
  }
  return kOk;
}

// `text` for a URL query value.
std::string PercentEncode(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '_' || c == '-' || c == '.') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

// nodetool tablehistograms ks table (or ks.table): percentiles of latencies and partitions.
int TableHistograms(const Context& context) {
  std::vector<std::string> names = context.arguments();
  if (names.size() == 1 && names[0].find('.') != std::string::npos) {
    std::string joined = names[0];
    names = {joined.substr(0, joined.find('.')), joined.substr(joined.find('.') + 1)};
  }
  if (names.size() != 2) {
    std::fprintf(stderr, "error: tablehistograms requires keyspace and table name arguments\n");
    return kUsage;
  }
  auto answer = context.Call("GET", fmt::format("/api/v1/tablehistograms?keyspace={}&table={}",
                                                PercentEncode(names[0]), PercentEncode(names[1])));
  if (!answer) return kFailed;
  std::printf("%s/%s histograms\n", names[0].c_str(), names[1].c_str());
  std::printf("%-10s%18s%18s%18s%18s\n", "Percentile", "Read Latency", "Write Latency",
              "Partition Size", "Cell Count");
  std::printf("%-10s%18s%18s%18s%18s\n", "", "(micros)", "(micros)", "(bytes)", "");
  for (const json::value& row : answer->at("rows").as_array()) {
    const json::object& r = row.as_object();
    std::printf("%-10s%18.2f%18.2f%18.0f%18.0f\n", Text(r, "percentile").c_str(),
                Real(r, "read_latency_micros"), Real(r, "write_latency_micros"),
                Real(r, "partition_size_bytes"), Real(r, "cell_count"));
  }
  std::printf("\n");
  return kOk;
}

int GetTraceProbability(const Context& context) {
  auto answer = context.Call("GET", "/api/v1/traceprobability");
  if (!answer) return kFailed;
  std::printf("Current trace probability: %s\n",
              fmt::format("{}", Real(*answer, "probability")).c_str());
  return kOk;
}

// nodetool settraceprobability <value>: 0 (off) to 1 (every request).
int SetTraceProbability(const Context& context) {
  const std::string& text = context.arguments().empty() ? "" : context.arguments()[0];
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value >= 0 && value <= 1)) {
    std::fprintf(stderr, "error: Trace probability must be between 0 and 1\n");
    return kFailed;
  }
  return context.Call("PUT", "/api/v1/traceprobability", json::object{{"probability", value}})
             ? kOk
             : kFailed;
}

struct Command {
  const char* name;
  const char* usage;  // after the command name
  size_t max_arguments;
  int (*run)(const Context&);
  // Whether the command may rightly take long (a compaction, a flush of every table, a drain):
  // it then waits for the answer without a limit unless --timeout is given.
  bool long_running = false;
};

constexpr size_t kAny = 1000;

constexpr Command kCommands[] = {
    {"status", "", 0, NodeStatus},
    {"info", "[-T]", 0, Info},
    {"version", "", 0, Version},
    {"describecluster", "", 0, DescribeCluster},
    {"flush", "[keyspace [table...]]", kAny, Flush, true},
    {"compact", "[keyspace [table...]]", kAny, Compact, true},
    {"garbagecollect", "[keyspace [table...]]", kAny, GarbageCollect, true},
    {"snapshot", "[-t tag] [keyspace...]", kAny, Snapshot, true},
    {"listsnapshots", "", 0, ListSnapshots},
    {"clearsnapshot", "(-t tag | --all) [keyspace...]", kAny, ClearSnapshot},
    {"tablestats", "[keyspace[.table]...]", kAny, TableStats},
    {"tablehistograms", "<keyspace> <table> | <keyspace.table>", 2, TableHistograms},
    {"settraceprobability", "<value>", 1, SetTraceProbability},
    {"gettraceprobability", "", 0, GetTraceProbability},
    {"drain", "", 0, Drain, true},
    {"getlogginglevels", "", 0, GetLoggingLevels},
    {"setlogginglevel", "[ROOT] [TRACE|DEBUG|INFO|WARN|ERROR|OFF]", 2, SetLoggingLevel},
    {"enableauditlog",
     "[--logger FileAuditLogger] [--included-keyspaces L] [--excluded-keyspaces L]\n"
     "      [--included-categories L] [--excluded-categories L] [--included-users L]\n"
     "      [--excluded-users L] [--max-log-size BYTES] [--max-queue-weight BYTES]\n"
     "      [--blocking false]",
     0, EnableAuditLog},
    {"disableauditlog", "", 0, DisableAuditLog},
    {"getauditlog", "", 0, GetAuditLog},
};

void Usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: cqld admin [--host H] [--admin-port N] [-u USER [-pw PASSWORD | -pwf FILE]]\n"
      "                  COMMAND [ARGS]\n"
      "\n"
      "  --host H, -h H        cqld's admin address (default 127.0.0.1)\n"
      "  --admin-port N, -p N  its admin port (default 9180)\n"
      "  --timeout SECONDS     give up when the answer takes longer; 0 = wait for ever\n"
      "                        (default 60, and no limit for flush, compact,\n"
      "                        garbagecollect, snapshot and drain)\n"
      "  -u USER               a superuser role, with the PasswordAuthenticator\n"
      "  -pw PASSWORD          its password (visible in `ps`: prefer the two below)\n"
      "  -pwf FILE             read the password from FILE (its first line, or the\n"
      "                        line `USER PASSWORD` as nodetool's password file)\n"
      "  $CQLD_ADMIN_PASSWORD  the password, when neither -pw nor -pwf is given\n"
      "\n"
      "Commands (nodetool's; docs/operations.md):\n");
  for (const Command& command : kCommands)
    std::fprintf(out, "  %s %s\n", command.name, command.usage);
  std::fprintf(out, "\nExit status: 0; 1 on an error; 2 on a usage error.\n");
}

int UsageError(const std::string& message) {
  std::fprintf(stderr, "cqld admin: %s\n", message.c_str());
  Usage(stderr);
  return kUsage;
}

// The password of `user` in a password file: its first line, or the value of the line
// "USER PASSWORD". nullopt when the file cannot be read.
std::optional<std::string> ReadPasswordFile(const std::string& path, const std::string& user) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::string line;
  std::optional<std::string> first;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!first) first = line;
    size_t space = line.find_first_of(" \t");
    if (space != std::string::npos && line.substr(0, space) == user) {
      return line.substr(line.find_first_not_of(" \t", space));
    }
  }
  return first.value_or("");
}

// Parses argv into `invocation`; an exit status to leave with, or nullopt to go on.
std::optional<int> ParseAdmin(int argc, char** argv, Invocation* invocation) {
  std::optional<std::string> password;
  std::optional<std::string> password_file;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string text;
    if (arg == "--help") {
      Usage(stdout);
      return kOk;
    } else if (arg == "--host" || arg == "-h") {
      if (!value(&invocation->endpoint.host)) return UsageError(arg + " needs a value");
    } else if (arg == "--admin-port" || arg == "-p" || arg == "--port") {
      if (!value(&text)) return UsageError(arg + " needs a value");
      char* end = nullptr;
      long port = std::strtol(text.c_str(), &end, 10);
      if (*end != '\0' || port < 1 || port > 65535) return UsageError("bad port '" + text + "'");
      invocation->endpoint.port = static_cast<uint16_t>(port);
    } else if (arg == "--timeout") {
      if (!value(&text)) return UsageError(arg + " needs a value");
      char* end = nullptr;
      long seconds = std::strtol(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || seconds < 0 || seconds > 86400 * 365) {
        return UsageError("bad timeout '" + text + "'");
      }
      invocation->timeout = std::chrono::seconds(seconds);
    } else if (arg == "-u" || arg == "--username") {
      if (!value(&text)) return UsageError(arg + " needs a value");
      invocation->endpoint.user = text;
    } else if (arg == "-pw" || arg == "--password") {
      if (!value(&text)) return UsageError(arg + " needs a value");
      password = text;
    } else if (arg == "-pwf" || arg == "--password-file") {
      if (!value(&text)) return UsageError(arg + " needs a value");
      password_file = text;
    } else if (arg == "-t" || arg == "--tag") {
      if (!value(&invocation->tag)) return UsageError(arg + " needs a value");
    } else if (arg == "--all") {
      invocation->all = true;
    } else if (arg == "-T" || arg == "--tokens") {
      invocation->tokens = true;
    } else if (const AuditOption* option = FindAuditOption(arg)) {
      if (!value(&text)) return UsageError(arg + " needs a value");
      invocation->audit_options.emplace_back(option->key, text);
    } else if (arg.size() > 1 && arg[0] == '-') {
      return UsageError("unknown option '" + arg + "'");
    } else if (invocation->command.empty()) {
      invocation->command = arg;
    } else {
      invocation->arguments.push_back(arg);
    }
  }
  if (invocation->command.empty()) return UsageError("a command is needed");
  if (invocation->endpoint.user) {
    if (password_file) {
      password = ReadPasswordFile(*password_file, *invocation->endpoint.user);
      if (!password) {
        std::fprintf(stderr, "cqld admin: cannot read %s\n", password_file->c_str());
        return kFailed;
      }
    } else if (!password) {
      if (const char* env = std::getenv("CQLD_ADMIN_PASSWORD")) password = env;
    }
    if (!password) return UsageError("-u needs a password (-pw, -pwf or $CQLD_ADMIN_PASSWORD)");
    invocation->endpoint.password = *password;
  }
  return std::nullopt;
}

}  // namespace

int RunAdmin(int argc, char** argv) {
  Invocation invocation;
  if (std::optional<int> exit = ParseAdmin(argc, argv, &invocation)) return *exit;
  for (const Command& command : kCommands) {
    if (invocation.command != command.name) continue;
    if (invocation.arguments.size() > command.max_arguments) {
      return UsageError(fmt::format("too many arguments for {}", command.name));
    }
    if (!invocation.audit_options.empty() && invocation.command != "enableauditlog") {
      return UsageError(fmt::format("{} takes no audit log options", command.name));
    }
    if (invocation.timeout) {
      invocation.endpoint.timeout = *invocation.timeout;
    } else if (command.long_running) {
      invocation.endpoint.timeout = std::chrono::milliseconds(0);
    }
    return command.run(Context(invocation));
  }
  return UsageError("unknown command '" + invocation.command + "'");
}

}  // namespace cqld
