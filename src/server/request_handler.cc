#include "server/request_handler.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "common/ascii.h"
#include "common/logging.h"
#include "cql/parser/parser.h"
#include "server/audit_entry.h"

namespace server {
namespace {

using common::Bytes;
using common::ByteWriter;
using common::Status;

// The RESULT for a statement's result set: warnings prefix, then the body.
Response ResultBody(const cql::ResultSet& result, uint8_t version,
                    const protocol::RowsEncoding& encoding) {
  ByteWriter out;
  Response response;
  response.opcode = protocol::Opcode::kResult;
  std::optional<Bytes> tracing_id;
  if (result.tracing_id()) tracing_id = result.tracing_id()->ToBytes();
  response.flags = protocol::EncodeResponsePrefix(tracing_id, result.warnings(), &out);
  protocol::EncodeResult(result, version, encoding, &out);
  response.body = out.Release();
  return response;
}

// Runs `query` with the connection's keyspace and records a USE.
template <typename Run>
common::Result<cql::ResultSet> WithKeyspace(SessionKeyspace* keyspace, Run run) {
  engine::SessionState state;
  state.keyspace = keyspace->Get();
  state.user = keyspace->User();
  state.client_address = keyspace->ClientAddress();
  common::Result<cql::ResultSet> result = run(&state);
  if (result.ok() && result->kind() == cql::ResultSet::Kind::kSetKeyspace) {
    keyspace->Set(result->keyspace());
  }
  return result;
}

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// An entry for a request of `session`'s client, by its user ("anonymous" without a login).
AuditEntry NewAuditEntry(const SessionKeyspace& session, AuditType type, int64_t start) {
  AuditEntry entry;
  std::string user = session.User();
  entry.user = user.empty() ? std::string("anonymous") : std::move(user);
  entry.source = session.ClientAddress();
  entry.port = session.ClientPort();
  entry.timestamp_millis = start;
  entry.type = type;
  return entry;
}

// Makes `entry` the failure `status`: its type from the error, its message after the operation.
void SetFailure(const Status& status, AuditEntry* entry) {
  entry->type = status.code() == common::StatusCode::kUnauthorized ? AuditType::kUnauthorizedAttempt
                : status.code() == common::StatusCode::kAuthenticationError
                    ? AuditType::kLoginError
                    : AuditType::kRequestFailure;
  if (!entry->operation.empty()) entry->operation += "; ";
  entry->operation += status.message();
}

}  // namespace

bool RequestHandler::authentication_required() const {
  return database_->authenticator() == engine::DatabaseOptions::Authenticator::kPassword;
}

common::Result<std::string> RequestHandler::Authenticate(const std::optional<common::Bytes>& token,
                                                         const SessionKeyspace& session) const {
  const int64_t start = NowMillis();
  common::Result<std::string> role = CheckCredentials(token);
  if (auditing()) {
    AuditEntry entry = NewAuditEntry(session, AuditType::kLoginSuccess, start);
    if (role.ok()) {
      entry.user = *role;
      entry.operation = "LOGIN SUCCESSFUL";
    } else {
      entry.user.reset();  // nobody is logged in: Cassandra's `user:null`
      entry.operation = "LOGIN FAILURE";
      SetFailure(role.status(), &entry);
    }
    audit_log_->Log(entry);
  }
  return role;
}

common::Result<std::string> RequestHandler::CheckCredentials(
    const std::optional<common::Bytes>& token) const {
  // SASL PLAIN (RFC 4616): [authzid] NUL authcid NUL passwd; Cassandra ignores the authzid.
  const std::string_view bytes = token ? std::string_view(*token) : std::string_view();
  const size_t first = bytes.find('\0');
  const size_t second = first == std::string_view::npos ? first : bytes.find('\0', first + 1);
  if (second == std::string_view::npos) {
    return Status(common::StatusCode::kAuthenticationError,
                  "Authentication failed: the SASL PLAIN token needs a username and a password");
  }
  const std::string_view username = bytes.substr(first + 1, second - first - 1);
  const std::string_view password = bytes.substr(second + 1);
  if (username.empty()) {
    return Status(common::StatusCode::kAuthenticationError, "Authentication ID must not be null");
  }
  if (password.empty()) {
    return Status(common::StatusCode::kAuthenticationError, "Password must not be null");
  }
  return database_->Authenticate(username, password);
}

Response ErrorBody(const Status& status, cql::Consistency consistency, uint8_t version) {
  ByteWriter out;
  protocol::ErrorResponse error = protocol::ErrorResponse::FromStatus(status);
  error.consistency = consistency;
  protocol::EncodeError(error, &out, version);
  return Response{protocol::Opcode::kError, 0, out.Release()};
}

Response RequestHandler::Handle(const protocol::Request& request, uint8_t version,
                                SessionKeyspace* keyspace) const {
  if (const auto* query = std::get_if<protocol::QueryRequest>(&request)) {
    return Query(*query, version, keyspace);
  }
  if (const auto* prepare = std::get_if<protocol::PrepareRequest>(&request)) {
    return Prepare(*prepare, version, keyspace);
  }
  if (const auto* execute = std::get_if<protocol::ExecuteRequest>(&request)) {
    return Execute(*execute, version, keyspace);
  }
  if (const auto* batch = std::get_if<protocol::BatchRequestMessage>(&request)) {
    return Batch(*batch, version, keyspace);
  }
  return ErrorBody(Status::ProtocolError(fmt::format(
      "Unexpected message {}", protocol::OpcodeName(protocol::RequestOpcode(request)))));
}

bool RequestHandler::OnlyReads(const protocol::Request& request) const {
  if (const auto* execute = std::get_if<protocol::ExecuteRequest>(&request)) {
    auto found = database_->FindPrepared(execute->id);
    return found.ok() && (*found)->select != nullptr;
  }
  const auto* query = std::get_if<protocol::QueryRequest>(&request);
  if (query == nullptr) return false;
  constexpr std::string_view kSelect = "select";
  std::string_view text = query->query;
  const size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || text.size() - start <= kSelect.size()) return false;
  const char after = text[start + kSelect.size()];
  return common::AsciiLower(text.substr(start, kSelect.size())) == kSelect &&
         (after == ' ' || after == '\t' || after == '\r' || after == '\n' || after == '*');
}

