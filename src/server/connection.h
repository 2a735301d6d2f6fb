// Connection: one client connection of the native-protocol server (docs/dev/architecture.md §4;
// docs/compatibility.md).
//
// Pipeline: socket bytes → (version negotiation) → protocol::FrameReader → envelopes →
// protocol::DecodeRequest → connection-level messages handled here (OPTIONS, STARTUP, REGISTER)
// or statement requests run by RequestHandler on the request executor → responses back on the
// connection's strand → protocol::FrameWriter → one writer coroutine → socket.
//
// Design (the connection state machine):
//  1. Everything that touches the socket, the FrameReader, the FrameWriter and the counters
//     below runs on the connection's strand: the reader coroutine, the writer coroutine, request
//     completions and pushed events. No mutex guards them; the strand serializes them.
//  2. The first envelope fixes the version. A version other than 4 or 5 is answered with
//     ProtocolError `Invalid or unsupported protocol version (N); supported versions are
//     (4/v4, 5/v5)` on the request's stream, with header version 5 when N > 5 and 4 otherwise
//     (drivers read the header version to pick the next one to try), then the connection closes.
//     Negotiation reads the raw bytes, so v1/v2 headers (8 bytes) are answered too.
//  3. Before STARTUP only OPTIONS and STARTUP are accepted, in envelopes of at most
//     kMaxHandshakeEnvelopeBody bytes (larger ones are a ProtocolError and close), and STARTUP
//     must come within `handshake_timeout`, else the connection closes (with a ProtocolError
//     when its version is known). READY is written in envelope framing; for v5 the
//     FrameWriter and FrameReader switch to segments right after it (the client only sends
//     segments once it has READY). For v4 with compression, envelope compression is switched
//     on in both directions.
//  4. Statement requests run concurrently (not on the strand), so responses leave in completion
//     order, matched by stream id. `in_flight_` counts requests between dispatch and the moment
//     their response is queued; the reader stops decoding while `in_flight_` reaches
//     max_requests_per_connection, while more than kMaxPendingOutput bytes wait to be written,
//     or while the output waiting plus the responses expected from the requests in flight
//     (`ReservedResponse()` each: the larger of the connection's largest recent response and
//     the server-wide estimate of memory_budget.h design 4, at least kMinResponseEstimate)
//     would pass kMaxPendingOutput. So a client that never reads stops being read: it holds at
//     most about kMaxPendingOutput plus the responses of the requests it had in flight (at
//     most 64 before any large response was seen, a few once one was).
//  4a. Memory (memory_budget.h): the connection's account balance is kept at
//     `MemoryTarget()`: bytes buffered and declared by the FrameReader (FrameReader::
//     MemoryNeeded, so a declared body or decompressed size counts before it exists), the
//     negotiation bytes, requests in flight (envelope size plus response estimate), output not
//     yet written, and the read buffer while a read is pending. A request reserves its
//     expected response (design 4), so many connections cannot each start a wave of large
//     answers either. Before each socket read and before each decode the reader reserves what
//     that step may add; when the server-wide budget is spent it waits for the grant without
//     reading. Completed responses and events are recorded without waiting (the memory
//     exists) and released as they are written.
//  4b. While ready, a connection with no request in flight that neither received an envelope
//     nor completed a write for `idle_timeout` (when set) is closed without an answer.
//  4c. Where a statement request runs: on `request_executor` (the io threads with durability
//     periodic, the worker pool with batch), except that a request that only reads
//     (RequestHandler::OnlyReads) runs on `read_executor` when there is one (the io threads
//     with batch: a read never waits for a sync, so it gains nothing from a worker but pays
//     two thread hand-offs, 30-36 µs of CPU per point read instead of 10), and with
//     `run_alone_inline` a request
//     that nothing else waits for runs at once on the strand, in the reader, and its response
//     is queued there: the connection has no other request in flight and no further byte
//     buffered after it, no request of the server is queued or running (RequestActivity), and
//     for kAloneWindow every request came from this connection. The window keeps concurrent
//     clients on the workers even when their requests arrive one at a time and the pool has
//     just drained (32 connections with one request each): run inline, one of them would hold
//     its io thread's other connections back from the next shared sync.
//     A lone durable client then waits for its write's sync and nothing else: no hand-off to
//     a worker and back. Requests that queue (pipelined, or from several connections at once)
//     are handed off as before, so concurrent writers still share a sync. While a request
//     runs inline its io thread serves nothing else: it is one request (with batch, one
//     synced write; at most one per io thread, since the thread is busy with it, and normally
//     one in the whole server), so the other connections of that thread wait at most that
//     long, about one sync; a request decoded meanwhile on another io thread finds the server
//     busy and is handed off.
//  5. The writer coroutine owns the socket's write side: it flushes the FrameWriter (coalescing
//     every response queued since the last write into one buffer, and in v5 into as few
//     segments as possible) and writes it. It ends when reading has ended and no request is in
//     flight and nothing is left to write, or when a write fails; it then closes the socket.
//  6. Fatal framing errors (bad CRC, oversized envelope, garbage) are answered with
//     ProtocolError on the failed header's stream (or 0), flushed, and the connection closes
//     after draining what the client still sends (briefly), so the answer is not lost to a TCP
//     reset. A malformed body with intact framing is answered on its stream and the connection
//     continues.
//  7. A connection is removed from the registry when both coroutines have ended. Handlers keep
//     it alive with shared_ptr; nothing outside the strand dereferences its members except the
//     thread-safe ones (`keyspace_`, `schema_events_`).
//  8. The byte stream is a Transport (transport.h): plaintext or TLS, settled by the reader
//     before its first read, and the same code above it for both. Before a connection on a TLS
//     port reads anything it reserves Transport::kTlsMemory from the budget (design 4a; kept for
//     the connection's life when TLS is chosen), and the TLS handshake runs under the handshake
//     deadline (design 3) and the reader's cancellation, like any read: a client that never
//     completes it is closed at `handshake_timeout`, one that fails it at once; both are logged
//     at INFO with OpenSSL's reason. The connection was counted against max_connections when it
//     was accepted, before any of this.
//
//  9. What system_views.clients shows of the connection (`Describe`) is copied, under
//     `client_mutex_`, from the strand when it changes: the protocol version, the STARTUP
//     options, the stage, TLS's protocol and cipher. The login is in `keyspace_`; the request
//     count is an atomic counted at dispatch.
//
// Thread-safety: the public member functions are thread-safe (they post to the strand, or
// read the thread-safe state of design 9).

