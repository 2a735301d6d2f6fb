// libFuzzer target for fuzz::CheckParserInput (fuzz_checks.h): a violated invariant aborts, so
// libFuzzer keeps the input (scripts/run-fuzzers moves it to tests/fuzz/regressions/parser/).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string failure =
      fuzz::CheckParserInput(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!failure.empty()) {
    std::fprintf(stderr, "invariant violated: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
