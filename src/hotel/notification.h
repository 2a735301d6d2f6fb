// Notification: one email the hotel service owes a guest — the confirmation of a booking, the
// notice of a change, or of a cancellation — as a row of the outbox table
// `reservation.notifications_by_hour` (docs/data-model.md, "Notifications: the outbox").
//
// The service builds a notification (`NotificationFor`) for each booking, change and cancel and
// writes it in the SAME logged batch as the reservation rows and the history row of that
// transition (Repository::WriteReservation), so a reservation never changes without its
// notification and a notification never exists for a change that did not happen. Its id is the
// history event's timeuuid: the row says what happened, when, and to which event it belongs.
// The row carries everything the email says (guest name, addresses, hotel, stay, total, the
// stay before a change), so the worker (`notification_worker.h`) renders it without another read.
//
// Rows are bucketed by the hour of their event (`hour` = YYYYMMDDHH in UTC, e.g. 2026112703) and
// clustered by id: a partition holds one hour's notifications in time order, the worker reads
// the buckets forward from its checkpoint, and delivery is recorded in the row's own columns —
// never by deleting it (Cassandra's queue anti-pattern; rows expire whole with the table's TTL).
//
// Thread-safety: values and stateless functions only.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/uuid.h"
#include "hotel/domain.h"

namespace hotel {

enum class NotificationKind { kConfirmation, kChange, kCancellation };
// "confirmation", "change", "cancellation".
std::string_view NotificationKindName(NotificationKind kind);
// NotificationKindName's inverse; nullopt for any other text.
std::optional<NotificationKind> ParseNotificationKind(std::string_view name);

// The hour bucket of a moment: YYYYMMDDHH in UTC (2026-11-27T03:12Z -> 2026112703). Buckets sort
// in time order, as the seeds' `month` = YYYYMM does.
int32_t HourBucket(int64_t unix_millis);
// The first millisecond of a bucket. REQUIRES: `hour` came from HourBucket.
int64_t HourBucketStartMillis(int32_t hour);
// The bucket after `hour` (2026113023 -> 2026120100).
int32_t NextHourBucket(int32_t hour);

// True for an address the outbox can put in a header and an SMTP envelope unchanged:
// `local@domain`, printable ASCII without blanks, quotes, brackets, commas or semicolons, at most
// 254 characters. Anything else (a typo, or an attempt to inject a header) is never mailed.
bool IsMailableAddress(std::string_view address);

// A stay as a notification describes it.
struct NotifiedStay {
  int16_t room_number = 0;
  Day check_in = 0;
  Day check_out = 0;
  Cents total = 0;
  bool operator==(const NotifiedStay&) const = default;
};

struct Notification {
  // --- What to send (written once, in the transition's batch) ---
  int32_t hour = 0;              // the bucket of the event's time
  common::Uuid notification_id;  // = the history event's id (a timeuuid)
  NotificationKind kind = NotificationKind::kConfirmation;
  std::string confirmation_number;
  std::vector<std::string> recipients;  // mailable addresses, sorted, at least one
  std::string guest_name;               // "First Last"
  std::string hotel_id;
  std::string hotel_name;
  NotifiedStay stay;  // the stay as it is after the event
  std::string currency;
  std::optional<NotifiedStay> previous;  // a change: the stay before it

  // --- Delivery (the worker's columns; unset on a fresh row) ---
  int32_t attempts = 0;                // deliveries started (claimed)
  int64_t next_attempt_at_millis = 0;  // not due before (a lease or a backoff); 0: due
  int64_t delivered_at_millis = 0;     // 0: not delivered
  int64_t failed_at_millis = 0;        // 0: not given up
  std::string last_error;

  int64_t at_millis() const { return notification_id.UnixMillis(); }
  // Delivered or given up: the worker has nothing more to do with it.
  bool done() const { return delivered_at_millis > 0 || failed_at_millis > 0; }
};

// The notification of a transition of `reservation` (in its new state) to `guest`, with the
// history event's id `event_id`: kConfirmation for a booking, kChange (with `before`, the stay
// before the change) or kCancellation. nullopt when the guest has no mailable address (nothing
// can be sent; the transition is written without a notification).
std::optional<Notification> NotificationFor(NotificationKind kind, const Reservation& reservation,
                                            const Reservation* before, const Guest& guest,
                                            const common::Uuid& event_id);

}  // namespace hotel
