#include "server/admin_server.h"

#include <exception>
#include <mutex>
#include <optional>
#include <tuple>

#include <fmt/format.h>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/json.hpp>

#include "common/logging.h"

namespace server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);
constexpr size_t kMaxRejectionsInProgress = 64;
// After an answer: how long and how much the server reads before closing.
constexpr std::chrono::milliseconds kLingerTimeout{1000};
constexpr size_t kLingerBytes = 1024 * 1024;

// Closes `socket` when `timer` expires (`timed_out` tells the reader why its read failed).
// The handler holds the socket: it may be queued when the timer is cancelled.
void CloseOnExpiry(asio::steady_timer& timer, std::shared_ptr<tcp::socket> socket,
                   std::shared_ptr<bool> timed_out) {
  timer.async_wait([socket = std::move(socket),
                    timed_out = std::move(timed_out)](const beast::error_code& error) {
    if (error) return;  // cancelled
    *timed_out = true;
    beast::error_code ignored;
    socket->close(ignored);
  });
}

// Writes `answer` (Connection: close) within `timeout`, then closes the socket.
asio::awaitable<void> WriteAndClose(std::shared_ptr<tcp::socket> socket,
                                    const AdminResponse& answer,
                                    std::chrono::milliseconds timeout) {
  http::response<http::string_body> response{static_cast<http::status>(answer.status), 11};
  response.set(http::field::server, "cqld");
  response.set(http::field::content_type, answer.content_type);
  for (const auto& [name, value] : answer.headers) response.set(name, value);
  response.keep_alive(false);
  response.body() = answer.body;
  response.prepare_payload();
  asio::steady_timer timer(socket->get_executor());
  timer.expires_after(timeout);
  CloseOnExpiry(timer, socket, std::make_shared<bool>(false));
  auto [error, bytes] = co_await http::async_write(*socket, response, kTuple);
  timer.cancel();
  beast::error_code ignored;
  socket->shutdown(tcp::socket::shutdown_send, ignored);
  if (!error) {
    // Linger: read what the client still sends (a refused body), bounded, until it closes, so
    // that closing with unread bytes does not reset the connection before the answer is read.
    asio::steady_timer linger(socket->get_executor());
    linger.expires_after(kLingerTimeout);
    CloseOnExpiry(linger, socket, std::make_shared<bool>(false));
    char scratch[4096];
    for (size_t drained = 0; drained < kLingerBytes;) {
      auto [read_error, read] = co_await socket->async_read_some(asio::buffer(scratch), kTuple);
      if (read_error) break;
      drained += read;
    }
    linger.cancel();
  }
  socket->close(ignored);
}

// The answer to a request that could not be read, or nullopt to close without one.
std::optional<AdminResponse> ReadFailure(const beast::error_code& error, bool timed_out) {
  if (timed_out || error == http::error::end_of_stream || error == asio::error::eof ||
      error == http::error::partial_message || error == asio::error::connection_reset ||
      error == asio::error::operation_aborted) {
    return std::nullopt;
  }
  if (error == http::error::header_limit || error == http::error::buffer_overflow) {
    return AdminError(431, "Request header fields too large");
  }
  if (error == http::error::body_limit) return AdminError(413, "Request body too large");
  return AdminError(400, "Malformed HTTP request");
}

// Runs the handler, turning an exception into 500.
AdminResponse Call(const AdminHandler& handler, const AdminRequest& request) {
  try {
    return handler(request);
  } catch (const std::exception& e) {
    LOG_ERROR("admin: {} {} failed: {}", request.method, request.path, e.what());
    return AdminError(500, "Internal error");
  }
}

// Runs the handler (on the executor it is spawned on). (Coroutine functions rather than lambdas
// with captures, and no captures in completion handlers: GCC 12 destroys those twice.)
asio::awaitable<AdminResponse> Handle(const AdminHandler* handler, const AdminRequest* request) {
  co_return Call(*handler, *request);
}

// Answers 503 and closes (a connection over the limit).
asio::awaitable<void> Reject(std::shared_ptr<tcp::socket> socket,
                             std::shared_ptr<std::atomic<size_t>> rejecting) {
  co_await WriteAndClose(socket, AdminError(503, "Too many admin connections"),
                         AdminServer::kRejectTimeout);
  rejecting->fetch_sub(1);
}

