// Backfill: writes the rows of the tables derived from each reservation — Q11's
// `stays_by_hotel_date` (departures, in house) and Q12's `reservations_by_guest_email` (the
// search by email) — for reservations written before those tables existed (`hotel backfill`;
// docs/operations.md, "Backfilling the derived tables"). A new table is created on start, but
// empty: without this, an older reservation appears in it only after its next transition.
//
// How (docs/data-model.md, "The front desk's day (Q11)"):
//   1. Reads `reservations_by_confirmation` page by page (the engine's paging state), with each
//      row's writetime(status): memory is bounded by one page whatever the table's size.
//   2. For each reservation but a pending one: reads its guest (Q9) for the addresses, then
//      rewrites its Q11 and Q12 rows in one logged batch AT that write time
//      (Repository::RewriteDerivedRows). A transition made meanwhile wrote (and deleted) its rows
//      at a later time, so it wins over the backfill's: the backfill can never resurrect a
//      stay's old days or an old status, and running it while the service serves is safe.
//   3. Idempotent: rewriting a row with the same values at the same time changes nothing, so a
//      second run (or a run over reservations that already have their rows) is harmless.
//   4. Resumable: after each page the progress callback gets the cursor of the next page (the
//      paging state in hex); a run started with it as `from` continues there.
//
// Thread-safety: a function; call it with a repository no one reconfigures meanwhile.

#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "common/result.h"
#include "hotel/repository.h"

namespace hotel {

struct BackfillProgress {
  int64_t reservations = 0;  // rewritten so far (this run)
  int64_t pending = 0;       // skipped: pending confirmations (not reservations yet)
  int64_t pages = 0;
  std::string next_cursor;  // where the next page starts (hex); "" when the table is done
};

struct BackfillOptions {
  int32_t page_size = 100;  // reservations per page (1..5000)
  std::string from;         // a `next_cursor` of an earlier run: continue there ("": the start)
  std::function<void(const BackfillProgress&)> progress;  // after each page
};

// Runs the backfill (header comment). Returns the totals. Errors: kInvalid for a bad page size
// or a `from` that is not a cursor of this backfill; the repository's errors otherwise, their
// message saying from which cursor to resume.
common::Result<BackfillProgress> Backfill(Repository& repository, const BackfillOptions& options);

}  // namespace hotel
