#include "engine/purge_scheduler.h"

#include <string>
#include <vector>

#include "common/logging.h"

namespace engine {

PurgeScheduler::PurgeScheduler(storage::Store* store, std::chrono::seconds interval)
    : store_(store), interval_(interval), thread_([this] { Loop(); }) {}

PurgeScheduler::~PurgeScheduler() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

common::Status PurgeScheduler::RunOnce(storage::Store* store) {
  common::Status first = common::Status::Ok();
  for (const std::string& id : store->TableIds()) {
    common::Status status = store->CompactTable(id);
    if (status.code() == common::StatusCode::kNotFound) continue;  // dropped meanwhile
    if (!status.ok() && first.ok()) first = status;
  }
  return first;
}

void PurgeScheduler::Loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    if (wake_.wait_for(lock, interval_, [this] { return stopping_; })) return;
    lock.unlock();
    running_.store(true, std::memory_order_relaxed);
    common::Status status = RunOnce(store_);
    running_.store(false, std::memory_order_relaxed);
    completed_runs_.fetch_add(1, std::memory_order_relaxed);
    if (!status.ok()) LOG_WARNING("Background purge compaction failed: {}", status.ToString());
    lock.lock();
  }
}

}  // namespace engine
