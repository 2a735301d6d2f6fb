// AdminServer: cqld's admin HTTP listener (docs/operations.md §4, §5; docs/reliability.md §3):
// `/metrics` for Prometheus and the admin REST API (admin_api.h) that `cqld admin` calls.
//
// Boost.Beast HTTP/1.1 on an io_context of its own (one thread), apart from the CQL server, so
// neither can starve the other. One request per connection: every answer says
// `Connection: close`. Handlers run on a small pool of worker threads (`worker_threads`), never
// on the network thread: they may block (a bcrypt login check, a compaction of minutes).
//
// Hardening, as the CQL port's (numbered, each guards the others):
//  1. At most `max_connections` connections are served at once; one more is answered 503
//     (within kRejectTimeout) and closed, and the rest wait in the kernel's backlog.
//  2. The header (`max_header_bytes`) and the body (`max_body_bytes`) are bounded by Beast's
//     parser before they are buffered: 431 and 413 answers.
//  3. The whole request must arrive within `read_timeout` from the accept; a slow client is
//     then closed without an answer (it holds one connection of the limit, nothing else).
//     Writing the answer has `write_timeout`; then the server reads what the client still
//     sends (at most 1 MiB, 1 s) until it closes, so that the answer is not lost to a reset.
//  4. Bytes that are not HTTP get 400 with a JSON error; nothing a client sends can stop the
//     listener. Handler exceptions become 500.
//
// Thread-safety: Start, port, endpoint and Stop are thread-safe; Stop is idempotent and is
// called by the destructor. The handler is called from several worker threads at once.

#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/thread_pool.hpp>

#include "common/result.h"

namespace server {

struct AdminRequest {
  std::string method;  // "GET", "POST", ...
  std::string path;    // the target up to '?'
  std::string query;   // after '?', undecoded ("" when none)
  std::string body;
  std::string authorization;  // the Authorization header ("" when none)
};

struct AdminResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra ones
};

// A JSON `{"error": message}` answer with `status`.
AdminResponse AdminError(int status, std::string_view message);

using AdminHandler = std::function<AdminResponse(const AdminRequest&)>;

struct AdminServerOptions {
  std::string address = "127.0.0.1";
  uint16_t port = 9180;  // 0: an ephemeral port
  size_t max_connections = 64;
  size_t max_header_bytes = 8 * 1024;
  size_t max_body_bytes = 64 * 1024;
  std::chrono::milliseconds read_timeout = std::chrono::seconds(10);
  std::chrono::milliseconds write_timeout = std::chrono::seconds(10);
  size_t worker_threads = 4;
};

class AdminServer {
 public:
  static constexpr std::chrono::milliseconds kRejectTimeout{1000};

  // Binds `options.address`:`options.port` and serves `handler`. Errors: Invalid for a bad
  // address, IOError when it cannot be bound.
  static common::Result<std::unique_ptr<AdminServer>> Start(const AdminServerOptions& options,
                                                            AdminHandler handler);
  ~AdminServer();
  AdminServer(const AdminServer&) = delete;
  AdminServer& operator=(const AdminServer&) = delete;

  boost::asio::ip::tcp::endpoint endpoint() const { return endpoint_; }
  uint16_t port() const { return endpoint_.port(); }
  // Connections open now.
  size_t connection_count() const { return state_->open.load(); }

  // Stops accepting, closes every connection, waits for running handlers (a compaction runs
  // to its end) and joins the threads. Idempotent.
  void Stop();

  // What connections share with the server; outlives them (held by each).
  struct State {
    AdminServerOptions options;
    AdminHandler handler;
    std::atomic<size_t> open{0};
    std::unique_ptr<boost::asio::thread_pool> workers;
    std::mutex mutex;
    // The sockets of the connections being served, for Stop. GUARDED_BY(mutex)
    std::map<boost::asio::ip::tcp::socket*, std::weak_ptr<boost::asio::ip::tcp::socket>> sockets;
    bool stopping = false;  // GUARDED_BY(mutex)
  };

 private:
  AdminServer() = default;
  boost::asio::awaitable<void> AcceptLoop();

  std::shared_ptr<State> state_ = std::make_shared<State>();
  boost::asio::io_context io_{1};
  std::unique_ptr<boost::asio::ip::tcp::acceptor> acceptor_;
  boost::asio::ip::tcp::endpoint endpoint_;
  std::thread thread_;
  std::atomic<bool> stopped_{false};
};

}  // namespace server
