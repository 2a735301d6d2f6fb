#include "hotel/maildir_sender.h"

#include <fcntl.h>
#include <sys/time.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace hotel {

namespace {

common::Status Failure(const std::string& what, int error) {
  return common::Status(common::StatusCode::kUnavailable,
                        fmt::format("maildir: {}: {}", what, std::strerror(error)));
}

// Writes all of `data` to `fd`; false with errno set on failure.
bool WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t written = write(fd, data.data(), data.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(written));
  }
  return true;
}

common::Status SyncDirectory(const std::string& directory) {
  int fd = open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Failure("open " + directory, errno);
  int result = fsync(fd);
  int error = errno;
  close(fd);
  return result == 0 ? common::Status::Ok() : Failure("fsync " + directory, error);
}

}  // namespace

common::Result<std::unique_ptr<MaildirSender>> MaildirSender::Open(const std::string& directory) {
  for (const char* sub : {"tmp", "new", "cur"}) {
    std::error_code error;
    std::filesystem::create_directories(std::filesystem::path(directory) / sub, error);
    if (error) {
      return common::Status::IOError(
          fmt::format("cannot create the maildir {}/{}: {}", directory, sub, error.message()));
    }
  }
  auto sender = std::make_unique<MaildirSender>(directory);
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0 || host[0] == '\0') std::strcpy(host, "localhost");
  for (const char* c = host; *c != '\0'; ++c) {
    if (*c == '/') {
      sender->host_ += "\\057";
    } else if (*c == ':') {
      sender->host_ += "\\072";
    } else {
      sender->host_.push_back(*c);
    }
  }
  return sender;
}

std::string MaildirSender::UniqueName() {
  timeval now{};
  gettimeofday(&now, nullptr);
  return fmt::format("{}.M{}P{}Q{}.{}", now.tv_sec, now.tv_usec, getpid(), ++sequence_, host_);
}

common::Status MaildirSender::Send(const EmailMessage& message) {
  std::string name = UniqueName();
  std::string temporary = directory_ + "/tmp/" + name;
  std::string final_path = directory_ + "/new/" + name;
  std::string content;
  content.reserve(message.data.size());
  for (size_t i = 0; i < message.data.size(); ++i) {
    if (message.data[i] == '\r' && i + 1 < message.data.size() && message.data[i + 1] == '\n') {
      continue;  // CRLF -> LF
    }
    content.push_back(message.data[i]);
  }
  int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return Failure("create " + temporary, errno);
  bool written = WriteAll(fd, content) && fsync(fd) == 0;
  int error = errno;
  close(fd);
  if (!written) {
    unlink(temporary.c_str());
    return Failure("write " + temporary, error);
  }
  if (rename(temporary.c_str(), final_path.c_str()) != 0) {
    error = errno;
    unlink(temporary.c_str());
    return Failure("rename into " + final_path, error);
  }
  return SyncDirectory(directory_ + "/new");
}

}  // namespace hotel
