#include "admin_client.h"

#include <fmt/format.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include "common/base64.h"

namespace cqld {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr size_t kMaxAnswerBytes = size_t{256} << 20;

// One exchange with the admin listener, driven by asynchronous operations so that every step
// has a deadline (Beast's tcp_stream timeouts apply to asynchronous operations only).
class Exchange {
 public:
  Exchange(const AdminEndpoint& endpoint, http::request<http::string_body> request)
      : endpoint_(endpoint), resolver_(io_), stream_(io_), request_(std::move(request)) {
    parser_.body_limit(kMaxAnswerBytes);
  }

  common::Result<AdminAnswer> Run() {
    // Resolution has no deadline of its own in Asio: a timer cancels it.
    asio::steady_timer resolve_deadline(io_, endpoint_.connect_timeout);
    resolve_deadline.async_wait([this](beast::error_code error) {
      if (!error) resolver_.cancel();
    });
    resolver_.async_resolve(
        endpoint_.host, std::to_string(endpoint_.port),
        [this, &resolve_deadline](beast::error_code error, tcp::resolver::results_type addresses) {
          resolve_deadline.cancel();
          if (error) return Fail(error, /*connecting=*/true);
          Connect(addresses);
        });
    io_.run();
    if (error_) return *error_;
    return AdminAnswer{static_cast<int>(parser_.get().result_int()), parser_.get().body()};
  }

 private:
  void Connect(const tcp::resolver::results_type& addresses) {
    stream_.expires_after(endpoint_.connect_timeout);
    stream_.async_connect(addresses, [this](beast::error_code error, const tcp::endpoint&) {
      if (error) return Fail(error, /*connecting=*/true);
      Exchanging();
      http::async_write(stream_, request_, [this](beast::error_code error, size_t) {
        if (error) return Fail(error, /*connecting=*/false);
        Exchanging();
        http::async_read(stream_, buffer_, parser_, [this](beast::error_code error, size_t) {
          if (error) return Fail(error, /*connecting=*/false);
          beast::error_code ignored;
          stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        });
      });
    });
  }

  // Arms the exchange's deadline, counted once from the connection.
  void Exchanging() {
    if (endpoint_.timeout.count() == 0) {
      stream_.expires_never();
      return;
    }
    if (!exchange_deadline_) {
      exchange_deadline_ = std::chrono::steady_clock::now() + endpoint_.timeout;
    }
    stream_.expires_at(*exchange_deadline_);
  }

  void Fail(beast::error_code error, bool connecting) {
    std::string reason =
        error == beast::error::timeout || error == asio::error::operation_aborted
            ? fmt::format("timed out after {} s",
                          std::chrono::duration_cast<std::chrono::seconds>(
                              connecting ? endpoint_.connect_timeout : endpoint_.timeout)
                              .count())
            : error.message();
    error_ = common::Status::IOError(
        fmt::format("{} '{}:{}': {}", connecting ? "Failed to connect to" : "Error talking to",
                    endpoint_.host, endpoint_.port, reason));
  }

  const AdminEndpoint& endpoint_;
  asio::io_context io_;
  tcp::resolver resolver_;
  beast::tcp_stream stream_;
  http::request<http::string_body> request_;
  beast::flat_buffer buffer_;
  http::response_parser<http::string_body> parser_;
  std::optional<std::chrono::steady_clock::time_point> exchange_deadline_;
  std::optional<common::Status> error_;
};

}  // namespace

common::Result<AdminAnswer> CallAdmin(const AdminEndpoint& endpoint, const std::string& method,
                                      const std::string& path, const std::string& body) {
  http::request<http::string_body> request{http::string_to_verb(method), path, 11};
  request.set(http::field::host, endpoint.host);
  request.set(http::field::user_agent, "cqld-admin");
  if (endpoint.user) {
    request.set(http::field::authorization,
                "Basic " + common::Base64Encode(*endpoint.user + ":" + endpoint.password));
  }
  if (!body.empty()) request.set(http::field::content_type, "application/json");
  request.body() = body;
  request.prepare_payload();
  return Exchange(endpoint, std::move(request)).Run();
}

}  // namespace cqld
