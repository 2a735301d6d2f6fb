#include "client/direct_connection.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

namespace client {

using common::Result;
using common::Status;
using common::StatusCode;

namespace {

constexpr int16_t kStream = 0;  // invariant 1
constexpr size_t kReadChunk = 64 * 1024;

std::string Address(const ConnectionSettings& settings) {
  return settings.host.find(':') != std::string::npos
             ? fmt::format("[{}]:{}", settings.host, settings.port)
             : fmt::format("{}:{}", settings.host, settings.port);
}

// Connects a blocking TCP socket to `address` within `timeout` (a non-blocking connect polled
// for completion). Returns the socket or the system's reason.
Result<int> ConnectOne(const addrinfo& address, std::chrono::milliseconds timeout) {
  int fd = ::socket(address.ai_family, address.ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                    address.ai_protocol);
  if (fd < 0) return Status::IOError(std::strerror(errno));
  int error = 0;
  if (::connect(fd, address.ai_addr, address.ai_addrlen) != 0) {
    error = errno;
    if (error == EINPROGRESS) {
      pollfd waiting{fd, POLLOUT, 0};
      int ready = ::poll(&waiting, 1, static_cast<int>(timeout.count()));
      socklen_t length = sizeof(error);
      if (ready == 0) {
        error = ETIMEDOUT;
      } else if (ready < 0 || ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0) {
        error = errno;
      }
    }
  }
  int flags = 1;
  if (error == 0 && (::fcntl(fd, F_SETFL, 0) != 0 ||
                     ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &flags, sizeof(flags)) != 0)) {
    error = errno;
  }
  if (error != 0) {
    ::close(fd);
    return Status::IOError(std::strerror(error));
  }
  return fd;
}

}  // namespace

Result<std::unique_ptr<DirectConnection>> DirectConnection::Open(
    const ConnectionSettings& settings) {
  std::string address = Address(settings);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  int resolved =
      ::getaddrinfo(settings.host.c_str(), std::to_string(settings.port).c_str(), &hints, &found);
  if (resolved != 0) {
    return Status::IOError(fmt::format("Cannot resolve {}: {}", address, ::gai_strerror(resolved)));
  }
  Result<int> fd = Status::IOError("no address");
  for (addrinfo* candidate = found; candidate != nullptr; candidate = candidate->ai_next) {
    fd = ConnectOne(*candidate, settings.connect_timeout);
    if (fd.ok()) break;
  }
  ::freeaddrinfo(found);
  if (!fd.ok()) {
    return Status::IOError(fmt::format("Cannot connect to {}: {}", address, fd.status().message()));
  }
  std::unique_ptr<DirectConnection> connection(
      new DirectConnection(*fd, std::move(address), settings.version));
  RETURN_IF_ERROR(connection->Handshake(settings));
  return connection;
}

DirectConnection::DirectConnection(int fd, std::string address, uint8_t version)
    : fd_(fd), address_(std::move(address)), version_(version), buffer_(kReadChunk) {}

DirectConnection::~DirectConnection() {
  if (fd_ >= 0) ::close(fd_);
}

Status DirectConnection::Handshake(const ConnectionSettings& settings) {
  auto failed = [&](const Status& status) {
    if (!timed_out_) return status;
    return Status::IOError(fmt::format("Timed out connecting to {} after {} ms", address_,
                                       settings.connect_timeout.count()));
  };
  // The handshake's requests share settings.connect_timeout.
  const auto end = std::chrono::steady_clock::now() + settings.connect_timeout;
  auto left = [&end] {
    return std::max(std::chrono::milliseconds(1), std::chrono::ceil<std::chrono::milliseconds>(
                                                      end - std::chrono::steady_clock::now()));
  };
  Result<Response> answer = Call(StartupRequest(protocol::Compression::kNone), left());
  if (!answer.ok()) return failed(answer.status());
  if (version_ >= 5 && (answer->opcode == protocol::Opcode::kReady ||
                        answer->opcode == protocol::Opcode::kAuthenticate)) {
    reader_.StartSegments(protocol::Compression::kNone);
    writer_.StartSegments(protocol::Compression::kNone);
  }
  if (answer->opcode == protocol::Opcode::kAuthenticate) {
    ASSIGN_OR_RETURN(protocol::AuthenticateResponse authenticate,
                     protocol::DecodeAuthenticate(answer->body));
    ASSIGN_OR_RETURN(protocol::Request token,
                     PlainAuthResponse(settings, address_, authenticate.authenticator));
    Result<Response> done = Call(token, left());
    if (!done.ok()) return failed(done.status());
    RETURN_IF_ERROR(CheckAuthSuccess(*done, address_));
  } else if (answer->opcode != protocol::Opcode::kReady) {
    return Status::ProtocolError(fmt::format("Expected READY or AUTHENTICATE from {}, got {}",
                                             address_, protocol::OpcodeName(answer->opcode)));
  }
  if (!settings.keyspace.empty()) {
    Result<Response> used = Call(UseRequest(settings.keyspace), left());
    if (used.ok()) {
      keyspace_ = settings.keyspace;
    } else if (used.status().code() == StatusCode::kIOError) {
      return failed(used.status());
    }
  }
  return Status::Ok();
}

