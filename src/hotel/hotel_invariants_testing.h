// Test helper for the hotel layer: checks the booking invariants of docs/data-model.md on the
// data as stored, after concurrent bookings (concurrency tests) or after a crash and a repair
// pass (crash test):
//   - every room-night of the hotel in [first, last) is either free (no holder) or held by a
//     confirmation number whose reservation holds nights (HoldsNights) and covers that night
//     (I1, I3 gone);
//   - every reservation whose status holds nights holds all of them (I2); every reservation,
//     of any status, is visible in all three reservation tables (Q6, Q7, Q8) with the same
//     status, and its history (Q10) is not empty and ends in that status;
//   - no "pending" confirmation row is left, and the by-date and by-guest tables hold no rows
//     beyond the reservations (nothing half-done);
//   - Q11's `stays_by_hotel_date` holds exactly one row per day of each reservation's stay,
//     with its status (CheckStayRows);
//   - Q12's `reservations_by_guest_email` holds exactly one row per reservation and canonical
//     address of its guest, with its stay and status (CheckEmailRows).
//
// Only *_test.cc files include this header. Thread-safety: as the repository (call it when no
// booking is running, or the answer may describe a moment in between).

#pragma once

#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cql/session.h"
#include "hotel/repository.h"

namespace hotel::testing {

// Calls `check` with every reservation of the keyspace but pending ones (Q6, read by number
// after a scan of `reservations_by_confirmation`).
template <typename Check>
void ForEachReservation(cql::Session& session, Repository& repository,
                        std::vector<std::string>& problems, Check&& check) {
  const std::string& ks = repository.keyspaces().reservation;
  auto all = session.Execute(
      fmt::format("SELECT confirm_number FROM {}.reservations_by_confirmation", ks));
  if (!all.ok()) {
    problems.push_back("scanning reservations: " + all.status().ToString());
    return;
  }
  for (size_t i = 0; i < all->row_count(); ++i) {
    auto found = repository.FindReservation(std::string(all->Value(i, 0).value_or("")));
    if (!found.ok() || !found->has_value() || (*found)->status == kStatusPending) continue;
    check(**found);
  }
}

// Whether `rows` hold `r`'s row: its number, status, room and stay.
inline bool HoldsRowOf(const common::Result<std::vector<Reservation>>& rows, const Reservation& r) {
  bool present = false;
  for (const Reservation& row : rows.ok() ? *rows : std::vector<Reservation>()) {
    present |= row.confirmation_number == r.confirmation_number && row.status == r.status &&
               row.room_number == r.room_number && row.check_in == r.check_in &&
               row.check_out == r.check_out;
  }
  return present;
}

// That `table` of the reservation keyspace has `expected` rows.
inline void CheckRowCount(cql::Session& session, Repository& repository, const std::string& table,
                          size_t expected, std::vector<std::string>& problems) {
  auto rows = session.Execute(
      fmt::format("SELECT confirm_number FROM {}.{}", repository.keyspaces().reservation, table));
  if (!rows.ok()) {
    problems.push_back("scanning " + table + ": " + rows.status().ToString());
  } else if (rows->row_count() != expected) {
    problems.push_back(
        fmt::format("{} has {} rows, expected {}", table, rows->row_count(), expected));
  }
}

// Q11 (the staff console's departures and in-house list): every reservation other than a
// pending one has one row of `stays_by_hotel_date` per day of [check_in, check_out], with its
// room, stay and status, and the table holds no other row (a change deletes the days it left).
inline void CheckStayRows(cql::Session& session, Repository& repository,
                          std::vector<std::string>& problems) {
  size_t expected = 0;
  ForEachReservation(session, repository, problems, [&](const Reservation& r) {
    for (Day day = r.check_in; day <= r.check_out; ++day) {
      ++expected;
      if (!HoldsRowOf(repository.StaysByHotelDate(r.hotel_id, day), r)) {
        problems.push_back(fmt::format("{}: no row of stays_by_hotel_date on {} (or it differs)",
                                       r.confirmation_number, FormatDay(day)));
      }
    }
  });
  CheckRowCount(session, repository, "stays_by_hotel_date", expected, problems);
}

// Q12 (the staff console's search by email): every reservation other than a pending one has
// one row of `reservations_by_guest_email` under each canonical address of its guest, with its
// stay and status, and the table holds no other row.
inline void CheckEmailRows(cql::Session& session, Repository& repository,
                           std::vector<std::string>& problems) {
  size_t expected = 0;
  ForEachReservation(session, repository, problems, [&](const Reservation& r) {
    auto guest = repository.FindGuest(r.guest_id);
    if (!guest.ok() || !guest->has_value()) return;
    for (const std::string& key : CanonicalEmails((*guest)->emails)) {
      ++expected;
      if (!HoldsRowOf(repository.ReservationsByGuestEmail(key), r)) {
        problems.push_back(
            fmt::format("{}: no row of reservations_by_guest_email under {} (or it differs)",
                        r.confirmation_number, key));
      }
    }
  });
  CheckRowCount(session, repository, "reservations_by_guest_email", expected, problems);
}

// Every violation found, as readable text (empty: consistent). Assumes every reservation in
// the keyspace belongs to `hotel_id`.
inline std::vector<std::string> CheckBookingInvariants(cql::Session& session,
                                                       Repository& repository,
                                                       const std::string& hotel_id, Day first,
                                                       Day last) {
  std::vector<std::string> problems;
  auto nights = repository.RoomNights(hotel_id, first, last);
  if (!nights.ok()) return {"reading nights: " + nights.status().ToString()};
  std::map<std::pair<int16_t, Day>, std::string> holder;  // (room, day) -> held_by
  for (const RoomNight& night : *nights) {
    std::string where = fmt::format("room {} on {}", night.room_number, FormatDay(night.date));
    if (night.is_available) {
      if (!night.held_by.empty()) problems.push_back(where + ": free but held_by is set");
      continue;
    }
    holder[{night.room_number, night.date}] = night.held_by;
    if (night.held_by.empty()) {
      problems.push_back(where + ": taken without a holder");
      continue;
    }
    auto reservation = repository.FindReservation(night.held_by);
    if (!reservation.ok() || !reservation->has_value() || !HoldsNights((*reservation)->status)) {
      problems.push_back(where + ": held by " + night.held_by +
                         " with no reservation that holds nights");
      continue;
    }
    const Reservation& r = **reservation;
    if (r.room_number != night.room_number || night.date < r.check_in ||
        night.date >= r.check_out) {
      problems.push_back(where + ": held by " + night.held_by + " whose stay does not cover it");
    }
  }

  const std::string& ks = repository.keyspaces().reservation;
  auto all = session.Execute(
      fmt::format("SELECT confirm_number, status FROM {}.reservations_by_confirmation", ks));
  if (!all.ok()) return {"scanning reservations: " + all.status().ToString()};
  size_t kept = 0;
  for (size_t i = 0; i < all->row_count(); ++i) {
    std::string number(all->Value(i, 0).value_or(""));
    std::string status(all->Value(i, 1).value_or(""));
    if (status == kStatusPending) {
      problems.push_back(number + ": status '" + status + "' left behind");
      continue;
    }
    ++kept;
    auto found = repository.FindReservation(number);
    if (!found.ok() || !found->has_value()) {
      problems.push_back(number + ": unreadable");
      continue;
    }
    const Reservation& r = **found;
    auto history = repository.ReservationHistory(number);
    if (!history.ok() || history->empty() || history->back().status != r.status) {
      problems.push_back(number + ": history does not end in status " + r.status);
    }
    for (Day day = r.check_in; day < r.check_out && HoldsNights(r.status); ++day) {
      if (day < first || day >= last) continue;
      auto it = holder.find({r.room_number, day});
      if (it == holder.end() || it->second != number) {
        problems.push_back(fmt::format("{}: night {} of room {} is not held by it", number,
                                       FormatDay(day), r.room_number));
      }
    }
    auto q7 =
        repository.ReservationsByHotelDate(r.hotel_id, r.check_in, FoldName(r.guest_last_name));
    bool in_q7 = false;
    if (q7.ok()) {
      for (const Reservation& row : *q7) {
        in_q7 |= row.confirmation_number == number && row.status == r.status;
      }
    }
    if (!in_q7)
      problems.push_back(number +
                         ": missing from reservations_by_hotel_date (or its status differs)");
    auto q8 =
        repository.ReservationsByGuest(FoldName(r.guest_last_name), FoldName(r.guest_first_name));
    bool in_q8 = false;
    if (q8.ok()) {
      for (const Reservation& row : *q8) {
        in_q8 |= row.confirmation_number == number && row.status == r.status;
      }
    }
    if (!in_q8)
      problems.push_back(number + ": missing from reservations_by_guest (or its status differs)");
  }
  for (const char* table : {"reservations_by_hotel_date", "reservations_by_guest"}) {
    auto rows = session.Execute(fmt::format("SELECT confirm_number FROM {}.{}", ks, table));
    if (!rows.ok()) {
      problems.push_back(std::string("scanning ") + table + ": " + rows.status().ToString());
    } else if (rows->row_count() != kept) {
      problems.push_back(
          fmt::format("{} has {} rows for {} reservations", table, rows->row_count(), kept));
    }
  }
  CheckStayRows(session, repository, problems);
  CheckEmailRows(session, repository, problems);
  return problems;
}

}  // namespace hotel::testing
