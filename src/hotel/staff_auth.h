// StaffAuth: staff login for the hotel HTTP API (docs/security.md), independent of HTTP. The
// router (`http_router.h`) asks it three things: may this login attempt go ahead (RetryAfter),
// log in (Login → a session token), and whose session is this token (Authenticate). It ties
// together the accounts (StaffAccounts: bcrypt hashes in the database), the sessions
// (SessionStore: in memory) and the login throttle (LoginThrottle).
//
// Design:
//  1. A login checks the password (one bcrypt check, ~0.25 s of CPU at cost 12, on the calling
//     io thread). At most `max_concurrent_checks` run at once; an attempt beyond them is refused
//     at once (kOverloaded), so a flood of logins cannot occupy every io thread. A refused or
//     throttled attempt costs no bcrypt work and does not count as a failure.
//  2. Authenticate re-reads the session's account at most every `recheck_interval`
//     (SessionOptions): a removed account, or a password changed with `hotel users passwd`
//     (possibly by another process), ends its sessions within that interval.
//
// Errors are the service's codes (http_router.cc maps them): kAuthenticationError (wrong
// username or password: 401), kOverloaded (too many checks at once: 429), the repository's
// (kUnavailable: 503).
//
// Thread-safety: thread-safe.

#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "common/result.h"
#include "hotel/login_throttle.h"
#include "hotel/session_store.h"
#include "hotel/staff_accounts.h"

namespace hotel {

struct StaffAuthOptions {
  SessionOptions sessions;
  LoginThrottleOptions throttle;
  int max_concurrent_checks = 2;
  // The monotonic clock (tests substitute their own).
  std::function<std::chrono::steady_clock::time_point()> now = [] {
    return std::chrono::steady_clock::now();
  };
};

// A successful login.
struct StaffGrant {
  std::string token;     // 64 hex digits; the cookie's value and the bearer token
  std::string username;  // normalized
  std::chrono::seconds lifetime{0};
  std::chrono::seconds idle_timeout{0};
};

class StaffAuth {
 public:
  // REQUIRES: `accounts` outlives this.
  StaffAuth(StaffAccounts* accounts, StaffAuthOptions options = {});

  // How long a login from `client_address` for `username` must wait (zero: it may go ahead).
  std::chrono::seconds RetryAfter(const std::string& client_address,
                                  const std::string& username) const;
  // Checks the password and starts a session. Counts a failure or a success in the throttle.
  common::Result<StaffGrant> Login(const std::string& client_address, const std::string& username,
                                   const std::string& password);
  // The live session of `token`; nullopt when there is none (unknown, ended, or its account
  // removed or its password changed). Errors: the repository's, during a recheck.
  common::Result<std::optional<StaffSession>> Authenticate(const std::string& token);
  // Ends the session of `token`, if any.
  void Logout(const std::string& token);

  const SessionOptions& session_options() const { return sessions_.options(); }

 private:
  StaffAccounts* accounts_;
  StaffAuthOptions options_;
  SessionStore sessions_;
  LoginThrottle throttle_;
  std::atomic<int> checking_{0};
};

}  // namespace hotel
