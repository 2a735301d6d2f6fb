// Logging: leveled, timestamped lines on stderr.
//
//   LOG_INFO("listening on {}:{}", host, port);
//
// Formatting uses fmt. The minimum level is process-wide (set once at start-up by `main`);
// messages below it cost one atomic load. Thread-safe: each line is written with one call.

#pragma once

#include <fmt/format.h>

#include <string_view>

namespace common {

// kOff is a minimum level only (SetLogLevel): nothing is logged at it.
enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kOff = 4 };

void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();
bool LogEnabled(LogLevel level);
// Writes one line "2026-11-21T05:30:00.123Z I file.cc:42] message".
void LogLine(LogLevel level, const char* file, int line, std::string_view message);

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
