#include "server/admin_api.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <boost/json.hpp>

#include "common/base64.h"
#include "common/logging.h"
#include "common/metrics.h"
#include "engine/table_statistics.h"

namespace server {

namespace json = boost::json;
using common::Status;
using common::StatusCode;

namespace {

AdminResponse JsonAnswer(const json::value& body, int status = 200) {
  return AdminResponse{status, "application/json", json::serialize(body) + "\n", {}};
}

// The body as a JSON object ({} when empty); nullopt when it is not one.
std::optional<json::object> BodyObject(const AdminRequest& request) {
  if (request.body.empty()) return json::object();
  boost::system::error_code error;
  json::value value = json::parse(request.body, error);
  if (error || !value.is_object()) return std::nullopt;
  return std::move(value.get_object());
}

// The string member `key` ("" when missing); false when it is there but not a string.
bool ReadString(const json::object& object, std::string_view key, std::string* out) {
  const json::value* value = object.if_contains(key);
  if (value == nullptr || value->is_null()) return true;
  if (!value->is_string()) return false;
  *out = std::string(value->get_string());
  return true;
}

// The array of strings `key` (empty when missing); false when it is not one.
bool ReadStrings(const json::object& object, std::string_view key, std::vector<std::string>* out) {
  const json::value* value = object.if_contains(key);
  if (value == nullptr || value->is_null()) return true;
  if (!value->is_array()) return false;
  for (const json::value& item : value->get_array()) {
    if (!item.is_string()) return false;
    out->emplace_back(item.get_string());
  }
  return true;
}

// The string members of enableauditlog's body, in getauditlog's order.
constexpr std::string_view kAuditLists[] = {"included_keyspaces",  "excluded_keyspaces",
                                            "included_categories", "excluded_categories",
                                            "included_users",      "excluded_users"};

std::string* AuditList(AuditLogOptions* options, std::string_view key) {
  if (key == "included_keyspaces") return &options->included_keyspaces;
  if (key == "excluded_keyspaces") return &options->excluded_keyspaces;
  if (key == "included_categories") return &options->included_categories;
  if (key == "excluded_categories") return &options->excluded_categories;
  if (key == "included_users") return &options->included_users;
  return &options->excluded_users;
}

// enableauditlog's body over `options` (the configured ones): what is given replaces them.
// Returns an error message or "".
std::string ReadAuditOptions(const json::object& body, AuditLogOptions* options) {
  for (std::string_view unsupported : {"archive_command", "max_archive_retries", "roll_cycle"}) {
    if (body.contains(unsupported)) {
      return fmt::format(
          "{} is not supported: cqld's audit log is one text file rotated by size (max_log_size)",
          unsupported);
    }
  }
  if (!ReadString(body, "logger", &options->logger)) return "logger must be a string";
  for (std::string_view key : kAuditLists) {
    if (!ReadString(body, key, AuditList(options, key)))
      return fmt::format("{} must be a string", key);
  }
  for (std::string_view key : {"max_log_size", "max_queue_weight"}) {
    const json::value* value = body.if_contains(key);
    if (value == nullptr || value->is_null()) continue;
    if (!value->is_int64() && !value->is_uint64()) return fmt::format("{} must be a number", key);
    if (value->is_int64() && value->get_int64() <= 0)
      return fmt::format("{} must be positive", key);
    uint64_t number =
        value->is_uint64() ? value->get_uint64() : static_cast<uint64_t>(value->get_int64());
    (key == "max_log_size" ? options->max_log_size : options->max_queue_weight) = number;
  }
  if (const json::value* block = body.if_contains("block"); block != nullptr && !block->is_null()) {
    if (!block->is_bool()) return "block must be true or false";
    options->block = block->get_bool();
  }
  return "";
}

AdminResponse BadBody(std::string_view expected) {
  return AdminError(400, fmt::format("The body must be a JSON object {}", expected));
}

// The resident set size of this process in bytes (0 when unknown).
uint64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  uint64_t resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// The value of `name` in a query string ("a=1&b=2"), percent-decoded; "" when absent.
std::string QueryValue(std::string_view query, std::string_view name) {
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    size_t equals = pair.find('=');
    if (pair.substr(0, equals) != name || equals == std::string_view::npos) continue;
    std::string out;
    std::string_view value = pair.substr(equals + 1);
    for (size_t i = 0; i < value.size(); ++i) {
      if (value[i] == '%' && i + 2 < value.size() &&
          std::isxdigit(static_cast<unsigned char>(value[i + 1])) &&
          std::isxdigit(static_cast<unsigned char>(value[i + 2]))) {
        out += static_cast<char>(std::stoi(std::string(value.substr(i + 1, 2)), nullptr, 16));
        i += 2;
      } else {
        out += value[i] == '+' ? ' ' : value[i];
      }
    }
    return out;
  }
  return "";
}

// A double as JSON: null for NaN (no reads yet), as nodetool's "NaN".
json::value Real(double value) {
  return std::isnan(value) ? json::value(nullptr) : json::value(value);
}

json::object TableStatsJson(const engine::TableStatisticsResult& t) {
  json::array levels;
  for (uint64_t files : t.sstables_per_level) levels.emplace_back(files);
  return json::object{{"keyspace", t.keyspace},
                      {"table", t.table},
                      {"is_view", t.is_view},
                      {"sstable_count", t.sstable_count},
                      {"sstables_per_level", levels},
                      {"space_used_live_bytes", t.space_used_live_bytes},
                      {"space_used_total_bytes", t.space_used_total_bytes},
                      {"memtable_data_bytes", t.memtable_data_bytes},
                      {"memtable_cell_count", t.memtable_cell_count},
                      {"estimated_partition_count", t.estimated_partition_count},
                      {"partition_min_bytes", t.partition_min_bytes},
                      {"partition_mean_bytes", t.partition_mean_bytes},
                      {"partition_max_bytes", t.partition_max_bytes},
                      {"mean_rows_per_partition", t.mean_rows_per_partition},
                      {"local_read_count", t.local_read_count},
                      {"local_read_latency_ms", Real(t.local_read_latency_ms)},
                      {"local_write_count", t.local_write_count},
                      {"local_write_latency_ms", Real(t.local_write_latency_ms)},
                      {"pending_flushes", t.pending_flushes},
                      {"pending_compactions", t.pending_compactions},
                      {"pending_compaction_bytes", t.pending_compaction_bytes},
                      {"bloom_filter_space_used_bytes", t.bloom_filter_space_used_bytes},
                      {"index_bytes", t.index_bytes},
                      {"sstable_entries", t.sstable_entries},
                      {"sstable_deletions", t.sstable_deletions},
                      {"compression_ratio", t.compression_ratio}};
}

}  // namespace

