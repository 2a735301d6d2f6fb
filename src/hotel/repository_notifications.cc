// The repository's outbox statements (repository.h, "The outbox"; docs/data-model.md,
// "Notifications: the outbox"): the insert that rides in WriteReservation's logged batch, the
// notify worker's slice reads of one hour bucket, its conditional claims, its delivery records
// and its checkpoint. No statement deletes a row: delivery is recorded in the row's own cells.

#include <fmt/format.h>

#include "hotel/repository.h"
#include "hotel/repository_rows.h"

namespace hotel {

using common::Result;
using common::Status;
using cql::BoundValue;
using repository_rows::Applied;
using repository_rows::DatabaseError;
using repository_rows::DayValue;
using repository_rows::IntValue;
using repository_rows::MoneyValue;
using repository_rows::RoomValue;
using repository_rows::RowView;
using repository_rows::TextValue;
using repository_rows::TimestampValue;
using repository_rows::UuidValue;

namespace {

// The columns the insert writes and the read returns, in this order.
constexpr std::string_view kNotificationColumns =
    "hour, notification_id, kind, confirm_number, recipients, guest_name, hotel_id, hotel_name, "
    "room_number, start_date, end_date, total, currency, previous_room_number, "
    "previous_start_date, previous_end_date, previous_total, attempts";
// Read only: the worker's delivery state, after kNotificationColumns (positions 18-21).
constexpr std::string_view kDeliveryColumns =
    "next_attempt_at, delivered_at, failed_at, last_error";

// Recipients are stored as one RFC 5322 address list ("a@example.com, b@example.com"): mailable
// addresses hold neither commas nor blanks, so the list splits back unambiguously.
std::string JoinRecipients(const std::vector<std::string>& recipients) {
  return fmt::format("{}", fmt::join(recipients, ", "));
}

std::vector<std::string> SplitRecipients(std::string_view list) {
  std::vector<std::string> recipients;
  size_t start = 0;
  while (start < list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    std::string_view address = list.substr(start, comma - start);
    while (!address.empty() && address.front() == ' ') address.remove_prefix(1);
    if (!address.empty()) recipients.emplace_back(address);
    start = comma + 1;
  }
  return recipients;
}

Notification ReadNotification(RowView& row) {
  Notification notification;
  notification.hour = row.Int(0);
  notification.notification_id = row.Uuid(1);
  notification.kind = ParseNotificationKind(row.Text(2)).value_or(NotificationKind::kConfirmation);
  notification.confirmation_number = row.Text(3);
  notification.recipients = SplitRecipients(row.Text(4));
  notification.guest_name = row.Text(5);
  notification.hotel_id = row.Text(6);
  notification.hotel_name = row.Text(7);
  notification.stay = {row.Room(8), row.Date(9), row.Date(10), row.Money(11)};
  notification.currency = row.Text(12);
  if (!row.Text(14).empty()) {  // previous_start_date is set: a change
    notification.previous = NotifiedStay{row.Room(13), row.Date(14), row.Date(15), row.Money(16)};
  }
  notification.attempts = row.Text(17).empty() ? 0 : row.Int(17);
  notification.next_attempt_at_millis = row.Timestamp(18);
  notification.delivered_at_millis = row.Timestamp(19);
  notification.failed_at_millis = row.Timestamp(20);
  notification.last_error = row.Text(21);
  return notification;
}

std::vector<BoundValue> NotificationKey(const Notification& notification) {
  return {IntValue(notification.hour), UuidValue(notification.notification_id)};
}

}  // namespace

std::vector<Repository::Statement> Repository::NotificationStatements() {
  const std::string& r = keyspaces_.reservation;
  return {
      {&insert_notification_,
       fmt::format("INSERT INTO {}.notifications_by_hour ({}) VALUES ({})", r, kNotificationColumns,
                   "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?")},
      {&notifications_in_hour_,
       fmt::format("SELECT {}, {} FROM {}.notifications_by_hour WHERE hour = ? "
                   "AND notification_id > ? LIMIT ?",
                   kNotificationColumns, kDeliveryColumns, r)},
      {&claim_notification_,
       fmt::format("UPDATE {}.notifications_by_hour SET attempts = ?, next_attempt_at = ? "
                   "WHERE hour = ? AND notification_id = ? IF attempts = ?",
                   r)},
      {&notification_delivered_, fmt::format("UPDATE {}.notifications_by_hour SET delivered_at = ? "
                                             "WHERE hour = ? AND notification_id = ?",
                                             r)},
      {&notification_retry_,
       fmt::format("UPDATE {}.notifications_by_hour SET next_attempt_at = ?, last_error = ? "
                   "WHERE hour = ? AND notification_id = ? IF attempts = ?",
                   r)},
      {&notification_given_up_,
       fmt::format("UPDATE {}.notifications_by_hour SET failed_at = ?, last_error = ? "
                   "WHERE hour = ? AND notification_id = ? IF attempts = ?",
                   r)},
      {&notification_checkpoint_,
       fmt::format("SELECT done_before FROM {}.notification_checkpoints_by_worker WHERE worker = ?",
                   r)},
      {&set_notification_checkpoint_,
       fmt::format(
           "UPDATE {}.notification_checkpoints_by_worker SET done_before = ?, updated_at = ? "
           "WHERE worker = ?",
           r)},
  };
}

cql::BatchEntry Repository::NotificationEntry(const Notification& n) const {
  cql::BatchEntry entry;
  entry.prepared = insert_notification_;
  // A fresh notification leaves the previous_* columns unset (not null): a null would write a
  // tombstone per cell.
  auto previous = [&](auto value) { return n.previous ? value(*n.previous) : BoundValue::Unset(); };
  entry.values = {IntValue(n.hour),
                  UuidValue(n.notification_id),
                  TextValue(NotificationKindName(n.kind)),
                  TextValue(n.confirmation_number),
                  TextValue(JoinRecipients(n.recipients)),
                  TextValue(n.guest_name),
                  TextValue(n.hotel_id),
                  TextValue(n.hotel_name),
                  RoomValue(n.stay.room_number),
                  DayValue(n.stay.check_in),
                  DayValue(n.stay.check_out),
                  MoneyValue(n.stay.total),
                  TextValue(n.currency),
                  previous([](const NotifiedStay& s) { return RoomValue(s.room_number); }),
                  previous([](const NotifiedStay& s) { return DayValue(s.check_in); }),
                  previous([](const NotifiedStay& s) { return DayValue(s.check_out); }),
                  previous([](const NotifiedStay& s) { return MoneyValue(s.total); }),
                  IntValue(0)};
  return entry;
}

Result<std::vector<Notification>> Repository::NotificationsInHour(int32_t hour,
                                                                  const common::Uuid& after,
                                                                  int32_t limit) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, Run(notifications_in_hour_,
                                            {IntValue(hour), UuidValue(after), IntValue(limit)}));
  std::vector<Notification> notifications;
  for (size_t i = 0; i < rows.row_count(); ++i) {
    RowView row(rows, i);
    Notification notification = ReadNotification(row);
    RETURN_IF_ERROR(row.status());
    notifications.push_back(std::move(notification));
  }
  return notifications;
}

