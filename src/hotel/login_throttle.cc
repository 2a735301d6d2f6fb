#include "hotel/login_throttle.h"

#include <algorithm>

namespace hotel {

using std::chrono::seconds;

seconds LoginThrottle::WaitIn(const Table& table, const std::string& key,
                              Clock::time_point now) const {
  if (key.empty()) return seconds(0);
  auto found = table.find(key);
  if (found == table.end() || found->second.blocked_until <= now) return seconds(0);
  // Rounded up, so a client that waits what it is told is let in.
  return std::chrono::ceil<seconds>(found->second.blocked_until - now);
}

seconds LoginThrottle::Wait(const std::string& address, const std::string& username,
                            Clock::time_point now) const {
  std::lock_guard lock(mutex_);
  return std::max(WaitIn(by_address_, address, now), WaitIn(by_username_, username, now));
}

void LoginThrottle::FailIn(Table& table, const std::string& key, Clock::time_point now) {
  if (key.empty()) return;
  if (table.size() >= options_.max_entries && table.count(key) == 0) {
    std::erase_if(table, [&](const auto& item) {
      return now - item.second.last_failure >= options_.forget_after;
    });
    if (table.size() >= options_.max_entries) {
      table.erase(std::min_element(table.begin(), table.end(), [](const auto& a, const auto& b) {
        return a.second.last_failure < b.second.last_failure;
      }));
    }
  }
  Entry& entry = table[key];
  if (entry.failures > 0 && now - entry.last_failure >= options_.forget_after) entry.failures = 0;
  ++entry.failures;
  entry.last_failure = now;
  int over = entry.failures - options_.free_failures;
  if (over < 0) return;
  // first_wait * 2^over, capped (the shift is bounded so it cannot overflow).
  seconds wait = options_.first_wait * (int64_t{1} << std::min(over, 30));
  entry.blocked_until = now + std::min(wait, options_.max_wait);
}

void LoginThrottle::Failed(const std::string& address, const std::string& username,
                           Clock::time_point now) {
  std::lock_guard lock(mutex_);
  FailIn(by_address_, address, now);
  FailIn(by_username_, username, now);
}

void LoginThrottle::Succeeded(const std::string& address, const std::string& username) {
  std::lock_guard lock(mutex_);
  by_address_.erase(address);
  by_username_.erase(username);
}

}  // namespace hotel
