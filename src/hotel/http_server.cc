#include "hotel/http_server.h"

#include <fmt/format.h>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <chrono>
#include <cstdio>

namespace hotel {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr size_t kBodyLimit = 64 * 1024;

struct HttpServer::State {
  asio::io_context io;
  std::optional<tcp::acceptor> acceptor;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
};

namespace {

http::response<http::string_body> ToBeast(const HttpResponse& answer, unsigned version,
                                          bool keep_alive) {
  http::response<http::string_body> response{static_cast<http::status>(answer.status), version};
  response.set(http::field::server, "hotel");
  response.set(http::field::content_type, answer.content_type);
  response.keep_alive(keep_alive);
  response.body() = answer.body;
  response.prepare_payload();
  return response;
}

asio::awaitable<void> Serve(tcp::socket socket, const ApiRouter* router, bool access_log) {
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(kBodyLimit);
    parser.header_limit(16 * 1024);
    stream.expires_after(std::chrono::seconds(60));
    auto [read_error, bytes] =
        co_await http::async_read(stream, buffer, parser, asio::as_tuple(asio::use_awaitable));
    (void)bytes;
    if (read_error == http::error::end_of_stream || read_error == asio::error::operation_aborted ||
        read_error == beast::error::timeout || read_error == asio::error::eof ||
        read_error == asio::error::connection_reset) {
      break;
    }
    auto started = std::chrono::steady_clock::now();
    HttpResponse answer;
    bool keep_alive = false;
    unsigned version = 11;
    std::string method = "-";
    std::string target = "-";
    if (read_error == http::error::body_limit) {
      answer = {
          413, "application/json",
          R"({"error":{"status":413,"code":"bad_request","message":"Request body too large"}})"};
    } else if (read_error) {
      answer = {
          400, "application/json",
          R"({"error":{"status":400,"code":"bad_request","message":"Malformed HTTP request"}})"};
    } else {
      http::request<http::string_body>& request = parser.get();
      version = request.version();
      keep_alive = request.keep_alive();
      method = std::string(request.method_string());
      target = std::string(request.target());
      HttpRequest call{method, target, std::string(request[http::field::content_type]),
                       std::move(request.body())};
      answer = router->Handle(call);
      if (method == "HEAD") answer.body.clear();
    }
    if (access_log) {
      auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::steady_clock::now() - started)
                        .count();
      std::string path = target.substr(0, target.find('?'));
      std::fprintf(stderr, "access method=%s path=%s status=%d us=%lld\n", method.c_str(),
                   path.c_str(), answer.status, static_cast<long long>(micros));
    }
    auto response = ToBeast(answer, version, keep_alive);
    auto [write_error, written] =
        co_await http::async_write(stream, response, asio::as_tuple(asio::use_awaitable));
    (void)written;
    if (write_error || !keep_alive) break;
  }
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

asio::awaitable<void> Accept(tcp::acceptor& acceptor, const ApiRouter* router, bool access_log) {
  for (;;) {
    auto [error, socket] = co_await acceptor.async_accept(asio::as_tuple(asio::use_awaitable));
    if (error == asio::error::operation_aborted || !acceptor.is_open()) co_return;
    if (error) continue;
    asio::co_spawn(acceptor.get_executor(), Serve(std::move(socket), router, access_log),
                   asio::detached);
  }
}

}  // namespace

HttpServer::HttpServer(const ApiRouter* router, HttpServerOptions options)
    : router_(router), options_(std::move(options)), state_(std::make_unique<State>()) {}

HttpServer::~HttpServer() { Stop(); }

common::Status HttpServer::Start() {
  beast::error_code error;
  auto address = asio::ip::make_address(options_.address, error);
  if (error) return common::Status::Invalid("Invalid address '" + options_.address + "'");
  tcp::endpoint endpoint(address, options_.port);
  tcp::acceptor& acceptor = state_->acceptor.emplace(state_->io);
  acceptor.open(endpoint.protocol(), error);
  if (!error) acceptor.set_option(asio::socket_base::reuse_address(true), error);
  if (!error) acceptor.bind(endpoint, error);
  if (!error) acceptor.listen(asio::socket_base::max_listen_connections, error);
  if (error) {
    return common::Status::IOError(fmt::format("cannot listen on {}:{}: {}", options_.address,
                                               options_.port, error.message()));
  }
  port_ = acceptor.local_endpoint().port();
  state_->work.emplace(state_->io.get_executor());
  asio::co_spawn(state_->io, Accept(acceptor, router_, options_.access_log), asio::detached);
  for (int i = 0; i < std::max(1, options_.threads); ++i) {
    threads_.emplace_back([this] { state_->io.run(); });
  }
  return common::Status::Ok();
}

void HttpServer::Stop() {
  if (threads_.empty()) return;
  asio::post(state_->io, [this] {
    beast::error_code ignored;
    if (state_->acceptor) state_->acceptor->close(ignored);
  });
  state_->work.reset();
  // Connections idle in keep-alive would hold run() open: stop after a short grace period.
  asio::steady_timer timer(state_->io, std::chrono::milliseconds(500));
  timer.async_wait([this](beast::error_code) { state_->io.stop(); });
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
}

}  // namespace hotel
