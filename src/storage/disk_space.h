// DiskSpaceGuard: the free-space floor below which the store refuses writes, so that RocksDB
// never meets a full disk in normal operation (docs/reliability.md §2). It plays the part of
// ScyllaDB's critical disk utilisation level: a write is refused, with Cassandra's WriteFailure
// and a message that names the disk, while there is still room for what RocksDB must write on
// its own (flushing the memtables the write-ahead log already holds, the manifest, the options
// file), and it is accepted again as soon as space is back, without a restart.
//
// Free space comes from statvfs(2), cached: a write re-probes only when the cached figure is
// older than `refresh_interval` (100 ms), when `refresh_bytes` were written since it was taken,
// or when the figure minus what was written since would fall below the floor, so the verdict
// near the floor is always fresh and the hot path far from it is two atomic loads.
//
// The floor is configurable; by default it is 64 MiB or 1% of the filesystem, whichever is
// larger (`DefaultFreeSpaceFloor`). Zero turns the guard off.
//
// Thread-safety: DiskSpaceGuard is thread-safe. Probes are serialized by a mutex; the cached
// figures are atomics read without it.

#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "common/result.h"

namespace storage {

struct DiskUsage {
  uint64_t total_bytes = 0;
  // Bytes an unprivileged process may still write (statvfs f_bavail), which is what a database
  // not running as root can use; root's reserve is deliberately not counted on.
  uint64_t free_bytes = 0;
};

// The usage of the filesystem holding `path`, or of its nearest existing ancestor when `path`
// does not exist yet (a data directory about to be created). IOError when statvfs fails.
common::Result<DiskUsage> ProbeDiskUsage(const std::string& path);

using DiskUsageProbe = std::function<common::Result<DiskUsage>(const std::string& path)>;

// 64 MiB or 1% of a filesystem of `total_bytes`, whichever is larger.
uint64_t DefaultFreeSpaceFloor(uint64_t total_bytes);

struct DiskSpaceGuardOptions {
  // Free bytes below which writes are refused. nullopt: DefaultFreeSpaceFloor of the disk;
  // 0: never refuse.
  std::optional<uint64_t> floor_bytes;
  std::chrono::nanoseconds refresh_interval = std::chrono::milliseconds(100);
  uint64_t refresh_bytes = uint64_t{16} << 20;
  // How usage is read; ProbeDiskUsage unless a test substitutes one.
  DiskUsageProbe probe = ProbeDiskUsage;
};

class DiskSpaceGuard {
 public:
  // Guards the disk holding `path` (a directory; it need not exist yet). Probes once.
  DiskSpaceGuard(std::string path, DiskSpaceGuardOptions options);
  DiskSpaceGuard(const DiskSpaceGuard&) = delete;
  DiskSpaceGuard& operator=(const DiskSpaceGuard&) = delete;

  // OK when writing `bytes` more leaves at least the floor free (by the cached figure minus
  // what was written since it was taken; re-probed as the header says); otherwise the refusal
  // (`Refusal()`). A probe that fails lets writes through: the guard never makes a working
  // disk unwritable (the failure is logged once).
  common::Status CheckWrite(uint64_t bytes);

  // Probes now. True when the free space is at least the floor (or the guard is off, or the
  // probe failed).
  bool HasRoom();

  // WriteFailure "Write refused: the disk holding DIR is full (N MiB free, floor M MiB)",
  // with the figures of the last probe and `suffix` appended to the message.
  common::Status Refusal(std::string_view suffix = {}) const;

  // The floor as last computed (0 when off); the free bytes of the last probe.
  uint64_t floor_bytes() const { return floor_bytes_.load(std::memory_order_relaxed); }
  uint64_t free_bytes() const { return free_bytes_.load(std::memory_order_relaxed); }
  const std::string& path() const { return path_; }

 private:
  // Probes and records the figures; false when the probe failed.
  bool Probe();
  static int64_t NowNanos();

  const std::string path_;
  const DiskSpaceGuardOptions options_;
  std::mutex probe_mutex_;  // serializes Probe
  std::atomic<uint64_t> floor_bytes_{0};
  std::atomic<uint64_t> free_bytes_{0};
  std::atomic<bool> probe_failed_{false};
  std::atomic<int64_t> probed_at_nanos_{0};
  // Bytes let through since the last probe.
  std::atomic<uint64_t> written_since_probe_{0};
};

}  // namespace storage
