// RepairScheduler: runs the hotel service's repair pass (`HotelService::RepairAll`, which frees
// orphan holds and removes stale pending confirmations — docs/data-model.md, "Booking, and what
// a crash leaves behind") periodically on a background thread, so what a crashed booking,
// cancel or change left behind is put right without anyone asking.
//
// The scheduler is generic: it runs a callable every `interval` (the first run one interval
// after construction) until stopped. `HotelService` owns one when
// `HotelServiceOptions::repair_interval_millis` > 0.
//
// Thread-safety: thread-safe. The callable runs on the scheduler's thread only, never twice at
// once; Stop() (also run by the destructor) waits for a running pass to finish.

#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace hotel {

class RepairScheduler {
 public:
  // Starts the thread. REQUIRES: interval > 0; `pass` is safe to call from another thread and
  // everything it uses outlives Stop().
  RepairScheduler(std::chrono::milliseconds interval, std::function<void()> pass);
  ~RepairScheduler();
  RepairScheduler(const RepairScheduler&) = delete;
  RepairScheduler& operator=(const RepairScheduler&) = delete;

  // Wakes the thread and joins it (after the running pass, if any). Idempotent.
  void Stop();
  // Runs a pass now (on the scheduler's thread) instead of at the end of the interval.
  void Trigger();
  // Passes completed so far.
  int passes() const;

 private:
  void Loop();

  const std::chrono::milliseconds interval_;
  const std::function<void()> pass_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;   // GUARDED_BY(mutex_)
  bool triggered_ = false;  // GUARDED_BY(mutex_)
  int passes_ = 0;          // GUARDED_BY(mutex_)
  std::thread thread_;
};

}  // namespace hotel
