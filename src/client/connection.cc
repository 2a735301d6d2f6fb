#include "client/connection.h"

#include <utility>

#include <fmt/format.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "cql/types/types.h"

namespace client {

namespace asio = boost::asio;
using common::Bytes;
using common::Result;
using common::Status;
using common::StatusCode;

namespace {

constexpr size_t kMaxStreams = 32768;

bool MentionsVersion(const std::string& message) {
  return message.find("version") != std::string::npos ||
         message.find("Version") != std::string::npos;
}

}  // namespace

protocol::Request StartupRequest(protocol::Compression compression) {
  protocol::StartupRequest startup;
  startup.options = {
      {"CQL_VERSION", "3.0.0"}, {"DRIVER_NAME", "cqld C++ driver"}, {"DRIVER_VERSION", "0.1.0"}};
  if (compression != protocol::Compression::kNone) {
    startup.options.emplace_back("COMPRESSION",
                                 std::string(protocol::CompressionName(compression)));
  }
  return startup;
}

Result<protocol::Request> PlainAuthResponse(const ConnectionSettings& settings,
                                            const std::string& address,
                                            const std::string& authenticator) {
  if (settings.username.empty()) {
    return Status(StatusCode::kAuthenticationError,
                  fmt::format("Host {} requires authentication (authenticator {}), but no "
                              "username/password was given",
                              address, authenticator));
  }
  // SASL PLAIN: an empty authorization id, the user and the password, NUL-separated.
  Bytes token;
  token.push_back('\0');
  token += settings.username;
  token.push_back('\0');
  token += settings.password;
  return protocol::Request(protocol::AuthResponseRequest{std::move(token)});
}

Status CheckAuthSuccess(const Response& answer, const std::string& address) {
  if (answer.opcode == protocol::Opcode::kAuthSuccess) return Status::Ok();
  return Status(StatusCode::kAuthenticationError,
                fmt::format("Unexpected {} from {} during authentication (only SASL PLAIN "
                            "with PasswordAuthenticator is supported)",
                            protocol::OpcodeName(answer.opcode), address));
}

protocol::Request UseRequest(const std::string& keyspace) {
  protocol::QueryRequest use;
  use.query = "USE " + cql::QuoteIdentifierIfNeeded(keyspace);
  return use;
}

Result<Response> DecodeResponse(protocol::Envelope envelope) {
  ASSIGN_OR_RETURN(protocol::ResponsePrefix prefix, protocol::DecodeResponsePrefix(envelope));
  if (envelope.header.opcode == protocol::Opcode::kError) {
    ASSIGN_OR_RETURN(protocol::ErrorResponse error, protocol::DecodeError(prefix.rest));
    return error.ToStatus();
  }
  Response response;
  response.opcode = envelope.header.opcode;
  // The body proper is the envelope's tail: keep its bytes rather than copy them (no prefix
  // without tracing or warnings, so usually nothing moves).
  size_t length = prefix.rest.size();
  size_t offset = length == 0 ? 0 : static_cast<size_t>(prefix.rest.data() - envelope.body.data());
  response.body = std::move(envelope.body);
  if (offset > 0) response.body.erase(0, offset);
  response.body.resize(length);
  response.warnings = std::move(prefix.warnings);
  response.tracing_id = std::move(prefix.tracing_id);
  return response;
}

std::shared_ptr<Connection> Connection::Create(asio::io_context& io) {
  return std::shared_ptr<Connection>(new Connection(io));
}

Connection::Connection(asio::io_context& io)
    : io_(io), write_wakeup_(io, asio::steady_timer::time_point::max()) {}

Connection::~Connection() {
  if (transport_) transport_->Close();
}

asio::awaitable<Status> Connection::Open(ConnectionSettings settings) {
  address_ = settings.host.find(':') != std::string::npos
                 ? fmt::format("[{}]:{}", settings.host, settings.port)
                 : fmt::format("{}:{}", settings.host, settings.port);
  version_ = settings.version;
  transport_ = std::make_unique<Transport>(io_, settings.tls, settings.verify_hostname);
  size_t streams = std::min(std::max<size_t>(settings.max_in_flight, 1), kMaxStreams);
  slots_.resize(streams);
  free_streams_.reserve(streams);
  for (size_t i = streams; i > 0; --i) free_streams_.push_back(static_cast<int16_t>(i - 1));

  // The deadline covers the TCP connect and the whole handshake: on expiry it breaks the
  // connection, which fails whatever step is waiting.
  auto timed_out = std::make_shared<bool>(false);
  auto deadline = std::make_shared<asio::steady_timer>(io_, settings.connect_timeout);
  std::weak_ptr<Connection> weak = weak_from_this();
  deadline->async_wait([weak, timed_out, address = address_,
                        timeout = settings.connect_timeout](boost::system::error_code ec) {
    if (ec) return;
    std::shared_ptr<Connection> self = weak.lock();
    if (!self || self->ready_) return;
    *timed_out = true;
    self->Close(Status::IOError(
        fmt::format("Timed out connecting to {} after {} ms", address, timeout.count())));
  });

  Status status = co_await Handshake(settings);
  deadline->cancel();
  if (*timed_out && !status.ok()) {
    status = Status::IOError(fmt::format("Timed out connecting to {} after {} ms", address_,
                                         settings.connect_timeout.count()));
  }
  if (!status.ok()) {
    Close(status);
    co_return status;
  }
  ready_ = true;
  co_return Status::Ok();
}

asio::awaitable<Status> Connection::Handshake(const ConnectionSettings& settings) {
  boost::system::error_code error;
  asio::ip::tcp::resolver resolver(io_);
  auto endpoints =
      co_await resolver.async_resolve(settings.host, std::to_string(settings.port),
                                      asio::redirect_error(asio::use_awaitable, error));
  if (error) {
    co_return Status::IOError(fmt::format("Cannot resolve {}: {}", address_, error.message()));
  }
  if (broken_) co_return Status::IOError(fmt::format("Timed out connecting to {}", address_));
  Status connected = co_await transport_->Connect(endpoints, settings.host, address_);
  if (!connected.ok()) co_return connected;
  if (broken_) co_return Status::IOError(fmt::format("Timed out connecting to {}", address_));
  asio::co_spawn(io_, ReadLoop(shared_from_this()), asio::detached);
  asio::co_spawn(io_, WriteLoop(shared_from_this()), asio::detached);

  auto refused = [this](const Status& status) {
    if (status.code() == StatusCode::kProtocolError &&
        ((first_response_version_ && *first_response_version_ != version_) ||
         MentionsVersion(status.message()))) {
      version_refused_ = true;
    }
    return status;
  };

  protocol::Compression compression = settings.compression;
  if (version_ >= 5 && compression == protocol::Compression::kSnappy) {
    compression = protocol::Compression::kNone;  // v5 segments are lz4 or raw
  }
  if (compression != protocol::Compression::kNone) {
    // Named requests: GCC 12 mishandles temporaries inside co_await expressions.
    protocol::Request options_request = protocol::OptionsRequest{};
    Result<Response> supported = co_await Call(options_request, settings.request_timeout);
    if (!supported.ok()) co_return refused(supported.status());
    Result<protocol::SupportedResponse> decoded = protocol::DecodeSupported(supported->body);
    if (!decoded.ok()) co_return decoded.status();
    bool offered = false;
    for (const auto& [key, values] : decoded->options) {
      if (key != "COMPRESSION") continue;
      for (const std::string& value : values) {
        if (protocol::ParseCompression(value) == compression) offered = true;
      }
    }
    if (!offered) compression = protocol::Compression::kNone;
  }
  compression_ = compression;

  protocol::Request startup_request = StartupRequest(compression);
  Result<Response> answer = co_await Call(startup_request, settings.request_timeout);
  if (!answer.ok()) co_return refused(answer.status());
  if (answer->opcode == protocol::Opcode::kAuthenticate) {
    Result<protocol::AuthenticateResponse> authenticate =
        protocol::DecodeAuthenticate(answer->body);
    if (!authenticate.ok()) co_return authenticate.status();
    Status status = co_await Authenticate(settings, authenticate->authenticator);
    if (!status.ok()) co_return status;
  } else if (answer->opcode != protocol::Opcode::kReady) {
    co_return Status::ProtocolError(fmt::format("Expected READY or AUTHENTICATE from {}, got {}",
                                                address_, protocol::OpcodeName(answer->opcode)));
  }

  if (!settings.keyspace.empty()) {
    protocol::Request use_request = UseRequest(settings.keyspace);
    Result<Response> used = co_await Call(use_request, settings.request_timeout);
    if (used.ok()) {
      keyspace_ = settings.keyspace;
    } else if (used.status().code() == StatusCode::kIOError) {
      co_return used.status();
    }
    // Otherwise the keyspace is gone (dropped, or a fresh server): the connection stays usable
    // without one, like the session's own statements would be; keyspace() tells.
  }
  co_return Status::Ok();
}

asio::awaitable<Status> Connection::Authenticate(const ConnectionSettings& settings,
                                                 const std::string& authenticator) {
  Result<protocol::Request> request = PlainAuthResponse(settings, address_, authenticator);
  if (!request.ok()) co_return request.status();
  Result<Response> answer = co_await Call(*request, settings.request_timeout);
  if (!answer.ok()) co_return answer.status();
  co_return CheckAuthSuccess(*answer, address_);
}

void Connection::Send(const protocol::Request& request, std::chrono::milliseconds timeout,
                      Callback done) {
  if (broken_) {
    done(Status::IOError(fmt::format("Connection to {} is closed", address_)));
    return;
  }
  if (free_streams_.empty()) {
    done(Status::IOError(fmt::format("No free stream id on the connection to {}", address_)));
    return;
  }
  int16_t stream = free_streams_.back();
  free_streams_.pop_back();
  Slot& slot = slots_[static_cast<size_t>(stream)];
  slot.callback = std::move(done);
  slot.orphaned = false;
  slot.request_opcode = protocol::RequestOpcode(request);
  ++in_flight_;
  slot.timer = std::make_unique<asio::steady_timer>(io_, timeout);
  asio::steady_timer* timer = slot.timer.get();
  std::weak_ptr<Connection> weak = weak_from_this();
  timer->async_wait([weak, stream, timer](boost::system::error_code ec) {
    if (ec) return;
    std::shared_ptr<Connection> self = weak.lock();
    // The slot may have been completed and reused meanwhile: only its own timer counts.
    if (self && self->slots_[static_cast<size_t>(stream)].timer.get() == timer) {
      self->OnTimeout(stream);
    }
  });

  protocol::EnvelopeHeader header;
  header.version = version_;
  header.stream = stream;
  header.opcode = slot.request_opcode;
  if (protocol::TracingRequested(request)) header.flags = protocol::kFlagTracing;
  writer_.Add(header, protocol::EncodeRequestBody(request, version_));
  if (!writing_) write_wakeup_.cancel();
}

asio::awaitable<Result<Response>> Connection::Call(const protocol::Request& request,
                                                   std::chrono::milliseconds timeout) {
  std::optional<Result<Response>> result;
  asio::steady_timer done(io_, asio::steady_timer::time_point::max());
  Send(request, timeout, [&](Result<Response> response) {
    result = std::move(response);
    done.cancel();
  });
  while (!result.has_value()) {
    boost::system::error_code ignored;
    co_await done.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
  }
  co_return std::move(*result);
}

void Connection::OnTimeout(int16_t stream) {
  Slot& slot = slots_[static_cast<size_t>(stream)];
  if (!slot.callback) return;
  Callback callback = std::move(slot.callback);
  slot.callback = nullptr;
  slot.orphaned = true;  // invariant 2: the id waits for the late response
  --in_flight_;
  callback(Status::IOError(
      fmt::format("Request timed out: no response from {} (stream {})", address_, stream)));
}

void Connection::ReleaseStream(int16_t stream) {
  Slot& slot = slots_[static_cast<size_t>(stream)];
  slot.timer.reset();
  slot.orphaned = false;
  free_streams_.push_back(stream);
}

asio::awaitable<void> Connection::WriteLoop(std::shared_ptr<Connection> /*self: kept alive*/) {
  Bytes buffer;
  while (!broken_) {
    buffer.clear();
    writer_.Flush(&buffer);
    if (buffer.empty()) {
      boost::system::error_code ignored;
      write_wakeup_.expires_at(asio::steady_timer::time_point::max());
      co_await write_wakeup_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
      continue;
    }
    writing_ = true;
    boost::system::error_code error;
    co_await transport_->Write(asio::buffer(buffer), error);
    writing_ = false;
    if (error) {
      Close(Status::IOError(
          fmt::format("Connection to {} broke: {}", address_, Transport::ErrorText(error))));
    }
  }
}

asio::awaitable<void> Connection::ReadLoop(std::shared_ptr<Connection> /*self: kept alive*/) {
  std::vector<char> buffer(64 * 1024);
  while (!broken_) {
    boost::system::error_code error;
    size_t n = co_await transport_->ReadSome(asio::buffer(buffer), error);
    if (error) {
      std::string reason;
      if (Transport::IsTlsError(error) && !ready_) {
        // With TLS 1.3 the server checks the client's certificate after the client finished
        // its handshake: the refusal arrives as the first read.
        reason =
            fmt::format("TLS handshake with {} failed: {}", address_, Transport::ErrorText(error));
      } else if (Transport::IsClosedByPeer(error)) {
        reason = fmt::format("Connection to {} was closed by the server", address_);
      } else {
        reason = fmt::format("Connection to {} broke: {}", address_, Transport::ErrorText(error));
      }
      Close(Status::IOError(reason));
      co_return;
    }
    reader_.Append(std::string_view(buffer.data(), n));
    while (!broken_) {
      Result<std::optional<protocol::Envelope>> next = reader_.Next();
      if (!next.ok()) {
        Close(Status::IOError(
            fmt::format("Bad data from {}: {}", address_, next.status().message())));
        co_return;
      }
      if (!next->has_value()) break;
      Dispatch(std::move(**next));
    }
  }
}

void Connection::Dispatch(protocol::Envelope envelope) {
  if (!first_response_version_) first_response_version_ = envelope.header.version;
  int16_t stream = envelope.header.stream;
  if (stream < 0) return;  // an EVENT: the driver does not REGISTER, so none is expected
  if (static_cast<size_t>(stream) >= slots_.size() ||
      (!slots_[static_cast<size_t>(stream)].callback &&
       !slots_[static_cast<size_t>(stream)].orphaned)) {
    Close(Status::IOError(fmt::format("Response from {} on unknown stream {}", address_, stream)));
    return;
  }
  Slot& slot = slots_[static_cast<size_t>(stream)];
  if (slot.orphaned) {  // the late response of a timed-out request
    ReleaseStream(stream);
    return;
  }
  Callback callback = std::move(slot.callback);
  slot.callback = nullptr;
  protocol::Opcode request_opcode = slot.request_opcode;
  --in_flight_;
  ReleaseStream(stream);

  protocol::Opcode opcode = envelope.header.opcode;
  if (request_opcode == protocol::Opcode::kStartup &&
      (opcode == protocol::Opcode::kReady || opcode == protocol::Opcode::kAuthenticate)) {
    // Invariant 4: switch framing before anything else is read or written.
    if (version_ >= 5) {
      reader_.StartSegments(compression_);
      writer_.StartSegments(compression_);
    } else if (compression_ != protocol::Compression::kNone) {
      reader_.SetEnvelopeCompression(compression_);
      writer_.SetEnvelopeCompression(compression_);
    }
  }

  callback(DecodeResponse(std::move(envelope)));
}

void Connection::Close(const Status& reason) {
  if (broken_) return;
  std::shared_ptr<Connection> keep = shared_from_this();
  broken_ = true;
  if (transport_) transport_->Close();
  write_wakeup_.cancel();
  for (size_t stream = 0; stream < slots_.size(); ++stream) {
    Slot& slot = slots_[stream];
    slot.timer.reset();
    slot.orphaned = false;
    if (!slot.callback) continue;
    Callback callback = std::move(slot.callback);
    slot.callback = nullptr;
    --in_flight_;
    callback(reason);
  }
  if (close_handler_) {
    CloseHandler handler = std::move(close_handler_);
    close_handler_ = nullptr;
    handler(reason);
  }
}

}  // namespace client
