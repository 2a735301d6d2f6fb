// HttpServer: the HTTP/1.1 transport of the hotel API (Boost.Beast over Boost.Asio). Accepts
// connections on an io_context run by N threads; each connection is a C++20 coroutine that
// reads a request (body limit 64 KiB -> 413), hands it to `ApiRouter::Handle` — which calls the
// blocking service directly, fine for the embedded engine — and writes the answer, keeping the
// connection alive when the client asks. One structured access-log line per request: method,
// path, status, microseconds.
//
// Lifecycle: Start() binds and starts the threads; Stop() closes the acceptor and the
// connections and joins the threads (graceful: requests being handled finish first).
//
// Thread-safety: Start/Stop/port from one owning thread; the handlers run on the pool.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/result.h"
#include "hotel/http_router.h"

namespace hotel {

struct HttpServerOptions {
  std::string address = "127.0.0.1";
  uint16_t port = 8080;  // 0: any free port (see port())
  int threads = 4;
  bool access_log = true;
};

class HttpServer {
 public:
  // REQUIRES: `router` outlives the server.
  HttpServer(const ApiRouter* router, HttpServerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and starts serving. Errors: kInvalid for a bad address, kIOError when binding fails.
  common::Status Start();
  // The bound port (after Start).
  uint16_t port() const { return port_; }
  // Stops accepting, closes connections and joins the threads. Idempotent.
  void Stop();

 private:
  struct State;
  const ApiRouter* router_;
  HttpServerOptions options_;
  uint16_t port_ = 0;
  std::unique_ptr<State> state_;
  std::vector<std::thread> threads_;
};

}  // namespace hotel
