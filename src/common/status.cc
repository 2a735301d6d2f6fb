#include "common/status.h"

#include "common/utf8.h"

namespace common {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "OK";
    case StatusCode::kServerError:
      return "ServerError";
    case StatusCode::kProtocolError:
      return "ProtocolError";
    case StatusCode::kAuthenticationError:
      return "AuthenticationFailed";
    case StatusCode::kUnavailable:
      return "Unavailable";
    case StatusCode::kOverloaded:
      return "Overloaded";
    case StatusCode::kIsBootstrapping:
      return "IsBootstrapping";
    case StatusCode::kTruncateError:
      return "TruncateError";
    case StatusCode::kWriteTimeout:
      return "WriteTimeout";
    case StatusCode::kReadTimeout:
      return "ReadTimeout";
    case StatusCode::kReadFailure:
      return "ReadFailure";
    case StatusCode::kFunctionFailure:
      return "FunctionFailure";
    case StatusCode::kWriteFailure:
      return "WriteFailure";
    case StatusCode::kCdcWriteFailure:
      return "CDCWriteFailure";
    case StatusCode::kCasWriteUnknown:
      return "CASWriteUnknown";
    case StatusCode::kSyntaxError:
      return "SyntaxException";
    case StatusCode::kUnauthorized:
      return "Unauthorized";
    case StatusCode::kInvalid:
      return "InvalidRequest";
    case StatusCode::kConfigError:
      return "ConfigurationException";
    case StatusCode::kAlreadyExists:
      return "AlreadyExists";
    case StatusCode::kUnprepared:
      return "Unprepared";
    case StatusCode::kCorruption:
      return "Corruption";
    case StatusCode::kIOError:
      return "IOError";
    case StatusCode::kInternal:
      return "Internal";
    case StatusCode::kNotFound:
      return "NotFound";
  }
  return "Unknown";
}

uint32_t ProtocolErrorCode(StatusCode code) {
  uint32_t value = static_cast<uint32_t>(code);
  return value > 0xFFFF ? 0 : value;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(StatusCodeName(code_));
  out += ": ";
  out += message_;
  return out;
}

std::string Status::WellFormedMessage(std::string message) {
  if (IsValidUtf8(message)) return message;
  return ValidUtf8(message);
}

Status Status::WithPrefix(std::string_view prefix) const {
  if (ok()) return *this;
  std::string message(prefix);
  message += message_;
  return Status(code_, std::move(message));
}

}  // namespace common
