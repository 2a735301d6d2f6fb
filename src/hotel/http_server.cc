#include "hotel/http_server.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <openssl/ssl.h>
#include <algorithm>
#include <atomic>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "common/logging.h"
#include "hotel/access_log.h"
#include "hotel/service_metrics.h"

namespace hotel {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

namespace {

constexpr size_t kBodyLimit = 64 * 1024;
constexpr size_t kHeaderLimit = 16 * 1024;
// The read buffer's bound: a header fits whole; chunk extensions and trailers, which Beast's
// parser keeps in the buffer until their line ends, cannot grow past it.
constexpr size_t kBufferLimit = 2 * kHeaderLimit;
constexpr size_t kReadChunk = 4 * 1024;
constexpr int kMaxConnectionsCeiling = 1024;
// Over the limit: 503 answers in progress at once (at least; a quarter of the limit when more),
// and the deadline of each.
constexpr uint64_t kMinRejecting = 64;
constexpr milliseconds kRejectTimeout{1000};
// After an error answer: how long and how much the server drains before closing.
constexpr milliseconds kLingerTimeout{1000};
constexpr size_t kLingerBytes = 1024 * 1024;
constexpr milliseconds kAcceptRetryPause{100};
constexpr std::chrono::seconds kAcceptErrorLogInterval{1};
constexpr milliseconds kStopGrace{2000};

constexpr auto kAsTuple = asio::as_tuple(asio::use_awaitable);

class HttpConnection;

// What the server shares with its connections. Outlives them (see HttpServer::State).
struct ServerContext {
  const ApiRouter* router = nullptr;
  HttpServerOptions options;              // `max_connections` resolved
  std::shared_ptr<ssl::context> tls;      // HTTPS when set
  std::unique_ptr<AccessLog> access_log;  // nullptr: no access log
  std::atomic<uint64_t> accepted{0};
  std::atomic<uint64_t> active{0};
  std::atomic<uint64_t> rejecting{0};
  std::atomic<uint64_t> rejected{0};
  std::atomic<uint64_t> timeouts{0};
  std::atomic<uint64_t> accept_errors{0};
  std::mutex mutex;
  // Open connections, so Stop() can reach them. GUARDED_BY(mutex)
  std::unordered_map<uint64_t, std::weak_ptr<HttpConnection>> connections;
  bool stopping = false;  // GUARDED_BY(mutex)
  uint64_t next_id = 0;   // GUARDED_BY(mutex)
};

HttpResponse ErrorAnswer(int status, std::string_view code, std::string_view message) {
  return {status,
          "application/json",
          fmt::format(R"({{"error":{{"status":{},"code":"{}","message":"{}"}}}})", status, code,
                      message),
          {},
          {}};
}

http::response<http::string_body> ToBeast(const HttpResponse& answer, unsigned version,
                                          bool keep_alive) {
  http::response<http::string_body> response{static_cast<http::status>(answer.status), version};
  response.set(http::field::server, "hotel");
  response.set(http::field::content_type, answer.content_type);
  if (answer.status == 503) response.set(http::field::retry_after, "1");
  for (const auto& [name, value] : answer.headers) response.insert(name, value);
  response.keep_alive(keep_alive);
  response.body() = answer.body;
  response.prepare_payload();
  return response;
}

// The answer's X-Request-Id, the access-log line and the request's metrics.
void Account(ServerContext* context, const HttpRequest& call, std::string_view request_id,
             HttpResponse& answer, Clock::time_point started) {
  double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  ObserveHttpRequest(answer.route, call.method, answer.status, seconds);
  if (context->access_log) {
    context->access_log->Write({std::chrono::system_clock::now(), request_id, call.client_address,
                                call.method, answer.route, call.target, answer.status,
                                answer.body.size(), seconds * 1000});
  }
  answer.headers.emplace_back("X-Request-Id", std::string(request_id));
}

// One accepted connection: serves requests (Serve) or answers 503 (Reject), over the plain
// socket or, with HTTPS, over a TLS stream on it (`tls_`; every read and write goes through
// OnStream, which picks the one in use).
//
// Thread-safety: every member is used only on the strand that is `socket_`'s executor, except
// the constructor, the destructor (when no handler can run: the last owner is gone) and
// Stop(), which posts to the strand.
class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  // REQUIRES: `socket`'s executor is a strand; `context` outlives the connection.
  HttpConnection(tcp::socket socket, ServerContext* context, uint64_t id, bool rejecting)
      : socket_(std::move(socket)),
        timer_(socket_.get_executor()),
        context_(context),
        id_(id),
        rejecting_(rejecting),
        first_deadline_(Clock::now() + context->options.header_timeout),
        buffer_(kBufferLimit) {
    beast::error_code error;
    auto peer = socket_.remote_endpoint(error);
    if (!error) client_address_ = peer.address().to_string();
    if (context->tls) tls_.emplace(socket_, *context->tls);
    if (!rejecting_) ServiceMetrics::Get().open_connections.Add(1);
  }
  ~HttpConnection() {
    (rejecting_ ? context_->rejecting : context_->active).fetch_sub(1);
    if (!rejecting_) ServiceMetrics::Get().open_connections.Add(-1);
    std::lock_guard lock(context_->mutex);
    context_->connections.erase(id_);
  }
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  // The connection's coroutine: serves requests until the client closes, a deadline passes,
  // an error is answered, or the server stops.
  asio::awaitable<void> Serve();
  // Answers 503 without reading the request, then closes.
  asio::awaitable<void> Reject();
  // Thread-safe. Ends the connection at its next wait: a request being handled is answered
  // first (without keep-alive).
  static void Stop(std::shared_ptr<HttpConnection> connection);
  // The coroutine that owns `connection`: Serve() or Reject(). Spawn it on the strand.
  static asio::awaitable<void> Run(std::shared_ptr<HttpConnection> connection) {
    // (Two statements: GCC 12 destroys a `co_await (c ? x() : y())` temporary twice.)
    if (connection->rejecting_) {
      co_await connection->Reject();
    } else {
      co_await connection->Serve();
    }
  }

