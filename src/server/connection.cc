#include "server/connection.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <map>
#include <string_view>
#include <utility>
#include <variant>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "common/ascii.h"
#include "common/logging.h"
#include "common/status.h"
#include "server/server_metrics.h"

namespace server {
namespace {

namespace asio = boost::asio;
using common::Status;

constexpr auto kUseAwaitable = asio::as_tuple(asio::use_awaitable);
constexpr size_t kReadBufferSize = 64 * 1024;
// How long a failed connection keeps reading (and discarding) before it closes (design 6).
constexpr std::chrono::seconds kDrainTimeout(1);

// Checks STARTUP's CQL_VERSION: any 3.x or later (Cassandra refuses below 3.0.0).
Status CheckCqlVersion(std::string_view version) {
  size_t digits = 0;
  while (digits < version.size() && std::isdigit(static_cast<unsigned char>(version[digits]))) {
    ++digits;
  }
  bool well_formed = digits > 0 && digits <= 9 &&
                     (digits == version.size() || version[digits] == '.' || version[digits] == '-');
  if (!well_formed) {
    return Status::ProtocolError(fmt::format("Invalid version value: {}", version));
  }
  int major = std::stoi(std::string(version.substr(0, digits)));
  if (major < 3) {
    return Status::ProtocolError(fmt::format(
        "CQL version {} is not supported by the binary protocol (supported version are >= 3.0.0)",
        version));
  }
  return Status::Ok();
}

Response SupportedBody() {
  protocol::SupportedResponse supported;
  supported.options = {{"CQL_VERSION", {"3.4.6"}},
                       {"COMPRESSION", {"lz4", "snappy"}},
                       {"PROTOCOL_VERSIONS", {"4/v4", "5/v5"}}};
  common::ByteWriter out;
  protocol::EncodeSupported(supported, &out);
  return Response{protocol::Opcode::kSupported, 0, out.Release()};
}

Response ReadyBody() {
  common::ByteWriter out;
  protocol::EncodeReady(&out);
  return Response{protocol::Opcode::kReady, 0, out.Release()};
}

Response AuthenticateBody() {
  protocol::AuthenticateResponse authenticate;
  authenticate.authenticator = std::string(RequestHandler::kAuthenticatorClass);
  common::ByteWriter out;
  protocol::EncodeAuthenticate(authenticate, &out);
  return Response{protocol::Opcode::kAuthenticate, 0, out.Release()};
}

Response AuthSuccessBody() {
  common::ByteWriter out;
  out.PutNullIntBytes();  // no final SASL token
  return Response{protocol::Opcode::kAuthSuccess, 0, out.Release()};
}

// How long a failed login waits before its answer: guessing passwords over one connection gets
// slow, and the answer's timing says nothing about why it failed.
constexpr std::chrono::milliseconds kFailedLoginDelay(1000);

}  // namespace

std::optional<FirstHeader> ParseFirstHeader(std::string_view bytes) {
  if (bytes.empty()) return std::nullopt;
  FirstHeader header;
  header.version = static_cast<uint8_t>(bytes[0]) & 0x7F;
  if (header.version >= 3) {
    if (bytes.size() < 4) return std::nullopt;
    header.stream = static_cast<int16_t>(common::LoadBigEndian16(bytes.data() + 2));
  } else {
    if (bytes.size() < 3) return std::nullopt;
    header.stream = static_cast<int16_t>(static_cast<int8_t>(bytes[2]));
  }
  return header;
}

uint8_t AnswerVersion(uint8_t version) {
  return std::clamp(version, protocol::kMinVersion, protocol::kMaxVersion);
}

Connection::Connection(asio::ip::tcp::socket socket, const ConnectionContext* context,
                       std::shared_ptr<ConnectionRegistry> registry, TransportSecurity security)
    : transport_(std::move(socket)),
      strand_(transport_.socket().get_executor()),
      security_(std::move(security)),
      context_(context),
      registry_(std::move(registry)),
      reader_(std::min(kMaxHandshakeEnvelopeBody, context->limits.max_envelope_body)),
      memory_(context->budget),
      read_wake_(strand_),
      write_wake_(strand_),
      deadline_(strand_),
      read_buffer_(kReadBufferSize) {
  boost::system::error_code ec;
  auto remote = transport_.socket().remote_endpoint(ec);
  peer_ = ec ? std::string("?") : fmt::format("{}:{}", remote.address().to_string(), remote.port());
  if (!ec) keyspace_.SetClientEndpoint(remote.address().to_string(), remote.port());
  client_.address = ec ? "0.0.0.0" : remote.address().to_string();
  client_.hostname = client_.address;
  client_.port = ec ? 0 : remote.port();
  client_.connection_stage = "established";
  transport_.socket().set_option(asio::ip::tcp::no_delay(true), ec);
  NativeMetrics::Get().connections.Add(1);
}

Connection::~Connection() { NativeMetrics::Get().connections.Add(-1); }

void Connection::Start() {
  auto self = shared_from_this();
  asio::post(strand_, [self]() {
    self->loops_running_ = 2;
    self->started_ = std::chrono::steady_clock::now();
    self->last_activity_ = self->started_;
    self->ArmDeadline();
    asio::co_spawn(self->strand_, self->ReadLoop(), asio::detached);
    asio::co_spawn(self->strand_, self->WriteLoop(), asio::detached);
  });
}

void Connection::Shutdown() {
  auto self = shared_from_this();
  asio::post(strand_, [self]() {
    self->closing_ = true;
    self->read_cancel_.emit(asio::cancellation_type::terminal);
    self->WakeReader();
    self->WakeWriter();
  });
}

void Connection::ForceClose() {
  auto self = shared_from_this();
  asio::post(strand_, [self]() { self->Abandon(); });
}

void Connection::Abandon() {
  closing_ = true;
  write_failed_ = true;  // nothing more is written
  CloseSocket();
  WakeReader();
  WakeWriter();
}

void Connection::PushSchemaChange(const cql::SchemaChangeEvent& event) {
  auto self = shared_from_this();
  asio::post(strand_, [self, event]() {
    if (!self->ready_ || self->closing_ || self->write_failed_) return;
    if (self->PendingOutput() > kMaxPendingOutputForEvents) {
      LOG_WARNING("dropping a schema change event for {}: it does not read its responses",
                  self->peer_);
      return;
    }
    common::ByteWriter out;
    protocol::EncodeSchemaChangeEvent(event, &out);
    self->Queue(-1, Response{protocol::Opcode::kEvent, 0, out.Release()});
  });
}

asio::awaitable<void> Connection::Wait(asio::steady_timer* timer) {
  timer->expires_at(asio::steady_timer::time_point::max());
  co_await timer->async_wait(kUseAwaitable);
}

void Connection::WakeReader() { read_wake_.cancel(); }
void Connection::WakeWriter() { write_wake_.cancel(); }

asio::awaitable<void> Connection::ReadLoop() {
  auto self = shared_from_this();
  try {
    if (!co_await AcceptTransport()) closing_ = true;
    while (!closing_) {
      // Decode what is buffered, within the limits (design 4).
      while (!closing_) {
        if (!version_) {
          if (!Negotiate()) break;
          continue;
        }
        if (!MayDecode() || !ReserveMemory(ReservedResponse())) {
          co_await Wait(&read_wake_);
          continue;
        }
        auto next = reader_.Next();
        if (!next.ok()) {
          const std::optional<protocol::EnvelopeHeader>& failed = reader_.failed_header();
          FailConnection(failed ? failed->stream : 0, next.status());
          break;
        }
        if (!next->has_value()) break;
        last_activity_ = std::chrono::steady_clock::now();
        HandleEnvelope(std::move(**next));
      }
      if (closing_) break;
      if (!ReserveMemory(kReadBufferSize)) {
        co_await Wait(&read_wake_);
        continue;
      }
      read_pending_ = true;
      auto [ec, size] =
          co_await transport_.ReadSome(asio::buffer(read_buffer_), read_cancel_.slot());
      read_pending_ = false;
      if (ec) break;
      NativeMetrics::Get().bytes_received.Increment(size);
      std::string_view bytes(read_buffer_.data(), size);
      if (version_) {
        reader_.Append(bytes);
      } else {
        negotiation_bytes_.append(bytes);
      }
    }
  } catch (const std::exception& e) {
    LOG_ERROR("connection {}: reader failed: {}", peer_, e.what());
  }
  // A connection that stopped reading must not stay queued for memory (design 1 of
  // memory_budget.h: it would block every reservation queued after it).
  memory_.CancelWait();
  reading_done_ = true;
  WakeWriter();
  LoopEnded();
}

asio::awaitable<void> Connection::WriteLoop() {
  auto self = shared_from_this();
  try {
    while (!write_failed_) {
      if (!writer_.empty()) {
        writer_.Flush(&output_);
        unflushed_ = 0;
        SettleMemory();  // compression may have shrunk it
      }
      if (!output_.empty()) {
        writing_.swap(output_);
        auto [ec, size] = co_await transport_.Write(asio::buffer(writing_));
        NativeMetrics::Get().bytes_sent.Increment(size);
        if (writing_.capacity() > kReadBufferSize) {
          common::Bytes().swap(writing_);  // a large response's buffer is not kept
        } else {
          writing_.clear();
        }
        if (ec) {
          write_failed_ = true;
          closing_ = true;
        } else {
          last_activity_ = std::chrono::steady_clock::now();
        }
        SettleMemory();
        WakeReader();
        continue;
      }
      if (reading_done_ && in_flight_ == 0) break;
      co_await Wait(&write_wake_);
    }
    if (drain_on_close_ && !write_failed_) {
      // Design 6: half-close, then discard what the client still sends for a moment.
      transport_.ShutdownSend();
      asio::steady_timer deadline(strand_, kDrainTimeout);
      deadline.async_wait([self](const boost::system::error_code& error) {
        if (!error) self->CloseSocket();
      });
      for (;;) {
        auto [read_ec, size] = co_await transport_.ReadSome(asio::buffer(read_buffer_));
        (void)size;
        if (read_ec) break;
      }
      deadline.cancel();
    }
  } catch (const std::exception& e) {
    LOG_ERROR("connection {}: writer failed: {}", peer_, e.what());
  }
  closing_ = true;
  CloseSocket();
  WakeReader();
  LoopEnded();
}

void Connection::LoopEnded() {
  if (--loops_running_ > 0) return;
  deadline_.cancel();
  registry_->Remove(this);
}

void Connection::CloseSocket() { transport_.Close(); }

asio::awaitable<bool> Connection::AcceptTransport() {
  if (security_.tls) {
    // The TLS state exists from the handshake on: count it first, as a read counts its buffer.
    transport_memory_ = Transport::kTlsMemory;
    while (!closing_ && !ReserveMemory(0)) co_await Wait(&read_wake_);
    if (closing_) co_return false;
  }
  boost::system::error_code ec = co_await transport_.Accept(security_, read_cancel_.slot());
  if (ec) {
    if (!closing_) LOG_INFO("connection {}: TLS handshake failed: {}", peer_, ec.message());
    co_return false;
  }
  if (!transport_.is_tls() && transport_memory_ > 0) {
    transport_memory_ = 0;  // a plaintext client on an optional-TLS port
    SettleMemory();
  }
  if (transport_.is_tls()) {
    std::lock_guard<std::mutex> lock(client_mutex_);
    client_.ssl_enabled = true;
    client_.ssl_protocol = transport_.TlsProtocol();
    client_.ssl_cipher_suite = transport_.TlsCipherSuite();
  }
  transport_ready_ = true;
  co_return true;
}

bool Connection::Negotiate() {
  std::optional<FirstHeader> first = ParseFirstHeader(negotiation_bytes_);
  if (!first) return false;
  uint8_t version = first->version;
  if (version < protocol::kMinVersion || version > protocol::kMaxVersion) {
    FailConnection(
        first->stream,
        Status::ProtocolError(fmt::format("Invalid or unsupported protocol version ({}); "
                                          "supported versions are (4/v4, 5/v5)",
                                          version)),
        AnswerVersion(version),
        // Drivers probe their newest version first (the Python driver asks for DSE's 65 and
        // 66) and retry with the one this answer names: negotiation, not a problem.
        common::LogLevel::kDebug);
    return false;
  }
  version_ = version;
  reader_.Append(negotiation_bytes_);
  negotiation_bytes_.clear();
  negotiation_bytes_.shrink_to_fit();
  return true;
}

void Connection::HandleEnvelope(protocol::Envelope envelope) {
  const protocol::EnvelopeHeader& header = envelope.header;
  int16_t stream = header.stream;
  if (header.is_response) {
    FailConnection(stream, Status::ProtocolError("Invalid message direction: got a response, "
                                                 "expecting a request"));
    return;
  }
  if (header.version != *version_) {
    FailConnection(stream, Status::ProtocolError(fmt::format(
                               "Invalid message version. Got {} but previous messages on this "
                               "connection had version {}",
                               header.version, *version_)));
    return;
  }
  common::Result<protocol::Request> decoded = protocol::DecodeRequest(envelope);
  if (!decoded.ok()) {
    QueueError(stream, decoded.status());
    return;
  }
  protocol::Request& request = *decoded;
  NativeMetrics::Get().Request(header.opcode);
  if (std::holds_alternative<protocol::OptionsRequest>(request)) {
    Queue(stream, SupportedBody());
    return;
  }
  if (const auto* startup = std::get_if<protocol::StartupRequest>(&request)) {
    HandleStartup(stream, *startup);
    return;
  }
  if (authenticating_) {
    if (const auto* auth = std::get_if<protocol::AuthResponseRequest>(&request)) {
      HandleAuthResponse(stream, *auth);
      return;
    }
    QueueError(stream, Status::ProtocolError(
                           fmt::format("Unexpected message {}, expecting SASL_RESPONSE",
                                       protocol::OpcodeName(protocol::RequestOpcode(request)))));
    return;
  }
  if (!ready_) {
    QueueError(stream, Status::ProtocolError(
                           fmt::format("Unexpected message {}, expecting STARTUP or OPTIONS",
                                       protocol::OpcodeName(protocol::RequestOpcode(request)))));
    return;
  }
  if (const auto* reg = std::get_if<protocol::RegisterRequest>(&request)) {
    for (const std::string& type : reg->event_types) {
      if (type == "SCHEMA_CHANGE") schema_events_.store(true, std::memory_order_release);
    }
    Queue(stream, ReadyBody());
    return;
  }
  if (std::holds_alternative<protocol::AuthResponseRequest>(request)) {
    QueueError(stream,
               Status::ProtocolError(
                   "Unexpected message AUTH_RESPONSE, the connection is not authenticating"));
    return;
  }
  Dispatch(stream, std::move(request), protocol::kEnvelopeHeaderSize + envelope.body.size());
}

void Connection::HandleStartup(int16_t stream, const protocol::StartupRequest& startup) {
  if (ready_ || authenticating_) {
    QueueError(stream, Status::ProtocolError(
                           "Unexpected message STARTUP, the connection is already initialized"));
    return;
  }
  std::optional<std::string_view> cql_version = startup.Option("CQL_VERSION");
  if (!cql_version) {
    QueueError(stream, Status::ProtocolError("Missing value CQL_VERSION in STARTUP message"));
    return;
  }
  if (Status status = CheckCqlVersion(*cql_version); !status.ok()) {
    QueueError(stream, status);
    return;
  }
  protocol::Compression compression = protocol::Compression::kNone;
  if (std::optional<std::string_view> name = startup.Option("COMPRESSION")) {
    std::string lower = common::AsciiLower(*name);
    std::optional<protocol::Compression> parsed = protocol::ParseCompression(lower);
    if (!parsed) {
      QueueError(stream,
                 Status::ProtocolError(fmt::format("Unknown compression algorithm: {}", lower)));
      return;
    }
    if (*parsed == protocol::Compression::kSnappy && *version_ >= 5) {
      QueueError(stream,
                 Status::ProtocolError("Snappy compression is not supported in protocol V5"));
      return;
    }
    compression = *parsed;
  }
  {
    std::lock_guard<std::mutex> lock(client_mutex_);
    client_.protocol_version = *version_;
    client_.client_options =
        std::map<std::string, std::string>(startup.options.begin(), startup.options.end());
    if (auto name = startup.Option("DRIVER_NAME")) client_.driver_name = std::string(*name);
    if (auto version = startup.Option("DRIVER_VERSION")) {
      client_.driver_version = std::string(*version);
    }
    client_.connection_stage =
        context_->handler->authentication_required() ? "authenticating" : "ready";
  }
  if (context_->handler->authentication_required()) {
    // The login must complete within the handshake deadline, under the handshake limits.
    Queue(stream, AuthenticateBody());
    authenticating_ = true;
  } else {
    Queue(stream, ReadyBody());
    BecomeReady();
  }
  if (*version_ >= 5) {
    // READY (or AUTHENTICATE) leaves in envelope framing; everything after it in segments
    // (design 3).
    writer_.Flush(&output_);
    unflushed_ = 0;
    writer_.StartSegments(compression);
    reader_.StartSegments(compression);
  } else if (compression != protocol::Compression::kNone) {
    writer_.SetEnvelopeCompression(compression);
    reader_.SetEnvelopeCompression(compression);
  }
}

void Connection::BecomeReady() {
  ready_ = true;
  reader_.set_max_envelope_body(context_->limits.max_envelope_body);
  last_activity_ = std::chrono::steady_clock::now();
  ArmDeadline();  // from the handshake deadline to the idle one
}

void Connection::HandleAuthResponse(int16_t stream, const protocol::AuthResponseRequest& auth) {
  if (auth_in_flight_) {
    QueueError(stream, Status::ProtocolError(
                           "Unexpected message AUTH_RESPONSE, the previous one is not answered"));
    return;
  }
  auth_in_flight_ = true;
  auto self = shared_from_this();
  asio::post(context_->request_executor, [self, stream, token = auth.token]() {
    common::Result<std::string> role =
        self->context_->handler->Authenticate(token, self->keyspace_);
    asio::post(self->strand_, [self, stream, role = std::move(role)]() mutable {
      self->CompleteAuthentication(stream, std::move(role));
    });
  });
}

void Connection::CompleteAuthentication(int16_t stream, common::Result<std::string> role) {
  if (closing_ || write_failed_) return;
  if (role.ok()) {
    auth_in_flight_ = false;
    authenticating_ = false;
    keyspace_.SetUser(std::move(role).value());
    {
      std::lock_guard<std::mutex> lock(client_mutex_);
      client_.connection_stage = "ready";
    }
    Queue(stream, AuthSuccessBody());
    BecomeReady();
    WakeReader();
    return;
  }
  LOG_INFO("connection {}: login refused: {}", peer_, role.status().message());
  auto timer = std::make_shared<asio::steady_timer>(strand_, kFailedLoginDelay);
  auto self = shared_from_this();
  timer->async_wait(
      [self, timer, stream, status = role.status()](const boost::system::error_code&) {
        self->auth_in_flight_ = false;
        if (self->closing_ || self->write_failed_) return;
        self->QueueError(stream, status);
        self->WakeReader();
      });
}

void Connection::Dispatch(int16_t stream, protocol::Request request, size_t request_size) {
  const bool inline_run = RunsInline();
  ++in_flight_;
  request_count_.fetch_add(1, std::memory_order_relaxed);
  context_->activity->pending.fetch_add(1, std::memory_order_relaxed);
  NativeMetrics::Get().requests_in_flight.Add(1);
  size_t estimate = ReservedResponse();
  size_t reserved = request_size + estimate;
  in_flight_reserved_ += reserved;
  in_flight_estimate_ += estimate;
  uint8_t version = *version_;
  if (inline_run) {
    // Design 4c: nothing else waits, so the request runs here, on the strand, and its response
    // is queued without a hand-off in either direction.
    NativeMetrics::Get().requests_inline.Increment();
    CompleteRequest(stream, Execute(stream, version, request), reserved, estimate);
    return;
  }
  // Reads go to the io threads even with a worker pool: they never wait for a sync.
  const bool on_io = !context_->read_executor || context_->handler->OnlyReads(request);
  (on_io ? NativeMetrics::Get().requests_on_io : NativeMetrics::Get().requests_on_workers)
      .Increment();
  const asio::any_io_executor& executor =
      context_->read_executor && on_io ? context_->read_executor : context_->request_executor;
  auto self = shared_from_this();
  asio::post(executor,
             [self, stream, version, reserved, estimate, request = std::move(request)]() mutable {
               Response response = self->Execute(stream, version, request);
               asio::post(self->strand_, [self, stream, reserved, estimate,
                                          response = std::move(response)]() mutable {
                 self->CompleteRequest(stream, std::move(response), reserved, estimate);
               });
             });
}

bool Connection::RunsInline() {
  if (!context_->run_alone_inline) return false;
  RequestActivity& activity = *context_->activity;
  const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count();
  if (activity.last_connection.load(std::memory_order_relaxed) != this) {
    activity.last_connection.store(this, std::memory_order_relaxed);
    activity.last_switch.store(now, std::memory_order_relaxed);
    return false;
  }
  const int64_t window = std::chrono::nanoseconds(kAloneWindow).count();
  return now - activity.last_switch.load(std::memory_order_relaxed) >= window && in_flight_ == 0 &&
         reader_.buffered() == 0 && activity.pending.load(std::memory_order_relaxed) == 0 &&
         activity.active.load(std::memory_order_relaxed) == 0;
}

Response Connection::Execute(int16_t stream, uint8_t version, const protocol::Request& request) {
  RequestActivity& activity = *context_->activity;
  activity.pending.fetch_sub(1, std::memory_order_relaxed);
  activity.active.fetch_add(1, std::memory_order_relaxed);
  Response response;
  try {
    response = context_->handler->Handle(request, version, &keyspace_);
  } catch (const std::exception& e) {
    LOG_ERROR("connection {}: request on stream {} failed: {}", peer_, stream, e.what());
    response = ErrorBody(Status::ServerError(fmt::format("Internal error: {}", e.what())));
  } catch (...) {
    LOG_ERROR("connection {}: request on stream {} failed", peer_, stream);
    response = ErrorBody(Status::ServerError("Internal error"));
  }
  activity.active.fetch_sub(1, std::memory_order_relaxed);
  activity.completed.fetch_add(1, std::memory_order_relaxed);
  return response;
}

void Connection::CompleteRequest(int16_t stream, Response response, size_t reserved,
                                 size_t estimate) {
  --in_flight_;
  NativeMetrics::Get().requests_in_flight.Add(-1);
  in_flight_reserved_ -= reserved;
  in_flight_estimate_ -= estimate;
  // Rise at once to a larger response, decay by halves to smaller ones (design 4).
  size_t size = protocol::kEnvelopeHeaderSize + response.body.size();
  response_estimate_ = size >= response_estimate_
                           ? size
                           : std::max(kMinResponseEstimate, (response_estimate_ + size) / 2);
  context_->budget->RecordResponse(size);
  Queue(stream, response);  // settles the memory
  WakeReader();
  WakeWriter();
}

engine::ClientInfo Connection::Describe() const {
  engine::ClientInfo info;
  {
    std::lock_guard<std::mutex> lock(client_mutex_);
    info = client_;
  }
  std::string user = keyspace_.User();
  if (!user.empty()) info.username = std::move(user);
  info.request_count = request_count_.load(std::memory_order_relaxed);
  return info;
}

bool Connection::MayDecode() const {
  size_t pending = PendingOutput();
  if (pending > kMaxPendingOutput) return false;
  if (in_flight_ == 0) return true;
  if (in_flight_ >= context_->limits.max_requests_per_connection) return false;
  return pending + in_flight_estimate_ + ReservedResponse() <= kMaxPendingOutput;
}

size_t Connection::ReservedResponse() const {
  return std::max(response_estimate_, context_->budget->response_estimate());
}

size_t Connection::MemoryTarget(size_t extra) const {
  return reader_.MemoryNeeded() + negotiation_bytes_.size() + in_flight_reserved_ +
         PendingOutput() + (read_pending_ ? kReadBufferSize : 0) + transport_memory_ + extra;
}

bool Connection::ReserveMemory(size_t extra) {
  std::weak_ptr<Connection> weak = weak_from_this();
  return memory_.Reserve(MemoryTarget(extra), [weak] {
    // Runs on the releasing thread (memory_budget.h design 3): only post.
    if (std::shared_ptr<Connection> self = weak.lock()) {
      asio::post(self->strand_, [self] { self->WakeReader(); });
    }
  });
}

void Connection::SettleMemory() { memory_.Set(MemoryTarget(0)); }

void Connection::ArmDeadline() {
  using std::chrono::milliseconds;
  const ConnectionLimits& limits = context_->limits;
  std::chrono::steady_clock::time_point at;
  if (!ready_ && limits.handshake_timeout > milliseconds(0)) {
    at = started_ + limits.handshake_timeout;
  } else if (ready_ && limits.idle_timeout > milliseconds(0)) {
    at = last_activity_ + limits.idle_timeout;
  } else {
    deadline_.cancel();
    return;
  }
  deadline_.expires_at(at);
  std::weak_ptr<Connection> weak = weak_from_this();
  deadline_.async_wait([weak](const boost::system::error_code& ec) {
    std::shared_ptr<Connection> self = weak.lock();
    if (!ec && self) self->CheckDeadline();
  });
}

void Connection::CheckDeadline() {
  if (closing_ || reading_done_) return;
  const ConnectionLimits& limits = context_->limits;
  auto now = std::chrono::steady_clock::now();
  const auto none = std::chrono::milliseconds(0);
  if (!ready_ && limits.handshake_timeout > none && now >= started_ + limits.handshake_timeout) {
    LOG_INFO("closing connection {}: no {} within {} ms", peer_,
             transport_ready_ ? "STARTUP" : "TLS handshake", limits.handshake_timeout.count());
    NativeMetrics::Get().handshake_timeouts.Increment();
    if (!version_) {
      Abandon();
      return;
    }
    FailConnection(0, Status::ProtocolError(fmt::format(
                          "Connection handshake timed out: STARTUP not completed within {} ms",
                          limits.handshake_timeout.count())));
    read_cancel_.emit(asio::cancellation_type::terminal);
    WakeReader();
    return;
  }
  if (ready_ && limits.idle_timeout > none && in_flight_ == 0 &&
      now >= last_activity_ + limits.idle_timeout) {
    LOG_INFO("closing connection {}: idle for {} ms", peer_, limits.idle_timeout.count());
    NativeMetrics::Get().idle_timeouts.Increment();
    Abandon();
    return;
  }
  if (in_flight_ > 0) last_activity_ = now;  // a request running is not idleness
  ArmDeadline();
}

void Connection::Queue(int16_t stream, const Response& response, std::optional<uint8_t> version) {
  if (write_failed_) return;
  if (response.opcode == protocol::Opcode::kError) NativeMetrics::Get().Error(response.body);
  protocol::EnvelopeHeader header;
  header.version = version ? *version : version_.value_or(protocol::kMinVersion);
  header.is_response = true;
  header.flags = response.flags;
  header.stream = stream;
  header.opcode = response.opcode;
  writer_.Add(header, response.body);
  unflushed_ += protocol::kEnvelopeHeaderSize + response.body.size();
  SettleMemory();
  WakeWriter();
}

void Connection::QueueError(int16_t stream, const Status& status, std::optional<uint8_t> version) {
  Queue(stream, ErrorBody(status), version);
}

void Connection::FailConnection(int16_t stream, const Status& status,
                                std::optional<uint8_t> version, common::LogLevel level) {
  CQLD_LOG_(level, "closing connection {}: {}", peer_, status.message());
  QueueError(stream, status, version);
  closing_ = true;
  drain_on_close_ = true;
}

// ---------------------------------------------------------------------------------------------
// ConnectionRegistry

bool ConnectionRegistry::Add(const std::shared_ptr<Connection>& connection) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) return false;
  connections_.push_back(connection);
  keys_.push_back(connection.get());
  return true;
}

