#include "cql/types/temporal.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

#include "cql/types/big_number.h"

namespace cql {
namespace {

using common::Result;
using common::Status;

constexpr int64_t kMillisPerDay = int64_t{86400} * 1000;
constexpr int64_t kNanosPerMicro = 1000;
constexpr int64_t kNanosPerMilli = 1000 * kNanosPerMicro;
constexpr int64_t kNanosPerSecond = 1000 * kNanosPerMilli;
constexpr int64_t kNanosPerMinute = 60 * kNanosPerSecond;
constexpr int64_t kNanosPerHour = 60 * kNanosPerMinute;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// Java's `^-?\d+$`.
bool IsRawInteger(std::string_view text) {
  if (!text.empty() && text[0] == '-') text.remove_prefix(1);
  return !text.empty() && std::all_of(text.begin(), text.end(), IsDigit);
}

// Java's String.trim(): strips characters <= ' ' from both ends.
std::string_view JavaTrim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return s;
}

bool EqualsIgnoreAsciiCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
           return lower(x) == lower(y);
         });
}

bool IsLeapYear(int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// A forward-only reader over text, for the hand-written date/time grammars below.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  bool AtEnd() const { return pos_ == text_.size(); }
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  std::string_view Rest() const { return text_.substr(pos_); }
  size_t position() const { return pos_; }
  void Reset(size_t pos) { pos_ = pos; }

  bool Consume(char c) {
    if (Peek() != c || AtEnd()) return false;
    ++pos_;
    return true;
  }

  // Reads between `min_digits` and `max_digits` decimal digits (greedily, up to the max).
  bool Number(size_t min_digits, size_t max_digits, int64_t* value, size_t* count = nullptr) {
    size_t start = pos_;
    int64_t v = 0;
    while (pos_ < text_.size() && IsDigit(text_[pos_]) && pos_ - start < max_digits) {
      v = v * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    size_t n = pos_ - start;
    if (count != nullptr) *count = n;
    if (n < min_digits) return false;
    *value = v;
    return true;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// --- Timestamps -------------------------------------------------------------------------

// A zone offset in seconds east of UTC, per the offset forms Cassandra's formatters accept.
// `iso_seconds` also allows "+hh:mm:ss" (ISO_DATE's offset id).
std::optional<int64_t> ParseOffset(std::string_view text, bool iso_seconds) {
  if (text.empty()) return 0;
  if (text[0] == ' ') {
    std::string_view name = text.substr(1);
    for (std::string_view utc :
         {"UTC", "GMT", "UT", "Z", "Coordinated Universal Time", "Greenwich Mean Time"}) {
      if (name == utc) return 0;
    }
    text = name;  // " X": space then "+hh[mm]" or "Z"
    iso_seconds = false;
    if (text.find(':') != std::string_view::npos) return std::nullopt;
  }
  if (text == "Z") return 0;
  Scanner s(text);
  int sign = s.Consume('+') ? 1 : s.Consume('-') ? -1 : 0;
  if (sign == 0) return std::nullopt;
  int64_t hours = 0;
  int64_t minutes = 0;
  int64_t seconds = 0;
  if (!s.Number(2, 2, &hours)) return std::nullopt;
  if (s.Consume(':')) {
    if (!s.Number(2, 2, &minutes)) return std::nullopt;
    if (iso_seconds && s.Consume(':') && !s.Number(2, 2, &seconds)) return std::nullopt;
  } else if (!s.AtEnd() && !s.Number(2, 2, &minutes)) {
    return std::nullopt;
  }
  if (!s.AtEnd() || hours > 18 || minutes > 59 || seconds > 59) return std::nullopt;
  return sign * (hours * 3600 + minutes * 60 + seconds);
}

// The date-time forms of Cassandra 4.1's TimestampSerializer (without "now" and integers).
std::optional<int64_t> ParseDateTime(std::string_view text) {
  Scanner s(text);
  int64_t year = 0;
  int64_t month = 0;
  int64_t day = 0;
  size_t year_digits = 0;
  size_t month_digits = 0;
  size_t day_digits = 0;
  if (!s.Number(1, 9, &year, &year_digits) || !s.Consume('-') ||
      !s.Number(1, 2, &month, &month_digits) || !s.Consume('-') ||
      !s.Number(1, 2, &day, &day_digits)) {
    return std::nullopt;
  }
  bool has_time = s.Peek() == 'T' || (s.Peek() == ' ' && IsDigit(s.Peek(1)));
  int64_t hour = 0;
  int64_t minute = 0;
  int64_t second = 0;
  int64_t millis = 0;
  if (has_time) {
    s.Reset(s.position() + 1);
    if (!s.Number(1, 2, &hour) || !s.Consume(':') || !s.Number(1, 2, &minute)) {
      return std::nullopt;
    }
    if (s.Consume(':') && !s.Number(1, 2, &second)) return std::nullopt;
    if (s.Consume('.')) {
      int64_t fraction = 0;
      size_t digits = 0;
      s.Number(0, 9, &fraction, &digits);
      for (size_t i = digits; i < 9; ++i) fraction *= 10;
      millis = fraction / 1000000;  // truncated, as Java's MILLI_OF_SECOND fraction parsing
    }
  } else if (year_digits != 4 || month_digits != 2 || day_digits != 2) {
    return std::nullopt;  // date-only forms are "yyyy-MM-dd"
  }
  std::string_view zone = s.Rest();
  bool date_only_without_zone = !has_time && zone.empty();
  std::optional<int64_t> offset = ParseOffset(zone, !has_time);
  if (!offset) return std::nullopt;

  if (month < 1 || month > 12 || day < 1 || day > 31) return std::nullopt;
  if (year < (date_only_without_zone ? 0 : 1)) return std::nullopt;
  if (day > DaysInMonth(year, static_cast<int>(month))) {
    if (date_only_without_zone) return std::nullopt;   // ISO_DATE is strict
    day = DaysInMonth(year, static_cast<int>(month));  // SMART resolver clamps
  }
  if (hour > 23 || minute > 59 || second > 59) return std::nullopt;

  int64_t days = DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  int64_t seconds_of_day = hour * 3600 + minute * 60 + second - *offset;
  int64_t result = 0;
  if (__builtin_mul_overflow(days, kMillisPerDay, &result) ||
      __builtin_add_overflow(result, seconds_of_day * 1000 + millis, &result)) {
    return std::nullopt;
  }
  return result;
}

// --- Durations --------------------------------------------------------------------------

// Accumulates a duration unit by unit, enforcing Cassandra's order and range rules.
class DurationBuilder {
 public:
  explicit DurationBuilder(bool negative) : negative_(negative) {}

  // `unit` is 1 = years ... 10 = nanoseconds, as in Cassandra's Duration.Builder.
  Status Add(int unit, uint64_t amount) {
    if (unit == current_unit_) {
      return Status::Invalid("Invalid duration. The " + std::string(UnitName(unit)) +
                             " are specified multiple times");
    }
    if (unit < current_unit_) {
      return Status::Invalid("Invalid duration. The " + std::string(UnitName(current_unit_)) +
                             " should be after " + std::string(UnitName(unit)));
    }
    current_unit_ = unit;
    switch (unit) {
      case 1:
        return AddTo(&months_, amount, 12, INT32_MAX, "months");
      case 2:
        return AddTo(&months_, amount, 1, INT32_MAX, "months");
      case 3:
        return AddTo(&days_, amount, 7, INT32_MAX, "days");
      case 4:
        return AddTo(&days_, amount, 1, INT32_MAX, "days");
      case 5:
        return AddTo(&nanos_, amount, kNanosPerHour, INT64_MAX, "nanoseconds");
      case 6:
        return AddTo(&nanos_, amount, kNanosPerMinute, INT64_MAX, "nanoseconds");
      case 7:
        return AddTo(&nanos_, amount, kNanosPerSecond, INT64_MAX, "nanoseconds");
      case 8:
        return AddTo(&nanos_, amount, kNanosPerMilli, INT64_MAX, "nanoseconds");
      case 9:
        return AddTo(&nanos_, amount, kNanosPerMicro, INT64_MAX, "nanoseconds");
      default:
        return AddTo(&nanos_, amount, 1, INT64_MAX, "nanoseconds");
    }
  }

  Duration Build() const {
    int64_t sign = negative_ ? -1 : 1;
    return Duration{static_cast<int32_t>(sign * months_), static_cast<int32_t>(sign * days_),
                    sign * nanos_};
  }

 private:
  static std::string_view UnitName(int unit) {
    static constexpr std::string_view kNames[] = {
        "",        "years",   "months",       "weeks",        "days",       "hours",
        "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"};
    return kNames[unit];
  }

  // The limit message says 2147483647 even for nanoseconds, as Cassandra's does.
  static Status AddTo(int64_t* total, uint64_t amount, int64_t per_unit, int64_t max,
                      std::string_view unit_name) {
    auto limit = static_cast<uint64_t>((max - *total) / per_unit);
    if (amount > limit) {
      return Status::Invalid("Invalid duration. The total number of " + std::string(unit_name) +
                             " must be less or equal to 2147483647");
    }
    *total += static_cast<int64_t>(amount) * per_unit;
    return Status::Ok();
  }

  bool negative_;
  int current_unit_ = 0;
  int64_t months_ = 0;
  int64_t days_ = 0;
  int64_t nanos_ = 0;
};

// Reads 1+ digits as an unsigned amount; amounts beyond 64 bits saturate (they fail the range
// check anyway).
bool DurationAmount(Scanner* s, uint64_t* amount) {
  size_t count = 0;
  uint64_t v = 0;
  while (IsDigit(s->Peek()) && !s->AtEnd()) {
    uint64_t digit = static_cast<uint64_t>(s->Peek() - '0');
    v = v > (UINT64_MAX - digit) / 10 ? UINT64_MAX : v * 10 + digit;
    s->Reset(s->position() + 1);
    ++count;
  }
  *amount = v;
  return count > 0;
}

// Matches one unit symbol of the standard format at the scanner, trying Cassandra's regex
// alternatives in order; returns the unit index or 0.
int StandardUnit(Scanner* s) {
  struct Symbol {
    std::string_view text;
    int unit;
  };
  static constexpr Symbol kSymbols[] = {{"y", 1},         {"mo", 2},  {"w", 3},  {"d", 4},
                                        {"h", 5},         {"s", 7},   {"ms", 8}, {"us", 9},
                                        {"\xC2\xB5s", 9}, {"ns", 10}, {"m", 6}};
  std::string_view rest = s->Rest();
  for (const Symbol& symbol : kSymbols) {
    if (rest.size() >= symbol.text.size() &&
        EqualsIgnoreAsciiCase(rest.substr(0, symbol.text.size()), symbol.text)) {
      s->Reset(s->position() + symbol.text.size());
      return symbol.unit;
    }
  }
  return 0;
}

Result<Duration> ParseStandardDuration(bool negative, std::string_view source,
                                       const Status& unable) {
  Scanner s(source);
  DurationBuilder builder(negative);
  do {
    uint64_t amount = 0;
    if (!DurationAmount(&s, &amount)) return unable;
    int unit = StandardUnit(&s);
    if (unit == 0) return unable;
    RETURN_IF_ERROR(builder.Add(unit, amount));
  } while (!s.AtEnd());
  return builder.Build();
}

// P[nY][nM][nD][T[nH][nM][nS]]
Result<Duration> ParseIsoDuration(bool negative, std::string_view source, const Status& unable) {
  Scanner s(source);
  DurationBuilder builder(negative);
  s.Consume('P');
  auto optional_group = [&](char designator, int unit) -> Status {
    size_t start = s.position();
    uint64_t amount = 0;
    if (DurationAmount(&s, &amount) && s.Consume(designator)) return builder.Add(unit, amount);
    s.Reset(start);
    return Status::Ok();
  };
  RETURN_IF_ERROR(optional_group('Y', 1));
  RETURN_IF_ERROR(optional_group('M', 2));
  RETURN_IF_ERROR(optional_group('D', 4));
  if (s.Consume('T')) {
    RETURN_IF_ERROR(optional_group('H', 5));
    RETURN_IF_ERROR(optional_group('M', 6));
    RETURN_IF_ERROR(optional_group('S', 7));
  }
  if (!s.AtEnd()) return unable;
  return builder.Build();
}

// P(\d+)W
Result<Duration> ParseIsoWeekDuration(bool negative, std::string_view source,
                                      const Status& unable) {
  Scanner s(source);
  uint64_t weeks = 0;
  if (!s.Consume('P') || !DurationAmount(&s, &weeks) || !s.Consume('W') || !s.AtEnd()) {
    return unable;
  }
  DurationBuilder builder(negative);
  RETURN_IF_ERROR(builder.Add(3, weeks));
  return builder.Build();
}

// P(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})
Result<Duration> ParseIsoAlternativeDuration(bool negative, std::string_view source,
                                             const Status& unable) {
  Scanner s(source);
  int64_t fields[6] = {};
  if (!s.Consume('P') || !s.Number(4, 4, &fields[0]) || !s.Consume('-') ||
      !s.Number(2, 2, &fields[1]) || !s.Consume('-') || !s.Number(2, 2, &fields[2]) ||
      !s.Consume('T') || !s.Number(2, 2, &fields[3]) || !s.Consume(':') ||
      !s.Number(2, 2, &fields[4]) || !s.Consume(':') || !s.Number(2, 2, &fields[5]) || !s.AtEnd()) {
    return unable;
  }
  DurationBuilder builder(negative);
  static constexpr int kUnits[] = {1, 2, 4, 5, 6, 7};
  for (int i = 0; i < 6; ++i) {
    RETURN_IF_ERROR(builder.Add(kUnits[i], static_cast<uint64_t>(fields[i])));
  }
  return builder.Build();
}

// Appends `dividend / divisor` and `unit` when the quotient is positive; returns the remainder.
uint64_t AppendUnit(std::string* out, uint64_t dividend, uint64_t divisor, std::string_view unit) {
  if (dividend == 0 || dividend < divisor) return dividend;
  *out += std::to_string(dividend / divisor);
  *out += unit;
  return dividend % divisor;
}

uint64_t Magnitude(int64_t v) {
  return v < 0 ? ~static_cast<uint64_t>(v) + 1 : static_cast<uint64_t>(v);
}

std::string TwoDigits(int64_t v) {
  char buffer[8];
  std::snprintf(buffer, sizeof(buffer), "%02d", static_cast<int>(v));
  return buffer;
}

}  // namespace

int64_t DaysFromCivil(int64_t year, int month, int day) {
  year -= month <= 2 ? 1 : 0;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

CivilDate CivilFromDays(int64_t days) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t day_of_era = days - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t shifted_month = (5 * day_of_year + 2) / 153;
  CivilDate out;
  out.day = static_cast<int>(day_of_year - (153 * shifted_month + 2) / 5 + 1);
  out.month = static_cast<int>(shifted_month < 10 ? shifted_month + 3 : shifted_month - 9);
  out.year = year_of_era + era * 400 + (out.month <= 2 ? 1 : 0);
  return out;
}

Result<uint32_t> ParseDate(std::string_view text) {
  if (IsRawInteger(text)) {
    std::optional<int64_t> raw = ParseJavaInteger(text, 0, UINT32_MAX);
    if (!raw) {
      return Status::Invalid("Unable to make unsigned int (for date) from: " + Quoted(text));
    }
    return static_cast<uint32_t>(*raw);
  }
  Status unable =
      Status::Invalid("Unable to coerce " + Quoted(text) + " to a formatted date (long)");
  // ISO_LOCAL_DATE, strict: [+-]yyyy[yyyyyy]-MM-dd; more than 4 year digits need a sign.
  Scanner s(text);
  int sign = s.Consume('+') ? 1 : s.Consume('-') ? -1 : 0;
  int64_t year = 0;
  int64_t month = 0;
  int64_t day = 0;
  size_t year_digits = 0;
  if (!s.Number(4, 10, &year, &year_digits) || !s.Consume('-') || !s.Number(2, 2, &month) ||
      !s.Consume('-') || !s.Number(2, 2, &day) || !s.AtEnd()) {
    return unable;
  }
  if ((year_digits > 4 && sign == 0) || (year_digits == 4 && sign == 1)) return unable;
  if (sign < 0) year = -year;
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, static_cast<int>(month))) {
    return unable;
  }
  int64_t days = DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  if (days < INT32_MIN) {
    return Status::Invalid("Input date " + std::string(text) + " is less than min supported date " +
                           FormatDateIso(0) + "T00:00Z");
  }
  if (days > INT32_MAX) {
    return Status::Invalid("Input date " + std::string(text) +
                           " is greater than max supported date " + FormatDateIso(UINT32_MAX) +
                           "T00:00Z");
  }
  return static_cast<uint32_t>(days + int64_t{kDateEpoch});
}

