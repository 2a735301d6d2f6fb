// Server: the native-protocol server of `cqld` (docs/dev/architecture.md §4;
// docs/compatibility.md).
//
// `Server::Start(database, options)` binds a TCP listener and serves the CQL native protocol
// (v4 and v5) over `database` until `Stop()`. It runs Boost.Asio with C++20 coroutines on one
// io_context driven by `io_threads` threads: one coroutine accepts, and each connection
// (connection.h) has a reader and a writer coroutine on its own strand, while its statement
// requests run concurrently (request_handler.h). Engine calls block: with durability periodic
// they run on the io threads; with durability batch (`execute_on_workers`) writes run on a pool
// of `worker_threads`, so concurrent writers share one write-ahead-log sync, while reads (which
// never sync) stay on the io threads, and a request that nothing else waits for
// (`run_alone_inline`, connection.h design 4c) runs on its io thread at once, so a lone durable
// client waits for one sync and no thread hand-off. The bound: an io thread runs at most one
// such request at a time (the thread is busy with it) and normally the whole server runs one, so
// the other connections of that io thread wait at most one request, with batch about one sync,
// before they are read again; their requests then find the server busy and go to the workers,
// where they share syncs.
//
// Schema changes made through the Database (by any client, or in-process) are pushed as
// EVENT SCHEMA_CHANGE to every connection that REGISTERed for them.
//
// Bounds (docs/reliability.md §3): one MemoryBudget (memory_budget.h) of `max_request_memory`
// bytes is shared by every connection and counts request bytes received or declared, requests
// in flight and responses not yet written; when it is spent, connections stop reading until
// memory is released. A connection must complete STARTUP within `handshake_timeout` and is
// closed after `idle_timeout` without requests (when set). A connection over `max_connections`
// is answered with ERROR Overloaded on the stream of its first header (read for at most
// kRejectTimeout), then closed; at most kMaxRejectionsInProgress such answers are in progress
// at once, further ones are closed at once.
//
// TLS (tls.h, transport.h): with `tls.enabled` every connection speaks TLS (or, with
// `tls.optional`, TLS or plaintext, as its first byte says). The handshake is part of the
// connection: it counts against max_connections, the memory budget and the handshake timeout
// like the rest of the handshake (connection.h design 8); a connection over max_connections
// gets its Overloaded answer over TLS. `ReloadTls()` re-reads the certificate, key and
// truststore for the connections accepted afterwards; open connections keep theirs.
//
// Thread-safety: Start, endpoint, port, connection_count, ReloadTls and Stop are thread-safe; Stop
// may be called more than once (and is called by the destructor).

#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>

#include "common/metrics.h"
#include "common/result.h"
#include "engine/database.h"
#include "protocol/frame.h"
#include "server/audit_log.h"
#include "server/connection.h"
#include "server/memory_budget.h"
#include "server/request_handler.h"
#include "server/tls.h"
#include "server/transport.h"

namespace server {

struct ServerOptions {
  std::string address = "127.0.0.1";
  uint16_t port = 9042;   // 0: an ephemeral port (see Server::port())
  size_t io_threads = 0;  // 0: one per hardware core
  size_t max_connections = 1024;
  size_t max_requests_per_connection = 1024;
  size_t max_envelope_body = protocol::kDefaultMaxEnvelopeBody;
  // The server-wide memory budget for requests and queued responses (memory_budget.h).
  size_t max_request_memory = 256 * 1024 * 1024;
  // STARTUP must complete within this after the connection is accepted; 0: no limit.
  std::chrono::milliseconds handshake_timeout = std::chrono::seconds(10);
  // A ready connection without requests or writes for this long is closed; 0 (default): never,
  // as Cassandra's native_transport_idle_timeout.
  std::chrono::milliseconds idle_timeout = std::chrono::milliseconds(0);
  // Run engine calls other than reads on a pool of `worker_threads` instead of the io threads.
  // Set it when the Database was opened with durability batch: a write then waits for a WAL
  // sync, and many writers waiting together is what lets the sync be shared.
  bool execute_on_workers = false;
  size_t worker_threads = 32;
  // With execute_on_workers: a request that nothing else waits for (its connection has no
  // other request in flight or buffered, and the server runs and queues none) runs on its io
  // thread instead of being handed to a worker (connection.h design 4c).
  bool run_alone_inline = true;
  // How long Stop() lets in-flight requests finish and their responses be written.
  std::chrono::milliseconds stop_timeout = std::chrono::seconds(5);
  // TLS on the native port (Cassandra's client_encryption_options); off by default.
  TlsOptions tls;
  // Where logins and statements are audited (audit_log.h); nullptr: nowhere. REQUIRES:
  // outlives the server.
  AuditLog* audit_log = nullptr;
};

class Server {
 public:
  // How long a connection over max_connections has to send its first header.
  static constexpr std::chrono::milliseconds kRejectTimeout{2000};
  static constexpr size_t kMaxRejectionsInProgress = 64;