 private:
  enum class Outcome { kRequest, kClosed, kTimedOut, kBodyTooLarge, kHeaderTooLarge, kMalformed };
  using Parser = http::request_parser<http::string_body>;

  using Transfer = std::tuple<beast::error_code, size_t>;
  // Runs `operation(stream)` on the TLS stream when there is one, else on the socket.
  template <typename Operation>
  asio::awaitable<Transfer> OnStream(Operation operation) {
    if (tls_) co_return co_await operation(*tls_);
    co_return co_await operation(socket_);
  }
  // The TLS handshake, under a deadline; false (counted as a timeout when it passed) if it fails.
  asio::awaitable<bool> Handshake(Clock::time_point deadline);
  asio::awaitable<Outcome> ReadRequest(Parser& parser, bool first);
  Outcome Classify(const beast::error_code& error, const Parser& parser);
  asio::awaitable<bool> Respond(Parser& parser);
  asio::awaitable<bool> Write(const HttpResponse& answer, unsigned version, bool keep_alive,
                              milliseconds timeout);
  // Closes the socket; with `drain`, after stopping to send and reading what the client still
  // sends (bounded), so an answer just written is not lost to a TCP reset.
  asio::awaitable<void> Close(bool drain);
  // Starts the deadline of the next I/O phase: when it passes, the pending operation on the
  // socket is cancelled and `timed_out_` set. Disarm() ends the phase.
  void Arm(milliseconds timeout) { ArmUntil(Clock::now() + timeout); }
  void ArmUntil(Clock::time_point deadline);
  void Disarm();

