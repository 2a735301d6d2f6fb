// Replays every input the fuzzers found (tests/fuzz/regressions/<target>/) and every seed of
// their corpora through the same invariants, so a fixed crash stays fixed in `make test`.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/fuzz/fuzz_checks.h"

namespace {

namespace fs = std::filesystem;

int ReplayDirectory(const fs::path& dir, std::string (*check)(std::string_view)) {
  int count = 0;
  if (!fs::exists(dir)) return 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename() == ".gitkeep") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string failure = check(buffer.str());
    EXPECT_EQ(failure, "") << entry.path();
    ++count;
  }
  return count;
}

const fs::path kFuzzDir = fs::path(CQLD_TEST_DATA_DIR).parent_path() / "fuzz";

TEST(FuzzRegressionsTest, ParserInputs) {
  int replayed = ReplayDirectory(kFuzzDir / "regressions" / "parser", fuzz::CheckParserInput) +
                 ReplayDirectory(kFuzzDir / "corpus" / "parser", fuzz::CheckParserInput);
  EXPECT_GT(replayed, 0) << "the parser corpus is missing";
}

TEST(FuzzRegressionsTest, ValueInputs) {
  int replayed = ReplayDirectory(kFuzzDir / "regressions" / "value", fuzz::CheckValueInput) +
                 ReplayDirectory(kFuzzDir / "corpus" / "value", fuzz::CheckValueInput);
  EXPECT_GT(replayed, 0) << "the value corpus is missing";
}

TEST(FuzzRegressionsTest, ProtocolInputs) {
  int replayed = ReplayDirectory(kFuzzDir / "regressions" / "protocol", fuzz::CheckProtocolInput) +
                 ReplayDirectory(kFuzzDir / "corpus" / "protocol", fuzz::CheckProtocolInput);
  EXPECT_GT(replayed, 0) << "the protocol corpus is missing";
}

}  // namespace
