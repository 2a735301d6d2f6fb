// HostPool: the connection pool of a `RemoteSession` (remote_session.h) — a few connections to
// every known host, protocol negotiation, routing and reconnection.
//
// Design (numbered invariants):
//   1. All state lives on the session's single io thread; every method must be called there
//      (RemoteSession posts to it). Coroutines capture `this`: `Shutdown` must run, and the io
//      context must drain, before the pool is destroyed.
//   2. The protocol version is negotiated once, on the first connection to the first reachable
//      contact point (v5, then v4 when the server refuses v5 — or exactly the configured
//      version), and then used for every connection.
//   3. Each host has `connections_per_host` slots. A slot holds at most one connection; when it
//      breaks (its in-flight requests fail with IOError), the slot reconnects in the background
//      after a delay that starts at `reconnect_initial_delay` and doubles up to
//      `reconnect_max_delay`, reset by a successful connect.
//   4. A connection only becomes usable (ready) after its handshake and a USE of the pool's
//      current keyspace, so USE applies to every connection, including future ones.
//   5. `Send` never waits: with no usable connection it fails the request at once with IOError
//      ("No host available ...", with the hosts' last errors).
//
// Thread-safety: not thread-safe; io thread only (invariant 1).

#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "client/client_options.h"
#include "client/connection.h"
#include "client/token_ring.h"
#include "common/result.h"
#include "common/status.h"
#include "protocol/messages.h"

namespace client {

// Where a request should go: a given host (e.g. to re-prepare where UNPREPARED came from), or
// the owner of a token first, or anywhere (round robin over the hosts that are up).
struct Route {
  std::optional<size_t> host;
  std::optional<int64_t> token;
};

class HostPool {
 public:
  // The response and the index of the host that answered (or was tried).
  using Callback = std::function<void(common::Result<Response>, size_t host)>;

  // `tls`: the TLS context every connection uses (NewTlsContext of options.tls), or null for
  // plain TCP. REQUIRES: Validate(options).ok(); `io` outlives the pool.
  HostPool(boost::asio::io_context& io, ClientOptions options,
           std::shared_ptr<boost::asio::ssl::context> tls = nullptr);
  HostPool(const HostPool&) = delete;
  HostPool& operator=(const HostPool&) = delete;

  // Negotiates the version on the first reachable contact point (invariant 2) and opens the
  // other connections in the background. Ok when one connection is up; else IOError listing
  // why each contact point failed (or the server's error, e.g. AuthenticationError).
  boost::asio::awaitable<common::Status> Start();

  // Sends a request on the least-loaded usable connection of the chosen host (see Route) and
  // calls `done` once, on the io thread (invariant 5).
  void Send(const protocol::Request& request, const Route& route, Callback done);

  // The keyspace new connections USE (invariant 4).
  void SetKeyspace(std::string keyspace) { keyspace_ = std::move(keyspace); }
  const std::string& keyspace() const { return keyspace_; }

  // Usable connections, for per-connection requests (USE on every connection).
  std::vector<std::shared_ptr<Connection>> ReadyConnections() const;

  // Adds a host (a peer found in system.peers) and starts connecting to it; returns its index,
  // or the existing index when the address is already known.
  size_t AddHost(const ContactPoint& point);
  // The index of a known host, or nullopt.
  std::optional<size_t> FindHost(const std::string& host) const;
  // Token-aware routing table (host indexes); empty: no token routing.
  void SetTokenRing(TokenRing ring) { ring_ = std::move(ring); }

  // Closes every connection, stops reconnecting and fails requests in flight. Idempotent.
  void Shutdown();

  uint8_t version() const { return version_; }
  size_t host_count() const { return hosts_.size(); }
  const std::string& host_address(size_t host) const { return hosts_[host].address; }
  const ContactPoint& host_point(size_t host) const { return hosts_[host].point; }
  // What a new connection to `host` is opened with (the negotiated version, the pool's keyspace).
  ConnectionSettings SettingsForHost(size_t host) const { return SettingsFor(hosts_[host]); }
  bool host_up(size_t host) const;

 private:
  struct Slot {
    std::shared_ptr<Connection> connection;  // usable or broken; null while none
    std::shared_ptr<Connection> opening;     // being opened (so Shutdown can close it)
    bool connecting = false;
    std::chrono::milliseconds delay{0};
    std::unique_ptr<boost::asio::steady_timer> timer;
  };
  struct Host {
    ContactPoint point;
    std::string address;  // "host:port"
    std::vector<Slot> slots;
    common::Status last_error;
  };

  ConnectionSettings SettingsFor(const Host& host) const;
  // Opens one connection to `host` (with the pool's keyspace). The connection is closed on error.
  boost::asio::awaitable<common::Status> OpenConnection(size_t host, size_t slot,
                                                        std::shared_ptr<Connection> connection);
  void StartSlot(size_t host, size_t slot, bool wait_first);
  boost::asio::awaitable<void> ConnectSlot(size_t host, size_t slot, bool wait_first);
  void Install(size_t host, size_t slot, std::shared_ptr<Connection> connection);
  Connection* BestConnection(size_t host) const;
  std::string DownMessage() const;

  boost::asio::io_context& io_;
  ClientOptions options_;
  std::shared_ptr<boost::asio::ssl::context> tls_;
  std::vector<Host> hosts_;
  uint8_t version_ = 0;  // 0 until negotiated
  std::string keyspace_;
  TokenRing ring_;
  size_t next_host_ = 0;  // round robin
  bool shutdown_ = false;
};

}  // namespace client
