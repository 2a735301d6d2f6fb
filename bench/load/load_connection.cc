#include "bench/load/load_connection.h"

#include <optional>
#include <utility>

#include <fmt/format.h>

namespace load {

namespace asio = boost::asio;
using common::Result;
using common::Status;

LoadConnection::LoadConnection(asio::io_context& io, uint8_t version)
    : io_(io),
      socket_(io),
      version_(version),
      callbacks_(kMaxStreams),
      write_wakeup_(io, asio::steady_timer::time_point::max()) {
  free_streams_.reserve(kMaxStreams);
  for (size_t i = kMaxStreams; i > 0; --i) free_streams_.push_back(static_cast<int16_t>(i - 1));
}

asio::awaitable<Status> LoadConnection::Connect(const std::string& host, uint16_t port) {
  boost::system::error_code error;
  asio::ip::address address = asio::ip::make_address(host, error);
  if (error) co_return Status::Invalid(fmt::format("bad address {}: {}", host, error.message()));
  co_await socket_.async_connect({address, port}, asio::redirect_error(asio::use_awaitable, error));
  if (error) {
    co_return Status::IOError(fmt::format("connect {}:{}: {}", host, port, error.message()));
  }
  socket_.set_option(asio::ip::tcp::no_delay(true));
  asio::co_spawn(io_, ReadLoop(), asio::detached);
  asio::co_spawn(io_, WriteLoop(), asio::detached);

  protocol::StartupRequest startup;
  startup.options = {{"CQL_VERSION", "3.0.0"}, {"DRIVER_NAME", "cqld_load"}};
  Result<Response> ready = co_await Call(startup);
  if (!ready.ok()) co_return ready.status();
  if (ready->opcode == protocol::Opcode::kError) {
    Result<protocol::ErrorResponse> error_body = protocol::DecodeError(ready->body);
    co_return error_body.ok() ? error_body->ToStatus() : error_body.status();
  }
  if (ready->opcode != protocol::Opcode::kReady) {
    co_return Status::ProtocolError(
        fmt::format("expected READY, got {}", protocol::OpcodeName(ready->opcode)));
  }
  if (version_ >= 5) {
    reader_.StartSegments(protocol::Compression::kNone);
    writer_.StartSegments(protocol::Compression::kNone);
  }
  co_return Status::Ok();
}

void LoadConnection::Send(const protocol::Request& request, Callback done) {
  if (broken_ || free_streams_.empty()) {
    done(Status::IOError("connection unusable"));
    return;
  }
  int16_t stream = free_streams_.back();
  free_streams_.pop_back();
  callbacks_[static_cast<size_t>(stream)] = std::move(done);
  protocol::EnvelopeHeader header;
  header.version = version_;
  header.stream = stream;
  header.opcode = protocol::RequestOpcode(request);
  writer_.Add(header, protocol::EncodeRequestBody(request, version_));
  if (!writing_) write_wakeup_.cancel();
}

asio::awaitable<Result<Response>> LoadConnection::Call(const protocol::Request& request) {
  std::optional<Result<Response>> result;
  asio::steady_timer done(io_, asio::steady_timer::time_point::max());
  Send(request, [&](Result<Response> response) {
    result = std::move(response);
    done.cancel();
  });
  while (!result.has_value()) {
    boost::system::error_code ignored;
    co_await done.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
  }
  co_return std::move(*result);
}

asio::awaitable<void> LoadConnection::WriteLoop() {
  common::Bytes buffer;
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
    co_await asio::async_write(socket_, asio::buffer(buffer),
                               asio::redirect_error(asio::use_awaitable, error));
    writing_ = false;
    if (error) Fail(Status::IOError("write: " + error.message()));
  }
}

asio::awaitable<void> LoadConnection::ReadLoop() {
  std::vector<char> buffer(64 * 1024);
  while (!broken_) {
    boost::system::error_code error;
    size_t n = co_await socket_.async_read_some(asio::buffer(buffer),
                                                asio::redirect_error(asio::use_awaitable, error));
    if (error) {
      Fail(Status::IOError("read: " + error.message()));
      co_return;
    }
    reader_.Append(std::string_view(buffer.data(), n));
    while (true) {
      Result<std::optional<protocol::Envelope>> next = reader_.Next();
      if (!next.ok()) {
        Fail(next.status());
        co_return;
      }
      if (!next->has_value()) break;
      protocol::Envelope& envelope = **next;
      int16_t stream = envelope.header.stream;
      if (stream < 0) continue;  // an EVENT
      if (static_cast<size_t>(stream) >= kMaxStreams || !callbacks_[stream]) {
        Fail(Status::ProtocolError(fmt::format("response on unknown stream {}", stream)));
        co_return;
      }
      Callback callback = std::move(callbacks_[stream]);
      callbacks_[stream] = nullptr;
      free_streams_.push_back(stream);
      Result<protocol::ResponsePrefix> prefix = protocol::DecodeResponsePrefix(envelope);
      if (!prefix.ok()) {
        callback(prefix.status());
        continue;
      }
      callback(Response{envelope.header.opcode, common::Bytes(prefix->rest)});
    }
  }
}

void LoadConnection::Fail(const Status& status) {
  if (broken_) return;
  broken_ = true;
  boost::system::error_code ignored;
  socket_.close(ignored);
  write_wakeup_.cancel();
  for (size_t stream = 0; stream < callbacks_.size(); ++stream) {
    if (!callbacks_[stream]) continue;
    Callback callback = std::move(callbacks_[stream]);
    callbacks_[stream] = nullptr;
    callback(status);
  }
}

void LoadConnection::Close() { Fail(Status::IOError("closed")); }

}  // namespace load
