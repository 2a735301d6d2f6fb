// Q12 of Repository (repository.h): `reservations_by_guest_email`, the staff console's search
// of reservations by a guest's email address. Its rows are written in WriteReservation's logged
// batch (AddEmailEntries), under each canonical address of the reservation's guest, and moved
// together with the guest's row when the guest's addresses change (UpdateGuestAndEmailRows).

#include <fmt/format.h>

#include "hotel/repository.h"
#include "hotel/repository_rows.h"

namespace hotel {

namespace rows = repository_rows;
using rows::DayValue;
using rows::TextValue;

std::vector<Repository::Statement> Repository::GuestEmailStatements() {
  const std::string& r = keyspaces_.reservation;
  const std::string reservation_columns(rows::kReservationColumns);
  return {
      {&by_guest_email_,
       fmt::format("SELECT {}, status FROM {}.reservations_by_guest_email WHERE guest_email = ?",
                   reservation_columns, r)},
      {&insert_by_guest_email_,
       fmt::format("INSERT INTO {}.reservations_by_guest_email ({}, status, guest_email) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   r, reservation_columns)},
      {&delete_by_guest_email_,
       fmt::format("DELETE FROM {}.reservations_by_guest_email WHERE guest_email = ? "
                   "AND start_date = ? AND confirm_number = ?",
                   r)},
  };
}

common::Result<std::vector<Reservation>> Repository::ReservationsByGuestEmail(
    const std::string& email_key) {
  return Items(ReservationsByGuestEmail(email_key, PageRequest{}));
}

common::Result<Page<Reservation>> Repository::ReservationsByGuestEmail(const std::string& email_key,
                                                                       const PageRequest& page) {
  ASSIGN_OR_RETURN(cql::ResultSet found, RunPage(by_guest_email_, {TextValue(email_key)}, page));
  return rows::DecodePage<Reservation>(found, rows::ReadReservation);
}

void Repository::AddEmailEntries(const Reservation& reservation, const Reservation* replaced,
                                 const std::vector<std::string>& email_keys,
                                 std::vector<cql::BatchEntry>& entries) const {
  for (const std::string& key : email_keys) {
    // As in WriteReservation: delete only a row this batch does not write again (same
    // timestamp; a deletion would win).
    if (replaced != nullptr && replaced->check_in != reservation.check_in) {
      cql::BatchEntry deletion;
      deletion.prepared = delete_by_guest_email_;
      deletion.values = {TextValue(key), DayValue(replaced->check_in),
                         TextValue(replaced->confirmation_number)};
      entries.push_back(std::move(deletion));
    }
    cql::BatchEntry entry;
    entry.prepared = insert_by_guest_email_;
    entry.values = ReservationValues(reservation);
    entry.values.push_back(TextValue(key));
    entries.push_back(std::move(entry));
  }
}

common::Status Repository::UpdateGuestAndEmailRows(const Guest& guest,
                                                   const std::vector<Reservation>& reservations,
                                                   const std::vector<std::string>& removed_keys,
                                                   const std::vector<std::string>& added_keys) {
  std::vector<cql::BatchEntry> entries;
  entries.push_back(GuestEntry(guest));
  for (const Reservation& reservation : reservations) {
    for (const std::string& key : removed_keys) {
      cql::BatchEntry deletion;
      deletion.prepared = delete_by_guest_email_;
      deletion.values = {TextValue(key), DayValue(reservation.check_in),
                         TextValue(reservation.confirmation_number)};
      entries.push_back(std::move(deletion));
    }
  }
  for (const Reservation& reservation : reservations) {
    AddEmailEntries(reservation, nullptr, added_keys, entries);
  }
  return RunBatch(cql::BatchType::kLogged, std::move(entries)).status();
}

}  // namespace hotel
