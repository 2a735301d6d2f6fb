// EngineExecutor: runs logic tests against the embedded engine (engine/database.h) on a
// fresh data directory, removed when the executor is destroyed.
//
// Statements and queries run through an EmbeddedSession; query rows are formatted as cqlsh
// prints them. `value` records and the round-trip check are the front end's.
//
// Thread-safety: not thread-safe.

#pragma once

#include <memory>
#include <string>

#include "cql/session.h"
#include "engine/database.h"
#include "tests/logic/front_end_executor.h"

namespace logic_test {

class EngineExecutor : public FrontEndExecutor {
 public:
  EngineExecutor();
  ~EngineExecutor() override;

  bool Supports(std::string_view feature) const override;
  // `require auth` (before any record): reopens the database with the password authenticator
  // and logs in as the superuser `cassandra` (password `cassandra`). Then `LOGIN name 'pw'`
  // (cqlsh's command) as a statement logs in as another role. `require authorizer`: the same
  // with CassandraAuthorizer on.
  common::Status Require(std::string_view feature) override;
  common::Status CheckRoundTrip(std::string_view statement) override;
  common::Status Execute(std::string_view statement, const RunOptions& options) override;
  common::Result<std::vector<std::vector<std::string>>> Query(std::string_view statement,
                                                              const RunOptions& options) override;

 private:
  // Runs `statement`: prepared with `options.binds` bound when there are any, else as text;
  // `page_size` and `paging_state` as given.
  common::Result<cql::ResultSet> Run(std::string_view statement, const RunOptions& options,
                                     std::optional<common::Bytes> paging_state);

  // LOGIN name 'password': a new session logged in as that role.
  common::Status Login(std::string_view statement);
  void OpenDatabase(bool authentication, bool authorization);

  std::string directory_;
  std::unique_ptr<engine::Database> database_;
  std::unique_ptr<cql::Session> session_;
  common::Status open_status_;
};

}  // namespace logic_test
