// AdminApi: the admin REST API behind server/admin_server.h, which `cqld admin` calls
// (docs/operations.md §4, §5). JSON in and out; errors are `{"error": "..."}`.
//
//   GET    /metrics                  Prometheus text (no credentials, as Scylla's port 9180)
//   GET    /api/v1/node              status, info, version, describecluster: one document
//   POST   /api/v1/flush             {"keyspace": "ks", "tables": ["t"]} (both optional)
//   POST   /api/v1/compact           the same
//   POST   /api/v1/garbagecollect    the same
//   GET    /api/v1/snapshots         listsnapshots
//   POST   /api/v1/snapshots         {"tag": "t", "keyspaces": ["ks"]} (keyspaces optional)
//   DELETE /api/v1/snapshots         {"tag": "t"} or {"all": true}, and "keyspaces"
//   POST   /api/v1/drain             flush everything, stop serving CQL
//   GET    /api/v1/logging           {"levels": {"ROOT": "INFO"}}
//   PUT    /api/v1/logging           {"logger": "ROOT", "level": "DEBUG"} ({} resets)
//   GET    /api/v1/auditlog          getauditlog: {"enabled": false, "logger": ..., ...}
//   POST   /api/v1/auditlog          enableauditlog: {"included_categories": "DDL,DCL", ...}
//                                    (audit_logging_options' names; missing: the configured)
//   DELETE /api/v1/auditlog          disableauditlog
//
// Adding a command is one member function and one row of the table in admin_api.cc.
//
// Credentials: with the PasswordAuthenticator every /api/v1 call needs HTTP Basic credentials
// of a superuser, checked by Database::Authenticate as a CQL login is (bcrypt): 401 with
// `WWW-Authenticate: Basic` without or with wrong ones, 403 for a role that is not a superuser.
// Passwords are never logged. Without an authenticator no credentials are needed.
//
// Status codes: 400 for bad arguments (Invalid), 404 for an unknown path, 405 for a known path
// with another method, 409 for a snapshot that exists, 507 for a full disk (WriteFailure), 500
// otherwise.
//
// Thread-safety: Handle is thread-safe (AdminServer calls it from its workers).

#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "common/logging.h"
#include "engine/database.h"
#include "engine/node_operations.h"
#include "server/admin_server.h"
#include "server/audit_log.h"

namespace server {

struct AdminApiOptions {
  // REQUIRES: outlives the AdminApi.
  engine::Database* database = nullptr;
  // When the process started (uptime).
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  // The CQL listener's address and port, as `status` shows them.
  std::string native_address = "127.0.0.1";
  uint16_t native_port = 9042;
  // Stops the CQL server (drain); called once, from a worker thread.
  std::function<void()> stop_native_transport;
  // The audit log the auditlog calls control; nullptr: none (they answer 404). REQUIRES:
  // outlives the AdminApi.
  AuditLog* audit_log = nullptr;
};

class AdminApi {
 public:
  explicit AdminApi(AdminApiOptions options);

  AdminResponse Handle(const AdminRequest& request);

  // The JSON error answer of an engine status (see the header for the codes).
  static AdminResponse StatusAnswer(const common::Status& status);

 private:
  using Endpoint = AdminResponse (AdminApi::*)(const AdminRequest&);
  struct Route {
    const char* method;
    const char* path;
    Endpoint endpoint;
    bool needs_login;
  };
  static const Route kRoutes[];

  // nullopt when the request may go on; else the 401/403 answer.
  std::optional<AdminResponse> CheckLogin(const AdminRequest& request) const;

  AdminResponse Metrics(const AdminRequest& request);
  AdminResponse Node(const AdminRequest& request);
  AdminResponse Flush(const AdminRequest& request);
  AdminResponse Compact(const AdminRequest& request);  // compact and garbagecollect
  AdminResponse TableOperation(const AdminRequest& request, bool compact);
  AdminResponse ListSnapshots(const AdminRequest& request);
  AdminResponse TakeSnapshot(const AdminRequest& request);
  AdminResponse ClearSnapshots(const AdminRequest& request);
  AdminResponse Drain(const AdminRequest& request);
  AdminResponse TableStats(const AdminRequest& request);
  AdminResponse TableHistograms(const AdminRequest& request);
  AdminResponse GetTraceProbability(const AdminRequest& request);
  AdminResponse SetTraceProbability(const AdminRequest& request);
  AdminResponse GetLogging(const AdminRequest& request);
  AdminResponse SetLogging(const AdminRequest& request);
  AdminResponse GetAuditLog(const AdminRequest& request);
  AdminResponse EnableAuditLog(const AdminRequest& request);
  AdminResponse DisableAuditLog(const AdminRequest& request);

  AdminApiOptions options_;
  engine::NodeOperations operations_;
  const common::LogLevel initial_level_;
  std::atomic<bool> drained_{false};
};

}  // namespace server
