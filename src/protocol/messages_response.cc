// Responses of messages.h other than RESULT: ERROR (with each code's extra fields), READY,
// AUTHENTICATE, SUPPORTED, EVENT, and the tracing/warning body prefix.

#include <arpa/inet.h>

#include <string>
#include <utility>

#include "common/status.h"
#include "protocol/messages.h"
#include "protocol/notation.h"

namespace protocol {

using common::ByteReader;
using common::Bytes;
using common::ByteWriter;
using common::Result;
using common::Status;
using common::StatusCode;

namespace {

using internal::PutConsistency;
using internal::PutString;
using internal::ReadConsistency;
using internal::ReadString;

constexpr size_t kTracingIdSize = 16;

// The text between the first `open` at or after `from` and the next `close` after it.
std::optional<std::string_view> Between(std::string_view text, size_t from, char open, char close,
                                        size_t* end) {
  size_t start = text.find(open, from);
  if (start == std::string_view::npos) return std::nullopt;
  size_t stop = text.find(close, start + 1);
  if (stop == std::string_view::npos) return std::nullopt;
  *end = stop + 1;
  return text.substr(start + 1, stop - start - 1);
}

// AlreadyExists messages of the schema layer (Cassandra's wording):
//   Cannot add existing keyspace "ks"                          → (ks, "")
//   Cannot add already existing table "t" to keyspace "ks"     → (ks, t)   (tables and views)
// Anything else → ("", "").
std::pair<std::string, std::string> ParseAlreadyExists(std::string_view message) {
  constexpr std::string_view kKeyspace = "Cannot add existing keyspace ";
  constexpr std::string_view kTable = "Cannot add already existing table ";
  size_t end = 0;
  if (message.starts_with(kKeyspace)) {
    auto ks = Between(message, kKeyspace.size(), '"', '"', &end);
    if (ks.has_value()) return {std::string(*ks), ""};
  } else if (message.starts_with(kTable)) {
    auto table = Between(message, kTable.size(), '"', '"', &end);
    if (table.has_value()) {
      size_t keyspace_at = message.find(" to keyspace ", end);
      if (keyspace_at != std::string_view::npos) {
        auto ks = Between(message, keyspace_at, '"', '"', &end);
        if (ks.has_value()) return {std::string(*ks), std::string(*table)};
      }
    }
  }
  return {"", ""};
}

// `text` split at the commas outside angle brackets: "int, map<int, text>" -> {int, map<...>}.
std::vector<std::string> SplitTypeList(std::string_view text) {
  std::vector<std::string> types;
  if (text.empty()) return types;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      std::string_view type = text.substr(start, i - start);
      while (type.starts_with(' ')) type.remove_prefix(1);
      types.emplace_back(type);
      start = i + 1;
    } else if (text[i] == '<') {
      ++depth;
    } else if (text[i] == '>') {
      --depth;
    }
  }
  return types;
}

// The function a FunctionFailure message names, in the engine's (Cassandra's) wordings:
//   execution of 'ks.name[t1, t2]' failed: ...     (FunctionExecutionException)
//   the operation 't1 + t2' failed: ...             (an operator: system._add and its kin)
// Anything else names no function: keyspace, name and types stay empty.
void ParseFunctionFailure(std::string_view message, ErrorResponse* error) {
  constexpr std::string_view kExecution = "execution of '";
  constexpr std::string_view kOperation = "the operation '";
  if (message.starts_with(kExecution)) {
    std::string_view rest = message.substr(kExecution.size());
    const size_t dot = rest.find('.');
    const size_t open = rest.find('[');
    const size_t close = rest.find("]' failed");
    if (dot == std::string_view::npos || open == std::string_view::npos ||
        close == std::string_view::npos || !(dot < open && open < close)) {
      return;
    }
    error->keyspace = rest.substr(0, dot);
    error->table = rest.substr(dot + 1, open - dot - 1);
    error->arg_types = SplitTypeList(rest.substr(open + 1, close - open - 1));
  } else if (message.starts_with(kOperation)) {
    std::string_view rest = message.substr(kOperation.size());
    const size_t close = rest.find("' failed");
    if (close == std::string_view::npos) return;
    const std::string_view operation = rest.substr(0, close);
    static constexpr std::pair<std::string_view, std::string_view> kOperators[] = {
        {" + ", "_add"},    {" - ", "_substract"}, {" * ", "_multiply"},
        {" / ", "_divide"}, {" % ", "_modulo"},
    };
    for (const auto& [op, name] : kOperators) {
      const size_t at = operation.find(op);
      if (at == std::string_view::npos) continue;
      error->keyspace = "system";
      error->table = name;
      error->arg_types = {std::string(operation.substr(0, at)),
                          std::string(operation.substr(at + op.size()))};
      return;
    }
  }
}

