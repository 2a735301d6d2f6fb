#include "cql/types/type_codec.h"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <charconv>
#include <utility>
#include <vector>

namespace cql {
namespace {

using common::Status;

constexpr std::string_view kMarshalPackage = "org.apache.cassandra.db.marshal.";

struct MarshalName {
  TypeKind kind;
  std::string_view name;
};

constexpr std::array<MarshalName, 20> kMarshalNames = {{
    {TypeKind::kAscii, "AsciiType"},
    {TypeKind::kBigint, "LongType"},
    {TypeKind::kBlob, "BytesType"},
    {TypeKind::kBoolean, "BooleanType"},
    {TypeKind::kCounter, "CounterColumnType"},
    {TypeKind::kDecimal, "DecimalType"},
    {TypeKind::kDouble, "DoubleType"},
    {TypeKind::kFloat, "FloatType"},
    {TypeKind::kInt, "Int32Type"},
    {TypeKind::kTimestamp, "TimestampType"},
    {TypeKind::kUuid, "UUIDType"},
    {TypeKind::kText, "UTF8Type"},
    {TypeKind::kVarint, "IntegerType"},
    {TypeKind::kTimeuuid, "TimeUUIDType"},
    {TypeKind::kInet, "InetAddressType"},
    {TypeKind::kDate, "SimpleDateType"},
    {TypeKind::kTime, "TimeType"},
    {TypeKind::kSmallint, "ShortType"},
    {TypeKind::kTinyint, "ByteType"},
    {TypeKind::kDuration, "DurationType"},
}};

bool IsNativeId(uint16_t id) { return id >= 0x0001 && id <= 0x0015 && id != 0x000A; }

// Protocol reads fail with ProtocolError; this codec reports Invalid.
template <typename T>
common::Result<T> Checked(common::Result<T> result, std::string_view what) {
  if (result.ok()) return result;
  return Status::Invalid(fmt::format("Malformed type option: truncated {}", what));
}

// Types nested in a collection, tuple, UDT or vector are always frozen in CQL.
CqlType Nested(CqlType type) { return type.WithFrozen(true); }

common::Result<CqlType> Decode(common::ByteReader* in, int depth) {
  if (depth > kMaxTypeNestingDepth) {
    return Status::Invalid(
        fmt::format("Malformed type option: nesting deeper than {} levels", kMaxTypeNestingDepth));
  }
  ASSIGN_OR_RETURN(uint16_t id, Checked(in->ReadU16(), "type id"));
  if (IsNativeId(id)) return CqlType::Native(static_cast<TypeKind>(id));
  switch (static_cast<TypeKind>(id)) {
    case TypeKind::kCustom: {
      ASSIGN_OR_RETURN(std::string_view name, Checked(in->ReadShortBytes(), "custom class name"));
      std::string_view short_name = name;
      if (short_name.starts_with(kMarshalPackage)) short_name.remove_prefix(kMarshalPackage.size());
      if (short_name.starts_with("VectorType(")) return ParseMarshalClassName(name);
      return CqlType::Custom(std::string(name));
    }
    case TypeKind::kList: {
      ASSIGN_OR_RETURN(CqlType element, Decode(in, depth + 1));
      return CqlType::List(Nested(std::move(element)));
    }
    case TypeKind::kSet: {
      ASSIGN_OR_RETURN(CqlType element, Decode(in, depth + 1));
      return CqlType::Set(Nested(std::move(element)));
    }
    case TypeKind::kMap: {
      ASSIGN_OR_RETURN(CqlType key, Decode(in, depth + 1));
      ASSIGN_OR_RETURN(CqlType value, Decode(in, depth + 1));
      return CqlType::Map(Nested(std::move(key)), Nested(std::move(value)));
    }
    case TypeKind::kUdt: {
      ASSIGN_OR_RETURN(std::string_view keyspace, Checked(in->ReadShortBytes(), "UDT keyspace"));
      ASSIGN_OR_RETURN(std::string_view name, Checked(in->ReadShortBytes(), "UDT name"));
      ASSIGN_OR_RETURN(uint16_t count, Checked(in->ReadU16(), "UDT field count"));
      std::vector<std::string> names;
      std::vector<CqlType> types;
      for (uint16_t i = 0; i < count; ++i) {
        ASSIGN_OR_RETURN(std::string_view field, Checked(in->ReadShortBytes(), "UDT field name"));
        ASSIGN_OR_RETURN(CqlType type, Decode(in, depth + 1));
        names.emplace_back(field);
        types.push_back(Nested(std::move(type)));
      }
      return CqlType::Udt(std::string(keyspace), std::string(name), std::move(names),
                          std::move(types));
    }
    case TypeKind::kTuple: {
      ASSIGN_OR_RETURN(uint16_t count, Checked(in->ReadU16(), "tuple size"));
      std::vector<CqlType> types;
      for (uint16_t i = 0; i < count; ++i) {
        ASSIGN_OR_RETURN(CqlType type, Decode(in, depth + 1));
        types.push_back(Nested(std::move(type)));
      }
      return CqlType::Tuple(std::move(types));
    }
    default:
      break;
  }
  return Status::Invalid(fmt::format("Malformed type option: unknown type id 0x{:04x}", id));
}

std::string Marshal(const CqlType& type, bool ignore_freezing) {
  auto qualified = [](std::string_view name) { return fmt::format("{}{}", kMarshalPackage, name); };
  const bool wrap_frozen = !ignore_freezing && type.frozen();
  const bool inner_ignore = ignore_freezing || type.frozen();
  std::string body;
  switch (type.kind()) {
    case TypeKind::kCustom:
      return type.name();
    case TypeKind::kList:
      body = fmt::format("{}({})", qualified("ListType"), Marshal(type.element(), inner_ignore));
      break;
    case TypeKind::kSet:
      body = fmt::format("{}({})", qualified("SetType"), Marshal(type.element(), inner_ignore));
      break;
    case TypeKind::kMap:
      body = fmt::format("{}({},{})", qualified("MapType"), Marshal(type.key(), inner_ignore),
                         Marshal(type.value(), inner_ignore));
      break;
    case TypeKind::kTuple: {
      body = qualified("TupleType") + "(";
      for (size_t i = 0; i < type.params().size(); ++i) {
        if (i > 0) body += ',';
        body += Marshal(type.params()[i], true);
      }
      return body + ")";
    }
    case TypeKind::kUdt: {
      body = fmt::format("{}({},{}", qualified("UserType"), type.keyspace(),
                         common::ToHex(type.name()));
      for (size_t i = 0; i < type.params().size() && i < type.field_names().size(); ++i) {
        body += fmt::format(",{}:{}", common::ToHex(type.field_names()[i]),
                            Marshal(type.params()[i], inner_ignore));
      }
      body += ")";
      break;
    }
    case TypeKind::kVector:
      return fmt::format("{}({},{})", qualified("VectorType"),
                         Marshal(type.element(), ignore_freezing), type.dimension());
    default:
      for (const MarshalName& entry : kMarshalNames) {
        if (entry.kind == type.kind()) return qualified(entry.name);
      }
      return qualified("BytesType");
  }
  if (wrap_frozen) return fmt::format("{}({})", qualified("FrozenType"), body);
  return body;
}

// Recursive-descent parser of marshal class names.
class MarshalParser {
 public:
  explicit MarshalParser(std::string_view text) : text_(text) {}

