#include "hotel/backfill.h"

#include "common/bytes.h"

namespace hotel {

namespace {

// Rewrites the derived rows of every reservation of `page` (but pending ones) into `progress`.
common::Status RewritePage(Repository& repository, const Repository::ReservationPage& page,
                           BackfillProgress& progress) {
  for (const Repository::TimedReservation& timed : page.reservations) {
    const Reservation& reservation = timed.reservation;
    if (reservation.status == kStatusPending) {
      ++progress.pending;
      continue;
    }
    ASSIGN_OR_RETURN(std::optional<Guest> guest, repository.FindGuest(reservation.guest_id));
    std::vector<std::string> keys =
        guest ? CanonicalEmails(guest->emails) : std::vector<std::string>();
    RETURN_IF_ERROR(repository.RewriteDerivedRows(reservation, keys, timed.written_at_micros));
    ++progress.reservations;
  }
  return common::Status::Ok();
}

}  // namespace

common::Result<BackfillProgress> Backfill(Repository& repository, const BackfillOptions& options) {
  if (options.page_size < 1 || options.page_size > 5000) {
    return common::Status::Invalid("page size must be 1 to 5000");
  }
  std::optional<common::Bytes> paging_state;
  if (!options.from.empty()) {
    auto bytes = common::FromHex(options.from);
    if (!bytes.ok() || bytes->empty()) {
      return common::Status::Invalid("'" + options.from + "' is not a cursor of this backfill");
    }
    paging_state = std::move(*bytes);
  }
  BackfillProgress progress;
  for (;;) {
    std::string cursor = paging_state ? common::ToHex(*paging_state) : options.from;
    auto page = repository.ListReservations(options.page_size, paging_state);
    common::Status done = page.ok() ? RewritePage(repository, *page, progress) : page.status();
    if (!done.ok()) {
      return done.WithPrefix(cursor.empty() ? "backfill (run it again to resume): "
                                            : "backfill (resume with --from " + cursor + "): ");
    }
    ++progress.pages;
    paging_state = page->paging_state;
    if (paging_state && paging_state->empty()) paging_state.reset();
    progress.next_cursor = paging_state ? common::ToHex(*paging_state) : "";
    if (options.progress) options.progress(progress);
    if (!paging_state) return progress;
  }
}

}  // namespace hotel
