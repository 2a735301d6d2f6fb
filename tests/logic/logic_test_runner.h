// Runs parsed logic-test files (logic_test_file.h) against an Executor and reports every
// mismatch with its file and line.
//
// The Executor is what gives the statements meaning. The front-end executor
// (front_end_executor.h) parses statements and evaluates literals; once the engine exists an
// engine executor runs the same files against a real database. A file that `require`s a
// feature the executor lacks is skipped as a whole.
//
// Every statement that the executor accepts is also checked to survive the canonical printer:
// `Parse(Print(Parse(s))) == Parse(s)` (needed by DESCRIBE), via Executor::CheckRoundTrip.
//
// Thread-safety: not thread-safe; one runner per thread.

#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "tests/logic/logic_test_file.h"

namespace logic_test {

class Executor {
 public:
  virtual ~Executor() = default;
  // Whether this executor provides `feature` (e.g. "engine").
  virtual bool Supports(std::string_view feature) const = 0;
  // Prepares what a file's `require feature` asks for, before its first record (e.g. "auth":
  // a database with authentication on). REQUIRES: Supports(feature).
  virtual common::Status Require(std::string_view /*feature*/) { return common::Status::Ok(); }
  // Runs one statement, with `options` (bound values) when they are not the default.
  virtual common::Status Execute(std::string_view statement, const RunOptions& options) = 0;
  // Runs one query; each row is its values formatted as cqlsh prints them. With a page size in
  // `options`, the rows of every page in order.
  virtual common::Result<std::vector<std::vector<std::string>>> Query(
      std::string_view statement, const RunOptions& options) = 0;
  // Evaluates `literal` as a value of `type`, formatted as cqlsh prints it.
  virtual common::Result<std::string> Value(std::string_view type, std::string_view literal) = 0;
  // Checks that `statement` prints back to CQL that parses to the same statement; an error
  // describes the difference.
  virtual common::Status CheckRoundTrip(std::string_view statement) = 0;
};

struct FileResult {
  int passed = 0;
  int failed = 0;
  bool skipped = false;
  std::string skip_reason;
  std::vector<std::string> failures;  // one message per failed record
};

// Runs every record of `file` in order.
FileResult RunTestFile(const TestFile& file, Executor* executor);

}  // namespace logic_test