void ConnectionRegistry::Remove(const Connection* connection) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = std::find(keys_.begin(), keys_.end(), connection);
  if (it == keys_.end()) return;
  size_t index = static_cast<size_t>(it - keys_.begin());
  keys_.erase(it);
  connections_.erase(connections_.begin() + static_cast<std::ptrdiff_t>(index));
  if (keys_.empty()) empty_.notify_all();
}

size_t ConnectionRegistry::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return keys_.size();
}

std::vector<std::shared_ptr<Connection>> ConnectionRegistry::Snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<Connection>> live;
  for (const std::weak_ptr<Connection>& weak : connections_) {
    if (auto connection = weak.lock()) live.push_back(std::move(connection));
  }
  return live;
}

bool ConnectionRegistry::WaitEmpty(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return empty_.wait_for(lock, timeout, [this] { return keys_.empty(); });
}

void ConnectionRegistry::PublishSchemaChange(const cql::SchemaChangeEvent& event) {
  // Posting under the lock: Close() then guarantees no post reaches a destroyed io_context, and
  // no connection is last released outside it.
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) return;
  for (const std::weak_ptr<Connection>& weak : connections_) {
    std::shared_ptr<Connection> connection = weak.lock();
    if (connection && connection->wants_schema_events()) connection->PushSchemaChange(event);
  }
}

void ConnectionRegistry::Close() {
  std::lock_guard<std::mutex> lock(mutex_);
  closed_ = true;
}

}  // namespace server
