// The server's part of system_views (`system_views_source.h`).

#include "server/system_views_source.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "server/server.h"

namespace server {
namespace {

using Settings = std::map<std::string, std::optional<std::string>>;

std::string Bool(bool value) { return value ? "true" : "false"; }

std::optional<std::string> PathOrNull(const std::string& path) {
  if (path.empty()) return std::nullopt;
  return path;
}

Settings ServerSettings(const ServerOptions& options, uint16_t port) {
  Settings settings;
  settings["native_transport_port"] = std::to_string(port);
  settings["rpc_address"] = options.address;
  settings["start_native_transport"] = "true";
  settings["native_transport_max_concurrent_connections"] = std::to_string(options.max_connections);
  const size_t frame_mib = options.max_envelope_body >> 20;
  settings["native_transport_max_frame_size"] = fmt::format("{}MiB", frame_mib);
  settings["native_transport_max_frame_size_in_mb"] = std::to_string(frame_mib);
  const int64_t idle_ms = options.idle_timeout.count();
  settings["native_transport_idle_timeout"] = fmt::format("{}ms", idle_ms);
  settings["native_transport_idle_timeout_in_ms"] = std::to_string(idle_ms);
  // client_encryption_options: 4.1's dotted names, and 4.0's for `enabled`.
  const TlsOptions& tls = options.tls;
  settings["client_encryption_options.enabled"] = Bool(tls.enabled);
  settings["client_encryption_options_enabled"] = Bool(tls.enabled);
  settings["client_encryption_options.optional"] = Bool(tls.enabled && tls.optional);
  settings["client_encryption_options.require_client_auth"] = Bool(tls.require_client_auth);
  settings["client_encryption_options.certificate"] = PathOrNull(tls.certificate_file);
  settings["client_encryption_options.private_key"] = PathOrNull(tls.private_key_file);
  settings["client_encryption_options.truststore"] = PathOrNull(tls.truststore_file);
  // cqld's own, under their config-file names (config.h).
  settings["io-threads"] = std::to_string(options.io_threads);
  settings["max-requests-per-connection"] = std::to_string(options.max_requests_per_connection);
  settings["max-request-memory-mb"] = std::to_string(options.max_request_memory >> 20);
  settings["handshake-timeout-ms"] = std::to_string(options.handshake_timeout.count());
  return settings;
}

// audit_logging_options as in force now (`cqld admin enableauditlog` changes them), under
// 4.1's dotted names; none without an audit log.
void AddAuditSettings(const AuditLog* audit_log, Settings& settings) {
  if (audit_log == nullptr) return;
  const AuditLogOptions options = audit_log->options();
  const auto set = [&](std::string_view key, std::optional<std::string> value) {
    settings[fmt::format("audit_logging_options.{}", key)] = std::move(value);
  };
  set("enabled", Bool(audit_log->enabled()));
  set("logger.class_name", options.logger);
  set("audit_logs_dir", PathOrNull(options.audit_logs_dir));
  set("included_keyspaces", options.included_keyspaces);
  set("excluded_keyspaces", options.excluded_keyspaces);
  set("included_categories", options.included_categories);
  set("excluded_categories", options.excluded_categories);
  set("included_users", options.included_users);
  set("excluded_users", options.excluded_users);
  set("max_log_size", fmt::format("{}B", options.max_log_size));
  set("max_queue_weight", fmt::format("{}B", options.max_queue_weight));
  set("block", Bool(options.block));
}

int32_t ToInt(int64_t value) {
  return static_cast<int32_t>(std::clamp<int64_t>(value, 0, INT32_MAX));
}

}  // namespace

std::shared_ptr<const engine::SystemViewsSource> NewSystemViewsSource(
    const ServerOptions& options, uint16_t port, size_t request_threads,
    const std::shared_ptr<ConnectionRegistry>& registry,
    const std::shared_ptr<RequestActivity>& activity) {
  auto source = std::make_shared<engine::SystemViewsSource>();
  source->clients = [registry] {
    std::vector<engine::ClientInfo> clients;
    for (const std::shared_ptr<Connection>& connection : registry->Snapshot()) {
      clients.push_back(connection->Describe());
    }
    return clients;
  };
  source->settings = [settings = ServerSettings(options, port), audit_log = options.audit_log] {
    Settings now = settings;
    AddAuditSettings(audit_log, now);
    return now;
  };
  source->thread_pools = [activity, request_threads] {
    // Cassandra's name for the pool that runs CQL requests: here the io threads, or the
    // workers with durability batch (server.h). Nothing blocks in it: blocked_* stay 0.
    engine::SystemViewsSource::ThreadPoolList pools(1);
    schema::SystemViewsData::ThreadPool& pool = pools.front();
    pool.name = "Native-Transport-Requests";
    pool.active_tasks = ToInt(activity->active.load(std::memory_order_relaxed));
    pool.active_tasks_limit = ToInt(static_cast<int64_t>(request_threads));
    pool.pending_tasks = ToInt(activity->pending.load(std::memory_order_relaxed));
    pool.completed_tasks = activity->completed.load(std::memory_order_relaxed);
    return pools;
  };
  return source;
}

}  // namespace server
