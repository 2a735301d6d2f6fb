// RESULT messages of messages.h (§4.2.5): Void, Rows, Set_keyspace, Prepared, Schema_change,
// encoded from a cql::ResultSet / cql::PreparedMetadata and decoded back into them.
//
// Rows are written straight from the result's cells into the output (one reservation, no
// per-cell allocation), since this is the hot path of every SELECT.

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

using internal::PutString;
using internal::ReadString;

// RESULT kinds.
constexpr int32_t kVoid = 1;
constexpr int32_t kRows = 2;
constexpr int32_t kSetKeyspace = 3;
constexpr int32_t kPrepared = 4;
constexpr int32_t kSchemaChange = 5;

// Rows metadata flags.
constexpr uint32_t kGlobalTablesSpec = 0x0001;
constexpr uint32_t kHasMorePages = 0x0002;
constexpr uint32_t kNoMetadata = 0x0004;
constexpr uint32_t kMetadataChanged = 0x0008;

// Columns of a result set without metadata, when the caller knows none: up to this many
// placeholder columns are made; more is taken as a malformed body.
constexpr uint64_t kMaxPlaceholderColumns = 1 << 16;

// <metadata> of Rows (and <result_metadata> of Prepared).
void PutRowsMetadata(const std::vector<cql::ColumnSpec>& columns,
                     const std::optional<Bytes>& paging_state, bool no_metadata,
                     const std::optional<Bytes>& new_metadata_id, ByteWriter* out) {
  bool global = !no_metadata && internal::AllInOneTable(columns);
  uint32_t flags = 0;
  if (global) flags |= kGlobalTablesSpec;
  if (paging_state.has_value()) flags |= kHasMorePages;
  if (no_metadata) flags |= kNoMetadata;
  if (new_metadata_id.has_value()) flags |= kMetadataChanged;
  out->PutU32(flags);
  out->PutI32(static_cast<int32_t>(columns.size()));
  if (paging_state.has_value()) out->PutIntBytes(*paging_state);
  if (new_metadata_id.has_value()) out->PutShortBytes(*new_metadata_id);
  if (!no_metadata) internal::PutColumnSpecs(columns, global, out);
}

struct RowsMetadata {
  std::vector<cql::ColumnSpec> columns;
  uint64_t column_count = 0;
  bool no_metadata = false;
  std::optional<Bytes> paging_state;
  std::optional<Bytes> new_metadata_id;
};

Result<RowsMetadata> ReadRowsMetadata(ByteReader* in) {
  RowsMetadata metadata;
  ASSIGN_OR_RETURN(uint32_t flags, in->ReadU32());
  ASSIGN_OR_RETURN(int32_t count, in->ReadI32());
  if (count < 0) return Status::ProtocolError("Negative column count " + std::to_string(count));
  metadata.column_count = static_cast<uint64_t>(count);
  if ((flags & kHasMorePages) != 0) {
    ASSIGN_OR_RETURN(std::optional<std::string_view> state, internal::ReadNullableBytes(in));
    if (state.has_value()) metadata.paging_state = Bytes(*state);
  }
  if ((flags & kMetadataChanged) != 0) {
    ASSIGN_OR_RETURN(std::string_view id, in->ReadShortBytes());
    metadata.new_metadata_id = Bytes(id);
  }
  metadata.no_metadata = (flags & kNoMetadata) != 0;
  if (!metadata.no_metadata) {
    ASSIGN_OR_RETURN(metadata.columns, internal::ReadColumnSpecs(in, metadata.column_count,
                                                                 (flags & kGlobalTablesSpec) != 0));
  }
  return metadata;
}

void EncodeRows(const cql::ResultSet& result, uint8_t version, const RowsEncoding& encoding,
                ByteWriter* out) {
  const size_t columns = result.column_count();
  const size_t rows = result.row_count();
  // One reservation for the whole body; the cells are already in the protocol's form.
  const std::string_view cells = result.encoded_cells();
  const bool changed = version >= 5 && encoding.new_metadata_id.has_value();
  const bool no_metadata = encoding.skip_metadata && !changed;
  size_t metadata_bytes = 16 + (result.paging_state() ? result.paging_state()->size() : 0);
  if (!no_metadata) metadata_bytes += columns * 32;
  out->mutable_data().reserve(out->size() + 8 + metadata_bytes + cells.size());

  out->PutI32(kRows);
  PutRowsMetadata(result.columns(), result.paging_state(), no_metadata,
                  changed ? encoding.new_metadata_id : std::nullopt, out);
  out->PutI32(static_cast<int32_t>(rows));
  out->PutRaw(cells);
}

