// A full disk, for real: the database lives on a small tmpfs (mounted by the test, so it runs
// as root and is skipped otherwise), which the tests fill through the engine in both
// durability modes. Checked: writes fail with WriteFailure and a message naming the disk,
// reads go on, nothing aborts, writes come back by themselves once space is freed (without
// reopening), and a database opened on a full disk opens read-only and becomes writable once
// space is back (storage/store.h header invariants 1-5).

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "cql/types/value_codec.h"
#include "engine/database.h"

namespace engine {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
// Rows of compressible 32 KiB values: the write-ahead log fills the disk quickly while a
// flushed table file stays small, so RocksDB can always flush once space is back.
constexpr size_t kValueBytes = size_t{32} * 1024;
constexpr int kMaxRows = 100000;  // a bound on every fill loop

// A tmpfs of `megabytes` mounted on a fresh directory for the object's lifetime (unmounted,
// lazily so that it never fails, and removed by the destructor, whatever the test did).
class TmpfsMount {
 public:
  explicit TmpfsMount(int megabytes) {
    std::string pattern = (std::filesystem::temp_directory_path() / "cqld-tmpfs-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      error_ = std::string("mkdtemp: ") + std::strerror(errno);
      return;
    }
    path_ = pattern;
    std::string size = "size=" + std::to_string(megabytes) + "m";
    if (::mount("tmpfs", path_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, size.c_str()) != 0) {
      error_ = std::string("mount tmpfs: ") + std::strerror(errno);
      return;
    }
    mounted_ = true;
  }
  ~TmpfsMount() {
    if (mounted_) ::umount2(path_.c_str(), MNT_DETACH);
    if (!path_.empty()) ::rmdir(path_.c_str());
  }
  TmpfsMount(const TmpfsMount&) = delete;
  TmpfsMount& operator=(const TmpfsMount&) = delete;

  bool mounted() const { return mounted_; }
  const std::string& error() const { return error_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string error_;
  bool mounted_ = false;
};

// Writes `path` until it is `bytes` long or the disk is full; the bytes actually written.
uint64_t WriteFile(const std::string& path, uint64_t bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return 0;
  std::string block(size_t{64} * 1024, 'b');
  uint64_t written = 0;
  while (written < bytes) {
    ssize_t n = ::write(fd, block.data(), std::min<uint64_t>(block.size(), bytes - written));
    if (n <= 0) break;
    written += static_cast<uint64_t>(n);
  }
  ::close(fd);
  return written;
}

class DiskFullTest : public ::testing::TestWithParam<DatabaseOptions::Durability> {
 protected:
  static constexpr int kTmpfsMegabytes = 32;

  DiskFullTest() : tmpfs_(kTmpfsMegabytes) {}

  void SetUp() override {
    if (!tmpfs_.mounted()) {
      GTEST_SKIP() << "needs to mount a tmpfs (run as root): " << tmpfs_.error();
    }
    data_ = tmpfs_.path() + "/data";
    ballast_ = tmpfs_.path() + "/ballast";
  }
  void TearDown() override { Close(); }

