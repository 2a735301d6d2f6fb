// The invariants the fuzz targets check, shared with the regression test that replays every
// input the fuzzers ever found (tests/suites/fuzz_regressions_test.cc), so a fixed crash stays
// fixed in `make test`.
//
// Each check returns an empty string when the input upholds the invariants, or a description
// of the violation. A crash or sanitizer report inside a check is itself a finding.

#pragma once

#include <string>
#include <string_view>

namespace fuzz {

// The CQL front end on arbitrary text:
// 1. ParseStatement, ParseScript, ParseTerm and ParseType never crash.
// 2. A statement that parses prints to canonical CQL that parses to an equal statement.
std::string CheckParserInput(std::string_view text);

// Serialized values from an untrusted peer. The first byte picks a type (a fixed list of
// native, collection, tuple, UDT and vector types); the rest is the value:
// 1. ValidateValue, FormatValue, FormatValueAsCql, CompareValues and the key encoding never
//    crash, whatever the bytes claim.
// 2. A valid value compares equal to itself.
// 3. A valid native value of a key-capable type decodes from its key encoding to the same
//    bytes, ascending and descending.
std::string CheckValueInput(std::string_view input);

}  // namespace fuzz
