#include "common/uuid.h"

#include <algorithm>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace common {
namespace {

TEST(UuidTest, ParseAndFormatRoundTripLowerCase) {
  auto uuid = Uuid::Parse("5D5E4A58-7b7c-4B0E-9d2f-3E1A6B1C0F42");
  ASSERT_TRUE(uuid.ok()) << uuid.status().ToString();
  EXPECT_EQ(uuid->ToString(), "5d5e4a58-7b7c-4b0e-9d2f-3e1a6b1c0f42");
  EXPECT_EQ(ToHex(uuid->ToBytes()), "5d5e4a587b7c4b0e9d2f3e1a6b1c0f42");
  EXPECT_EQ(uuid->version(), 4);
  EXPECT_EQ(uuid->msb(), 0x5d5e4a587b7c4b0eULL);
  EXPECT_EQ(uuid->lsb(), 0x9d2f3e1a6b1c0f42ULL);
}

TEST(UuidTest, ParseRejectsEverythingButTheCanonicalForm) {
  for (std::string_view bad :
       {"", "5d5e4a58-7b7c-4b0e-9d2f-3e1a6b1c0f4", "5d5e4a58-7b7c-4b0e-9d2f-3e1a6b1c0f423",
        "5d5e4a587b7c-4b0e-9d2f-3e1a6b1c0f42-", "5d5e4a58-7b7c-4b0e-9d2f_3e1a6b1c0f42",
        "5d5e4a58-7b7c-4b0e-9d2f-3e1a6b1c0f4g", "{5d5e4a58-7b7c-4b0e-9d2f-3e1a6b1c0f}",
        "5d5e4a58+7b7c-4b0e-9d2f-3e1a6b1c0f42", "5d5e4a5-87b7c-4b0e-9d2f-3e1a6b1c0f42"}) {
    auto uuid = Uuid::Parse(bad);
    EXPECT_FALSE(uuid.ok()) << bad;
    if (!uuid.ok()) {
      EXPECT_EQ(uuid.status().code(), StatusCode::kInvalid);
      EXPECT_EQ(uuid.status().message(), "Unable to make UUID from '" + std::string(bad) + "'");
    }
  }
}

TEST(UuidTest, FromBytesNeedsSixteenBytes) {
  EXPECT_FALSE(Uuid::FromBytes("").ok());
  EXPECT_FALSE(Uuid::FromBytes(std::string(15, 'a')).ok());
  EXPECT_FALSE(Uuid::FromBytes(std::string(17, 'a')).ok());
  auto uuid = Uuid::FromBytes(std::string(16, '\xff'));
  ASSERT_TRUE(uuid.ok());
  EXPECT_EQ(uuid->ToString(), "ffffffff-ffff-ffff-ffff-ffffffffffff");
  EXPECT_TRUE(Uuid().IsNil());
  EXPECT_EQ(Uuid().ToString(), "00000000-0000-0000-0000-000000000000");
}

TEST(UuidTest, TimeuuidTimestampFields) {
  // A known v1 UUID; expected values from Python's uuid module (u.time).
  auto uuid = Uuid::Parse("50554d6e-29bb-11e5-b345-feff819cdc9f");
  ASSERT_TRUE(uuid.ok());
  EXPECT_EQ(uuid->version(), 1);
  EXPECT_EQ(uuid->RawTimestamp(), 136561248188058990LL);
  EXPECT_EQ(uuid->UnixMicros(), 1436832018805899LL);
  EXPECT_EQ(uuid->UnixMillis(), 1436832018805LL);  // 2015-07-14
}

TEST(UuidTest, TimeBasedRoundTripsTheRawTimestamp) {
  for (int64_t raw : {int64_t{0}, int64_t{1}, int64_t{0x0FFFFFFFFFFFFFFF},
                      int64_t{136561248188058990}, int64_t{0x0123456789ABCDEF}}) {
    Uuid uuid = Uuid::TimeBased(raw, 0x8000000000000000ULL);
    EXPECT_EQ(uuid.version(), 1);
    EXPECT_EQ(uuid.RawTimestamp(), raw);
    EXPECT_EQ(uuid.lsb(), 0x8000000000000000ULL);
  }
}

TEST(UuidTest, MinAndMaxTimeuuidMatchCassandra) {
  // minTimeuuid('2013-01-01 00:05+0000') / maxTimeuuid(...), 1356998700000 ms; expected values
  // computed independently from Cassandra's formulas.
  EXPECT_EQ(MinTimeuuid(1356998700000LL).ToString(), "e23f1e00-53a6-11e2-8080-808080808080");
  EXPECT_EQ(MaxTimeuuid(1356998700000LL).ToString(), "e23f450f-53a6-11e2-7f7f-7f7f7f7f7f7f");
  EXPECT_EQ(MinTimeuuid(Uuid::kUuidEpochUnixMillis).ToString(),
            "00000000-0000-1000-8080-808080808080");
  Uuid min = MinTimeuuid(1436832018805LL);
  Uuid max = MaxTimeuuid(1436832018805LL);
  EXPECT_EQ(min.UnixMillis(), 1436832018805LL);
  EXPECT_EQ(max.UnixMillis(), 1436832018805LL);
  EXPECT_EQ(max.RawTimestamp() - min.RawTimestamp(), 9999);
  // Absurd inputs wrap as in Java instead of being undefined behaviour.
  (void)MinTimeuuid(std::numeric_limits<int64_t>::min());
  (void)MaxTimeuuid(std::numeric_limits<int64_t>::max());
}

TEST(UuidTest, RandomIsVersion4Variant2AndDistinct) {
  std::set<Uuid> seen;
  for (int i = 0; i < 1000; ++i) {
    Uuid uuid = Uuid::Random();
    EXPECT_EQ(uuid.version(), 4);
    EXPECT_EQ(uuid.bytes()[8] & 0xC0, 0x80);
    seen.insert(uuid);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(UuidTest, SeededRandomIsReproducible) {
  std::mt19937_64 a(42);
  std::mt19937_64 b(42);
  Uuid first = Uuid::Random(a);
  EXPECT_EQ(first, Uuid::Random(b));
  EXPECT_NE(first, Uuid::Random(a));
  EXPECT_EQ(first.version(), 4);
}

TEST(TimeuuidGeneratorTest, RandomClockSeqAndNodeHasVariantAndMulticastBits) {
  for (int i = 0; i < 100; ++i) {
    uint64_t word = TimeuuidGenerator::RandomClockSeqAndNode();
    EXPECT_EQ(word >> 62, 2u);
    EXPECT_NE(word & 0x010000000000ULL, 0u);
  }
}

TEST(TimeuuidGeneratorTest, UsesTheClockAndTheFixedLsb) {
  ManualClock clock(1436832018805899LL);
  TimeuuidGenerator generator(&clock, 0xb345feff819cdc9fULL);
  Uuid uuid = generator.Next();
  EXPECT_EQ(uuid.version(), 1);
  EXPECT_EQ(uuid.UnixMicros(), 1436832018805899LL);
  EXPECT_EQ(uuid.RawTimestamp(), 136561248188058990LL);
  EXPECT_EQ(uuid.ToString(), "50554d6e-29bb-11e5-b345-feff819cdc9f");
}

TEST(TimeuuidGeneratorTest, StrictlyIncreasingWithinATickAndWhenTheClockGoesBack) {
  ManualClock clock(1000000);
  TimeuuidGenerator generator(&clock, 0x8000010000000000ULL);
  int64_t previous = -1;
  for (int i = 0; i < 50; ++i) {
    int64_t raw = generator.Next().RawTimestamp();
    EXPECT_GT(raw, previous);
    previous = raw;
  }
  clock.SetMicros(10);  // backwards
  for (int i = 0; i < 50; ++i) {
    int64_t raw = generator.Next().RawTimestamp();
    EXPECT_EQ(raw, previous + 1);
    previous = raw;
  }
  clock.SetMicros(2000000);
  Uuid jumped = generator.Next();
  EXPECT_EQ(jumped.UnixMicros(), 2000000);
}

TEST(TimeuuidGeneratorTest, UniqueAcrossThreads) {
  ManualClock clock(5);
  TimeuuidGenerator generator(&clock);
  constexpr int kThreads = 4;
  constexpr int kPerThread = 3000;
  std::vector<std::vector<int64_t>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) seen[t].push_back(generator.Next().RawTimestamp());
      EXPECT_TRUE(std::is_sorted(seen[t].begin(), seen[t].end()));
    });
  }
  for (auto& thread : threads) thread.join();
  std::vector<int64_t> all;
  for (const auto& v : seen) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
}

}  // namespace
}  // namespace common
