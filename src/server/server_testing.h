// Test helpers for the native-protocol server: a small blocking client that speaks the protocol
// through protocol::FrameWriter/FrameReader and the message codecs, and a fixture that runs a
// Server on an ephemeral 127.0.0.1 port over a Database in a fresh temporary directory (both
// always stopped and removed, even when a test fails). Header-only, for *_test.cc files.
//
// Every blocking read gives up after a timeout (a failed expectation, never a hung test).
// A TestClient speaks plaintext, or TLS after `StartTls` (tls_testing.h makes the contexts).
//
// Thread-safety: a TestClient is used by one thread at a time; the fixture by the test thread.

#pragma once

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "common/bytes.h"
#include "common/result.h"
#include "common/status.h"
#include "engine/database.h"
#include "protocol/compression.h"
#include "protocol/frame.h"
#include "protocol/messages.h"
#include "server/server.h"

namespace server::testing {

// The 9-byte header of a request envelope.
inline common::Bytes RawHeader(uint8_t version, int16_t stream, protocol::Opcode opcode,
                               uint32_t length, uint8_t flags = 0) {
  common::ByteWriter out;
  protocol::EnvelopeHeader header;
  header.version = version;
  header.flags = flags;
  header.stream = stream;
  header.opcode = opcode;
  header.body_length = length;
  protocol::EncodeEnvelopeHeader(header, &out);
  return out.Release();
}

// A blocking native-protocol client for tests.
class TestClient {
 public:
  static constexpr std::chrono::milliseconds kDefaultTimeout{10000};

  explicit TestClient(uint16_t port) : socket_(io_) {
    boost::system::error_code ec;
    socket_.connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
    connected_ = !ec;
  }

  bool connected() const { return connected_; }
  // The client's own port (0 when not connected).
  uint16_t local_port() const {
    boost::system::error_code ec;
    auto endpoint = socket_.local_endpoint(ec);
    return ec ? 0 : endpoint.port();
  }
  uint8_t version() const { return version_; }
  void set_version(uint8_t version) { version_ = version; }
  int16_t NextStream() {
    next_stream_ = static_cast<int16_t>(next_stream_ == 32767 ? 1 : next_stream_ + 1);
    return next_stream_;
  }

  // Runs the TLS client handshake with `context` (blocking, bounded by kDefaultTimeout); every
  // byte after it goes through TLS. Errors: IOError with OpenSSL's reason (e.g. the alert the
  // server sent). REQUIRES: nothing sent or received yet.
  common::Status StartTls(SSL_CTX* context) {
    timeval timeout{static_cast<time_t>(kDefaultTimeout.count() / 1000), 0};
    ::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    ::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
    ssl_.reset(SSL_new(context));
    if (!ssl_) return common::Status::Internal("SSL_new failed");
    SSL_set_fd(ssl_.get(), static_cast<int>(socket_.native_handle()));
    ERR_clear_error();
    if (SSL_connect(ssl_.get()) != 1) return common::Status::IOError(TakeTlsError());
    return common::Status::Ok();
  }
  SSL* ssl() const { return ssl_.get(); }
  // OpenSSL's reason for the last failed TLS read, if any (e.g. an alert from the server).
  const std::string& last_tls_error() const { return last_tls_error_; }

