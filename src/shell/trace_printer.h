// Trace printing for the `cql` shell's TRACING ON: after each traced statement, its session
// and events are read back from system_traces through the same `cql::Session` (so it works on
// the embedded engine and on a remote cqld alike) and printed as cqlsh's cqlshlib/tracing.py
// prints them:
//
//   (blank line)
//   Tracing session: 6a4c2f60-...
//   (blank line)
//    activity                          | timestamp                  | source    | source_elapsed |
//    client
//   -----------------------------------+----------------------------+-----------+----------------+-----------
//                   Execute CQL3 query | 2026-11-26 13:50:01.123000 | 127.0.0.1 |              0 |
//                   127.0.0.1
//    Parsing SELECT ... [thread-2]     | ...
//                     Request complete | 2026-11-26 13:50:01.125400 | 127.0.0.1 |           2400 |
//                     127.0.0.1
//   (blank line)
//
// The first row is the session's request at its start, one row per event ("activity
// [thread]", the time of its timeuuid, the microseconds since the start), and a last
// "Request complete" row at started_at + duration: cqlsh makes the first and last rows from
// the sessions row; they are not events. Times print in UTC as Python's str(datetime).
//
// Thread-safety: free functions; `session` must be usable from the calling thread.

#pragma once

#include <string>

#include "common/result.h"
#include "common/uuid.h"
#include "cql/session.h"

namespace shell {

// The trace of session `id` as cqlsh prints it (`tty`: a blank line after the table's rows, as
// cqlsh's print_formatted_result at a terminal). Polls system_traces.sessions until the
// session has its duration (at most `max_wait_ms`; cqlsh waits up to 10 s). Errors: the
// session's, or NotFound with cqlsh's "Statement trace did not complete within N seconds"
// text when the session never completes.
common::Result<std::string> FetchTrace(cql::Session& session, const common::Uuid& id, bool tty,
                                       int max_wait_ms = 10000);

// Unix microseconds as Python prints a datetime: "2026-11-26 13:50:01.123000" (UTC; no
// fraction when it is zero).
std::string FormatTraceTime(int64_t unix_micros);

}  // namespace shell
