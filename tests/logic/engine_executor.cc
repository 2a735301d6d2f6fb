#include "tests/logic/engine_executor.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "cql/parser/literal.h"
#include "cql/parser/parser.h"
#include "cql/types/value_format.h"

namespace logic_test {

EngineExecutor::EngineExecutor() {
  std::string pattern = (std::filesystem::temp_directory_path() / "cqld-logic-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    open_status_ = common::Status::IOError("cannot create a temporary directory");
    return;
  }
  directory_ = pattern;
  OpenDatabase(/*authentication=*/false, /*authorization=*/false);
}

void EngineExecutor::OpenDatabase(bool authentication, bool authorization) {
  session_.reset();
  database_.reset();
  engine::DatabaseOptions options;
  if (authentication) {
    options.authenticator = engine::DatabaseOptions::Authenticator::kPassword;
    options.superuser_password = "cassandra";
  }
  if (authorization) options.authorizer = engine::DatabaseOptions::Authorizer::kCassandra;
  auto database = engine::Database::Open(directory_, options);
  if (!database.ok()) {
    open_status_ = database.status();
    return;
  }
  database_ = std::move(database).value();
  session_ = database_->NewSession(authentication ? "cassandra" : "");
}

common::Status EngineExecutor::Require(std::string_view feature) {
  RETURN_IF_ERROR(open_status_);
  if (feature == "auth") OpenDatabase(/*authentication=*/true, /*authorization=*/false);
  if (feature == "authorizer") OpenDatabase(/*authentication=*/true, /*authorization=*/true);
  return open_status_;
}

namespace {

bool IsLogin(std::string_view statement) {
  return statement.size() >= 6 &&
         (statement.substr(0, 6) == "LOGIN " || statement.substr(0, 6) == "login ");
}

}  // namespace

common::Status EngineExecutor::Login(std::string_view statement) {
  // LOGIN name 'password'
  std::string_view rest = statement.substr(6);
  const size_t space = rest.find(' ');
  const size_t open = rest.find('\'');
  const size_t close = rest.rfind('\'');
  if (space == std::string_view::npos || open == std::string_view::npos || close <= open) {
    return common::Status::SyntaxError("LOGIN needs a role name and a quoted password");
  }
  ASSIGN_OR_RETURN(
      std::string role,
      database_->Authenticate(rest.substr(0, space), rest.substr(open + 1, close - open - 1)));
  session_ = database_->NewSession(std::move(role));
  return common::Status::Ok();
}

common::Status EngineExecutor::CheckRoundTrip(std::string_view statement) {
  if (IsLogin(statement)) return common::Status::Ok();  // a shell command, not CQL
  return FrontEndExecutor::CheckRoundTrip(statement);
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
  return feature == "engine" || feature == "auth" || feature == "authorizer" ||
         FrontEndExecutor::Supports(feature);
}

namespace {

// The value a `bind` value gives a marker of `spec`'s type.
common::Result<cql::BoundValue> ToBoundValue(const cql::ColumnSpec& spec, const BindValue& value) {
  switch (value.kind) {
    case BindValue::Kind::kRaw:
      return cql::BoundValue::Of(value.text);
    case BindValue::Kind::kRepeat: {
      const cql::TypeKind kind = spec.type.kind();
      if (kind != cql::TypeKind::kText && kind != cql::TypeKind::kAscii &&
          kind != cql::TypeKind::kBlob) {
        return common::Status::Invalid("repeat() is for text, ascii and blob markers, not " +
                                       spec.type.ToCql());
      }
      const bool ascii = std::all_of(value.text.begin(), value.text.end(),
                                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
      if (kind == cql::TypeKind::kAscii && !ascii) {
        return common::Status::Invalid("repeat() of non-ASCII text for an ascii marker");
      }
      std::string bytes;
      bytes.reserve(value.text.size() * static_cast<size_t>(value.count));
      for (int64_t i = 0; i < value.count; ++i) bytes += value.text;
      return cql::BoundValue::Of(std::move(bytes));
    }
    case BindValue::Kind::kLiteral:
      break;
  }
  if (value.text == "unset") return cql::BoundValue::Unset();
  if (value.text == "null") return cql::BoundValue::Null();
  ASSIGN_OR_RETURN(cql::Term term, cql::ParseTerm(value.text));
  ASSIGN_OR_RETURN(std::optional<common::Bytes> bytes,
                   cql::EvaluateLiteral(spec.type, term, spec.name));
  if (!bytes.has_value()) return cql::BoundValue::Null();
  return cql::BoundValue::Of(std::move(*bytes));
}

}  // namespace

common::Result<cql::ResultSet> EngineExecutor::Run(std::string_view statement,
                                                   const RunOptions& options,
                                                   std::optional<common::Bytes> paging_state) {
  cql::QueryOptions query;
  query.page_size = options.page_size > 0 ? options.page_size : -1;
  query.paging_state = std::move(paging_state);
  if (!options.binds.has_value()) return session_->Execute(statement, query);
  ASSIGN_OR_RETURN(std::shared_ptr<const cql::PreparedMetadata> prepared,
                   session_->Prepare(statement));
  const std::vector<cql::ColumnSpec>& specs = prepared->bind_variables;
  if (specs.size() != options.binds->size()) {
    return common::Status::Invalid("bind gives " + std::to_string(options.binds->size()) +
                                   " values for " + std::to_string(specs.size()) + " markers");
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    // A value that does not make a value of the marker's type is the test's own mistake.
    common::Result<cql::BoundValue> value = ToBoundValue(specs[i], (*options.binds)[i]);
    if (!value.ok()) {
      return common::Status::Internal("bind value " + (*options.binds)[i].source + " for " +
                                      specs[i].name + ": " + value.status().message());
    }
    query.values.push_back(std::move(value).value());
  }
  return session_->ExecutePrepared(*prepared, query);
}

common::Status EngineExecutor::Execute(std::string_view statement, const RunOptions& options) {
  RETURN_IF_ERROR(open_status_);
  if (IsLogin(statement)) return Login(statement);
  // Keeps CREATE TYPE for `value` records.
  RETURN_IF_ERROR(FrontEndExecutor::Execute(statement, RunOptions()));
  return Run(statement, options, std::nullopt).status();
}

common::Result<std::vector<std::vector<std::string>>> EngineExecutor::Query(
    std::string_view statement, const RunOptions& options) {
  RETURN_IF_ERROR(open_status_);
  std::vector<std::vector<std::string>> rows;
  std::optional<common::Bytes> paging_state;
  do {
    ASSIGN_OR_RETURN(cql::ResultSet result, Run(statement, options, std::move(paging_state)));
    if (options.page_size > 0 && result.row_count() > static_cast<size_t>(options.page_size)) {
      return common::Status::Internal("a page of " + std::to_string(result.row_count()) +
                                      " rows, more than the page size " +
                                      std::to_string(options.page_size));
    }
    for (size_t r = 0; r < result.row_count(); ++r) {
      std::vector<std::string> row;
      for (size_t c = 0; c < result.column_count(); ++c) {
        row.push_back(cql::FormatNullableValue(result.columns()[c].type, result.Value(r, c)));
      }
      rows.push_back(std::move(row));
    }
    paging_state = result.paging_state();
  } while (options.page_size > 0 && paging_state.has_value());
  return rows;
}

}  // namespace logic_test
