#include "hotel/access_log.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <memory>
#include <random>

namespace hotel {

namespace {

constexpr size_t kMaxRequestId = 64;
constexpr size_t kMaxPathBytes = 1024;  // longer paths are cut (and marked) in the log

std::string Timestamp(std::chrono::system_clock::time_point time) {
  auto since_epoch = time.time_since_epoch();
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
  auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch - seconds);
  std::time_t whole = seconds.count();
  std::tm utc{};
  gmtime_r(&whole, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S", &utc);
  return fmt::format("{}.{:03d}Z", text, static_cast<int>(millis.count()));
}

std::string OrDash(std::string_view text) {
  return text.empty() ? std::string("-") : SanitizeLogField(text);
}

}  // namespace

std::string SanitizeLogField(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte >= 0x7f || c == '"' || c == '\\') {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string FormatAccessLine(const AccessRecord& record) {
  std::string_view path = record.target.substr(0, record.target.find_first_of("?#"));
  std::string logged_path = OrDash(path.substr(0, kMaxPathBytes));
  if (path.size() > kMaxPathBytes) logged_path += "...";
  return fmt::format(
      "{} access id={} client={} method={} route={} path={} status={} bytes={} ms={:.2f}\n",
      Timestamp(record.time), OrDash(record.request_id), OrDash(record.client_address),
      OrDash(record.method.substr(0, 16)), OrDash(record.route), logged_path, record.status,
      record.bytes, record.milliseconds);
}

bool IsSaneRequestId(std::string_view id) {
  if (id.empty() || id.size() > kMaxRequestId) return false;
  for (char c : id) {
    bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   std::strchr("._:-+/=", c) != nullptr;
    if (!allowed) return false;
  }
  return true;
}

std::string RequestIdFor(std::string_view incoming) {
  if (IsSaneRequestId(incoming)) return std::string(incoming);
  thread_local std::mt19937_64 random(std::random_device{}());
  return fmt::format("{:016x}{:08x}", random(), static_cast<uint32_t>(random()));
}

common::Result<std::unique_ptr<AccessLog>> AccessLog::OpenFile(const std::string& path) {
  int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
  std::FILE* file = fd < 0 ? nullptr : fdopen(fd, "a");
  if (file == nullptr) {
    std::string error = std::strerror(errno);
    if (fd >= 0) close(fd);
    return common::Status::IOError("cannot open the access log " + path + ": " + error);
  }
  setvbuf(file, nullptr, _IOLBF, 0);  // a line is written as soon as it is complete
  auto log = std::make_unique<AccessLog>();
  log->file_ = file;
  return log;
}

AccessLog::~AccessLog() {
  if (file_ != nullptr) std::fclose(file_);
}

void AccessLog::Write(const AccessRecord& record) {
  std::string line = FormatAccessLine(record);
  std::fwrite(line.data(), 1, line.size(), file_ != nullptr ? file_ : stderr);
}

}  // namespace hotel
