// LoadConnection: one native-protocol connection of the `cqld_load` generator (bench/load/).
//
// The load generator measures a server, so its client must be cheap and never the bottleneck:
// one io thread drives every connection; each connection pipelines requests on distinct stream
// ids, coalesces what it sends into one write, and calls a completion callback per response. It
// speaks protocol v4 or v5 (segments after READY) through src/protocol's codec, which is the same
// code the server uses.
//
// Usage: Connect() and Prepare() are awaited once during setup; then Send() as often as there
// are free streams (free_streams() > 0). Callbacks run on the io thread.
//
// Thread-safety: not thread-safe; use from the io_context's single thread.

#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio.hpp>

#include "common/bytes.h"
#include "common/result.h"
#include "protocol/frame.h"
#include "protocol/messages.h"

namespace load {

// A response as the callback sees it: the envelope's opcode and the message body after the
// prefix (warnings, tracing id) has been removed.
struct Response {
  protocol::Opcode opcode = protocol::Opcode::kError;
  common::Bytes body;
};

class LoadConnection {
 public:
  using Callback = std::function<void(common::Result<Response>)>;

  LoadConnection(boost::asio::io_context& io, uint8_t version);
  LoadConnection(const LoadConnection&) = delete;
  LoadConnection& operator=(const LoadConnection&) = delete;

  // Connects, sends STARTUP and waits for READY; starts the reader. Errors: connection
  // failures, or the server's ERROR.
  boost::asio::awaitable<common::Status> Connect(const std::string& host, uint16_t port);

  // Sends one request and calls `done` with its response (an ERROR response is a Response
  // with opcode kError, not a failed Result; a failed Result means the connection broke).
  // REQUIRES: free_streams() > 0.
  void Send(const protocol::Request& request, Callback done);

  // Sends one request and waits for its response.
  boost::asio::awaitable<common::Result<Response>> Call(const protocol::Request& request);

  size_t free_streams() const { return free_streams_.size(); }
  size_t in_flight() const { return kMaxStreams - free_streams_.size(); }
  bool broken() const { return broken_; }
  uint8_t version() const { return version_; }
  void Close();

  static constexpr size_t kMaxStreams = 2048;

 private:
  boost::asio::awaitable<void> ReadLoop();
  boost::asio::awaitable<void> WriteLoop();
  void Fail(const common::Status& status);

  boost::asio::io_context& io_;
  boost::asio::ip::tcp::socket socket_;
  uint8_t version_;
  protocol::FrameReader reader_;
  protocol::FrameWriter writer_;
  std::vector<Callback> callbacks_;  // by stream id
  std::vector<int16_t> free_streams_;
  common::Bytes outgoing_;
  bool writing_ = false;
  bool broken_ = false;
  boost::asio::steady_timer write_wakeup_;
};

}  // namespace load
