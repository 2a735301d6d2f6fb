#include "hotel/readiness_probe.h"

#include <fmt/format.h>

#include <utility>

namespace hotel {

ReadinessProbe::ReadinessProbe(std::function<common::Status()> check,
                               std::chrono::milliseconds deadline)
    : check_(std::move(check)), deadline_(deadline) {}

ReadinessProbe::~ReadinessProbe() {
  std::thread thread;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    thread = std::move(thread_);
  }
  wake_.notify_all();
  if (thread.joinable()) thread.join();
}

common::Status ReadinessProbe::Check() {
  std::unique_lock lock(mutex_);
  if (!thread_.joinable()) thread_ = std::thread([this] { Loop(); });
  // The check that answers this call: the one running, or the next one.
  uint64_t target = started_ > finished_ ? started_ : started_ + 1;
  if (started_ == finished_) {
    requested_ = true;
    wake_.notify_all();
  }
  if (!done_.wait_for(lock, deadline_, [&] { return finished_ >= target; })) {
    return common::Status(
        common::StatusCode::kUnavailable,
        fmt::format("the database did not answer within {} ms", deadline_.count()));
  }
  return last_;
}

void ReadinessProbe::Loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || requested_; });
    if (stopping_) return;
    requested_ = false;
    ++started_;
    lock.unlock();
    common::Status status = check_();
    lock.lock();
    last_ =
        status.ok() ? status : common::Status(common::StatusCode::kUnavailable, status.message());
    ++finished_;
    done_.notify_all();
  }
}

}  // namespace hotel
