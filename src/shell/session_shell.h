// SessionShell: the `cql` shell executing statements on a `cql::Session` (`cql --data DIR`
// opens the embedded engine and gives its session; the C++ driver's session will plug in the
// same way).
//
// Input comes through the shared CommandLoop (terminal, `-e`, `-f`, SOURCE). Each statement
// runs through the session with cqlsh's defaults (consistency ONE, serial consistency SERIAL,
// pages of 100 rows, every page fetched) and its result prints as cqlsh prints it
// (result_printer.h): SELECT rows as a table and `(N rows)`, the `[applied]` row of a
// lightweight transaction, DESCRIBE's CREATE statements, warnings. Errors print on the error
// stream in cqlsh's words (`CqlshErrorText`).
//
// Shell commands besides the loop's (HELP, SOURCE, EXIT/QUIT):
//   EXPAND [ON|OFF]                      vertical output, with cqlsh's messages
//   CONSISTENCY [level]                  the consistency level sent with every statement
//   SERIAL CONSISTENCY [SERIAL|LOCAL_SERIAL]
//   PAGING [ON|OFF|n]                    the page size (every page is printed either way:
//                                        pages only change where headers and widths restart)
//   TRACING [ON|OFF]                     reports that tracing is unavailable (the embedded
//                                        engine records no traces); OFF and the query work
// The prompt is `cqlsh> `, or `cqlsh:ks> ` once USE has chosen a keyspace.
//
// Thread-safety: not thread-safe; one shell per thread. Other threads may share the session
// when its implementation is thread-safe (the embedded one is).

#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "cql/session.h"
#include "shell/command_loop.h"
#include "shell/result_printer.h"

namespace shell {

// `status` as cqlsh prints a failed statement: the Python driver's exception class and text,
// e.g. `InvalidRequest: Error from server: code=2200 [Invalid query] message="..."`,
// `SyntaxException: line 1:7 ...`, `AlreadyExists: Table 'ks.t' already exists`. Internal
// codes print as `ServerError: message`. REQUIRES: !status.ok().
std::string CqlshErrorText(const common::Status& status);

// cqlsh's page size.
constexpr int32_t kDefaultPageSize = 100;

struct SessionShellOptions {
  // Rows fetched per page.
  int32_t page_size = kDefaultPageSize;
  // Printed when an interactive session starts, before "Use HELP for help.".
  std::string banner;
  cql::CqlshFormatOptions values;
};

class SessionShell : public CommandLoop {
 public:
  // Runs statements on `session`, writing results to `out` and errors to `err`. None is owned.
  // REQUIRES: all three outlive the shell.
  SessionShell(cql::Session* session, std::FILE* out, std::FILE* err,
               SessionShellOptions options = {})
      : CommandLoop(out, err), session_(session), options_(std::move(options)) {}

  bool expand() const { return expand_; }
  // Rows per page; -1 when paging is off.
  int32_t page_size() const { return paging_ ? options_.page_size : -1; }
  cql::Consistency consistency() const { return consistency_; }

 protected:
  bool Execute(std::string_view statement) override;
  std::string Prompt(bool continuation) const override;
  void PrintBanner() override;
  void PrintHelp() override;

 private:
  // A CQL statement: executed, every page printed.
  bool RunQuery(std::string_view statement);
  bool RunDescribe(std::string_view statement);
  // EXPAND and TRACING: cqlsh's ON/OFF switches. `words` are the statement's words.
  bool RunExpand(const std::vector<std::string>& words);
  bool RunTracing(const std::vector<std::string>& words);
  bool RunConsistency(const std::vector<std::string>& words);
  bool RunSerialConsistency(const std::vector<std::string>& words);
  bool RunPaging(const std::vector<std::string>& words);
  cql::QueryOptions Options() const;
  TableStyle Style() const;
  void Write(std::string_view text);

  cql::Session* session_;
  SessionShellOptions options_;
  bool expand_ = false;
  bool paging_ = true;
  cql::Consistency consistency_ = cql::Consistency::kOne;
  cql::Consistency serial_consistency_ = cql::Consistency::kSerial;
};

}  // namespace shell
