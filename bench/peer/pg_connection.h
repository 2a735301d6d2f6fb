// PgConnection: a thin owner of one libpq connection for the relational peer (bench/peer/):
// simple queries, server-side prepared statements executed with text parameters, and COPY
// FROM STDIN. Results are `PgResult`s that own their `PGresult`.
//
// Errors carry the server's message and SQLSTATE, mapped onto the project's codes so the
// hotel's `BenchClient` contract holds: 23505 unique_violation -> kAlreadyExists, 23503
// foreign_key_violation -> kNotFound, 22xxx data exceptions -> kInvalid, 40001
// serialization_failure and 40P01 deadlock_detected -> kUnavailable (retry), a lost
// connection (class 08, or no result) -> kIOError, anything else -> kInternal.
//
// Thread-safety: a connection is NOT thread-safe (libpq's rule); one per thread.

#pragma once

#include <libpq-fe.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace peer {

// A query's rows, as text (libpq's text format). Move-only.
class PgResult {
 public:
  explicit PgResult(PGresult* result) : result_(result, &PQclear) {}
  int rows() const { return PQntuples(result_.get()); }
  bool IsNull(int row, int column) const { return PQgetisnull(result_.get(), row, column) != 0; }
  // The value as text ("" for NULL). REQUIRES: row < rows(), column < the result's columns.
  std::string_view Text(int row, int column) const {
    return {PQgetvalue(result_.get(), row, column),
            static_cast<size_t>(PQgetlength(result_.get(), row, column))};
  }
  // The value as an integer (0 for NULL or text that is not one).
  int64_t Integer(int row, int column) const;
  // The number of rows an INSERT/UPDATE/DELETE without RETURNING affected.
  int64_t Affected() const;

 private:
  std::unique_ptr<PGresult, decltype(&PQclear)> result_;
};

class PgConnection {
 public:
  // Connects with a libpq connection string ("host=... port=... dbname=...").
  // Errors: kIOError with libpq's message.
  static common::Result<std::unique_ptr<PgConnection>> Connect(const std::string& conninfo);

  // Runs one or more statements without parameters (DDL, BEGIN, SET ...); the last result's
  // rows. Errors: as the file comment.
  common::Result<PgResult> Execute(const std::string& sql);
  // Prepares `sql` ($1, $2, ... as parameters) under `name` on this connection.
  common::Status Prepare(const std::string& name, const std::string& sql);
  // Executes a statement prepared on this connection with text parameters (nullopt-free: pass
  // "" and NULLIF in the SQL where a NULL is wanted).
  common::Result<PgResult> Run(const std::string& name, const std::vector<std::string>& params);
  // COPY ... FROM STDIN with `data` in COPY's text format (tab-separated, one row per line).
  common::Status Copy(const std::string& copy_sql, std::string_view data);

  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

 private:
  explicit PgConnection(PGconn* connection) : connection_(connection, &PQfinish) {}
  // The Status of a finished command; Ok for COMMAND_OK and TUPLES_OK.
  common::Result<PgResult> Check(PGresult* result);

  std::unique_ptr<PGconn, decltype(&PQfinish)> connection_;
};

// `values` as a PostgreSQL array literal for a text[] parameter: {"a","b"} with `"` and `\`
// escaped.
std::string ArrayLiteral(const std::vector<std::string>& values);

}  // namespace peer
