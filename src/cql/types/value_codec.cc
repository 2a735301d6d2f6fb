#include "cql/types/value_codec.h"

#include <algorithm>
#include <bit>
#include <string>

#include "cql/types/big_number.h"
#include "cql/types/type_depth.h"
#include "cql/types/value_compare.h"

namespace cql {

// Values nest no deeper than their types, so every value of a type the schema accepts validates,
// formats and converts (value_format.cc, cql/functions/json.cc and cql/parser/literal.cc share this
// bound).
static_assert(kMaxValueNestingDepth >= kMaxDecodedTypeDepth);

namespace {

using common::ByteReader;
using common::Bytes;
using common::ByteWriter;
using common::Result;
using common::Status;

// The " (n)" size suffix of Cassandra's length messages.
std::string SizeSuffix(size_t n) { return "(" + std::to_string(n) + ")"; }

Status ExpectSize(std::string_view bytes, size_t size) {
  if (bytes.size() == size) return Status::Ok();
  return Status::Invalid("Expected " + std::to_string(size) + " bytes, got " +
                         std::to_string(bytes.size()));
}

// Reads an int32 [bytes] length inside a collection; -1 (null) is refused.
Result<std::string_view> ReadCollectionElement(ByteReader* reader, std::string_view kind) {
  Result<ByteReader::IntBytes> element = reader->ReadIntBytes();
  if (!element.ok()) return Status::Invalid("Not enough bytes to read a " + std::string(kind));
  if (element->is_null || element->is_unset) {
    return Status::Invalid("null is not supported inside collections");
  }
  return element->bytes;
}

// Splits a list or set (`kind` names it in messages).
Result<std::vector<std::string_view>> SplitElements(std::string_view bytes, std::string_view kind) {
  std::vector<std::string_view> out;
  if (bytes.empty()) return out;
  ByteReader reader(bytes);
  Result<int32_t> count = reader.ReadI32();
  if (!count.ok()) return Status::Invalid("Not enough bytes to read a " + std::string(kind));
  if (*count < 0) {
    return Status::Invalid("The data cannot be deserialized as a " + std::string(kind));
  }
  // Each element takes at least 4 bytes, so a lying count fails below without a big reserve.
  out.reserve(std::min<size_t>(static_cast<size_t>(*count), reader.remaining() / 4));
  for (int32_t i = 0; i < *count; ++i) {
    ASSIGN_OR_RETURN(std::string_view element, ReadCollectionElement(&reader, kind));
    out.push_back(element);
  }
  if (!reader.empty()) {
    return Status::Invalid("Unexpected extraneous bytes after " + std::string(kind) + " value");
  }
  return out;
}

void PutElement(ByteWriter* writer, std::string_view element) { writer->PutIntBytes(element); }

// --- Validation ----------------------------------------------------------------------------

// Cassandra's UTF8Serializer rules: well-formed UTF-8 sequences, plus the modified-UTF-8 NUL
// (C0 80); like Cassandra it does not reject encoded surrogates or 4-byte lead bytes F5..F7.
bool IsValidCassandraUtf8(std::string_view s) {
  auto byte_at = [&](size_t i) { return i < s.size() ? static_cast<uint8_t>(s[i]) : 0; };
  auto continuation = [&](size_t i) { return i < s.size() && (byte_at(i) & 0xC0) == 0x80; };
  size_t i = 0;
  while (i < s.size()) {
    uint8_t b = byte_at(i);
    if (b < 0x80) {
      i += 1;
    } else if (b == 0xC0) {
      if (i + 1 >= s.size() || byte_at(i + 1) != 0x80) return false;
      i += 2;
    } else if (b >= 0xC2 && b <= 0xDF) {
      if (!continuation(i + 1)) return false;
      i += 2;
    } else if (b == 0xE0) {
      if (i + 1 >= s.size() || byte_at(i + 1) < 0xA0 || byte_at(i + 1) > 0xBF ||
          !continuation(i + 2)) {
        return false;
      }
      i += 3;
    } else if (b >= 0xE1 && b <= 0xEF) {
      if (!continuation(i + 1) || !continuation(i + 2)) return false;
      i += 3;
    } else if (b == 0xF0) {
      if (i + 1 >= s.size() || byte_at(i + 1) < 0x90 || byte_at(i + 1) > 0xBF ||
          !continuation(i + 2) || !continuation(i + 3)) {
        return false;
      }
      i += 4;
    } else if (b >= 0xF1 && b <= 0xF7) {
      if (!continuation(i + 1) || !continuation(i + 2) || !continuation(i + 3)) return false;
      i += 4;
    } else {
      return false;
    }
  }
  return true;
}

Status ValidateNative(const CqlType& type, std::string_view bytes) {
  size_t n = bytes.size();
  switch (type.kind()) {
    case TypeKind::kAscii:
      for (char c : bytes) {
        if (static_cast<unsigned char>(c) >= 0x80) {
          return Status::Invalid("Invalid byte for ascii: " +
                                 std::to_string(static_cast<int>(static_cast<int8_t>(c))));
        }
      }
      return Status::Ok();
    case TypeKind::kText:
      if (!IsValidCassandraUtf8(bytes)) return Status::Invalid("String didn't validate.");
      return Status::Ok();
    case TypeKind::kBlob:
    case TypeKind::kVarint:
    case TypeKind::kCustom:
      return Status::Ok();
    case TypeKind::kBoolean:
      if (n > 1) return Status::Invalid("Expected 1 or 0 byte value " + SizeSuffix(n));
      return Status::Ok();
    case TypeKind::kTinyint:
      if (n != 1) return Status::Invalid("Expected 1 byte for a tinyint " + SizeSuffix(n));
      return Status::Ok();
    case TypeKind::kSmallint:
      if (n != 2) return Status::Invalid("Expected 2 bytes for a smallint " + SizeSuffix(n));
      return Status::Ok();
    case TypeKind::kInt:
      if (n != 4 && n != 0) return Status::Invalid("Expected 4 or 0 byte int " + SizeSuffix(n));
      return Status::Ok();
    case TypeKind::kBigint:
    case TypeKind::kCounter:
      if (n != 8 && n != 0) return Status::Invalid("Expected 8 or 0 byte long " + SizeSuffix(n));
      return Status::Ok();
    case TypeKind::kFloat:
      if (n != 4 && n != 0) {
        return Status::Invalid("Expected 4 or 0 byte value for a float " + SizeSuffix(n));
      }
      return Status::Ok();
    case TypeKind::kDouble:
      if (n != 8 && n != 0) {
        return Status::Invalid("Expected 8 or 0 byte value for a double " + SizeSuffix(n));
      }
      return Status::Ok();
    case TypeKind::kDecimal:
      if (n != 0 && n < 4)
        return Status::Invalid("Expected 0 or at least 4 bytes " + SizeSuffix(n));
      return Status::Ok();
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      if (n != 16 && n != 0)
        return Status::Invalid("UUID should be 16 or 0 bytes " + SizeSuffix(n));
      if (type.kind() == TypeKind::kTimeuuid && n == 16 &&
          (static_cast<uint8_t>(bytes[6]) & 0xF0) != 0x10) {
        return Status::Invalid("Invalid version for TimeUUID type.");
      }
      return Status::Ok();
    case TypeKind::kInet:
      if (n != 0 && n != 4 && n != 16) {
        return Status::Invalid("Expected 4 or 16 byte inetaddress; got " + common::ToHex(bytes));
      }
      return Status::Ok();
    case TypeKind::kDate:
      if (n != 4) return Status::Invalid("Expected 4 byte long for date " + SizeSuffix(n));
      return Status::Ok();
    case TypeKind::kTime:
      if (n != 8) return Status::Invalid("Expected 8 byte long for time " + SizeSuffix(n));
      return Status::Ok();
    case TypeKind::kTimestamp:
      if (n != 8 && n != 0) {
        return Status::Invalid("Expected 8 or 0 byte long for date " + SizeSuffix(n));
      }
      return Status::Ok();
    case TypeKind::kDuration:
      if (n < 3)
        return Status::Invalid("Expected at least 3 bytes for a duration " + SizeSuffix(n));
      return DeserializeDuration(bytes).status();
    default:
      return Status::Internal("Not a native type: " + type.ToCql());
  }
}

Status Validate(const CqlType& type, std::string_view bytes, int depth);

Status ValidateElements(const CqlType& element_type, const std::vector<std::string_view>& elements,
                        int depth) {
  for (std::string_view element : elements) RETURN_IF_ERROR(Validate(element_type, element, depth));
  return Status::Ok();
}

Status ValidateTupleOrUdt(const CqlType& type, std::string_view bytes, int depth) {
  const bool is_udt = type.kind() == TypeKind::kUdt;
  const std::vector<CqlType>& fields = type.params();
  // Cassandra numbers UDT fields in its messages by a counter that skips null fields;
  // the messages below keep that numbering.
  int udt_counter = 0;
  ByteReader reader(bytes);
  for (size_t i = 0; i < fields.size(); ++i) {
    if (reader.empty()) return Status::Ok();  // absent trailing fields are null
    std::string position = std::to_string(is_udt ? udt_counter : static_cast<int>(i)) + "th";
    std::string what =
        is_udt ? position + " field " + type.field_names()[i] : position + " component";
    Result<int32_t> size = reader.ReadI32();
    if (!size.ok()) return Status::Invalid("Not enough bytes to read size of " + what);
    if (*size < 0) continue;
    Result<std::string_view> field = reader.ReadRaw(static_cast<size_t>(*size));
    if (!field.ok()) return Status::Invalid("Not enough bytes to read " + what);
    RETURN_IF_ERROR(Validate(fields[i], *field, depth));
    ++udt_counter;
  }
  if (!reader.empty()) {
    return Status::Invalid(is_udt ? "Invalid remaining data after end of UDT value"
                                  : "Invalid remaining data after end of tuple value");
  }
  return Status::Ok();
}

Status Validate(const CqlType& type, std::string_view bytes, int depth) {
  if (depth > kMaxValueNestingDepth) {
    return Status::Invalid("Value nesting exceeds " + std::to_string(kMaxValueNestingDepth) +
                           " levels");
  }
  switch (type.kind()) {
    case TypeKind::kList: {
      if (bytes.empty()) return Status::Invalid("Not enough bytes to read a list");
      ASSIGN_OR_RETURN(auto elements, SplitElements(bytes, "list"));
      return ValidateElements(type.element(), elements, depth + 1);
    }
    case TypeKind::kSet: {
      ASSIGN_OR_RETURN(auto elements, SplitElements(bytes, "set"));
      return ValidateElements(type.element(), elements, depth + 1);
    }
    case TypeKind::kMap: {
      ASSIGN_OR_RETURN(auto entries, SplitMap(bytes));
      for (const MapEntryView& entry : entries) {
        RETURN_IF_ERROR(Validate(type.key(), entry.key, depth + 1));
        RETURN_IF_ERROR(Validate(type.value(), entry.value, depth + 1));
      }
      return Status::Ok();
    }
    case TypeKind::kUdt:
      if (!type.IsResolved()) {
        return Status::Internal("Cannot validate a value of unresolved type " + type.ToCql());
      }
      return ValidateTupleOrUdt(type, bytes, depth + 1);
    case TypeKind::kTuple:
      return ValidateTupleOrUdt(type, bytes, depth + 1);
    case TypeKind::kVector: {
      if (bytes.empty()) return Status::Invalid("Invalid empty vector value");
      ASSIGN_OR_RETURN(auto elements, SplitVector(type, bytes));
      return ValidateElements(type.element(), elements, depth + 1);
    }
    default:
      return ValidateNative(type, bytes);
  }
}

}  // namespace

// --- Native types --------------------------------------------------------------------------

Bytes SerializeBoolean(bool value) { return Bytes(1, value ? '\x01' : '\x00'); }

Bytes SerializeTinyint(int8_t value) { return Bytes(1, static_cast<char>(value)); }

Bytes SerializeSmallint(int16_t value) {
  ByteWriter writer;
  writer.PutI16(value);
  return writer.Release();
}

Bytes SerializeInt(int32_t value) {
  ByteWriter writer;
  writer.PutI32(value);
  return writer.Release();
}

Bytes SerializeBigint(int64_t value) {
  ByteWriter writer;
  writer.PutI64(value);
  return writer.Release();
}

Bytes SerializeFloat(float value) { return SerializeInt(std::bit_cast<int32_t>(value)); }

Bytes SerializeDouble(double value) { return SerializeBigint(std::bit_cast<int64_t>(value)); }

Bytes SerializeVarint(int64_t value) { return VarintFromInt64(value); }

Bytes SerializeDecimal(int64_t unscaled, int32_t scale) {
  return DecimalFromParts(VarintFromInt64(unscaled), scale);
}

Bytes SerializeTimestamp(int64_t millis) { return SerializeBigint(millis); }

Bytes SerializeDate(uint32_t days) { return SerializeInt(static_cast<int32_t>(days)); }

Bytes SerializeTime(int64_t nanoseconds) { return SerializeBigint(nanoseconds); }

Bytes SerializeDuration(const Duration& duration) {
  ByteWriter writer;
  writer.PutVInt(duration.months);
  writer.PutVInt(duration.days);
  writer.PutVInt(duration.nanoseconds);
  return writer.Release();
}

Result<bool> DeserializeBoolean(std::string_view bytes) {
  RETURN_IF_ERROR(ExpectSize(bytes, 1));
  return bytes[0] != 0;
}

Result<int8_t> DeserializeTinyint(std::string_view bytes) {
  RETURN_IF_ERROR(ExpectSize(bytes, 1));
  return static_cast<int8_t>(bytes[0]);
}

Result<int16_t> DeserializeSmallint(std::string_view bytes) {
  RETURN_IF_ERROR(ExpectSize(bytes, 2));
  return static_cast<int16_t>(common::LoadBigEndian16(bytes.data()));
}

Result<int32_t> DeserializeInt(std::string_view bytes) {
  RETURN_IF_ERROR(ExpectSize(bytes, 4));
  return static_cast<int32_t>(common::LoadBigEndian32(bytes.data()));
}

Result<int64_t> DeserializeBigint(std::string_view bytes) {
  RETURN_IF_ERROR(ExpectSize(bytes, 8));
  return static_cast<int64_t>(common::LoadBigEndian64(bytes.data()));
}

Result<float> DeserializeFloat(std::string_view bytes) {
  ASSIGN_OR_RETURN(int32_t bits, DeserializeInt(bytes));
  return std::bit_cast<float>(bits);
}

Result<double> DeserializeDouble(std::string_view bytes) {
  ASSIGN_OR_RETURN(int64_t bits, DeserializeBigint(bytes));
  return std::bit_cast<double>(bits);
}

Result<Duration> DeserializeDuration(std::string_view bytes) {
  ByteReader reader(bytes);
  Result<int64_t> months = reader.ReadVInt();
  Result<int64_t> days = months.ok() ? reader.ReadVInt() : months;
  Result<int64_t> nanos = days.ok() ? reader.ReadVInt() : days;
  if (!nanos.ok()) return Status::Invalid("Not enough bytes to read a duration");
  if (!reader.empty()) return Status::Invalid("Unexpected extraneous bytes after duration value");
  if (*months < INT32_MIN || *months > INT32_MAX) {
    return Status::Invalid("The duration months must be a 32 bits integer but was: " +
                           std::to_string(*months));
  }
  if (*days < INT32_MIN || *days > INT32_MAX) {
    return Status::Invalid("The duration days must be a 32 bits integer but was: " +
                           std::to_string(*days));
  }
  bool all_non_negative = *months >= 0 && *days >= 0 && *nanos >= 0;
  bool all_non_positive = *months <= 0 && *days <= 0 && *nanos <= 0;
  if (!all_non_negative && !all_non_positive) {
    return Status::Invalid(
        "The duration months, days and nanoseconds must be all of the same sign (" +
        std::to_string(*months) + ", " + std::to_string(*days) + ", " + std::to_string(*nanos) +
        ")");
  }
  return Duration{static_cast<int32_t>(*months), static_cast<int32_t>(*days), *nanos};
}

int FixedValueLength(const CqlType& type) {
  switch (type.kind()) {
    case TypeKind::kBoolean:
      return 1;
    case TypeKind::kInt:
    case TypeKind::kFloat:
      return 4;
    case TypeKind::kBigint:
    case TypeKind::kDouble:
    case TypeKind::kTimestamp:
      return 8;
    case TypeKind::kUuid:
    case TypeKind::kTimeuuid:
      return 16;
    case TypeKind::kVector: {
      int element = FixedValueLength(type.element());
      if (element < 0 || type.dimension() <= 0 || type.dimension() > INT32_MAX / element) {
        return -1;
      }
      return element * type.dimension();
    }
    default:
      return -1;
  }
}

// --- Composite types -----------------------------------------------------------------------

Bytes SerializeCollection(const CqlType& type, std::vector<Bytes> elements) {
  if (type.kind() == TypeKind::kSet) {
    const CqlType& element_type = type.element();
    std::stable_sort(elements.begin(), elements.end(), [&](const Bytes& a, const Bytes& b) {
      return CompareValues(element_type, a, b) < 0;
    });
    elements.erase(std::unique(elements.begin(), elements.end(),
                               [&](const Bytes& a, const Bytes& b) {
                                 return CompareValues(element_type, a, b) == 0;
                               }),
                   elements.end());
  }
  ByteWriter writer;
  writer.PutI32(static_cast<int32_t>(elements.size()));
  for (const Bytes& element : elements) PutElement(&writer, element);
  return writer.Release();
}

Bytes SerializeMap(const CqlType& type, std::vector<std::pair<Bytes, Bytes>> entries) {
  const CqlType& key_type = type.key();
  // Stable, so that among equal keys the later entry stays later. As in a Java TreeMap, the
  // last value of equal keys wins and the first key's bytes stay (1.0 and 1.00 are equal).
  std::stable_sort(entries.begin(), entries.end(), [&](const auto& a, const auto& b) {
    return CompareValues(key_type, a.first, b.first) < 0;
  });
  std::vector<std::pair<Bytes, Bytes>> unique;
  unique.reserve(entries.size());
  for (auto& entry : entries) {
    if (!unique.empty() && CompareValues(key_type, unique.back().first, entry.first) == 0) {
      unique.back().second = std::move(entry.second);
    } else {
      unique.push_back(std::move(entry));
    }
  }
  ByteWriter writer;
  writer.PutI32(static_cast<int32_t>(unique.size()));
  for (const auto& [key, value] : unique) {
    PutElement(&writer, key);
    PutElement(&writer, value);
  }
  return writer.Release();
}

Bytes SerializeTupleOrUdt(const std::vector<std::optional<Bytes>>& fields) {
  ByteWriter writer;
  for (const std::optional<Bytes>& field : fields) {
    if (field) {
      writer.PutIntBytes(*field);
    } else {
      writer.PutNullIntBytes();
    }
  }
  return writer.Release();
}

Result<Bytes> SerializeVector(const CqlType& type, const std::vector<Bytes>& elements) {
  if (elements.size() != static_cast<size_t>(type.dimension())) {
    return Status::Invalid("Invalid vector value for type " + type.ToCql() + "; expected " +
                           std::to_string(type.dimension()) + " elements, but given " +
                           std::to_string(elements.size()));
  }
  int fixed = FixedValueLength(type.element());
  ByteWriter writer;
  for (size_t i = 0; i < elements.size(); ++i) {
    if (fixed >= 0) {
      if (elements[i].size() != static_cast<size_t>(fixed)) {
        return Status::Invalid("Element at index " + std::to_string(i) + " of " + type.ToCql() +
                               " has " + std::to_string(elements[i].size()) + " bytes; expected " +
                               std::to_string(fixed));
      }
    } else {
      writer.PutUnsignedVInt(elements[i].size());
    }
    writer.PutRaw(elements[i]);
  }
  return writer.Release();
}

Result<std::vector<std::string_view>> SplitListOrSet(const CqlType& type, std::string_view bytes) {
  return SplitElements(bytes, type.kind() == TypeKind::kSet ? "set" : "list");
}

Result<std::vector<MapEntryView>> SplitMap(std::string_view bytes) {
  std::vector<MapEntryView> out;
  if (bytes.empty()) return out;
  ByteReader reader(bytes);
  Result<int32_t> count = reader.ReadI32();
  if (!count.ok()) return Status::Invalid("Not enough bytes to read a map");
  if (*count < 0) return Status::Invalid("The data cannot be deserialized as a map");
  out.reserve(std::min<size_t>(static_cast<size_t>(*count), reader.remaining() / 8));
  for (int32_t i = 0; i < *count; ++i) {
    MapEntryView entry;
    ASSIGN_OR_RETURN(entry.key, ReadCollectionElement(&reader, "map"));
    ASSIGN_OR_RETURN(entry.value, ReadCollectionElement(&reader, "map"));
    out.push_back(entry);
  }
  if (!reader.empty()) return Status::Invalid("Unexpected extraneous bytes after map value");
  return out;
}

Result<std::vector<std::optional<std::string_view>>> SplitTupleOrUdt(std::string_view bytes,
                                                                     size_t field_count) {
  std::vector<std::optional<std::string_view>> out;
  ByteReader reader(bytes);
  while (!reader.empty()) {
    if (out.size() == field_count) {
      return Status::Invalid("Invalid remaining data after end of tuple value");
    }
    Result<ByteReader::IntBytes> field = reader.ReadIntBytes();
    if (!field.ok()) {
      return Status::Invalid("Not enough bytes to read " + std::to_string(out.size()) +
                             "th component");
    }
    if (field->is_null || field->is_unset) {
      out.push_back(std::nullopt);
    } else {
      out.push_back(field->bytes);
    }
  }
  return out;
}

Result<std::vector<std::string_view>> SplitVector(const CqlType& type, std::string_view bytes) {
  const auto dimension = static_cast<size_t>(std::max(type.dimension(), 0));
  auto not_enough = [&type] {
    return Status::Invalid("Not enough bytes to read a " + type.ToCql());
  };
  std::vector<std::string_view> out;
  int fixed = FixedValueLength(type.element());
  ByteReader reader(bytes);
  if (fixed >= 0) {
    if (bytes.size() / static_cast<size_t>(std::max(fixed, 1)) < dimension) return not_enough();
  }
  out.reserve(std::min(dimension, bytes.size()));
  for (size_t i = 0; i < dimension; ++i) {
    size_t length = static_cast<size_t>(fixed);
    if (fixed < 0) {
      Result<uint64_t> vint = reader.ReadUnsignedVInt();
      if (!vint.ok() || *vint > reader.remaining()) return not_enough();
      length = static_cast<size_t>(*vint);
    }
    Result<std::string_view> element = reader.ReadRaw(length);
    if (!element.ok()) return not_enough();
    out.push_back(*element);
  }
  if (!reader.empty()) {
    return Status::Invalid("Unexpected " + std::to_string(reader.remaining()) +
                           " extraneous bytes after " + type.ToCql() + " value");
  }
  return out;
}

Status ValidateValue(const CqlType& type, std::string_view bytes) {
  return Validate(type, bytes, 0);
}

// --- Canonical form of bound values -----------------------------------------------------

bool HasUnorderedParts(const CqlType& type) {
  if (type.kind() == TypeKind::kSet || type.kind() == TypeKind::kMap) return true;
  for (const CqlType& param : type.params()) {
    if (HasUnorderedParts(param)) return true;
  }
  return false;
}

Result<Bytes> NormalizeValue(const CqlType& type, std::string_view bytes) {
  if (!HasUnorderedParts(type)) return Bytes(bytes);
  switch (type.kind()) {
    case TypeKind::kList:
    case TypeKind::kSet: {
      ASSIGN_OR_RETURN(std::vector<std::string_view> elements, SplitListOrSet(type, bytes));
      std::vector<Bytes> normalized;
      normalized.reserve(elements.size());
      for (std::string_view e : elements) {
        ASSIGN_OR_RETURN(Bytes element, NormalizeValue(type.element(), e));
        normalized.push_back(std::move(element));
      }
      return SerializeCollection(type, std::move(normalized));
    }
    case TypeKind::kMap: {
      ASSIGN_OR_RETURN(std::vector<MapEntryView> entries, SplitMap(bytes));
      std::vector<std::pair<Bytes, Bytes>> normalized;
      normalized.reserve(entries.size());
      for (const MapEntryView& e : entries) {
        ASSIGN_OR_RETURN(Bytes key, NormalizeValue(type.key(), e.key));
        ASSIGN_OR_RETURN(Bytes value, NormalizeValue(type.value(), e.value));
        normalized.emplace_back(std::move(key), std::move(value));
      }
      return SerializeMap(type, std::move(normalized));
    }
    case TypeKind::kTuple:
    case TypeKind::kUdt: {
      ASSIGN_OR_RETURN(auto fields, SplitTupleOrUdt(bytes, type.params().size()));
      std::vector<std::optional<Bytes>> normalized;
      for (size_t i = 0; i < fields.size(); ++i) {
        if (!fields[i]) {
          normalized.emplace_back();
          continue;
        }
        ASSIGN_OR_RETURN(Bytes field, NormalizeValue(type.params()[i], *fields[i]));
        normalized.emplace_back(std::move(field));
      }
      return SerializeTupleOrUdt(normalized);
    }
    default:
      return Bytes(bytes);
  }
}

}  // namespace cql
