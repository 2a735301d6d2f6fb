#include "cql/parser/statement.h"

namespace cql {

bool Selectable::operator==(const Selectable& other) const {
  return kind == other.kind && keyspace == other.keyspace && name == other.name &&
         term == other.term && term2 == other.term2 && type == other.type && args == other.args;
}

const std::vector<std::string>& BindMarkerNames(const Statement& statement) {
  return std::visit(
      [](const auto& s) -> const std::vector<std::string>& { return s.bind_marker_names; },
      statement);
}

std::string_view OperatorToCql(Operator op) {
  switch (op) {
    case Operator::kEq:
      return "=";
    case Operator::kLt:
      return "<";
    case Operator::kLte:
      return "<=";
    case Operator::kGt:
      return ">";
    case Operator::kGte:
      return ">=";
    case Operator::kNeq:
      return "!=";
    case Operator::kIn:
      return "IN";
    case Operator::kContains:
      return "CONTAINS";
    case Operator::kContainsKey:
      return "CONTAINS KEY";
    case Operator::kLike:
      return "LIKE";
    case Operator::kIsNot:
      return "IS NOT";
  }
  return "=";
}

std::string_view PermissionName(Permission permission) {
  switch (permission) {
    case Permission::kCreate:
      return "CREATE";
    case Permission::kAlter:
      return "ALTER";
    case Permission::kDrop:
      return "DROP";
    case Permission::kSelect:
      return "SELECT";
    case Permission::kModify:
      return "MODIFY";
    case Permission::kAuthorize:
      return "AUTHORIZE";
    case Permission::kDescribe:
      return "DESCRIBE";
    case Permission::kExecute:
      return "EXECUTE";
  }
  return "SELECT";
}

}  // namespace cql
