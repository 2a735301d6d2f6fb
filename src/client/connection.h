// Connection: one native-protocol connection of the C++ driver (src/client/).
//
// A connection opens a TCP socket (with TLS over it when the settings carry a TLS context:
// transport.h), runs the handshake (OPTIONS when compression is wanted,
// STARTUP, SASL PLAIN authentication when the server sends AUTHENTICATE, USE of the session's
// keyspace) and then pipelines requests: each request takes a free stream id, responses are
// matched by stream id in whatever order they arrive. Envelopes are framed by protocol/frame.h
// (v5 segments after READY/AUTHENTICATE) and bodies encoded by protocol/messages.h, the same code
// the server uses.
//
// Design (numbered invariants):
//   1. Everything runs on the one io thread of the owning io_context: `Send`, `Close`, the read
//      and write coroutines, the timers and every callback. Other threads post to it.
//   2. A stream id is in exactly one of: the free list, in flight (a callback waits), or
//      orphaned (its request timed out and the callback already ran; the id returns to the free
//      list only when the late response arrives, so it can never be matched to a newer request).
//   3. Every callback runs exactly once: with the response, with a timeout, or with the IOError
//      of the failure that broke the connection. After `Close` or a failure the connection is
//      broken forever; the pool replaces it.
//   4. Frame switches (segments, compression) happen inside the read loop when READY or
//      AUTHENTICATE arrives, before any later byte is parsed or any later request is written.
//
// Thread-safety: not thread-safe; use only from the io_context's thread (invariant 1).

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
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "client/transport.h"
#include "common/bytes.h"
#include "common/result.h"
#include "common/status.h"
#include "protocol/compression.h"
#include "protocol/frame.h"
#include "protocol/messages.h"

namespace client {

// A response that is not an ERROR (ERROR responses become failed Results carrying the server's
// code and message).
struct Response {
  protocol::Opcode opcode = protocol::Opcode::kResult;
  common::Bytes body;  // the message body after the tracing id and warnings
  std::vector<std::string> warnings;
  std::optional<common::Bytes> tracing_id;  // the tracing session, when the request was traced
};

// What one connection needs to open.
struct ConnectionSettings {
  std::string host;
  uint16_t port = 9042;
  uint8_t version = protocol::kMaxVersion;  // exactly this version (negotiation is the pool's)
  protocol::Compression compression = protocol::Compression::kNone;
  std::string username;  // empty: no credentials
  std::string password;
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds request_timeout{12000};
  size_t max_in_flight = 1024;
  std::string keyspace;  // USE after READY when not empty
  // TLS: the session's context (transport.h NewTlsContext); null for plain TCP.
  std::shared_ptr<boost::asio::ssl::context> tls;
  bool verify_hostname = true;  // with tls: the certificate must name `host`
};

// The handshake steps and the response decoding that every connection kind shares (this
// pipelined Connection and the caller-driven DirectConnection, direct_connection.h).
//
// STARTUP with the driver's name and version, and COMPRESSION when `compression` is not kNone.
protocol::Request StartupRequest(protocol::Compression compression);
// The SASL PLAIN answer to AUTHENTICATE for the settings' credentials; AuthenticationError
// "Host ADDRESS requires authentication ..." when no username was given.
common::Result<protocol::Request> PlainAuthResponse(const ConnectionSettings& settings,
                                                    const std::string& address,
                                                    const std::string& authenticator);
// Ok for AUTH_SUCCESS; AuthenticationError naming the opcode otherwise.
common::Status CheckAuthSuccess(const Response& answer, const std::string& address);
// `USE keyspace`, quoted when needed.
protocol::Request UseRequest(const std::string& keyspace);
// The response carried by `envelope`: an ERROR as a failed Result with the server's status,
// ProtocolError for a malformed prefix, otherwise the body after the tracing id and warnings.
common::Result<Response> DecodeResponse(protocol::Envelope envelope);

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  using Callback = std::function<void(common::Result<Response>)>;
  using CloseHandler = std::function<void(const common::Status&)>;

