// Base64 (RFC 4648, the standard alphabet, with padding): HTTP Basic credentials of the admin
// listener (server/admin_api.h) and of `cqld admin`.
//
// Thread-safety: pure functions.

#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace common {

std::string Base64Encode(std::string_view bytes);
// The bytes `text` encodes; nullopt when it is not padded base64 of the standard alphabet.
std::optional<std::string> Base64Decode(std::string_view text);

}  // namespace common