Result<int64_t> ParseTime(std::string_view text) {
  if (IsRawInteger(text)) {
    std::optional<int64_t> raw = ParseJavaInteger(text, 0, kNanosPerDay - 1);
    if (!raw) return Status::Invalid("Unable to make long (for time) from: " + Quoted(text));
    return *raw;
  }
  Status unable = Status::Invalid("(TimeType) Unable to coerce " + Quoted(text) +
                                  " to a formatted time (long)");
  // hh:mm:ss[.fffffffff], loosely based on java.sql.Timestamp as Cassandra's parser is.
  std::string_view s = JavaTrim(text);
  size_t first_colon = s.find(':');
  size_t second_colon =
      first_colon == std::string_view::npos ? std::string_view::npos : s.find(':', first_colon + 1);
  if (first_colon == std::string_view::npos || first_colon == 0 ||
      second_colon == std::string_view::npos || second_colon >= s.size() - 1) {
    return unable;
  }
  auto parse_int = [](std::string_view part) {
    return ParseJavaInteger(part, INT32_MIN, INT32_MAX);
  };
  std::optional<int64_t> hour = parse_int(s.substr(0, first_colon));
  if (!hour || *hour < 0 || *hour >= 24) return unable;
  std::optional<int64_t> minute =
      parse_int(s.substr(first_colon + 1, second_colon - first_colon - 1));
  if (!minute || *minute < 0 || *minute >= 60) return unable;
  size_t period = s.find('.', second_colon + 1);
  std::optional<int64_t> second;
  int64_t nanos = 0;
  if (period != std::string_view::npos && period < s.size() - 1) {
    second = parse_int(s.substr(second_colon + 1, period - second_colon - 1));
    std::string_view fraction = s.substr(period + 1);
    if (fraction.size() > 9 || !IsDigit(fraction[0])) return unable;
    std::string padded(fraction);
    padded.append(9 - fraction.size(), '0');
    std::optional<int64_t> parsed = parse_int(padded);
    if (!parsed || *parsed < 0) return unable;
    nanos = *parsed;
  } else if (period != std::string_view::npos) {
    return unable;
  } else {
    second = parse_int(s.substr(second_colon + 1));
  }
  if (!second || *second < 0 || *second >= 60) return unable;
  return *hour * kNanosPerHour + *minute * kNanosPerMinute + *second * kNanosPerSecond + nanos;
}

