// Logging: leveled, timestamped lines on stderr or in a rotated file, as text or JSON.
//
//   LOG_INFO("listening on {}:{}", host, port);
//
// Formatting uses fmt. The minimum level is process-wide (set at start-up by `main`, changed
// at run time by the admin tool); messages below it cost one atomic load. Thread-safe: each
// line is written whole, under the sink's lock.
//
// Lines go to stderr until `SetLogSink` names a file. A file is rotated when writing a line
// would take it past `max_file_bytes`: FILE.1 becomes FILE.2 and so on up to `max_files`
// (the oldest is removed), FILE becomes FILE.1 and a new FILE is started. A sink that cannot
// write (full disk, removed directory) drops lines; it never stops the process.
//
// Text lines: "2026-11-21T05:30:00.123Z I file.cc:42] message". JSON lines (one object per
// line): {"timestamp":"2026-11-21T05:30:00.123Z","level":"INFO","source":"file.cc:42",
// "message":"..."}, with the message's invalid UTF-8 replaced and control characters escaped.

#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace common {

// kOff is a minimum level only (SetLogLevel): nothing is logged at it.
enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kOff = 4 };

void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();
bool LogEnabled(LogLevel level);
// Writes one line at `level` (which must not be kOff).
void LogLine(LogLevel level, const char* file, int line, std::string_view message);

// The level a name stands for: DEBUG, INFO, WARN (or WARNING), ERROR, OFF, any case; TRACE,
// which this logger does not distinguish, is DEBUG (and ALL is DEBUG too). nullopt: unknown.
std::optional<LogLevel> ParseLogLevel(std::string_view name);
// "DEBUG", "INFO", "WARN", "ERROR", "OFF": the names logback and nodetool use.
std::string_view LogLevelName(LogLevel level);

enum class LogFormat { kText, kJson };

struct LogSinkOptions {
  // Empty: stderr.
  std::string file;
  uint64_t max_file_bytes = uint64_t{50} << 20;
  // Rotated files kept besides the current one (FILE.1 .. FILE.N).
  int max_files = 7;
  LogFormat format = LogFormat::kText;
};

// Where lines go from now on. Returns an error message when the file cannot be opened for
// appending (the previous sink stays), "" on success.
std::string SetLogSink(const LogSinkOptions& options);

// The line `LogLine` would write, without its newline (for tests and the audit log's clock).
std::string FormatLogLine(LogFormat format, LogLevel level, int64_t unix_millis,
                          std::string_view source, std::string_view message);
// "2026-11-21T05:30:00.123Z" for milliseconds since the epoch.
std::string FormatIsoMillis(int64_t unix_millis);
// `text` as the inside of a JSON string: quotes, backslashes and control characters escaped,
// invalid UTF-8 replaced by U+FFFD.
std::string JsonEscape(std::string_view text);

}  // namespace common

#define CQLD_LOG_(level, ...)                                                 \
  do {                                                                        \
    if (::common::LogEnabled(level)) {                                        \
      ::common::LogLine(level, __FILE__, __LINE__, fmt::format(__VA_ARGS__)); \
    }                                                                         \
  } while (false)

#define LOG_DEBUG(...) CQLD_LOG_(::common::LogLevel::kDebug, __VA_ARGS__)
#define LOG_INFO(...) CQLD_LOG_(::common::LogLevel::kInfo, __VA_ARGS__)
#define LOG_WARNING(...) CQLD_LOG_(::common::LogLevel::kWarning, __VA_ARGS__)
#define LOG_ERROR(...) CQLD_LOG_(::common::LogLevel::kError, __VA_ARGS__)
