// libFuzzer target for the protocol layer; the invariants are fuzz::CheckProtocolInput
// (fuzz_checks.h): nothing crashes, decoded requests re-encode canonically, decoded rows
// re-encode and decode, and re-framed envelopes read back unchanged. A violation aborts, so
// libFuzzer keeps the input (scripts/run-fuzzers moves it to tests/fuzz/regressions/protocol/).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string violation =
      fuzz::CheckProtocolInput(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!violation.empty()) {
    std::fprintf(stderr, "invariant violated: %s\n", violation.c_str());
    std::abort();
  }
  return 0;
}