  tcp::socket socket_;
  std::optional<ssl::stream<tcp::socket&>> tls_;  // over `socket_`, with HTTPS
  asio::steady_timer timer_;
  ServerContext* context_;
  const uint64_t id_;
  const bool rejecting_;
  // The first request's header deadline (and the TLS handshake's): header_timeout after the
  // accept.
  const Clock::time_point first_deadline_;
  std::string client_address_;  // the peer's IP address ("" when unknown)
  beast::flat_buffer buffer_;
  uint64_t phase_ = 0;  // which Arm() the timer belongs to (a fired handler may be queued)
  bool timed_out_ = false;
  bool stopping_ = false;
  bool busy_ = false;  // a complete request is being handled and answered
  bool peer_closed_ = false;
  bool handshaken_ = false;  // the TLS handshake completed (close_notify may be sent)
};

void HttpConnection::ArmUntil(Clock::time_point deadline) {
  ++phase_;
  timed_out_ = false;
  timer_.expires_at(deadline);
  timer_.async_wait([self = shared_from_this(), phase = phase_](beast::error_code error) {
    if (error || phase != self->phase_) return;
    self->timed_out_ = true;
    beast::error_code ignored;
    self->socket_.cancel(ignored);
  });
}

void HttpConnection::Disarm() {
  ++phase_;
  timer_.cancel();
}

void HttpConnection::Stop(std::shared_ptr<HttpConnection> connection) {
  asio::any_io_executor strand = connection->socket_.get_executor();
  asio::post(strand, [self = std::move(connection)] {
    self->stopping_ = true;
    beast::error_code ignored;
    if (!self->busy_) self->socket_.cancel(ignored);
  });
}

HttpConnection::Outcome HttpConnection::Classify(const beast::error_code& error,
                                                 const Parser& parser) {
  if (timed_out_) {
    context_->timeouts.fetch_add(1);
    // Nothing of a request came: nothing to answer.
    return parser.got_some() || buffer_.size() > 0 ? Outcome::kTimedOut : Outcome::kClosed;
  }
  if (error == http::error::end_of_stream || error == http::error::partial_message ||
      error == asio::error::eof || error == ssl::error::stream_truncated) {
    peer_closed_ = true;
    return Outcome::kClosed;
  }
  if (stopping_ || error == asio::error::operation_aborted ||
      error == asio::error::connection_reset) {
    return Outcome::kClosed;
  }
  if (error == http::error::body_limit) return Outcome::kBodyTooLarge;
  if (error == http::error::header_limit) return Outcome::kHeaderTooLarge;
  return Outcome::kMalformed;
}

asio::awaitable<HttpConnection::Outcome> HttpConnection::ReadRequest(Parser& parser, bool first) {
  if (!first && buffer_.size() == 0) {
    // Keep-alive: wait for the next request's first bytes under the idle deadline.
    Arm(context_->options.idle_timeout);
    auto [error, bytes] = co_await OnStream([this](auto& stream) {
      return stream.async_read_some(buffer_.prepare(kReadChunk), kAsTuple);
    });
    Disarm();
    if (error) {
      if (timed_out_) context_->timeouts.fetch_add(1);
      peer_closed_ = error == asio::error::eof || error == ssl::error::stream_truncated;
      co_return Outcome::kClosed;
    }
    buffer_.commit(bytes);
  }
  // (Stop() cancels only an operation in progress: look before starting each one.)
  if (stopping_) co_return Outcome::kClosed;
  if (first) {
    ArmUntil(first_deadline_);
  } else {
    Arm(context_->options.header_timeout);
  }
  auto [error, bytes] = co_await OnStream([this, &parser](auto& stream) {
    return http::async_read_header(stream, buffer_, parser, kAsTuple);
  });
  if (!error && !parser.is_done()) {
    if (stopping_) {
      Disarm();
      co_return Outcome::kClosed;
    }
    Arm(context_->options.body_timeout);
    std::tie(error, bytes) = co_await OnStream([this, &parser](auto& stream) {
      return http::async_read(stream, buffer_, parser, kAsTuple);
    });
  }
  Disarm();
  if (!error) co_return Outcome::kRequest;
  co_return Classify(error, parser);
}

asio::awaitable<bool> HttpConnection::Write(const HttpResponse& answer, unsigned version,
                                            bool keep_alive, milliseconds timeout) {
  auto response = ToBeast(answer, version, keep_alive);
  Arm(timeout);
  auto [error, bytes] = co_await OnStream(
      [&response](auto& stream) { return http::async_write(stream, response, kAsTuple); });
  Disarm();
  if (error && timed_out_) context_->timeouts.fetch_add(1);
  co_return !error;
}

// Handles the parsed request and writes the answer. Returns true to keep the connection;
// otherwise it has closed the socket.
asio::awaitable<bool> HttpConnection::Respond(Parser& parser) {
  auto started = Clock::now();
  http::request<http::string_body>& request = parser.get();
  busy_ = true;
  HttpRequest call;
  call.method = std::string(request.method_string());
  call.target = std::string(request.target());
  call.content_type = std::string(request[http::field::content_type]);
  call.body = std::move(request.body());
  call.authorization = std::string(request[http::field::authorization]);
  call.cookie = std::string(request[http::field::cookie]);
  call.origin = std::string(request[http::field::origin]);
  call.host = std::string(request[http::field::host]);
  call.client_address = client_address_;
  call.secure = tls_.has_value();
  std::string request_id = RequestIdFor(request["X-Request-Id"]);
  HttpResponse answer = context_->router->Handle(call);
  if (call.method == "HEAD") answer.body.clear();
  Account(context_, call, request_id, answer, started);
  bool keep_alive = request.keep_alive() && !stopping_;
  bool written =
      co_await Write(answer, request.version(), keep_alive, context_->options.write_timeout);
  busy_ = false;
  if (written && keep_alive) co_return true;
  co_await Close(written);
  co_return false;
}

asio::awaitable<void> HttpConnection::Close(bool drain) {
  beast::error_code ignored;
  if (tls_) {
    // TLS: close_notify, then the peer's close_notify or EOF, within the linger deadline (this
    // also lets an error answer reach the client before the socket closes).
    if (handshaken_ && !peer_closed_ && !stopping_) {
      Arm(kLingerTimeout);
      co_await tls_->async_shutdown(kAsTuple);
      Disarm();
    }
    socket_.close(ignored);
    co_return;
  }
  socket_.shutdown(tcp::socket::shutdown_send, ignored);
  if (drain && !peer_closed_ && !stopping_) {
    Arm(kLingerTimeout);
    char scratch[kReadChunk];
    for (size_t drained = 0; drained < kLingerBytes;) {
      auto [error, bytes] = co_await socket_.async_read_some(asio::buffer(scratch), kAsTuple);
      if (error) break;
      drained += bytes;
    }
    Disarm();
  }
  socket_.close(ignored);
}

asio::awaitable<bool> HttpConnection::Handshake(Clock::time_point deadline) {
  ArmUntil(deadline);
  auto [error] = co_await tls_->async_handshake(ssl::stream_base::server, kAsTuple);
  Disarm();
  if (error && timed_out_) context_->timeouts.fetch_add(1);
  handshaken_ = !error;
  co_return handshaken_;
}

asio::awaitable<void> HttpConnection::Serve() {
  // With HTTPS the handshake comes first, within the first request's header deadline; a client
  // that fails it (or speaks plain HTTP) is closed without an answer.
  if (tls_ && !co_await Handshake(first_deadline_)) {
    co_await Close(false);
    co_return;
  }
  for (bool first = true; !stopping_; first = false) {
    Parser parser;
    parser.body_limit(kBodyLimit);
    parser.header_limit(kHeaderLimit);
    Outcome outcome = co_await ReadRequest(parser, first);
    if (outcome == Outcome::kRequest) {
      if (co_await Respond(parser)) continue;
      co_return;
    }
    if (outcome == Outcome::kClosed) break;
    HttpResponse answer;
    switch (outcome) {
      case Outcome::kTimedOut:
        answer = ErrorAnswer(408, "request_timeout", "Request not received in time");
        break;
      case Outcome::kBodyTooLarge:
        answer = ErrorAnswer(413, "payload_too_large",
                             fmt::format("The request body must be at most {} bytes", kBodyLimit));
        break;
      case Outcome::kHeaderTooLarge:
        answer = ErrorAnswer(431, "header_fields_too_large", "Request header fields too large");
        break;
      default:
        answer = ErrorAnswer(400, "bad_request", "Malformed HTTP request");
        break;
    }
    HttpRequest unread;  // nothing of it is trusted: no id, method or path
    unread.client_address = client_address_;
    Account(context_, unread, RequestIdFor(""), answer, Clock::now());
    bool written = co_await Write(answer, 11, false,
                                  std::min(context_->options.write_timeout, kRejectTimeout));
    co_await Close(written);
    co_return;
  }
  co_await Close(false);
}

asio::awaitable<void> HttpConnection::Reject() {
  // Over TLS the 503 needs a handshake first, under the same short deadline.
  if (tls_ && !co_await Handshake(Clock::now() + kRejectTimeout)) {
    co_await Close(false);
    co_return;
  }
  HttpResponse answer =
      ErrorAnswer(503, "too_many_connections", "Too many connections; try again later");
  bool written = co_await Write(answer, 11, false, kRejectTimeout);
  co_await Close(written);
}

// Resolves `max_connections`: the option, or min(1024, RLIMIT_NOFILE / 2).
int ResolveMaxConnections(int option) {
  if (option > 0) return option;
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) {
    return kMaxConnectionsCeiling;
  }
  return static_cast<int>(
      std::clamp<rlim_t>(limit.rlim_cur / 2, 1, static_cast<rlim_t>(kMaxConnectionsCeiling)));
}

