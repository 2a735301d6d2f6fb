#include "cql/types/temporal.h"

#include <gtest/gtest.h>

#include <random>

namespace cql {
namespace {

constexpr int64_t kSecond = 1000000000;
constexpr int64_t kMinute = 60 * kSecond;
constexpr int64_t kHour = 60 * kMinute;

template <typename T>
std::string ErrorOf(const common::Result<T>& result) {
  EXPECT_FALSE(result.ok());
  return result.status().message();
}

TEST(TemporalTest, CivilDays) {
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(1969, 12, 31), -1);
  EXPECT_EQ(DaysFromCivil(2000, 3, 1), 11017);
  EXPECT_EQ(DaysFromCivil(2024, 2, 29), 19782);
  EXPECT_EQ(DaysFromCivil(2024, 1, 31), 19753);
  EXPECT_EQ(DaysFromCivil(1900, 3, 1), -25508);
  EXPECT_EQ(DaysFromCivil(1582, 10, 15), -141427);
  EXPECT_EQ(DaysFromCivil(1, 1, 1), -719162);
  EXPECT_EQ(DaysFromCivil(9999, 12, 31), 2932896);
  EXPECT_EQ(CivilFromDays(19782), (CivilDate{2024, 2, 29}));
  EXPECT_EQ(CivilFromDays(-719162), (CivilDate{1, 1, 1}));
  EXPECT_EQ(CivilFromDays(-719163), (CivilDate{0, 12, 31}));
  // The serialized date range ends (native_protocol_v4.spec §6.5).
  EXPECT_EQ(CivilFromDays(INT32_MIN), (CivilDate{-5877641, 6, 23}));
  EXPECT_EQ(CivilFromDays(INT32_MAX), (CivilDate{5881580, 7, 11}));
}

TEST(TemporalTest, CivilDaysRoundTrip) {
  for (int64_t day = -800000; day <= 3000000; day += 7) {
    CivilDate date = CivilFromDays(day);
    ASSERT_EQ(DaysFromCivil(date.year, date.month, date.day), day);
  }
  std::mt19937_64 rng(1);
  for (int i = 0; i < 10000; ++i) {
    int64_t day = static_cast<int64_t>(rng() % (int64_t{1} << 33)) - (int64_t{1} << 32);
    CivilDate date = CivilFromDays(day);
    ASSERT_GE(date.month, 1);
    ASSERT_LE(date.month, 12);
    ASSERT_GE(date.day, 1);
    ASSERT_LE(date.day, 31);
    ASSERT_EQ(DaysFromCivil(date.year, date.month, date.day), day);
  }
}

TEST(TemporalTest, ParseDate) {
  EXPECT_EQ(*ParseDate("1970-01-01"), kDateEpoch);
  EXPECT_EQ(*ParseDate("2024-01-31"), kDateEpoch + 19753);
  EXPECT_EQ(*ParseDate("2024-02-29"), kDateEpoch + 19782);
  EXPECT_EQ(*ParseDate("1969-12-31"), kDateEpoch - 1);
  EXPECT_EQ(*ParseDate("0001-01-01"), kDateEpoch - 719162);
  EXPECT_EQ(*ParseDate("-0001-12-31"), kDateEpoch - 719163 - 366);
  EXPECT_EQ(*ParseDate("+10000-01-01"), kDateEpoch + 2932897);
  EXPECT_EQ(*ParseDate("-5877641-06-23"), 0u);
  EXPECT_EQ(*ParseDate("+5881580-07-11"), UINT32_MAX);
  // Raw day numbers are the serialized (unsigned, epoch at 2^31) form.
  EXPECT_EQ(*ParseDate("2147483648"), kDateEpoch);
  EXPECT_EQ(*ParseDate("0"), 0u);
  EXPECT_EQ(*ParseDate("4294967295"), UINT32_MAX);
}

TEST(TemporalTest, ParseDateErrors) {
  EXPECT_EQ(ErrorOf(ParseDate("4294967296")),
            "Unable to make unsigned int (for date) from: '4294967296'");
  EXPECT_EQ(ErrorOf(ParseDate("-1")), "Unable to make unsigned int (for date) from: '-1'");
  EXPECT_EQ(ErrorOf(ParseDate("99999999999999999999")),
            "Unable to make unsigned int (for date) from: '99999999999999999999'");
  for (std::string_view bad : {"2024-02-30", "2023-02-29", "2024-13-01", "2024-00-10", "2024-1-31",
                               "24-01-31", "10000-01-01", "+2024-01-01", "2024-01-31 ",
                               "2024/01/31", "", "today", "2024-01-31T00:00"}) {
    EXPECT_EQ(ErrorOf(ParseDate(bad)),
              "Unable to coerce '" + std::string(bad) + "' to a formatted date (long)");
  }
  EXPECT_EQ(ErrorOf(ParseDate("-5877641-06-22")),
            "Input date -5877641-06-22 is less than min supported date -5877641-06-23T00:00Z");
  EXPECT_EQ(ErrorOf(ParseDate("+5881580-07-12")),
            "Input date +5881580-07-12 is greater than max supported date "
            "+5881580-07-11T00:00Z");
}

TEST(TemporalTest, ParseTime) {
  EXPECT_EQ(*ParseTime("08:12:54.123456789"), 8 * kHour + 12 * kMinute + 54 * kSecond + 123456789);
  EXPECT_EQ(*ParseTime("00:00:00"), 0);
  EXPECT_EQ(*ParseTime("23:59:59.999999999"), kNanosPerDay - 1);
  EXPECT_EQ(*ParseTime("12:34:56.1"), 12 * kHour + 34 * kMinute + 56 * kSecond + 100000000);
  EXPECT_EQ(*ParseTime(" 1:2:3 "), kHour + 2 * kMinute + 3 * kSecond);
  EXPECT_EQ(*ParseTime("86399999999999"), kNanosPerDay - 1);
  EXPECT_EQ(*ParseTime("0"), 0);
  EXPECT_EQ(ErrorOf(ParseTime("86400000000000")),
            "Unable to make long (for time) from: '86400000000000'");
  EXPECT_EQ(ErrorOf(ParseTime("-1")), "Unable to make long (for time) from: '-1'");
  for (std::string_view bad :
       {"24:00:00", "12:60:00", "12:00:60", "12:00", "12:00:00.", "12:00:00.1234567890",
        "12:00:00.x", "12:00:00.1x", "abc", ":1:2", "1:2:", "", "-1:00:00"}) {
    EXPECT_EQ(ErrorOf(ParseTime(bad)),
              "(TimeType) Unable to coerce '" + std::string(bad) + "' to a formatted time (long)");
  }
}

TEST(TemporalTest, ParseTimestampForms) {
  constexpr int64_t kExample = 1430659854234;  // 2015-05-03 13:30:54.234 UTC
  for (std::string_view text :
       {"2015-05-03 13:30:54.234", "2015-05-03T13:30:54.234", "2015-05-03 13:30:54.234Z",
        "2015-05-03 13:30:54.234+0000", "2015-05-03T13:30:54.234+00:00",
        "2015-05-03 13:30:54.234 +0000", "2015-05-03 13:30:54.234 UTC",
        "2015-05-03 13:30:54.234 GMT", "2015-05-03 13:30:54.234000+0000",
        "2015-05-03 13:30:54.234999", "2015-5-3 13:30:54.234", "2015-05-03 15:30:54.234+0200",
        "2015-05-03 08:30:54.234-05", "2015-05-03T08:30:54.234-05:00", "1430659854234"}) {
    auto parsed = ParseTimestamp(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
    EXPECT_EQ(*parsed, kExample) << text;
  }
  EXPECT_EQ(*ParseTimestamp("2024-01-31"), 1706659200000);
  EXPECT_EQ(*ParseTimestamp("2024-01-31Z"), 1706659200000);
  EXPECT_EQ(*ParseTimestamp("2024-01-31+01:00"), 1706659200000 - 3600000);
  EXPECT_EQ(*ParseTimestamp("2024-01-31 UTC"), 1706659200000);
  EXPECT_EQ(*ParseTimestamp("2024-01-31 08:12+0100"), 1706685120000);
  EXPECT_EQ(*ParseTimestamp("2024-01-31 08:12:05"), 1706685120000 + 3600000 + 5000);
  EXPECT_EQ(*ParseTimestamp("1970-01-01 00:00"), 0);
  EXPECT_EQ(*ParseTimestamp("1969-12-31 23:59:59.999"), -1);
  EXPECT_EQ(*ParseTimestamp("-1"), -1);
  EXPECT_EQ(*ParseTimestamp("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(*ParseTimestamp("0001-01-01 00:00"), -62135596800000);
  // Java's SMART resolver clamps the day of a date-time, not of a plain ISO date.
  EXPECT_EQ(*ParseTimestamp("2023-02-30 10:00"), *ParseTimestamp("2023-02-28 10:00"));
  EXPECT_FALSE(ParseTimestamp("2023-02-30").ok());
  // "now" is the current time.
  EXPECT_GT(*ParseTimestamp("now"), 1700000000000);
  EXPECT_GT(*ParseTimestamp("NOW"), 1700000000000);
}

TEST(TemporalTest, ParseTimestampErrors) {
  EXPECT_EQ(ErrorOf(ParseTimestamp("99999999999999999999")),
            "Unable to make long (for date) from: '99999999999999999999'");
  for (std::string_view bad :
       {"abc", "", "2015-05-03 25:00", "2015-13-01 10:00", "2015-05-03 10:60", "2015-05-03 10",
        "2015-5-3", "2015-05-03T", "2015-05-03 10:00:00.1234567890", "2015-05-03 10:00 PST",
        "2015-05-03 10:00+19", "2015-05-03 10:00+0160", "2015-05-03 10:00 +01:00", "2015-05-03x",
        "0000-01-01 10:00", "999999999-01-01 00:00"}) {
    EXPECT_EQ(ErrorOf(ParseTimestamp(bad)),
              "Unable to parse a date/time from '" + std::string(bad) + "'");
  }
}

TEST(TemporalTest, ParseDuration) {
  EXPECT_EQ(*ParseDuration("1h30m"), (Duration{0, 0, 90 * kMinute}));
  EXPECT_EQ(*ParseDuration("-2d"), (Duration{0, -2, 0}));
  EXPECT_EQ(*ParseDuration("1y2mo3w4d5h6m7s8ms9us10ns"),
            (Duration{14, 25, 5 * kHour + 6 * kMinute + 7 * kSecond + 8009010}));
  EXPECT_EQ(*ParseDuration("1Y2MO3W4D5H6M7S8MS9US10NS"),
            (Duration{14, 25, 5 * kHour + 6 * kMinute + 7 * kSecond + 8009010}));
  EXPECT_EQ(*ParseDuration("3\xC2\xB5s"), (Duration{0, 0, 3000}));  // µs
  EXPECT_EQ(*ParseDuration("3\xC2\xB5S"), (Duration{0, 0, 3000}));
  EXPECT_EQ(*ParseDuration("1mo1m"), (Duration{1, 0, kMinute}));
  EXPECT_EQ(*ParseDuration("P1Y2M3DT4H5M6S"),
            (Duration{14, 3, 4 * kHour + 5 * kMinute + 6 * kSecond}));
  EXPECT_EQ(*ParseDuration("P2W"), (Duration{0, 14, 0}));
  EXPECT_EQ(*ParseDuration("-P2W"), (Duration{0, -14, 0}));
  EXPECT_EQ(*ParseDuration("PT10M"), (Duration{0, 0, 10 * kMinute}));
  EXPECT_EQ(*ParseDuration("P1M"), (Duration{1, 0, 0}));
  EXPECT_EQ(*ParseDuration("P"), (Duration{}));
  EXPECT_EQ(*ParseDuration("P0001-02-03T04:05:06"),
            (Duration{14, 3, 4 * kHour + 5 * kMinute + 6 * kSecond}));
  EXPECT_EQ(*ParseDuration("-P0001-02-03T04:05:06"),
            (Duration{-14, -3, -(4 * kHour + 5 * kMinute + 6 * kSecond)}));
  EXPECT_EQ(*ParseDuration("2147483647mo"), (Duration{INT32_MAX, 0, 0}));
  EXPECT_EQ(*ParseDuration("9223372036854775807ns"), (Duration{0, 0, INT64_MAX}));
  EXPECT_EQ(*ParseDuration("-9223372036854775807ns"), (Duration{0, 0, -INT64_MAX}));
}

TEST(TemporalTest, ParseDurationErrors) {
  EXPECT_EQ(ErrorOf(ParseDuration("1h1d")), "Invalid duration. The hours should be after days");
  EXPECT_EQ(ErrorOf(ParseDuration("1m1mo")),
            "Invalid duration. The minutes should be after months");
  EXPECT_EQ(ErrorOf(ParseDuration("1d1d")),
            "Invalid duration. The days are specified multiple times");
  EXPECT_EQ(ErrorOf(ParseDuration("1x")), "Unable to convert '1x' to a duration");
  EXPECT_EQ(ErrorOf(ParseDuration("-1x")), "Unable to convert '1x' to a duration");
  EXPECT_EQ(ErrorOf(ParseDuration("h")), "Unable to convert 'h' to a duration");
  EXPECT_EQ(ErrorOf(ParseDuration("")), "Unable to convert '' to a duration");
  EXPECT_EQ(ErrorOf(ParseDuration("1h ")), "Unable to convert '1h ' to a duration");
  EXPECT_EQ(ErrorOf(ParseDuration("p1d")), "Unable to convert 'p1d' to a duration");
  EXPECT_EQ(ErrorOf(ParseDuration("P1W2D")), "Unable to convert 'P1W2D' to a duration");
  EXPECT_EQ(ErrorOf(ParseDuration("P1-02-03T04:05:06")),
            "Unable to convert 'P1-02-03T04:05:06' to a duration");
  EXPECT_EQ(ErrorOf(ParseDuration("2147483648mo")),
            "Invalid duration. The total number of months must be less or equal to 2147483647");
  EXPECT_EQ(ErrorOf(ParseDuration("178956971y")),
            "Invalid duration. The total number of months must be less or equal to 2147483647");
  EXPECT_EQ(ErrorOf(ParseDuration("1y2147483637mo")),
            "Invalid duration. The total number of months must be less or equal to 2147483647");
  EXPECT_EQ(ErrorOf(ParseDuration("306783379w")),
            "Invalid duration. The total number of days must be less or equal to 2147483647");
  EXPECT_EQ(ErrorOf(ParseDuration("9223372036854775808ns")),
            "Invalid duration. The total number of nanoseconds must be less or equal to "
            "2147483647");
  EXPECT_EQ(ErrorOf(ParseDuration("99999999999999999999999h")),
            "Invalid duration. The total number of nanoseconds must be less or equal to "
            "2147483647");
}

TEST(TemporalTest, FormatDuration) {
  EXPECT_EQ(FormatDuration({14, 25, 5 * kHour + 6 * kMinute + 7 * kSecond + 8009010}),
            "1y2mo25d5h6m7s8ms9us10ns");
  EXPECT_EQ(FormatDuration({}), "");
  EXPECT_EQ(FormatDuration({-1, 0, 0}), "-1mo");
  EXPECT_EQ(FormatDuration({12, 0, 0}), "1y");
  EXPECT_EQ(FormatDuration({0, -3, 0}), "-3d");
  EXPECT_EQ(FormatDuration({0, 0, 90 * kMinute}), "1h30m");
  EXPECT_EQ(FormatDuration({0, 0, 1500000}), "1ms500us");
  EXPECT_EQ(FormatDuration({0, 0, 7}), "7ns");
  EXPECT_EQ(FormatDuration({INT32_MIN, INT32_MIN, INT64_MIN}),
            "-178956970y8mo2147483648d2562047h47m16s854ms775us808ns");
}

TEST(TemporalTest, DurationTextRoundTrips) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 5000; ++i) {
    int64_t sign = rng() % 2 ? 1 : -1;
    Duration d{static_cast<int32_t>(sign * static_cast<int64_t>(rng() % 5000)),
               static_cast<int32_t>(sign * static_cast<int64_t>(rng() % 100000)),
               sign * static_cast<int64_t>(rng() >> (1 + rng() % 63))};
    if (d == Duration{}) continue;
    auto parsed = ParseDuration(FormatDuration(d));
    ASSERT_TRUE(parsed.ok()) << FormatDuration(d);
    EXPECT_EQ(*parsed, d) << FormatDuration(d);
  }
}

TEST(TemporalTest, FormatDates) {
  EXPECT_EQ(FormatDateForCqlsh(kDateEpoch), "1970-01-01");
  EXPECT_EQ(FormatDateForCqlsh(kDateEpoch + 19753), "2024-01-31");
  EXPECT_EQ(FormatDateForCqlsh(kDateEpoch - 719162), "0001-01-01");
  EXPECT_EQ(FormatDateForCqlsh(kDateEpoch - 719163), "-719163");
  EXPECT_EQ(FormatDateForCqlsh(kDateEpoch + 2932896), "9999-12-31");
  EXPECT_EQ(FormatDateForCqlsh(kDateEpoch + 2932897), "2932897");
  EXPECT_EQ(FormatDateForCqlsh(0), "-2147483648");
  EXPECT_EQ(FormatDateIso(kDateEpoch + 19753), "2024-01-31");
  EXPECT_EQ(FormatDateIso(kDateEpoch - 719163), "0000-12-31");
  EXPECT_EQ(FormatDateIso(kDateEpoch - 719163 - 366), "-0001-12-31");
  EXPECT_EQ(FormatDateIso(kDateEpoch + 2932897), "+10000-01-01");
  EXPECT_EQ(FormatDateIso(0), "-5877641-06-23");
  EXPECT_EQ(FormatDateIso(UINT32_MAX), "+5881580-07-11");
  std::mt19937_64 rng(3);
  for (int i = 0; i < 10000; ++i) {
    auto days = static_cast<uint32_t>(rng());
    if (i < 3) days = i == 0 ? 0 : i == 1 ? UINT32_MAX : kDateEpoch;
    auto parsed = ParseDate(FormatDateIso(days));
    ASSERT_TRUE(parsed.ok()) << FormatDateIso(days);
    EXPECT_EQ(*parsed, days);
  }
}

TEST(TemporalTest, FormatTime) {
  EXPECT_EQ(FormatTime(8 * kHour + 12 * kMinute + 54 * kSecond + 123456789), "08:12:54.123456789");
  EXPECT_EQ(FormatTime(0), "00:00:00.000000000");
  EXPECT_EQ(FormatTime(kNanosPerDay - 1), "23:59:59.999999999");
  EXPECT_EQ(FormatTime(kNanosPerDay), "86400000000000");
  EXPECT_EQ(FormatTime(-5), "-5");
  std::mt19937_64 rng(4);
  for (int i = 0; i < 5000; ++i) {
    auto nanos = static_cast<int64_t>(rng() % static_cast<uint64_t>(kNanosPerDay));
    EXPECT_EQ(*ParseTime(FormatTime(nanos)), nanos);
  }
}

TEST(TemporalTest, FormatTimestampLikeCqlsh) {
  EXPECT_EQ(FormatTimestampForCqlsh(1430659854234), "2015-05-03 13:30:54.234000+0000");
  EXPECT_EQ(FormatTimestampForCqlsh(0), "1970-01-01 00:00:00.000000+0000");
  EXPECT_EQ(FormatTimestampForCqlsh(-1), "1969-12-31 23:59:59.999000+0000");
  EXPECT_EQ(FormatTimestampForCqlsh(4102444800123), "2100-01-01 00:00:00.123000+0000");
  // Values cqlsh computes through a Python float, with its rounding (checked with Python 3).
  EXPECT_EQ(FormatTimestampForCqlsh(253402300799999), "9999-12-31 23:59:59.998993+0000");
  EXPECT_EQ(FormatTimestampForCqlsh(32503680000001), "3000-01-01 00:00:00.000999+0000");
  EXPECT_EQ(FormatTimestampForCqlsh(100000000000001), "5138-11-16 09:46:40.001007+0000");
  // glibc's %Y does not pad years below 1000.
  EXPECT_EQ(FormatTimestampForCqlsh(-62135596800000), "1-01-01 00:00:00.000000+0000");
  // Outside Python's datetime range cqlsh prints the milliseconds.
  EXPECT_EQ(FormatTimestampForCqlsh(-62135596800001), "-62135596800001");
  EXPECT_EQ(FormatTimestampForCqlsh(253402300800000), "253402300800000");
  EXPECT_EQ(FormatTimestampForCqlsh(INT64_MIN), "-9223372036854775808");
  EXPECT_EQ(FormatTimestampForCqlsh(INT64_MAX), "9223372036854775807");
}

TEST(TemporalTest, FormatTimestampIsoRoundTrips) {
  EXPECT_EQ(FormatTimestampIso(1430659854234), "2015-05-03T13:30:54.234Z");
  EXPECT_EQ(FormatTimestampIso(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(FormatTimestampIso(-62135596800000), "0001-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatTimestampIso(-62135596800001), "-62135596800001");
  EXPECT_EQ(FormatTimestampIso(INT64_MIN), "-9223372036854775808");
  std::mt19937_64 rng(6);
  for (int i = 0; i < 10000; ++i) {
    auto millis = static_cast<int64_t>(rng() % 315537897600000) - 62135596800000;
    if (i % 100 == 0) millis = static_cast<int64_t>(rng());
    auto parsed = ParseTimestamp(FormatTimestampIso(millis));
    ASSERT_TRUE(parsed.ok()) << FormatTimestampIso(millis);
    EXPECT_EQ(*parsed, millis) << FormatTimestampIso(millis);
  }
}

}  // namespace
}  // namespace cql
