#include "storage/wal_file_system.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <rocksdb/db.h>
#include <rocksdb/file_system.h>

namespace storage {
namespace {

class ZeroFilledWalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "cqld-wal-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
    env_ = NewZeroFilledWalEnv();
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  std::string ReadFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  // Creates `name` through the env's file system, appends `bytes`, and returns the file's
  // size on disk before Close (through `open_size`) and after.
  uint64_t WriteAndClose(const std::string& name, const std::string& bytes, uint64_t* open_size) {
    std::unique_ptr<rocksdb::FSWritableFile> file;
    rocksdb::IOOptions io;
    EXPECT_TRUE(
        env_->GetFileSystem()
            ->NewWritableFile(directory_ + "/" + name, rocksdb::FileOptions(), &file, nullptr)
            .ok());
    EXPECT_TRUE(file->Append(bytes, io, nullptr).ok());
    EXPECT_TRUE(file->Sync(io, nullptr).ok());
    *open_size = std::filesystem::file_size(directory_ + "/" + name);
    EXPECT_TRUE(file->Close(io, nullptr).ok());
    return std::filesystem::file_size(directory_ + "/" + name);
  }

  std::string directory_;
  std::unique_ptr<rocksdb::Env> env_;
};

// Invariants 1, 2 and 4: a log gets zeros ahead of what was appended, whole chunks of them,
// and loses them at Close; other files are left alone.
TEST_F(ZeroFilledWalTest, LogFilesAreZeroFilledAheadAndTrimmedAtClose) {
  uint64_t open_size = 0;
  EXPECT_EQ(WriteAndClose("000007.log", "record", &open_size), 6u);
  EXPECT_EQ(open_size, kZeroFillChunk);
  std::string big(kZeroFillChunk + 10, 'x');
  EXPECT_EQ(WriteAndClose("000008.log", big, &open_size), big.size());
  EXPECT_EQ(open_size, 2 * kZeroFillChunk);
  EXPECT_EQ(ReadFile(directory_ + "/000008.log"), big);
  for (const char* other : {"MANIFEST-000005", "OPTIONS-000009", "LOG", "000010.sst", "x.log"}) {
    EXPECT_EQ(WriteAndClose(other, "record", &open_size), 6u) << other;
    EXPECT_EQ(open_size, 6u) << other;
  }
}

// Invariant 3: the live log of a database that was never closed (a copy taken while it runs,
// as a crash leaves it) ends in zeros, and reopening replays every synced write.
TEST_F(ZeroFilledWalTest, ALogLeftWithZerosRecoversEveryWrite) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.env = env_.get();
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(options, directory_ + "/db", &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::WriteOptions synced;
  synced.sync = true;
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(db->Put(synced, "key" + std::to_string(i), std::string(100, 'v')).ok());
  }
  std::string log;
  for (const auto& entry : std::filesystem::directory_iterator(directory_ + "/db")) {
    if (entry.path().extension() == ".log") log = entry.path().string();
  }
  ASSERT_FALSE(log.empty());
  std::string bytes = ReadFile(log);
  ASSERT_EQ(bytes.size(), kZeroFillChunk);
  EXPECT_EQ(bytes.back(), '\0');
  std::filesystem::copy(directory_ + "/db", directory_ + "/crashed",
                        std::filesystem::copy_options::recursive);
  db.reset();

  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE(rocksdb::DB::Open(options, directory_ + "/crashed", &raw).ok()) << round;
    std::unique_ptr<rocksdb::DB> reopened(raw);
    std::string value;
    for (int i = 0; i < 500; ++i) {
      ASSERT_TRUE(reopened->Get(rocksdb::ReadOptions(), "key" + std::to_string(i), &value).ok())
          << round << " " << i;
    }
    // Writes after the recovery land in a new log and survive the next reopen too.
    ASSERT_TRUE(reopened->Put(synced, "after" + std::to_string(round), "x").ok());
    if (round == 1) {
      EXPECT_TRUE(reopened->Get(rocksdb::ReadOptions(), "after0", &value).ok());
    }
  }
}

}  // namespace
}  // namespace storage
