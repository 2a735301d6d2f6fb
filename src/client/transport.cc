#include "client/transport.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <utility>

#include <fmt/format.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace client {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using common::Result;
using common::Status;

namespace {

// OpenSSL's reason for the newest error on this thread's queue (empties the queue), or `fallback`.
std::string OpenSslReason(std::string_view fallback) {
  unsigned long code = ERR_peek_last_error();
  ERR_clear_error();
  const char* reason = code == 0 ? nullptr : ERR_reason_error_string(code);
  return reason != nullptr ? reason : std::string(fallback);
}

// Fails with the system's reason when `path` cannot be opened for reading, so that a missing
// file reads "No such file or directory" rather than OpenSSL's "system lib".
Status CheckReadable(std::string_view what, const std::string& path) {
  std::ifstream file(path);
  if (!file) {
    return Status::Invalid(
        fmt::format("Cannot read the TLS {} '{}': {}", what, path, std::strerror(errno)));
  }
  return Status::Ok();
}

// One OpenSSL call on a context: Invalid naming `what` and the file when it fails.
Status Load(std::string_view what, const std::string& path, int result) {
  if (result == 1) return Status::Ok();
  return Status::Invalid(
      fmt::format("Cannot load the TLS {} '{}': {}", what, path, OpenSslReason("invalid file")));
}

// Why the handshake failed, from the error and, for a refused certificate, the verification
// result of `ssl`.
std::string HandshakeFailure(const boost::system::error_code& error, SSL* ssl) {
  std::string reason = Transport::ErrorText(error);
  long verify = SSL_get_verify_result(ssl);
  if (verify != X509_V_OK) {
    reason += fmt::format(" ({})", X509_verify_cert_error_string(verify));
  } else if (reason == "wrong version number" || reason == "packet length too long") {
    reason += " (does the server speak TLS on this port?)";
  }
  return reason;
}

}  // namespace

