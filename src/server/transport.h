// Transport: the byte stream under one native-protocol connection (connection.h) or refusal
// (server.cc): a TCP socket, or TLS over one (tls.h). Everything above it (framing, limits,
// memory accounting, timeouts) is the same code for both; only this class knows which it is.
//
// Design:
//  1. A transport starts as the accepted TCP socket. `Accept` decides what the client speaks
//     before any byte is consumed: plaintext when the port has no TLS; TLS when it has TLS only;
//     with TLS optional, TLS when the first byte (peeked, not read) starts a TLS handshake record
//     (tls.h kTlsHandshakeRecord), else plaintext. For TLS it then runs the server handshake.
//  2. The caller bounds `Accept` like any other read: a cancellation (its slot) or `Close()`
//     ends it with an error, so a client that never sends a ClientHello, or sends garbage, or
//     stops halfway, holds nothing past the caller's deadline.
//  3. One read and one write may be outstanding at once (the reader and writer coroutines of a
//     connection), provided all operations run on one strand: a TLS stream supports that much
//     full duplex and no more.
//  4. Closing is abrupt for both (no TLS close_notify): it ends the TCP connection, which every
//     driver treats as the end of the connection. A half-close (`ShutdownSend`) is TCP's.
//
// Thread-safety: not thread-safe; use from the strand of its socket's executor.

#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>

namespace server {

// How a listener takes new connections: plaintext only, TLS only, or both. Fixed per connection
// when it is accepted (a TLS reload changes it for the connections accepted next).
struct TransportSecurity {
  // null: plaintext only. Shared: a connection keeps the context it started with.
  std::shared_ptr<boost::asio::ssl::context> tls;
  bool optional = false;  // with `tls`: plaintext clients are served too
};

class Transport {
 public:
  using IoResult = std::tuple<boost::system::error_code, size_t>;

  // Memory a TLS transport holds beyond a plaintext one (Asio's and OpenSSL's record buffers and
  // the session), counted against the memory budget before the handshake starts.
  static constexpr size_t kTlsMemory = size_t{96} * 1024;

  explicit Transport(boost::asio::ip::tcp::socket socket);
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // Design 1 and 2: settles plaintext or TLS under `security` and runs the TLS handshake.
  // Returns an error when the client closed, the handshake failed, or `cancel` fired; the
  // transport is then only good for Close(). Call once, before any read.
  boost::asio::awaitable<boost::system::error_code> Accept(
      const TransportSecurity& security, boost::asio::cancellation_slot cancel = {});
  // Whether Accept settled on TLS.
  bool is_tls() const { return tls_.has_value(); }
  // With TLS, after Accept: the protocol ("TLSv1.3") and the cipher suite under its standard
  // (IANA) name, as Java names it ("TLS_AES_256_GCM_SHA384"); nullopt without TLS.
  std::optional<std::string> TlsProtocol();
  std::optional<std::string> TlsCipherSuite();

  // ReadSome and Write start when awaited; `buffer` must live until they complete.
  // Reads some bytes (decrypted, with TLS). Completes with an error at end of stream.
  boost::asio::awaitable<IoResult> ReadSome(boost::asio::mutable_buffer buffer,
                                            boost::asio::cancellation_slot cancel = {});
  // Writes all of `buffer` (encrypted, with TLS).
  boost::asio::awaitable<IoResult> Write(boost::asio::const_buffer buffer);
  // TCP half-close: no more bytes from us; reads go on.
  void ShutdownSend();
  // Closes the TCP connection; pending operations complete with an error. Idempotent.
  void Close();
  bool is_open() const { return socket_.is_open(); }

  // The TCP socket (under TLS, the one it runs over).
  boost::asio::ip::tcp::socket& socket() { return socket_; }

 private:
  // TLS over `socket_`, which stays a member: it is the same socket before and after Accept.
  using TlsStream = boost::asio::ssl::stream<boost::asio::ip::tcp::socket&>;

  // With TLS optional: whether the client's first byte starts a TLS record (it is not consumed).
  // nullopt when the client closed first or the wait failed (`*error` says why).
  boost::asio::awaitable<std::optional<bool>> PeekTls(boost::asio::cancellation_slot cancel,
                                                      boost::system::error_code* error);

  boost::asio::ip::tcp::socket socket_;
  std::shared_ptr<boost::asio::ssl::context> tls_context_;  // outlives the stream using it
  std::optional<TlsStream> tls_;                            // set by Accept when TLS
};

}  // namespace server
