// CommandLoop: the input side shared by the `cql` shells (syntax-check mode and the shell on a
// `cql::Session`): reading, splitting into statements, the loop's own commands, and where
// errors are reported.
//
// Input comes from the terminal (readline, history, a prompt and a continuation prompt), from
// a script (`-e`, `-f`, standard input) or from `SOURCE 'file'`. Statements end at `;`
// (StatementSplitter); the shell commands cqlsh ends at a newline (HELP, EXIT, QUIT, SOURCE,
// DESCRIBE/DESC, CONSISTENCY, SERIAL, EXPAND, TRACING, PAGING) also end at the end of their
// line. The loop handles EXIT/QUIT, HELP/? and SOURCE itself; everything else goes to the
// subclass's `Execute`.
//
// Errors go to `err`. As in cqlsh, outside the terminal (scripts, and every SOURCE'd file even
// from the terminal) each error is prefixed with `source:line:`, where `source` is the file
// name (`<stdin>` for `-e` and piped input) and `line` the first line of the statement. (cqlsh
// reports the line after the statement's last line; the first line is the useful one.)
// `tty()` tells the subclass whether the statement came from the terminal, which changes a few
// blank lines of cqlsh's output.
//
// EXIT ends the current input: the session, or only the SOURCE'd file it appears in (as in
// cqlsh).
//
// At the terminal, lines go to readline's history and, when `set_history_file` named one, are
// appended to that file as they are entered (read back when the next session starts; a file
// that cannot be read or written is silently ignored, as cqlsh does). Passwords never do: see
// `HistoryEntry`. Tab completes the word
// at the cursor with the candidates `Complete` returns (keywords, schema names).
//
// Thread-safety: not thread-safe; one loop per thread. Readline is process-global, so only
// one loop may run interactively at a time.

#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace shell {

// The contents of the script file at `path`, without a UTF-8 byte order mark. Errors: IOError
// with Python's wording, as cqlsh prints it ("[Errno 2] No such file or directory: 'x.cql'").
common::Result<std::string> ReadScriptFile(const std::string& path);

// What of the terminal line `line` goes to the history, given `pending`, the earlier lines of
// the statement it continues ("" for a new statement): the line itself; `LOGIN user` for
// `LOGIN user 'password'`; nothing (nullopt) when the line holds any part of a string literal
// that follows the word PASSWORD (CREATE/ALTER ROLE/USER ... PASSWORD = '...', also when the
// literal starts on an earlier line).
std::optional<std::string> HistoryEntry(std::string_view pending, std::string_view line);

class CommandLoop {
 public:
  // Writes results to `out` and errors to `err`; neither is owned. REQUIRES: both outlive the
  // loop.
  CommandLoop(std::FILE* out, std::FILE* err) : out_(out), err_(err) {}
  virtual ~CommandLoop() = default;
  CommandLoop(const CommandLoop&) = delete;
  CommandLoop& operator=(const CommandLoop&) = delete;

  // Runs every statement in `script`, which came from `source` (a file name, or "<stdin>"; no
  // error prefix when empty). Returns the number of statements that failed.
  int RunScript(std::string_view script, std::string_view source);
  // Reads statements from the terminal until EXIT or end of input. Returns the number of
  // statements that failed.
  int RunInteractive();

  // The file interactive lines are appended to (cqlsh's ~/.cql_history); empty: none.
  void set_history_file(std::string path) { history_file_ = std::move(path); }

 protected:
  // Executes one complete statement (no trailing `;`, starting at its first token) that is not
  // one of the loop's commands. Returns false when it failed, after reporting why with
  // `ReportError`.
  virtual bool Execute(std::string_view statement) = 0;
  // The prompt: the first line of a statement, or a continuation line.
  virtual std::string Prompt(bool continuation) const = 0;
  // Printed when an interactive session starts.
  virtual void PrintBanner() = 0;
  // The text of HELP, or of HELP `topic` (upper-cased; empty for plain HELP).
  virtual void PrintHelp(std::string_view topic) = 0;
  // Tab completion: the candidates for `word`, the partial word at the cursor, given
  // `context`, the statement text before it (earlier lines of a multi-line statement
  // included). Candidates need not start with `word`; the loop filters them. Default: none.
  virtual std::vector<std::string> Complete(std::string_view context, std::string_view word);

  // At the terminal: prints cqlsh's "---MORE---" prompt and waits for a line. Returns false at
  // end of input (the caller stops paging).
  bool ReadMore();

  // Writes `text` and a newline to the error stream, prefixed with `source:line:` outside the
  // terminal.
  void ReportError(std::string_view text);
  // Whether the current statement was typed at the terminal (cqlsh's `tty`).
  bool tty() const { return tty_; }
  std::FILE* out() const { return out_; }
  std::FILE* err() const { return err_; }

 private:
  // Runs one complete statement or loop command. Returns false when it failed.
  bool RunOne(std::string_view statement, std::string_view source, int line);
  bool RunSource(std::string_view argument);
  // Readline's completion hook for this loop (readline is process-global: the loop running
  // interactively installs it).
  static char** CompleteHook(const char* text, int start, int end);
  static char* CompletionGenerator(const char* text, int state);

  std::FILE* out_;
  std::FILE* err_;
  bool exit_requested_ = false;
  bool tty_ = false;
  int source_depth_ = 0;
  std::string source_;  // where the current statement came from, for ReportError
  int line_ = 0;
  std::string history_file_;
  std::string pending_;                   // the lines of an unfinished statement at the terminal
  std::vector<std::string> completions_;  // candidates of the current completion
};

}  // namespace shell
