#include "common/clock.h"

#include <chrono>
#include <limits>

namespace common {

int64_t Clock::NowMillis() const {
  int64_t micros = NowMicros();
  int64_t millis = micros / 1000;
  if (micros % 1000 < 0) --millis;  // floor, not truncation, before 1970
  return millis;
}

int64_t SystemClock::NowMicros() const {
  auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::microseconds>(since_epoch).count();
}

int64_t WriteTimestampGenerator::Next() {
  int64_t now = clock_->NowMicros();
  int64_t last = last_micros_.load(std::memory_order_acquire);
  while (true) {
    // Saturate instead of overflowing: a clock at INT64_MAX is broken, but must not be UB.
    int64_t after_last = last == std::numeric_limits<int64_t>::max() ? last : last + 1;
    int64_t candidate = now > after_last ? now : after_last;
    if (last_micros_.compare_exchange_weak(last, candidate, std::memory_order_acq_rel,
                                           std::memory_order_acquire)) {
      return candidate;
    }
    // `last` now holds the value another thread installed; retry against it.
  }
}

void WriteTimestampGenerator::Observe(int64_t micros) {
  int64_t last = last_micros_.load(std::memory_order_acquire);
  while (last < micros && !last_micros_.compare_exchange_weak(
                              last, micros, std::memory_order_acq_rel, std::memory_order_acquire)) {
  }
}

}  // namespace common
