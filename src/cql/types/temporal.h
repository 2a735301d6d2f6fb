// Dates, times, timestamps and durations: parsing from text and printing, as Cassandra 4.1
// parses CQL literals and as cqlsh prints result values.
//
// The serialized forms (native_protocol_v4.spec §6) these functions produce and read:
//   date      = uint32 days since 1970-01-01 with the epoch at 2^31 (0x80000000 = 1970-01-01);
//   time      = int64 nanoseconds since midnight, 0 <= t < 86400 * 10^9;
//   timestamp = int64 milliseconds since 1970-01-01T00:00:00Z;
//   duration  = months, days, nanoseconds (see `Duration`), all of one sign.
// The calendar is the proleptic Gregorian one (Java's java.time and Python's datetime).
// Local times without a zone are read as UTC (Cassandra uses the server's zone; servers run
// in UTC).
//
// Used by `cql/parser/literal.h` (CQL constants and cqlsh/COPY text) and `value_format.h` (cqlsh
// output). Error messages are Cassandra's, word for word, since drivers and users match on them.
//
// Thread-safety: stateless free functions; safe to call concurrently.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"

namespace cql {

// The serialized `date` of 1970-01-01.
inline constexpr uint32_t kDateEpoch = 0x80000000u;
inline constexpr int64_t kNanosPerDay = int64_t{86400} * 1000 * 1000 * 1000;

// A CQL duration. Valid when months, days and nanoseconds are all >= 0 or all <= 0.
struct Duration {
  int32_t months = 0;
  int32_t days = 0;
  int64_t nanoseconds = 0;
  bool operator==(const Duration&) const = default;
};

struct CivilDate {
  int64_t year = 1970;  // proleptic Gregorian; year 0 is 1 BC
  int month = 1;        // 1..12
  int day = 1;          // 1..31
  bool operator==(const CivilDate&) const = default;
};

// Days since 1970-01-01 of a civil date. REQUIRES: a valid month and day; |year| < 2^40.
int64_t DaysFromCivil(int64_t year, int month, int day);
// The civil date of a day count since 1970-01-01.
CivilDate CivilFromDays(int64_t days);

// Parses a `date` as Cassandra does: an unsigned day count in the serialized form
// ("2147483648" is 1970-01-01) or an ISO date "yyyy-mm-dd" (strict: 2024-02-30 fails;
// years beyond 4 digits need a sign, "+10000-01-01"). Returns the serialized day count.
// Errors: "Unable to make unsigned int (for date) from: '<text>'",
// "Unable to coerce '<text>' to a formatted date (long)", "Input date ... is less than min
// supported date ..." / "... greater than max supported date ...".
common::Result<uint32_t> ParseDate(std::string_view text);

// Parses a `time`: nanoseconds since midnight as an integer, or "hh:mm:ss[.fffffffff]"
// (hour, minute and second may have one digit; surrounding spaces are ignored).
// Errors: "Unable to make long (for time) from: '<text>'",
// "(TimeType) Unable to coerce '<text>' to a formatted time (long)".
common::Result<int64_t> ParseTime(std::string_view text);

// Parses a `timestamp` as Cassandra 4.1 does: "now" (the current time), an integer number of
// milliseconds, or a date-time "yyyy-mm-dd[(T| )hh:mm[:ss][.f{0,9}]][zone]" where the zone is
// "Z", "+hh", "+hhmm", "+hh:mm" (optionally after a space) or " UTC"/" GMT"/" UT". Fractions
// beyond milliseconds are truncated; a day past the month's end is clamped (Java's SMART
// resolver: 2023-02-30 10:00 is 2023-02-28 10:00) except in the date-only form.
// Errors: "Unable to make long (for date) from: '<text>'",
// "Unable to parse a date/time from '<text>'".
common::Result<int64_t> ParseTimestamp(std::string_view text);

// Parses a duration as Cassandra's Duration.from(): "1y2mo3w4d5h6m7s8ms9us10ns" (units in
// that order, each at most once; "µs" = "us"; any case), ISO 8601 "P1Y2M3DT4H5M6S" and
// "P2W", or the alternative "P0001-02-03T04:05:06"; a leading '-' negates.
// Errors: "Unable to convert '<text>' to a duration", "Invalid duration. The <unit> should be
// after <unit>", "Invalid duration. The <unit> are specified multiple times",
// "Invalid duration. The total number of <unit> must be less or equal to 2147483647".
common::Result<Duration> ParseDuration(std::string_view text);

// Duration text as Cassandra's Duration.toString() and cqlsh print it: "1y2mo", "-3d",
// "1h30m", "1ms500us"; the zero duration prints as "".
std::string FormatDuration(const Duration& duration);

// A serialized `date` as cqlsh prints it: "2024-01-31" (zero-padded year) for years
// 1..9999, otherwise the signed number of days since 1970-01-01 ("-719163").
std::string FormatDateForCqlsh(uint32_t days);

// A `date` as ISO text that ParseDate reads back: "2024-01-31", "-0001-01-01",
// "+10000-01-01".
std::string FormatDateIso(uint32_t days);

// A `time` as "hh:mm:ss.nnnnnnnnn". Values outside one day print as the raw integer.
std::string FormatTime(int64_t nanoseconds);

// A `timestamp` as cqlsh prints it with its default format "%Y-%m-%d %H:%M:%S.%f%z":
// "2015-05-03 13:30:54.234000+0000". Like cqlsh (which goes through a Python float), values
// outside years 1..9999 print as the integer milliseconds, and far-future values may show
// float rounding in the microseconds.
std::string FormatTimestampForCqlsh(int64_t millis);

// A `timestamp` as ISO 8601 UTC with milliseconds, "2015-05-03T13:30:54.234Z", for years
// 1..9999; other values print as the integer milliseconds. Both forms parse back with
// ParseTimestamp to the same value.
std::string FormatTimestampIso(int64_t millis);

}  // namespace cql
