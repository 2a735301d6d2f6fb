#include "tests/logic/front_end_executor.h"

#include <variant>

#include "cql/parser/literal.h"
#include "cql/parser/parser.h"
#include "cql/parser/statement.h"
#include "cql/types/value_format.h"

namespace logic_test {

bool FrontEndExecutor::Supports(std::string_view feature) const {
  return feature == "parser" || feature == "values";
}

common::Status FrontEndExecutor::Execute(std::string_view statement, const RunOptions& options) {
  if (!options.is_default()) {
    return common::Status::Invalid(
        "bind and paged need the engine: mark the file 'require engine'");
  }
  auto parsed = cql::ParseStatement(statement);
  if (!parsed.ok()) return parsed.status();
  if (const auto* create = std::get_if<cql::CreateType>(&*parsed)) {
    UserType type;
    type.keyspace = create->type.keyspace;
    for (const auto& field : create->fields) {
      type.field_names.push_back(field.name);
      type.field_types.push_back(field.type);
    }
    types_.emplace(create->type.name, std::move(type));
  }
  return common::Status::Ok();
}

common::Result<std::vector<std::vector<std::string>>> FrontEndExecutor::Query(
    std::string_view /*statement*/, const RunOptions& /*options*/) {
  return common::Status::Invalid(
      "queries need the engine: mark the file 'require engine' (the front-end executor only "
      "parses statements and evaluates literals)");
}

common::Result<cql::CqlType> FrontEndExecutor::Resolve(const cql::CqlType& type, int depth) const {
  using cql::CqlType;
  using cql::TypeKind;
  if (depth > 64) return common::Status::Invalid("type nested too deeply");
  switch (type.kind()) {
    case TypeKind::kList:
    case TypeKind::kSet: {
      ASSIGN_OR_RETURN(CqlType element, Resolve(type.element(), depth + 1));
      return type.kind() == TypeKind::kList ? CqlType::List(element, type.frozen())
                                            : CqlType::Set(element, type.frozen());
    }
    case TypeKind::kMap: {
      ASSIGN_OR_RETURN(CqlType key, Resolve(type.key(), depth + 1));
      ASSIGN_OR_RETURN(CqlType value, Resolve(type.value(), depth + 1));
      return CqlType::Map(key, value, type.frozen());
    }
    case TypeKind::kTuple: {
      std::vector<CqlType> elements;
      for (const CqlType& element : type.params()) {
        ASSIGN_OR_RETURN(CqlType resolved, Resolve(element, depth + 1));
        elements.push_back(std::move(resolved));
      }
      return CqlType::Tuple(std::move(elements));
    }
    case TypeKind::kVector: {
      ASSIGN_OR_RETURN(CqlType element, Resolve(type.element(), depth + 1));
      return CqlType::Vector(element, type.dimension());
    }
    case TypeKind::kUdt: {
      if (type.IsResolved()) return type;
      auto [begin, end] = types_.equal_range(type.name());
      for (auto it = begin; it != end; ++it) {
        const UserType& udt = it->second;
        if (!type.keyspace().empty() && udt.keyspace != type.keyspace()) continue;
        std::vector<CqlType> fields;
        for (const CqlType& field : udt.field_types) {
          ASSIGN_OR_RETURN(CqlType resolved, Resolve(field, depth + 1));
          fields.push_back(std::move(resolved));
        }
        return CqlType::Udt(udt.keyspace, type.name(), udt.field_names, std::move(fields),
                            type.frozen());
      }
      return common::Status::Invalid("Unknown type " + type.ToCql());
    }
    default:
      return type;
  }
}

common::Result<std::string> FrontEndExecutor::Value(std::string_view type_text,
                                                    std::string_view literal) {
  ASSIGN_OR_RETURN(cql::CqlType parsed_type, cql::ParseType(type_text));
  ASSIGN_OR_RETURN(cql::CqlType type, Resolve(parsed_type, 0));
  ASSIGN_OR_RETURN(cql::Term term, cql::ParseTerm(literal));
  ASSIGN_OR_RETURN(auto bytes, cql::EvaluateLiteral(type, term, "value"));
  if (!bytes.has_value()) return std::string("null");
  // Every value must also survive the trip through its CQL literal form (used by DESCRIBE,
  // COPY and the shell).
  std::string as_cql = cql::FormatValueAsCql(type, *bytes);
  auto reparsed_term = cql::ParseTerm(as_cql);
  if (!reparsed_term.ok()) {
    return common::Status::Internal("literal form '" + as_cql +
                                    "' does not parse: " + reparsed_term.status().ToString());
  }
  auto reparsed = cql::EvaluateLiteral(type, *reparsed_term, "value");
  if (!reparsed.ok() || *reparsed != bytes) {
    return common::Status::Internal("literal form '" + as_cql + "' does not give the same value");
  }
  return cql::FormatValue(type, *bytes);
}

common::Status FrontEndExecutor::CheckRoundTrip(std::string_view statement) {
  auto first = cql::ParseStatement(statement);
  if (!first.ok()) return first.status();
  std::string printed = cql::ToCql(*first);
  auto second = cql::ParseStatement(printed);
  if (!second.ok()) {
    return common::Status::Invalid("canonical text does not parse: " + printed + "\n  " +
                                   second.status().ToString());
  }
  if (!(*second == *first)) {
    return common::Status::Invalid("canonical text parses to a different statement: " + printed);
  }
  return common::Status::Ok();
}

}  // namespace logic_test