// `shared_columns`, when set, is `known_columns` shared: a result without metadata then refers
// to it instead of copying every column's names and type.
Result<cql::ResultSet> DecodeRows(
    ByteReader* in, const std::vector<cql::ColumnSpec>* known_columns,
    const std::shared_ptr<const std::vector<cql::ColumnSpec>>& shared_columns,
    std::optional<Bytes>* new_metadata_id) {
  ASSIGN_OR_RETURN(RowsMetadata metadata, ReadRowsMetadata(in));
  std::vector<cql::ColumnSpec> columns;
  if (!metadata.no_metadata) {
    columns = std::move(metadata.columns);
  } else if (known_columns != nullptr) {
    if (known_columns->size() != metadata.column_count) {
      return Status::ProtocolError("Result has " + std::to_string(metadata.column_count) +
                                   " columns but the known metadata has " +
                                   std::to_string(known_columns->size()));
    }
    if (shared_columns == nullptr) columns = *known_columns;
  } else {
    // No names or types are known: blob columns without names keep the cells readable.
    if (metadata.column_count > kMaxPlaceholderColumns) {
      return Status::ProtocolError("Too many columns in a result without metadata: " +
                                   std::to_string(metadata.column_count));
    }
    columns.resize(metadata.column_count);
  }
  *new_metadata_id = std::move(metadata.new_metadata_id);
  ASSIGN_OR_RETURN(int32_t rows, in->ReadI32());
  if (rows < 0) return Status::ProtocolError("Negative row count " + std::to_string(rows));
  cql::ResultSet result = metadata.no_metadata && shared_columns != nullptr
                              ? cql::ResultSet::Rows(shared_columns)
                              : cql::ResultSet::Rows(std::move(columns));
  const uint64_t cells = static_cast<uint64_t>(rows) * result.column_count();
  result.set_paging_state(std::move(metadata.paging_state));
  if (cells > in->remaining() / 4) {
    return Status::ProtocolError("Not enough bytes for " + std::to_string(rows) + " rows");
  }
  for (uint64_t i = 0; i < cells; ++i) {
    ASSIGN_OR_RETURN(std::optional<std::string_view> cell, internal::ReadNullableBytes(in));
    if (cell.has_value()) {
      result.AddCell(*cell);
    } else {
      result.AddNullCell();
    }
  }
  return result;
}

Result<cql::PreparedMetadata> DecodePrepared(ByteReader* in, uint8_t version) {
  cql::PreparedMetadata prepared;
  ASSIGN_OR_RETURN(std::string_view id, in->ReadShortBytes());
  prepared.id = id;
  if (version >= 5) {
    ASSIGN_OR_RETURN(std::string_view metadata_id, in->ReadShortBytes());
    prepared.result_metadata_id = metadata_id;
  }
  ASSIGN_OR_RETURN(uint32_t flags, in->ReadU32());
  ASSIGN_OR_RETURN(int32_t count, in->ReadI32());
  if (count < 0) return Status::ProtocolError("Negative column count " + std::to_string(count));
  ASSIGN_OR_RETURN(int32_t pk_count, in->ReadI32());
  if (pk_count < 0) {
    return Status::ProtocolError("Negative partition key count " + std::to_string(pk_count));
  }
  prepared.partition_key_indexes.reserve(internal::SafeReserve(pk_count, *in, 2));
  for (int32_t i = 0; i < pk_count; ++i) {
    ASSIGN_OR_RETURN(uint16_t index, in->ReadU16());
    prepared.partition_key_indexes.push_back(index);
  }
  ASSIGN_OR_RETURN(prepared.bind_variables,
                   internal::ReadColumnSpecs(in, static_cast<uint64_t>(count),
                                             (flags & kGlobalTablesSpec) != 0));
  if (!prepared.bind_variables.empty()) prepared.keyspace = prepared.bind_variables[0].keyspace;
  ASSIGN_OR_RETURN(RowsMetadata result_metadata, ReadRowsMetadata(in));
  prepared.result_columns = std::move(result_metadata.columns);
  return prepared;
}

}  // namespace

