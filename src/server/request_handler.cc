#include "server/request_handler.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "common/logging.h"

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

}  // namespace

bool RequestHandler::authentication_required() const {
  return database_->authenticator() == engine::DatabaseOptions::Authenticator::kPassword;
}

common::Result<std::string> RequestHandler::Authenticate(
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

Response RequestHandler::Query(const protocol::QueryRequest& query, uint8_t version,
                               SessionKeyspace* keyspace) const {
  common::Result<cql::ResultSet> result = WithKeyspace(keyspace, [&](engine::SessionState* state) {
    return database_->ExecuteText(query.query, query.parameters.options, state);
  });
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
  auto prepared = database_->Prepare(prepare.query, ks);
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
  auto found = database_->FindPrepared(execute.id);
  if (!found.ok()) return ErrorBody(found.status());
  std::shared_ptr<const engine::PreparedStatement> prepared = std::move(found).value();
  common::Result<cql::ResultSet> result = WithKeyspace(keyspace, [&](engine::SessionState* state) {
    return database_->Execute(*prepared, execute.parameters.options, state);
  });
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
      if (!found.ok()) return ErrorBody(found.status());
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
  if (!result.ok()) return ErrorBody(result.status(), batch.consistency, version);
  return ResultBody(*result, version, protocol::RowsEncoding());
}

}  // namespace server
