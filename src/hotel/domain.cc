#include "hotel/domain.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "common/ascii.h"
#include "cql/types/temporal.h"

namespace hotel {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

common::Result<Day> ParseDay(std::string_view text) {
  auto invalid = [&] {
    return common::Status::Invalid("Invalid date '" + std::string(text) + "': expected YYYY-MM-DD");
  };
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return invalid();
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!IsDigit(text[i])) return invalid();
  }
  int year =
      (text[0] - '0') * 1000 + (text[1] - '0') * 100 + (text[2] - '0') * 10 + (text[3] - '0');
  int month = (text[5] - '0') * 10 + (text[6] - '0');
  int day = (text[8] - '0') * 10 + (text[9] - '0');
  if (year < 1000 || month < 1 || month > 12 || day < 1) return invalid();
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  int limit = kDays[month - 1] + (month == 2 && leap ? 1 : 0);
  if (day > limit) return invalid();
  return cql::DaysFromCivil(year, month, day);
}

std::string FormatDay(Day day) {
  cql::CivilDate civil = cql::CivilFromDays(day);
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%04lld-%02d-%02d", static_cast<long long>(civil.year),
                civil.month, civil.day);
  return buffer;
}

Day Today() {
  auto now = std::chrono::system_clock::now();
  return std::chrono::floor<std::chrono::days>(now).time_since_epoch().count();
}

std::string_view BucketingName(AvailabilityBucketing bucketing) {
  return bucketing == AvailabilityBucketing::kMonth ? "month" : "none";
}

common::Result<AvailabilityBucketing> ParseBucketing(std::string_view text) {
  if (text == "none") return AvailabilityBucketing::kNone;
  if (text == "month") return AvailabilityBucketing::kMonth;
  return common::Status::Invalid("Invalid bucketing '" + std::string(text) +
                                 "': expected none or month");
}

int32_t MonthOf(Day day) {
  cql::CivilDate civil = cql::CivilFromDays(day);
  return static_cast<int32_t>(civil.year * 100 + civil.month);
}

Day NextMonthStart(Day day) {
  cql::CivilDate civil = cql::CivilFromDays(day);
  int64_t year = civil.year;
  int month = civil.month + 1;
  if (month > 12) {
    month = 1;
    ++year;
  }
  return cql::DaysFromCivil(year, month, 1);
}

common::Result<Cents> ParseMoney(std::string_view text) {
  auto invalid = [&] {
    return common::Status::Invalid("Invalid amount '" + std::string(text) +
                                   "': expected a decimal such as 129.00");
  };
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  if (whole.empty() || whole.size() > 12 || fraction.size() > 2) return invalid();
  if (dot != std::string_view::npos && fraction.empty()) return invalid();
  Cents cents = 0;
  for (char c : whole) {
    if (!IsDigit(c)) return invalid();
    cents = cents * 10 + (c - '0');
  }
  for (size_t i = 0; i < 2; ++i) {
    char c = i < fraction.size() ? fraction[i] : '0';
    if (!IsDigit(c)) return invalid();
    cents = cents * 10 + (c - '0');
  }
  return cents;
}

std::string FormatMoney(Cents cents) {
  char buffer[40];
  const char* sign = cents < 0 ? "-" : "";
  uint64_t magnitude = cents < 0 ? -static_cast<uint64_t>(cents) : static_cast<uint64_t>(cents);
  std::snprintf(buffer, sizeof(buffer), "%s%llu.%02llu", sign,
                static_cast<unsigned long long>(magnitude / 100),
                static_cast<unsigned long long>(magnitude % 100));
  return buffer;
}

std::string FoldName(std::string_view name) {
  size_t begin = name.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return "";
  size_t end = name.find_last_not_of(" \t");
  std::string folded(name.substr(begin, end - begin + 1));
  for (char& c : folded) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return folded;
}

std::string NewConfirmationNumber(std::mt19937_64& generator) {
  std::uniform_int_distribution<size_t> pick(0, kConfirmationAlphabet.size() - 1);
  std::string number(kConfirmationLength, ' ');
  for (char& c : number) c = kConfirmationAlphabet[pick(generator)];
  return number;
}