  void Open(std::optional<uint64_t> floor) {
    Close();
    DatabaseOptions options;
    options.durability = GetParam();
    options.min_free_space_bytes = floor;
    auto db = Database::Open(data_, options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    session_ = db_->NewSession();
  }
  void Close() {
    session_.reset();
    db_.reset();
  }
  void CreateTable() {
    for (const char* ddl : {"CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                            "'replication_factor': 1}",
                            "CREATE TABLE ks.t (k int PRIMARY KEY, v blob)"}) {
      auto result = session_->Execute(ddl);
      ASSERT_TRUE(result.ok()) << ddl << ": " << result.status().ToString();
    }
  }
  common::Status Insert(int k) {
    cql::QueryOptions options;
    options.values = {
        cql::BoundValue::Of(cql::SerializeInt(k)),
        cql::BoundValue::Of(common::Bytes(kValueBytes, static_cast<char>('a' + k % 26)))};
    return session_->Execute("INSERT INTO ks.t (k, v) VALUES (?, ?)", options).status();
  }
  // Inserts rows from `first` on until one fails; returns that failure (OK if none failed
  // within kMaxRows) and sets `*next` to the first key not written.
  common::Status FillFrom(int first, int* next) {
    for (int k = first; k < first + kMaxRows; ++k) {
      common::Status status = Insert(k);
      if (!status.ok()) {
        *next = k;
        return status;
      }
    }
    *next = first + kMaxRows;
    return common::Status::Ok();
  }
  // With a 16 MiB ballast and the floor off, fills the disk until RocksDB meets ENOSPC;
  // `*next` is the first key not written.
  void FillWithoutFloor(int* next) {
    ASSERT_EQ(WriteFile(ballast_, 16 * kMiB), 16 * kMiB);
    ASSERT_NO_FATAL_FAILURE(Open(0));
    ASSERT_NO_FATAL_FAILURE(CreateTable());
    common::Status failed = FillFrom(0, next);
    ASSERT_EQ(failed.code(), common::StatusCode::kWriteFailure) << failed.ToString();
    EXPECT_NE(failed.message().find("Write failed: the disk holding " + data_ + " is full"),
              std::string::npos)
        << failed.message();
    ASSERT_GT(*next, 10);
  }
  // Whether row `k` reads back with its value.
  bool ReadsBack(int k) {
    auto result = session_->Execute("SELECT v FROM ks.t WHERE k = " + std::to_string(k));
    if (!result.ok() || result->row_count() != 1) return false;
    std::optional<std::string_view> cell = result->Value(0, 0);
    return cell && *cell == common::Bytes(kValueBytes, static_cast<char>('a' + k % 26));
  }
  // Retries `insert k` until it works, for at most 60 s (the recovery thread polls every
  // 200 ms; RocksDB's resume flushes the memtable first).
  bool InsertSucceedsEventually(int k) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      if (Insert(k).ok()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  TmpfsMount tmpfs_;
  std::string data_;
  std::string ballast_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<cql::Session> session_;
};

// The floor refuses writes before the disk is full; reads go on; freeing space lets the next
// write through at once.
TEST_P(DiskFullTest, FloorRefusesWritesUntilSpaceIsFreed) {
  ASSERT_EQ(WriteFile(ballast_, 8 * kMiB), 8 * kMiB);
  ASSERT_NO_FATAL_FAILURE(Open(4 * kMiB));
  ASSERT_NO_FATAL_FAILURE(CreateTable());
  int next = 0;
  common::Status refused = FillFrom(0, &next);
  ASSERT_EQ(refused.code(), common::StatusCode::kWriteFailure) << refused.ToString();
  EXPECT_NE(refused.message().find("Write refused: the disk holding " + data_ + " is full ("),
            std::string::npos)
      << refused.message();
  EXPECT_NE(refused.message().find("floor 4 MiB)"), std::string::npos) << refused.message();
  ASSERT_GT(next, 10);
  EXPECT_TRUE(ReadsBack(0));
  EXPECT_TRUE(ReadsBack(next - 1));
  EXPECT_EQ(Insert(next).code(), common::StatusCode::kWriteFailure);

  ASSERT_EQ(::unlink(ballast_.c_str()), 0);
  EXPECT_TRUE(Insert(next).ok()) << "writes resume as soon as space is back";
  EXPECT_TRUE(ReadsBack(next));
}

// With the floor off, RocksDB itself meets ENOSPC: the write fails with WriteFailure (no
// abort), reads go on, and the store resumes once space is back, without a reopen; closing
// afterwards (which syncs the log) does not abort either.
TEST_P(DiskFullTest, RocksDbOutOfSpaceFailsWritesAndResumes) {
  int next = 0;
  ASSERT_NO_FATAL_FAILURE(FillWithoutFloor(&next));
  EXPECT_TRUE(ReadsBack(0));
  EXPECT_TRUE(ReadsBack(next - 1));
  EXPECT_EQ(Insert(next).code(), common::StatusCode::kWriteFailure);

  ASSERT_EQ(::unlink(ballast_.c_str()), 0);
  EXPECT_TRUE(InsertSucceedsEventually(next));
  EXPECT_TRUE(ReadsBack(next));
  EXPECT_TRUE(ReadsBack(0));
  Close();
  ASSERT_NO_FATAL_FAILURE(Open(0));
  EXPECT_TRUE(ReadsBack(next));
}

// A database on a disk with no space left at all opens read-only: reads work, writes are
// refused; once space is freed it becomes writable by itself.
TEST_P(DiskFullTest, OpensReadOnlyOnAFullDiskAndBecomesWritable) {
  int next = 0;
  ASSERT_NO_FATAL_FAILURE(FillWithoutFloor(&next));
  Close();
  WriteFile(tmpfs_.path() + "/last-bytes", 64 * kMiB);  // whatever room was left

  ASSERT_NO_FATAL_FAILURE(Open(0));
  EXPECT_TRUE(db_->read_only());
  EXPECT_TRUE(ReadsBack(0));
  EXPECT_TRUE(ReadsBack(next - 1));
  common::Status refused = Insert(next);
  EXPECT_EQ(refused.code(), common::StatusCode::kWriteFailure);
  EXPECT_NE(refused.message().find("read-only until space is freed"), std::string::npos)
      << refused.message();

  ASSERT_EQ(::unlink(ballast_.c_str()), 0);
  ASSERT_EQ(::unlink((tmpfs_.path() + "/last-bytes").c_str()), 0);
  EXPECT_TRUE(InsertSucceedsEventually(next));
  EXPECT_FALSE(db_->read_only());
  EXPECT_TRUE(ReadsBack(0));
  EXPECT_TRUE(ReadsBack(next));
}

INSTANTIATE_TEST_SUITE_P(Durability, DiskFullTest,
                         ::testing::Values(DatabaseOptions::Durability::kPeriodic,
                                           DatabaseOptions::Durability::kBatch),
                         [](const auto& info) {
                           return info.param == DatabaseOptions::Durability::kBatch ? "Batch"
                                                                                    : "Periodic";
                         });

}  // namespace
}  // namespace engine
