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
  common::Status Execute(std::string_view statement, const RunOptions& options) override;
  common::Result<std::vector<std::vector<std::string>>> Query(std::string_view statement,
                                                              const RunOptions& options) override;

 private:
  // Runs `statement`: prepared with `options.binds` bound when there are any, else as text;
  // `page_size` and `paging_state` as given.
  common::Result<cql::ResultSet> Run(std::string_view statement, const RunOptions& options,
                                     std::optional<common::Bytes> paging_state);

  std::string directory_;
  std::unique_ptr<engine::Database> database_;
  std::unique_ptr<cql::Session> session_;
  common::Status open_status_;
};

}  // namespace logic_test
