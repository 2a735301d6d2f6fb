#include "hotel/staff_accounts.h"

#include <fmt/format.h>

#include "common/clock.h"
#include "common/password_hash.h"

namespace hotel {

using common::Result;
using common::Status;

namespace {

// A "$2b$" bcrypt hash (60 characters) of `password` with a fresh random salt.
Result<std::string> NewHash(std::string_view password, int cost) {
  return common::HashPassword(password, cost, common::BcryptVariant::k2b);
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
    return Status::Invalid(
        fmt::format("a password needs at least {} characters", kMinPasswordBytes));
  }
  if (password.size() > kMaxPasswordBytes) {
    return Status::Invalid(fmt::format("a password may be at most {} bytes", kMaxPasswordBytes));
  }
  if (password.find('\0') != std::string_view::npos) {
    return Status::Invalid("a password may not hold a NUL character");
  }
  return Status::Ok();
}

Result<std::unique_ptr<StaffAccounts>> StaffAccounts::Create(Repository* repository,
                                                             StaffAccountsOptions options) {
  ASSIGN_OR_RETURN(std::string dummy, NewHash("no account has this password", options.bcrypt_cost));
  return std::make_unique<StaffAccounts>(repository, options, std::move(dummy));
}

Status StaffAccounts::Add(std::string_view username, std::string_view password) {
  ASSIGN_OR_RETURN(std::string name, NormalizeUsername(username));
  RETURN_IF_ERROR(CheckNewPassword(password));
  ASSIGN_OR_RETURN(std::string hash, NewHash(password, options_.bcrypt_cost));
  ASSIGN_OR_RETURN(bool inserted,
                   repository_->InsertStaffUser(name, hash, common::SystemClock().NowMillis()));
  if (!inserted) return Status::AlreadyExists("staff user '" + name + "' already exists");
  return Status::Ok();
}

Status StaffAccounts::SetPassword(std::string_view username, std::string_view password) {
  ASSIGN_OR_RETURN(std::string name, NormalizeUsername(username));
  RETURN_IF_ERROR(CheckNewPassword(password));
  ASSIGN_OR_RETURN(std::string hash, NewHash(password, options_.bcrypt_cost));
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
  bool matches = common::VerifyPassword(Settable(password) ? password : std::string_view("-"),
                                        usable ? *stored : dummy_hash_);
  if (!usable || !matches) return std::optional<std::string>();
  return stored;
}

Result<std::optional<std::string>> StaffAccounts::CurrentHash(const std::string& username) {
  return repository_->FindStaffPasswordHash(username);
}

}  // namespace hotel
