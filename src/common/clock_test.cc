#include "common/clock.h"

#include <algorithm>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace common {
namespace {

TEST(ClockTest, SystemClockIsAfter2020AndMillisMatchesMicros) {
  SystemClock clock;
  int64_t micros = clock.NowMicros();
  EXPECT_GT(micros, int64_t{1577836800} * 1000000);  // 2020-01-01
  int64_t millis = clock.NowMillis();
  EXPECT_GE(millis, micros / 1000);
}

TEST(ClockTest, ManualClockMovesOnlyWhenTold) {
  ManualClock clock(1000);
  EXPECT_EQ(clock.NowMicros(), 1000);
  EXPECT_EQ(clock.NowMicros(), 1000);
  clock.AdvanceMicros(2500);
  EXPECT_EQ(clock.NowMicros(), 3500);
  EXPECT_EQ(clock.NowMillis(), 3);
  clock.SetMicros(-1);
  EXPECT_EQ(clock.NowMicros(), -1);
  EXPECT_EQ(clock.NowMillis(), -1);  // floor before the epoch
  clock.SetMicros(-1000);
  EXPECT_EQ(clock.NowMillis(), -1);
  clock.SetMicros(-1001);
  EXPECT_EQ(clock.NowMillis(), -2);
}

TEST(WriteTimestampGeneratorTest, FollowsTheClockWhenItMovesForward) {
  ManualClock clock(5000);
  WriteTimestampGenerator generator(&clock);
  EXPECT_EQ(generator.Next(), 5000);
  clock.SetMicros(9000);
  EXPECT_EQ(generator.Next(), 9000);
  EXPECT_EQ(generator.Last(), 9000);
}

TEST(WriteTimestampGeneratorTest, IncrementsWhenTheClockStallsOrGoesBack) {
  ManualClock clock(5000);
  WriteTimestampGenerator generator(&clock);
  EXPECT_EQ(generator.Next(), 5000);
  EXPECT_EQ(generator.Next(), 5001);
  EXPECT_EQ(generator.Next(), 5002);
  clock.SetMicros(100);  // stepped backwards
  EXPECT_EQ(generator.Next(), 5003);
  clock.SetMicros(5003);
  EXPECT_EQ(generator.Next(), 5004);
  clock.SetMicros(7000);
  EXPECT_EQ(generator.Next(), 7000);
}

TEST(WriteTimestampGeneratorTest, ObserveRaisesTheFloorButNeverLowersIt) {
  ManualClock clock(10);
  WriteTimestampGenerator generator(&clock);
  generator.Observe(1000);
  EXPECT_EQ(generator.Next(), 1001);
  generator.Observe(5);
  EXPECT_EQ(generator.Next(), 1002);
}

TEST(WriteTimestampGeneratorTest, StrictlyIncreasingAndUniqueAcrossThreads) {
  ManualClock clock(1);  // a frozen clock forces every value through the increment path
  WriteTimestampGenerator generator(&clock);
  constexpr int kThreads = 4;
  constexpr int kPerThread = 5000;
  std::vector<std::vector<int64_t>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      int64_t previous = 0;
      for (int i = 0; i < kPerThread; ++i) {
        int64_t ts = generator.Next();
        ASSERT_GT(ts, previous);  // strictly increasing as seen by each thread
        previous = ts;
        seen[t].push_back(ts);
        if (i % 1000 == 0 && t == 0) clock.AdvanceMicros(3);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  std::vector<int64_t> all;
  for (const auto& v : seen) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "duplicate timestamp";
  EXPECT_EQ(all.size(), static_cast<size_t>(kThreads * kPerThread));
  EXPECT_EQ(generator.Last(), all.back());
}

}  // namespace
}  // namespace common
