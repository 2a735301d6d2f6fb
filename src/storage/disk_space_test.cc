#include "storage/disk_space.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace storage {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

// A disk whose free space the test sets, counting how often it is probed.
struct FakeDisk {
  uint64_t total = 1024 * kMiB;
  uint64_t free = 512 * kMiB;
  bool fail = false;
  int probes = 0;

  DiskUsageProbe Probe() {
    return [this](const std::string&) -> common::Result<DiskUsage> {
      ++probes;
      if (fail) return common::Status::IOError("statvfs failed");
      return DiskUsage{total, free};
    };
  }
};

DiskSpaceGuardOptions Options(FakeDisk* disk, std::optional<uint64_t> floor) {
  DiskSpaceGuardOptions options;
  options.floor_bytes = floor;
  // Time never makes a probe stale in these tests: only bytes and the floor do.
  options.refresh_interval = std::chrono::hours(1);
  options.refresh_bytes = 64 * kMiB;
  options.probe = disk->Probe();
  return options;
}

TEST(DiskSpaceGuardTest, DefaultFloorIs64MiBOrOnePercent) {
  EXPECT_EQ(DefaultFreeSpaceFloor(1024 * kMiB), 64 * kMiB);
  EXPECT_EQ(DefaultFreeSpaceFloor(uint64_t{100} * 1024 * kMiB), 1024 * kMiB);
  FakeDisk disk;
  disk.total = uint64_t{200} * 1024 * kMiB;
  DiskSpaceGuard guard("/data", Options(&disk, std::nullopt));
  EXPECT_EQ(guard.floor_bytes(), 2048 * kMiB);
}

TEST(DiskSpaceGuardTest, RefusesBelowTheFloorWithWriteFailure) {
  FakeDisk disk;
  disk.free = 10 * kMiB;
  DiskSpaceGuard guard("/data", Options(&disk, 16 * kMiB));
  common::Status refused = guard.CheckWrite(100);
  EXPECT_EQ(refused.code(), common::StatusCode::kWriteFailure);
  EXPECT_EQ(refused.message(),
            "Write refused: the disk holding /data is full (10 MiB free, floor 16 MiB)");
  EXPECT_FALSE(guard.HasRoom());
}

TEST(DiskSpaceGuardTest, AcceptsAgainAsSoonAsSpaceIsBack) {
  FakeDisk disk;
  disk.free = 10 * kMiB;
  DiskSpaceGuard guard("/data", Options(&disk, 16 * kMiB));
  EXPECT_FALSE(guard.CheckWrite(1).ok());
  disk.free = 100 * kMiB;
  // Near the floor every check probes, so no stale figure keeps the refusal.
  EXPECT_TRUE(guard.CheckWrite(1).ok());
  EXPECT_TRUE(guard.HasRoom());
}

TEST(DiskSpaceGuardTest, CountsWritesAgainstTheCachedFigure) {
  FakeDisk disk;
  disk.free = 17 * kMiB;  // 1 MiB above the floor
  DiskSpaceGuard guard("/data", Options(&disk, 16 * kMiB));
  int probes = disk.probes;
  EXPECT_TRUE(guard.CheckWrite(kMiB / 2).ok());
  EXPECT_EQ(disk.probes, probes) << "far enough from the floor: no probe";
  // The disk filled meanwhile (another writer); the estimate reaches the floor and re-probes.
  disk.free = 16 * kMiB;
  EXPECT_EQ(guard.CheckWrite(kMiB / 2 + 1).code(), common::StatusCode::kWriteFailure);
  EXPECT_EQ(disk.probes, probes + 1);
}

TEST(DiskSpaceGuardTest, FarFromTheFloorProbesOnlyEveryRefreshBytes) {
  FakeDisk disk;
  DiskSpaceGuard guard("/data", Options(&disk, 16 * kMiB));
  int probes = disk.probes;
  for (int i = 0; i < 63; ++i) ASSERT_TRUE(guard.CheckWrite(kMiB).ok());
  EXPECT_EQ(disk.probes, probes);
  ASSERT_TRUE(guard.CheckWrite(kMiB).ok());
  EXPECT_EQ(disk.probes, probes + 1);
}

TEST(DiskSpaceGuardTest, StaleFiguresAreProbedAgain) {
  FakeDisk disk;
  DiskSpaceGuardOptions options = Options(&disk, 16 * kMiB);
  options.refresh_interval = std::chrono::nanoseconds(0);
  DiskSpaceGuard guard("/data", options);
  int probes = disk.probes;
  ASSERT_TRUE(guard.CheckWrite(1).ok());
  ASSERT_TRUE(guard.CheckWrite(1).ok());
  EXPECT_EQ(disk.probes, probes + 2);
}

TEST(DiskSpaceGuardTest, ZeroFloorNeverRefuses) {
  FakeDisk disk;
  disk.free = 0;
  DiskSpaceGuard guard("/data", Options(&disk, 0));
  int probes = disk.probes;
  EXPECT_TRUE(guard.CheckWrite(kMiB).ok());
  EXPECT_EQ(disk.probes, probes) << "writes are not even checked";
  EXPECT_TRUE(guard.HasRoom());
  EXPECT_EQ(guard.floor_bytes(), 0u);
}

TEST(DiskSpaceGuardTest, AFailingProbeLetsWritesThrough) {
  FakeDisk disk;
  disk.fail = true;
  DiskSpaceGuard guard("/data", Options(&disk, 16 * kMiB));
  EXPECT_TRUE(guard.CheckWrite(kMiB).ok());
  EXPECT_TRUE(guard.HasRoom());
}

TEST(DiskSpaceGuardTest, ProbesTheNearestExistingAncestor) {
  std::filesystem::path missing =
      std::filesystem::temp_directory_path() / "cqld-no-such-dir" / "data";
  auto usage = ProbeDiskUsage(missing.string());
  ASSERT_TRUE(usage.ok()) << usage.status().ToString();
  EXPECT_GT(usage->total_bytes, 0u);
}

}  // namespace
}  // namespace storage
