// LoginThrottle: slows down password guessing against `POST /api/v1/login` (docs/security.md).
// Failed logins are counted per client address and per username; after `free_failures`
// failures of either, the next attempt must wait, first `first_wait`, then twice as long after
// each further failure, at most `max_wait` (with the defaults: the 5th failure → 1 s, the 6th →
// 2 s, ... capped at 15 min). A success clears the address's and the username's counts; a
// count that has not grown for `forget_after` starts again from zero. The router answers an
// attempt that must wait with 429 and `Retry-After`, without checking the password.
//
// Memory is bounded: each table holds at most `max_entries` keys; when one is full, the keys
// whose count is forgotten go first, then the one that failed longest ago. (An attacker who
// fills the username table with `max_entries` other names, one bcrypt check each, resets a
// name's count: hours of guessing for a handful of extra tries.)
//
// Per-address counting sees the peer of the TCP connection: behind a reverse proxy every client
// shares the proxy's address (docs/security.md says so).
//
// Thread-safety: thread-safe (one mutex).

#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace hotel {

struct LoginThrottleOptions {
  int free_failures = 5;
  std::chrono::seconds first_wait{1};
  std::chrono::seconds max_wait{15 * 60};
  std::chrono::seconds forget_after{15 * 60};
  size_t max_entries = 10000;
};

class LoginThrottle {
 public:
  using Clock = std::chrono::steady_clock;

  explicit LoginThrottle(LoginThrottleOptions options = {}) : options_(options) {}

  // How long an attempt from `address` for `username` must still wait at `now` (whole
  // seconds, rounded up); zero when it may go ahead. `username` "" counts for nobody.
  std::chrono::seconds Wait(const std::string& address, const std::string& username,
                            Clock::time_point now) const;
  // Counts a failed attempt.
  void Failed(const std::string& address, const std::string& username, Clock::time_point now);
  // Clears both counts after a successful login.
  void Succeeded(const std::string& address, const std::string& username);

 private:
  struct Entry {
    int failures = 0;
    Clock::time_point last_failure;
    Clock::time_point blocked_until;
  };
  using Table = std::unordered_map<std::string, Entry>;

  std::chrono::seconds WaitIn(const Table& table, const std::string& key,
                              Clock::time_point now) const;
  // REQUIRES: mutex_ held.
  void FailIn(Table& table, const std::string& key, Clock::time_point now);

  const LoginThrottleOptions options_;
  mutable std::mutex mutex_;
  Table by_address_;   // GUARDED_BY(mutex_)
  Table by_username_;  // GUARDED_BY(mutex_)
};

}  // namespace hotel