#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "common/bytes.h"
#include "common/logging.h"
#include "cql/session.h"
#include "engine/system_views.h"
#include "protocol/compression.h"
#include "protocol/frame.h"
#include "protocol/messages.h"
#include "server/memory_budget.h"
#include "server/request_handler.h"
#include "server/transport.h"

namespace server {

class Connection;
class ConnectionRegistry;

// The version and stream of a client's first header, read from its first bytes (v1/v2 headers
// have a one-byte stream); nullopt until enough bytes are there. The version is as sent
// (possibly unsupported).
struct FirstHeader {
  uint8_t version = 0;
  int16_t stream = 0;
};
std::optional<FirstHeader> ParseFirstHeader(std::string_view bytes);
// The version to answer a client that sent `version` in: the nearest supported one.
uint8_t AnswerVersion(uint8_t version);

// Limits a connection works with (a subset of ServerOptions).
struct ConnectionLimits {
  size_t max_requests_per_connection = 1024;
  size_t max_envelope_body = protocol::kDefaultMaxEnvelopeBody;
  std::chrono::milliseconds handshake_timeout{10000};  // 0: none
  std::chrono::milliseconds idle_timeout{0};           // 0: none
};

// Requests of all the connections of a server (system_views.thread_pools). Thread-safe.
struct RequestActivity {
  std::atomic<int64_t> pending{0};    // dispatched, waiting for a thread
  std::atomic<int64_t> active{0};     // running in the engine
  std::atomic<int64_t> completed{0};  // run
  // Design 4c: the connection that dispatched the last request (only compared, never
  // dereferenced), and when (steady-clock nanoseconds) the dispatching connection last changed.
  std::atomic<const void*> last_connection{nullptr};
  std::atomic<int64_t> last_switch{0};
};

// What the server shares with its connections. REQUIRES: outlives every connection (the
// server stops them before destroying it).
struct ConnectionContext {
  ConnectionLimits limits;
  const RequestHandler* handler = nullptr;
  MemoryBudget* budget = nullptr;  // REQUIRES: not null
  // Where statement requests run: the io_context (durability periodic) or a worker pool.
  boost::asio::any_io_executor request_executor;
  // Run a request that nothing else waits for on the connection's strand (design 4c).
  bool run_alone_inline = false;
  // Where requests that only read run when request_executor is a worker pool (design 4c):
  // the io threads. Empty: on request_executor.
  boost::asio::any_io_executor read_executor;
  RequestActivity* activity = nullptr;  // REQUIRES: not null
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // Bytes waiting to be written above which the connection stops reading requests.
  static constexpr size_t kMaxPendingOutput = 4 * 1024 * 1024;
  // Above this, pushed events are dropped for a client that does not read.
  static constexpr size_t kMaxPendingOutputForEvents = 16 * 1024 * 1024;
  // Largest envelope body accepted before STARTUP completes (OPTIONS and STARTUP are tiny).
  static constexpr size_t kMaxHandshakeEnvelopeBody = 64 * 1024;
  // Smallest response size assumed for a request in flight (design 4).
  static constexpr size_t kMinResponseEstimate = MemoryBudget::kMinResponseEstimate;
  // How long only this connection must have dispatched requests before one may run inline
  // (design 4c).
  static constexpr std::chrono::microseconds kAloneWindow{1000};

