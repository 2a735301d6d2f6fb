// RotatingFile: an append-only text file that rotates by size, for logs (logging.h) and the
// audit log.
//
// `Append` writes whole lines. When a line would take the file past `max_bytes` (and the file
// is not empty), the file is rotated first: PATH.(N-1) is renamed PATH.N (the oldest, PATH.N,
// removed), ..., PATH becomes PATH.1, and a new PATH is opened. A line longer than max_bytes is
// still written whole into a file of its own. Write and rotation failures (a full disk, a
// removed directory) drop the line and are counted; they never throw or abort.
//
// Thread-safety: thread-safe (one mutex around each append).

#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace common {

class RotatingFile {
 public:
  // Opens `path` for appending (created with mode 0640 when missing). nullptr with `*error` set
  // when it cannot be opened. REQUIRES: max_bytes > 0, max_files >= 0 (0: truncate by
  // starting over, keeping no old file).
  static std::unique_ptr<RotatingFile> Open(const std::string& path, uint64_t max_bytes,
                                            int max_files, std::string* error);
  ~RotatingFile();
  RotatingFile(const RotatingFile&) = delete;
  RotatingFile& operator=(const RotatingFile&) = delete;

  // Appends `text` (which should end in '\n') and flushes it to the OS.
  void Append(std::string_view text);

  // Lines dropped because a write or a rotation failed.
  uint64_t dropped() const;
  const std::string& path() const { return path_; }

 private:
  RotatingFile(std::string path, uint64_t max_bytes, int max_files)
      : path_(std::move(path)), max_bytes_(max_bytes), max_files_(max_files) {}
  void Rotate();  // REQUIRES: mutex_ held; file_ is null when the new file cannot be opened

  const std::string path_;
  const uint64_t max_bytes_;
  const int max_files_;
  mutable std::mutex mutex_;
  std::FILE* file_ = nullptr;
  uint64_t size_ = 0;
  uint64_t dropped_ = 0;
};

}  // namespace common
