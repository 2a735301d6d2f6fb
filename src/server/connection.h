// Connection: one client connection of the native-protocol server (ARCHITECTURE.md §7, §8).
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
//  3. Before STARTUP only OPTIONS and STARTUP are accepted. READY is written in envelope
//     framing; for v5 the FrameWriter and FrameReader switch to segments right after it (the
//     client only sends segments once it has READY). For v4 with compression, envelope
//     compression is switched on in both directions.
//  4. Statement requests run concurrently (not on the strand), so responses leave in completion
//     order, matched by stream id. `in_flight_` counts requests between dispatch and the moment
//     their response is queued; the reader stops decoding while `in_flight_` reaches
//     max_requests_per_connection or while more than kMaxPendingOutput bytes wait to be written,
//     so a client that never reads cannot make the server buffer without bound.
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
//
// Thread-safety: the public member functions are thread-safe (they post to the strand).

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
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "common/bytes.h"
#include "cql/session.h"
#include "protocol/compression.h"
#include "protocol/frame.h"
#include "protocol/messages.h"
#include "server/request_handler.h"

namespace server {

class Connection;
class ConnectionRegistry;

// Limits a connection works with (a subset of ServerOptions).
struct ConnectionLimits {
  size_t max_requests_per_connection = 1024;
  size_t max_envelope_body = protocol::kDefaultMaxEnvelopeBody;
};

// What the server shares with its connections. REQUIRES: outlives every connection's
// coroutines (the server stops them before destroying it).
struct ConnectionContext {
  ConnectionLimits limits;
  const RequestHandler* handler = nullptr;
  // Where statement requests run: the io_context (durability periodic) or a worker pool.
  boost::asio::any_io_executor request_executor;
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // Bytes waiting to be written above which the connection stops reading requests.
  static constexpr size_t kMaxPendingOutput = 4 * 1024 * 1024;
  // Above this, pushed events are dropped for a client that does not read.
  static constexpr size_t kMaxPendingOutputForEvents = 16 * 1024 * 1024;

  // `socket`'s executor must be a strand. REQUIRES: `context` outlives the connection's
  // coroutines; `registry` is told when the connection ends.
  Connection(boost::asio::ip::tcp::socket socket, const ConnectionContext* context,
             std::shared_ptr<ConnectionRegistry> registry);
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

 private:
  boost::asio::awaitable<void> ReadLoop();
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
  void Dispatch(int16_t stream, protocol::Request request);
  void CompleteRequest(int16_t stream, Response response);

  // Queues a response; `version` defaults to the connection's.
  void Queue(int16_t stream, const Response& response, std::optional<uint8_t> version = {});
  void QueueError(int16_t stream, const common::Status& status,
                  std::optional<uint8_t> version = {});
  // Queues a ProtocolError and closes once it is written (design 6).
  void FailConnection(int16_t stream, const common::Status& status,
                      std::optional<uint8_t> version = {});
  size_t PendingOutput() const { return unflushed_ + output_.size() + writing_.size(); }
  void LoopEnded();
  void CloseSocket();

  boost::asio::ip::tcp::socket socket_;
  boost::asio::any_io_executor strand_;
  const ConnectionContext* context_;
  std::shared_ptr<ConnectionRegistry> registry_;
  std::string peer_;  // for logs

  // Strand-only state (design 1).
  protocol::FrameReader reader_;
  protocol::FrameWriter writer_;
  common::Bytes negotiation_bytes_;  // first bytes, until the version is known
  std::optional<uint8_t> version_;
  bool ready_ = false;  // STARTUP answered
  size_t in_flight_ = 0;
  size_t unflushed_ = 0;   // bytes added to writer_ since its last Flush
  common::Bytes output_;   // flushed, waiting for the writer
  common::Bytes writing_;  // being written
  bool closing_ = false;   // stop reading; close once everything queued is written
  bool drain_on_close_ = false;
  bool reading_done_ = false;
  bool write_failed_ = false;
  int loops_running_ = 0;
  boost::asio::steady_timer read_wake_;
  boost::asio::steady_timer write_wake_;
  boost::asio::cancellation_signal read_cancel_;
  std::vector<char> read_buffer_;

  // Thread-safe state.
  SessionKeyspace keyspace_;
  std::atomic<bool> schema_events_{false};
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
