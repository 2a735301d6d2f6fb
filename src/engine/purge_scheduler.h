// PurgeScheduler: runs the full compactions that purge tombstones and expired data after
// gc_grace_seconds (docs/dev/storage_format.md §4-5), in the background, every `interval`.
//
// RocksDB's own compactions purge row-level data only when they happen to include every file
// of a table, and never partition or range tombstones (storage/compaction_filter.h): those go
// only in `Store::CompactTable`'s second pass. Cassandra purges as part of its normal
// compactions; this scheduler gives the same outcome on a timer: each run compacts every table,
// view and index column family one after the other, so no tombstone outlives gc_grace by more
// than one interval (plus the run).
//
// Thread-safety: thread-safe. The destructor stops the thread, waiting for the table being
// compacted to finish. REQUIRES: the Store outlives the scheduler.

#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "common/result.h"
#include "storage/store.h"

namespace engine {

class PurgeScheduler {
 public:
  // Starts the background thread; its first run comes one `interval` after construction.
  // REQUIRES: interval > 0.
  PurgeScheduler(storage::Store* store, std::chrono::seconds interval);
  ~PurgeScheduler();
  PurgeScheduler(const PurgeScheduler&) = delete;
  PurgeScheduler& operator=(const PurgeScheduler&) = delete;

  // Compacts every table now, on the calling thread (what each background run does). Tables
  // dropped meanwhile are skipped. Returns the first error, having tried every table.
  static common::Status RunOnce(storage::Store* store);

  // Whether a background run is compacting now, and how many runs finished (for
  // system_views.thread_pools).
  bool running() const { return running_.load(std::memory_order_relaxed); }
  uint64_t completed_runs() const { return completed_runs_.load(std::memory_order_relaxed); }

 private:
  void Loop();

  storage::Store* store_;
  std::chrono::seconds interval_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;  // GUARDED_BY(mutex_)
  std::atomic<bool> running_{false};
  std::atomic<uint64_t> completed_runs_{0};
  std::thread thread_;
};

}  // namespace engine
