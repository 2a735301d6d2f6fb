// Messages: the bodies of the native protocol's requests and responses (native_protocol_v4.spec
// §4, native_protocol_v5.spec §4), decoded and encoded for one protocol version.
//
// Both directions are here so the server (decode requests, encode responses), the C++ driver
// (encode requests, decode responses), the tests (round trips) and the fuzzers share one codec.
// Values stay in their native-protocol serialization throughout: a RESULT's rows are written
// straight from a cql::ResultSet's cells and read back into one without re-encoding.
//
// Body prefixes: a request flagged kFlagCustomPayload starts with a [bytes map] that
// DecodeRequest skips (custom payloads are ignored); a response flagged kFlagTracing starts with
// a tracing [uuid] and one flagged kFlagWarning with a [string list] of warnings, which
// EncodeResponsePrefix writes and DecodeResponsePrefix reads.
//
// Every decoder is bounds-checked and returns ProtocolError for malformed bodies (truncated,
// trailing bytes where the spec forbids them, bad enum values, negative counts); nothing a peer
// sends can crash it.
//
// Thread-safety: free functions and plain structs.

#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "common/status.h"
#include "cql/session.h"
#include "protocol/frame.h"

namespace protocol {

// ---------------------------------------------------------------------------------------------
// Requests (client → server)

struct StartupRequest {
  std::vector<std::pair<std::string, std::string>> options;  // [string map], in wire order
  // The value of `key`, or nullopt.
  std::optional<std::string_view> Option(std::string_view key) const;
};

struct OptionsRequest {};

// The <query_parameters> of QUERY and EXECUTE (§4.1.4).
struct QueryParameters {
  // consistency, values / value_names (flag 0x40), page_size (0x04), paging_state (0x08),
  // serial_consistency (0x10), timestamp (0x20), keyspace (v5 0x80). Unset values (v4+: length
  // -2) become BoundValue::Unset().
  cql::QueryOptions options;
  bool skip_metadata = false;             // 0x02
  std::optional<int32_t> now_in_seconds;  // v5 0x100: accepted, ignored by the engine
};

struct QueryRequest {
  std::string query;  // [long string]
  QueryParameters parameters;
};

struct PrepareRequest {
  std::string query;     // [long string]
  std::string keyspace;  // v5 flags 0x01; empty when absent
  bool tracing = false;  // the envelope's tracing flag (not part of the body)
};

struct ExecuteRequest {
  common::Bytes id;                  // [short bytes]
  common::Bytes result_metadata_id;  // v5 only: [short bytes]
  QueryParameters parameters;
};

struct BatchRequestMessage {
  struct Statement {
    bool prepared = false;
    std::string query;  // when !prepared: [long string]
    common::Bytes id;   // when prepared: [short bytes]
    std::vector<cql::BoundValue> values;
    std::vector<std::string> value_names;  // batch flag 0x40 (parsed, as the spec defines it)
  };
  cql::BatchType type = cql::BatchType::kLogged;
  std::vector<Statement> statements;
  cql::Consistency consistency = cql::Consistency::kOne;
  std::optional<cql::Consistency> serial_consistency;
  std::optional<int64_t> timestamp;
  std::string keyspace;  // v5 0x80
  std::optional<int32_t> now_in_seconds;
  bool tracing = false;  // the envelope's tracing flag (not part of the body)
};

struct RegisterRequest {
  std::vector<std::string> event_types;  // TOPOLOGY_CHANGE, STATUS_CHANGE, SCHEMA_CHANGE
};

struct AuthResponseRequest {
  std::optional<common::Bytes> token;  // [bytes]
};

using Request =
    std::variant<StartupRequest, OptionsRequest, QueryRequest, PrepareRequest, ExecuteRequest,
                 BatchRequestMessage, RegisterRequest, AuthResponseRequest>;

// Decodes a request envelope (any version in [kMinVersion, kMaxVersion]; the version decides the
// width of query flags and the v5 fields). The envelope's tracing flag becomes the request's
// `tracing` (QueryOptions::tracing for QUERY and EXECUTE). Errors: ProtocolError for an opcode that
// is not a request, for a body that is malformed or has trailing bytes, for an invalid consistency
// or batch type; the messages follow Cassandra's where it has one.
common::Result<Request> DecodeRequest(const Envelope& envelope);

// The opcode a request is sent with.
Opcode RequestOpcode(const Request& request);
// Whether the request asks to be traced: the envelope flag kFlagTracing to send it with.
bool TracingRequested(const Request& request);
// Encodes a request body for `version` (the client side).
common::Bytes EncodeRequestBody(const Request& request, uint8_t version);

// ---------------------------------------------------------------------------------------------
// Responses (server → client)

// ERROR (§9). `code` is the protocol code (common::ProtocolErrorCode of a Status).
struct ErrorResponse {
  uint32_t code = 0;
  std::string message;
  // Extra fields for the codes that have them; the others are encoded with zero/empty values
  // a single node can honestly give (e.g. Unavailable: the consistency of the request, 1
  // required, 0 alive).
  common::Bytes unprepared_id;  // Unprepared 0x2500
  std::string keyspace;         // AlreadyExists 0x2400 ("" for neither); FunctionFailure 0x1400
  std::string table;            // AlreadyExists ("" for a keyspace); FunctionFailure: the function
  std::vector<std::string> arg_types;  // FunctionFailure: the function's argument types (CQL)
  cql::Consistency consistency = cql::Consistency::kOne;  // timeouts, Unavailable, failures
  // ReadFailure: the replicas that failed and why (v5 <reasonmap>; v4 sends their count).
  struct Failure {
    common::Bytes address;  // 4 or 16 bytes
    uint16_t reason = 0;    // RequestFailureReason: 1 READ_TOO_MANY_TOMBSTONES
  };
  std::vector<Failure> failures;
  // The error of a Status: code and message, plus the extras parsed from what the engine says
  // (the prepared id of an Unprepared status, the keyspace and table of AlreadyExists, the
  // function of a FunctionFailure, the "READ_TOO_MANY_TOMBSTONES from /address:port" failure
  // of a ReadFailure).
  static ErrorResponse FromStatus(const common::Status& status);
  common::Status ToStatus() const;
};

struct SupportedResponse {
  std::vector<std::pair<std::string, std::vector<std::string>>> options;  // [string multimap]
};

struct AuthenticateResponse {
  std::string authenticator;
};

// RESULT, decoded (client side).
struct ResultResponse {
  enum class Kind : int32_t {
    kVoid = 1,
    kRows = 2,
    kSetKeyspace = 3,
    kPrepared = 4,
    kSchemaChange = 5
  };
  Kind kind = Kind::kVoid;
  // kRows: columns (from the metadata, or from `known_columns` of DecodeResult when the result
  // says no_metadata), cells and paging state. kSetKeyspace / kSchemaChange: the keyspace or the
  // event. Warnings are not here (see DecodeResponsePrefix).
  cql::ResultSet result;
  // kRows, v5: the new result metadata id when the server flagged Metadata_changed.
  std::optional<common::Bytes> new_metadata_id;
  // kPrepared.
  cql::PreparedMetadata prepared;
};

// How the rows of a RESULT are described.
struct RowsEncoding {
  bool skip_metadata = false;  // the request asked for no metadata: flag No_metadata
  // v5: set when the client's result_metadata_id differs from the statement's current one:
  // flag Metadata_changed with this new id (and the metadata is sent even if skip_metadata).
  std::optional<common::Bytes> new_metadata_id;
};

// Server-side encoders: each appends one response body (without the prefix) to `out`.
// `version` decides the failure fields of ReadFailure (v4 a count, v5 a reason map).
void EncodeError(const ErrorResponse& error, common::ByteWriter* out,
                 uint8_t version = kMaxVersion);
void EncodeReady(common::ByteWriter* out);
void EncodeAuthenticate(const AuthenticateResponse& authenticate, common::ByteWriter* out);
void EncodeSupported(const SupportedResponse& supported, common::ByteWriter* out);
// RESULT of a statement: Void, Rows (per `encoding`; global table spec when every column has the
// same keyspace and table; Has_more_pages with the paging state), Set_keyspace or Schema_change,
// following `result.kind()`.
void EncodeResult(const cql::ResultSet& result, uint8_t version, const RowsEncoding& encoding,
                  common::ByteWriter* out);
// RESULT Prepared: id, (v5) result metadata id, bind metadata with partition key indexes, and the
// result metadata (No_metadata for statements that return no rows).
void EncodePreparedResult(const cql::PreparedMetadata& prepared, uint8_t version,
                          common::ByteWriter* out);
// EVENT SCHEMA_CHANGE.
void EncodeSchemaChangeEvent(const cql::SchemaChangeEvent& event, common::ByteWriter* out);

// Writes the body prefix of a response: the tracing id when `tracing_id` is set (flag
// kFlagTracing), then the warnings when there are any (kFlagWarning). Returns the flags to set.
uint8_t EncodeResponsePrefix(const std::optional<common::Bytes>& tracing_id,
                             const std::vector<std::string>& warnings, common::ByteWriter* out);

// Client-side decoders.
struct ResponsePrefix {
  std::optional<common::Bytes> tracing_id;
  std::vector<std::string> warnings;
  std::string_view rest;  // the message body proper (a view into the decoded envelope's body)
};
common::Result<ResponsePrefix> DecodeResponsePrefix(const Envelope& envelope);
common::Result<ErrorResponse> DecodeError(std::string_view body);
common::Result<SupportedResponse> DecodeSupported(std::string_view body);
common::Result<AuthenticateResponse> DecodeAuthenticate(std::string_view body);
// `known_columns`: the columns to use when the rows come with No_metadata (the prepared
// statement's result columns); may be null otherwise.
common::Result<ResultResponse> DecodeResult(std::string_view body, uint8_t version,
                                            const std::vector<cql::ColumnSpec>* known_columns);
// The same with the known columns shared: a result without metadata refers to them instead of
// copying every column's names and type (a driver's prepared statement, executed many times).
common::Result<ResultResponse> DecodeResult(
    std::string_view body, uint8_t version,
    std::shared_ptr<const std::vector<cql::ColumnSpec>> known_columns);
// EVENT: SCHEMA_CHANGE gives its event; TOPOLOGY_CHANGE and STATUS_CHANGE give nullopt.
common::Result<std::optional<cql::SchemaChangeEvent>> DecodeEvent(std::string_view body);

}  // namespace protocol