// Registers and starts a connection, or closes `socket` when the server is stopping.
void Launch(tcp::socket socket, ServerContext* context, bool rejecting) {
  asio::any_io_executor strand = socket.get_executor();
  std::shared_ptr<HttpConnection> connection;
  {
    std::lock_guard lock(context->mutex);
    if (context->stopping) return;
    uint64_t id = context->next_id++;
    (rejecting ? context->rejecting : context->active).fetch_add(1);
    connection = std::make_shared<HttpConnection>(std::move(socket), context, id, rejecting);
    context->connections.emplace(id, connection);
  }
  asio::co_spawn(strand, HttpConnection::Run(std::move(connection)), asio::detached);
}

// Logs a failed accept, at most once per kAcceptErrorLogInterval (with the count since).
void LogAcceptError(const beast::error_code& error,
                    std::chrono::steady_clock::time_point* last_logged, uint64_t* unlogged) {
  ++*unlogged;
  auto now = std::chrono::steady_clock::now();
  if (now - *last_logged < kAcceptErrorLogInterval) return;
  LOG_WARNING("hotel http: accept failed ({} times): {}; retrying", *unlogged, error.message());
  *last_logged = now;
  *unlogged = 0;
}

// The accept loop, on the acceptor's strand. Each connection gets a strand of its own.
asio::awaitable<void> Accept(tcp::acceptor& acceptor, asio::io_context& io,
                             ServerContext* context) {
  asio::steady_timer pause(acceptor.get_executor());
  std::chrono::steady_clock::time_point last_logged{};
  uint64_t unlogged = 0;
  for (;;) {
    auto [error, socket] = co_await acceptor.async_accept(asio::make_strand(io), kAsTuple);
    if (error == asio::error::operation_aborted || !acceptor.is_open()) co_return;
    if (error) {
      context->accept_errors.fetch_add(1);
      LogAcceptError(error, &last_logged, &unlogged);
      pause.expires_after(kAcceptRetryPause);
      co_await pause.async_wait(kAsTuple);
      continue;
    }
    if (context->active.load() < static_cast<uint64_t>(context->options.max_connections)) {
      context->accepted.fetch_add(1);
      Launch(std::move(socket), context, false);
      continue;
    }
    context->rejected.fetch_add(1);
    uint64_t max_rejecting =
        std::max<uint64_t>(kMinRejecting, context->options.max_connections / 4);
    if (context->rejecting.load() < max_rejecting) {
      Launch(std::move(socket), context, true);
    } else {
      beast::error_code ignored;
      socket.close(ignored);  // too many 503s in progress: refuse at once
    }
  }
}

}  // namespace