Response RequestHandler::Query(const protocol::QueryRequest& query, uint8_t version,
                               SessionKeyspace* keyspace) const {
  const bool audit = auditing();
  const int64_t start = audit ? NowMillis() : 0;
  const std::string session_keyspace = audit ? keyspace->Get() : std::string();
  common::Result<cql::ResultSet> result = WithKeyspace(keyspace, [&](engine::SessionState* state) {
    return database_->ExecuteText(query.query, query.parameters.options, state);
  });
  if (audit) {
    common::Result<cql::Statement> parsed = cql::ParseStatement(query.query);
    const std::string& options_keyspace = query.parameters.options.keyspace;
    AuditRequest(*keyspace, parsed.ok() ? &*parsed : nullptr, query.query,
                 options_keyspace.empty() ? session_keyspace : options_keyspace, false, start,
                 result.status());
  }
  if (!result.ok()) {
    return ErrorBody(result.status(), query.parameters.options.consistency, version);
  }
  protocol::RowsEncoding encoding;
  encoding.skip_metadata = query.parameters.skip_metadata;
  return ResultBody(*result, version, encoding);
}

Response RequestHandler::Prepare(const protocol::PrepareRequest& prepare, uint8_t version,
                                 SessionKeyspace* keyspace) const {
  std::string ks = prepare.keyspace.empty() ? keyspace->Get() : prepare.keyspace;
  engine::TraceScope trace(&database_->tracer(), prepare.tracing, [&] {
    return engine::TraceRequest{
        "Preparing CQL3 query", {{"query", prepare.query}}, keyspace->ClientAddress()};
  });
  const int64_t start = auditing() ? NowMillis() : 0;
  auto prepared = database_->Prepare(prepare.query, ks);
  if (auditing()) {
    AuditRequest(*keyspace, prepared.ok() ? &(*prepared)->statement : nullptr, prepare.query, ks,
                 true, start, prepared.status());
  }
  if (!prepared.ok()) return ErrorBody(prepared.status());
  ByteWriter out;
  std::optional<Bytes> tracing_id;
  if (std::optional<common::Uuid> id = trace.client_id()) tracing_id = id->ToBytes();
  const uint8_t flags = protocol::EncodeResponsePrefix(tracing_id, {}, &out);
  protocol::EncodePreparedResult(*(*prepared)->metadata, version, &out);
  return Response{protocol::Opcode::kResult, flags, out.Release()};
}

Response RequestHandler::Execute(const protocol::ExecuteRequest& execute, uint8_t version,
                                 SessionKeyspace* keyspace) const {
  const int64_t start = auditing() ? NowMillis() : 0;
  auto found = database_->FindPrepared(execute.id);
  if (!found.ok()) {
    if (auditing())
      AuditRequest(*keyspace, nullptr, "", keyspace->Get(), false, start, found.status());
    return ErrorBody(found.status());
  }
  std::shared_ptr<const engine::PreparedStatement> prepared = std::move(found).value();
  common::Result<cql::ResultSet> result = WithKeyspace(keyspace, [&](engine::SessionState* state) {
    return database_->Execute(*prepared, execute.parameters.options, state);
  });
  if (auditing()) {
    AuditRequest(*keyspace, &prepared->statement, prepared->metadata->query, prepared->keyspace,
                 false, start, result.status());
  }
  if (!result.ok()) {
    return ErrorBody(result.status(), execute.parameters.options.consistency, version);
  }
  protocol::RowsEncoding encoding;
  encoding.skip_metadata = execute.parameters.skip_metadata;
  if (version >= 5 && result->kind() == cql::ResultSet::Kind::kRows) {
    // The statement may have been re-bound to a newer catalogue while executing: compare the
    // client's metadata id with the current statement's.
    std::shared_ptr<const cql::PreparedMetadata> metadata = prepared->metadata;
    if (prepared->catalog != database_->catalog()) {
      auto current = database_->FindPrepared(execute.id);
      if (current.ok()) metadata = (*current)->metadata;
    }
    if (metadata->result_metadata_id != execute.result_metadata_id) {
      encoding.new_metadata_id = metadata->result_metadata_id;
    }
  }
  return ResultBody(*result, version, encoding);
}

