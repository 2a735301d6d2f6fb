#include "protocol/notation.h"

#include <algorithm>
#include <limits>

#include "common/status.h"
#include "cql/types/type_codec.h"

namespace protocol::internal {

using common::ByteReader;
using common::ByteWriter;
using common::Result;
using common::Status;

Result<std::string_view> ReadString(ByteReader* in) { return in->ReadShortBytes(); }

Result<std::string_view> ReadLongString(ByteReader* in) {
  ASSIGN_OR_RETURN(int32_t length, in->ReadI32());
  if (length < 0) return Status::ProtocolError("Invalid negative length for a [long string]");
  return in->ReadRaw(static_cast<size_t>(length));
}

Result<std::vector<std::string>> ReadStringList(ByteReader* in) {
  ASSIGN_OR_RETURN(uint16_t n, in->ReadU16());
  std::vector<std::string> out;
  out.reserve(SafeReserve(n, *in, 2));
  for (uint16_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(std::string_view s, ReadString(in));
    out.emplace_back(s);
  }
  return out;
}

Result<StringMap> ReadStringMap(ByteReader* in) {
  ASSIGN_OR_RETURN(uint16_t n, in->ReadU16());
  StringMap out;
  out.reserve(SafeReserve(n, *in, 4));
  for (uint16_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(std::string_view key, ReadString(in));
    ASSIGN_OR_RETURN(std::string_view value, ReadString(in));
    out.emplace_back(std::string(key), std::string(value));
  }
  return out;
}

Result<StringMultimap> ReadStringMultimap(ByteReader* in) {
  ASSIGN_OR_RETURN(uint16_t n, in->ReadU16());
  StringMultimap out;
  out.reserve(SafeReserve(n, *in, 4));
  for (uint16_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(std::string_view key, ReadString(in));
    ASSIGN_OR_RETURN(std::vector<std::string> values, ReadStringList(in));
    out.emplace_back(std::string(key), std::move(values));
  }
  return out;
}

Status SkipBytesMap(ByteReader* in) {
  ASSIGN_OR_RETURN(uint16_t n, in->ReadU16());
  for (uint16_t i = 0; i < n; ++i) {
    RETURN_IF_ERROR(ReadString(in));
    RETURN_IF_ERROR(ReadNullableBytes(in));
  }
  return Status::Ok();
}

Result<cql::BoundValue> ReadValue(ByteReader* in) {
  ASSIGN_OR_RETURN(ByteReader::IntBytes value, in->ReadIntBytes());
  if (value.is_unset) return cql::BoundValue::Unset();
  if (value.is_null) return cql::BoundValue::Null();
  return cql::BoundValue::Of(std::string(value.bytes));
}

Result<std::optional<std::string_view>> ReadNullableBytes(ByteReader* in) {
  ASSIGN_OR_RETURN(int32_t length, in->ReadI32());
  if (length < 0) return std::optional<std::string_view>();
  ASSIGN_OR_RETURN(std::string_view bytes, in->ReadRaw(static_cast<size_t>(length)));
  return std::optional<std::string_view>(bytes);
}

Result<cql::Consistency> ReadConsistency(ByteReader* in) {
  ASSIGN_OR_RETURN(uint16_t code, in->ReadU16());
  if (code > static_cast<uint16_t>(cql::Consistency::kLocalOne)) {
    return Status::ProtocolError("Unknown code " + std::to_string(code) +
                                 " for a consistency level");
  }
  return static_cast<cql::Consistency>(code);
}

void PutString(std::string_view s, ByteWriter* out) {
  out->PutShortBytes(s.substr(0, std::numeric_limits<uint16_t>::max()));
}

void PutLongString(std::string_view s, ByteWriter* out) { out->PutIntBytes(s); }

void PutStringList(const std::vector<std::string>& list, ByteWriter* out) {
  size_t n = std::min<size_t>(list.size(), std::numeric_limits<uint16_t>::max());
  out->PutU16(static_cast<uint16_t>(n));
  for (size_t i = 0; i < n; ++i) PutString(list[i], out);
}

void PutStringMap(const StringMap& map, ByteWriter* out) {
  size_t n = std::min<size_t>(map.size(), std::numeric_limits<uint16_t>::max());
  out->PutU16(static_cast<uint16_t>(n));
  for (size_t i = 0; i < n; ++i) {
    PutString(map[i].first, out);
    PutString(map[i].second, out);
  }
}

void PutStringMultimap(const StringMultimap& map, ByteWriter* out) {
  size_t n = std::min<size_t>(map.size(), std::numeric_limits<uint16_t>::max());
  out->PutU16(static_cast<uint16_t>(n));
  for (size_t i = 0; i < n; ++i) {
    PutString(map[i].first, out);
    PutStringList(map[i].second, out);
  }
}

void PutValue(const cql::BoundValue& value, ByteWriter* out) {
  switch (value.kind) {
    case cql::BoundValue::Kind::kValue:
      out->PutIntBytes(value.bytes);
      return;
    case cql::BoundValue::Kind::kNull:
      out->PutI32(-1);
      return;
    case cql::BoundValue::Kind::kUnset:
      out->PutI32(-2);
      return;
  }
}

void PutConsistency(cql::Consistency consistency, ByteWriter* out) {
  out->PutU16(static_cast<uint16_t>(consistency));
}

bool AllInOneTable(const std::vector<cql::ColumnSpec>& columns) {
  if (columns.empty()) return false;
  for (const cql::ColumnSpec& column : columns) {
    if (column.keyspace != columns[0].keyspace || column.table != columns[0].table) return false;
  }
  return true;
}

void PutColumnSpecs(const std::vector<cql::ColumnSpec>& columns, bool global, ByteWriter* out) {
  if (global) {
    PutString(columns[0].keyspace, out);
    PutString(columns[0].table, out);
  }
  for (const cql::ColumnSpec& column : columns) {
    if (!global) {
      PutString(column.keyspace, out);
      PutString(column.table, out);
    }
    PutString(column.name, out);
    cql::EncodeTypeOption(column.type, out);
  }
}

Result<std::vector<cql::ColumnSpec>> ReadColumnSpecs(ByteReader* in, uint64_t count, bool global) {
  std::string_view keyspace;
  std::string_view table;
  if (global) {
    ASSIGN_OR_RETURN(keyspace, ReadString(in));
    ASSIGN_OR_RETURN(table, ReadString(in));
  }
  std::vector<cql::ColumnSpec> columns;
  columns.reserve(SafeReserve(count, *in, 4));
  for (uint64_t i = 0; i < count; ++i) {
    cql::ColumnSpec column;
    if (global) {
      column.keyspace = keyspace;
      column.table = table;
    } else {
      ASSIGN_OR_RETURN(std::string_view ks, ReadString(in));
      ASSIGN_OR_RETURN(std::string_view t, ReadString(in));
      column.keyspace = ks;
      column.table = t;
    }
    ASSIGN_OR_RETURN(std::string_view name, ReadString(in));
    column.name = name;
    Result<cql::CqlType> type = cql::DecodeTypeOption(in);
    if (!type.ok()) return Status::ProtocolError(type.status().message());
    column.type = std::move(type).value();
    columns.push_back(std::move(column));
  }
  return columns;
}

void PutSchemaChange(const cql::SchemaChangeEvent& event, ByteWriter* out) {
  PutString(event.change_type, out);
  PutString(event.target, out);
  PutString(event.keyspace, out);
  if (event.target == "KEYSPACE") return;
  PutString(event.name, out);
  if (event.target == "FUNCTION" || event.target == "AGGREGATE") {
    PutStringList(event.arg_types, out);
  }
}

Status ReadSchemaChange(ByteReader* in, cql::SchemaChangeEvent* event) {
  ASSIGN_OR_RETURN(std::string_view change, ReadString(in));
  ASSIGN_OR_RETURN(std::string_view target, ReadString(in));
  event->change_type = change;
  event->target = target;
  ASSIGN_OR_RETURN(std::string_view keyspace, ReadString(in));
  event->keyspace = keyspace;
  if (target == "KEYSPACE") return Status::Ok();
  ASSIGN_OR_RETURN(std::string_view name, ReadString(in));
  event->name = name;
  if (target == "TABLE" || target == "TYPE") return Status::Ok();
  if (target == "FUNCTION" || target == "AGGREGATE") {
    ASSIGN_OR_RETURN(event->arg_types, ReadStringList(in));
    return Status::Ok();
  }
  return Status::ProtocolError("Unknown schema change target " + std::string(target));
}

}  // namespace protocol::internal