  common::Result<CqlType> ParseAll() {
    ASSIGN_OR_RETURN(CqlType type, ParseType(0));
    SkipSpaces();
    if (pos_ != text_.size()) return Error("unexpected text after the type");
    return type;
  }

 private:
  Status Error(std::string_view what) const {
    return Status::Invalid(
        fmt::format("Malformed type class name '{}' at character {}: {}", text_, pos_, what));
  }

  void SkipSpaces() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool Consume(char c) {
    SkipSpaces();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  // A run of identifier characters (class names, hex, keyspace names, numbers).
  std::string_view Word() {
    SkipSpaces();
    size_t start = pos_;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' ||
            c == '-')) {
        break;
      }
      ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }

  common::Result<std::string> HexText() {
    std::string_view hex = Word();
    auto bytes = common::FromHex(hex);
    if (!bytes.ok()) return Error("invalid hex name");
    return std::move(bytes).value();
  }

  common::Result<CqlType> ParseType(int depth) {
    if (depth > kMaxTypeNestingDepth) return Error("nesting too deep");
    std::string_view full = Word();
    if (full.empty()) return Error("expected a type name");
    std::string_view name = full;
    if (name.starts_with(kMarshalPackage)) name.remove_prefix(kMarshalPackage.size());
    for (const MarshalName& entry : kMarshalNames) {
      if (entry.name == name) return CqlType::Native(entry.kind);
    }
    if (!Consume('(')) {
      if (name == "ListType" || name == "SetType" || name == "MapType" || name == "TupleType" ||
          name == "UserType" || name == "VectorType" || name == "FrozenType") {
        return Error("missing type parameters");
      }
      return CqlType::Custom(std::string(full));
    }
    if (name == "FrozenType") {
      ASSIGN_OR_RETURN(CqlType inner, ParseType(depth + 1));
      if (!Consume(')')) return Error("expected ')'");
      return FreezeAll(inner);
    }
    if (name == "ListType" || name == "SetType") {
      ASSIGN_OR_RETURN(CqlType element, ParseType(depth + 1));
      if (!Consume(')')) return Error("expected ')'");
      return name == "ListType" ? CqlType::List(std::move(element))
                                : CqlType::Set(std::move(element));
    }
    if (name == "MapType") {
      ASSIGN_OR_RETURN(CqlType key, ParseType(depth + 1));
      if (!Consume(',')) return Error("expected ','");
      ASSIGN_OR_RETURN(CqlType value, ParseType(depth + 1));
      if (!Consume(')')) return Error("expected ')'");
      return CqlType::Map(std::move(key), std::move(value));
    }
    if (name == "TupleType") {
      std::vector<CqlType> types;
      if (Consume(')')) return CqlType::Tuple(std::move(types));
      do {
        ASSIGN_OR_RETURN(CqlType element, ParseType(depth + 1));
        types.push_back(FreezeAll(element));
      } while (Consume(','));
      if (!Consume(')')) return Error("expected ')'");
      return CqlType::Tuple(std::move(types));
    }
    if (name == "UserType") return ParseUserType(depth);
    if (name == "VectorType") {
      ASSIGN_OR_RETURN(CqlType element, ParseType(depth + 1));
      if (!Consume(',')) return Error("expected ','");
      std::string_view digits = Word();
      int32_t dimension = 0;
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), dimension);
      if (ec != std::errc() || end != digits.data() + digits.size() || dimension <= 0) {
        return Error("invalid vector dimension");
      }
      if (!Consume(')')) return Error("expected ')'");
      return CqlType::Vector(FreezeAll(element), dimension);
    }
    return Error("unsupported parameterized type");
  }

  common::Result<CqlType> ParseUserType(int depth) {
    std::string_view keyspace = Word();
    if (keyspace.empty()) return Error("expected a keyspace name");
    if (!Consume(',')) return Error("expected ','");
    ASSIGN_OR_RETURN(std::string name, HexText());
    std::vector<std::string> names;
    std::vector<CqlType> types;
    while (Consume(',')) {
      ASSIGN_OR_RETURN(std::string field, HexText());
      if (!Consume(':')) return Error("expected ':'");
      ASSIGN_OR_RETURN(CqlType type, ParseType(depth + 1));
      names.push_back(std::move(field));
      types.push_back(FreezeAll(type));
    }
    if (!Consume(')')) return Error("expected ')'");
    return CqlType::Udt(std::string(keyspace), std::move(name), std::move(names), std::move(types));
  }

  // FrozenType(...) freezes the whole subtree, as frozen<> does in CQL.
  static CqlType FreezeAll(const CqlType& type) {
    switch (type.kind()) {
      case TypeKind::kList:
        return CqlType::List(FreezeAll(type.element()), true);
      case TypeKind::kSet:
        return CqlType::Set(FreezeAll(type.element()), true);
      case TypeKind::kMap:
        return CqlType::Map(FreezeAll(type.key()), FreezeAll(type.value()), true);
      case TypeKind::kUdt: {
        std::vector<CqlType> fields;
        for (const CqlType& field : type.params()) fields.push_back(FreezeAll(field));
        return CqlType::Udt(type.keyspace(), type.name(), type.field_names(), std::move(fields),
                            true);
      }
      case TypeKind::kTuple: {
        std::vector<CqlType> elements;
        for (const CqlType& element : type.params()) elements.push_back(FreezeAll(element));
        return CqlType::Tuple(std::move(elements));
      }
      case TypeKind::kVector:
        return CqlType::Vector(FreezeAll(type.element()), type.dimension());
      default:
        return type;
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

void EncodeTypeOption(const CqlType& type, common::ByteWriter* out) {
  switch (type.kind()) {
    case TypeKind::kCustom:
      out->PutU16(0x0000);
      out->PutShortBytes(type.name());
      return;
    case TypeKind::kVector:
      out->PutU16(0x0000);
      out->PutShortBytes(MarshalClassName(type));
      return;
    case TypeKind::kList:
    case TypeKind::kSet:
      out->PutU16(static_cast<uint16_t>(type.kind()));
      EncodeTypeOption(type.element(), out);
      return;
    case TypeKind::kMap:
      out->PutU16(static_cast<uint16_t>(type.kind()));
      EncodeTypeOption(type.key(), out);
      EncodeTypeOption(type.value(), out);
      return;
    case TypeKind::kUdt:
      out->PutU16(static_cast<uint16_t>(type.kind()));
      out->PutShortBytes(type.keyspace());
      out->PutShortBytes(type.name());
      out->PutU16(static_cast<uint16_t>(type.params().size()));
      for (size_t i = 0; i < type.params().size(); ++i) {
        out->PutShortBytes(i < type.field_names().size() ? type.field_names()[i] : "");
        EncodeTypeOption(type.params()[i], out);
      }
      return;
    case TypeKind::kTuple:
      out->PutU16(static_cast<uint16_t>(type.kind()));
      out->PutU16(static_cast<uint16_t>(type.params().size()));
      for (const CqlType& element : type.params()) EncodeTypeOption(element, out);
      return;
    default:
      out->PutU16(static_cast<uint16_t>(type.kind()));
      return;
  }
}

common::Result<CqlType> DecodeTypeOption(common::ByteReader* in) { return Decode(in, 0); }

std::string MarshalClassName(const CqlType& type) { return Marshal(type, false); }

common::Result<CqlType> ParseMarshalClassName(std::string_view text) {
  return MarshalParser(text).ParseAll();
}

}  // namespace cql
