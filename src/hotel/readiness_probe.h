// ReadinessProbe: answers "does the database answer now?" for `GET /health/ready` within a
// short deadline, whatever the database does (docs/reliability.md, "Health endpoints").
//
// A check runs the callable (a cheap query: `HotelService::CheckDatabase`) on the probe's own
// thread and waits for it at most `deadline`. A database that does not answer (a cluster
// behind a dead network, a driver waiting for its request timeout) cannot hold the HTTP
// thread longer than that, nor pile up threads: one check runs at a time, and callers that
// come while it runs wait for that one (its answer is theirs) or give up at their deadline.
//
// Thread-safety: thread-safe. The thread starts at the first Check and is joined by the
// destructor, which waits for a running check to end (bounded by the session's own request
// timeout).

#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "common/status.h"

namespace hotel {

class ReadinessProbe {
 public:
  // REQUIRES: `check` is safe to call from another thread and what it uses outlives the probe.
  ReadinessProbe(std::function<common::Status()> check, std::chrono::milliseconds deadline);
  ~ReadinessProbe();
  ReadinessProbe(const ReadinessProbe&) = delete;
  ReadinessProbe& operator=(const ReadinessProbe&) = delete;

  // Ok when a check that started at or after this call (or the one running) succeeded within
  // the deadline; kUnavailable with the reason otherwise: the check's error, or "no answer
  // within N ms".
  common::Status Check();

 private:
  void Loop();

  const std::function<common::Status()> check_;
  const std::chrono::milliseconds deadline_;
  std::mutex mutex_;
  std::condition_variable wake_;  // the thread: a check is requested, or stop
  std::condition_variable done_;  // the callers: a check ended
  bool requested_ = false;        // GUARDED_BY(mutex_)
  bool stopping_ = false;         // GUARDED_BY(mutex_)
  uint64_t started_ = 0;          // checks started; GUARDED_BY(mutex_)
  uint64_t finished_ = 0;         // checks finished; GUARDED_BY(mutex_)
  common::Status last_;           // the last finished check's answer; GUARDED_BY(mutex_)
  std::thread thread_;            // started by the first Check; GUARDED_BY(mutex_)
};

}  // namespace hotel
