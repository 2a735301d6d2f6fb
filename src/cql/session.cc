#include "cql/session.h"

#include <utility>

#include <fmt/format.h>

#include "cql/types/value_codec.h"

namespace cql {

using common::Result;
using common::Status;

std::string_view ConsistencyName(Consistency consistency) {
  switch (consistency) {
    case Consistency::kAny:
      return "ANY";
    case Consistency::kOne:
      return "ONE";
    case Consistency::kTwo:
      return "TWO";
    case Consistency::kThree:
      return "THREE";
    case Consistency::kQuorum:
      return "QUORUM";
    case Consistency::kAll:
      return "ALL";
    case Consistency::kLocalQuorum:
      return "LOCAL_QUORUM";
    case Consistency::kEachQuorum:
      return "EACH_QUORUM";
    case Consistency::kSerial:
      return "SERIAL";
    case Consistency::kLocalSerial:
      return "LOCAL_SERIAL";
    case Consistency::kLocalOne:
      return "LOCAL_ONE";
  }
  return "UNKNOWN";
}

ResultSet ResultSet::Rows(std::vector<ColumnSpec> columns) {
  return Rows(std::make_shared<const std::vector<ColumnSpec>>(std::move(columns)));
}

ResultSet ResultSet::Rows(std::shared_ptr<const std::vector<ColumnSpec>> columns) {
  ResultSet result;
  result.kind_ = Kind::kRows;
  result.columns_ = std::move(columns);
  return result;
}

const std::vector<ColumnSpec>& ResultSet::NoColumns() {
  static const std::vector<ColumnSpec> kNone;
  return kNone;
}

ResultSet ResultSet::SetKeyspace(std::string keyspace) {
  ResultSet result;
  result.kind_ = Kind::kSetKeyspace;
  result.keyspace_ = std::move(keyspace);
  return result;
}

ResultSet ResultSet::SchemaChange(SchemaChangeEvent event) {
  ResultSet result;
  result.kind_ = Kind::kSchemaChange;
  result.schema_change_ = std::move(event);
  return result;
}

int ResultSet::ColumnIndex(std::string_view name) const {
  for (size_t i = 0; i < column_count(); ++i) {
    if (columns()[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

void ResultSet::AddRow(std::vector<std::optional<common::Bytes>> row) {
  for (const auto& cell : row) AddCell(cell);
}

void ResultSet::AddCell(std::string_view value) {
  cell_offsets_.push_back(cell_bytes_.size());
  const auto size = static_cast<uint32_t>(value.size());
  const char length[4] = {static_cast<char>(size >> 24), static_cast<char>(size >> 16),
                          static_cast<char>(size >> 8), static_cast<char>(size)};
  cell_bytes_.append(length, 4);
  cell_bytes_.append(value);
}

void ResultSet::AddNullCell() {
  cell_offsets_.push_back(cell_bytes_.size());
  cell_bytes_.append(4, '\xff');  // -1
}

std::optional<std::string_view> ResultSet::CellAt(size_t offset) const {
  const auto* length = reinterpret_cast<const unsigned char*>(cell_bytes_.data() + offset);
  const auto size = static_cast<int32_t>((uint32_t{length[0]} << 24) | (uint32_t{length[1]} << 16) |
                                         (uint32_t{length[2]} << 8) | uint32_t{length[3]});
  if (size < 0) return std::nullopt;
  return std::string_view(cell_bytes_.data() + offset + 4, static_cast<size_t>(size));
}

namespace {

Result<std::string_view> NonNull(const ResultSet& result, size_t row, size_t column) {
  std::optional<std::string_view> value = result.Value(row, column);
  if (!value) {
    return Status::Invalid(fmt::format("Column {} is null", result.columns()[column].name));
  }
  return *value;
}

Status WrongType(const ColumnSpec& spec, std::string_view wanted) {
  return Status::Invalid(
      fmt::format("Column {} is of type {}, not {}", spec.name, spec.type.ToCql(), wanted));
}

}  // namespace

Result<std::string> ResultSet::GetText(size_t row, size_t column) const {
  const ColumnSpec& spec = columns()[column];
  TypeKind kind = spec.type.kind();
  if (kind != TypeKind::kText && kind != TypeKind::kAscii) return WrongType(spec, "text");
  ASSIGN_OR_RETURN(std::string_view value, NonNull(*this, row, column));
  return std::string(value);
}

Result<int64_t> ResultSet::GetInteger(size_t row, size_t column) const {
  const ColumnSpec& spec = columns()[column];
  ASSIGN_OR_RETURN(std::string_view value, NonNull(*this, row, column));
  switch (spec.type.kind()) {
    case TypeKind::kTinyint: {
      ASSIGN_OR_RETURN(int8_t v, DeserializeTinyint(value));
      return v;
    }
    case TypeKind::kSmallint: {
      ASSIGN_OR_RETURN(int16_t v, DeserializeSmallint(value));
      return v;
    }
    case TypeKind::kInt: {
      ASSIGN_OR_RETURN(int32_t v, DeserializeInt(value));
      return v;
    }
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kTimestamp:
      return DeserializeBigint(value);
    default:
      return WrongType(spec, "an integer");
  }
}

Result<bool> ResultSet::GetBoolean(size_t row, size_t column) const {
  const ColumnSpec& spec = columns()[column];
  if (spec.type.kind() != TypeKind::kBoolean) return WrongType(spec, "boolean");
  ASSIGN_OR_RETURN(std::string_view value, NonNull(*this, row, column));
  return DeserializeBoolean(value);
}

Result<double> ResultSet::GetDouble(size_t row, size_t column) const {
  const ColumnSpec& spec = columns()[column];
  ASSIGN_OR_RETURN(std::string_view value, NonNull(*this, row, column));
  if (spec.type.kind() == TypeKind::kDouble) return DeserializeDouble(value);
  if (spec.type.kind() == TypeKind::kFloat) {
    ASSIGN_OR_RETURN(float v, DeserializeFloat(value));
    return static_cast<double>(v);
  }
  return WrongType(spec, "a floating-point type");
}

}  // namespace cql
