#include "common/password_hash.h"

#include <crypt.h>

#include <cstring>
#include <memory>
#include <string>

namespace common {
namespace {

// crypt_r's state is large (~32 KiB): on the heap, not the stack.
struct CryptState {
  crypt_data data;
};

// libcrypt stops at a NUL byte; a password holding one would otherwise match its prefix.
bool HasNul(std::string_view text) { return text.find('\0') != std::string_view::npos; }

}  // namespace

Result<std::string> HashPassword(std::string_view password, int log2_rounds,
                                 BcryptVariant variant) {
  if (HasNul(password)) return Status::Invalid("A password may not contain a NUL character");
  if (log2_rounds < 4 || log2_rounds > 31) return Status::Invalid("bcrypt cost must be in 4..31");
  char salt[CRYPT_GENSALT_OUTPUT_SIZE];
  // A null random source: libcrypt reads the system's (getrandom).
  if (crypt_gensalt_rn(variant == BcryptVariant::k2a ? "$2a$" : "$2b$",
                       static_cast<unsigned long>(log2_rounds), nullptr, 0, salt,
                       sizeof(salt)) == nullptr) {
    return Status::Internal("cannot make a bcrypt salt");
  }
  auto state = std::make_unique<CryptState>();
  std::memset(&state->data, 0, sizeof(state->data));
  const std::string text(password);
  const char* hash = crypt_r(text.c_str(), salt, &state->data);
  if (hash == nullptr || hash[0] == '*') return Status::Internal("bcrypt failed");
  return std::string(hash);
}

bool VerifyPassword(std::string_view password, std::string_view hash) {
  if (HasNul(password) || HasNul(hash) || !hash.starts_with("$2")) return false;
  auto state = std::make_unique<CryptState>();
  std::memset(&state->data, 0, sizeof(state->data));
  const std::string text(password);
  const std::string setting(hash);
  const char* computed = crypt_r(text.c_str(), setting.c_str(), &state->data);
  if (computed == nullptr || computed[0] == '*') return false;
  const size_t length = std::strlen(computed);
  if (length != hash.size()) return false;
  unsigned char difference = 0;
  for (size_t i = 0; i < length; ++i) {
    difference |= static_cast<unsigned char>(computed[i] ^ hash[i]);
  }
  return difference == 0;
}

}  // namespace common