  // Binds `options.address`:`options.port` and starts serving; the listener accepts as soon as
  // this returns. Errors: Invalid for a bad address or option, IOError when the address cannot
  // be bound. REQUIRES: `database` outlives the server.
  static common::Result<std::unique_ptr<Server>> Start(engine::Database* database,
                                                       const ServerOptions& options);
  // Stops (see Stop()).
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The bound address and port (the real port when options.port was 0).
  boost::asio::ip::tcp::endpoint endpoint() const { return endpoint_; }
  uint16_t port() const { return endpoint_.port(); }
  // Open connections.
  size_t connection_count() const { return registry_->size(); }
  // The memory budget (its used bytes and high-water mark), for tests and monitoring.
  const MemoryBudget& memory_budget() const { return budget_; }
  // Connections refused because max_connections was reached, since Start.
  uint64_t rejected_connections() const { return rejected_connections_.load(); }

  // Re-reads options.tls's files into a new TLS context for the connections accepted from now
  // on (cqld calls it on SIGHUP). Open connections keep the context they started with. On an
  // error (NewTlsContext's, or Invalid when TLS is off) the current context stays in use and
  // the error is logged and returned.
  common::Status ReloadTls();

  // Graceful stop: stops accepting, stops reading requests, lets requests in flight finish and
  // their responses be written (at most options.stop_timeout), closes every connection and
  // joins the threads. Schema events are no longer pushed. Idempotent.
  void Stop();

 private:
  Server(engine::Database* database, const ServerOptions& options);
  boost::asio::awaitable<void> AcceptLoop();
  // Answers a connection over max_connections with ERROR Overloaded, then closes it.
  boost::asio::awaitable<void> Reject(boost::asio::ip::tcp::socket socket);
  // What a connection accepted now speaks (the current TLS context).
  TransportSecurity CurrentSecurity() const;

  ServerOptions options_;
  engine::Database* database_;  // outlives the server
  RequestHandler handler_;
  ConnectionContext context_;
  // Declared before io_: connections and rejections still held by its handlers use them until
  // the io_context is destroyed.
  MemoryBudget budget_;
  std::atomic<uint64_t> rejected_connections_{0};
  // Exports budget_ to /metrics (server_metrics.h); reset by Stop, before budget_ goes.
  common::metrics::CollectorHandle budget_collector_;
  std::atomic<size_t> rejections_in_progress_{0};
  boost::asio::io_context io_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::unique_ptr<boost::asio::thread_pool> workers_;
  boost::asio::strand<boost::asio::io_context::executor_type> acceptor_strand_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::ip::tcp::endpoint endpoint_;
  std::shared_ptr<ConnectionRegistry> registry_;
  // The requests of every connection; shared with the Database's system_views source.
  std::shared_ptr<RequestActivity> activity_ = std::make_shared<RequestActivity>();
  std::vector<std::thread> threads_;
  std::atomic<bool> stopping_{false};
  std::mutex stop_mutex_;  // serializes Stop()
  bool stopped_ = false;   // GUARDED_BY(stop_mutex_)
  mutable std::mutex tls_mutex_;
  TransportSecurity security_;  // GUARDED_BY(tls_mutex_)
};

}  // namespace server