Result<bool> Repository::ClaimNotification(const Notification& notification, int32_t attempts_seen,
                                           int64_t lease_until_millis) {
  std::vector<BoundValue> values = {IntValue(attempts_seen + 1),
                                    TimestampValue(lease_until_millis)};
  for (BoundValue& key : NotificationKey(notification)) values.push_back(std::move(key));
  values.push_back(IntValue(attempts_seen));
  ASSIGN_OR_RETURN(cql::ResultSet result, Run(claim_notification_, std::move(values)));
  return Applied(result);
}

Status Repository::RecordNotificationDelivered(const Notification& notification,
                                               int64_t delivered_at_millis) {
  std::vector<BoundValue> values = {TimestampValue(delivered_at_millis)};
  for (BoundValue& key : NotificationKey(notification)) values.push_back(std::move(key));
  return Run(notification_delivered_, std::move(values)).status();
}

Result<bool> Repository::RecordNotificationFailure(const Notification& notification,
                                                   int32_t attempts, const std::string& error,
                                                   int64_t now_millis, int64_t retry_at_millis,
                                                   bool give_up) {
  std::vector<BoundValue> values = {TimestampValue(give_up ? now_millis : retry_at_millis),
                                    TextValue(error)};
  for (BoundValue& key : NotificationKey(notification)) values.push_back(std::move(key));
  values.push_back(IntValue(attempts));
  ASSIGN_OR_RETURN(cql::ResultSet result,
                   Run(give_up ? notification_given_up_ : notification_retry_, std::move(values)));
  return Applied(result);
}

Result<std::optional<int64_t>> Repository::NotificationCheckpoint(const std::string& worker) {
  ASSIGN_OR_RETURN(cql::ResultSet rows, Run(notification_checkpoint_, {TextValue(worker)}));
  if (rows.row_count() == 0) return std::optional<int64_t>();
  RowView row(rows, 0);
  int64_t done_before = row.Timestamp(0);
  RETURN_IF_ERROR(row.status());
  return std::optional<int64_t>(done_before);
}

Status Repository::SetNotificationCheckpoint(const std::string& worker, int64_t done_before_millis,
                                             int64_t now_millis) {
  return Run(set_notification_checkpoint_,
             {TimestampValue(done_before_millis), TimestampValue(now_millis), TextValue(worker)})
      .status();
}

}  // namespace hotel
