#include "storage/info_log.h"

#include <fcntl.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <ctime>

namespace storage {

namespace {

const char* LevelTag(rocksdb::InfoLogLevel level) {
  switch (level) {
    case rocksdb::InfoLogLevel::DEBUG_LEVEL:
      return "[DEBUG] ";
    case rocksdb::InfoLogLevel::INFO_LEVEL:
      return "";
    case rocksdb::InfoLogLevel::WARN_LEVEL:
      return "[WARN] ";
    case rocksdb::InfoLogLevel::ERROR_LEVEL:
      return "[ERROR] ";
    case rocksdb::InfoLogLevel::FATAL_LEVEL:
      return "[FATAL] ";
    case rocksdb::InfoLogLevel::HEADER_LEVEL:
    case rocksdb::InfoLogLevel::NUM_INFO_LOG_LEVELS:
      break;
  }
  return "";
}

// "2026/11/25-18:37:00.123456 " in local time, as RocksDB's own LOG lines start.
std::string Timestamp() {
  struct timeval now {};
  gettimeofday(&now, nullptr);
  struct tm parts {};
  localtime_r(&now.tv_sec, &parts);
  char text[64];
  std::snprintf(text, sizeof(text), "%04d/%02d/%02d-%02d:%02d:%02d.%06ld ", parts.tm_year + 1900,
                parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec,
                static_cast<long>(now.tv_usec));
  return text;
}

std::string Format(const char* format, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  char small[512];
  int length = std::vsnprintf(small, sizeof(small), format, copy);
  va_end(copy);
  if (length < 0) return "(unformattable log line)";
  if (static_cast<size_t>(length) < sizeof(small)) return std::string(small, length);
  std::string text(static_cast<size_t>(length) + 1, '\0');
  std::vsnprintf(text.data(), text.size(), format, ap);
  text.resize(static_cast<size_t>(length));
  return text;
}

}  // namespace

InfoLogFile::InfoLogFile(const std::string& directory, size_t max_bytes)
    : path_(directory + "/LOG"), old_path_(directory + "/LOG.old"), max_bytes_(max_bytes) {
  std::lock_guard lock(mutex_);
  Rotate();
}

InfoLogFile::~InfoLogFile() {
  if (!closed_) {
    rocksdb::Status ignored = InfoLogFile::CloseImpl();
    (void)ignored;
    closed_ = true;
  }
}

rocksdb::Status InfoLogFile::CloseImpl() {
  std::lock_guard lock(mutex_);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  return rocksdb::Status::OK();
}

void InfoLogFile::Rotate() {
  if (fd_ >= 0) ::close(fd_);
  // Renaming needs no free blocks; when it fails the old content is simply truncated.
  ::rename(path_.c_str(), old_path_.c_str());
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  size_ = 0;
}

void InfoLogFile::WriteLine(const std::string& line) {
  if (size_ >= max_bytes_) Rotate();
  if (fd_ < 0) return;
  // One write per line keeps lines whole between threads and processes; a short or failed
  // write (a full disk) loses the line, never the process.
  ssize_t written = ::write(fd_, line.data(), line.size());
  if (written > 0) size_ += static_cast<size_t>(written);
}

void InfoLogFile::Logv(const rocksdb::InfoLogLevel level, const char* format, va_list ap) {
  if (level < GetInfoLogLevel()) return;
  std::string line = Timestamp() + LevelTag(level) + Format(format, ap);
  if (line.empty() || line.back() != '\n') line.push_back('\n');
  std::lock_guard lock(mutex_);
  WriteLine(line);
}

void InfoLogFile::LogHeader(const char* format, va_list ap) {
  Logv(rocksdb::InfoLogLevel::HEADER_LEVEL, format, ap);
}

size_t InfoLogFile::GetLogFileSize() const {
  std::lock_guard lock(mutex_);
  return size_;
}

}  // namespace storage
