// AdminClient: the HTTP client of `cqld admin` (admin_tool.h): one request per connection to
// cqld's admin listener (server/admin_server.h), with HTTP Basic credentials when given.

#pragma once

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
};

struct AdminAnswer {
  int status = 0;
  std::string body;
};

// Sends `method` `path` with a JSON `body` ("" for none) and waits for the whole answer (no
// timeout once connected: a compaction may take minutes). IOError "Failed to connect to
// 'HOST:PORT': REASON" when the listener cannot be reached, IOError on a broken answer.
common::Result<AdminAnswer> CallAdmin(const AdminEndpoint& endpoint, const std::string& method,
                                      const std::string& path, const std::string& body);

}  // namespace cqld
