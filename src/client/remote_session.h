// RemoteSession: the C++ driver's `cql::Session` over the native protocol (docs/dev/architecture.md
// §1).
//
// `RemoteSession::Connect(options)` connects to a Cassandra-compatible cluster (cqld, Apache
// Cassandra 4.x/5.x — 3.11 too, over v4 — or ScyllaDB) and returns a session that executes
// statements exactly like the embedded one (engine `Database::NewSession`): the same
// `ResultSet`s, the same paging, the same errors (a `Status` carrying the server's error code
// and message). The hotel service can therefore run on either without a change. See
// docs/client.md.
//
// Structure: one io thread runs an asio io_context with a `HostPool` (host_pool.h) of pipelined
// `Connection`s (connection.h). Each blocking call builds a request, posts it to the io thread
// and waits on a future for the response, so any number of threads can call at once and their
// requests share the connections (many in flight per connection). With one host, plain TCP and
// no compression (and `ClientOptions::direct_connections`, the default), a call instead borrows
// a `DirectConnection` (direct_connection.h) from a small pool and does the I/O on the calling
// thread: no hand-over to the io thread and back, which costs more CPU than the request. When
// none can be opened (the server is down) or kMaxDirectConnections are lent, the call takes the
// pipelined path; the pool still serves the session's own work (topology, schema agreement).
//
// Behaviour worth knowing:
//   - Paging is manual, as in the embedded session: `QueryOptions::page_size` > 0 returns one
//     page and `paging_state()` when more rows follow; pass it back to continue. `ExecuteAll`
//     fetches every page for you (transparent paging).
//   - `Prepare` caches the server's metadata (prepared_cache.h); `ExecutePrepared` sends EXECUTE
//     with skip_metadata and decodes rows with the cached columns; on UNPREPARED it prepares the
//     statement again on the node that answered and retries once.
//   - `USE ks` is applied to every connection of the pool, and to every future one.
//   - After a schema change the session waits (bounded) until the nodes agree on
//     schema_version (system.local + system.peers).
//   - A broken connection fails its requests with IOError and reconnects in the background;
//     with no connection up, requests fail at once with IOError ("No host available ...").
//   - A request that gets no answer within `request_timeout` fails with IOError.
//
// Thread-safety: thread-safe. The `PreparedMetadata` returned by Prepare is immutable.

#pragma once

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "client/client_options.h"
#include "client/connection.h"
#include "client/direct_connection.h"
#include "client/host_pool.h"
#include "client/prepared_cache.h"
#include "common/result.h"
#include "common/status.h"
#include "cql/session.h"
#include "protocol/messages.h"

namespace client {

class RemoteSession final : public cql::Session {
 public:
  // Connects: validates the options, negotiates the protocol version on the first reachable
  // contact point, authenticates, starts the pool and reads the cluster's topology (peers and
  // tokens, for token-aware routing). With options.tls.enabled every connection runs TLS first.
  // Errors: Invalid for bad options, or TLS files that cannot be loaded (before any connection
  // is tried); IOError when no contact point can be reached (with each one's reason, e.g. `TLS
  // handshake with HOST:PORT failed: certificate verify failed (...)`); the server's error
  // otherwise (e.g. AuthenticationError "Provided username ... are incorrect").
  static common::Result<std::unique_ptr<RemoteSession>> Connect(const ClientOptions& options);

  // Closes every connection; requests still waiting fail with IOError.
  ~RemoteSession() override;
  RemoteSession(const RemoteSession&) = delete;
  RemoteSession& operator=(const RemoteSession&) = delete;

  // cql::Session. Errors: the server's Status (code and message as the server sent them), or
  // IOError when the connection broke, no host is up or the request timed out.
  using cql::Session::Execute;
  common::Result<cql::ResultSet> Execute(std::string_view query,
                                         const cql::QueryOptions& options) override;
  common::Result<std::shared_ptr<const cql::PreparedMetadata>> Prepare(
      std::string_view query) override;
  // `prepared` must come from this session's Prepare (or carry the id, query text and result
  // columns of a statement prepared elsewhere: the query text is what UNPREPARED re-prepares).
  common::Result<cql::ResultSet> ExecutePrepared(const cql::PreparedMetadata& prepared,
                                                 const cql::QueryOptions& options) override;
  common::Result<cql::ResultSet> ExecuteBatch(const cql::BatchRequest& batch) override;
  std::string keyspace() const override;