Result<int64_t> ParseTimestamp(std::string_view text) {
  if (EqualsIgnoreAsciiCase(text, "now")) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  if (IsRawInteger(text)) {
    std::optional<int64_t> raw = ParseJavaInteger(text, INT64_MIN, INT64_MAX);
    if (!raw) return Status::Invalid("Unable to make long (for date) from: " + Quoted(text));
    return *raw;
  }
  std::optional<int64_t> parsed = ParseDateTime(text);
  if (!parsed) return Status::Invalid("Unable to parse a date/time from " + Quoted(text));
  return *parsed;
}

Result<Duration> ParseDuration(std::string_view input) {
  bool negative = !input.empty() && input[0] == '-';
  std::string_view source = negative ? input.substr(1) : input;
  Status unable = Status::Invalid("Unable to convert " + Quoted(source) + " to a duration");
  if (!source.empty() && source[0] == 'P') {
    if (source.back() == 'W') return ParseIsoWeekDuration(negative, source, unable);
    if (source.find('-') != std::string_view::npos) {
      return ParseIsoAlternativeDuration(negative, source, unable);
    }
    return ParseIsoDuration(negative, source, unable);
  }
  return ParseStandardDuration(negative, source, unable);
}

std::string FormatDuration(const Duration& duration) {
  std::string out;
  if (duration.months < 0 || duration.days < 0 || duration.nanoseconds < 0) out += '-';
  uint64_t remainder = AppendUnit(&out, Magnitude(duration.months), 12, "y");
  AppendUnit(&out, remainder, 1, "mo");
  AppendUnit(&out, Magnitude(duration.days), 1, "d");
  if (duration.nanoseconds != 0) {
    remainder = AppendUnit(&out, Magnitude(duration.nanoseconds), kNanosPerHour, "h");
    remainder = AppendUnit(&out, remainder, kNanosPerMinute, "m");
    remainder = AppendUnit(&out, remainder, kNanosPerSecond, "s");
    remainder = AppendUnit(&out, remainder, kNanosPerMilli, "ms");
    remainder = AppendUnit(&out, remainder, kNanosPerMicro, "us");
    AppendUnit(&out, remainder, 1, "ns");
  }
  return out;
}

