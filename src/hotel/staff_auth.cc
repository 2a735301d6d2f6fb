#include "hotel/staff_auth.h"

namespace hotel {

using common::Result;
using common::Status;

StaffAuth::StaffAuth(StaffAccounts* accounts, StaffAuthOptions options)
    : accounts_(accounts),
      options_(std::move(options)),
      sessions_(options_.sessions),
      throttle_(options_.throttle) {}

std::chrono::seconds StaffAuth::RetryAfter(const std::string& client_address,
                                           const std::string& username) const {
  auto name = NormalizeUsername(username);
  return throttle_.Wait(client_address, name.ok() ? *name : "", options_.now());
}

Result<StaffGrant> StaffAuth::Login(const std::string& client_address, const std::string& username,
                                    const std::string& password) {
  auto normalized = NormalizeUsername(username);
  std::string name = normalized.ok() ? *normalized : "";
  if (checking_.fetch_add(1) >= options_.max_concurrent_checks) {
    checking_.fetch_sub(1);
    return Status(common::StatusCode::kOverloaded,
                  "Too many logins are being checked at once; try again in a second");
  }
  auto checked = accounts_->Check(username, password);
  checking_.fetch_sub(1);
  if (!checked.ok()) return checked.status();
  if (!checked->has_value()) {
    throttle_.Failed(client_address, name, options_.now());
    return Status(common::StatusCode::kAuthenticationError, "Wrong username or password");
  }
  throttle_.Succeeded(client_address, name);
  ASSIGN_OR_RETURN(std::string token, sessions_.Create(name, **checked, options_.now()));
  const SessionOptions& limits = sessions_.options();
  return StaffGrant{std::move(token), name, limits.lifetime, limits.idle_timeout};
}

Result<std::optional<StaffSession>> StaffAuth::Authenticate(const std::string& token) {
  auto now = options_.now();
  std::optional<StaffSession> session = sessions_.Use(token, now);
  if (!session || !session->recheck_due) return session;
  ASSIGN_OR_RETURN(std::optional<std::string> hash, accounts_->CurrentHash(session->username));
  if (!hash || *hash != session->password_hash) {
    // Removed, or its password changed: this session ends (the others at their own recheck).
    sessions_.Remove(token);
    return std::optional<StaffSession>();
  }
  sessions_.MarkChecked(token, now);
  return session;
}

void StaffAuth::Logout(const std::string& token) { sessions_.Remove(token); }

}  // namespace hotel
