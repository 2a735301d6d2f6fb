#include "hotel/repair_scheduler.h"

#include <utility>

namespace hotel {

RepairScheduler::RepairScheduler(std::chrono::milliseconds interval, std::function<void()> pass)
    : interval_(interval), pass_(std::move(pass)) {
  thread_ = std::thread([this] { Loop(); });
}

RepairScheduler::~RepairScheduler() { Stop(); }

void RepairScheduler::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void RepairScheduler::Trigger() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    triggered_ = true;
  }
  wake_.notify_all();
}

int RepairScheduler::passes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return passes_;
}

void RepairScheduler::Loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait_for(lock, interval_, [this] { return stopping_ || triggered_; });
    if (stopping_) return;
    triggered_ = false;
    lock.unlock();
    pass_();
    lock.lock();
    ++passes_;
  }
}

}  // namespace hotel
