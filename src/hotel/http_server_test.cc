// HttpServer under slow and hostile clients (issue 12, finding 3): mass timeouts, slowloris,
// the connection limit, size limits, accept errors; and HTTPS (a self-signed certificate made
// with the `openssl` command): TLS 1.2+ only, the deadlines and the limit before and during the
// handshake. The server runs with short deadlines set by each test; clients are raw sockets so
// a test can send half a request and stall. The router has no service: /health/live and the
// 404 for / need none.

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <openssl/ssl.h>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast.hpp>
#include <boost/beast/ssl.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "hotel/http_router.h"
#include "hotel/http_server.h"

namespace hotel {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// Every wait in these tests is bounded by this (generous: ASan builds on a loaded machine).
constexpr auto kWaitBound = std::chrono::seconds(30);

// A raw TCP client on 127.0.0.1. Owns its descriptor.
class RawClient {
 public:
  RawClient() = default;
  RawClient(RawClient&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  RawClient& operator=(RawClient&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  ~RawClient() { Close(); }

  // Creates the socket (without connecting). False when out of descriptors.
  bool Open() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    return fd_ >= 0;
  }
  bool Connect(uint16_t port) {
    if (fd_ < 0 && !Open()) return false;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  }
  // Sends all of `data`; false when the connection is gone.
  bool Send(const std::string& data) {
    size_t sent = 0;
    while (sent < data.size()) {
      ssize_t n = ::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      sent += static_cast<size_t>(n);
    }
    return true;
  }
  // Reads until the server closes (EOF or reset) or `bound` passes. `closed` tells which.
  std::string ReadUntilClosed(Clock::duration bound, bool* closed) {
    std::string received;
    *closed = false;
    Clock::time_point deadline = Clock::now() + bound;
    while (Clock::now() < deadline) {
      if (!WaitReadable(deadline)) continue;
      char chunk[4096];
      ssize_t n = ::recv(fd_, chunk, sizeof(chunk), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        *closed = true;
        break;
      }
      received.append(chunk, static_cast<size_t>(n));
    }
    return received;
  }
  // Reads one response whose end is known (Content-Length), or until closed.
  std::string ReadResponse(Clock::duration bound) {
    std::string received;
    Clock::time_point deadline = Clock::now() + bound;
    while (Clock::now() < deadline && !Complete(received)) {
      if (!WaitReadable(deadline)) continue;
      char chunk[4096];
      ssize_t n = ::recv(fd_, chunk, sizeof(chunk), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      received.append(chunk, static_cast<size_t>(n));
    }
    return received;
  }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  int fd() const { return fd_; }

 private:
  bool WaitReadable(Clock::time_point deadline) {
    auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count();
    pollfd entry{fd_, POLLIN, 0};
    return ::poll(&entry, 1, static_cast<int>(std::max<int64_t>(left, 0))) > 0;
  }
  static bool Complete(const std::string& response) {
    size_t end = response.find("\r\n\r\n");
    if (end == std::string::npos) return false;
    size_t length_at = response.find("Content-Length: ");
    if (length_at == std::string::npos || length_at > end) return true;
    size_t length = std::stoul(response.substr(length_at + 16));
    return response.size() >= end + 4 + length;
  }

  int fd_ = -1;
};

int StatusOf(const std::string& response) {
  if (response.compare(0, 9, "HTTP/1.1 ") != 0 || response.size() < 12) return 0;
  return std::stoi(response.substr(9, 3));
}

std::string BodyOf(const std::string& response) {
  size_t end = response.find("\r\n\r\n");
  return end == std::string::npos ? "" : response.substr(end + 4);
}

const char kHealth[] = "GET /health/live HTTP/1.1\r\nHost: test\r\n\r\n";

// Raises RLIMIT_NOFILE's soft limit towards `wanted`; returns the soft limit in force.
rlim_t RaiseDescriptorLimit(rlim_t wanted) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
  if (limit.rlim_cur < wanted) {
    limit.rlim_cur = std::min(wanted, limit.rlim_max);
    setrlimit(RLIMIT_NOFILE, &limit);
    getrlimit(RLIMIT_NOFILE, &limit);
  }
  return limit.rlim_cur;
}

// Waits (bounded) until `predicate` holds; returns whether it did.
template <typename Predicate>
bool WaitFor(Predicate predicate) {
  Clock::time_point deadline = Clock::now() + kWaitBound;
  while (!predicate()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return true;
}

// A self-signed certificate for 127.0.0.1 and its key (PEM files in a temporary directory),
// made with the `openssl` command; `ok` false when there is no such command.
struct SelfSigned {
  SelfSigned() {
    std::string pattern = (std::filesystem::temp_directory_path() / "hotel-tls-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) return;
    directory = pattern;
    certificate = directory + "/cert.pem";
    key = directory + "/key.pem";
    std::string command =
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 "
        "-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout " +
        key + " -out " + certificate + " >/dev/null 2>&1";
    ok = std::system(command.c_str()) == 0;
  }
  ~SelfSigned() {
    std::error_code ignored;
    if (!directory.empty()) std::filesystem::remove_all(directory, ignored);
  }
  bool ok = false;
  std::string directory;
  std::string certificate;
  std::string key;
};

// GET `target` over TLS, trusting `certificate` only and checking the server's name; the
// status, or 0 when the handshake or the request fails. `max_version` 0: any the client knows.
int TlsGet(uint16_t port, const std::string& certificate, const std::string& target,
           int max_version = 0) {
  namespace asio = boost::asio;
  namespace beast = boost::beast;
  namespace http = beast::http;
  asio::io_context io;
  asio::ssl::context context(asio::ssl::context::tls_client);
  if (max_version != 0) {
    // Offer only old versions: whatever the system's OpenSSL policy allows the client.
    SSL_CTX_set_security_level(context.native_handle(), 0);
    SSL_CTX_set_min_proto_version(context.native_handle(), 0);
    SSL_CTX_set_max_proto_version(context.native_handle(), max_version);
    SSL_CTX_set_cipher_list(context.native_handle(), "DEFAULT@SECLEVEL=0");
  }
  boost::system::error_code error;
  context.load_verify_file(certificate, error);
  if (error) return 0;
  context.set_verify_mode(asio::ssl::verify_peer);
  context.set_verify_callback(asio::ssl::host_name_verification("127.0.0.1"));
  beast::ssl_stream<beast::tcp_stream> stream(io, context);
  beast::get_lowest_layer(stream).expires_after(kWaitBound);
  beast::get_lowest_layer(stream).connect({asio::ip::make_address("127.0.0.1"), port}, error);
  if (!error) stream.handshake(asio::ssl::stream_base::client, error);
  if (error) return 0;
  http::request<http::empty_body> request{http::verb::get, target, 11};
  request.set(http::field::host, "127.0.0.1");
  http::write(stream, request, error);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  if (!error) http::read(stream, buffer, response, error);
  if (error) return 0;
  return response.result_int();
}

class HttpServerTest : public ::testing::Test {
 protected:
  HttpServerTest() : router_(nullptr, nullptr, "/nonexistent-web-dir", "embedded") {
    options_.port = 0;
    options_.threads = 2;
    options_.access_log = false;
  }
  void TearDown() override {
    if (server_) server_->Stop();
  }
  void StartServer() {
    server_ = std::make_unique<HttpServer>(&router_, options_);
    ASSERT_TRUE(server_->Start().ok());
  }
  // One complete GET /health/live on a fresh connection; returns the status (0: none).
  int Health() {
    RawClient client;
    if (!client.Connect(server_->port()) || !client.Send(kHealth)) return 0;
    return StatusOf(client.ReadResponse(kWaitBound));
  }

  ApiRouter router_;
  HttpServerOptions options_;
  std::unique_ptr<HttpServer> server_;
};

// The finding's reproduction: many connections send half a POST and stall; the body deadline
// fires for all of them at once, round after round. The server stays up (under ASan a race on
// a socket would abort this process) and serves a normal client during and after.
TEST_F(HttpServerTest, ManyStalledPostsTimeOutTogether) {
  constexpr int kRounds = 3;
  rlim_t limit = RaiseDescriptorLimit(4400);
  int connections = static_cast<int>(std::min<rlim_t>(2000, (limit - 200) / 2));
  ASSERT_GE(connections, 100) << "RLIMIT_NOFILE too low: " << limit;
  options_.threads = 4;
  options_.header_timeout = milliseconds(1000);
  options_.body_timeout = milliseconds(1000);
  options_.max_connections = connections + 100;
  StartServer();
  const std::string half_post =
      "POST /api/v1/pois HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
      "Content-Length: 1000\r\n\r\n{\"name\": \"half";
  for (int round = 0; round < kRounds; ++round) {
    std::vector<RawClient> clients(static_cast<size_t>(connections));
    for (RawClient& client : clients) {
      ASSERT_TRUE(client.Connect(server_->port())) << std::strerror(errno);
      ASSERT_TRUE(client.Send(half_post));
    }
    EXPECT_EQ(Health(), 200) << "round " << round << ", while stalled";
    int answered_408 = 0;
    for (RawClient& client : clients) {
      bool closed = false;
      std::string received = client.ReadUntilClosed(kWaitBound, &closed);
      ASSERT_TRUE(closed) << "round " << round << ": a stalled connection was never closed";
      if (StatusOf(received) == 408) ++answered_408;
    }
    EXPECT_EQ(answered_408, connections) << "round " << round;
    EXPECT_EQ(Health(), 200) << "round " << round << ", after";
  }
  EXPECT_GE(server_->stats().timeouts, static_cast<uint64_t>(kRounds * connections));
}

// A request line and headers that do not arrive within the header deadline: 408 with a JSON
// body, then the connection closes; a connection that sends nothing is just closed.
TEST_F(HttpServerTest, HeaderTimeoutAnswers408) {
  options_.header_timeout = milliseconds(300);
  StartServer();
  RawClient partial;
  ASSERT_TRUE(partial.Connect(server_->port()));
  ASSERT_TRUE(partial.Send("GET /health/live HTTP/1.1\r\nHost: te"));
  bool closed = false;
  std::string received = partial.ReadUntilClosed(kWaitBound, &closed);
  EXPECT_TRUE(closed);
  EXPECT_EQ(StatusOf(received), 408) << received;
  EXPECT_NE(received.find("Connection: close"), std::string::npos) << received;
  EXPECT_NE(BodyOf(received).find(R"("code":"request_timeout")"), std::string::npos) << received;

  RawClient silent;
  ASSERT_TRUE(silent.Connect(server_->port()));
  received = silent.ReadUntilClosed(kWaitBound, &closed);
  EXPECT_TRUE(closed);
  EXPECT_EQ(received, "");
  EXPECT_EQ(Health(), 200);
}

// Slowloris: one header byte every 100 ms never completes the headers, so the header
// deadline closes it, long before the client would have finished. With one io thread, a
// normal client is served meanwhile: the stalled connection holds no thread.
TEST_F(HttpServerTest, SlowlorisIsClosedAtTheHeaderDeadline) {
  options_.threads = 1;
  options_.header_timeout = milliseconds(1000);
  StartServer();
  RawClient slow;
  ASSERT_TRUE(slow.Connect(server_->port()));
  std::string request =
      "GET /health/live HTTP/1.1\r\nHost: test\r\nX-Slow: " + std::string(400, 'a') + "\r\n\r\n";
  bool cut_off = false;
  for (size_t i = 0; i < request.size(); ++i) {
    if (!slow.Send(request.substr(i, 1))) {
      cut_off = true;
      break;
    }
    if (i == 5) {
      EXPECT_EQ(Health(), 200) << "a normal client during the slowloris";
    }
    pollfd entry{slow.fd(), POLLIN, 0};
    if (::poll(&entry, 1, 100) > 0) {
      cut_off = true;  // the server answered (408) or closed
      break;
    }
  }
  ASSERT_TRUE(cut_off) << "the slow client sent its whole request (40 s) and was not cut off";
  bool closed = false;
  std::string received = slow.ReadUntilClosed(kWaitBound, &closed);
  EXPECT_TRUE(closed);
  if (!received.empty()) {
    EXPECT_EQ(StatusOf(received), 408) << received;
  }
  EXPECT_EQ(Health(), 200);
}

// A keep-alive connection with no next request is closed (silently) at the idle deadline; the
// body deadline answers a stalled body 408.
TEST_F(HttpServerTest, IdleAndBodyTimeouts) {
  options_.idle_timeout = milliseconds(300);
  options_.body_timeout = milliseconds(300);
  StartServer();
  RawClient idle;
  ASSERT_TRUE(idle.Connect(server_->port()));
  ASSERT_TRUE(idle.Send(kHealth));
  EXPECT_EQ(StatusOf(idle.ReadResponse(kWaitBound)), 200);
  bool closed = false;
  EXPECT_EQ(idle.ReadUntilClosed(kWaitBound, &closed), "");
  EXPECT_TRUE(closed);

  RawClient stalled;
  ASSERT_TRUE(stalled.Connect(server_->port()));
  ASSERT_TRUE(stalled.Send("POST /api/v1/pois HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\n{"));
  std::string received = stalled.ReadUntilClosed(kWaitBound, &closed);
  EXPECT_TRUE(closed);
  EXPECT_EQ(StatusOf(received), 408) << received;
}

// Over the connection limit: 503 with a JSON body and `Connection: close`, without waiting for
// the request; the server keeps accepting and serves again once a slot frees up.
TEST_F(HttpServerTest, OverTheConnectionLimitAnswers503) {
  options_.max_connections = 4;
  options_.header_timeout = milliseconds(60'000);
  StartServer();
  EXPECT_EQ(server_->max_connections(), 4);
  std::vector<RawClient> holders(4);
  for (RawClient& holder : holders) ASSERT_TRUE(holder.Connect(server_->port()));
  ASSERT_TRUE(WaitFor([&] { return server_->stats().active == 4; }));
  for (int i = 0; i < 3; ++i) {
    RawClient extra;
    ASSERT_TRUE(extra.Connect(server_->port()));
    bool closed = false;
    std::string received = extra.ReadUntilClosed(kWaitBound, &closed);
    EXPECT_TRUE(closed);
    EXPECT_EQ(StatusOf(received), 503) << received;
    EXPECT_NE(received.find("Connection: close"), std::string::npos) << received;
    EXPECT_NE(BodyOf(received).find(R"("code":"too_many_connections")"), std::string::npos)
        << received;
  }
  // A client that sent its request before being refused gets the answer too.
  RawClient eager;
  ASSERT_TRUE(eager.Connect(server_->port()));
  ASSERT_TRUE(eager.Send(kHealth));
  EXPECT_EQ(StatusOf(eager.ReadResponse(kWaitBound)), 503);
  EXPECT_GE(server_->stats().rejected, 4u);

  holders[0].Close();
  ASSERT_TRUE(WaitFor([&] { return server_->stats().active == 3; }));
  EXPECT_EQ(Health(), 200);
}

// Size limits hold where the bytes arrive: headers over 16 KiB (431), a chunked body whose
// chunks add up past 64 KiB (413), and an endless chunk extension or trailer, which Beast's
// parser would buffer without limit (400, answered before the body deadline).
TEST_F(HttpServerTest, SizeLimitsHoldForChunkedBodies) {
  options_.body_timeout = milliseconds(20'000);
  StartServer();
  auto answer = [&](const std::string& request) {
    RawClient client;
    EXPECT_TRUE(client.Connect(server_->port()));
    client.Send(request);
    return StatusOf(client.ReadResponse(kWaitBound));
  };
  const std::string chunked_post =
      "POST /api/v1/pois HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
      "Transfer-Encoding: chunked\r\n\r\n";
  EXPECT_EQ(answer("GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(20'000, 'h') + "\r\n\r\n"),
            431);
  std::string chunks;
  for (int i = 0; i < 20; ++i) chunks += "1000\r\n" + std::string(4096, ' ') + "\r\n";
  EXPECT_EQ(answer(chunked_post + chunks + "0\r\n\r\n"), 413);
  EXPECT_EQ(answer(chunked_post + "10;ext=" + std::string(100'000, 'e')), 400);
  EXPECT_EQ(answer(chunked_post + "2\r\n{}\r\n0\r\nX-Trailer: " + std::string(100'000, 't')), 400);
  EXPECT_EQ(Health(), 200);
}

// An accept that fails for want of descriptors (EMFILE) is retried: the connection waiting in
// the backlog is served once descriptors are available again.
TEST_F(HttpServerTest, AcceptErrorsAreRetried) {
  StartServer();
  RawClient client;
  ASSERT_TRUE(client.Open());
  rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
  // The lowest free descriptor becomes the limit: nothing new can be opened.
  int lowest_free = ::dup(0);
  ASSERT_GE(lowest_free, 0);
  ::close(lowest_free);
  rlimit starved = saved;
  starved.rlim_cur = static_cast<rlim_t>(lowest_free);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &starved), 0);
  bool connected = client.Connect(server_->port());
  bool accept_failed = WaitFor([&] { return server_->stats().accept_errors > 0; });
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &saved), 0);
  ASSERT_TRUE(connected);
  EXPECT_TRUE(accept_failed);
  ASSERT_TRUE(client.Send(kHealth));
  EXPECT_EQ(StatusOf(client.ReadResponse(kWaitBound)), 200);
  EXPECT_EQ(Health(), 200);
}

// Stop() closes idle keep-alive connections on their strands and returns promptly.
TEST_F(HttpServerTest, StopClosesIdleConnections) {
  options_.idle_timeout = milliseconds(60'000);
  StartServer();
  std::vector<RawClient> clients(20);
  for (RawClient& client : clients) {
    ASSERT_TRUE(client.Connect(server_->port()));
    ASSERT_TRUE(client.Send(kHealth));
    ASSERT_EQ(StatusOf(client.ReadResponse(kWaitBound)), 200);
  }
  server_->Stop();
  for (RawClient& client : clients) {
    bool closed = false;
    EXPECT_EQ(client.ReadUntilClosed(kWaitBound, &closed), "");
    EXPECT_TRUE(closed);
  }
}

}  // namespace
}  // namespace hotel

namespace hotel {
namespace {

// HTTPS: served with the certificate to a client that trusts it; the server's context allows
// nothing older than TLS 1.2 (whatever the system's OpenSSL policy), and a client offering
// only TLS 1.1 is refused; a plain-HTTP client on the HTTPS port gets no answer; the
// server goes on serving.
TEST_F(HttpServerTest, HttpsServesTls12AndLaterOnly) {
  SelfSigned files;
  if (!files.ok) GTEST_SKIP() << "no openssl command to make a certificate";
  auto context = NewTlsServerContext(files.certificate, files.key);
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  EXPECT_EQ(SSL_CTX_get_min_proto_version((*context)->native_handle()), TLS1_2_VERSION);
  EXPECT_EQ(NewTlsServerContext(files.certificate, "/nonexistent.pem").status().code(),
            common::StatusCode::kInvalid);
  EXPECT_EQ(NewTlsServerContext(files.key, files.key).status().code(),
            common::StatusCode::kInvalid);

  options_.tls_certificate_file = files.certificate;
  options_.tls_key_file = files.key;
  StartServer();
  EXPECT_EQ(TlsGet(server_->port(), files.certificate, "/health/live"), 200);
  EXPECT_EQ(TlsGet(server_->port(), files.certificate, "/health/live", TLS1_1_VERSION), 0);
  RawClient plain;
  ASSERT_TRUE(plain.Connect(server_->port()));
  ASSERT_TRUE(plain.Send(kHealth));
  bool closed = false;
  std::string received = plain.ReadUntilClosed(kWaitBound, &closed);
  EXPECT_TRUE(closed);
  EXPECT_EQ(StatusOf(received), 0) << received;
  EXPECT_EQ(TlsGet(server_->port(), files.certificate, "/health/live"), 200);
}

// The deadlines and the connection limit hold before and during the handshake: a client that
// stalls in the middle of its ClientHello is closed at the header deadline, and while it holds
// the only slot, a TLS client gets the 503 (over TLS).
TEST_F(HttpServerTest, HttpsHandshakesHaveTheHeaderDeadlineAndTheLimit) {
  SelfSigned files;
  if (!files.ok) GTEST_SKIP() << "no openssl command to make a certificate";
  options_.tls_certificate_file = files.certificate;
  options_.tls_key_file = files.key;
  options_.header_timeout = milliseconds(1000);
  options_.max_connections = 1;
  StartServer();
  RawClient stalled;
  ASSERT_TRUE(stalled.Connect(server_->port()));
  ASSERT_TRUE(stalled.Send(std::string("\x16\x03\x01\x02\x00\x01", 6)));  // a cut record
  ASSERT_TRUE(WaitFor([&] { return server_->stats().active == 1; }));
  EXPECT_EQ(TlsGet(server_->port(), files.certificate, "/health/live"), 503);
  bool closed = false;
  std::string received = stalled.ReadUntilClosed(kWaitBound, &closed);
  EXPECT_TRUE(closed);
  EXPECT_GE(server_->stats().timeouts, 1u);
  ASSERT_TRUE(WaitFor([&] { return server_->stats().active == 0; }));
  EXPECT_EQ(TlsGet(server_->port(), files.certificate, "/health/live"), 200);
}

}  // namespace
}  // namespace hotel
