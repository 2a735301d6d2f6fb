// RequestHandler: runs the statement requests of the native protocol (QUERY, PREPARE, EXECUTE,
// BATCH) against the engine and encodes their responses (docs/dev/architecture.md §4;
// docs/compatibility.md).
//
// Pipeline: connection.h decodes an envelope into a protocol::Request; the connection handles
// the connection-level messages itself (STARTUP, OPTIONS, REGISTER) and hands the statement
// requests to `RequestHandler::Handle`, on an io thread (durability periodic) or on a worker
// thread (durability batch), because engine calls block. The encoded `Response` goes back to
// the connection, which frames it and writes it.
//
// This is the one place where engine errors become ERROR bodies (`ErrorBody`). It is also where
// logins and statements reach the audit log (audit_log.h), when one is given and enabled:
// every QUERY, PREPARE, EXECUTE and BATCH statement classified by its parsed statement, every
// failed request (ERROR category, or AUTH for Unauthorized), every login attempt. Only
// statement texts are logged (passwords obfuscated), never bound values.
//
// Thread-safety: RequestHandler is stateless apart from the Database pointer and is safe to use
// from any number of threads. SessionKeyspace is thread-safe.

#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "common/bytes.h"
#include "common/result.h"
#include "common/status.h"
#include "engine/database.h"
#include "protocol/frame.h"
#include "protocol/messages.h"
#include "server/audit_log.h"

namespace server {

// The keyspace a connection's USE set, and the role it logged in as. Requests of one connection run
// concurrently: each copies the keyspace in and writes it back only when its statement was a USE.
class SessionKeyspace {
 public:
  std::string Get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return keyspace_;
  }
  void Set(std::string keyspace) {
    std::lock_guard<std::mutex> lock(mutex_);
    keyspace_ = std::move(keyspace);
  }
  // The role the connection logged in as ("" for anonymous).
  std::string User() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return user_;
  }
  void SetUser(std::string user) {
    std::lock_guard<std::mutex> lock(mutex_);
    user_ = std::move(user);
  }
  // The client's address (IPv4 or IPv6 text) and port, for traces, system_views.clients and
  // the audit log; set once when the connection opens.
  std::string ClientAddress() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return client_address_;
  }
  int ClientPort() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return client_port_;
  }
  void SetClientEndpoint(std::string address, int port) {
    std::lock_guard<std::mutex> lock(mutex_);
    client_address_ = std::move(address);
    client_port_ = port;
  }

 private:
  mutable std::mutex mutex_;
  std::string keyspace_;        // GUARDED_BY(mutex_)
  std::string user_;            // GUARDED_BY(mutex_)
  std::string client_address_;  // GUARDED_BY(mutex_)
  int client_port_ = 0;         // GUARDED_BY(mutex_)
};

// One response body, ready to frame.
struct Response {
  protocol::Opcode opcode = protocol::Opcode::kError;
  uint8_t flags = 0;  // kFlagTracing / kFlagWarning when the body starts with those
  common::Bytes body;
};

// The ERROR response for `status` (REQUIRES: !status.ok()). The codes whose body carries a
// consistency (timeouts, Unavailable, ReadFailure, WriteFailure: e.g. a write refused on a
// full disk) carry `consistency`, the one the request asked for; `version` picks the v4 or v5
// failure fields of a ReadFailure.
Response ErrorBody(const common::Status& status,
                   cql::Consistency consistency = cql::Consistency::kOne,
                   uint8_t version = protocol::kMaxVersion);

class RequestHandler {
 public:
  // REQUIRES: `database` and `audit_log` (nullptr: none) outlive the handler.
  explicit RequestHandler(engine::Database* database, AuditLog* audit_log = nullptr)
      : database_(database), audit_log_(audit_log) {}

  // Executes a QUERY, PREPARE, EXECUTE or BATCH request of protocol `version` and returns the
  // RESULT (or the ERROR) to send. Any other request gives a ProtocolError response (the
  // connection handles those itself). Never fails otherwise: engine errors become ERROR
  // responses. Blocks for as long as the engine does.
  Response Handle(const protocol::Request& request, uint8_t version,
                  SessionKeyspace* keyspace) const;

  // Whether `request` only reads: a QUERY whose text starts with SELECT, or an EXECUTE of a
  // prepared SELECT. It never waits for a write-ahead-log sync, so with durability batch the
  // server runs it on the io threads, not the workers (connection.h design 4c). False when
  // unsure (other requests, an unknown prepared id, text that starts with a comment).
  bool OnlyReads(const protocol::Request& request) const;

  // Whether connections must log in (PasswordAuthenticator): STARTUP is then answered with
  // AUTHENTICATE naming kAuthenticatorClass.
  bool authentication_required() const;
  static constexpr std::string_view kAuthenticatorClass =
      "org.apache.cassandra.auth.PasswordAuthenticator";
  // Checks the SASL PLAIN `token` of an AUTH_RESPONSE ([authzid] NUL user NUL password) and
  // returns the role it logs in as. Errors: AuthenticationError with Cassandra's messages.
  // Blocks for the password hash (tens of milliseconds). The attempt is audited
  // (LOGIN_SUCCESS or LOGIN_ERROR) with the client of `session`.
  common::Result<std::string> Authenticate(const std::optional<common::Bytes>& token,
                                           const SessionKeyspace& session) const;

 private:
  Response Query(const protocol::QueryRequest& query, uint8_t version,
                 SessionKeyspace* keyspace) const;
  Response Prepare(const protocol::PrepareRequest& prepare, uint8_t version,
                   SessionKeyspace* keyspace) const;
  Response Execute(const protocol::ExecuteRequest& execute, uint8_t version,
                   SessionKeyspace* keyspace) const;
  Response Batch(const protocol::BatchRequestMessage& batch, uint8_t version,
                 SessionKeyspace* keyspace) const;

  common::Result<std::string> CheckCredentials(const std::optional<common::Bytes>& token) const;

  // Audit (audit_log.h); each does nothing unless the audit log is enabled. `start` is when the
  // request began, in milliseconds since the epoch.
  bool auditing() const { return audit_log_ != nullptr && audit_log_->enabled(); }
  // A statement that ran (or failed with `status`): `statement` is its parse (nullptr when it
  // did not parse), `keyspace` the one it runs in when it names none.
  void AuditRequest(const SessionKeyspace& session, const cql::Statement* statement,
                    std::string_view query, std::string_view keyspace, bool prepare, int64_t start,
                    const common::Status& status) const;
  void AuditBatch(const SessionKeyspace& session, const protocol::BatchRequestMessage& batch,
                  int64_t start, const common::Status& status) const;

  engine::Database* database_;
  AuditLog* audit_log_;
};

}  // namespace server
