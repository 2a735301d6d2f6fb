#include "common/rotating_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "common/logging.h"

namespace common {
namespace {

namespace fs = std::filesystem;

class RotatingFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("rotating_file_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string Read(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path dir_;
};

TEST_F(RotatingFileTest, AppendsAndRotatesBySizeKeepingMaxFiles) {
  std::string path = (dir_ / "cqld.log").string();
  std::string error;
  auto file = RotatingFile::Open(path, 10, 2, &error);
  ASSERT_NE(file, nullptr) << error;
  file->Append("aaaa\n");  // 5 bytes
  file->Append("bbbb\n");  // 10: still fits
  file->Append("cccc\n");  // would be 15: rotate first
  EXPECT_EQ(Read(path), "cccc\n");
  EXPECT_EQ(Read(path + ".1"), "aaaa\nbbbb\n");
  file->Append("dddddddd\n");          // rotate: .1 -> .2
  file->Append("eeeeeeeeeeeeeeee\n");  // longer than the limit: a file of its own
  file->Append("f\n");
  EXPECT_EQ(Read(path), "f\n");
  EXPECT_EQ(Read(path + ".1"), "eeeeeeeeeeeeeeee\n");
  EXPECT_EQ(Read(path + ".2"), "dddddddd\n");
  EXPECT_FALSE(fs::exists(path + ".3"));  // cccc was the oldest beyond max_files
  EXPECT_EQ(file->dropped(), 0u);
}

TEST_F(RotatingFileTest, ReopeningAppendsToTheExistingFile) {
  std::string path = (dir_ / "audit.log").string();
  std::string error;
  RotatingFile::Open(path, 100, 1, &error)->Append("one\n");
  RotatingFile::Open(path, 100, 1, &error)->Append("two\n");
  EXPECT_EQ(Read(path), "one\ntwo\n");
}

TEST_F(RotatingFileTest, UnopenablePathIsAnError) {
  std::string error;
  EXPECT_EQ(RotatingFile::Open((dir_ / "missing" / "x.log").string(), 100, 1, &error), nullptr);
  EXPECT_NE(error.find("missing/x.log"), std::string::npos) << error;
}

TEST_F(RotatingFileTest, ARemovedDirectoryDropsLinesWithoutFailing) {
  fs::path sub = dir_ / "sub";
  fs::create_directories(sub);
  std::string error;
  auto file = RotatingFile::Open((sub / "x.log").string(), 4, 1, &error);
  ASSERT_NE(file, nullptr) << error;
  file->Append("12345\n");
  fs::remove_all(sub);
  file->Append("more\n");  // rotation cannot reopen: dropped
  file->Append("again\n");
  EXPECT_GE(file->dropped(), 1u);
}

TEST(LoggingTest, LevelsParseAndName) {
  EXPECT_EQ(ParseLogLevel("warn"), LogLevel::kWarning);
  EXPECT_EQ(ParseLogLevel("WARNING"), LogLevel::kWarning);
  EXPECT_EQ(ParseLogLevel("Trace"), LogLevel::kDebug);
  EXPECT_EQ(ParseLogLevel("off"), LogLevel::kOff);
  EXPECT_EQ(ParseLogLevel("loud"), std::nullopt);
  EXPECT_EQ(LogLevelName(LogLevel::kError), "ERROR");
}

TEST(LoggingTest, TextAndJsonLines) {
  int64_t millis = 1795662000123;  // 2026-11-26T03:00:00.123Z
  EXPECT_EQ(FormatLogLine(LogFormat::kText, LogLevel::kWarning, millis, "x.cc:7", "hello"),
            "2026-11-26T03:00:00.123Z W x.cc:7] hello");
  EXPECT_EQ(FormatLogLine(LogFormat::kJson, LogLevel::kInfo, millis, "x.cc:7", "a \"q\"\n\x01\xff"),
            R"({"timestamp":"2026-11-26T03:00:00.123Z","level":"INFO","source":"x.cc:7",)"
            R"("message":"a \"q\"\n\u0001)"
            "\xef\xbf\xbd\"}");
}

TEST_F(RotatingFileTest, LogSinkWritesToTheFileAtTheLevelSet) {
  std::string path = (dir_ / "cqld.log").string();
  LogSinkOptions options;
  options.file = path;
  options.format = LogFormat::kJson;
  ASSERT_EQ(SetLogSink(options), "");
  LogLevel before = GetLogLevel();
  SetLogLevel(LogLevel::kWarning);
  LOG_INFO("not written");
  LOG_WARNING("written {}", 42);
  SetLogLevel(before);
  ASSERT_EQ(SetLogSink(LogSinkOptions{}), "");  // back to stderr
  std::string text = Read(path);
  EXPECT_EQ(text.find("not written"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("level":"WARN")"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("message":"written 42"})"), std::string::npos) << text;
  options.file = (dir_ / "no" / "such.log").string();
  EXPECT_NE(SetLogSink(options), "");
}

}  // namespace
}  // namespace common
