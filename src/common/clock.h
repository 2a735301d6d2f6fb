// Clocks: the one place the server reads wall-clock time, and the generator of the server-side
// write timestamps that last-write-wins resolution depends on (docs/dev/storage_format.md §4-5).
//
// Everything that needs "now" takes a `const Clock*` (dependency injection, no global clock), so
// tests substitute a `ManualClock` and control time exactly: TTL expiry, timeuuid generation
// (`common::TimeuuidGenerator` in uuid.h), write timestamps, gc_grace purging.
//
// `WriteTimestampGenerator` hands out the microsecond timestamps of writes that carry no
// `USING TIMESTAMP`. Like Cassandra's server-side timestamps (ClientState.getTimestamp) it
// returns max(now, last + 1), so two writes through one generator never share a timestamp and
// a later write always wins even when the wall clock stalls or steps backwards.
//
// Thread-safety: `Clock` implementations here are thread-safe. `WriteTimestampGenerator` is
// thread-safe and lock-free (one atomic word, compare-and-swap loop).

#pragma once

#include <atomic>
#include <cstdint>

namespace common {

// A source of wall-clock time in microseconds since the Unix epoch (UTC).
class Clock {
 public:
  virtual ~Clock() = default;

  // Microseconds since 1970-01-01T00:00:00Z. May go backwards (NTP steps); callers that need
  // monotonic values use `WriteTimestampGenerator` or `TimeuuidGenerator`.
  virtual int64_t NowMicros() const = 0;

  // NowMicros() rounded down to milliseconds (floor division, also for times before 1970).
  int64_t NowMillis() const;
};

// The operating system's real-time clock (std::chrono::system_clock).
class SystemClock final : public Clock {
 public:
  int64_t NowMicros() const override;
};

// A clock that only moves when told to; for tests. Starts at `start_micros`.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t start_micros = 0) : now_micros_(start_micros) {}

  int64_t NowMicros() const override { return now_micros_.load(std::memory_order_acquire); }

  // Sets the time; may move it backwards (to test clock steps).
  void SetMicros(int64_t micros) { now_micros_.store(micros, std::memory_order_release); }
  // Moves the time by `delta_micros` (negative moves it backwards).
  void AdvanceMicros(int64_t delta_micros) {
    now_micros_.fetch_add(delta_micros, std::memory_order_acq_rel);
  }

 private:
  std::atomic<int64_t> now_micros_;
};

// Strictly increasing microsecond write timestamps: each Next() returns
// max(clock->NowMicros(), previous result + 1), across all threads that share the generator.
class WriteTimestampGenerator {
 public:
  // REQUIRES: `clock` outlives the generator.
  explicit WriteTimestampGenerator(const Clock* clock) : clock_(clock) {}

  WriteTimestampGenerator(const WriteTimestampGenerator&) = delete;
  WriteTimestampGenerator& operator=(const WriteTimestampGenerator&) = delete;

  // A timestamp greater than every value previously returned by this generator and not less
  // than the clock's current time. Lock-free.
  int64_t Next();

  // The last value returned by Next() (or the floor set by Observe()), 0 before any.
  int64_t Last() const { return last_micros_.load(std::memory_order_acquire); }

  // Makes every later Next() return a value greater than `micros`, e.g. after restart with the
  // highest timestamp found on disk. Never moves the floor backwards.
  void Observe(int64_t micros);

 private:
  const Clock* clock_;
  std::atomic<int64_t> last_micros_{0};
};

}  // namespace common
