// AdminClient: the HTTP client of `cqld admin` (admin_tool.h): one request per connection to
// cqld's admin listener (server/admin_server.h), with HTTP Basic credentials when given.

#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "common/result.h"

namespace cqld {

struct AdminEndpoint {
  std::string host = "127.0.0.1";
  uint16_t port = 9180;
  std::optional<std::string> user;  // with `password`: HTTP Basic credentials
  std::string password;
  // Connecting (name resolution included) must finish within this.
  std::chrono::milliseconds connect_timeout = std::chrono::seconds(10);
  // The whole exchange (sending the request, waiting for and reading the answer) must finish
  // within this once connected; zero: no limit (a compaction may take hours).
  std::chrono::milliseconds timeout = std::chrono::seconds(60);
};

struct AdminAnswer {
  int status = 0;
  std::string body;
};

// Sends `method` `path` with a JSON `body` ("" for none) and waits for the whole answer, within
// the endpoint's timeouts. IOError "Failed to connect to 'HOST:PORT': REASON" when the listener
// cannot be reached in time, IOError "Error talking to 'HOST:PORT': REASON" on a broken answer
// or one that did not come in time.
common::Result<AdminAnswer> CallAdmin(const AdminEndpoint& endpoint, const std::string& method,
                                      const std::string& path, const std::string& body);

}  // namespace cqld