Result<std::shared_ptr<ssl::context>> NewTlsContext(const TlsOptions& options) {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
  SSL_CTX* handle = context->native_handle();
  if (SSL_CTX_set_min_proto_version(handle, TLS1_2_VERSION) != 1) {
    return Status::Invalid("Cannot restrict TLS to version 1.2 or newer: " +
                           OpenSslReason("unsupported"));
  }
  SSL_CTX_set_options(handle, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
  if (!options.ca_file.empty()) {
    RETURN_IF_ERROR(CheckReadable("CA file", options.ca_file));
    RETURN_IF_ERROR(Load("CA file", options.ca_file,
                         SSL_CTX_load_verify_locations(handle, options.ca_file.c_str(), nullptr)));
  } else if (options.verify_peer && SSL_CTX_set_default_verify_paths(handle) != 1) {
    return Status::Invalid("Cannot load the system's TLS certificate authorities: " +
                           OpenSslReason("unknown error"));
  }
  if (!options.cert_file.empty()) {
    RETURN_IF_ERROR(CheckReadable("certificate", options.cert_file));
    RETURN_IF_ERROR(Load("certificate", options.cert_file,
                         SSL_CTX_use_certificate_chain_file(handle, options.cert_file.c_str())));
  }
  if (!options.key_file.empty()) {
    RETURN_IF_ERROR(CheckReadable("private key", options.key_file));
    int loaded = SSL_CTX_use_PrivateKey_file(handle, options.key_file.c_str(), SSL_FILETYPE_PEM);
    bool mismatch =
        loaded != 1 && ERR_GET_REASON(ERR_peek_last_error()) == X509_R_KEY_VALUES_MISMATCH;
    if (!mismatch) RETURN_IF_ERROR(Load("private key", options.key_file, loaded));
    if (mismatch || SSL_CTX_check_private_key(handle) != 1) {
      ERR_clear_error();
      return Status::Invalid(
          fmt::format("The TLS private key '{}' does not match the certificate '{}'",
                      options.key_file, options.cert_file));
    }
  }
  context->set_verify_mode(options.verify_peer ? ssl::verify_peer : ssl::verify_none);
  return context;
}

namespace {

std::variant<asio::ip::tcp::socket, ssl::stream<asio::ip::tcp::socket>> MakeStream(
    asio::io_context& io, const std::shared_ptr<ssl::context>& tls) {
  using Stream = std::variant<asio::ip::tcp::socket, ssl::stream<asio::ip::tcp::socket>>;
  if (tls == nullptr) return Stream(std::in_place_index<0>, io);
  return Stream(std::in_place_index<1>, io, *tls);
}

}  // namespace

Transport::Transport(asio::io_context& io, std::shared_ptr<ssl::context> tls, bool verify_hostname)
    : context_(std::move(tls)),
      verify_hostname_(verify_hostname),
      stream_(MakeStream(io, context_)) {}

asio::ip::tcp::socket& Transport::socket() {
  if (TlsStream* stream = std::get_if<TlsStream>(&stream_)) return stream->next_layer();
  return std::get<asio::ip::tcp::socket>(stream_);
}

Status Transport::PrepareHandshake(const std::string& host, const std::string& address) {
  SSL* ssl = std::get<TlsStream>(stream_).native_handle();
  boost::system::error_code not_ip;
  asio::ip::make_address(host, not_ip);
  // SNI carries DNS names only, never addresses (RFC 6066 §3).
  if (not_ip && SSL_set_tlsext_host_name(ssl, host.c_str()) != 1) {
    return Status::IOError(
        fmt::format("TLS handshake with {} failed: bad server name '{}'", address, host));
  }
  if (!verify_hostname_ || SSL_get_verify_mode(ssl) == SSL_VERIFY_NONE) return Status::Ok();
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  int set = not_ip ? X509_VERIFY_PARAM_set1_host(param, host.c_str(), host.size())
                   : X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
  if (set != 1) {
    ERR_clear_error();
    return Status::IOError(
        fmt::format("TLS handshake with {} failed: cannot verify the name '{}'", address, host));
  }
  return Status::Ok();
}

asio::awaitable<Status> Transport::Connect(const asio::ip::tcp::resolver::results_type& endpoints,
                                           const std::string& host, const std::string& address) {
  boost::system::error_code error;
  co_await asio::async_connect(socket(), endpoints,
                               asio::redirect_error(asio::use_awaitable, error));
  if (error) {
    co_return Status::IOError(fmt::format("Cannot connect to {}: {}", address, error.message()));
  }
  socket().set_option(asio::ip::tcp::no_delay(true), error);
  TlsStream* stream = std::get_if<TlsStream>(&stream_);
  if (stream == nullptr) co_return Status::Ok();
  Status prepared = PrepareHandshake(host, address);
  if (!prepared.ok()) co_return prepared;
  co_await stream->async_handshake(ssl::stream_base::client,
                                   asio::redirect_error(asio::use_awaitable, error));
  if (error) {
    std::string reason = HandshakeFailure(error, stream->native_handle());
    ERR_clear_error();
    co_return Status::IOError(fmt::format("TLS handshake with {} failed: {}", address, reason));
  }
  co_return Status::Ok();
}

asio::awaitable<size_t> Transport::ReadSome(asio::mutable_buffer buffer,
                                            boost::system::error_code& error) {
  // Named awaitables: GCC 12 mishandles temporaries inside co_await expressions.
  auto read = std::visit(
      [&](auto& stream) {
        return stream.async_read_some(buffer, asio::redirect_error(asio::use_awaitable, error));
      },
      stream_);
  co_return co_await std::move(read);
}

asio::awaitable<void> Transport::Write(asio::const_buffer buffer,
                                       boost::system::error_code& error) {
  auto write = std::visit(
      [&](auto& stream) {
        return asio::async_write(stream, buffer, asio::redirect_error(asio::use_awaitable, error));
      },
      stream_);
  co_await std::move(write);
}

void Transport::Close() {
  boost::system::error_code ignored;
  socket().close(ignored);
}

bool Transport::IsTlsError(const boost::system::error_code& error) {
  return error.category() == asio::error::get_ssl_category();
}

std::string Transport::ErrorText(const boost::system::error_code& error) {
  if (error == ssl::error::stream_truncated) return "the server closed the connection";
  if (IsTlsError(error)) {
    const char* text = ERR_reason_error_string(static_cast<unsigned long>(error.value()));
    if (text != nullptr) return text;
  }
  return error.message();
}

bool Transport::IsClosedByPeer(const boost::system::error_code& error) {
  return error == asio::error::eof || error == ssl::error::stream_truncated;
}

}  // namespace client
