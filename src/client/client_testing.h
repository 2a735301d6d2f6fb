// Test helpers for the C++ driver (src/client/), header-only, for *_test.cc files:
//   - `RemoteSessionTest`: server/server_testing.h's fixture (a Server over a Database on an
//     ephemeral port) plus RemoteSessions connected to it, and a restart of the server on the
//     same port (optionally over a fresh Database, which forgets every prepared statement).
//   - `FakeServer`: a tiny blocking native-protocol v4 server whose answers a test scripts (for
//     what cqld never does: demand authentication, refuse v5, never answer).
//
// Thread-safety: fixtures are used by the test thread; a FakeServer runs one thread per
// connection and calls the test's handler from them (it must be thread-safe).

#pragma once

#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "client/remote_session.h"
#include "common/bytes.h"
#include "protocol/frame.h"
#include "protocol/messages.h"
#include "server/server_testing.h"

namespace client::testing {

class RemoteSessionTest : public server::testing::ServerTest {
 protected:
  void TearDown() override {
    sessions_.clear();
    ServerTest::TearDown();
  }

  ClientOptions Options() const {
    ClientOptions options;
    options.contact_points = {"127.0.0.1:" + std::to_string(port_ ? port_ : server_->port())};
    options.connect_timeout = std::chrono::milliseconds(5000);
    options.request_timeout = std::chrono::milliseconds(20000);
    return options;
  }

  // A session owned by the fixture (closed before the server stops).
  RemoteSession* ConnectRemote(const ClientOptions& options) {
    auto session = RemoteSession::Connect(options);
    EXPECT_TRUE(session.ok()) << session.status().ToString();
    if (!session.ok()) return nullptr;
    sessions_.push_back(std::move(session).value());
    return sessions_.back().get();
  }
  RemoteSession* ConnectRemote() { return ConnectRemote(Options()); }

  void StopServer() {
    if (port_ == 0) port_ = server_->port();
    server_->Stop();
    server_.reset();
  }
  // Starts the server again on the same port; with `fresh_database`, over a new empty Database.
  void RestartServer(bool fresh_database) {
    if (server_) StopServer();
    if (fresh_database) {
      database_.reset();
      std::filesystem::remove_all(directory_);
      std::filesystem::create_directories(directory_);
      auto db = engine::Database::Open(directory_, database_options_);
      ASSERT_TRUE(db.ok()) << db.status().ToString();
      database_ = std::move(db).value();
    }
    server::ServerOptions options = server_options_;
    options.port = port_;
    options.address = "127.0.0.1";
    auto server = server::Server::Start(database_.get(), options);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(server).value();
  }

  uint16_t port_ = 0;  // remembered across restarts
  std::vector<std::unique_ptr<RemoteSession>> sessions_;
};

// One reply of a FakeServer: an envelope body with its opcode (version 4, the request's stream).
struct FakeReply {
  protocol::Opcode opcode = protocol::Opcode::kReady;
  common::Bytes body;
  std::optional<uint8_t> version;  // default: the request's version
  // When positive, the reply is sent one byte at a time, this long apart (a server that trickles).
  std::chrono::milliseconds trickle{0};
};

class FakeServer {
 public:
  // Returns the reply to a request, or nullopt to never answer it.
  using Handler = std::function<std::optional<FakeReply>(const protocol::Envelope& request)>;

  // Listens (127.0.0.1, ephemeral port, by default). With `accept` false it never accepts:
  // connections complete in the kernel's backlog and then see nothing, like a hung server.
  // `address` and `port` (0: ephemeral) choose where to listen.
  explicit FakeServer(Handler handler, bool accept = true, const std::string& address = "127.0.0.1",
                      uint16_t port = 0)
      : handler_(std::move(handler)), acceptor_(io_) {
    boost::asio::ip::tcp::endpoint endpoint(boost::asio::ip::make_address(address), port);
    acceptor_.open(endpoint.protocol());
    acceptor_.bind(endpoint);
    acceptor_.listen();
    port_ = acceptor_.local_endpoint().port();
    if (accept) accept_thread_ = std::thread([this] { AcceptLoop(); });
  }
  ~FakeServer() { Stop(); }

  uint16_t port() const { return port_; }
  size_t connections() const { return connections_.load(); }

  void Stop() {
    if (stopped_.exchange(true)) return;
    ::shutdown(acceptor_.native_handle(), SHUT_RDWR);
    if (accept_thread_.joinable()) accept_thread_.join();
    {
      std::lock_guard lock(mutex_);
      for (auto& socket : sockets_) ::shutdown(socket->native_handle(), SHUT_RDWR);
    }
    for (std::thread& thread : threads_) thread.join();
    boost::system::error_code ignored;
    acceptor_.close(ignored);
  }

  static common::Bytes ErrorBody(common::StatusCode code, const std::string& message) {
    common::ByteWriter out;
    protocol::ErrorResponse error;
    error.code = static_cast<uint32_t>(code);
    error.message = message;
    protocol::EncodeError(error, &out);
    return out.Release();
  }

 private:
  void AcceptLoop() {
    while (!stopped_) {
      auto socket = std::make_shared<boost::asio::ip::tcp::socket>(io_);
      boost::system::error_code error;
      acceptor_.accept(*socket, error);
      if (error || stopped_) return;
      ++connections_;
      std::lock_guard lock(mutex_);
      sockets_.push_back(socket);
      threads_.emplace_back([this, socket] { Serve(socket); });
    }
  }

  void Serve(std::shared_ptr<boost::asio::ip::tcp::socket> socket) {
    protocol::FrameReader reader;
    char buffer[4096];
    for (;;) {
      ssize_t got = ::recv(socket->native_handle(), buffer, sizeof(buffer), 0);
      if (got <= 0) return;
      reader.Append(std::string_view(buffer, static_cast<size_t>(got)));
      for (;;) {
        auto next = reader.Next();
        if (!next.ok() || !next->has_value()) {
          if (!next.ok()) return;
          break;
        }
        const protocol::Envelope& request = **next;
        std::optional<FakeReply> reply = handler_(request);
        if (!reply) continue;
        protocol::FrameWriter writer;
        protocol::EnvelopeHeader header;
        header.version = reply->version.value_or(request.header.version);
        header.is_response = true;
        header.stream = request.header.stream;
        header.opcode = reply->opcode;
        writer.Add(header, reply->body);
        common::Bytes out;
        writer.Flush(&out);
        if (!Send(socket->native_handle(), out, reply->trickle)) return;
      }
    }
  }

  // Sends `out` at once, or a byte every `trickle`. False when the socket is closed.
  bool Send(int fd, const common::Bytes& out, std::chrono::milliseconds trickle) {
    if (trickle.count() <= 0) return ::send(fd, out.data(), out.size(), MSG_NOSIGNAL) >= 0;
    for (size_t i = 0; i < out.size(); ++i) {
      if (stopped_ || ::send(fd, out.data() + i, 1, MSG_NOSIGNAL) < 0) return false;
      std::this_thread::sleep_for(trickle);
    }
    return true;
  }

  Handler handler_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  std::atomic<bool> stopped_{false};
  std::atomic<size_t> connections_{0};
  std::thread accept_thread_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<boost::asio::ip::tcp::socket>> sockets_;
  std::vector<std::thread> threads_;  // written by the accept thread; joined after it
};

}  // namespace client::testing
