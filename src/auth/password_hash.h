// Password hashes as Cassandra's PasswordAuthenticator keeps them: bcrypt ("$2a$", 2^10 rounds
// by default, a random 128-bit salt), computed by libcrypt (libxcrypt), so a hash copied from a
// Cassandra system_auth.roles table verifies here and the other way round.
//
// Thread-safety: thread-safe (crypt_r with per-call state).

#pragma once

#include <string>
#include <string_view>

#include "common/result.h"

namespace auth {

// Cassandra's default auth_bcrypt_gensalt_log2_rounds.
inline constexpr int kDefaultBcryptRounds = 10;

// A new bcrypt hash of `password` with a random salt. Errors: Internal when the system has no
// randomness or libcrypt fails (never for any password bytes: bcrypt uses the first 72).
common::Result<std::string> HashPassword(std::string_view password,
                                         int log2_rounds = kDefaultBcryptRounds);

// Whether `password` hashes to `hash` (compared in constant time). False for a malformed hash.
bool VerifyPassword(std::string_view password, std::string_view hash);

}  // namespace auth
