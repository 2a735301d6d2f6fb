// Transport: the byte stream under one connection of the C++ driver (connection.h): a TCP
// socket, or TLS over it (boost::asio::ssl::stream). The connection's handshake, read loop and
// write loop go through this one interface, so framing has a single path for both.
//
// `NewTlsContext` turns TlsOptions (client_options.h) into the OpenSSL context every connection
// of a session shares: TLS 1.2 or newer, the certificate authorities, the client certificate
// and key, peer verification. Each connection then names the host it expects (SNI for a DNS
// name, and the name or IP address the certificate must carry).
//
// Errors are values: a failed TLS handshake is an IOError `TLS handshake with HOST:PORT failed:
// certificate verify failed (unable to get local issuer certificate)`, OpenSSL's reason plus,
// for a refused certificate, the verification result.
//
// Thread-safety: a Transport is not thread-safe (its connection's io thread only); a context
// from NewTlsContext is shared read-only by the connections of one session after it is built.

#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <variant>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>

#include "client/client_options.h"
#include "common/result.h"
#include "common/status.h"

namespace client {

// The context for `options` (REQUIRES: options.enabled), with its files loaded. Errors: Invalid
// naming the file and OpenSSL's reason when the CA file, the certificate or the key cannot be
// read or parsed, or when the key does not match the certificate.
common::Result<std::shared_ptr<boost::asio::ssl::context>> NewTlsContext(const TlsOptions& options);

class Transport {
 public:
  // Plain TCP when `tls` is null; otherwise TLS with that context, checking (when the context
  // verifies peers and `verify_hostname`) that the certificate names the host given to Connect.
  // REQUIRES: `io` outlives the transport.
  Transport(boost::asio::io_context& io, std::shared_ptr<boost::asio::ssl::context> tls,
            bool verify_hostname);
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // Connects to the first reachable of `endpoints` (resolved from `host`; `address` is
  // "host:port" for messages), sets TCP_NODELAY, and with TLS runs the client handshake.
  // Errors: IOError "Cannot connect to ADDRESS: REASON" or "TLS handshake with ADDRESS failed:
  // REASON". REQUIRES: called once.
  boost::asio::awaitable<common::Status> Connect(
      const boost::asio::ip::tcp::resolver::results_type& endpoints, const std::string& host,
      const std::string& address);

  // Reads at least one byte into `buffer`, returning how many; on failure sets `error` as Asio
  // reports it (see IsClosedByPeer).
  boost::asio::awaitable<size_t> ReadSome(boost::asio::mutable_buffer buffer,
                                          boost::system::error_code& error);
  // Writes all of `buffer`; on failure sets `error`. At most one read and one write may be
  // outstanding at a time.
  boost::asio::awaitable<void> Write(boost::asio::const_buffer buffer,
                                     boost::system::error_code& error);
  // Closes the socket, cancelling outstanding operations (no TLS close_notify: the connection
  // is being torn down). Idempotent.
  void Close();

  bool tls() const { return std::holds_alternative<TlsStream>(stream_); }

  // Whether `error` from ReadSome means the server closed the connection (a TCP end of stream,
  // or TLS ending without close_notify).
  static bool IsClosedByPeer(const boost::system::error_code& error);
  // Whether `error` is a TLS error (an alert from the server, a bad record), not a socket one.
  static bool IsTlsError(const boost::system::error_code& error);
  // `error` for a message: OpenSSL's reason for TLS errors (e.g. "tlsv13 alert certificate
  // required"), Asio's text otherwise.
  static std::string ErrorText(const boost::system::error_code& error);

 private:
  using TlsStream = boost::asio::ssl::stream<boost::asio::ip::tcp::socket>;

  boost::asio::ip::tcp::socket& socket();
  // Sets what the handshake checks: SNI and the expected name or IP address.
  common::Status PrepareHandshake(const std::string& host, const std::string& address);

  std::shared_ptr<boost::asio::ssl::context> context_;  // keeps the TLS stream's context alive
  bool verify_hostname_;
  std::variant<boost::asio::ip::tcp::socket, TlsStream> stream_;
};

}  // namespace client