Response RequestHandler::Batch(const protocol::BatchRequestMessage& batch, uint8_t version,
                               SessionKeyspace* keyspace) const {
  const int64_t start = auditing() ? NowMillis() : 0;
  cql::BatchRequest request;
  request.type = batch.type;
  request.consistency = batch.consistency;
  request.serial_consistency = batch.serial_consistency;
  request.timestamp = batch.timestamp;
  request.keyspace = batch.keyspace;
  request.tracing = batch.tracing;
  request.entries.reserve(batch.statements.size());
  for (const protocol::BatchRequestMessage::Statement& statement : batch.statements) {
    cql::BatchEntry entry;
    if (statement.prepared) {
      auto found = database_->FindPrepared(statement.id);
      if (!found.ok()) {
        if (auditing()) AuditBatch(*keyspace, batch, start, found.status());
        return ErrorBody(found.status());
      }
      entry.prepared = (*found)->metadata;
    } else {
      entry.query = statement.query;
    }
    entry.values = statement.values;
    entry.value_names = statement.value_names;
    request.entries.push_back(std::move(entry));
  }
  common::Result<cql::ResultSet> result = WithKeyspace(keyspace, [&](engine::SessionState* state) {
    return database_->ExecuteBatch(request, state);
  });
  if (auditing()) AuditBatch(*keyspace, batch, start, result.status());
  if (!result.ok()) return ErrorBody(result.status(), batch.consistency, version);
  return ResultBody(*result, version, protocol::RowsEncoding());
}

void RequestHandler::AuditRequest(const SessionKeyspace& session, const cql::Statement* statement,
                                  std::string_view query, std::string_view keyspace, bool prepare,
                                  int64_t start, const Status& status) const {
  AuditEntry entry = NewAuditEntry(session, AuditType::kRequestFailure, start);
  entry.keyspace = keyspace;
  if (statement != nullptr) {
    server::AuditStatement what = ClassifyStatement(*statement);
    entry.type = prepare ? AuditType::kPrepareStatement : what.type;
    if (!what.keyspace.empty()) entry.keyspace = std::move(what.keyspace);
    entry.scope = std::move(what.scope);
  }
  entry.operation = query;
  if (!status.ok()) SetFailure(status, &entry);
  entry.operation = ObfuscatePasswords(entry.operation);
  audit_log_->Log(entry);
}

void RequestHandler::AuditBatch(const SessionKeyspace& session,
                                const protocol::BatchRequestMessage& batch, int64_t start,
                                const Status& status) const {
  const std::string keyspace = batch.keyspace.empty() ? session.Get() : batch.keyspace;
  AuditEntry entry = NewAuditEntry(session, AuditType::kBatch, start);
  entry.keyspace = keyspace;
  if (!status.ok()) {
    entry.operation = fmt::format("BATCH of {} statements at consistency {}",
                                  batch.statements.size(), cql::ConsistencyName(batch.consistency));
    SetFailure(status, &entry);
    entry.operation = ObfuscatePasswords(entry.operation);
    audit_log_->Log(entry);
    return;
  }
  // As Cassandra: one BATCH entry, then one entry per statement, all with the batch's id.
  const common::Uuid id = common::Uuid::Random();
  entry.batch = id;
  entry.operation = fmt::format("BatchId:[{}] - BATCH of [{}] statements", id.ToString(),
                                batch.statements.size());
  audit_log_->Log(entry);
  for (const protocol::BatchRequestMessage::Statement& statement : batch.statements) {
    AuditEntry each = NewAuditEntry(session, AuditType::kBatch, start);
    each.batch = id;
    each.keyspace = keyspace;
    std::optional<cql::Statement> parsed;
    std::shared_ptr<const engine::PreparedStatement> prepared;
    if (statement.prepared) {
      auto found = database_->FindPrepared(statement.id);
      if (found.ok()) prepared = std::move(found).value();
      if (prepared != nullptr) each.operation = prepared->metadata->query;
    } else {
      auto result = cql::ParseStatement(statement.query);
      if (result.ok()) parsed = std::move(result).value();
      each.operation = statement.query;
    }
    const cql::Statement* what = prepared ? &prepared->statement : parsed ? &*parsed : nullptr;
    if (what != nullptr) {
      server::AuditStatement classified = ClassifyStatement(*what);
      each.type = classified.type;
      if (!classified.keyspace.empty()) each.keyspace = std::move(classified.keyspace);
      each.scope = std::move(classified.scope);
    }
    each.operation = ObfuscatePasswords(each.operation);
    audit_log_->Log(each);
  }
}

}  // namespace server
