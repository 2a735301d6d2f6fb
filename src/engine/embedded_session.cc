#include "engine/embedded_session.h"

namespace engine {

using common::Result;

SessionState EmbeddedSession::State() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return state_;
}

void EmbeddedSession::Update(const SessionState& state) {
  std::lock_guard<std::mutex> lock(mutex_);
  state_ = state;
}

Result<cql::ResultSet> EmbeddedSession::Execute(std::string_view query,
                                                const cql::QueryOptions& options) {
  SessionState state = State();
  std::string before = state.keyspace;
  Result<cql::ResultSet> result = database_->ExecuteText(query, options, &state);
  if (state.keyspace != before) Update(state);
  return result;
}

Result<std::shared_ptr<const cql::PreparedMetadata>> EmbeddedSession::Prepare(
    std::string_view query) {
  ASSIGN_OR_RETURN(std::shared_ptr<const PreparedStatement> prepared,
                   database_->Prepare(query, State().keyspace));
  return prepared->metadata;
}

Result<cql::ResultSet> EmbeddedSession::ExecutePrepared(const cql::PreparedMetadata& metadata,
                                                        const cql::QueryOptions& options) {
  Result<std::shared_ptr<const PreparedStatement>> prepared = database_->FindPrepared(metadata.id);
  if (!prepared.ok()) {
    // Evicted from the cache: prepare the same text again (its id is the same).
    ASSIGN_OR_RETURN(prepared, database_->Prepare(metadata.query, metadata.keyspace));
  }
  SessionState state = State();
  std::string before = state.keyspace;
  Result<cql::ResultSet> result = database_->Execute(**prepared, options, &state);
  if (state.keyspace != before) Update(state);
  return result;
}

Result<cql::ResultSet> EmbeddedSession::ExecuteBatch(const cql::BatchRequest& batch) {
  SessionState state = State();
  return database_->ExecuteBatch(batch, &state);
}

std::string EmbeddedSession::keyspace() const { return State().keyspace; }

}  // namespace engine
