#include "server/server.h"

#include <algorithm>
#include <array>
#include <exception>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "common/logging.h"
#include "server/server_metrics.h"
#include "server/system_views_source.h"

namespace server {
namespace {

namespace asio = boost::asio;
using common::Status;

constexpr auto kUseAwaitable = asio::as_tuple(asio::use_awaitable);
// After a forced close, how long Stop() waits for the connections to notice.
constexpr std::chrono::seconds kForcedCloseWait(2);

// Writes ERROR Overloaded on `first`'s stream, half-closes, and discards what the client still
// sends until it closes (or the caller's deadline closes the socket), so the answer is not lost
// to a TCP reset (as connection.h design 6).
asio::awaitable<void> AnswerOverloaded(Transport* transport, FirstHeader first,
                                       size_t max_connections) {
  protocol::EnvelopeHeader answer;
  answer.version = AnswerVersion(first.version);
  answer.is_response = true;
  answer.stream = first.stream;
  answer.opcode = protocol::Opcode::kError;
  Status overloaded(common::StatusCode::kOverloaded,
                    fmt::format("Too many connections (the limit is {})", max_connections));
  protocol::FrameWriter writer;
  writer.Add(answer, ErrorBody(overloaded).body);
  common::Bytes bytes;
  writer.Flush(&bytes);
  auto [ec, size] = co_await transport->Write(asio::buffer(bytes));
  (void)size;
  if (!ec) transport->ShutdownSend();
  std::array<char, 4096> discard;
  while (!ec) {
    auto [read_ec, read] = co_await transport->ReadSome(asio::buffer(discard));
    (void)read;
    ec = read_ec;
  }
}

}  // namespace

Server::Server(engine::Database* database, const ServerOptions& options)
    : options_(options),
      database_(database),
      handler_(database, options.audit_log),
      budget_(options.max_request_memory),
      acceptor_strand_(asio::make_strand(io_)),
      acceptor_(acceptor_strand_),
      registry_(std::make_shared<ConnectionRegistry>()) {}

common::Result<std::unique_ptr<Server>> Server::Start(engine::Database* database,
                                                      const ServerOptions& options) {
  if (database == nullptr) return Status::Invalid("Server::Start needs a database");
  if (options.max_connections == 0 || options.max_requests_per_connection == 0 ||
      options.max_envelope_body == 0 || options.max_request_memory == 0) {
    return Status::Invalid(
        "max_connections, max_requests_per_connection, max_envelope_body and "
        "max_request_memory must be positive");
  }
  if (options.handshake_timeout.count() < 0 || options.idle_timeout.count() < 0) {
    return Status::Invalid("handshake_timeout and idle_timeout must not be negative");
  }
  if (options.execute_on_workers && options.worker_threads == 0) {
    return Status::Invalid("worker_threads must be positive");
  }
  boost::system::error_code ec;
  asio::ip::address address = asio::ip::make_address(options.address, ec);
  if (ec) {
    return Status::Invalid(
        fmt::format("Invalid listen address '{}': {}", options.address, ec.message()));
  }
  std::unique_ptr<Server> server(new Server(database, options));
  if (options.tls.enabled) {
    ASSIGN_OR_RETURN(server->security_.tls, NewTlsContext(options.tls));
    server->security_.optional = options.tls.optional;
  }
  asio::ip::tcp::endpoint endpoint(address, options.port);
  asio::ip::tcp::acceptor& acceptor = server->acceptor_;
  if (acceptor.open(endpoint.protocol(), ec); ec) {
    return Status::IOError(fmt::format("Cannot open a socket: {}", ec.message()));
  }
  acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (acceptor.bind(endpoint, ec); ec) {
    return Status::IOError(
        fmt::format("Cannot bind to {}:{}: {}", options.address, options.port, ec.message()));
  }
  if (acceptor.listen(asio::socket_base::max_listen_connections, ec); ec) {
    return Status::IOError(
        fmt::format("Cannot listen on {}:{}: {}", options.address, options.port, ec.message()));
  }
  server->endpoint_ = acceptor.local_endpoint(ec);
  if (ec) return Status::IOError(fmt::format("Cannot read the bound address: {}", ec.message()));
  // system.local's rpc_address and rpc_port: where clients reach this server (a wildcard
  // address keeps the node's own address, as Cassandra's broadcast_rpc_address).
  database->SetNativeAddress(server->endpoint_.address().is_unspecified()
                                 ? database->local_node().rpc_address
                                 : server->endpoint_.address().to_string(),
                             server->endpoint_.port());

  server->context_.limits.max_requests_per_connection = options.max_requests_per_connection;
  server->context_.limits.max_envelope_body = options.max_envelope_body;
  server->context_.limits.handshake_timeout = options.handshake_timeout;
  server->context_.limits.idle_timeout = options.idle_timeout;
  server->context_.handler = &server->handler_;
  server->context_.budget = &server->budget_;
  server->context_.activity = server->activity_.get();
  server->budget_collector_ = AddBudgetCollector(&server->budget_);
  if (options.execute_on_workers) {
    server->workers_ = std::make_unique<asio::thread_pool>(options.worker_threads);
    server->context_.request_executor = server->workers_->get_executor();
    server->context_.run_alone_inline = options.run_alone_inline;
    server->context_.read_executor = server->io_.get_executor();
  } else {
    server->context_.request_executor = server->io_.get_executor();
  }

  // The listener can outlive the server (the Database keeps it): it only reaches the registry,
  // which does nothing once closed.
  database->AddSchemaListener([registry = server->registry_](const cql::SchemaChangeEvent& event) {
    registry->PublishSchemaChange(event);
  });

  server->work_.emplace(server->io_.get_executor());
  asio::co_spawn(server->acceptor_strand_, server->AcceptLoop(), asio::detached);
  size_t threads = options.io_threads;
  if (threads == 0) threads = std::max<size_t>(1, std::thread::hardware_concurrency());
  Server* raw = server.get();
  for (size_t i = 0; i < threads; ++i) {
    server->threads_.emplace_back([raw] {
      for (;;) {
        try {
          raw->io_.run();
          return;
        } catch (const std::exception& e) {
          LOG_ERROR("server thread: unexpected exception: {}", e.what());
        } catch (...) {
          LOG_ERROR("server thread: unexpected exception");
        }
      }
    });
  }
  database->SetSystemViewsSource(
      NewSystemViewsSource(options, server->endpoint_.port(),
                           options.execute_on_workers ? options.worker_threads : threads,
                           server->registry_, server->activity_));
  LOG_INFO("serving the native protocol on {}:{} (TLS {}{})",
           server->endpoint_.address().to_string(), server->endpoint_.port(), TlsMode(options.tls),
           options.tls.require_client_auth ? ", client certificates required" : "");
  return server;
}

Server::~Server() { Stop(); }

asio::awaitable<void> Server::AcceptLoop() {
  bool refusing = false;
  size_t refused = 0;
  while (!stopping_.load()) {
    asio::any_io_executor strand = asio::make_strand(io_);
    auto [ec, socket] = co_await acceptor_.async_accept(strand, kUseAwaitable);
    if (ec) {
      if (stopping_.load() || ec == asio::error::operation_aborted || !acceptor_.is_open()) break;
      // Typically out of file descriptors: pause instead of spinning.
      LOG_WARNING("accept failed: {}", ec.message());
      asio::steady_timer pause(acceptor_strand_, std::chrono::milliseconds(50));
      co_await pause.async_wait(kUseAwaitable);
      continue;
    }
    if (registry_->size() >= options_.max_connections) {
      if (!refusing) {
        LOG_WARNING("{} connections open (max_connections): closing new ones",
                    options_.max_connections);
      }
      refusing = true;
      ++refused;
      ++rejected_connections_;
      NativeMetrics::Get().connections_refused.Increment();
      if (rejections_in_progress_.load() < kMaxRejectionsInProgress) {
        ++rejections_in_progress_;
        asio::any_io_executor executor = socket.get_executor();
        asio::co_spawn(executor, Reject(std::move(socket)), asio::detached);
      } else {
        boost::system::error_code close_ec;
        socket.close(close_ec);
      }
      continue;
    }
    NativeMetrics::Get().connections_accepted.Increment();
    if (refusing) {
      LOG_INFO("accepting connections again ({} refused)", refused);
      refusing = false;
      refused = 0;
    }
    try {
      auto connection =
          std::make_shared<Connection>(std::move(socket), &context_, registry_, CurrentSecurity());
      if (!registry_->Add(connection)) break;  // stopping
      connection->Start();
    } catch (const std::exception& e) {
      LOG_ERROR("cannot set up a connection: {}", e.what());
    }
  }
}

asio::awaitable<void> Server::Reject(asio::ip::tcp::socket accepted) {
  // One deadline for reading the header, answering and draining: the socket is closed when it
  // passes, which ends whichever step is waiting. The handler shares the socket, so a deadline
  // that passes as the coroutine ends touches nothing freed.
  // With TLS, the answer goes over TLS: the handshake is inside the same deadline.
  asio::any_io_executor executor = accepted.get_executor();
  auto transport = std::make_shared<Transport>(std::move(accepted));
  asio::steady_timer deadline(executor, kRejectTimeout);
  deadline.async_wait([transport](const boost::system::error_code& ec) {
    if (!ec) transport->Close();
  });
  try {
    boost::system::error_code accept_ec = co_await transport->Accept(CurrentSecurity());
    std::array<char, protocol::kEnvelopeHeaderSize> header{};
    size_t got = 0;
    std::optional<FirstHeader> first;
    while (!accept_ec && !first && got < header.size()) {
      auto [ec, size] =
          co_await transport->ReadSome(asio::buffer(header.data() + got, header.size() - got));
      if (ec) break;
      got += size;
      first = ParseFirstHeader(std::string_view(header.data(), got));
    }
    if (first) co_await AnswerOverloaded(transport.get(), *first, options_.max_connections);
  } catch (const std::exception& e) {
    LOG_WARNING("refusing a connection: {}", e.what());
  }
  deadline.cancel();
  transport->Close();
  --rejections_in_progress_;
}

TransportSecurity Server::CurrentSecurity() const {
  std::lock_guard<std::mutex> lock(tls_mutex_);
  return security_;
}

common::Status Server::ReloadTls() {
  if (!options_.tls.enabled) return Status::Invalid("TLS is not enabled: nothing to reload");
  common::Result<std::shared_ptr<asio::ssl::context>> context = NewTlsContext(options_.tls);
  if (!context.ok()) {
    LOG_ERROR("TLS reload failed, new connections keep the previous certificate: {}",
              context.status().message());
    return context.status();
  }
  {
    std::lock_guard<std::mutex> lock(tls_mutex_);
    security_.tls = std::move(context).value();
  }
  LOG_INFO("TLS reloaded: new connections use {} and {}", options_.tls.certificate_file,
           options_.tls.private_key_file);
  return Status::Ok();
}

void Server::Stop() {
  std::lock_guard<std::mutex> lock(stop_mutex_);
  if (stopped_) return;
  stopped_ = true;
  database_->SetSystemViewsSource(nullptr);
  budget_collector_.Reset();
  stopping_.store(true);
  registry_->Close();
  asio::post(acceptor_strand_, [this] {
    boost::system::error_code ec;
    acceptor_.close(ec);
  });
  for (const std::shared_ptr<Connection>& connection : registry_->Snapshot()) {
    connection->Shutdown();
  }
  if (!registry_->WaitEmpty(options_.stop_timeout)) {
    LOG_WARNING("{} connections still busy after {} ms: closing them", registry_->size(),
                options_.stop_timeout.count());
    for (const std::shared_ptr<Connection>& connection : registry_->Snapshot()) {
      connection->ForceClose();
    }
    if (!registry_->WaitEmpty(kForcedCloseWait)) {
      LOG_WARNING("{} connections did not close", registry_->size());
    }
  }
  if (workers_) {
    workers_->stop();
    workers_->join();
  }
  work_.reset();
  io_.stop();
  for (std::thread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
  if (!threads_.empty()) LOG_INFO("native protocol server on port {} stopped", endpoint_.port());
}

}  // namespace server
