#include "storage/info_log.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace storage {
namespace {

class InfoLogFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "cqld-log-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  std::string Read(const std::string& name) {
    std::ifstream in(directory_ + "/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::string directory_;
};

TEST_F(InfoLogFileTest, WritesLinesAtOrAboveItsLevel) {
  auto log = std::make_shared<InfoLogFile>(directory_);
  std::shared_ptr<rocksdb::Logger> logger = log;
  rocksdb::Log(rocksdb::InfoLogLevel::DEBUG_LEVEL, logger, "hidden %d", 1);
  rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, logger, "flushed %d bytes", 42);
  rocksdb::Log(rocksdb::InfoLogLevel::ERROR_LEVEL, logger, "disk %s", "full");
  std::string text = Read("LOG");
  EXPECT_EQ(text.find("hidden"), std::string::npos);
  EXPECT_NE(text.find("flushed 42 bytes\n"), std::string::npos);
  EXPECT_NE(text.find("[ERROR] disk full\n"), std::string::npos);
  EXPECT_EQ(log->GetLogFileSize(), text.size());
}

TEST_F(InfoLogFileTest, KeepsThePreviousFileAsLogOld) {
  {
    auto first = std::make_shared<InfoLogFile>(directory_);
    std::shared_ptr<rocksdb::Logger> logger = first;
    rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, logger, "first run");
  }
  auto second = std::make_shared<InfoLogFile>(directory_);
  EXPECT_NE(Read("LOG.old").find("first run"), std::string::npos);
  EXPECT_EQ(Read("LOG"), "");
}

TEST_F(InfoLogFileTest, RotatesPastItsSizeLimit) {
  auto log = std::make_shared<InfoLogFile>(directory_, /*max_bytes=*/100);
  std::shared_ptr<rocksdb::Logger> logger = log;
  for (int i = 0; i < 10; ++i) {
    rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, logger, "line number %d of the test", i);
  }
  EXPECT_LE(log->GetLogFileSize(), 200u);
  EXPECT_NE(Read("LOG").find("line number 9"), std::string::npos);
  EXPECT_FALSE(Read("LOG.old").empty());
}

TEST_F(InfoLogFileTest, AnUnwritableDirectoryDropsLines) {
  auto log = std::make_shared<InfoLogFile>(directory_ + "/missing");
  std::shared_ptr<rocksdb::Logger> logger = log;
  rocksdb::Log(rocksdb::InfoLogLevel::ERROR_LEVEL, logger, "nowhere to go");
  EXPECT_EQ(log->GetLogFileSize(), 0u);
}

}  // namespace
}  // namespace storage
