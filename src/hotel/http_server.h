// HttpServer: the HTTP/1.1 transport of the hotel API (Boost.Beast over Boost.Asio). Accepts
// connections on an io_context run by N threads; each connection is a C++20 coroutine that
// reads a request, hands it to `ApiRouter::Handle` and writes the answer, keeping the connection
// alive when the client asks. One access-log line per request (access_log.h), with a request id
// echoed in `X-Request-Id`; each request is counted in the service's metrics
// (service_metrics.h: by route template, status class and duration; open connections).
//
// Design (what keeps a slow or hostile client from crashing the process or delaying others):
//  1. Each connection lives on its own strand: the socket is accepted onto
//     `make_strand(io_context)`, and its coroutine, its deadline timer and anything that
//     cancels or closes its socket (a timeout, Stop()) run there. No two handlers ever touch a
//     socket at once, so no mutex guards a connection's members.
//  2. Every read and write has a deadline, enforced by the connection's own timer, which
//     cancels the pending operation (it never closes the socket under the coroutine):
//     `header_timeout` from the start of a request to the end of its headers (for the first
//     request, from the accept), `body_timeout` for the rest of the body, `idle_timeout` for a
//     keep-alive connection waiting for its next request, `write_timeout` for each response.
//     A request cut short by a header or body timeout is answered 408 (JSON) and the
//     connection closes; an idle connection, or one that sent nothing, is just closed.
//  3. Sizes are enforced where the bytes arrive, before anything is buffered beyond them: the
//     parser's header limit (16 KiB -> 431) and body limit (64 KiB, counted over all chunks of
//     a chunked body -> 413), and a bounded read buffer (32 KiB), which also bounds what Beast
//     would otherwise buffer without limit: chunk extensions and trailers (-> 400).
//  4. At most `max_connections` connections are served at once. Over it, a connection is
//     answered 503 (JSON, `Connection: close`) without reading its request, with a 1 s write
//     deadline; at most max(64, max_connections / 4) such answers are in progress at once,
//     beyond which a connection is closed at once. The accept loop never stops: an accept
//     error (EMFILE, ENFILE, ENOBUFS) is logged (at most once a second) and the accept retried
//     after 100 ms.
//  5. After an error answer the server stops sending and drains what the client still sends
//     for up to 1 s (or 1 MiB) before closing, so the answer is not lost to a TCP reset.
//  6. `ApiRouter::Handle` (a blocking service call) runs on the connection's strand once the
//     whole request is in memory, and only then occupies an io thread: reads and writes are
//     asynchronous, so a stalled client never holds a thread, and one thread serves every
//     connection that is waiting for bytes.
//  7. With HTTPS (`tls_certificate_file` and `tls_key_file`), the TLS handshake is part of the
//     first request's header deadline (header_timeout from the accept), and the connection
//     limit is applied at the accept, before it; a connection over the limit gets its 503 after
//     a handshake within the 1 s answer deadline. The handshake runs on the connection's
//     strand like any read. TLS 1.2 and 1.3 only (NewTlsServerContext).
//
// Lifecycle: Start() binds and starts the threads; Stop() closes the acceptor, lets the
// requests being handled finish and write their answers, closes every connection (on its
// strand) and joins the threads; after a 2 s grace period, connections still writing to a
// client that does not read are abandoned.
//
// Thread-safety: Start/Stop/port from one owning thread; stats() from any thread; the
// handlers run on the pool.

#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/result.h"
#include "hotel/http_router.h"

namespace boost::asio::ssl {
class context;
}  // namespace boost::asio::ssl

namespace hotel {

// The TLS context HTTPS serves with: TLS 1.2 or 1.3 only, forward-secret AEAD ciphers for 1.2,
// no compression or renegotiation, the certificate chain and key from PEM files. Errors:
// kInvalid naming the file that cannot be used, or a key that does not match the certificate.
common::Result<std::shared_ptr<boost::asio::ssl::context>> NewTlsServerContext(
    const std::string& certificate_file, const std::string& key_file);

struct HttpServerOptions {
  std::string address = "127.0.0.1";
  uint16_t port = 8080;  // 0: any free port (see port())
  int threads = 4;
  // One line per request (access_log.h): to stderr, or appended to `access_log_file`.
  bool access_log = true;
  std::string access_log_file;
  // Connections served at once; 0: min(1024, RLIMIT_NOFILE's soft limit / 2).
  int max_connections = 0;
  // Deadlines (see the design block above).
  std::chrono::milliseconds header_timeout{10'000};
  std::chrono::milliseconds body_timeout{30'000};
  std::chrono::milliseconds idle_timeout{30'000};
  std::chrono::milliseconds write_timeout{30'000};
  // HTTPS: a PEM certificate (chain) and its PEM private key; both or neither (plain HTTP).
  std::string tls_certificate_file;
  std::string tls_key_file;
};

// Counters since Start (a snapshot; each field is read atomically on its own).
struct HttpServerStats {
  uint64_t accepted = 0;       // connections accepted for service
  uint64_t active = 0;         // connections open now (not counting those answered 503)
  uint64_t rejected = 0;       // connections over `max_connections` (answered 503 or closed)
  uint64_t timeouts = 0;       // connections ended by a header, body, idle or write deadline
  uint64_t accept_errors = 0;  // failed accepts (EMFILE, ...)
};

class HttpServer {
 public:
  // REQUIRES: `router` outlives the server.
  HttpServer(const ApiRouter* router, HttpServerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and starts serving. Errors: kInvalid for a bad address or option (or TLS files
  // NewTlsServerContext refuses), kIOError when binding fails or the access log file cannot
  // be opened. Call once.
  common::Status Start();
  // The bound port (after Start).
  uint16_t port() const { return port_; }
  // The connection limit in force (after Start: `max_connections` or the derived default).
  int max_connections() const;
  HttpServerStats stats() const;
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
