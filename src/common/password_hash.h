// bcrypt password hashes through libcrypt (libxcrypt), the one place the project hashes or
// checks a password: cqld's roles (auth/, as Cassandra's PasswordAuthenticator keeps them:
// "$2a$", 2^10 rounds, a random 128-bit salt, so a hash copied from a Cassandra
// system_auth.roles table verifies here and the other way round) and the hotel service's staff
// accounts ("$2b$", cost 12).
//
// Thread-safety: thread-safe (crypt_r with per-call state).

#pragma once

#include <string>
#include <string_view>

#include "common/result.h"

namespace common {

// Cassandra's default auth_bcrypt_gensalt_log2_rounds.
inline constexpr int kDefaultBcryptRounds = 10;

// The bcrypt variants: "$2a$" is what Cassandra (jBCrypt) writes; "$2b$" is the current
// OpenBSD name. libxcrypt computes the same hash for both (passwords under 256 bytes).
enum class BcryptVariant { k2a, k2b };

// A new bcrypt hash of `password` with a random salt. Errors: Invalid for a NUL byte in the
// password or rounds outside 4..31; Internal when the system has no randomness or libcrypt
// fails (never for other password bytes: bcrypt uses the first 72).
Result<std::string> HashPassword(std::string_view password, int log2_rounds = kDefaultBcryptRounds,
                                 BcryptVariant variant = BcryptVariant::k2a);

// Whether `password` hashes to `hash` (compared in constant time). False for a malformed hash.
bool VerifyPassword(std::string_view password, std::string_view hash);

}  // namespace common
