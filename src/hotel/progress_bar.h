// Progress lines for long-running commands (`hotel load`): a bar, counts, rate and ETA, as
// one line that a terminal redraws in place ("\r") or a log receives every few seconds.
//
//   [##########..........]  182.5M/365.0M rows  412k rows/s  ETA 7m23s
//
// Thread-safety: stateless functions.

#pragma once

#include <cstdint>
#include <string>

namespace hotel {

// 999 -> "999", 12345 -> "12.3k", 182500000 -> "182.5M", 2.1e9 -> "2.1G". Negative -> "0".
std::string FormatCount(double count);

// Whole seconds as "42s", "7m23s" or "2h05m"; "?" for negative, NaN or over 99 days.
std::string FormatDuration(double seconds);

// The line above (no "\r" or newline): `done` of `total` rows after `seconds`; a bar of
// `bar_width` characters (0: no bar). The ETA assumes the rate so far; "ETA ?" before any
// progress, "done in 42s" when `finished`. `done` beyond `total` fills the bar.
std::string FormatProgress(int64_t done, int64_t total, double seconds, bool finished,
                           int bar_width = 24);

}  // namespace hotel