const AdminApi::Route AdminApi::kRoutes[] = {
    {"GET", "/metrics", &AdminApi::Metrics, false},
    {"GET", "/api/v1/node", &AdminApi::Node, true},
    {"POST", "/api/v1/flush", &AdminApi::Flush, true},
    {"POST", "/api/v1/compact", &AdminApi::Compact, true},
    {"POST", "/api/v1/garbagecollect", &AdminApi::Compact, true},
    {"GET", "/api/v1/snapshots", &AdminApi::ListSnapshots, true},
    {"POST", "/api/v1/snapshots", &AdminApi::TakeSnapshot, true},
    {"DELETE", "/api/v1/snapshots", &AdminApi::ClearSnapshots, true},
    {"POST", "/api/v1/drain", &AdminApi::Drain, true},
    {"GET", "/api/v1/tablestats", &AdminApi::TableStats, true},
    {"GET", "/api/v1/tablehistograms", &AdminApi::TableHistograms, true},
    {"GET", "/api/v1/traceprobability", &AdminApi::GetTraceProbability, true},
    {"PUT", "/api/v1/traceprobability", &AdminApi::SetTraceProbability, true},
    {"GET", "/api/v1/logging", &AdminApi::GetLogging, true},
    {"PUT", "/api/v1/logging", &AdminApi::SetLogging, true},
    {"GET", "/api/v1/auditlog", &AdminApi::GetAuditLog, true},
    {"POST", "/api/v1/auditlog", &AdminApi::EnableAuditLog, true},
    {"DELETE", "/api/v1/auditlog", &AdminApi::DisableAuditLog, true},
};

AdminApi::AdminApi(AdminApiOptions options)
    : options_(std::move(options)),
      operations_(options_.database),
      initial_level_(common::GetLogLevel()) {}

AdminResponse AdminApi::StatusAnswer(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
      return JsonAnswer(json::object());
    case StatusCode::kInvalid:
    case StatusCode::kSyntaxError:
      return AdminError(400, status.message());
    case StatusCode::kNotFound:
      return AdminError(404, status.message());
    case StatusCode::kAlreadyExists:
      return AdminError(409, status.message());
    case StatusCode::kWriteFailure:
      return AdminError(507, status.message());
    default:
      return AdminError(500, status.message());
  }
}

