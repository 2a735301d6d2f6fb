// The backfill's half of Repository (repository.h; `hotel backfill`, backfill.h): a paged
// full-table read of the reservations with the write time of each, and the rewrite of a
// reservation's rows of the tables derived from it (Q11, Q12) at that write time.

#include <fmt/format.h>

#include "hotel/repository.h"
#include "hotel/repository_rows.h"

namespace hotel {

namespace rows = repository_rows;

std::vector<Repository::Statement> Repository::BackfillStatements() {
  return {
      {&list_reservations_,
       fmt::format("SELECT {}, status, writetime(status) FROM {}.reservations_by_confirmation",
                   rows::kReservationColumns, keyspaces_.reservation)},
  };
}

common::Result<Repository::ReservationPage> Repository::ListReservations(
    int32_t page_size, std::optional<common::Bytes> paging_state) {
  cql::QueryOptions options;
  options.consistency = cql::Consistency::kLocalQuorum;
  options.page_size = page_size;
  bool resumed = paging_state.has_value();
  options.paging_state = std::move(paging_state);
  auto found = session_->ExecutePrepared(*list_reservations_, options);
  if (!found.ok()) {
    common::Status error = rows::DatabaseError(found.status());
    if (resumed && error.code() == common::StatusCode::kInternal) {
      return common::Status::Invalid("not a cursor of this backfill: " + found.status().message());
    }
    return error;
  }
  ReservationPage page;
  for (size_t i = 0; i < found->row_count(); ++i) {
    rows::RowView row(*found, i);
    TimedReservation timed;
    timed.reservation = rows::ReadReservation(row);
    timed.written_at_micros = row.Timestamp(12);  // writetime(): a bigint of microseconds
    RETURN_IF_ERROR(row.status());
    page.reservations.push_back(std::move(timed));
  }
  page.paging_state = found->paging_state();
  return page;
}

common::Status Repository::RewriteDerivedRows(const Reservation& reservation,
                                              const std::vector<std::string>& email_keys,
                                              int64_t written_at_micros) {
  std::vector<cql::BatchEntry> entries;
  AddStayEntries(reservation, nullptr, entries);
  AddEmailEntries(reservation, nullptr, email_keys, entries);
  return RunBatch(cql::BatchType::kLogged, std::move(entries), written_at_micros).status();
}

}  // namespace hotel
