// SessionStore: the staff sessions of `hotel serve` (docs/security.md), in memory. A login
// (StaffAuth) creates one and gets its token; each staff request presents the token (cookie or
// `Authorization: Bearer`) and Use() finds its session.
//
// Design:
//  1. A token is 32 bytes from OpenSSL's RAND_bytes (256 bits), written as 64 hex digits. The
//     store keeps only the SHA-256 of each token as its key, so neither a hash-table probe's
//     timing nor a memory dump reveals a live token.
//  2. A session ends when it has not been used for `idle_timeout`, when it is older than
//     `lifetime` however much it is used, on Remove (logout), or when its account is removed or
//     its password changed (StaffAuth re-reads the account when `recheck_due` says so, at most
//     every `recheck_interval`, and calls MarkChecked or Remove). Ended sessions are forgotten
//     when met.
//  3. At most `max_sessions` live at once. Creating one more first forgets the expired ones,
//     then, if still full, the least recently used session.
//  4. Sessions live in this process only: a restart logs every staff member out.
//
// Thread-safety: thread-safe (one mutex guards the map; no call does I/O under it).

#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "common/result.h"

namespace hotel {

struct SessionOptions {
  std::chrono::seconds idle_timeout{2 * 3600};
  std::chrono::seconds lifetime{12 * 3600};
  std::chrono::seconds recheck_interval{60};
  size_t max_sessions = 10000;
};

// What a live session tells its request.
struct StaffSession {
  std::string username;
  // The account's password hash at login (or at the last recheck): a different stored hash
  // means the password changed since.
  std::string password_hash;
  // Seconds until the session ends however much it is used.
  std::chrono::seconds remaining_lifetime{0};
  // True when the account should be read again (the last check is `recheck_interval` old).
  bool recheck_due = false;
};

class SessionStore {
 public:
  using Clock = std::chrono::steady_clock;

  explicit SessionStore(SessionOptions options = {}) : options_(options) {}

  // Starts a session for `username`, whose stored hash is `password_hash`, at `now`; returns
  // its token. Errors: kInternal when the random generator fails (no session is created).
  common::Result<std::string> Create(const std::string& username, const std::string& password_hash,
                                     Clock::time_point now);
  // The live session of `token`, marked used at `now`; nullopt for an unknown, malformed or
  // ended token (an ended one is forgotten).
  std::optional<StaffSession> Use(const std::string& token, Clock::time_point now);
  // Records that the account of `token` was read at `now` and still has this hash.
  void MarkChecked(const std::string& token, Clock::time_point now);
  // Ends the session of `token` (nothing when there is none).
  void Remove(const std::string& token);
  // Sessions held (live or not yet forgotten).
  size_t size() const;
  const SessionOptions& options() const { return options_; }

 private:
  struct Entry {
    StaffSession session;
    Clock::time_point created;
    Clock::time_point last_used;
    Clock::time_point checked;
  };
  bool Ended(const Entry& entry, Clock::time_point now) const;
  // REQUIRES: mutex_ held. Makes room for one more session (design point 3).
  void MakeRoom(Clock::time_point now);

  const SessionOptions options_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> sessions_;  // by SHA-256 of the token; GUARDED_BY(mutex_)
};

}  // namespace hotel
