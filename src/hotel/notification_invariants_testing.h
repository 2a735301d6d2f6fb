// Test helper for the hotel layer: checks the outbox against the reservations as stored
// (docs/data-model.md, "Notifications: the outbox") — after a crash (crash_test.cc) no
// transition may have been written without its notification, nor a notification without its
// transition: every `booked`, `changed` and `cancelled` history event of a guest with a mailable
// address has exactly the notification of the same id, kind and confirmation number, and every
// notification belongs to such an event.
//
// Only *_test.cc files include this header. Thread-safety: as the repository (call it when no
// transition is running).

#pragma once

#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cql/session.h"
#include "hotel/repository.h"

namespace hotel::testing {

// Every violation found, as readable text (empty: consistent). Assumes every guest has a
// mailable address. Sets `*checked` to the number of notifications matched with their events.
inline std::vector<std::string> CheckOutboxInvariants(cql::Session& session, Repository& repository,
                                                      size_t* checked) {
  std::vector<std::string> problems;
  const std::string& ks = repository.keyspaces().reservation;
  auto outbox = session.Execute(fmt::format(
      "SELECT notification_id, kind, confirm_number FROM {}.notifications_by_hour", ks));
  if (!outbox.ok()) return {"scanning the outbox: " + outbox.status().ToString()};
  std::map<std::string, std::pair<std::string, std::string>> notifications;  // id -> kind, number
  for (size_t i = 0; i < outbox->row_count(); ++i) {
    auto id = common::Uuid::FromBytes(outbox->Value(i, 0).value_or(""));
    if (!id.ok()) return {"an outbox row without an id"};
    notifications[id->ToString()] = {std::string(outbox->Value(i, 1).value_or("")),
                                     std::string(outbox->Value(i, 2).value_or(""))};
  }
  auto all = session.Execute(
      fmt::format("SELECT confirm_number, status FROM {}.reservations_by_confirmation", ks));
  if (!all.ok()) return {"scanning reservations: " + all.status().ToString()};
  *checked = 0;
  for (size_t i = 0; i < all->row_count(); ++i) {
    std::string number(all->Value(i, 0).value_or(""));
    if (all->Value(i, 1).value_or("") == kStatusPending) continue;
    auto history = repository.ReservationHistory(number);
    if (!history.ok()) return {number + ": history unreadable"};
    for (const ReservationEvent& event : *history) {
      std::string kind = event.action == ReservationAction::kBooked      ? "confirmation"
                         : event.action == ReservationAction::kChanged   ? "change"
                         : event.action == ReservationAction::kCancelled ? "cancellation"
                                                                         : "";
      if (kind.empty()) continue;
      auto it = notifications.find(event.event_id.ToString());
      if (it == notifications.end()) {
        problems.push_back(fmt::format("{}: event {} ({}) has no notification", number,
                                       event.event_id.ToString(), ActionName(event.action)));
        continue;
      }
      if (it->second != std::pair{kind, number}) {
        problems.push_back(fmt::format("{}: notification {} is a {} of {}", number, it->first,
                                       it->second.first, it->second.second));
      }
      notifications.erase(it);
      ++*checked;
    }
  }
  for (const auto& [id, what] : notifications) {
    problems.push_back(fmt::format("notification {} ({} of {}) has no event in the history", id,
                                   what.first, what.second));
  }
  return problems;
}

}  // namespace hotel::testing
