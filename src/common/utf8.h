// UTF-8 hygiene for text that leaves the server: error messages quote user input (string
// literals, JSON, statement text), and a message that is not valid UTF-8 makes drivers drop
// the connection (the Python driver decodes every [string] strictly).
//
// `Status` runs every message through `ValidUtf8`, so no error can carry a broken character;
// code that shortens user text for a message uses `TruncateUtf8` so that it never cuts one
// either.
//
// Thread-safety: pure functions.

#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace common {

// The length of the well-formed UTF-8 sequence that starts `text` (1-4), or 0 when `text`
// is empty or starts with an ill-formed one (stray continuation byte, overlong form,
// surrogate, beyond U+10FFFF, truncated sequence).
size_t Utf8SequenceLength(std::string_view text);

// Whether `text` is entirely well-formed UTF-8.
bool IsValidUtf8(std::string_view text);

// `text` with each ill-formed byte replaced by U+FFFD (the replacement character). Valid
// text is returned unchanged.
std::string ValidUtf8(std::string_view text);

// At most `max_bytes` bytes of `text` (made valid as `ValidUtf8` does), cut before the first
// character that does not fit whole; `ellipsis` is appended when anything was cut (and counts
// against `max_bytes` when it fits).
std::string TruncateUtf8(std::string_view text, size_t max_bytes, std::string_view ellipsis = "");

}  // namespace common