  // Sends bytes as they are (through TLS after StartTls).
  bool SendRaw(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t sent =
          ssl_ ? SSL_write(ssl_.get(), bytes.data(), static_cast<int>(bytes.size()))
               : ::send(socket_.native_handle(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (sent <= 0) return false;
      bytes.remove_prefix(static_cast<size_t>(sent));
    }
    return true;
  }

  // Sends one request envelope (through the writer's current framing).
  bool Send(const protocol::Request& request, int16_t stream, uint8_t flags = 0) {
    protocol::EnvelopeHeader header;
    header.version = version_;
    header.flags = flags;
    header.stream = stream;
    header.opcode = protocol::RequestOpcode(request);
    return SendBody(header, protocol::EncodeRequestBody(request, version_));
  }
  // Sends request envelopes (stream, request) in one write, so the server reads them together.
  bool SendTogether(const std::vector<std::pair<int16_t, protocol::Request>>& requests) {
    for (const auto& [stream, request] : requests) {
      protocol::EnvelopeHeader header;
      header.version = version_;
      header.stream = stream;
      header.opcode = protocol::RequestOpcode(request);
      writer_.Add(header, protocol::EncodeRequestBody(request, version_));
    }
    common::Bytes out;
    writer_.Flush(&out);
    return SendRaw(out);
  }
  bool SendBody(const protocol::EnvelopeHeader& header, std::string_view body) {
    writer_.Add(header, body);
    common::Bytes out;
    writer_.Flush(&out);
    return SendRaw(out);
  }

  // The next envelope from the server. Errors: IOError on timeout or when the server closed
  // the connection; the reader's error for bad framing.
  common::Result<protocol::Envelope> Receive(std::chrono::milliseconds timeout = kDefaultTimeout) {
    for (;;) {
      ASSIGN_OR_RETURN(std::optional<protocol::Envelope> envelope, reader_.Next());
      if (envelope) return std::move(*envelope);
      common::Bytes chunk;
      if (!ReadSome(timeout, &chunk)) {
        return common::Status::IOError(closed_ ? "connection closed" : "timed out");
      }
      reader_.Append(chunk);
    }
  }

  // Reads until the server closes the connection; false if it is still open after `timeout`.
  // Anything received meanwhile is discarded.
  bool WaitClosed(std::chrono::milliseconds timeout = kDefaultTimeout) {
    common::Bytes chunk;
    while (ReadSome(timeout, &chunk)) chunk.clear();
    return closed_;
  }

  // Sends `request` and returns the response to it (skipping events). A response ERROR is
  // returned as its Status.
  common::Result<protocol::Envelope> Call(const protocol::Request& request, uint8_t flags = 0) {
    int16_t stream = NextStream();
    if (!Send(request, stream, flags)) return common::Status::IOError("send failed");
    for (;;) {
      ASSIGN_OR_RETURN(protocol::Envelope envelope, Receive());
      if (envelope.header.stream != stream) continue;
      if (envelope.header.opcode == protocol::Opcode::kError) {
        ASSIGN_OR_RETURN(protocol::ResponsePrefix prefix, protocol::DecodeResponsePrefix(envelope));
        ASSIGN_OR_RETURN(protocol::ErrorResponse error, protocol::DecodeError(prefix.rest));
        last_error_ = error;
        return error.ToStatus();
      }
      return envelope;
    }
  }

  // STARTUP with `version` (and compression); switches this client's framing like a driver.
  common::Status Startup(uint8_t version,
                         protocol::Compression compression = protocol::Compression::kNone) {
    version_ = version;
    protocol::StartupRequest startup;
    startup.options.emplace_back("CQL_VERSION", "3.0.0");
    startup.options.emplace_back("DRIVER_NAME", "server_testing");
    if (compression != protocol::Compression::kNone) {
      startup.options.emplace_back("COMPRESSION",
                                   std::string(protocol::CompressionName(compression)));
    }
    ASSIGN_OR_RETURN(protocol::Envelope ready, Call(startup));
    if (ready.header.opcode != protocol::Opcode::kReady) {
      return common::Status::Internal("STARTUP was not answered with READY");
    }
    if (version >= 5) {
      writer_.StartSegments(compression);
      reader_.StartSegments(compression);
    } else if (compression != protocol::Compression::kNone) {
      writer_.SetEnvelopeCompression(compression);
      reader_.SetEnvelopeCompression(compression);
    }
    return common::Status::Ok();
  }

  // A statement request's RESULT, decoded.
  common::Result<protocol::ResultResponse> RunStatement(
      const protocol::Request& request,
      const std::vector<cql::ColumnSpec>* known_columns = nullptr) {
    ASSIGN_OR_RETURN(protocol::Envelope envelope, Call(request));
    if (envelope.header.opcode != protocol::Opcode::kResult) {
      return common::Status::Internal("expected a RESULT");
    }
    ASSIGN_OR_RETURN(protocol::ResponsePrefix prefix, protocol::DecodeResponsePrefix(envelope));
    last_warnings_ = prefix.warnings;
    return protocol::DecodeResult(prefix.rest, version_, known_columns);
  }

  common::Result<protocol::ResultResponse> Query(std::string query,
                                                 cql::QueryOptions options = {}) {
    protocol::QueryRequest request;
    request.query = std::move(query);
    request.parameters.options = std::move(options);
    return RunStatement(request);
  }

  common::Result<cql::PreparedMetadata> Prepare(std::string query) {
    protocol::PrepareRequest request;
    request.query = std::move(query);
    ASSIGN_OR_RETURN(protocol::ResultResponse result, RunStatement(request));
    if (result.kind != protocol::ResultResponse::Kind::kPrepared) {
      return common::Status::Internal("expected a Prepared result");
    }
    return result.prepared;
  }

  common::Result<protocol::ResultResponse> Execute(const cql::PreparedMetadata& prepared,
                                                   std::vector<cql::BoundValue> values) {
    protocol::ExecuteRequest request;
    request.id = prepared.id;
    request.result_metadata_id = prepared.result_metadata_id;
    request.parameters.options.values = std::move(values);
    return RunStatement(request, &prepared.result_columns);
  }

  const std::optional<protocol::ErrorResponse>& last_error() const { return last_error_; }
  const std::vector<std::string>& last_warnings() const { return last_warnings_; }

 private:
  // Waits for bytes; false on timeout or when the peer closed (then closed_ is set).
  bool ReadSome(std::chrono::milliseconds timeout, common::Bytes* out) {
    pollfd fd{socket_.native_handle(), POLLIN, 0};
    bool buffered = ssl_ && SSL_pending(ssl_.get()) > 0;
    if (!buffered && ::poll(&fd, 1, static_cast<int>(timeout.count())) <= 0) return false;
    char buffer[65536];
    ssize_t got;
    if (ssl_) {
      ERR_clear_error();
      got = SSL_read(ssl_.get(), buffer, sizeof(buffer));
      if (got <= 0 && SSL_get_error(ssl_.get(), static_cast<int>(got)) == SSL_ERROR_SSL) {
        last_tls_error_ = TakeTlsError();
      }
    } else {
      got = ::recv(socket_.native_handle(), buffer, sizeof(buffer), 0);
    }
    if (got <= 0) {
      closed_ = true;
      return false;
    }
    out->append(buffer, static_cast<size_t>(got));
    return true;
  }

  static std::string TakeTlsError() {
    unsigned long code = ERR_get_error();
    ERR_clear_error();
    const char* reason = code == 0 ? nullptr : ERR_reason_error_string(code);
    return reason != nullptr ? reason : "TLS failure without a reason";
  }

  struct SslFree {
    void operator()(SSL* ssl) const { SSL_free(ssl); }
  };

  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  std::unique_ptr<SSL, SslFree> ssl_;  // after StartTls
  std::string last_tls_error_;
  bool connected_ = false;
  bool closed_ = false;
  uint8_t version_ = 4;
  int16_t next_stream_ = 0;
  protocol::FrameWriter writer_;
  protocol::FrameReader reader_;
  std::optional<protocol::ErrorResponse> last_error_;
  std::vector<std::string> last_warnings_;
};

// A Database in a fresh temporary directory and a Server on an ephemeral port over it.
class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "cqld-server-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
    auto db = engine::Database::Open(directory_, database_options_);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    database_ = std::move(db).value();
    StartServer();
  }

  void TearDown() override {
    if (server_) server_->Stop();
    server_.reset();
    database_.reset();
    if (!directory_.empty()) std::filesystem::remove_all(directory_);
  }

  void StartServer() {
    server_options_.port = 0;
    server_options_.address = "127.0.0.1";
    if (server_options_.io_threads == 0) server_options_.io_threads = 2;
    auto server = Server::Start(database_.get(), server_options_);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(server).value();
  }

  // A client after STARTUP with `version`.
  std::unique_ptr<TestClient> Connect(
      uint8_t version = 4, protocol::Compression compression = protocol::Compression::kNone) {
    auto client = std::make_unique<TestClient>(server_->port());
    EXPECT_TRUE(client->connected());
    common::Status status = client->Startup(version, compression);
    EXPECT_TRUE(status.ok()) << status.ToString();
    return client;
  }

  engine::DatabaseOptions database_options_;
  ServerOptions server_options_;
  std::string directory_;
  std::unique_ptr<engine::Database> database_;
  std::unique_ptr<Server> server_;
};

}  // namespace server::testing
