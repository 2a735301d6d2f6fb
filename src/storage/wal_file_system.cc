#include "storage/wal_file_system.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <string>
#include <string_view>
#include <utility>

#include <rocksdb/file_system.h>

namespace storage {
namespace {

// Invariant 1: RocksDB names its write-ahead logs `<digits>.log`.
bool IsWriteAheadLog(const std::string& path) {
  std::string_view name(path);
  size_t slash = name.rfind('/');
  if (slash != std::string_view::npos) name.remove_prefix(slash + 1);
  constexpr std::string_view kSuffix = ".log";
  if (name.size() <= kSuffix.size() || !name.ends_with(kSuffix)) return false;
  name.remove_suffix(kSuffix.size());
  for (char c : name) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// A write-ahead log file: RocksDB's file, with zeros kept ahead of it (invariants 2, 4, 5).
class ZeroFilledWalFile final : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  ZeroFilledWalFile(std::unique_ptr<rocksdb::FSWritableFile> file, int fd)
      : FSWritableFileOwnerWrapper(std::move(file)), fd_(fd) {}
  ~ZeroFilledWalFile() override {
    if (fd_ >= 0) ::close(fd_);
  }

  rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                           rocksdb::IODebugContext* dbg) override {
    FillAhead(data.size());
    rocksdb::IOStatus status = target()->Append(data, options, dbg);
    if (status.ok()) appended_ += data.size();
    return status;
  }
  rocksdb::IOStatus Append(const rocksdb::Slice& data, const rocksdb::IOOptions& options,
                           const rocksdb::DataVerificationInfo& verification,
                           rocksdb::IODebugContext* dbg) override {
    FillAhead(data.size());
    rocksdb::IOStatus status = target()->Append(data, options, verification, dbg);
    if (status.ok()) appended_ += data.size();
    return status;
  }
  rocksdb::IOStatus Truncate(uint64_t size, const rocksdb::IOOptions& options,
                             rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus status = target()->Truncate(size, options, dbg);
    if (status.ok()) appended_ = filled_ = size;
    return status;
  }
  rocksdb::IOStatus Close(const rocksdb::IOOptions& options,
                          rocksdb::IODebugContext* dbg) override {
    // Invariant 4: RocksDB's file truncates only what it preallocated itself.
    rocksdb::IOStatus status = rocksdb::IOStatus::OK();
    if (filled_ > appended_) status = target()->Truncate(appended_, options, dbg);
    rocksdb::IOStatus closed = target()->Close(options, dbg);
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    return status.ok() ? closed : status;
  }

 private:
  // Invariant 2: zeros past `filled_` until the next `size` appended bytes lie inside them.
  // Invariant 5: the first failure ends zero-filling for this file.
  void FillAhead(uint64_t size) {
    static constexpr std::array<char, 64 * 1024> kZeros{};
    while (!fill_failed_ && appended_ + size > filled_) {
      uint64_t end = filled_ + kZeroFillChunk;
      while (filled_ < end) {
        size_t length = static_cast<size_t>(std::min<uint64_t>(kZeros.size(), end - filled_));
        ssize_t written = ::pwrite(fd_, kZeros.data(), length, static_cast<off_t>(filled_));
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) {
          fill_failed_ = true;
          return;
        }
        filled_ += static_cast<uint64_t>(written);
      }
    }
  }

  int fd_;
  uint64_t appended_ = 0;  // bytes RocksDB appended
  uint64_t filled_ = 0;    // the file's bytes so far: appended_ and the zeros after them
  bool fill_failed_ = false;
};

class ZeroFilledWalFileSystem final : public rocksdb::FileSystemWrapper {
 public:
  explicit ZeroFilledWalFileSystem(const std::shared_ptr<rocksdb::FileSystem>& target)
      : FileSystemWrapper(target) {}

  const char* Name() const override { return "cqld.ZeroFilledWalFileSystem"; }

  rocksdb::IOStatus NewWritableFile(const std::string& path, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* result,
                                    rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus status = target()->NewWritableFile(path, options, result, dbg);
    if (!status.ok() || !IsWriteAheadLog(path) || options.use_direct_writes) return status;
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return status;  // invariant 5: RocksDB's file, not zero-filled
    *result = std::make_unique<ZeroFilledWalFile>(std::move(*result), fd);
    return status;
  }
};

}  // namespace

std::unique_ptr<rocksdb::Env> NewZeroFilledWalEnv() {
  return rocksdb::NewCompositeEnv(
      std::make_shared<ZeroFilledWalFileSystem>(rocksdb::FileSystem::Default()));
}

}  // namespace storage