common::Result<std::shared_ptr<ssl::context>> NewTlsServerContext(
    const std::string& certificate_file, const std::string& key_file) {
  if (certificate_file.empty() || key_file.empty()) {
    return common::Status::Invalid("HTTPS needs both a certificate and a key (PEM files)");
  }
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  SSL_CTX* native = context->native_handle();
  // TLS 1.2 and 1.3 only; for 1.2, forward secrecy and AEAD ciphers only. No compression
  // (CRIME), no renegotiation.
  if (SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION) != 1 ||
      SSL_CTX_set_cipher_list(native, "ECDHE+AESGCM:ECDHE+CHACHA20") != 1) {
    return common::Status::Internal("cannot configure TLS");
  }
  SSL_CTX_set_options(
      native, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
  beast::error_code error;
  context->use_certificate_chain_file(certificate_file, error);
  if (error) {
    return common::Status::Invalid("cannot use the TLS certificate " + certificate_file + ": " +
                                   error.message());
  }
  context->use_private_key_file(key_file, ssl::context::pem, error);
  if (error) {
    return common::Status::Invalid("cannot use the TLS key " + key_file + ": " + error.message());
  }
  if (SSL_CTX_check_private_key(native) != 1) {
    return common::Status::Invalid("the TLS key " + key_file + " does not match the certificate " +
                                   certificate_file);
  }
  return context;
}

