// SchemaNames: the keyspace, table, view, type and column names the `cql` shell completes with
// Tab, read from `system_schema` through the shell's `cql::Session` and cached until the schema
// changes; and `CompletionCandidates`, which picks the candidates that fit the statement text
// before the cursor (keywords, keyspaces, tables, columns).
//
// Pipeline position: CommandLoop's readline hook asks SessionShell::Complete, which refreshes
// this cache when stale (after DDL or USE) and calls CompletionCandidates.
//
// Thread-safety: not thread-safe; owned by one shell.

#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "cql/session.h"

namespace shell {

class SchemaNames {
 public:
  // Reads every keyspace, table, view, type and column name from `system_schema` through
  // `session`. On error the cache keeps what it had and the error is returned.
  common::Status Refresh(cql::Session& session);

  // Marks the cache stale (after a schema change).
  void Invalidate() { fresh_ = false; }
  bool fresh() const { return fresh_; }

  std::vector<std::string> Keyspaces() const;
  // Tables and materialized views of `keyspace`.
  std::vector<std::string> Tables(std::string_view keyspace) const;
  std::vector<std::string> Types(std::string_view keyspace) const;
  // The columns of `keyspace`.`table` (a table or view), in no particular order.
  std::vector<std::string> Columns(std::string_view keyspace, std::string_view table) const;

  // Adds names directly (tests, and the refresh itself).
  void AddKeyspace(const std::string& keyspace) { keyspaces_[keyspace]; }
  void AddTable(const std::string& keyspace, const std::string& table) {
    keyspaces_[keyspace].tables[table];
  }
  void AddColumn(const std::string& keyspace, const std::string& table, const std::string& column) {
    keyspaces_[keyspace].tables[table].push_back(column);
  }
  void AddType(const std::string& keyspace, const std::string& type) {
    keyspaces_[keyspace].types.push_back(type);
  }

 private:
  struct Keyspace {
    std::map<std::string, std::vector<std::string>, std::less<>> tables;  // name -> columns
    std::vector<std::string> types;
  };
  std::map<std::string, Keyspace, std::less<>> keyspaces_;
  bool fresh_ = false;
};

// The completion candidates for the word being typed, given `context` (the statement text
// before that word) and the session's keyspace (`keyspace`, empty when none):
//   - after `ks.`: the tables and views of ks (types after CREATE/ALTER/DROP TYPE);
//   - after USE, KEYSPACE, KEYSPACES ... : keyspace names;
//   - after FROM, INTO, UPDATE, TABLE, TRUNCATE, COPY, ON, VIEW: tables of the current keyspace
//     and keyspace names;
//   - after SELECT, WHERE, AND, SET, BY, `(`, `,` when the statement names a table: its columns
//     (and keywords);
//   - otherwise CQL keywords and shell commands.
// Names that need quoting are quoted. Keywords come in the letter case of `word` (lower case
// when `word` is lower case, else upper case). Candidates are not filtered by `word`.
std::vector<std::string> CompletionCandidates(const SchemaNames& names, std::string_view keyspace,
                                              std::string_view context, std::string_view word);

}  // namespace shell