void EncodeResult(const cql::ResultSet& result, uint8_t version, const RowsEncoding& encoding,
                  ByteWriter* out) {
  switch (result.kind()) {
    case cql::ResultSet::Kind::kVoid:
      out->PutI32(kVoid);
      return;
    case cql::ResultSet::Kind::kRows:
      EncodeRows(result, version, encoding, out);
      return;
    case cql::ResultSet::Kind::kSetKeyspace:
      out->PutI32(kSetKeyspace);
      PutString(result.keyspace(), out);
      return;
    case cql::ResultSet::Kind::kSchemaChange:
      out->PutI32(kSchemaChange);
      internal::PutSchemaChange(result.schema_change(), out);
      return;
  }
}

void EncodePreparedResult(const cql::PreparedMetadata& prepared, uint8_t version, ByteWriter* out) {
  out->PutI32(kPrepared);
  out->PutShortBytes(prepared.id.substr(0, 65535));
  if (version >= 5) out->PutShortBytes(prepared.result_metadata_id.substr(0, 65535));
  // <metadata>: the bind variables with the partition key indexes.
  const std::vector<cql::ColumnSpec>& binds = prepared.bind_variables;
  bool global = internal::AllInOneTable(binds);
  out->PutU32(global ? kGlobalTablesSpec : 0);
  out->PutI32(static_cast<int32_t>(binds.size()));
  out->PutI32(static_cast<int32_t>(prepared.partition_key_indexes.size()));
  for (uint16_t index : prepared.partition_key_indexes) out->PutU16(index);
  internal::PutColumnSpecs(binds, global, out);
  // <result_metadata>: No_metadata and no columns for statements without rows.
  PutRowsMetadata(prepared.result_columns, std::nullopt, prepared.result_columns.empty(),
                  std::nullopt, out);
}

namespace {

Result<ResultResponse> DecodeResultWith(
    std::string_view body, uint8_t version, const std::vector<cql::ColumnSpec>* known_columns,
    const std::shared_ptr<const std::vector<cql::ColumnSpec>>& shared_columns) {
  ByteReader in(body);
  ResultResponse response;
  ASSIGN_OR_RETURN(int32_t kind, in.ReadI32());
  switch (kind) {
    case kVoid:
      response.kind = ResultResponse::Kind::kVoid;
      response.result = cql::ResultSet::Void();
      break;
    case kRows: {
      response.kind = ResultResponse::Kind::kRows;
      ASSIGN_OR_RETURN(response.result,
                       DecodeRows(&in, known_columns, shared_columns, &response.new_metadata_id));
      break;
    }
    case kSetKeyspace: {
      response.kind = ResultResponse::Kind::kSetKeyspace;
      ASSIGN_OR_RETURN(std::string_view keyspace, ReadString(&in));
      response.result = cql::ResultSet::SetKeyspace(std::string(keyspace));
      break;
    }
    case kPrepared: {
      response.kind = ResultResponse::Kind::kPrepared;
      ASSIGN_OR_RETURN(response.prepared, DecodePrepared(&in, version));
      break;
    }
    case kSchemaChange: {
      response.kind = ResultResponse::Kind::kSchemaChange;
      cql::SchemaChangeEvent event;
      RETURN_IF_ERROR(internal::ReadSchemaChange(&in, &event));
      response.result = cql::ResultSet::SchemaChange(std::move(event));
      break;
    }
    default:
      return Status::ProtocolError("Unknown RESULT kind " + std::to_string(kind));
  }
  return response;
}

}  // namespace

Result<ResultResponse> DecodeResult(std::string_view body, uint8_t version,
                                    const std::vector<cql::ColumnSpec>* known_columns) {
  return DecodeResultWith(body, version, known_columns, nullptr);
}

Result<ResultResponse> DecodeResult(
    std::string_view body, uint8_t version,
    std::shared_ptr<const std::vector<cql::ColumnSpec>> known_columns) {
  const std::vector<cql::ColumnSpec>* columns = known_columns.get();
  return DecodeResultWith(body, version, columns, known_columns);
}

}  // namespace protocol
