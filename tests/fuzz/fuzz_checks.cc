#include "tests/fuzz/fuzz_checks.h"

#include <vector>

#include "cql/parser/parser.h"
#include "cql/parser/statement.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_compare.h"
#include "cql/types/value_format.h"
#include "storage/key_encoding.h"

namespace fuzz {
namespace {

const std::vector<cql::CqlType>& ValueTypes() {
  using cql::CqlType;
  using cql::TypeKind;
  static const std::vector<CqlType> types = [] {
    std::vector<CqlType> t;
    for (auto kind :
         {TypeKind::kAscii,   TypeKind::kBigint,    TypeKind::kBlob,    TypeKind::kBoolean,
          TypeKind::kCounter, TypeKind::kDecimal,   TypeKind::kDouble,  TypeKind::kFloat,
          TypeKind::kInt,     TypeKind::kTimestamp, TypeKind::kUuid,    TypeKind::kText,
          TypeKind::kVarint,  TypeKind::kTimeuuid,  TypeKind::kInet,    TypeKind::kDate,
          TypeKind::kTime,    TypeKind::kSmallint,  TypeKind::kTinyint, TypeKind::kDuration}) {
      t.push_back(CqlType::Native(kind));
    }
    CqlType address = CqlType::Udt(
        "hotel", "address", {"street", "city", "state_or_province", "postal_code", "country"},
        {CqlType::Text(), CqlType::Text(), CqlType::Text(), CqlType::Text(), CqlType::Text()},
        /*frozen=*/true);
    t.push_back(CqlType::List(CqlType::Int()));
    t.push_back(CqlType::Set(CqlType::Text(), true));
    t.push_back(CqlType::Map(CqlType::Text(), address));
    t.push_back(CqlType::Tuple({CqlType::Int(), CqlType::Text(), CqlType::Blob()}));
    t.push_back(CqlType::List(CqlType::Set(CqlType::Varint(), true), true));
    t.push_back(CqlType::Map(CqlType::Decimal(), CqlType::List(CqlType::Timeuuid(), true), true));
    t.push_back(CqlType::Vector(CqlType::Float(), 3));
    t.push_back(CqlType::Vector(CqlType::Text(), 2));
    t.push_back(address);
    return t;
  }();
  return types;
}

}  // namespace

std::string CheckParserInput(std::string_view text) {
  auto statement = cql::ParseStatement(text);
  if (statement.ok()) {
    std::string printed = cql::ToCql(*statement);
    auto again = cql::ParseStatement(printed);
    if (!again.ok()) {
      return "canonical text does not parse: " + printed + "\n" + again.status().ToString();
    }
    if (!(*again == *statement)) return "canonical text parses to another statement: " + printed;
  }
  (void)cql::ParseScript(text);
  (void)cql::ParseTerm(text);
  (void)cql::ParseType(text);
  return "";
}

std::string CheckValueInput(std::string_view input) {
  if (input.empty()) return "";
  const auto& types = ValueTypes();
  const cql::CqlType& type = types[static_cast<unsigned char>(input[0]) % types.size()];
  std::string_view value = input.substr(1);

  (void)cql::FormatValue(type, value);
  (void)cql::FormatValueAsCql(type, value);
  if (!cql::ValidateValue(type, value).ok()) return "";

  if (cql::CompareValues(type, value, value) != 0) {
    return "a valid " + type.ToCql() + " value does not compare equal to itself";
  }
  bool key_capable = type.IsNative() && type.kind() != cql::TypeKind::kCounter &&
                     type.kind() != cql::TypeKind::kDuration;
  if (!key_capable) return "";
  for (bool descending : {false, true}) {
    common::Bytes key;
    storage::AppendKeyComponent(type, value, descending, &key);
    std::string_view in(key);
    auto decoded = storage::ReadKeyComponent(type, descending, &in);
    if (!decoded.ok() || !in.empty() || cql::CompareValues(type, *decoded, value) != 0) {
      return "the key encoding of a valid " + type.ToCql() + " value does not round-trip (" +
             (descending ? "descending" : "ascending") + ")";
    }
  }
  return "";
}

}  // namespace fuzz