Result<Response> DirectConnection::Call(const protocol::Request& request,
                                        std::chrono::milliseconds timeout) {
  deadline_ = std::chrono::steady_clock::now() + timeout;
  if (timeout != timeout_) RETURN_IF_ERROR(SetTimeout(timeout));
  RETURN_IF_ERROR(Send(request));
  ASSIGN_OR_RETURN(protocol::Envelope envelope, Receive());
  return DecodeResponse(std::move(envelope));
}

Status DirectConnection::SetTimeout(std::chrono::milliseconds timeout) {
  timeval value{};
  value.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  value.tv_usec = static_cast<suseconds_t>(timeout.count() % 1000 * 1000);
  if (::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &value, sizeof(value)) != 0 ||
      ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &value, sizeof(value)) != 0) {
    return Fail(
        Status::IOError(fmt::format("Connection to {} broke: {}", address_, std::strerror(errno))));
  }
  timeout_ = timeout;
  return Status::Ok();
}

Status DirectConnection::KeepDeadline() {
  auto left =
      std::chrono::ceil<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now());
  if (left <= std::chrono::milliseconds(0)) return Fail(SocketError(EAGAIN));
  if (left < timeout_) return SetTimeout(left);
  return Status::Ok();
}

Status DirectConnection::Send(const protocol::Request& request) {
  protocol::EnvelopeHeader header;
  header.version = version_;
  header.stream = kStream;
  header.opcode = protocol::RequestOpcode(request);
  if (protocol::TracingRequested(request)) header.flags = protocol::kFlagTracing;
  writer_.Add(header, protocol::EncodeRequestBody(request, version_));
  out_.clear();
  writer_.Flush(&out_);
  size_t sent = 0;
  while (sent < out_.size()) {
    RETURN_IF_ERROR(KeepDeadline());
    ssize_t n = ::send(fd_, out_.data() + sent, out_.size() - sent, MSG_NOSIGNAL);
    if (n >= 0) {
      sent += static_cast<size_t>(n);
    } else if (errno != EINTR) {
      return Fail(SocketError(errno));
    }
  }
  return Status::Ok();
}

Result<protocol::Envelope> DirectConnection::Receive() {
  for (;;) {
    Result<std::optional<protocol::Envelope>> next = reader_.Next();
    if (!next.ok()) {
      return Fail(
          Status::IOError(fmt::format("Bad data from {}: {}", address_, next.status().message())));
    }
    if (next->has_value()) {
      protocol::Envelope envelope = std::move(**next);
      if (envelope.header.stream < 0) continue;  // an EVENT: never registered for, skipped
      if (envelope.header.stream != kStream) {
        return Fail(Status::IOError(fmt::format("Response from {} on unknown stream {}", address_,
                                                envelope.header.stream)));
      }
      return envelope;
    }
    RETURN_IF_ERROR(KeepDeadline());
    ssize_t n = ::recv(fd_, buffer_.data(), buffer_.size(), 0);
    if (n > 0) {
      reader_.Append(std::string_view(buffer_.data(), static_cast<size_t>(n)));
    } else if (n == 0) {
      return Fail(
          Status::IOError(fmt::format("Connection to {} was closed by the server", address_)));
    } else if (errno != EINTR) {
      return Fail(SocketError(errno));
    }
  }
}

bool DirectConnection::StillOpen() {
  if (fd_ < 0) return false;
  char byte = 0;
  ssize_t n = ::recv(fd_, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
  (void)Fail(Status::Ok());
  return false;
}

Status DirectConnection::SocketError(int error) {
  if (error == EAGAIN || error == EWOULDBLOCK) {  // the socket timeout (invariant 3)
    timed_out_ = true;
    return Status::IOError(
        fmt::format("Request timed out: no response from {} (stream {})", address_, kStream));
  }
  return Status::IOError(fmt::format("Connection to {} broke: {}", address_, std::strerror(error)));
}

Status DirectConnection::Fail(Status status) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  return status;
}

}  // namespace client