AdminResponse AdminApi::Handle(const AdminRequest& request) {
  bool path_known = false;
  for (const Route& route : kRoutes) {
    if (request.path != route.path) continue;
    path_known = true;
    if (request.method != route.method) continue;
    if (route.needs_login) {
      if (std::optional<AdminResponse> refusal = CheckLogin(request)) return *refusal;
    }
    return (this->*route.endpoint)(request);
  }
  if (path_known) return AdminError(405, "Method not allowed");
  return AdminError(404, "No such endpoint");
}

std::optional<AdminResponse> AdminApi::CheckLogin(const AdminRequest& request) const {
  engine::Database& database = *options_.database;
  if (database.authenticator() != engine::DatabaseOptions::Authenticator::kPassword) {
    return std::nullopt;
  }
  auto challenge = [](std::string_view message) {
    AdminResponse answer = AdminError(401, message);
    answer.headers.emplace_back("WWW-Authenticate", "Basic realm=\"cqld admin\"");
    return answer;
  };
  std::string_view header = request.authorization;
  if (header.substr(0, 6) != "Basic ") return challenge("Credentials required (HTTP Basic)");
  std::optional<std::string> pair = common::Base64Decode(header.substr(6));
  size_t colon = pair ? pair->find(':') : std::string::npos;
  if (colon == std::string::npos) return challenge("Malformed Basic credentials");
  std::string_view user = std::string_view(*pair).substr(0, colon);
  std::string_view password = std::string_view(*pair).substr(colon + 1);
  common::Result<std::string> role = database.Authenticate(user, password);
  if (!role.ok()) {
    LOG_INFO("admin: login refused: {}", role.status().message());
    return challenge(role.status().message());
  }
  if (!database.IsSuperuser(*role)) {
    return AdminError(403, fmt::format("User {} is not a superuser: only superusers may use the "
                                       "admin API",
                                       *role));
  }
  return std::nullopt;
}

AdminResponse AdminApi::Metrics(const AdminRequest&) {
  return AdminResponse{
      200, "text/plain; version=0.0.4", common::metrics::Registry::Global().RenderPrometheus(), {}};
}

AdminResponse AdminApi::Node(const AdminRequest&) {
  engine::Database& database = *options_.database;
  const schema::LocalNodeInfo& node = database.local_node();
  std::shared_ptr<const schema::Catalog> catalog = database.catalog();
  json::array tokens;
  for (const std::string& token : node.tokens) tokens.emplace_back(token);
  json::array keyspaces;
  for (const auto& [name, keyspace] : catalog->keyspaces()) {
    json::object replication;
    for (const auto& [key, value] : keyspace->replication) replication[key] = value;
    keyspaces.push_back(json::object{{"name", name}, {"replication", replication}});
  }
  storage::Store::CacheUsage cache = database.store()->BlockCacheUsage();
  engine::RowCache::Statistics rows;
  if (database.row_cache() != nullptr) rows = database.row_cache()->statistics();
  auto uptime = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() -
                                                                 options_.started);
  return JsonAnswer(json::object{
      {"host_id", node.host_id.ToString()},
      {"cluster_name", node.cluster_name},
      {"data_center", node.data_center},
      {"rack", node.rack},
      {"tokens", tokens},
      {"release_version", node.release_version},
      {"partitioner", node.partitioner},
      {"listen_address", node.listen_address},
      {"native_address", options_.native_address},
      {"native_port", options_.native_port},
      {"native_transport_active", !drained_.load()},
      {"generation", node.gossip_generation},
      {"uptime_seconds", uptime.count()},
      {"load_bytes", operations_.LoadBytes()},
      {"resident_bytes", ResidentBytes()},
      {"read_only", database.read_only()},
      {"block_cache",
       json::object{{"capacity_bytes", cache.capacity_bytes}, {"used_bytes", cache.used_bytes}}},
      {"row_cache", json::object{{"capacity_bytes", rows.capacity_bytes},
                                 {"used_bytes", rows.used_bytes},
                                 {"entries", rows.slices},
                                 {"hits", rows.hits},
                                 {"requests", rows.hits + rows.misses}}},
      {"schema_version", catalog->schema_version().ToString()},
      {"keyspaces", keyspaces}});
}

AdminResponse AdminApi::Flush(const AdminRequest& request) {
  return TableOperation(request, false);
}

AdminResponse AdminApi::Compact(const AdminRequest& request) {
  return TableOperation(request, true);
}