bool IsConfirmationNumber(std::string_view text) {
  if (text.size() < 6 || text.size() > 8) return false;
  for (char c : text) {
    if (kConfirmationAlphabet.find(c) == std::string_view::npos) return false;
  }
  return true;
}

std::string CanonicalConfirmation(std::string_view text) { return common::AsciiUpper(text); }

std::string CanonicalEmail(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return "";
  size_t end = text.find_last_not_of(" \t\r\n");
  return common::AsciiLower(text.substr(begin, end - begin + 1));
}

std::vector<std::string> CanonicalEmails(const std::vector<std::string>& emails) {
  std::vector<std::string> keys;
  for (const std::string& email : emails) {
    std::string key = CanonicalEmail(email);
    if (!key.empty()) keys.push_back(std::move(key));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

bool HoldsNights(std::string_view status) {
  return status == kStatusConfirmed || status == kStatusChanged || status == kStatusCheckedIn ||
         status == kStatusCheckedOut;
}

std::string_view ActionName(ReservationAction action) {
  switch (action) {
    case ReservationAction::kBooked:
      return "booked";
    case ReservationAction::kChanged:
      return "changed";
    case ReservationAction::kCancelled:
      return "cancelled";
    case ReservationAction::kCheckedIn:
      return "checked_in";
    case ReservationAction::kCheckedOut:
      return "checked_out";
    case ReservationAction::kNoShow:
      return "no_show";
  }
  return "unknown";
}

std::optional<ReservationAction> ParseAction(std::string_view name) {
  for (ReservationAction action : {ReservationAction::kBooked, ReservationAction::kChanged,
                                   ReservationAction::kCancelled, ReservationAction::kCheckedIn,
                                   ReservationAction::kCheckedOut, ReservationAction::kNoShow}) {
    if (ActionName(action) == name) return action;
  }
  return std::nullopt;
}

common::Status InvalidTransition(std::string message) {
  return common::Status(common::StatusCode::kFunctionFailure, std::move(message));
}

namespace {

// The verb of an action in an error message ("Cannot check in ...").
std::string_view ActionVerb(ReservationAction action) {
  switch (action) {
    case ReservationAction::kBooked:
      return "book";
    case ReservationAction::kChanged:
      return "change";
    case ReservationAction::kCancelled:
      return "cancel";
    case ReservationAction::kCheckedIn:
      return "check in";
    case ReservationAction::kCheckedOut:
      return "check out";
    case ReservationAction::kNoShow:
      return "record a no-show for";
  }
  return "change";
}

}  // namespace

common::Result<std::string> StatusAfter(std::string_view confirmation, std::string_view status,
                                        ReservationAction action) {
  bool upcoming = status == kStatusConfirmed || status == kStatusChanged;
  std::string_view next;
  switch (action) {
    case ReservationAction::kBooked:
      return std::string(kStatusConfirmed);
    case ReservationAction::kChanged:
      if (upcoming) next = kStatusChanged;
      break;
    case ReservationAction::kCancelled:
      if (upcoming) next = kStatusCancelled;
      break;
    case ReservationAction::kCheckedIn:
      if (upcoming) next = kStatusCheckedIn;
      break;
    case ReservationAction::kCheckedOut:
      if (status == kStatusCheckedIn) next = kStatusCheckedOut;
      break;
    case ReservationAction::kNoShow:
      if (upcoming) next = kStatusNoShow;
      break;
  }
  if (next.empty()) {
    std::string words = status == kStatusNoShow ? "a no-show" : std::string(status);
    for (char& c : words) {
      if (c == '_') c = ' ';
    }
    return InvalidTransition(fmt::format("Cannot {} reservation '{}': it is {}", ActionVerb(action),
                                         confirmation, words));
  }
  return std::string(next);
}

std::string DescribeStay(const Reservation& reservation) {
  return fmt::format("room {}, {} to {}", reservation.room_number, FormatDay(reservation.check_in),
                     FormatDay(reservation.check_out));
}

}  // namespace hotel
