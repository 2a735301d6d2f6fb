#include "storage/disk_space.h"

#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include <fmt/format.h>

#include "common/logging.h"

namespace storage {

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kMinimumDefaultFloor = 64 * kMiB;

}  // namespace

common::Result<DiskUsage> ProbeDiskUsage(const std::string& path) {
  std::filesystem::path probed =
      path.empty() ? std::filesystem::path(".") : std::filesystem::path(path);
  std::error_code error;
  // The nearest existing ancestor: a directory about to be created lives on its disk.
  while (!std::filesystem::exists(probed, error) && probed.has_parent_path() &&
         probed.parent_path() != probed) {
    probed = probed.parent_path();
  }
  struct statvfs stats {};
  if (::statvfs(probed.c_str(), &stats) != 0) {
    return common::Status::IOError(
        fmt::format("statvfs {}: {}", probed.string(), std::strerror(errno)));
  }
  DiskUsage usage;
  usage.total_bytes = static_cast<uint64_t>(stats.f_blocks) * stats.f_frsize;
  usage.free_bytes = static_cast<uint64_t>(stats.f_bavail) * stats.f_frsize;
  return usage;
}

uint64_t DefaultFreeSpaceFloor(uint64_t total_bytes) {
  return std::max(kMinimumDefaultFloor, total_bytes / 100);
}

DiskSpaceGuard::DiskSpaceGuard(std::string path, DiskSpaceGuardOptions options)
    : path_(std::move(path)), options_(std::move(options)) {
  std::lock_guard lock(probe_mutex_);
  Probe();
}

int64_t DiskSpaceGuard::NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool DiskSpaceGuard::Probe() {
  common::Result<DiskUsage> usage = options_.probe(path_);
  probed_at_nanos_.store(NowNanos(), std::memory_order_relaxed);
  written_since_probe_.store(0, std::memory_order_relaxed);
  if (!usage.ok()) {
    if (!probe_failed_.exchange(true)) {
      LOG_WARNING(
          "cannot read the free space of {} ({}); writes are not checked against the "
          "free-space floor until it can be read",
          path_, usage.status().ToString());
    }
    return false;
  }
  probe_failed_.store(false, std::memory_order_relaxed);
  floor_bytes_.store(options_.floor_bytes.value_or(DefaultFreeSpaceFloor(usage->total_bytes)),
                     std::memory_order_relaxed);
  free_bytes_.store(usage->free_bytes, std::memory_order_relaxed);
  return true;
}

common::Status DiskSpaceGuard::CheckWrite(uint64_t bytes) {
  if (options_.floor_bytes == uint64_t{0}) return common::Status::Ok();
  uint64_t written = written_since_probe_.load(std::memory_order_relaxed) + bytes;
  int64_t age = NowNanos() - probed_at_nanos_.load(std::memory_order_relaxed);
  uint64_t floor = floor_bytes_.load(std::memory_order_relaxed);
  uint64_t free = free_bytes_.load(std::memory_order_relaxed);
  bool stale = age >= options_.refresh_interval.count() || written >= options_.refresh_bytes;
  bool near_floor = free < floor || free - floor < written;
  if (stale || near_floor) {
    std::lock_guard lock(probe_mutex_);
    if (!Probe()) return common::Status::Ok();
    written = bytes;
    floor = floor_bytes_.load(std::memory_order_relaxed);
    free = free_bytes_.load(std::memory_order_relaxed);
  } else if (probe_failed_.load(std::memory_order_relaxed)) {
    return common::Status::Ok();
  }
  if (free < floor || free - floor < written) return Refusal();
  written_since_probe_.fetch_add(bytes, std::memory_order_relaxed);
  return common::Status::Ok();
}

bool DiskSpaceGuard::HasRoom() {
  std::lock_guard lock(probe_mutex_);
  // Probed even when the guard is off, for the figures of `Refusal`.
  if (!Probe() || options_.floor_bytes == uint64_t{0}) return true;
  return free_bytes_.load(std::memory_order_relaxed) >=
         floor_bytes_.load(std::memory_order_relaxed);
}

common::Status DiskSpaceGuard::Refusal(std::string_view suffix) const {
  return common::Status(common::StatusCode::kWriteFailure,
                        fmt::format("Write refused: the disk holding {} is full ({} MiB free, "
                                    "floor {} MiB){}",
                                    path_, free_bytes() / kMiB, floor_bytes() / kMiB, suffix));
}

}  // namespace storage
