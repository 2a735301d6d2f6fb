#include "hotel/session_store.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>

namespace hotel {

namespace {

constexpr size_t kTokenBytes = 32;

std::string Hex(const unsigned char* bytes, size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    out.push_back(kDigits[bytes[i] >> 4]);
    out.push_back(kDigits[bytes[i] & 0xF]);
  }
  return out;
}

// The map key of a token: its SHA-256 (raw bytes); empty for text that cannot be a token.
std::string Digest(const std::string& token) {
  if (token.size() != kTokenBytes * 2) return "";
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_Digest(token.data(), token.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1) {
    return "";
  }
  return std::string(reinterpret_cast<const char*>(digest.data()), size);
}

}  // namespace

bool SessionStore::Ended(const Entry& entry, Clock::time_point now) const {
  return now - entry.last_used >= options_.idle_timeout || now - entry.created >= options_.lifetime;
}

void SessionStore::MakeRoom(Clock::time_point now) {
  if (sessions_.size() < options_.max_sessions) return;
  std::erase_if(sessions_, [&](const auto& item) { return Ended(item.second, now); });
  if (sessions_.size() < options_.max_sessions || sessions_.empty()) return;
  auto oldest = std::min_element(
      sessions_.begin(), sessions_.end(),
      [](const auto& a, const auto& b) { return a.second.last_used < b.second.last_used; });
  sessions_.erase(oldest);
}

common::Result<std::string> SessionStore::Create(const std::string& username,
                                                 const std::string& password_hash,
                                                 Clock::time_point now) {
  std::array<unsigned char, kTokenBytes> random{};
  if (RAND_bytes(random.data(), static_cast<int>(random.size())) != 1) {
    return common::Status::Internal("cannot draw a session token (RAND_bytes failed)");
  }
  std::string token = Hex(random.data(), random.size());
  std::string key = Digest(token);
  if (key.empty()) return common::Status::Internal("cannot hash a session token");
  std::lock_guard lock(mutex_);
  MakeRoom(now);
  sessions_[key] = Entry{{username, password_hash, options_.lifetime, false}, now, now, now};
  return token;
}

std::optional<StaffSession> SessionStore::Use(const std::string& token, Clock::time_point now) {
  std::string key = Digest(token);
  if (key.empty()) return std::nullopt;
  std::lock_guard lock(mutex_);
  auto found = sessions_.find(key);
  if (found == sessions_.end()) return std::nullopt;
  Entry& entry = found->second;
  if (Ended(entry, now)) {
    sessions_.erase(found);
    return std::nullopt;
  }
  entry.last_used = now;
  StaffSession session = entry.session;
  session.remaining_lifetime =
      std::chrono::duration_cast<std::chrono::seconds>(options_.lifetime - (now - entry.created));
  session.recheck_due = now - entry.checked >= options_.recheck_interval;
  return session;
}

void SessionStore::MarkChecked(const std::string& token, Clock::time_point now) {
  std::string key = Digest(token);
  std::lock_guard lock(mutex_);
  auto found = sessions_.find(key);
  if (found != sessions_.end()) found->second.checked = now;
}

void SessionStore::Remove(const std::string& token) {
  std::string key = Digest(token);
  if (key.empty()) return;
  std::lock_guard lock(mutex_);
  sessions_.erase(key);
}

size_t SessionStore::size() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}

}  // namespace hotel
