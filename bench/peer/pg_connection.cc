#include "bench/peer/pg_connection.h"

#include <fmt/format.h>

#include <charconv>

namespace peer {

namespace {

using common::Result;
using common::Status;
using common::StatusCode;

StatusCode CodeOf(std::string_view sqlstate) {
  if (sqlstate == "23505") return StatusCode::kAlreadyExists;
  if (sqlstate == "23503") return StatusCode::kNotFound;
  if (sqlstate == "40001" || sqlstate == "40P01") return StatusCode::kUnavailable;
  if (sqlstate.substr(0, 2) == "22") return StatusCode::kInvalid;
  if (sqlstate.substr(0, 2) == "08") return StatusCode::kIOError;
  return StatusCode::kInternal;
}

}  // namespace

int64_t PgResult::Integer(int row, int column) const {
  std::string_view text = Text(row, column);
  int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

int64_t PgResult::Affected() const {
  const char* tuples = PQcmdTuples(result_.get());
  return tuples == nullptr ? 0 : std::atoll(tuples);
}

Result<std::unique_ptr<PgConnection>> PgConnection::Connect(const std::string& conninfo) {
  PGconn* raw = PQconnectdb(conninfo.c_str());
  auto connection = std::unique_ptr<PgConnection>(new PgConnection(raw));
  if (raw == nullptr || PQstatus(raw) != CONNECTION_OK) {
    return Status::IOError(fmt::format("cannot connect to PostgreSQL ({}): {}", conninfo,
                                       raw == nullptr ? "out of memory" : PQerrorMessage(raw)));
  }
  return connection;
}

Result<PgResult> PgConnection::Check(PGresult* raw) {
  PgResult result(raw);
  if (raw == nullptr) {
    return Status::IOError(fmt::format("PostgreSQL: {}", PQerrorMessage(connection_.get())));
  }
  ExecStatusType status = PQresultStatus(raw);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
  const char* sqlstate = PQresultErrorField(raw, PG_DIAG_SQLSTATE);
  std::string_view state = sqlstate == nullptr ? "" : sqlstate;
  std::string message = PQresultErrorMessage(raw);
  while (!message.empty() && message.back() == '\n') message.pop_back();
  return Status(CodeOf(state), fmt::format("PostgreSQL {}: {}", state, message));
}

Result<PgResult> PgConnection::Execute(const std::string& sql) {
  return Check(PQexec(connection_.get(), sql.c_str()));
}

Status PgConnection::Prepare(const std::string& name, const std::string& sql) {
  Result<PgResult> prepared =
      Check(PQprepare(connection_.get(), name.c_str(), sql.c_str(), 0, nullptr));
  if (!prepared.ok()) {
    return Status(prepared.status().code(),
                  fmt::format("preparing {}: {}", name, prepared.status().message()));
  }
  return Status::Ok();
}

Result<PgResult> PgConnection::Run(const std::string& name,
                                   const std::vector<std::string>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const std::string& param : params) values.push_back(param.c_str());
  return Check(PQexecPrepared(connection_.get(), name.c_str(), static_cast<int>(values.size()),
                              values.data(), nullptr, nullptr, 0));
}

Status PgConnection::Copy(const std::string& copy_sql, std::string_view data) {
  PGconn* connection = connection_.get();
  PGresult* started = PQexec(connection, copy_sql.c_str());
  if (started == nullptr || PQresultStatus(started) != PGRES_COPY_IN) {
    Status status = Check(started).status();
    return status.ok() ? Status::Internal("not a COPY FROM STDIN: " + copy_sql) : status;
  }
  PQclear(started);
  bool sent = PQputCopyData(connection, data.data(), static_cast<int>(data.size())) == 1;
  if (PQputCopyEnd(connection, sent ? nullptr : "client failed to send the data") != 1) {
    return Status::IOError(fmt::format("COPY: {}", PQerrorMessage(connection)));
  }
  // The COPY's own result, then nullptr.
  Status status = Check(PQgetResult(connection)).status();
  while (PGresult* rest = PQgetResult(connection)) PQclear(rest);
  return status;
}

std::string ArrayLiteral(const std::vector<std::string>& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out.push_back(',');
    out.push_back('"');
    for (char c : values[i]) {
      if (c == '"' || c == '\\') out.push_back('\\');
      out.push_back(c);
    }
    out.push_back('"');
  }
  out.push_back('}');
  return out;
}

}  // namespace peer