// "Prepared query with ID <hex> not found ..." → the id bytes; empty when absent.
Bytes ParseUnpreparedId(std::string_view message) {
  constexpr std::string_view kPrefix = "Prepared query with ID ";
  size_t at = message.find(kPrefix);
  if (at == std::string_view::npos) return {};
  std::string_view rest = message.substr(at + kPrefix.size());
  std::string_view hex = rest.substr(0, rest.find(' '));
  if (hex.starts_with("0x")) hex.remove_prefix(2);
  Result<Bytes> id = common::FromHex(hex);
  return id.ok() ? std::move(id).value() : Bytes();
}

// "... READ_TOO_MANY_TOMBSTONES from /127.0.0.1:7000" (Cassandra's RequestFailureException
// wording) → that failure; nothing when absent.
std::vector<ErrorResponse::Failure> ParseReadFailures(std::string_view message) {
  constexpr std::string_view kReason = "READ_TOO_MANY_TOMBSTONES from /";
  std::vector<ErrorResponse::Failure> failures;
  const size_t at = message.find(kReason);
  if (at == std::string_view::npos) return failures;
  std::string_view rest = message.substr(at + kReason.size());
  const size_t colon = rest.rfind(':');
  const std::string address(rest.substr(0, colon));
  unsigned char buffer[16];
  ErrorResponse::Failure failure;
  failure.reason = 1;  // READ_TOO_MANY_TOMBSTONES
  if (inet_pton(AF_INET, address.c_str(), buffer) == 1) {
    failure.address = Bytes(reinterpret_cast<const char*>(buffer), 4);
  } else if (inet_pton(AF_INET6, address.c_str(), buffer) == 1) {
    failure.address = Bytes(reinterpret_cast<const char*>(buffer), 16);
  } else {
    failure.address = Bytes("\x7f\0\0\x01", 4);
  }
  failures.push_back(std::move(failure));
  return failures;
}

