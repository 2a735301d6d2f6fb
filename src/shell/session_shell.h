// SessionShell: the `cql` shell executing statements on a `cql::Session`: the C++ driver's
// RemoteSession (`cql [host [port]]`) or the embedded engine's (`cql --data DIR`).
//
// Input comes through the shared CommandLoop (terminal, `-e`, `-f`, SOURCE). Each statement
// runs through the session with cqlsh's defaults (consistency ONE, serial consistency SERIAL,
// pages of 100 rows, every page fetched) and its result prints as cqlsh prints it
// (result_printer.h): SELECT rows as a table and `(N rows)`, the `[applied]` row of a
// lightweight transaction, DESCRIBE's CREATE statements (from the server's DESCRIBE, or built
// from system_schema when the server has none: system_schema_reader.h), warnings. Errors
// print on the error stream in cqlsh's words (`CqlshErrorText`).
//
// Shell commands besides the loop's (HELP, SOURCE, EXIT/QUIT):
//   EXPAND [ON|OFF]                      vertical output, with cqlsh's messages
//   CONSISTENCY [level]                  the consistency level sent with every statement
//   SERIAL CONSISTENCY [SERIAL|LOCAL_SERIAL]
//   PAGING [ON|OFF|n]                    the page size; at the terminal, cqlsh's "---MORE---"
//                                        prompt between pages (Enter for the next page)
//   TRACING [ON|OFF]                     traces each statement and prints its trace after the
//                                        result, as cqlsh (trace_printer.h); statements on
//                                        system_traces itself are not traced
//   COPY ... TO | FROM ...               CSV export and import (copy_command.h)
//   CAPTURE ['file' | OFF]               results go to (are appended to) a file
//   LOGIN user ['password']              reconnects as another user (SessionShellOptions::login);
//                                        without a password, asks for it (echo off)
//   SHOW VERSION | HOST                  the banner's server version, the connection
//   CLEAR | CLS                          clears the terminal
// The prompt is `cqlsh> `, or `cqlsh:ks> ` once USE has chosen a keyspace. Tab completes
// keywords and schema names (schema_names.h), read through the session and re-read after a
// statement changed the schema.
//
// Thread-safety: not thread-safe; one shell per thread. Other threads may share the session
// when its implementation is thread-safe (both are; COPY FROM relies on it).

#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "cql/session.h"
#include "shell/command_loop.h"
#include "shell/result_printer.h"
#include "shell/schema_names.h"

namespace shell {

// `status` as cqlsh prints a failed statement: the Python driver's exception class and text,
// e.g. `InvalidRequest: Error from server: code=2200 [Invalid query] message="..."`,
// `SyntaxException: line 1:7 ...`, `AlreadyExists: Table 'ks.t' already exists`. Internal
// codes print as `ServerError: message`. REQUIRES: !status.ok().
std::string CqlshErrorText(const common::Status& status);

// A failed connection as cqlsh reports it (the Python driver's NoHostAvailable), e.g.
// `Connection error: ('Unable to connect to any servers', {'127.0.0.1:9042':
// ConnectionRefusedError(111, "Tried connecting to [('127.0.0.1', 9042)]. Last error:
// Connection refused")})` (one line). A failed TLS handshake shows the driver's reason:
// `... {'h:1': SSLError("TLS handshake with h:1 failed: certificate verify failed (...)")})`.
// `status` is what RemoteSession::Connect returned.
std::string ConnectionErrorText(std::string_view host, uint16_t port, const common::Status& status);

// cqlsh's page size.
constexpr int32_t kDefaultPageSize = 100;

struct SessionShellOptions {
  // Rows fetched per page.
  int32_t page_size = kDefaultPageSize;
  // Printed when an interactive session starts, before "Use HELP for help.".
  std::string banner;
  cql::CqlshFormatOptions values;
  // LOGIN: opens a new session as `user`; null when the shell cannot reconnect (the embedded
  // engine has no users).
  std::function<common::Result<std::unique_ptr<cql::Session>>(const std::string& user,
                                                              const std::string& password)>
      login;
  // Asks for LOGIN's password when the command gives none (shown `prompt`, no echo); null:
  // ReadPassword (password_prompt.h). Errors end the LOGIN with their message.
  std::function<common::Result<std::string>(std::string_view prompt)> read_password;
  // SHOW VERSION's text and SHOW HOST's (cqlsh's "[cqlsh ... | Cassandra ...]" and
  // "Connected to ... at host:port.").
  std::string version;
  std::string host;
  // Whether standard output is a terminal: progress lines of COPY.
  bool output_is_terminal = false;
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
  // The session statements run on (after LOGIN, the new one, owned by the shell).
  cql::Session* session() const { return session_; }

 protected:
  bool Execute(std::string_view statement) override;
  std::string Prompt(bool continuation) const override;
  void PrintBanner() override;
  void PrintHelp(std::string_view topic) override;
  std::vector<std::string> Complete(std::string_view context, std::string_view word) override;

 private:
  // A CQL statement: executed, every page printed.
  bool RunQuery(std::string_view statement);
  bool RunDescribe(std::string_view statement);
  // EXPAND and TRACING: cqlsh's ON/OFF switches (its SwitchCommand), turning `*flag` on and
  // off with messages naming `command` and `description`. `words` are the statement's words.
  bool RunSwitch(const std::vector<std::string>& words, std::string_view command,
                 std::string_view description, bool* flag);
  // Prints the trace of the session `id` (TRACING ON), or cqlsh's error when it cannot.
  void PrintTrace(const common::Uuid& id);
  bool RunConsistency(const std::vector<std::string>& words);
  bool RunSerialConsistency(const std::vector<std::string>& words);
  bool RunPaging(const std::vector<std::string>& words);
  bool RunCopy(std::string_view statement);
  bool RunCapture(std::string_view statement);
  bool RunLogin(const std::vector<std::string>& words);
  bool RunShow(const std::vector<std::string>& words);
  cql::QueryOptions Options() const;
  TableStyle Style() const;
  void Write(std::string_view text);

  cql::Session* session_;
  std::unique_ptr<cql::Session> owned_session_;  // after LOGIN
  SessionShellOptions options_;
  SchemaNames names_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> capture_{nullptr, &std::fclose};
  std::string capture_path_;
  bool expand_ = false;
  bool tracing_ = false;
  bool paging_ = true;
  cql::Consistency consistency_ = cql::Consistency::kOne;
  cql::Consistency serial_consistency_ = cql::Consistency::kSerial;
};

}  // namespace shell
