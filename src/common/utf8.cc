#include "common/utf8.h"

namespace common {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool IsContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

}  // namespace

size_t Utf8SequenceLength(std::string_view text) {
  if (text.empty()) return 0;
  auto c0 = static_cast<unsigned char>(text[0]);
  if (c0 < 0x80) return 1;
  size_t length = 0;
  // The allowed range of the second byte (Unicode Table 3-7) excludes overlong forms,
  // surrogates and code points beyond U+10FFFF.
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (c0 >= 0xC2 && c0 <= 0xDF) {
    length = 2;
  } else if (c0 >= 0xE0 && c0 <= 0xEF) {
    length = 3;
    if (c0 == 0xE0) low = 0xA0;
    if (c0 == 0xED) high = 0x9F;
  } else if (c0 >= 0xF0 && c0 <= 0xF4) {
    length = 4;
    if (c0 == 0xF0) low = 0x90;
    if (c0 == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  auto c1 = static_cast<unsigned char>(text[1]);
  if (c1 < low || c1 > high) return 0;
  for (size_t i = 2; i < length; ++i) {
    if (!IsContinuation(static_cast<unsigned char>(text[i]))) return 0;
  }
  return length;
}

bool IsValidUtf8(std::string_view text) {
  while (!text.empty()) {
    size_t length = Utf8SequenceLength(text);
    if (length == 0) return false;
    text.remove_prefix(length);
  }
  return true;
}

std::string ValidUtf8(std::string_view text) {
  if (IsValidUtf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  while (!text.empty()) {
    size_t length = Utf8SequenceLength(text);
    if (length == 0) {
      out += kReplacement;
      text.remove_prefix(1);
      continue;
    }
    out.append(text.substr(0, length));
    text.remove_prefix(length);
  }
  return out;
}

std::string TruncateUtf8(std::string_view text, size_t max_bytes, std::string_view ellipsis) {
  std::string valid = ValidUtf8(text);
  if (valid.size() <= max_bytes) return valid;
  size_t budget = ellipsis.size() < max_bytes ? max_bytes - ellipsis.size() : max_bytes;
  std::string_view rest = valid;
  size_t end = 0;
  while (end < rest.size()) {
    size_t length = Utf8SequenceLength(rest.substr(end));
    if (end + length > budget) break;
    end += length;
  }
  std::string out(rest.substr(0, end));
  if (ellipsis.size() < max_bytes) out += ellipsis;
  return out;
}

}  // namespace common