bool IsKnownCode(uint32_t code) {
  switch (static_cast<StatusCode>(code)) {
    case StatusCode::kServerError:
    case StatusCode::kProtocolError:
    case StatusCode::kAuthenticationError:
    case StatusCode::kUnavailable:
    case StatusCode::kOverloaded:
    case StatusCode::kIsBootstrapping:
    case StatusCode::kTruncateError:
    case StatusCode::kWriteTimeout:
    case StatusCode::kReadTimeout:
    case StatusCode::kReadFailure:
    case StatusCode::kFunctionFailure:
    case StatusCode::kWriteFailure:
    case StatusCode::kCdcWriteFailure:
    case StatusCode::kCasWriteUnknown:
    case StatusCode::kSyntaxError:
    case StatusCode::kUnauthorized:
    case StatusCode::kInvalid:
    case StatusCode::kConfigError:
    case StatusCode::kAlreadyExists:
    case StatusCode::kUnprepared:
      return true;
    default:
      return false;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// ERROR

ErrorResponse ErrorResponse::FromStatus(const Status& status) {
  ErrorResponse error;
  error.code = common::ProtocolErrorCode(status.code());
  error.message = status.message();
  if (error.code == static_cast<uint32_t>(StatusCode::kUnprepared)) {
    error.unprepared_id = ParseUnpreparedId(status.message());
  } else if (error.code == static_cast<uint32_t>(StatusCode::kAlreadyExists)) {
    auto [keyspace, table] = ParseAlreadyExists(status.message());
    error.keyspace = std::move(keyspace);
    error.table = std::move(table);
  } else if (error.code == static_cast<uint32_t>(StatusCode::kFunctionFailure)) {
    ParseFunctionFailure(status.message(), &error);
  } else if (error.code == static_cast<uint32_t>(StatusCode::kReadFailure)) {
    error.failures = ParseReadFailures(status.message());
  }
  return error;
}

Status ErrorResponse::ToStatus() const {
  StatusCode status_code =
      IsKnownCode(code) ? static_cast<StatusCode>(code) : StatusCode::kServerError;
  return Status(status_code, message);
}

// The extra fields are those a single node can honestly give: 1 replica required or blocked
// for, none answered, no failure reasons. They are version-independent: a v4 <numfailures> of
// 0 and an empty v5 <reasonmap> are the same four bytes, and a write type other than CAS has no
// v5 <contentions>.
void EncodeError(const ErrorResponse& error, ByteWriter* out, uint8_t version) {
  out->PutU32(error.code);
  PutString(error.message, out);
  switch (static_cast<StatusCode>(error.code)) {
    case StatusCode::kUnavailable:
      PutConsistency(error.consistency, out);
      out->PutI32(1);  // required
      out->PutI32(0);  // alive
      break;
    case StatusCode::kWriteTimeout:
      PutConsistency(error.consistency, out);
      out->PutI32(0);  // received
      out->PutI32(1);  // blockfor
      PutString("SIMPLE", out);
      break;
    case StatusCode::kReadTimeout:
      PutConsistency(error.consistency, out);
      out->PutI32(0);
      out->PutI32(1);
      out->PutU8(0);  // data_present
      break;
    case StatusCode::kReadFailure:
      PutConsistency(error.consistency, out);
      out->PutI32(0);
      out->PutI32(1);
      out->PutI32(static_cast<int32_t>(error.failures.size()));  // v4 numfailures / v5 map size
      if (version >= 5) {
        for (const ErrorResponse::Failure& failure : error.failures) {
          out->PutU8(static_cast<uint8_t>(failure.address.size()));
          out->PutRaw(failure.address);
          out->PutU16(failure.reason);
        }
      }
      out->PutU8(0);  // data_present
      break;
    case StatusCode::kWriteFailure:
      PutConsistency(error.consistency, out);
      out->PutI32(0);
      out->PutI32(1);
      out->PutI32(0);
      PutString("SIMPLE", out);
      break;
    case StatusCode::kCasWriteUnknown:
      PutConsistency(error.consistency, out);
      out->PutI32(0);
      out->PutI32(1);
      break;
    case StatusCode::kFunctionFailure:
      PutString(error.keyspace, out);
      PutString(error.table, out);  // the function's name
      internal::PutStringList(error.arg_types, out);
      break;
    case StatusCode::kAlreadyExists:
      PutString(error.keyspace, out);
      PutString(error.table, out);
      break;
    case StatusCode::kUnprepared:
      out->PutShortBytes(error.unprepared_id.substr(0, 65535));
      break;
    default:
      break;
  }
}

Result<ErrorResponse> DecodeError(std::string_view body) {
  ByteReader in(body);
  ErrorResponse error;
  ASSIGN_OR_RETURN(error.code, in.ReadU32());
  ASSIGN_OR_RETURN(std::string_view message, ReadString(&in));
  error.message = message;
  // Fields past the ones ErrorResponse keeps are not read: responses may carry extra bytes, and
  // the failure bodies differ between v4 and v5 after the consistency.
  switch (static_cast<StatusCode>(error.code)) {
    case StatusCode::kUnavailable:
    case StatusCode::kWriteTimeout:
    case StatusCode::kReadTimeout:
    case StatusCode::kReadFailure:
    case StatusCode::kWriteFailure:
    case StatusCode::kCasWriteUnknown: {
      ASSIGN_OR_RETURN(error.consistency, ReadConsistency(&in));
      break;
    }
    case StatusCode::kFunctionFailure:
    case StatusCode::kAlreadyExists: {
      ASSIGN_OR_RETURN(std::string_view keyspace, ReadString(&in));
      ASSIGN_OR_RETURN(std::string_view table, ReadString(&in));
      error.keyspace = keyspace;
      error.table = table;
      if (error.code == static_cast<uint32_t>(StatusCode::kFunctionFailure)) {
        ASSIGN_OR_RETURN(error.arg_types, internal::ReadStringList(&in));
      }
      break;
    }
    case StatusCode::kUnprepared: {
      ASSIGN_OR_RETURN(std::string_view id, in.ReadShortBytes());
      error.unprepared_id = id;
      break;
    }
    default:
      break;
  }
  return error;
}

// ---------------------------------------------------------------------------------------------
// READY, AUTHENTICATE, SUPPORTED, EVENT

void EncodeReady(ByteWriter*) {}

void EncodeAuthenticate(const AuthenticateResponse& authenticate, ByteWriter* out) {
  PutString(authenticate.authenticator, out);
}

void EncodeSupported(const SupportedResponse& supported, ByteWriter* out) {
  internal::PutStringMultimap(supported.options, out);
}

void EncodeSchemaChangeEvent(const cql::SchemaChangeEvent& event, ByteWriter* out) {
  PutString("SCHEMA_CHANGE", out);
  internal::PutSchemaChange(event, out);
}

Result<SupportedResponse> DecodeSupported(std::string_view body) {
  ByteReader in(body);
  SupportedResponse supported;
  ASSIGN_OR_RETURN(supported.options, internal::ReadStringMultimap(&in));
  return supported;
}

Result<AuthenticateResponse> DecodeAuthenticate(std::string_view body) {
  ByteReader in(body);
  AuthenticateResponse authenticate;
  ASSIGN_OR_RETURN(std::string_view authenticator, ReadString(&in));
  authenticate.authenticator = authenticator;
  return authenticate;
}

Result<std::optional<cql::SchemaChangeEvent>> DecodeEvent(std::string_view body) {
  ByteReader in(body);
  ASSIGN_OR_RETURN(std::string_view type, ReadString(&in));
  if (type == "SCHEMA_CHANGE") {
    cql::SchemaChangeEvent event;
    RETURN_IF_ERROR(internal::ReadSchemaChange(&in, &event));
    return std::optional<cql::SchemaChangeEvent>(std::move(event));
  }
  if (type == "TOPOLOGY_CHANGE" || type == "STATUS_CHANGE") {
    // <change>[inet]: a [byte] address size (4 or 16), the address, an [int] port.
    RETURN_IF_ERROR(ReadString(&in));
    ASSIGN_OR_RETURN(uint8_t size, in.ReadU8());
    if (size != 4 && size != 16) {
      return Status::ProtocolError("Invalid inet address size " + std::to_string(size));
    }
    RETURN_IF_ERROR(in.ReadRaw(size));
    RETURN_IF_ERROR(in.ReadI32());
    return std::optional<cql::SchemaChangeEvent>();
  }
  return Status::ProtocolError("Unknown event type " + std::string(type));
}

// ---------------------------------------------------------------------------------------------
// Body prefix

uint8_t EncodeResponsePrefix(const std::optional<Bytes>& tracing_id,
                             const std::vector<std::string>& warnings, ByteWriter* out) {
  uint8_t flags = 0;
  if (tracing_id.has_value()) {
    flags |= kFlagTracing;
    Bytes id = tracing_id->substr(0, kTracingIdSize);
    id.resize(kTracingIdSize, '\0');
    out->PutRaw(id);
  }
  if (!warnings.empty()) {
    flags |= kFlagWarning;
    internal::PutStringList(warnings, out);
  }
  return flags;
}

Result<ResponsePrefix> DecodeResponsePrefix(const Envelope& envelope) {
  ByteReader in(envelope.body);
  ResponsePrefix prefix;
  if ((envelope.header.flags & kFlagTracing) != 0) {
    ASSIGN_OR_RETURN(std::string_view id, in.ReadRaw(kTracingIdSize));
    prefix.tracing_id = Bytes(id);
  }
  if ((envelope.header.flags & kFlagWarning) != 0) {
    ASSIGN_OR_RETURN(prefix.warnings, internal::ReadStringList(&in));
  }
  if ((envelope.header.flags & kFlagCustomPayload) != 0) {
    RETURN_IF_ERROR(internal::SkipBytesMap(&in));
  }
  prefix.rest = in.rest();
  return prefix;
}

}  // namespace protocol
