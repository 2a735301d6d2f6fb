// Requests of messages.h: DecodeRequest (server side) and EncodeRequestBody (client side).

#include <limits>
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

namespace {

using internal::PutConsistency;
using internal::PutLongString;
using internal::PutString;
using internal::PutValue;
using internal::ReadConsistency;
using internal::ReadLongString;
using internal::ReadString;
using internal::ReadValue;

// Query flags (§4.1.4; [byte] in v4, [int] in v5).
constexpr uint32_t kValues = 0x01;
constexpr uint32_t kSkipMetadata = 0x02;
constexpr uint32_t kPageSize = 0x04;
constexpr uint32_t kPagingState = 0x08;
constexpr uint32_t kSerialConsistency = 0x10;
constexpr uint32_t kDefaultTimestamp = 0x20;
constexpr uint32_t kValueNames = 0x40;
constexpr uint32_t kKeyspace = 0x80;
constexpr uint32_t kNowInSeconds = 0x100;
// PREPARE flags (v5).
constexpr uint32_t kPrepareKeyspace = 0x01;

Result<uint32_t> ReadFlags(ByteReader* in, uint8_t version) {
  if (version >= 5) return in->ReadU32();
  ASSIGN_OR_RETURN(uint8_t flags, in->ReadU8());
  return uint32_t{flags};
}

void PutFlags(uint32_t flags, uint8_t version, ByteWriter* out) {
  if (version >= 5) {
    out->PutU32(flags);
  } else {
    out->PutU8(static_cast<uint8_t>(flags));
  }
}

Result<int64_t> ReadTimestamp(ByteReader* in) {
  ASSIGN_OR_RETURN(int64_t timestamp, in->ReadI64());
  if (timestamp == std::numeric_limits<int64_t>::min()) {
    return Status::ProtocolError("Out of bound timestamp, must be in [" +
                                 std::to_string(std::numeric_limits<int64_t>::min() + 1) + ", " +
                                 std::to_string(std::numeric_limits<int64_t>::max()) + "] (got " +
                                 std::to_string(timestamp) + ")");
  }
  return timestamp;
}

Result<QueryParameters> DecodeQueryParameters(ByteReader* in, uint8_t version) {
  QueryParameters parameters;
  cql::QueryOptions& options = parameters.options;
  ASSIGN_OR_RETURN(options.consistency, ReadConsistency(in));
  ASSIGN_OR_RETURN(uint32_t flags, ReadFlags(in, version));
  if ((flags & kValues) != 0) {
    ASSIGN_OR_RETURN(uint16_t n, in->ReadU16());
    bool named = (flags & kValueNames) != 0;
    options.values.reserve(internal::SafeReserve(n, *in, 4));
    if (named) options.value_names.reserve(options.values.capacity());
    for (uint16_t i = 0; i < n; ++i) {
      if (named) {
        ASSIGN_OR_RETURN(std::string_view name, ReadString(in));
        options.value_names.emplace_back(name);
      }
      ASSIGN_OR_RETURN(cql::BoundValue value, ReadValue(in));
      options.values.push_back(std::move(value));
    }
  }
  parameters.skip_metadata = (flags & kSkipMetadata) != 0;
  if ((flags & kPageSize) != 0) {
    ASSIGN_OR_RETURN(options.page_size, in->ReadI32());
  }
  if ((flags & kPagingState) != 0) {
    ASSIGN_OR_RETURN(std::optional<std::string_view> state, internal::ReadNullableBytes(in));
    if (state.has_value()) options.paging_state = Bytes(*state);
  }
  if ((flags & kSerialConsistency) != 0) {
    ASSIGN_OR_RETURN(options.serial_consistency, ReadConsistency(in));
  }
  if ((flags & kDefaultTimestamp) != 0) {
    ASSIGN_OR_RETURN(options.timestamp, ReadTimestamp(in));
  }
  if (version >= 5 && (flags & kKeyspace) != 0) {
    ASSIGN_OR_RETURN(std::string_view keyspace, ReadString(in));
    options.keyspace = keyspace;
  }
  if (version >= 5 && (flags & kNowInSeconds) != 0) {
    ASSIGN_OR_RETURN(parameters.now_in_seconds, in->ReadI32());
  }
  return parameters;
}

void EncodeQueryParameters(const QueryParameters& parameters, uint8_t version, ByteWriter* out) {
  const cql::QueryOptions& options = parameters.options;
  uint32_t flags = 0;
  if (!options.values.empty()) flags |= kValues;
  if (!options.values.empty() && !options.value_names.empty()) flags |= kValueNames;
  if (parameters.skip_metadata) flags |= kSkipMetadata;
  if (options.page_size > 0) flags |= kPageSize;
  if (options.paging_state.has_value()) flags |= kPagingState;
  if (options.serial_consistency.has_value()) flags |= kSerialConsistency;
  if (options.timestamp.has_value()) flags |= kDefaultTimestamp;
  if (version >= 5 && !options.keyspace.empty()) flags |= kKeyspace;
  if (version >= 5 && parameters.now_in_seconds.has_value()) flags |= kNowInSeconds;
  PutConsistency(options.consistency, out);
  PutFlags(flags, version, out);
  if ((flags & kValues) != 0) {
    out->PutU16(static_cast<uint16_t>(options.values.size()));
    for (size_t i = 0; i < options.values.size(); ++i) {
      if ((flags & kValueNames) != 0) {
        PutString(i < options.value_names.size() ? options.value_names[i] : "", out);
      }
      PutValue(options.values[i], out);
    }
  }
  if ((flags & kPageSize) != 0) out->PutI32(options.page_size);
  if ((flags & kPagingState) != 0) out->PutIntBytes(*options.paging_state);
  if ((flags & kSerialConsistency) != 0) PutConsistency(*options.serial_consistency, out);
  if ((flags & kDefaultTimestamp) != 0) out->PutI64(*options.timestamp);
  if ((flags & kKeyspace) != 0) PutString(options.keyspace, out);
  if ((flags & kNowInSeconds) != 0) out->PutI32(*parameters.now_in_seconds);
}

struct DecodedBatch {
  BatchRequestMessage batch;
  uint32_t flags = 0;
};

// Reads a BATCH body assuming its values are `named` or not. The flags that say so come after
// the statements, so DecodeBatch tries both readings.
Result<DecodedBatch> DecodeBatchAs(ByteReader* in, uint8_t version, bool named) {
  DecodedBatch decoded;
  BatchRequestMessage& batch = decoded.batch;
  ASSIGN_OR_RETURN(uint8_t type, in->ReadU8());
  if (type > static_cast<uint8_t>(cql::BatchType::kCounter)) {
    return Status::ProtocolError("Invalid BATCH message type " + std::to_string(type));
  }
  batch.type = static_cast<cql::BatchType>(type);
  ASSIGN_OR_RETURN(uint16_t n, in->ReadU16());
  batch.statements.reserve(internal::SafeReserve(n, *in, 7));
  for (uint16_t i = 0; i < n; ++i) {
    BatchRequestMessage::Statement statement;
    ASSIGN_OR_RETURN(uint8_t kind, in->ReadU8());
    if (kind == 0) {
      ASSIGN_OR_RETURN(std::string_view query, ReadLongString(in));
      statement.query = query;
    } else if (kind == 1) {
      ASSIGN_OR_RETURN(std::string_view id, in->ReadShortBytes());
      statement.id = id;
      statement.prepared = true;
    } else {
      return Status::ProtocolError("Invalid query kind in BATCH messages. Must be 0 or 1 but got " +
                                   std::to_string(kind));
    }
    ASSIGN_OR_RETURN(uint16_t count, in->ReadU16());
    statement.values.reserve(internal::SafeReserve(count, *in, 4));
    for (uint16_t v = 0; v < count; ++v) {
      if (named) {
        ASSIGN_OR_RETURN(std::string_view name, ReadString(in));
        statement.value_names.emplace_back(name);
      }
      ASSIGN_OR_RETURN(cql::BoundValue value, ReadValue(in));
      statement.values.push_back(std::move(value));
    }
    batch.statements.push_back(std::move(statement));
  }
  ASSIGN_OR_RETURN(batch.consistency, ReadConsistency(in));
  ASSIGN_OR_RETURN(decoded.flags, ReadFlags(in, version));
  uint32_t flags = decoded.flags;
  if ((flags & kSerialConsistency) != 0) {
    ASSIGN_OR_RETURN(batch.serial_consistency, ReadConsistency(in));
  }
  if ((flags & kDefaultTimestamp) != 0) {
    ASSIGN_OR_RETURN(batch.timestamp, ReadTimestamp(in));
  }
  if (version >= 5 && (flags & kKeyspace) != 0) {
    ASSIGN_OR_RETURN(std::string_view keyspace, ReadString(in));
    batch.keyspace = keyspace;
  }
  if (version >= 5 && (flags & kNowInSeconds) != 0) {
    ASSIGN_OR_RETURN(batch.now_in_seconds, in->ReadI32());
  }
  return decoded;
}

// Errors: the first reading's error when neither reading is consistent with the flags.
Result<BatchRequestMessage> DecodeBatch(ByteReader* in, uint8_t version) {
  ByteReader plain_reader = *in;
  Result<DecodedBatch> plain = DecodeBatchAs(&plain_reader, version, /*named=*/false);
  if (plain.ok() && (plain->flags & kValueNames) == 0 && plain_reader.empty()) {
    *in = plain_reader;
    return std::move(plain->batch);
  }
  ByteReader named_reader = *in;
  Result<DecodedBatch> named = DecodeBatchAs(&named_reader, version, /*named=*/true);
  if (named.ok() && (named->flags & kValueNames) != 0) {
    *in = named_reader;
    return std::move(named->batch);
  }
  if (plain.ok()) {
    // The plain reading parsed (maybe with trailing bytes, which the caller reports).
    *in = plain_reader;
    return std::move(plain->batch);
  }
  return plain.status();
}

void EncodeBatch(const BatchRequestMessage& batch, uint8_t version, ByteWriter* out) {
  bool named = false;
  for (const auto& statement : batch.statements) {
    if (!statement.value_names.empty()) named = true;
  }
  out->PutU8(static_cast<uint8_t>(batch.type));
  out->PutU16(static_cast<uint16_t>(batch.statements.size()));
  for (const auto& statement : batch.statements) {
    if (statement.prepared) {
      out->PutU8(1);
      out->PutShortBytes(statement.id);
    } else {
      out->PutU8(0);
      PutLongString(statement.query, out);
    }
    out->PutU16(static_cast<uint16_t>(statement.values.size()));
    for (size_t i = 0; i < statement.values.size(); ++i) {
      if (named) PutString(i < statement.value_names.size() ? statement.value_names[i] : "", out);
      PutValue(statement.values[i], out);
    }
  }
  uint32_t flags = 0;
  if (named) flags |= kValueNames;
  if (batch.serial_consistency.has_value()) flags |= kSerialConsistency;
  if (batch.timestamp.has_value()) flags |= kDefaultTimestamp;
  if (version >= 5 && !batch.keyspace.empty()) flags |= kKeyspace;
  if (version >= 5 && batch.now_in_seconds.has_value()) flags |= kNowInSeconds;
  PutConsistency(batch.consistency, out);
  PutFlags(flags, version, out);
  if ((flags & kSerialConsistency) != 0) PutConsistency(*batch.serial_consistency, out);
  if ((flags & kDefaultTimestamp) != 0) out->PutI64(*batch.timestamp);
  if ((flags & kKeyspace) != 0) PutString(batch.keyspace, out);
  if ((flags & kNowInSeconds) != 0) out->PutI32(*batch.now_in_seconds);
}

Result<Request> DecodeRequestBody(Opcode opcode, ByteReader* in, uint8_t version) {
  switch (opcode) {
    case Opcode::kStartup: {
      StartupRequest startup;
      ASSIGN_OR_RETURN(startup.options, internal::ReadStringMap(in));
      return Request(std::move(startup));
    }
    case Opcode::kOptions:
      return Request(OptionsRequest{});
    case Opcode::kQuery: {
      QueryRequest query;
      ASSIGN_OR_RETURN(std::string_view text, ReadLongString(in));
      query.query = text;
      ASSIGN_OR_RETURN(query.parameters, DecodeQueryParameters(in, version));
      return Request(std::move(query));
    }
    case Opcode::kPrepare: {
      PrepareRequest prepare;
      ASSIGN_OR_RETURN(std::string_view text, ReadLongString(in));
      prepare.query = text;
      if (version >= 5) {
        ASSIGN_OR_RETURN(uint32_t flags, in->ReadU32());
        if ((flags & kPrepareKeyspace) != 0) {
          ASSIGN_OR_RETURN(std::string_view keyspace, ReadString(in));
          prepare.keyspace = keyspace;
        }
      }
      return Request(std::move(prepare));
    }
    case Opcode::kExecute: {
      ExecuteRequest execute;
      ASSIGN_OR_RETURN(std::string_view id, in->ReadShortBytes());
      execute.id = id;
      if (version >= 5) {
        ASSIGN_OR_RETURN(std::string_view metadata_id, in->ReadShortBytes());
        execute.result_metadata_id = metadata_id;
      }
      ASSIGN_OR_RETURN(execute.parameters, DecodeQueryParameters(in, version));
      return Request(std::move(execute));
    }
    case Opcode::kBatch: {
      ASSIGN_OR_RETURN(BatchRequestMessage batch, DecodeBatch(in, version));
      return Request(std::move(batch));
    }
    case Opcode::kRegister: {
      RegisterRequest register_request;
      ASSIGN_OR_RETURN(register_request.event_types, internal::ReadStringList(in));
      return Request(std::move(register_request));
    }
    case Opcode::kAuthResponse: {
      AuthResponseRequest auth;
      ASSIGN_OR_RETURN(std::optional<std::string_view> token, internal::ReadNullableBytes(in));
      if (token.has_value()) auth.token = Bytes(*token);
      return Request(std::move(auth));
    }
    case Opcode::kError:
    case Opcode::kReady:
    case Opcode::kAuthenticate:
    case Opcode::kSupported:
    case Opcode::kResult:
    case Opcode::kEvent:
    case Opcode::kAuthChallenge:
    case Opcode::kAuthSuccess:
      return Status::ProtocolError("Unexpected message " + std::string(OpcodeName(opcode)) +
                                   ": it is not a request");
  }
  return Status::ProtocolError("Unknown opcode " + std::to_string(static_cast<int>(opcode)));
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string_view> StartupRequest::Option(std::string_view key) const {
  // Cassandra upper-cases the keys it receives; match them case-insensitively likewise.
  for (const auto& [k, v] : options) {
    if (EqualsIgnoreCase(k, key)) return std::string_view(v);
  }
  return std::nullopt;
}

bool TracingRequested(const Request& request) {
  if (const auto* query = std::get_if<QueryRequest>(&request)) {
    return query->parameters.options.tracing;
  }
  if (const auto* execute = std::get_if<ExecuteRequest>(&request)) {
    return execute->parameters.options.tracing;
  }
  if (const auto* prepare = std::get_if<PrepareRequest>(&request)) return prepare->tracing;
  if (const auto* batch = std::get_if<BatchRequestMessage>(&request)) return batch->tracing;
  return false;
}

Result<Request> DecodeRequest(const Envelope& envelope) {
  const uint8_t version = envelope.header.version;
  if (version < kMinVersion || version > kMaxVersion) {
    return Status::ProtocolError("Invalid or unsupported protocol version (" +
                                 std::to_string(version) +
                                 "); supported versions are (4/v4, 5/v5)");
  }
  ByteReader in(envelope.body);
  if ((envelope.header.flags & kFlagCustomPayload) != 0) {
    RETURN_IF_ERROR(internal::SkipBytesMap(&in));
  }
  ASSIGN_OR_RETURN(Request request, DecodeRequestBody(envelope.header.opcode, &in, version));
  if (!in.empty()) {
    return Status::ProtocolError(std::string(OpcodeName(envelope.header.opcode)) + " message has " +
                                 std::to_string(in.remaining()) + " unexpected trailing bytes");
  }
  if ((envelope.header.flags & kFlagTracing) != 0) {
    if (auto* query = std::get_if<QueryRequest>(&request)) query->parameters.options.tracing = true;
    if (auto* execute = std::get_if<ExecuteRequest>(&request)) {
      execute->parameters.options.tracing = true;
    }
    if (auto* prepare = std::get_if<PrepareRequest>(&request)) prepare->tracing = true;
    if (auto* batch = std::get_if<BatchRequestMessage>(&request)) batch->tracing = true;
  }
  return request;
}

Opcode RequestOpcode(const Request& request) {
  struct Visitor {
    Opcode operator()(const StartupRequest&) const { return Opcode::kStartup; }
    Opcode operator()(const OptionsRequest&) const { return Opcode::kOptions; }
    Opcode operator()(const QueryRequest&) const { return Opcode::kQuery; }
    Opcode operator()(const PrepareRequest&) const { return Opcode::kPrepare; }
    Opcode operator()(const ExecuteRequest&) const { return Opcode::kExecute; }
    Opcode operator()(const BatchRequestMessage&) const { return Opcode::kBatch; }
    Opcode operator()(const RegisterRequest&) const { return Opcode::kRegister; }
    Opcode operator()(const AuthResponseRequest&) const { return Opcode::kAuthResponse; }
  };
  return std::visit(Visitor{}, request);
}

Bytes EncodeRequestBody(const Request& request, uint8_t version) {
  ByteWriter out;
  struct Visitor {
    uint8_t version;
    ByteWriter* out;
    void operator()(const StartupRequest& startup) const {
      internal::PutStringMap(startup.options, out);
    }
    void operator()(const OptionsRequest&) const {}
    void operator()(const QueryRequest& query) const {
      PutLongString(query.query, out);
      EncodeQueryParameters(query.parameters, version, out);
    }
    void operator()(const PrepareRequest& prepare) const {
      PutLongString(prepare.query, out);
      if (version >= 5) {
        out->PutU32(prepare.keyspace.empty() ? 0 : kPrepareKeyspace);
        if (!prepare.keyspace.empty()) PutString(prepare.keyspace, out);
      }
    }
    void operator()(const ExecuteRequest& execute) const {
      out->PutShortBytes(execute.id);
      if (version >= 5) out->PutShortBytes(execute.result_metadata_id);
      EncodeQueryParameters(execute.parameters, version, out);
    }
    void operator()(const BatchRequestMessage& batch) const { EncodeBatch(batch, version, out); }
    void operator()(const RegisterRequest& register_request) const {
      internal::PutStringList(register_request.event_types, out);
    }
    void operator()(const AuthResponseRequest& auth) const {
      if (auth.token.has_value()) {
        out->PutIntBytes(*auth.token);
      } else {
        out->PutI32(-1);
      }
    }
  };
  std::visit(Visitor{version, &out}, request);
  return out.Release();
}

}  // namespace protocol