  // `socket`'s executor must be a strand; `security` says whether it speaks TLS (design 8).
  // REQUIRES: `context` outlives the connection's coroutines; `registry` is told when the
  // connection ends.
  Connection(boost::asio::ip::tcp::socket socket, const ConnectionContext* context,
             std::shared_ptr<ConnectionRegistry> registry, TransportSecurity security = {});
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Starts the reader and writer coroutines. Call once, after registering the connection.
  void Start();
  // Graceful stop: stops reading; requests in flight finish and their responses are written,
  // then the connection closes.
  void Shutdown();
  // Closes the socket now (pending writes are abandoned).
  void ForceClose();
  // Queues an EVENT SCHEMA_CHANGE if the client registered for it. Thread-safe; any thread.
  void PushSchemaChange(const cql::SchemaChangeEvent& event);
  bool wants_schema_events() const { return schema_events_.load(std::memory_order_acquire); }
  // The connection as system_views.clients shows it (design 9). Thread-safe; any thread.
  engine::ClientInfo Describe() const;

 private:
  boost::asio::awaitable<void> ReadLoop();
  // Design 8: settles plaintext or TLS and runs the handshake. Returns false when the
  // connection is to close.
  boost::asio::awaitable<bool> AcceptTransport();
  boost::asio::awaitable<void> WriteLoop();
  // Waits on `timer` until another strand handler cancels it.
  boost::asio::awaitable<void> Wait(boost::asio::steady_timer* timer);
  void WakeReader();
  void WakeWriter();

  // Negotiation (design 2) on the first bytes. Returns false when the bytes are not enough yet
  // or the version was refused (then closing_ is set).
  bool Negotiate();
  // Handles one envelope read while the connection is open.
  void HandleEnvelope(protocol::Envelope envelope);
  void HandleStartup(int16_t stream, const protocol::StartupRequest& startup);
  void Dispatch(int16_t stream, protocol::Request request, size_t request_size);
  // Whether the request being dispatched runs on the strand (design 4c), noting this
  // connection as the last to dispatch. Called before Dispatch counts it.
  bool RunsInline();
  // Runs a statement request (on the request executor or inline) and returns its response;
  // counts it in RequestActivity.
  Response Execute(int16_t stream, uint8_t version, const protocol::Request& request);
  // `reserved` is what Dispatch counted for the request (its size and its expected
  // response), `estimate` the expected response alone.
  void CompleteRequest(int16_t stream, Response response, size_t reserved, size_t estimate);
  // Whether the limits of design 4 let the reader decode another envelope.
  bool MayDecode() const;
  // The response expected from a request dispatched now (design 4).
  size_t ReservedResponse() const;

  // Memory (design 4a). The balance the connection should hold, plus `extra`.
  size_t MemoryTarget(size_t extra) const;
  // Grows the balance to MemoryTarget(extra); returns false (and waits for a grant) when the
  // budget is spent.
  bool ReserveMemory(size_t extra);
  // Sets the balance to MemoryTarget(0), growing without waiting or giving back the rest.
  void SettleMemory();

  // Timeouts (design 3, 4b): arms `deadline_` for the next check, and the check itself.
  void ArmDeadline();
  void CheckDeadline();
  // Closes now, without an answer (idle timeout, handshake timeout before a version).
  void Abandon();

