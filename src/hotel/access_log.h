// The hotel HTTP server's access log: one line per request, as nginx's, on stderr or in a file
// (`hotel serve --access-log FILE`, `--no-access-log`; docs/operations.md, "The hotel service").
//
//   2026-11-26T13:04:05.123Z access id=5f0c9a2e41b7d3c8a1e09f42 client=127.0.0.1 method=GET
//       route=/api/v1/hotels/{id} path=/api/v1/hotels/AZ123 status=200 bytes=512 ms=3.21
//
// (one line). What it never holds (docs/security.md): the query string (it may hold a guest's
// last name), headers (Authorization, Cookie), bodies (passwords), tokens. Every byte a client
// chose (the path, the method, the request id) is sanitized: control characters, spaces,
// quotes, backslashes and bytes >= 0x7f are written as `\xNN`, so a request cannot forge a line
// or a field.
//
// Request ids: the client's `X-Request-Id` when it is sane (1 to 64 of `A-Z a-z 0-9 . _ : - +
// / =`), else a new random one (24 hex digits). The server echoes it in the answer's
// `X-Request-Id`, so a client, a proxy and this log can name the same request.
//
// Thread-safety: the functions are thread-safe; AccessLog::Write too (one write(2)-sized
// fwrite per line, under the FILE's own lock).

#pragma once

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "common/result.h"

namespace hotel {

struct AccessRecord {
  std::chrono::system_clock::time_point time;
  std::string_view request_id;
  std::string_view client_address;  // "" when unknown: written as "-"
  std::string_view method;
  std::string_view route;   // the route template (HttpResponse::route); "" -> "-"
  std::string_view target;  // as received: the query string is cut off here
  int status = 0;
  size_t bytes = 0;  // body bytes answered
  double milliseconds = 0;
};

// The line for `record`, ending in '\n'.
std::string FormatAccessLine(const AccessRecord& record);

// `text` with control characters, space, '"', '\\' and bytes >= 0x7f as `\xNN`.
std::string SanitizeLogField(std::string_view text);

// True when `id` may be used as a request id as it is (see the header comment).
bool IsSaneRequestId(std::string_view id);
// `incoming` when sane, else a new random id.
std::string RequestIdFor(std::string_view incoming);

// Where access lines go: stderr, or a file opened for appending.
class AccessLog {
 public:
  // Lines to stderr.
  AccessLog() = default;
  // Opens `path` for appending (created 0640 when missing). Errors: kIOError naming the file.
  static common::Result<std::unique_ptr<AccessLog>> OpenFile(const std::string& path);
  ~AccessLog();
  AccessLog(const AccessLog&) = delete;
  AccessLog& operator=(const AccessLog&) = delete;

  void Write(const AccessRecord& record);

 private:
  std::FILE* file_ = nullptr;  // owned; nullptr: stderr
};

}  // namespace hotel
