#include "hotel/staff_accounts.h"

#include <crypt.h>
#include <fmt/format.h>
#include <openssl/crypto.h>

#include "common/clock.h"

namespace hotel {

using common::Result;
using common::Status;

namespace {

// Hashes `password` with `setting` (a salt, or a whole hash to check against). Empty when
// libcrypt refuses (a malformed setting); libxcrypt then answers a string starting with '*'.
std::string Crypt(const std::string& password, const std::string& setting) {
  auto data = std::make_unique<crypt_data>();  // ~32 KiB: not on the stack; zeroed
  const char* hashed = crypt_r(password.c_str(), setting.c_str(), data.get());
  if (hashed == nullptr || hashed[0] == '*') return "";
  return hashed;
}

bool Settable(std::string_view password) {
  return password.size() <= kMaxPasswordBytes && password.find('\0') == std::string_view::npos;
}

}  // namespace

Result<std::string> NormalizeUsername(std::string_view username) {
  if (username.empty() || username.size() > kMaxUsernameLength) {
    return Status::Invalid(
        fmt::format("a username is 1 to {} characters long", kMaxUsernameLength));
  }
  std::string normalized;
  for (char c : username) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    bool allowed = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                   c == '@' || c == '-';
    if (!allowed) {
      return Status::Invalid("a username may only hold letters, digits, '.', '_', '@' and '-'");
    }
    normalized.push_back(c);
  }
  return normalized;
}

Status CheckNewPassword(std::string_view password) {
  if (password.size() < kMinPasswordBytes) {
    return Status::Invalid(fmt::format("a password needs at least {} characters", kMinPasswordBytes));
  }
  if (password.size() > kMaxPasswordBytes) {
    return Status::Invalid(fmt::format("a password may be at most {} bytes", kMaxPasswordBytes));
  }
  if (password.find('\0') != std::string_view::npos) {
    return Status::Invalid("a password may not hold a NUL character");
  }
  return Status::Ok();
}

Result<std::string> HashPassword(std::string_view password, int cost) {
  if (cost < 4 || cost > 31) return Status::Invalid("bcrypt cost must be in 4..31");
  char salt[CRYPT_GENSALT_OUTPUT_SIZE];
  // nullptr random bytes: libxcrypt draws them from the operating system.
  if (crypt_gensalt_rn("$2b$", static_cast<unsigned long>(cost), nullptr, 0, salt,
                       sizeof(salt)) == nullptr) {
    return Status::Internal("cannot make a bcrypt salt");
  }
  std::string hashed = Crypt(std::string(password), salt);
  if (hashed.empty()) return Status::Internal("bcrypt hashing failed");
  return hashed;
}

bool PasswordMatches(std::string_view password, const std::string& hash) {
  std::string computed = Crypt(std::string(password), hash);
  if (computed.empty() || computed.size() != hash.size()) return false;
  return CRYPTO_memcmp(computed.data(), hash.data(), hash.size()) == 0;
}

Result<std::unique_ptr<StaffAccounts>> StaffAccounts::Create(Repository* repository,
                                                             StaffAccountsOptions options) {
  ASSIGN_OR_RETURN(std::string dummy, HashPassword("no account has this password", options.bcrypt_cost));
  return std::make_unique<StaffAccounts>(repository, options, std::move(dummy));
}

Status StaffAccounts::Add(std::string_view username, std::string_view password) {
  ASSIGN_OR_RETURN(std::string name, NormalizeUsername(username));
  RETURN_IF_ERROR(CheckNewPassword(password));
  ASSIGN_OR_RETURN(std::string hash, HashPassword(password, options_.bcrypt_cost));
  ASSIGN_OR_RETURN(bool inserted, repository_->InsertStaffUser(
                                      name, hash, common::SystemClock().NowMillis()));
  if (!inserted) return Status::AlreadyExists("staff user '" + name + "' already exists");
  return Status::Ok();
}

Status StaffAccounts::SetPassword(std::string_view username, std::string_view password) {
  ASSIGN_OR_RETURN(std::string name, NormalizeUsername(username));
  RETURN_IF_ERROR(CheckNewPassword(password));
  ASSIGN_OR_RETURN(std::string hash, HashPassword(password, options_.bcrypt_cost));
  ASSIGN_OR_RETURN(bool updated, repository_->SetStaffPassword(name, hash));
  if (!updated) return Status::NotFound("no staff user '" + name + "'");
  return Status::Ok();
}

Status StaffAccounts::Remove(std::string_view username) {
  ASSIGN_OR_RETURN(std::string name, NormalizeUsername(username));
  ASSIGN_OR_RETURN(bool deleted, repository_->DeleteStaffUser(name));
  if (!deleted) return Status::NotFound("no staff user '" + name + "'");
  return Status::Ok();
}

Result<std::vector<std::string>> StaffAccounts::List() { return repository_->ListStaffUsers(); }

Result<std::optional<std::string>> StaffAccounts::Check(std::string_view username,
                                                        std::string_view password) {
  std::optional<std::string> stored;
  if (auto name = NormalizeUsername(username); name.ok()) {
    ASSIGN_OR_RETURN(stored, repository_->FindStaffPasswordHash(*name));
  }
  // The same bcrypt work whatever the outcome: a dummy hash stands in for a missing account.
  bool usable = stored.has_value() && Settable(password);
  password_checks_.fetch_add(1);
  bool matches = PasswordMatches(Settable(password) ? password : std::string_view("-"),
                                 usable ? *stored : dummy_hash_);
  if (!usable || !matches) return std::optional<std::string>();
  return stored;
}

Result<std::optional<std::string>> StaffAccounts::CurrentHash(const std::string& username) {
  return repository_->FindStaffPasswordHash(username);
}

}  // namespace hotel
