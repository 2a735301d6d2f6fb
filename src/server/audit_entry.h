// AuditEntry: one event of the audit log (audit_log.h), as Cassandra 4's AuditLogEntry: who
// (user, client address and port), when, what kind (`AuditType`, which belongs to one
// `AuditCategory`), on which keyspace and table, and the operation (the statement text, or what
// happened). Also how a parsed statement is classified, and the line Cassandra's
// FileAuditLogger writes for an entry.
//
// Pipeline: the request handler (request_handler.h) and the connection (login) build entries;
// `AuditLog::Log` filters, formats and queues them; its writer thread writes the lines.
//
// Nothing secret reaches an entry: operations are statement texts with the literal after each
// PASSWORD keyword replaced (`ObfuscatePasswords`), and bound values are never part of them.
//
// Thread-safety: plain data and pure functions.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/uuid.h"
#include "cql/parser/statement.h"

namespace server {

// Cassandra's AuditLogEntryCategory, in its order.
enum class AuditCategory : uint8_t { kQuery, kDml, kDdl, kDcl, kOther, kAuth, kError, kPrepare };
inline constexpr int kAuditCategoryCount = 8;

// "QUERY", "DML", "DDL", "DCL", "OTHER", "AUTH", "ERROR", "PREPARE".
std::string_view AuditCategoryName(AuditCategory category);
// The category a name stands for, in any case; nullopt for an unknown name.
std::optional<AuditCategory> ParseAuditCategory(std::string_view name);

// Cassandra's AuditLogEntryType (4.1): the statement kinds, then the common ones.
enum class AuditType : uint8_t {
  kSelect,
  kUpdate,
  kDelete,
  kTruncate,
  kCreateKeyspace,
  kAlterKeyspace,
  kDropKeyspace,
  kCreateTable,
  kDropTable,
  kPrepareStatement,
  kDropTrigger,
  kListUsers,
  kCreateIndex,
  kDropIndex,
  kGrant,
  kRevoke,
  kCreateType,
  kDropAggregate,
  kAlterView,
  kCreateView,
  kDropRole,
  kCreateFunction,
  kAlterTable,
  kBatch,
  kCreateAggregate,
  kDropView,
  kDropType,
  kDropFunction,
  kAlterRole,
  kCreateTrigger,
  kListRoles,
  kListPermissions,
  kAlterType,
  kCreateRole,
  kUseKeyspace,
  kDescribe,
  kRequestFailure,
  kLoginError,
  kUnauthorizedAttempt,
  kLoginSuccess,
};

// "SELECT", "CREATE_TABLE", "LOGIN_SUCCESS", ...: Cassandra's names.
std::string_view AuditTypeName(AuditType type);
AuditCategory CategoryOf(AuditType type);

struct AuditEntry {
  // The role logged in as; "anonymous" without authentication; nullopt before a login
  // (a failed one), which the line shows as `null`, as Cassandra does.
  std::optional<std::string> user;
  std::string source;  // the client's address (IPv4 or IPv6 text)
  int port = 0;        // the client's port; not shown when 0
  int64_t timestamp_millis = 0;
  AuditType type = AuditType::kRequestFailure;
  // The statements of one BATCH share an id.
  std::optional<common::Uuid> batch;
  std::string keyspace;   // "" when none
  std::string scope;      // the table (view, index, type, function...) or ""
  std::string operation;  // the statement text, passwords obfuscated; or what happened
};

// The FileAuditLogger line of `entry` (no newline):
//   user:U|host:H|source:/ADDR|port:P|timestamp:MS|type:T|category:C[|batch:ID][|ks:K]
//   [|scope:S][|operation:O]
// `host` is the node, as "ADDRESS:PORT" (the broadcast address and storage port Cassandra
// shows). Line breaks inside the operation become spaces, so one entry is one line.
std::string FormatAuditEntry(const AuditEntry& entry, std::string_view host);

// What a statement is for the audit log: its type, and the keyspace and object it names.
// `keyspace` is "" when the statement names none (the session's then applies).
struct AuditStatement {
  AuditType type = AuditType::kRequestFailure;
  std::string keyspace;
  std::string scope;
};
AuditStatement ClassifyStatement(const cql::Statement& statement);

// `text` with every password literal hidden: the literal after each PASSWORD keyword becomes
// '***' (engine::RedactPasswords), and when a PASSWORD keyword is still followed by a quote or
// `$$` (an error message quoting part of a statement: `PASSWORD = ['secret'...`), everything
// after that keyword becomes `*******`.
std::string ObfuscatePasswords(std::string_view text);

}  // namespace server