  // Transparent paging: runs `query` page by page (`options.page_size`, 5000 when <= 0) from
  // `options.paging_state` and returns every row in one ResultSet without a paging state.
  common::Result<cql::ResultSet> ExecuteAll(std::string_view query,
                                            const cql::QueryOptions& options);

  // Polls system.local and system.peers on `host` (any host when nullopt) until every node
  // reports the same schema_version or `schema_agreement_timeout` passes. Returns Ok when they
  // agree, IOError "Schema agreement not reached ..." on timeout, or the error of a failed poll.
  common::Status WaitForSchemaAgreement(std::optional<size_t> host = std::nullopt);

  // The negotiated protocol version (4 or 5).
  uint8_t protocol_version() const { return version_; }
  // Hosts known to the pool, and how many have a usable connection now.
  size_t host_count();
  size_t hosts_up();
  // Usable connections over all hosts.
  size_t connection_count();

 private:
  struct CallResult {
    common::Result<Response> response;
    size_t host = 0;
  };

  // `tls`: NewTlsContext(options.tls), or null without TLS.
  RemoteSession(ClientOptions options, std::shared_ptr<boost::asio::ssl::context> tls);
  common::Status Start();
  void Shutdown();
  // Sends `request` through the pool and waits for the answer.
  CallResult Call(protocol::Request request, Route route);
  // Runs `function` on the io thread and waits for it.
  template <typename Function>
  auto RunOnIo(Function function) -> decltype(function());

  // `known_columns`: the prepared statement's result columns (shared with its cache entry, so
  // rows sent without metadata refer to them instead of copying them), or null.
  common::Result<protocol::ResultResponse> Decode(
      const Response& response,
      std::shared_ptr<const std::vector<cql::ColumnSpec>> known_columns) const;
  // USE propagation and schema agreement after a statement that changed them; the warnings
  // and the tracing id of the response go into the result.
  common::Result<cql::ResultSet> Finish(protocol::ResultResponse decoded,
                                        std::vector<std::string> warnings,
                                        std::optional<common::Bytes> tracing_id, size_t host);
  common::Status UseEverywhere(const std::string& keyspace);
  common::Result<std::shared_ptr<const cql::PreparedMetadata>> Reprepare(
      const cql::PreparedMetadata& prepared, size_t host);
  void DiscoverTopology();
  cql::Consistency Effective(cql::Consistency consistency) const;

  // A direct connection lent to one call, with the keyspace epoch it was opened in.
  struct DirectLease {
    std::unique_ptr<DirectConnection> connection;
    uint64_t keyspace_epoch = 0;
  };
  // `request` on a direct connection, or nullopt when the session does not use them or none can
  // be had now (the caller then takes the pool).
  std::optional<CallResult> CallDirect(const protocol::Request& request);
  // An idle direct connection still open in the current keyspace, or a new one; nullopt when
  // kMaxDirectConnections are open or opening failed recently (backoff as the pool's).
  std::optional<DirectLease> TakeDirect();
  void ReturnDirect(DirectLease lease);

  ClientOptions options_;
  boost::asio::io_context io_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::unique_ptr<HostPool> pool_;  // io thread only
  std::thread thread_;
  std::atomic<bool> shut_down_{false};
  uint8_t version_ = 0;  // set by Start, then constant
  PreparedCache prepared_;
  mutable std::mutex mutex_;
  std::string keyspace_;  // GUARDED_BY(mutex_)
  // Bumped by every USE: a direct connection opened in an older epoch is dropped, not reused.
  std::atomic<uint64_t> keyspace_epoch_{0};

  bool direct_ = false;                 // set by Start, then constant
  ConnectionSettings direct_settings_;  // set by Start, then constant (keyspace: per open)
  std::mutex direct_mutex_;
  std::vector<DirectLease> idle_direct_;  // GUARDED_BY(direct_mutex_)
  size_t direct_open_ = 0;                // GUARDED_BY(direct_mutex_): idle, lent or opening
  std::chrono::steady_clock::time_point direct_retry_after_;  // GUARDED_BY(direct_mutex_)
  std::chrono::milliseconds direct_backoff_{0};               // GUARDED_BY(direct_mutex_)
};

}  // namespace client
