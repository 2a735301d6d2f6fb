#include "tests/logic/engine_executor.h"

#include <cstdlib>
#include <filesystem>

#include "cql/types/value_format.h"

namespace logic_test {

EngineExecutor::EngineExecutor() {
  std::string pattern = (std::filesystem::temp_directory_path() / "cqld-logic-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    open_status_ = common::Status::IOError("cannot create a temporary directory");
    return;
  }
  directory_ = pattern;
  auto database = engine::Database::Open(directory_, engine::DatabaseOptions());
  if (!database.ok()) {
    open_status_ = database.status();
    return;
  }
  database_ = std::move(database).value();
  session_ = database_->NewSession();
}

EngineExecutor::~EngineExecutor() {
  session_.reset();
  database_.reset();
  if (!directory_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }
}

bool EngineExecutor::Supports(std::string_view feature) const {
  return feature == "engine" || FrontEndExecutor::Supports(feature);
}

common::Status EngineExecutor::Execute(std::string_view statement) {
  RETURN_IF_ERROR(open_status_);
  RETURN_IF_ERROR(FrontEndExecutor::Execute(statement));  // keeps CREATE TYPE for `value`
  return session_->Execute(statement).status();
}

common::Result<std::vector<std::vector<std::string>>> EngineExecutor::Query(
    std::string_view statement) {
  RETURN_IF_ERROR(open_status_);
  ASSIGN_OR_RETURN(cql::ResultSet result, session_->Execute(statement));
  std::vector<std::vector<std::string>> rows;
  for (size_t r = 0; r < result.row_count(); ++r) {
    std::vector<std::string> row;
    for (size_t c = 0; c < result.column_count(); ++c) {
      row.push_back(cql::FormatNullableValue(result.columns()[c].type, result.Value(r, c)));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace logic_test
