// Canonical CQL printer: statement parts, data statements and the dispatch of `ToCql`.

#include "cql/parser/statement_printer.h"

#include <variant>

namespace cql {
namespace printer {
namespace {

std::string TermText(const Term& term) { return term.ToCql(); }

const char* InfixOperator(std::string_view name) {
  if (name == "_add") return "+";
  if (name == "_substract") return "-";
  if (name == "_multiply") return "*";
  if (name == "_divide") return "/";
  if (name == "_modulo") return "%";
  return nullptr;
}

std::string Using(const UsingAttributes& using_attributes) {
  std::vector<std::string> parts;
  if (using_attributes.ttl) parts.push_back("TTL " + using_attributes.ttl->ToCql());
  if (using_attributes.timestamp) {
    parts.push_back("TIMESTAMP " + using_attributes.timestamp->ToCql());
  }
  // Bind markers must print in their source order, which fixes their indices.
  if (parts.size() == 2) {
    const auto* ttl = std::get_if<BindMarker>(&using_attributes.ttl->value);
    const auto* timestamp = std::get_if<BindMarker>(&using_attributes.timestamp->value);
    if (ttl != nullptr && timestamp != nullptr && timestamp->index < ttl->index) {
      std::swap(parts[0], parts[1]);
    }
  }
  if (parts.empty()) return std::string();
  return " USING " + Join(parts, " AND ", [](const std::string& p) { return p; });
}

// The right-hand side of a relation or condition.
std::string RightHandSide(Operator op, const Term& value, bool in_list,
                          const std::vector<Term>& in_values) {
  if (op == Operator::kIsNot) return "NULL";
  if (op == Operator::kIn && in_list) return "(" + Join(in_values, ", ", TermText) + ")";
  return value.ToCql();
}

std::string ConditionText(const Condition& c) {
  std::string out = CqlIdentifier(c.column);
  if (c.element) out += "[" + c.element->ToCql() + "]";
  if (!c.field.empty()) out += "." + CqlIdentifier(c.field);
  return out + " " + std::string(OperatorToCql(c.op)) + " " +
         RightHandSide(c.op, c.value, c.in_list, c.in_values);
}

std::string Conditions(bool if_exists, const std::vector<Condition>& conditions) {
  if (if_exists) return " IF EXISTS";
  if (conditions.empty()) return std::string();
  return " IF " + Join(conditions, " AND ", ConditionText);
}

std::string OperationText(const Operation& o) {
  std::string column = CqlIdentifier(o.column);
  switch (o.kind) {
    case Operation::Kind::kSet:
      return column + " = " + o.value.ToCql();
    case Operation::Kind::kAdd:
      return column + " = " + column + " + " + o.value.ToCql();
    case Operation::Kind::kSubtract:
      return column + " = " + column + " - " + o.value.ToCql();
    case Operation::Kind::kPrepend:
      return column + " = " + o.value.ToCql() + " + " + column;
    case Operation::Kind::kSetElement:
      return column + "[" + (o.key ? o.key->ToCql() : "null") + "] = " + o.value.ToCql();
    case Operation::Kind::kSetField:
      return column + "." + CqlIdentifier(o.field) + " = " + o.value.ToCql();
  }
  return column;
}

}  // namespace

std::string Print(const Select& s) {
  std::string out = "SELECT ";
  if (s.json) out += "JSON ";
  if (s.distinct) out += "DISTINCT ";
  std::string selectors = Selectors(s.selectors);
  // A first column named json or distinct would read as the keyword: quote it.
  if (!s.selectors.empty() && s.selectors[0].expression.kind == Selectable::Kind::kColumn &&
      (s.selectors[0].expression.name == "json" || s.selectors[0].expression.name == "distinct")) {
    selectors = "\"" + s.selectors[0].expression.name + "\"" +
                selectors.substr(s.selectors[0].expression.name.size());
  }
  out += selectors + " FROM " + ToCql(s.table) + WhereClause(s.where);
  if (!s.group_by.empty()) out += " GROUP BY " + Identifiers(s.group_by);
  if (!s.order_by.empty()) {
    out += " ORDER BY " + Join(s.order_by, ", ", [](const Ordering& o) {
             return CqlIdentifier(o.column) + (o.descending ? " DESC" : " ASC");
           });
  }
  if (s.per_partition_limit) out += " PER PARTITION LIMIT " + s.per_partition_limit->ToCql();
  if (s.limit) out += " LIMIT " + s.limit->ToCql();
  if (s.allow_filtering) out += " ALLOW FILTERING";
  return out;
}

std::string Print(const Insert& s) {
  std::string out = "INSERT INTO " + ToCql(s.table);
  if (s.json) {
    out += " JSON " + s.json_value.ToCql();
    if (s.default_unset) out += " DEFAULT UNSET";
  } else {
    out += " (" + Identifiers(s.columns) + ") VALUES (" + Join(s.values, ", ", TermText) + ")";
  }
  if (s.if_not_exists) out += " IF NOT EXISTS";
  return out + Using(s.using_attributes);
}

std::string Print(const Update& s) {
  return "UPDATE " + ToCql(s.table) + Using(s.using_attributes) + " SET " +
         Join(s.operations, ", ", OperationText) + WhereClause(s.where) +
         Conditions(s.if_exists, s.conditions);
}

std::string Print(const Delete& s) {
  std::string out = "DELETE ";
  if (!s.deletions.empty()) {
    out += Join(s.deletions, ", ", [](const Deletion& d) {
      std::string text = CqlIdentifier(d.column);
      if (d.element) text += "[" + d.element->ToCql() + "]";
      if (!d.field.empty()) text += "." + CqlIdentifier(d.field);
      return text;
    });
    out += " ";
  }
  out += "FROM " + ToCql(s.table);
  if (s.timestamp) out += " USING TIMESTAMP " + s.timestamp->ToCql();
  return out + WhereClause(s.where) + Conditions(s.if_exists, s.conditions);
}

std::string Print(const Batch& s) {
  std::string out = "BEGIN ";
  if (s.type == Batch::Type::kUnlogged) out += "UNLOGGED ";
  if (s.type == Batch::Type::kCounter) out += "COUNTER ";
  out += "BATCH" + Using(s.using_attributes);
  for (const auto& child : s.statements) {
    out += " " + std::visit([](const auto& c) { return Print(c); }, child) + ";";
  }
  return out + " APPLY BATCH";
}

std::string Print(const Use& s) { return "USE " + CqlIdentifier(s.keyspace); }

std::string Print(const Truncate& s) { return "TRUNCATE " + ToCql(s.table); }

std::string StringLiteral(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string Identifiers(const std::vector<std::string>& names) {
  return Join(names, ", ", [](const std::string& n) { return CqlIdentifier(n); });
}

std::string WithClause(std::vector<std::string> leading, const std::vector<Property>& properties) {
  for (const Property& p : properties) leading.push_back(cql::ToCql(p));
  if (leading.empty()) return std::string();
  return " WITH " + Join(leading, " AND ", [](const std::string& s) { return s; });
}

std::string PrimaryKey(const std::vector<std::string>& partition_key,
                       const std::vector<std::string>& clustering_columns) {
  std::string out = "PRIMARY KEY (";
  if (partition_key.size() == 1) {
    out += CqlIdentifier(partition_key[0]);
  } else {
    out += "(" + Identifiers(partition_key) + ")";
  }
  for (const std::string& c : clustering_columns) out += ", " + CqlIdentifier(c);
  return out + ")";
}

std::string ClusteringOrderClause(const std::vector<ClusteringOrder>& order) {
  if (order.empty()) return std::string();
  return "CLUSTERING ORDER BY (" +
         Join(order, ", ",
              [](const ClusteringOrder& o) {
                return CqlIdentifier(o.column) + (o.ascending ? " ASC" : " DESC");
              }) +
         ")";
}

std::string WhereClause(const std::vector<Relation>& relations) {
  if (relations.empty()) return std::string();
  return " WHERE " + Join(relations, " AND ", [](const Relation& r) { return cql::ToCql(r); });
}

std::string Selectors(const std::vector<Selector>& selectors) {
  if (selectors.empty()) return "*";
  return Join(selectors, ", ", [](const Selector& s) {
    std::string out = cql::ToCql(s.expression);
    if (!s.alias.empty()) out += " AS " + CqlIdentifier(s.alias);
    return out;
  });
}

}  // namespace printer

std::string ToCql(const QualifiedName& name) {
  std::string out = name.keyspace.empty() ? "" : CqlIdentifier(name.keyspace) + ".";
  return out + CqlIdentifier(name.name);
}

std::string ToCql(const Property& property) {
  std::string out = CqlIdentifier(property.name) + " = ";
  switch (property.value.kind) {
    case PropertyValue::Kind::kConstant:
      return out + Term(property.value.constant).ToCql();
    case PropertyValue::Kind::kKeyword:
      return out + property.value.constant.text;
    case PropertyValue::Kind::kMap:
      return out + "{" +
             printer::Join(property.value.entries, ", ",
                           [](const std::pair<Constant, Constant>& e) {
                             return Term(e.first).ToCql() + ": " + Term(e.second).ToCql();
                           }) +
             "}";
  }
  return out;
}

std::string ToCql(const Relation& r) {
  using printer::Join;
  std::string rhs = printer::RightHandSide(r.op, r.value, r.in_list, r.in_values);
  std::string op(OperatorToCql(r.op));
  switch (r.kind) {
    case Relation::Kind::kColumn: {
      std::string out = CqlIdentifier(r.columns.empty() ? "" : r.columns[0]);
      if (r.map_key) out += "[" + r.map_key->ToCql() + "]";
      return out + " " + op + " " + rhs;
    }
    case Relation::Kind::kToken:
      return "token(" + printer::Identifiers(r.columns) + ") " + op + " " + rhs;
    case Relation::Kind::kMultiColumn:
      return "(" + printer::Identifiers(r.columns) + ") " + op + " " + rhs;
    case Relation::Kind::kCustomIndex:
      return "expr(" + CqlIdentifier(r.columns.empty() ? "" : r.columns[0]) + ", " +
             r.value.ToCql() + ")";
  }
  return std::string();
}

std::string ToCql(const Selectable& s) {
  using printer::Join;
  auto args = [&s]() { return Join(s.args, ", ", [](const Selectable& a) { return ToCql(a); }); };
  auto operand = [&s]() { return s.args.empty() ? std::string() : ToCql(s.args[0]); };
  switch (s.kind) {
    case Selectable::Kind::kColumn:
      return CqlIdentifier(s.name);
    case Selectable::Kind::kTerm:
      return s.term ? s.term->ToCql() : "null";
    case Selectable::Kind::kFunction: {
      if (s.keyspace == "system") {
        const char* op = printer::InfixOperator(s.name);
        if (op != nullptr && s.args.size() == 2) {
          return ToCql(s.args[0]) + " " + op + " " + ToCql(s.args[1]);
        }
        if (s.name == "_negate" && s.args.size() == 1) return "- " + ToCql(s.args[0]);
      }
      std::string name = s.keyspace.empty() ? "" : CqlIdentifier(s.keyspace) + ".";
      return name + CqlFunctionName(s.name) + "(" + args() + ")";
    }
    case Selectable::Kind::kCountRows:
      return "count(*)";
    case Selectable::Kind::kWritetime:
      return "writetime(" + operand() + ")";
    case Selectable::Kind::kTtl:
      return "ttl(" + operand() + ")";
    case Selectable::Kind::kCast:
      return "CAST(" + operand() + " AS " + (s.type ? TypeToCql(*s.type) : "blob") + ")";
    case Selectable::Kind::kField:
      return operand() + "." + CqlIdentifier(s.name);
    case Selectable::Kind::kElement:
      return operand() + "[" + (s.term ? s.term->ToCql() : "null") + "]";
    case Selectable::Kind::kSlice:
      return operand() + "[" + (s.term ? s.term->ToCql() + " " : "") + ".." +
             (s.term2 ? " " + s.term2->ToCql() : "") + "]";
    case Selectable::Kind::kTypeHint:
      return "(" + (s.type ? TypeToCql(*s.type) : "blob") + ") " + operand();
    case Selectable::Kind::kTuple:
      return "(" + args() + ")";
    case Selectable::Kind::kList:
      return "[" + args() + "]";
    case Selectable::Kind::kSet:
      return "{" + args() + "}";
    case Selectable::Kind::kMap: {
      std::string out = "{";
      for (size_t i = 0; i + 1 < s.args.size(); i += 2) {
        if (i > 0) out += ", ";
        out += ToCql(s.args[i]) + ": " + ToCql(s.args[i + 1]);
      }
      return out + "}";
    }
  }
  return std::string();
}

std::string ToCql(const Statement& statement) {
  return std::visit([](const auto& s) { return printer::Print(s); }, statement);
}

}  // namespace cql
