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

// Bytes from a native-protocol peer (protocol_checks.cc). The first byte picks the framing:
// bit 0 segments (v5) or envelopes (v4), bits 1-2 the compression (none, lz4, snappy), bits
// 3-7 the chunk size the rest is fed to FrameReader in:
// 1. FrameReader and every request and response decoder never crash, whatever the bytes claim.
// 2. A request that decodes re-encodes canonically.
// 3. Rows that decode re-encode into rows that decode.
// 4. An envelope read, written again by FrameWriter in the same mode and read back, is unchanged.
std::string CheckProtocolInput(std::string_view input);

}  // namespace fuzz
