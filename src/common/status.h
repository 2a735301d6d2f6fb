// Status: the outcome of an operation that can fail in an expected way.
//
// Every layer returns errors as values. The codes mirror the native
// protocol's error codes (native_protocol_v4.spec §9) so an error travels unchanged from the
// parser or the engine to an ERROR frame, plus a few internal codes (Corruption, IOError,
// Internal) that the server reports as ServerError.
//
// Thread-safety: a Status is a value; distinct objects may be used from distinct threads.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace common {

// Values are the protocol's error codes where one exists. Internal codes use values above
// 0xFFFF so they can never collide with a protocol code.
enum class StatusCode : uint32_t {
  kOk = 0xFFFFFFFF,
  // Native-protocol error codes.
  kServerError = 0x0000,
  kProtocolError = 0x000A,
  kAuthenticationError = 0x0100,
  kUnavailable = 0x1000,
  kOverloaded = 0x1001,
  kIsBootstrapping = 0x1002,
  kTruncateError = 0x1003,
  kWriteTimeout = 0x1100,
  kReadTimeout = 0x1200,
  kReadFailure = 0x1300,
  kFunctionFailure = 0x1400,
  kWriteFailure = 0x1500,
  kCdcWriteFailure = 0x1600,
  kCasWriteUnknown = 0x1700,
  kSyntaxError = 0x2000,
  kUnauthorized = 0x2100,
  kInvalid = 0x2200,
  kConfigError = 0x2300,
  kAlreadyExists = 0x2400,
  kUnprepared = 0x2500,
  // Internal codes, reported to clients as ServerError.
  kCorruption = 0x10000,
  kIOError = 0x10001,
  kInternal = 0x10002,
  kNotFound = 0x10003,
};

// The name Cassandra's drivers and cqlsh use for a code ("Invalid", "SyntaxException"...).
std::string_view StatusCodeName(StatusCode code);

// The protocol error code a status is sent as: internal codes map to ServerError.
uint32_t ProtocolErrorCode(StatusCode code);

class [[nodiscard]] Status {
 public:
  // An OK status. Cheap: no allocation.
  Status() = default;
  // `message` is stored as valid UTF-8 (common/utf8.h): ill-formed bytes, such as a multi-byte
  // character cut by whoever built the message, become U+FFFD. Errors leave the server as
  // protocol [string]s, which drivers decode strictly.
  Status(StatusCode code, std::string message)
      : code_(code), message_(WellFormedMessage(std::move(message))) {}

  static Status Ok() { return Status(); }
  static Status SyntaxError(std::string message) {
    return Status(StatusCode::kSyntaxError, std::move(message));
  }
  static Status Invalid(std::string message) {
    return Status(StatusCode::kInvalid, std::move(message));
  }
  static Status AlreadyExists(std::string message) {
    return Status(StatusCode::kAlreadyExists, std::move(message));
  }
  static Status ProtocolError(std::string message) {
    return Status(StatusCode::kProtocolError, std::move(message));
  }
  static Status ServerError(std::string message) {
    return Status(StatusCode::kServerError, std::move(message));
  }
  static Status ConfigError(std::string message) {
    return Status(StatusCode::kConfigError, std::move(message));
  }
  static Status Unauthorized(std::string message) {
    return Status(StatusCode::kUnauthorized, std::move(message));
  }
  static Status Corruption(std::string message) {
    return Status(StatusCode::kCorruption, std::move(message));
  }
  static Status IOError(std::string message) {
    return Status(StatusCode::kIOError, std::move(message));
  }
  static Status Internal(std::string message) {
    return Status(StatusCode::kInternal, std::move(message));
  }
  static Status NotFound(std::string message) {
    return Status(StatusCode::kNotFound, std::move(message));
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // "Invalid: message" (or "OK"); for logs and test failure output.
  std::string ToString() const;

  // Returns a copy whose message is `prefix` followed by this status's message.
  Status WithPrefix(std::string_view prefix) const;

  bool operator==(const Status& other) const = default;

 private:
  StatusCode code_ = StatusCode::kOk;
  static std::string WellFormedMessage(std::string message);

  std::string message_;
};

}  // namespace common

// Evaluates `expr` (a Status or Result<T>); if it is an error, returns it from the caller.
#define RETURN_IF_ERROR(expr)                                                      \
  do {                                                                             \
    auto&& cqld_status_or_result_ = (expr);                                        \
    if (!cqld_status_or_result_.ok()) {                                            \
      return ::common::internal::ToStatus(                                         \
          std::forward<decltype(cqld_status_or_result_)>(cqld_status_or_result_)); \
    }                                                                              \
  } while (false)

namespace common::internal {
inline Status ToStatus(const Status& s) { return s; }
inline Status ToStatus(Status&& s) { return std::move(s); }
}  // namespace common::internal