std::string FormatDateForCqlsh(uint32_t days) {
  int64_t since_epoch = int64_t{days} - int64_t{kDateEpoch};
  CivilDate date = CivilFromDays(since_epoch);
  if (date.year < 1 || date.year > 9999) return std::to_string(since_epoch);
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02d", static_cast<int>(date.year), date.month,
                date.day);
  return buffer;
}

std::string FormatDateIso(uint32_t days) {
  CivilDate date = CivilFromDays(int64_t{days} - int64_t{kDateEpoch});
  std::string year = std::to_string(date.year < 0 ? -date.year : date.year);
  if (year.size() < 4) year.insert(0, 4 - year.size(), '0');
  if (date.year < 0) {
    year.insert(0, "-");
  } else if (date.year > 9999) {
    year.insert(0, "+");
  }
  return year + "-" + TwoDigits(date.month) + "-" + TwoDigits(date.day);
}

std::string FormatTime(int64_t nanoseconds) {
  if (nanoseconds < 0 || nanoseconds >= kNanosPerDay) return std::to_string(nanoseconds);
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%02d:%02d:%02d.%09d",
                static_cast<int>(nanoseconds / kNanosPerHour),
                static_cast<int>(nanoseconds / kNanosPerMinute % 60),
                static_cast<int>(nanoseconds / kNanosPerSecond % 60),
                static_cast<int>(nanoseconds % kNanosPerSecond));
  return buffer;
}

