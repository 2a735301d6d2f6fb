#include "server/transport.h"

#include <cstdint>
#include <utility>

#include <openssl/ssl.h>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "server/tls.h"

namespace server {
namespace {

namespace asio = boost::asio;
using boost::system::error_code;

constexpr auto kUseAwaitable = asio::as_tuple(asio::use_awaitable);

}  // namespace

Transport::Transport(asio::ip::tcp::socket socket) : socket_(std::move(socket)) {}

asio::awaitable<error_code> Transport::Accept(const TransportSecurity& security,
                                              asio::cancellation_slot cancel) {
  if (!security.tls) co_return error_code();
  if (security.optional) {
    error_code error;
    std::optional<bool> tls = co_await PeekTls(cancel, &error);
    if (!tls) co_return error;
    if (!*tls) co_return error_code();
  }
  tls_context_ = security.tls;
  tls_.emplace(socket_, *tls_context_);
  auto [error] = co_await tls_->async_handshake(
      asio::ssl::stream_base::server, asio::bind_cancellation_slot(cancel, kUseAwaitable));
  co_return error;
}

asio::awaitable<std::optional<bool>> Transport::PeekTls(asio::cancellation_slot cancel,
                                                        error_code* error) {
  for (;;) {
    auto [wait_error] = co_await socket_.async_wait(
        asio::ip::tcp::socket::wait_read, asio::bind_cancellation_slot(cancel, kUseAwaitable));
    if (wait_error) {
      *error = wait_error;
      co_return std::nullopt;
    }
    uint8_t first = 0;
    error_code peek_error;
    socket_.non_blocking(true, peek_error);
    size_t got =
        socket_.receive(asio::buffer(&first, 1), asio::ip::tcp::socket::message_peek, peek_error);
    error_code ignored;
    socket_.non_blocking(false, ignored);
    if (peek_error == asio::error::would_block) continue;  // a spurious wake-up
    if (peek_error || got == 0) {
      *error = peek_error ? peek_error : asio::error::eof;
      co_return std::nullopt;
    }
    co_return first == kTlsHandshakeRecord;
  }
}

asio::awaitable<Transport::IoResult> Transport::ReadSome(asio::mutable_buffer buffer,
                                                         asio::cancellation_slot cancel) {
  auto token = asio::bind_cancellation_slot(cancel, kUseAwaitable);
  if (tls_) return tls_->async_read_some(buffer, token);
  return socket_.async_read_some(buffer, token);
}

asio::awaitable<Transport::IoResult> Transport::Write(asio::const_buffer buffer) {
  if (tls_) return asio::async_write(*tls_, buffer, kUseAwaitable);
  return asio::async_write(socket_, buffer, kUseAwaitable);
}

void Transport::ShutdownSend() {
  error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

void Transport::Close() {
  if (!socket_.is_open()) return;
  error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

std::optional<std::string> Transport::TlsProtocol() {
  if (!tls_) return std::nullopt;
  return std::string(SSL_get_version(tls_->native_handle()));
}

std::optional<std::string> Transport::TlsCipherSuite() {
  if (!tls_) return std::nullopt;
  const SSL_CIPHER* cipher = SSL_get_current_cipher(tls_->native_handle());
  if (cipher == nullptr) return std::nullopt;
  return std::string(SSL_CIPHER_standard_name(cipher));
}

}  // namespace server
