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
// Two lines may come right before a `statement` or `query` directive (engine files only):
//
//   bind 1, null, unset, {'a': 1}   the statement is prepared and executed with these values
//                                  for its markers: CQL literals of the markers' types, `null`,
//                                  `unset`, or one of two forms:
//        raw(0x0001ff)             exactly these bytes, not re-serialized (as a driver may send
//                                  them: unsorted sets, duplicates)
//        repeat('ab', 3)           the text repeated N times ('ababab'), serialized for a text,
//                                  ascii or blob marker (a blob gets the UTF-8 bytes)
//                                  Any other `name(...)` is an error of the file.
//   paged 2                        the query is read 2 rows per page, following the paging
//                                  state to the end; every page must hold at most 2 rows
//
// Thread-safety: plain data.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace logic_test {

enum class RecordKind { kStatementOk, kStatementError, kQuery, kValue };

// One value of a `bind` line.
struct BindValue {
  enum class Kind {
    kLiteral,  // a CQL literal, `null` or `unset`: `text` is it, evaluated for the marker's type
    kRaw,      // raw(0x...): `text` is the bytes
    kRepeat,   // repeat('...', N): `text` is the text, repeated `count` times
  };
  Kind kind = Kind::kLiteral;
  std::string source;  // as written in the file, for messages
  std::string text;
  int64_t count = 0;
};

// The most bytes a repeat() may make (a larger count is taken for a typo).
inline constexpr int64_t kMaxRepeatBytes = int64_t{64} << 20;

// How a statement runs: with bound values, and (queries) page by page.
struct RunOptions {
  std::optional<std::vector<BindValue>> binds;  // the values of `bind`, one per marker
  int page_size = 0;                            // `paged N`; 0: one page
  bool is_default() const { return !binds.has_value() && page_size == 0; }
};

struct Record {
  RecordKind kind = RecordKind::kStatementOk;
  int line = 0;                       // 1-based line of the directive in the file
  std::string argument;               // error substring (statement error) or the type (value)
  std::string text;                   // the CQL statement or literal
  std::vector<std::string> expected;  // expected lines after `----`
  RunOptions options;                 // from `bind` / `paged` lines before the directive
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