  // Queues a response; `version` defaults to the connection's.
  void Queue(int16_t stream, const Response& response, std::optional<uint8_t> version = {});
  void QueueError(int16_t stream, const common::Status& status,
                  std::optional<uint8_t> version = {});
  // The connection may run statements: the idle deadline and the full envelope size apply.
  void BecomeReady();
  // Checks an AUTH_RESPONSE's credentials off the strand, then answers AUTH_SUCCESS, or the
  // AuthenticationError after kFailedLoginDelay (the connection may try again).
  void HandleAuthResponse(int16_t stream, const protocol::AuthResponseRequest& auth);
  void CompleteAuthentication(int16_t stream, common::Result<std::string> role);
  // Queues a ProtocolError and closes once it is written (design 6), logging why at `level`.
  void FailConnection(int16_t stream, const common::Status& status,
                      std::optional<uint8_t> version = std::nullopt,
                      common::LogLevel level = common::LogLevel::kInfo);
  size_t PendingOutput() const { return unflushed_ + output_.size() + writing_.size(); }
  void LoopEnded();
  void CloseSocket();

  Transport transport_;
  boost::asio::any_io_executor strand_;
  TransportSecurity security_;
  const ConnectionContext* context_;
  std::shared_ptr<ConnectionRegistry> registry_;
  std::string peer_;  // for logs

  // Strand-only state (design 1).
  protocol::FrameReader reader_;
  protocol::FrameWriter writer_;
  common::Bytes negotiation_bytes_;  // first bytes, until the version is known
  std::optional<uint8_t> version_;
  bool ready_ = false;           // STARTUP answered (and, with authentication, the login done)
  bool authenticating_ = false;  // STARTUP answered with AUTHENTICATE; no login yet
  bool auth_in_flight_ = false;  // an AUTH_RESPONSE is being checked (or its refusal delayed)
  size_t in_flight_ = 0;
  size_t unflushed_ = 0;   // bytes added to writer_ since its last Flush
  common::Bytes output_;   // flushed, waiting for the writer
  common::Bytes writing_;  // being written
  bool closing_ = false;   // stop reading; close once everything queued is written
  bool drain_on_close_ = false;
  bool reading_done_ = false;
  bool write_failed_ = false;
  int loops_running_ = 0;
  bool read_pending_ = false;      // a socket read into read_buffer_ is outstanding
  bool transport_ready_ = false;   // plaintext or TLS settled, the TLS handshake done
  size_t transport_memory_ = 0;    // the TLS state, counted (design 8)
  size_t in_flight_reserved_ = 0;  // sum of the `reserved` of requests in flight
  size_t in_flight_estimate_ = 0;  // sum of their response estimates
  size_t response_estimate_ = kMinResponseEstimate;
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_activity_;
  MemoryBudget::Account memory_;
  boost::asio::steady_timer read_wake_;
  boost::asio::steady_timer write_wake_;
  boost::asio::steady_timer deadline_;
  boost::asio::cancellation_signal read_cancel_;
  std::vector<char> read_buffer_;

  // Thread-safe state.
  SessionKeyspace keyspace_;
  std::atomic<bool> schema_events_{false};
  std::atomic<int64_t> request_count_{0};
  mutable std::mutex client_mutex_;
  engine::ClientInfo client_;  // GUARDED_BY(client_mutex_); design 9
};

// The live connections of a server, and the fan-out of schema events to them.
//
// Thread-safety: thread-safe. Shared (shared_ptr) by the server, its connections and the
// Database's schema listener, which can outlive the server: after Close() it does nothing.
class ConnectionRegistry {
 public:
  // Returns false (and does not add) once closed.
  bool Add(const std::shared_ptr<Connection>& connection);
  void Remove(const Connection* connection);
  size_t size() const;
  std::vector<std::shared_ptr<Connection>> Snapshot() const;
  // Waits until no connection is left or `timeout` passes; returns whether none is left.
  bool WaitEmpty(std::chrono::milliseconds timeout);
  // Pushes `event` to every connection registered for schema changes.
  void PublishSchemaChange(const cql::SchemaChangeEvent& event);
  // Stops publishing and accepting connections.
  void Close();

 private:
  mutable std::mutex mutex_;
  std::condition_variable empty_;
  bool closed_ = false;                                 // GUARDED_BY(mutex_)
  std::vector<std::weak_ptr<Connection>> connections_;  // GUARDED_BY(mutex_)
  std::vector<const Connection*> keys_;  // GUARDED_BY(mutex_), parallel to connections_
};

}  // namespace server
