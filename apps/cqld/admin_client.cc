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

}  // namespace

common::Result<AdminAnswer> CallAdmin(const AdminEndpoint& endpoint, const std::string& method,
                                      const std::string& path, const std::string& body) {
  asio::io_context io;
  tcp::resolver resolver(io);
  tcp::socket socket(io);
  beast::error_code error;
  auto addresses = resolver.resolve(endpoint.host, std::to_string(endpoint.port), error);
  if (!error) asio::connect(socket, addresses, error);
  if (error) {
    return common::Status::IOError(fmt::format("Failed to connect to '{}:{}': {}", endpoint.host,
                                               endpoint.port, error.message()));
  }
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
  http::write(socket, request, error);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(kMaxAnswerBytes);
  if (!error) http::read(socket, buffer, parser, error);
  if (error) {
    return common::Status::IOError(
        fmt::format("Error talking to '{}:{}': {}", endpoint.host, endpoint.port, error.message()));
  }
  socket.shutdown(tcp::socket::shutdown_both, error);
  return AdminAnswer{static_cast<int>(parser.get().result_int()), parser.get().body()};
}

}  // namespace cqld
