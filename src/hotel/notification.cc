#include "hotel/notification.h"

#include <algorithm>
#include <chrono>

namespace hotel {

namespace {

constexpr int64_t kMillisPerHour = 60 * 60 * 1000;

int64_t FloorDivide(int64_t value, int64_t divisor) {
  int64_t quotient = value / divisor;
  return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient;
}

NotifiedStay StayOf(const Reservation& reservation) {
  return {reservation.room_number, reservation.check_in, reservation.check_out, reservation.total};
}

}  // namespace

std::string_view NotificationKindName(NotificationKind kind) {
  switch (kind) {
    case NotificationKind::kConfirmation:
      return "confirmation";
    case NotificationKind::kChange:
      return "change";
    case NotificationKind::kCancellation:
      return "cancellation";
  }
  return "confirmation";
}

std::optional<NotificationKind> ParseNotificationKind(std::string_view name) {
  for (NotificationKind kind : {NotificationKind::kConfirmation, NotificationKind::kChange,
                                NotificationKind::kCancellation}) {
    if (NotificationKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

int32_t HourBucket(int64_t unix_millis) {
  int64_t hours = FloorDivide(unix_millis, kMillisPerHour);
  int64_t days = FloorDivide(hours, 24);
  std::chrono::year_month_day date{std::chrono::sys_days{std::chrono::days{days}}};
  int64_t bucket = (static_cast<int64_t>(static_cast<int>(date.year())) * 10000 +
                    static_cast<unsigned>(date.month()) * 100 + static_cast<unsigned>(date.day())) *
                       100 +
                   (hours - days * 24);
  return static_cast<int32_t>(bucket);
}

int64_t HourBucketStartMillis(int32_t hour) {
  int hour_of_day = hour % 100;
  unsigned day = static_cast<unsigned>(hour / 100 % 100);
  unsigned month = static_cast<unsigned>(hour / 10000 % 100);
  int year = hour / 1000000;
  std::chrono::sys_days date{std::chrono::year{year} / std::chrono::month{month} /
                             std::chrono::day{day}};
  return (static_cast<int64_t>(date.time_since_epoch().count()) * 24 + hour_of_day) *
         kMillisPerHour;
}

int32_t NextHourBucket(int32_t hour) {
  return HourBucket(HourBucketStartMillis(hour) + kMillisPerHour);
}

bool IsMailableAddress(std::string_view address) {
  if (address.size() < 3 || address.size() > 254) return false;
  size_t at = address.find('@');
  if (at == std::string_view::npos || at == 0 || at + 1 == address.size() ||
      address.find('@', at + 1) != std::string_view::npos) {
    return false;
  }
  std::string_view domain = address.substr(at + 1);
  if (domain.front() == '.' || domain.back() == '.' || address[at - 1] == '.' ||
      address.front() == '.') {
    return false;
  }
  for (char c : address) {
    auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte >= 0x7f) return false;
    if (std::string_view("\"(),:;<>[\\]").find(c) != std::string_view::npos) return false;
  }
  return true;
}

std::optional<Notification> NotificationFor(NotificationKind kind, const Reservation& reservation,
                                            const Reservation* before, const Guest& guest,
                                            const common::Uuid& event_id) {
  Notification notification;
  for (const std::string& email : guest.emails) {
    if (IsMailableAddress(email)) notification.recipients.push_back(email);
  }
  if (notification.recipients.empty()) return std::nullopt;
  std::sort(notification.recipients.begin(), notification.recipients.end());
  notification.recipients.erase(
      std::unique(notification.recipients.begin(), notification.recipients.end()),
      notification.recipients.end());
  notification.notification_id = event_id;
  notification.hour = HourBucket(event_id.UnixMillis());
  notification.kind = kind;
  notification.confirmation_number = reservation.confirmation_number;
  notification.guest_name = reservation.guest_first_name + " " + reservation.guest_last_name;
  notification.hotel_id = reservation.hotel_id;
  notification.hotel_name = reservation.hotel_name;
  notification.stay = StayOf(reservation);
  notification.currency = reservation.currency;
  if (before != nullptr) notification.previous = StayOf(*before);
  return notification;
}

}  // namespace hotel
