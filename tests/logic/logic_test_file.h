// The CQL logic-test file format (`tests/cql/**/*.test`), after sqllogictest and DuckDB's
// `.test` files: a readable list of statements and their expected outcomes. The format is
// documented in docs/dev/testing.md; this file only reads it into records.
//
//   # a comment
//   require engine             (the file needs an executor that runs queries)
//
//   statement ok
//   CREATE TABLE t (k int PRIMARY KEY, v text)
//
//   statement error no viable alternative at input 'FROM'
//   SELECT FROM t
//
//   query
//   SELECT k, v FROM t
//   ----
//   1 | one
//
//   value map<text, int>
//   {'b': 2, 'a': 1}
//   ----
//   {'a': 1, 'b': 2}
//
// A record's text runs to the next blank line (or `----`). Expected `value` output that starts
// with `error: ` expects an error whose message contains the rest.
//
// Thread-safety: plain data.

#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace logic_test {

enum class RecordKind { kStatementOk, kStatementError, kQuery, kValue };

struct Record {
  RecordKind kind = RecordKind::kStatementOk;
  int line = 0;                       // 1-based line of the directive in the file
  std::string argument;               // error substring (statement error) or the type (value)
  std::string text;                   // the CQL statement or literal
  std::vector<std::string> expected;  // expected lines after `----`
};

struct TestFile {
  std::string path;
  std::vector<std::string> requires_features;  // from `require <feature>` lines
  std::vector<Record> records;
};

// Parses the contents of a `.test` file. Fails with a message naming the line on a malformed
// directive.
common::Result<TestFile> ParseTestFile(std::string path, std::string_view contents);

}  // namespace logic_test
