// cql_logic_tests: runs CQL logic-test files (docs/dev/testing.md).
//
//   cql_logic_tests FILE.test...
//
// Prints each failure with its file and line, then "N passed, N failed". Exits 0 when every
// record passed, 1 on any failure or unreadable file, and 77 (CTest's skip code) when every
// file was skipped for a missing feature.

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/logic/engine_executor.h"
#include "tests/logic/front_end_executor.h"
#include "tests/logic/logic_test_file.h"
#include "tests/logic/logic_test_runner.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE.test...\n", argv[0]);
    return 2;
  }
  int passed = 0;
  int failed = 0;
  int skipped_files = 0;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot read\n", argv[i]);
      ++failed;
      continue;
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    auto file = logic_test::ParseTestFile(argv[i], buffer.str());
    if (!file.ok()) {
      std::fprintf(stderr, "%s\n", file.status().message().c_str());
      ++failed;
      continue;
    }
    // A fresh executor per file: files are independent. Files that need the engine (and
    // only those: the others hold statements the engine does not run, such as roles) run
    // against a database in a temporary directory.
    logic_test::FileResult result;
    {
      logic_test::FrontEndExecutor executor;
      result = logic_test::RunTestFile(*file, &executor);
    }
    if (result.skipped) {
      logic_test::EngineExecutor executor;
      result = logic_test::RunTestFile(*file, &executor);
    }
    if (result.skipped) {
      std::printf("%s: skipped (%s)\n", argv[i], result.skip_reason.c_str());
      ++skipped_files;
      continue;
    }
    for (const auto& failure : result.failures) std::printf("FAIL %s\n\n", failure.c_str());
    passed += result.passed;
    failed += result.failed;
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  if (failed > 0) return 1;
  if (skipped_files == argc - 1) return 77;
  return 0;
}