struct HttpServer::State {
  // Declared before `io`: connections destroyed with `io`'s pending handlers still use it.
  ServerContext context;
  asio::io_context io;
  asio::strand<asio::io_context::executor_type> acceptor_strand{asio::make_strand(io)};
  std::optional<tcp::acceptor> acceptor;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
  std::mutex threads_mutex;
  std::condition_variable threads_done;
  int running_threads = 0;  // GUARDED_BY(threads_mutex)
};

HttpServer::HttpServer(const ApiRouter* router, HttpServerOptions options)
    : router_(router), options_(std::move(options)), state_(std::make_unique<State>()) {}

HttpServer::~HttpServer() { Stop(); }

int HttpServer::max_connections() const { return state_->context.options.max_connections; }

HttpServerStats HttpServer::stats() const {
  const ServerContext& context = state_->context;
  return {context.accepted.load(), context.active.load(), context.rejected.load(),
          context.timeouts.load(), context.accept_errors.load()};
}

common::Status HttpServer::Start() {
  if (options_.header_timeout.count() <= 0 || options_.body_timeout.count() <= 0 ||
      options_.idle_timeout.count() <= 0 || options_.write_timeout.count() <= 0) {
    return common::Status::Invalid("HTTP timeouts must be positive");
  }
  std::shared_ptr<ssl::context> tls;
  if (!options_.tls_certificate_file.empty() || !options_.tls_key_file.empty()) {
    ASSIGN_OR_RETURN(tls,
                     NewTlsServerContext(options_.tls_certificate_file, options_.tls_key_file));
  }
  beast::error_code error;
  auto address = asio::ip::make_address(options_.address, error);
  if (error) return common::Status::Invalid("Invalid address '" + options_.address + "'");
  tcp::endpoint endpoint(address, options_.port);
  tcp::acceptor& acceptor = state_->acceptor.emplace(state_->acceptor_strand);
  acceptor.open(endpoint.protocol(), error);
  if (!error) acceptor.set_option(asio::socket_base::reuse_address(true), error);
  if (!error) acceptor.bind(endpoint, error);
  if (!error) acceptor.listen(asio::socket_base::max_listen_connections, error);
  if (error) {
    return common::Status::IOError(fmt::format("cannot listen on {}:{}: {}", options_.address,
                                               options_.port, error.message()));
  }
  port_ = acceptor.local_endpoint().port();
  ServerContext& context = state_->context;
  if (options_.access_log && !options_.access_log_file.empty()) {
    ASSIGN_OR_RETURN(context.access_log, AccessLog::OpenFile(options_.access_log_file));
  } else if (options_.access_log) {
    context.access_log = std::make_unique<AccessLog>();
  }
  context.tls = std::move(tls);
  context.router = router_;
  context.options = options_;
  context.options.max_connections = ResolveMaxConnections(options_.max_connections);
  state_->work.emplace(state_->io.get_executor());
  asio::co_spawn(state_->acceptor_strand, Accept(acceptor, state_->io, &context), asio::detached);
  int threads = std::max(1, options_.threads);
  state_->running_threads = threads;
  for (int i = 0; i < threads; ++i) {
    threads_.emplace_back([state = state_.get()] {
      state->io.run();
      std::lock_guard lock(state->threads_mutex);
      if (--state->running_threads == 0) state->threads_done.notify_all();
    });
  }
  return common::Status::Ok();
}

void HttpServer::Stop() {
  if (threads_.empty()) return;
  State& state = *state_;
  asio::post(state.acceptor_strand, [&state] {
    beast::error_code ignored;
    if (state.acceptor) state.acceptor->close(ignored);
  });
  std::vector<std::shared_ptr<HttpConnection>> open;
  {
    std::lock_guard lock(state.context.mutex);
    state.context.stopping = true;
    for (auto& [id, weak] : state.context.connections) {
      if (auto connection = weak.lock()) open.push_back(std::move(connection));
    }
  }
  for (auto& connection : open) HttpConnection::Stop(std::move(connection));
  open.clear();
  state.work.reset();
  // The threads return once every connection has ended; a client that does not read its
  // answer is abandoned after the grace period.
  {
    std::unique_lock lock(state.threads_mutex);
    if (!state.threads_done.wait_for(lock, kStopGrace,
                                     [&state] { return state.running_threads == 0; })) {
      state.io.stop();
    }
  }
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
}

}  // namespace hotel