AdminResponse AdminApi::TableOperation(const AdminRequest& request, bool compact) {
  std::optional<json::object> body = BodyObject(request);
  std::string keyspace;
  std::vector<std::string> tables;
  if (!body || !ReadString(*body, "keyspace", &keyspace) ||
      !ReadStrings(*body, "tables", &tables)) {
    return BadBody(R"({"keyspace": "ks", "tables": ["t"]})");
  }
  if (keyspace.empty() && !tables.empty()) return AdminError(400, "Tables need a keyspace");
  return StatusAnswer(compact ? operations_.Compact(keyspace, tables)
                              : operations_.Flush(keyspace, tables));
}

AdminResponse AdminApi::ListSnapshots(const AdminRequest&) {
  auto snapshots = operations_.ListSnapshots();
  if (!snapshots.ok()) return StatusAnswer(snapshots.status());
  json::array list;
  for (const engine::SnapshotDetails& snapshot : *snapshots) {
    json::array tables;
    for (const engine::SnapshotTable& table : snapshot.tables) {
      tables.push_back(json::object{{"keyspace", table.keyspace},
                                    {"table", table.table},
                                    {"true_bytes", table.true_bytes},
                                    {"disk_bytes", table.disk_bytes}});
    }
    json::array keyspaces;
    for (const std::string& keyspace : snapshot.keyspaces) keyspaces.emplace_back(keyspace);
    list.push_back(json::object{{"tag", snapshot.tag},
                                {"created_at", snapshot.created_at},
                                {"keyspaces", keyspaces},
                                {"tables", tables}});
  }
  return JsonAnswer(json::object{{"snapshots", list}});
}

AdminResponse AdminApi::TakeSnapshot(const AdminRequest& request) {
  std::optional<json::object> body = BodyObject(request);
  std::string tag;
  std::vector<std::string> keyspaces;
  if (!body || !ReadString(*body, "tag", &tag) || !ReadStrings(*body, "keyspaces", &keyspaces)) {
    return BadBody(R"({"tag": "name", "keyspaces": ["ks"]})");
  }
  Status status = operations_.Snapshot(tag, keyspaces);
  if (!status.ok()) return StatusAnswer(status);
  return JsonAnswer(json::object{{"tag", tag}}, 201);
}

AdminResponse AdminApi::ClearSnapshots(const AdminRequest& request) {
  std::optional<json::object> body = BodyObject(request);
  std::string tag;
  std::vector<std::string> keyspaces;
  const json::value* all = body ? body->if_contains("all") : nullptr;
  if (!body || !ReadString(*body, "tag", &tag) || !ReadStrings(*body, "keyspaces", &keyspaces) ||
      (all != nullptr && !all->is_bool())) {
    return BadBody(R"({"tag": "name"} or {"all": true}, with "keyspaces": ["ks"])");
  }
  const bool everything = all != nullptr && all->get_bool();
  if (tag.empty() && !everything) return AdminError(400, "Specify snapshot name or --all");
  if (!tag.empty() && everything)
    return AdminError(400, "Specify only one of snapshot name or --all");
  auto removed = operations_.ClearSnapshots(tag, keyspaces);
  if (!removed.ok()) return StatusAnswer(removed.status());
  return JsonAnswer(json::object{{"cleared", *removed}});
}

AdminResponse AdminApi::Drain(const AdminRequest&) {
  if (!drained_.exchange(true)) {
    LOG_INFO("drain: stopping the native transport, then flushing every table");
    if (options_.stop_native_transport) options_.stop_native_transport();
  }
  Status flushed = operations_.Flush("", {});
  if (flushed.ok()) LOG_INFO("drain: done; the process waits for SIGTERM");
  return StatusAnswer(flushed);
}

// GET /api/v1/tablestats[?keyspace=ks]: every table (and view) of one keyspace or of all the
// non-system keyspaces; the tool filters by table.
AdminResponse AdminApi::TableStats(const AdminRequest& request) {
  auto tables = options_.database->AllTableStatistics(QueryValue(request.query, "keyspace"));
  if (!tables.ok()) return StatusAnswer(tables.status());
  json::array out;
  for (const engine::TableStatisticsResult& table : *tables) out.push_back(TableStatsJson(table));
  return JsonAnswer(json::object{{"tables", out}});
}

