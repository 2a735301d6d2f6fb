// StaffAccounts: the staff accounts of the hotel web UI and API (docs/security.md). Usernames
// and bcrypt password hashes live in the service's `staff_users` table (Repository); `hotel
// users add|passwd|remove|list` manages them and `POST /api/v1/login` (StaffAuth) checks them.
//
// Passwords are hashed with bcrypt ("$2b$", cost 12 unless told otherwise) by
// common/password_hash.h (libxcrypt, a salt from the operating system); only the hash is
// stored, and a hash is compared in constant time. Checking a password does the same work
// whether or not the account exists: for an unknown username, a password that could never be
// set (over 72 bytes, or holding NUL), a dummy hash of the same cost is checked, so the time a
// failed login takes does not tell whether the user exists.
//
// Rules: a username is 1 to 64 characters of a-z, 0-9, '.', '_', '@' and '-', given in any
// case and stored lower-cased; a new password is 8 to 72 bytes (bcrypt reads only the first 72)
// without NUL. Passwords are never logged and never part of an error message.
//
// Thread-safety: thread-safe (the repository is; the check counter is atomic).

#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "hotel/repository.h"

namespace hotel {

inline constexpr size_t kMinPasswordBytes = 8;
inline constexpr size_t kMaxPasswordBytes = 72;  // bcrypt ignores what follows
inline constexpr size_t kMaxUsernameLength = 64;

// The stored form of `username` (lower-cased). Errors: kInvalid naming the rule it breaks.
common::Result<std::string> NormalizeUsername(std::string_view username);

// Ok when `password` may be set as a new password; else kInvalid saying why (not what).
common::Status CheckNewPassword(std::string_view password);

struct StaffAccountsOptions {
  // bcrypt's cost (log2 of the rounds) for new hashes and the dummy hash; 4..31. Each check
  // costs about 0.25 s of CPU at 12; tests use 4.
  int bcrypt_cost = 12;
};

class StaffAccounts {
 public:
  // Hashes the dummy password. REQUIRES: `repository` outlives the accounts. Errors: kInvalid
  // for a bcrypt cost outside 4..31; kInternal when libcrypt fails (common/password_hash.h).
  static common::Result<std::unique_ptr<StaffAccounts>> Create(Repository* repository,
                                                               StaffAccountsOptions options = {});

  // Creates an account. Errors: kInvalid for a bad username or password, kAlreadyExists when
  // the username is taken, the repository's errors.
  common::Status Add(std::string_view username, std::string_view password);
  // Replaces an account's password. Errors: kNotFound for an unknown username; as Add.
  common::Status SetPassword(std::string_view username, std::string_view password);
  // Deletes an account. Errors: kNotFound for an unknown username.
  common::Status Remove(std::string_view username);
  // Every username (a full-table read: not for request paths).
  common::Result<std::vector<std::string>> List();

  // The account's stored hash when `password` is its password; nullopt for an unknown or
  // malformed username or a wrong password, after the same bcrypt work in every case. Errors:
  // the repository's only.
  common::Result<std::optional<std::string>> Check(std::string_view username,
                                                   std::string_view password);
  // The stored hash of `username` (already normalized); nullopt when the account is gone.
  // StaffAuth uses it to end the sessions of a removed account or a changed password.
  common::Result<std::optional<std::string>> CurrentHash(const std::string& username);

  // How many bcrypt checks Check has made (tests: an unknown user costs one too).
  uint64_t password_checks() const { return password_checks_.load(); }

  // Use Create(); public only for std::make_unique.
  StaffAccounts(Repository* repository, StaffAccountsOptions options, std::string dummy_hash)
      : repository_(repository), options_(options), dummy_hash_(std::move(dummy_hash)) {}

 private:
  Repository* repository_;
  StaffAccountsOptions options_;
  const std::string dummy_hash_;
  std::atomic<uint64_t> password_checks_{0};
};

}  // namespace hotel