// One connection: reads one request (header invariants 2-4), answers it and closes.
asio::awaitable<void> Serve(std::shared_ptr<tcp::socket> socket,
                            std::shared_ptr<AdminServer::State> state) {
  const AdminServerOptions& options = state->options;
  // Counted in `open` (from the accept) and listed for Stop, which closes the sockets it finds.
  struct Registration {
    AdminServer::State* state;
    tcp::socket* socket;
    ~Registration() {
      std::lock_guard lock(state->mutex);
      state->sockets.erase(socket);
      state->open.fetch_sub(1);
    }
  } registration{state.get(), socket.get()};
  {
    std::lock_guard lock(state->mutex);
    if (state->stopping) co_return;
    state->sockets.emplace(socket.get(), socket);
  }
  auto timed_out = std::make_shared<bool>(false);
  asio::steady_timer deadline(socket->get_executor());
  deadline.expires_after(options.read_timeout);
  CloseOnExpiry(deadline, socket, timed_out);
  beast::flat_buffer buffer(options.max_header_bytes + 4096);
  http::request_parser<http::string_body> parser;
  parser.header_limit(static_cast<uint32_t>(options.max_header_bytes));
  parser.body_limit(options.max_body_bytes);
  auto [error, bytes] = co_await http::async_read(*socket, buffer, parser, kTuple);
  deadline.cancel();
  if (error) {
    if (std::optional<AdminResponse> answer = ReadFailure(error, *timed_out)) {
      co_await WriteAndClose(socket, *answer, options.write_timeout);
    }
    co_return;
  }
  http::request<http::string_body>& message = parser.get();
  AdminRequest request;
  request.method = std::string(message.method_string());
  std::string_view target = message.target();
  size_t question = target.find('?');
  request.path = std::string(target.substr(0, question));
  if (question != std::string_view::npos) request.query = std::string(target.substr(question + 1));
  request.body = std::move(message.body());
  request.authorization = std::string(message[http::field::authorization]);
  // Off the network thread (header): the handler may block.
  AdminResponse answer = co_await asio::co_spawn(
      state->workers->get_executor(), Handle(&state->handler, &request), asio::use_awaitable);
  if (request.method != "GET") {
    LOG_INFO("admin: {} {} -> {}", request.method, request.path, answer.status);
  }
  co_await WriteAndClose(socket, answer, options.write_timeout);
}

}  // namespace

AdminResponse AdminError(int status, std::string_view message) {
  boost::json::object body{{"error", message}};
  return AdminResponse{status, "application/json", boost::json::serialize(body) + "\n", {}};
}

common::Result<std::unique_ptr<AdminServer>> AdminServer::Start(const AdminServerOptions& options,
                                                                AdminHandler handler) {
  beast::error_code error;
  auto address = asio::ip::make_address(options.address, error);
  if (error) return common::Status::Invalid("bad admin address '" + options.address + "'");
  std::unique_ptr<AdminServer> server(new AdminServer());
  server->state_->options = options;
  server->state_->handler = std::move(handler);
  server->state_->workers =
      std::make_unique<asio::thread_pool>(std::max<size_t>(1, options.worker_threads));
  auto acceptor = std::make_unique<tcp::acceptor>(server->io_);
  tcp::endpoint endpoint(address, options.port);
  acceptor->open(endpoint.protocol(), error);
  if (!error) acceptor->set_option(asio::socket_base::reuse_address(true), error);
  if (!error) acceptor->bind(endpoint, error);
  if (!error) acceptor->listen(asio::socket_base::max_listen_connections, error);
  if (!error) server->endpoint_ = acceptor->local_endpoint(error);
  if (error) {
    return common::Status::IOError(fmt::format("cannot listen for admin requests on {}:{}: {}",
                                               options.address, options.port, error.message()));
  }
  server->acceptor_ = std::move(acceptor);
  asio::co_spawn(server->io_, server->AcceptLoop(), asio::detached);
  server->thread_ = std::thread([io = &server->io_] { io->run(); });
  return server;
}

asio::awaitable<void> AdminServer::AcceptLoop() {
  auto rejecting = std::make_shared<std::atomic<size_t>>(0);
  for (;;) {
    auto [error, socket] = co_await acceptor_->async_accept(asio::make_strand(io_), kTuple);
    if (error == asio::error::operation_aborted || !acceptor_->is_open()) co_return;
    if (error) {  // (EMFILE and the like: the next accept may work)
      asio::steady_timer pause(io_, std::chrono::milliseconds(100));
      co_await pause.async_wait(kTuple);
      continue;
    }
    std::shared_ptr<State> state = state_;
    if (state->open.load() >= state->options.max_connections) {
      if (rejecting->load() >= kMaxRejectionsInProgress) continue;  // closed at once
      rejecting->fetch_add(1);
      asio::any_io_executor executor = socket.get_executor();
      asio::co_spawn(executor, Reject(std::make_shared<tcp::socket>(std::move(socket)), rejecting),
                     asio::detached);
      continue;
    }
    state->open.fetch_add(1);
    asio::any_io_executor executor = socket.get_executor();
    asio::co_spawn(executor, Serve(std::make_shared<tcp::socket>(std::move(socket)), state),
                   asio::detached);
  }
}

void AdminServer::Stop() {
  if (stopped_.exchange(true)) return;
  // Every coroutine is brought to its end rather than destroyed suspended (which GCC 12's
  // coroutines get wrong: parameters destroyed twice): the acceptor and the sockets are closed,
  // handlers running now finish, and io_.run() returns once nothing is left.
  asio::post(io_, [this] {
    beast::error_code ignored;
    acceptor_->close(ignored);
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
    for (const auto& [key, weak] : state_->sockets) {
      if (std::shared_ptr<tcp::socket> socket = weak.lock()) {
        asio::post(socket->get_executor(), [socket] {
          beast::error_code error;
          socket->close(error);
        });
      }
    }
  });
  if (thread_.joinable()) thread_.join();
  state_->workers->join();
}

AdminServer::~AdminServer() { Stop(); }

}  // namespace server
