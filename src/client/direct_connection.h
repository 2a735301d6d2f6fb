// DirectConnection: a native-protocol connection that the calling thread drives itself, with
// blocking socket calls (src/client/).
//
// Why: the pipelined `Connection` (connection.h) lives on the session's io thread, so every
// blocking call of `RemoteSession` hands its request to that thread and sleeps on a future until
// the io thread wakes it with the response: two thread switches per request, which cost more
// CPU than the request itself on a loaded machine (docs/benchmarks.md, "the workflow's client
// side"). A DirectConnection is borrowed by one thread for one request: it writes the request
// and reads the response on the calling thread, one send and (usually) one recv, the way libpq
// works. `RemoteSession` keeps a small pool of them (remote_session.h) and uses them only where
// they behave exactly like the pipelined path: one host, plain TCP, no compression.
//
// Design (numbered invariants):
//   1. One request at a time, on stream 0; the response must come back on stream 0 (events, on
//      negative streams, are skipped).
//   2. Any failure (an I/O error, a timeout, bad bytes, a response on another stream) makes the
//      connection unusable (`usable()` false): it is closed, never reused, so a late response
//      can never be taken for the answer to a newer request.
//   3. A request's timeout bounds the whole request, from its first send to the last byte of
//      its response. It is enforced with socket timeouts (SO_RCVTIMEO, SO_SNDTIMEO), set again
//      only when they change: a request answered within a millisecond of its start costs no
//      extra system call. Before each send or recv after the first, the socket timeouts are
//      cut to what is left of the request's time (rounded up to a millisecond), and a request
//      with no time left fails as timed out, so a server that trickles its answer a byte at a
//      time cannot stretch a call beyond its timeout.
//
// Errors carry the same wording as the pipelined connection's ("Request timed out: no response
// from HOST:PORT (stream 0)", "Connection to HOST:PORT was closed by the server", ...).
//
// Thread-safety: not thread-safe; one thread at a time (the pool hands it to one caller).

#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "client/connection.h"
#include "common/bytes.h"
#include "common/result.h"
#include "common/status.h"
#include "protocol/frame.h"
#include "protocol/messages.h"

namespace client {

class DirectConnection {
 public:
  // Connects to settings.host:port and runs the handshake (STARTUP, SASL PLAIN when the server
  // sends AUTHENTICATE, USE of settings.keyspace) in exactly settings.version, all within
  // settings.connect_timeout. Errors as `Connection::Open`: IOError when the host cannot be
  // reached or the handshake times out, the server's error otherwise. A refused USE is not an
  // error (keyspace() is then ""). REQUIRES: settings.tls is null and settings.compression is
  // kNone.
  static common::Result<std::unique_ptr<DirectConnection>> Open(const ConnectionSettings& settings);

  DirectConnection(const DirectConnection&) = delete;
  DirectConnection& operator=(const DirectConnection&) = delete;
  ~DirectConnection();

  // Sends `request` and waits for its response on this thread: the response, an ERROR as a
  // failed Result with the server's status, or IOError when the connection breaks or the whole
  // response has not arrived within `timeout` (invariant 3). REQUIRES: usable().
  common::Result<Response> Call(const protocol::Request& request,
                                std::chrono::milliseconds timeout);

  // False after a failure (invariant 2).
  bool usable() const { return fd_ >= 0; }
  // Whether the connection is still usable and idle as it should be: a non-blocking look at the
  // socket finds neither an end of stream (the server closed it while it sat in the pool) nor
  // stray bytes. Closes the connection when it is not.
  bool StillOpen();
  // The keyspace the connection is in ("" if none).
  const std::string& keyspace() const { return keyspace_; }
  // "host:port".
  const std::string& address() const { return address_; }

 private:
  DirectConnection(int fd, std::string address, uint8_t version);
  common::Status Handshake(const ConnectionSettings& settings);
  common::Status SetTimeout(std::chrono::milliseconds timeout);
  // Before a send or recv after a request's first: cuts the socket timeouts to what is left
  // until deadline_, or fails the request as timed out when nothing is (invariant 3).
  common::Status KeepDeadline();
  common::Status Send(const protocol::Request& request);
  common::Result<protocol::Envelope> Receive();
  // The IOError for a failed send or recv with `error` (errno): a timeout or a broken socket.
  common::Status SocketError(int error);
  // Closes the socket and returns `status` (invariant 2).
  common::Status Fail(common::Status status);

  int fd_;
  std::string address_;
  uint8_t version_;
  std::chrono::milliseconds timeout_{0};            // the socket timeouts now set
  std::chrono::steady_clock::time_point deadline_;  // the current request's end
  protocol::FrameReader reader_;
  protocol::FrameWriter writer_;
  common::Bytes out_;         // reused for every request
  std::vector<char> buffer_;  // what one recv reads
  bool timed_out_ = false;    // the failure that closed the connection was a timeout
  std::string keyspace_;
};

}  // namespace client