std::string FormatTimestampForCqlsh(int64_t millis) {
  // cqlsh computes datetime(1970, 1, 1) + timedelta(seconds=millis / 1000.0): the division is
  // a float one, and timedelta rounds the float's fraction to microseconds, half to even.
  double seconds = static_cast<double>(millis) / 1000.0;
  double whole = 0;
  double fraction = std::modf(seconds, &whole);
  constexpr double kMinSeconds = -62135596800.0;  // 0001-01-01T00:00:00
  constexpr double kMaxSeconds = 253402300800.0;  // 10000-01-01T00:00:00
  if (!(whole >= kMinSeconds - 1 && whole <= kMaxSeconds)) return std::to_string(millis);
  int64_t micros =
      static_cast<int64_t>(whole) * 1000000 + static_cast<int64_t>(std::nearbyint(fraction * 1e6));
  if (micros < static_cast<int64_t>(kMinSeconds) * 1000000 ||
      micros >= static_cast<int64_t>(kMaxSeconds) * 1000000) {
    return std::to_string(millis);
  }
  constexpr int64_t kMicrosPerDay = kMillisPerDay * 1000;
  int64_t day = micros / kMicrosPerDay;
  int64_t of_day = micros % kMicrosPerDay;
  if (of_day < 0) {
    of_day += kMicrosPerDay;
    --day;
  }
  CivilDate date = CivilFromDays(day);
  char buffer[64];
  // %Y is not zero-padded by glibc's strftime (year 987 prints "987").
  std::snprintf(buffer, sizeof(buffer), "%d-%02d-%02d %02d:%02d:%02d.%06d+0000",
                static_cast<int>(date.year), date.month, date.day,
                static_cast<int>(of_day / 3600000000), static_cast<int>(of_day / 60000000 % 60),
                static_cast<int>(of_day / 1000000 % 60), static_cast<int>(of_day % 1000000));
  return buffer;
}

std::string FormatTimestampIso(int64_t millis) {
  int64_t day = millis / kMillisPerDay;
  int64_t of_day = millis % kMillisPerDay;
  if (of_day < 0) {
    of_day += kMillisPerDay;
    --day;
  }
  CivilDate date = CivilFromDays(day);
  if (date.year < 1 || date.year > 9999) return std::to_string(millis);
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                static_cast<int>(date.year), date.month, date.day,
                static_cast<int>(of_day / 3600000), static_cast<int>(of_day / 60000 % 60),
                static_cast<int>(of_day / 1000 % 60), static_cast<int>(of_day % 1000));
  return buffer;
}

}  // namespace cql
