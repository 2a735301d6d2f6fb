#include "hotel/paging.h"

namespace hotel {

using common::Bytes;
using common::Result;
using common::Status;

namespace {

// Every CursorRefused message starts so; IsCursorRefused looks for it.
constexpr std::string_view kCursorRefusedPrefix = "cursor is not a cursor of this list: ";
// A longer cursor is no paging state of ours (the engine's and Cassandra's are far shorter).
constexpr size_t kMaxCursorDigits = 2048;

}  // namespace

Status CursorRefused(std::string_view detail) {
  return Status::Invalid(std::string(kCursorRefusedPrefix) + std::string(detail));
}

bool IsCursorRefused(const Status& status) {
  return status.code() == common::StatusCode::kInvalid &&
         status.message().starts_with(kCursorRefusedPrefix);
}

Result<std::optional<Bytes>> ParseCursor(std::string_view text) {
  if (text.empty()) return std::optional<Bytes>();
  if (text.size() > kMaxCursorDigits) return CursorRefused("it is too long");
  auto bytes = common::FromHex(text);
  if (!bytes.ok()) return CursorRefused("it is not hexadecimal");
  return std::optional<Bytes>(std::move(bytes).value());
}

std::string FormatCursor(const Bytes& paging_state) { return common::ToHex(paging_state); }

Bytes RoomKey(int16_t room_number) {
  auto value = static_cast<uint16_t>(room_number);
  return Bytes{static_cast<char>(value >> 8), static_cast<char>(value & 0xff)};
}

}  // namespace hotel
