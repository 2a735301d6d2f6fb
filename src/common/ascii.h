// ASCII case folding: CQL keywords, unquoted identifiers, option names and protocol strings are
// case-insensitive in ASCII only (non-ASCII bytes of UTF-8 text are left as they are).
//
// Thread-safety: pure functions.

#pragma once

#include <string>
#include <string_view>

namespace common {

// `text` with A-Z mapped to a-z.
inline std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// `text` with a-z mapped to A-Z.
inline std::string AsciiUpper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

}  // namespace common