  // A connection that is not open yet. REQUIRES: `io` outlives it.
  static std::shared_ptr<Connection> Create(boost::asio::io_context& io);
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection();

  // Connects to settings.host:port and runs the handshake (TLS first when settings.tls is set).
  // Errors: IOError when the host is unreachable, the TLS handshake fails (the message says
  // why, e.g. the certificate could not be verified) or the handshake times out
  // (settings.connect_timeout); the server's error
  // (e.g. ProtocolError for a refused version — see version_refused() — or
  // AuthenticationError); AuthenticationError when the server demands credentials and none
  // were given. On error the connection is closed. A USE of settings.keyspace that the server
  // refuses (the keyspace is gone) is not an error: the connection opens without a keyspace
  // (keyspace() is then ""). REQUIRES: called once.
  boost::asio::awaitable<common::Status> Open(ConnectionSettings settings);

  // Sends `request` and calls `done` once (invariant 3) with its response, an ERROR as a failed
  // Result with the server's status, IOError when the connection breaks or `timeout` passes
  // first, or IOError at once when the connection is broken or has no free stream id.
  void Send(const protocol::Request& request, std::chrono::milliseconds timeout, Callback done);

  // Send, awaited.
  boost::asio::awaitable<common::Result<Response>> Call(const protocol::Request& request,
                                                        std::chrono::milliseconds timeout);

  // Breaks the connection: fails every request in flight with `reason` (IOError), closes the
  // socket and calls the close handler once. Idempotent.
  void Close(const common::Status& reason);

  // Called once when the connection breaks after Open succeeded (not for a failed Open).
  void set_close_handler(CloseHandler handler) { close_handler_ = std::move(handler); }

  bool ready() const { return ready_ && !broken_; }
  bool broken() const { return broken_; }
  // Requests waiting for a response (orphaned streams not counted).
  size_t in_flight() const { return in_flight_; }
  bool has_free_stream() const { return !free_streams_.empty(); }
  uint8_t version() const { return version_; }
  // After a failed Open: true when the server refused the protocol version (try a lower one).
  bool version_refused() const { return version_refused_; }
  // "host:port".
  const std::string& address() const { return address_; }
  // The keyspace the connection is in ("" if none), as set by Open or by a USE sent on it.
  const std::string& keyspace() const { return keyspace_; }
  void set_keyspace(std::string keyspace) { keyspace_ = std::move(keyspace); }

 private:
  struct Slot {
    Callback callback;
    std::unique_ptr<boost::asio::steady_timer> timer;
    protocol::Opcode request_opcode = protocol::Opcode::kQuery;
    bool orphaned = false;
  };

  explicit Connection(boost::asio::io_context& io);
  boost::asio::awaitable<common::Status> Handshake(const ConnectionSettings& settings);
  boost::asio::awaitable<common::Status> Authenticate(const ConnectionSettings& settings,
                                                      const std::string& authenticator);
  boost::asio::awaitable<void> ReadLoop(std::shared_ptr<Connection> self);
  boost::asio::awaitable<void> WriteLoop(std::shared_ptr<Connection> self);
  void Dispatch(protocol::Envelope envelope);
  void OnTimeout(int16_t stream);
  void ReleaseStream(int16_t stream);

  boost::asio::io_context& io_;
  std::unique_ptr<Transport> transport_;  // made by Open
  std::string address_;
  uint8_t version_ = protocol::kMaxVersion;
  protocol::Compression compression_ = protocol::Compression::kNone;
  protocol::FrameReader reader_;
  protocol::FrameWriter writer_;
  std::vector<Slot> slots_;  // by stream id
  std::vector<int16_t> free_streams_;
  size_t in_flight_ = 0;
  bool writing_ = false;
  bool ready_ = false;
  bool broken_ = false;
  bool version_refused_ = false;
  std::optional<uint8_t> first_response_version_;
  std::string keyspace_;
  boost::asio::steady_timer write_wakeup_;
  CloseHandler close_handler_;
};

}  // namespace client
