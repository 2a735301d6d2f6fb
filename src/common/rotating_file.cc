#include "common/rotating_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace common {
namespace {

std::FILE* OpenForAppend(const std::string& path, uint64_t* size, std::string* error) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
  if (fd < 0) {
    if (error != nullptr) *error = path + ": " + std::strerror(errno);
    return nullptr;
  }
  struct stat st {};
  *size = ::fstat(fd, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
  std::FILE* file = ::fdopen(fd, "a");
  if (file == nullptr) {
    if (error != nullptr) *error = path + ": " + std::strerror(errno);
    ::close(fd);
  }
  return file;
}

}  // namespace

std::unique_ptr<RotatingFile> RotatingFile::Open(const std::string& path, uint64_t max_bytes,
                                                 int max_files, std::string* error) {
  std::unique_ptr<RotatingFile> out(
      new RotatingFile(path, max_bytes == 0 ? 1 : max_bytes, max_files < 0 ? 0 : max_files));
  out->file_ = OpenForAppend(path, &out->size_, error);
  if (out->file_ == nullptr) return nullptr;
  return out;
}

RotatingFile::~RotatingFile() {
  if (file_ != nullptr) std::fclose(file_);
}

void RotatingFile::Rotate() {
  if (file_ != nullptr) {
    std::fclose(file_);
    file_ = nullptr;
  }
  if (max_files_ == 0) {
    ::unlink(path_.c_str());
  } else {
    ::unlink((path_ + "." + std::to_string(max_files_)).c_str());
    for (int i = max_files_ - 1; i >= 1; --i) {
      std::string from = path_ + "." + std::to_string(i);
      ::rename(from.c_str(), (path_ + "." + std::to_string(i + 1)).c_str());  // may not exist
    }
    ::rename(path_.c_str(), (path_ + ".1").c_str());
  }
  file_ = OpenForAppend(path_, &size_, nullptr);
}

void RotatingFile::Append(std::string_view text) {
  std::lock_guard lock(mutex_);
  if (file_ == nullptr) file_ = OpenForAppend(path_, &size_, nullptr);  // after a failure
  if (file_ != nullptr && size_ > 0 && size_ + text.size() > max_bytes_) Rotate();
  if (file_ == nullptr) {
    ++dropped_;
    return;
  }
  size_t written = std::fwrite(text.data(), 1, text.size(), file_);
  size_ += written;
  if (written != text.size() || std::fflush(file_) != 0) {
    ++dropped_;
    std::clearerr(file_);
  }
}

uint64_t RotatingFile::dropped() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

}  // namespace common
