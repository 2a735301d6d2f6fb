#include "common/logging.h"

#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <mutex>
#include <string>

#include "common/rotating_file.h"
#include "common/utf8.h"

namespace common {
namespace {

std::atomic<int> min_level{static_cast<int>(LogLevel::kInfo)};

// Where lines go: stderr, or a rotating file. Replaced whole under its mutex.
struct Sink {
  std::mutex mutex;
  std::unique_ptr<RotatingFile> file;  // null: stderr
  LogFormat format = LogFormat::kText;
};

Sink& TheSink() {
  static Sink* sink = new Sink();  // never destroyed: logging outlives static destructors
  return *sink;
}

constexpr std::string_view kLevelNames[] = {"DEBUG", "INFO", "WARN", "ERROR", "OFF"};

}  // namespace

void SetLogLevel(LogLevel level) { min_level.store(static_cast<int>(level)); }
LogLevel GetLogLevel() { return static_cast<LogLevel>(min_level.load()); }
bool LogEnabled(LogLevel level) {
  return static_cast<int>(level) >= min_level.load(std::memory_order_relaxed);
}

std::optional<LogLevel> ParseLogLevel(std::string_view name) {
  std::string upper;
  for (char c : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "TRACE" || upper == "ALL" || upper == "DEBUG") return LogLevel::kDebug;
  if (upper == "INFO") return LogLevel::kInfo;
  if (upper == "WARN" || upper == "WARNING") return LogLevel::kWarning;
  if (upper == "ERROR") return LogLevel::kError;
  if (upper == "OFF") return LogLevel::kOff;
  return std::nullopt;
}

std::string_view LogLevelName(LogLevel level) { return kLevelNames[static_cast<int>(level)]; }

std::string FormatIsoMillis(int64_t unix_millis) {
  std::time_t seconds = static_cast<std::time_t>(unix_millis / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                     static_cast<int>(unix_millis % 1000));
}

std::string JsonEscape(std::string_view text) {
  std::string valid = ValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (char c : valid) {
    auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\u{:04x}", byte);
    } else {
      out += c;
    }
  }
  return out;
}

std::string FormatLogLine(LogFormat format, LogLevel level, int64_t unix_millis,
                          std::string_view source, std::string_view message) {
  if (format == LogFormat::kJson) {
    return fmt::format(R"({{"timestamp":"{}","level":"{}","source":"{}","message":"{}"}})",
                       FormatIsoMillis(unix_millis), LogLevelName(level), JsonEscape(source),
                       JsonEscape(message));
  }
  static constexpr char kLetters[] = {'D', 'I', 'W', 'E', 'O'};
  return fmt::format("{} {} {}] {}", FormatIsoMillis(unix_millis),
                     kLetters[static_cast<int>(level)], source, message);
}

void LogLine(LogLevel level, const char* file, int line, std::string_view message) {
  auto now = std::chrono::system_clock::now();
  int64_t millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  std::string_view base(file);
  if (auto slash = base.rfind('/'); slash != std::string_view::npos) base.remove_prefix(slash + 1);
  Sink& sink = TheSink();
  std::lock_guard lock(sink.mutex);
  std::string text =
      FormatLogLine(sink.format, level, millis, fmt::format("{}:{}", base, line), message);
  text += '\n';
  if (sink.file != nullptr) {
    sink.file->Append(text);
  } else {
    std::fwrite(text.data(), 1, text.size(), stderr);
  }
}

std::string SetLogSink(const LogSinkOptions& options) {
  std::unique_ptr<RotatingFile> file;
  if (!options.file.empty()) {
    std::string error;
    file = RotatingFile::Open(options.file, options.max_file_bytes, options.max_files, &error);
    if (file == nullptr) return "cannot open log file " + error;
  }
  Sink& sink = TheSink();
  std::lock_guard lock(sink.mutex);
  sink.file = std::move(file);
  sink.format = options.format;
  return "";
}

}  // namespace common