// GET /api/v1/tablehistograms?keyspace=ks&table=t: the percentile rows.
AdminResponse AdminApi::TableHistograms(const AdminRequest& request) {
  auto histograms = options_.database->TableHistograms(QueryValue(request.query, "keyspace"),
                                                       QueryValue(request.query, "table"));
  if (!histograms.ok()) return StatusAnswer(histograms.status());
  json::array rows;
  for (const engine::TableHistogramsResult::Row& row : histograms->rows) {
    rows.push_back(json::object{{"percentile", row.percentile},
                                {"read_latency_micros", row.read_latency_micros},
                                {"write_latency_micros", row.write_latency_micros},
                                {"partition_size_bytes", row.partition_size_bytes},
                                {"cell_count", row.cell_count}});
  }
  return JsonAnswer(json::object{
      {"keyspace", histograms->keyspace}, {"table", histograms->table}, {"rows", rows}});
}

AdminResponse AdminApi::GetTraceProbability(const AdminRequest&) {
  return JsonAnswer(json::object{{"probability", options_.database->TraceProbability()}});
}

// PUT /api/v1/traceprobability {"probability": 0.01}: the fraction of requests traced.
AdminResponse AdminApi::SetTraceProbability(const AdminRequest& request) {
  std::optional<json::object> body = BodyObject(request);
  const json::value* value = body ? body->if_contains("probability") : nullptr;
  if (value == nullptr || !value->is_number()) return BadBody(R"({"probability": 0.01})");
  double probability = value->to_number<double>();
  if (!(probability >= 0 && probability <= 1)) {
    return AdminError(400, "Trace probability must be between 0 and 1");
  }
  options_.database->SetTraceProbability(probability);
  LOG_INFO("trace probability set to {}", probability);
  return GetTraceProbability(request);
}

AdminResponse AdminApi::GetLogging(const AdminRequest&) {
  return JsonAnswer(json::object{
      {"levels", json::object{{"ROOT", common::LogLevelName(common::GetLogLevel())}}}});
}

AdminResponse AdminApi::SetLogging(const AdminRequest& request) {
  std::optional<json::object> body = BodyObject(request);
  std::string logger;
  std::string level;
  if (!body || !ReadString(*body, "logger", &logger) || !ReadString(*body, "level", &level)) {
    return BadBody(R"({"logger": "ROOT", "level": "DEBUG"})");
  }
  if (logger.empty() && level.empty()) {  // nodetool's reset to the configured levels
    common::SetLogLevel(initial_level_);
    return GetLogging(request);
  }
  if (!logger.empty() && logger != "ROOT") {
    return AdminError(400, fmt::format("Unknown logger '{}': cqld has one process-wide level, "
                                       "ROOT",
                                       logger));
  }
  if (std::optional<common::LogLevel> parsed = common::ParseLogLevel(level)) {
    common::SetLogLevel(*parsed);
    LOG_INFO("log level set to {} (asked for {})", common::LogLevelName(*parsed), level);
    return GetLogging(request);
  }
  return AdminError(400, fmt::format("Unknown level '{}': use TRACE, DEBUG, INFO, WARN, ERROR "
                                     "or OFF",
                                     level));
}

AdminResponse AdminApi::GetAuditLog(const AdminRequest&) {
  if (options_.audit_log == nullptr) return AdminError(404, "This server has no audit log");
  const AuditLogOptions options = options_.audit_log->options();
  json::object answer{
      {"enabled", options_.audit_log->enabled()}, {"logger", options.logger},
      {"audit_logs_dir", options.audit_logs_dir}, {"block", options.block},
      {"max_log_size", options.max_log_size},     {"max_queue_weight", options.max_queue_weight}};
  AuditLogOptions copy = options;
  for (std::string_view key : kAuditLists) answer[key] = *AuditList(&copy, key);
  return JsonAnswer(answer);
}

// POST /api/v1/auditlog {"included_categories": "DDL,DCL", ...}: nodetool enableauditlog; what
// is not given comes from the configuration (as Cassandra takes it from cassandra.yaml).
AdminResponse AdminApi::EnableAuditLog(const AdminRequest& request) {
  if (options_.audit_log == nullptr) return AdminError(404, "This server has no audit log");
  std::optional<json::object> body = BodyObject(request);
  if (!body) return BadBody(R"({"included_categories": "DDL,DCL", ...})");
  AuditLogOptions options = options_.audit_log->configured();
  if (std::string error = ReadAuditOptions(*body, &options); !error.empty()) {
    return AdminError(400, error);
  }
  Status status = options_.audit_log->Enable(options);
  if (!status.ok()) return StatusAnswer(status);
  return GetAuditLog(request);
}

AdminResponse AdminApi::DisableAuditLog(const AdminRequest& request) {
  if (options_.audit_log == nullptr) return AdminError(404, "This server has no audit log");
  options_.audit_log->Disable();
  return GetAuditLog(request);
}

}  // namespace server
