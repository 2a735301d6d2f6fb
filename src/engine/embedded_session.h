// EmbeddedSession: the in-process `cql::Session` over a `Database` (docs/dev/architecture.md §1).
//
// Thread-safety: thread-safe; the session keyspace (USE) is guarded by a mutex, so one session
// may be shared by many threads (as the hotel service does).

#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "cql/session.h"
#include "engine/database.h"

namespace engine {

class EmbeddedSession final : public cql::Session {
 public:
  // REQUIRES: `database` outlives the session.
  // `user`: the role the session is logged in as ("" for anonymous).
  EmbeddedSession(Database* database, std::string user) : database_(database) {
    state_.user = std::move(user);
  }

  using cql::Session::Execute;
  common::Result<cql::ResultSet> Execute(std::string_view query,
                                         const cql::QueryOptions& options) override;
  common::Result<std::shared_ptr<const cql::PreparedMetadata>> Prepare(
      std::string_view query) override;
  common::Result<cql::ResultSet> ExecutePrepared(const cql::PreparedMetadata& prepared,
                                                 const cql::QueryOptions& options) override;
  common::Result<cql::ResultSet> ExecuteBatch(const cql::BatchRequest& batch) override;
  std::string keyspace() const override;

 private:
  SessionState State() const;
  void Update(const SessionState& state);

  Database* database_;
  mutable std::mutex mutex_;
  SessionState state_;  // GUARDED_BY(mutex_)
};

}  // namespace engine
