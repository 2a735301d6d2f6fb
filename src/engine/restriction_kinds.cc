#include "engine/restriction_kinds.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "cql/parser/statement.h"
#include "schema/type_resolver.h"

namespace engine {

using common::Result;
using common::Status;
using cql::CqlType;
using cql::Operator;
using cql::Relation;

bool IsSliceOperator(Operator op) {
  return op == Operator::kLt || op == Operator::kLte || op == Operator::kGt || op == Operator::kGte;
}

bool IsStartOperator(Operator op) { return op == Operator::kGt || op == Operator::kGte; }

Result<ValueSet> PrepareValueSet(const Relation& relation, const CqlType& type,
                                 std::string_view receiver, BindCollector* binds) {
  ValueSet set;
  if (relation.op != Operator::kIn) {
    ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(relation.value, type, receiver, binds));
    set.values.push_back(std::move(v));
    return set;
  }
  if (relation.in_list) {
    for (const cql::Term& term : relation.in_values) {
      ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(term, type, receiver, binds));
      set.values.push_back(std::move(v));
    }
    return set;
  }
  ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(relation.value, CqlType::List(type),
                                                   fmt::format("in({})", receiver), binds));
  set.list = std::move(v);
  return set;
}

namespace {

Status UnsupportedRelation(const Relation& relation) {
  return Status::Invalid(fmt::format("Unsupported \"{}\" relation: {}",
                                     cql::OperatorToCql(relation.op), cql::ToCql(relation)));
}

// Cassandra refuses slices on durations: they have no total order.
Status CheckSliceType(const CqlType& type) {
  if (!schema::ReferencesDuration(type)) return Status::Ok();
  if (type.IsCollection()) {
    return Status::Invalid(
        "Slice restrictions are not supported on collections containing durations");
  }
  if (type.kind() == cql::TypeKind::kTuple) {
    return Status::Invalid("Slice restrictions are not supported on tuples containing durations");
  }
  if (type.kind() == cql::TypeKind::kUdt) {
    return Status::Invalid("Slice restrictions are not supported on UDTs containing durations");
  }
  return Status::Invalid("Slice restrictions are not supported on duration columns");
}

// CONTAINS, CONTAINS KEY and `m[k] = v`: checked here, prepared as filters later.
Status CheckElementRelation(const Relation& relation, const schema::ColumnMetadata& column) {
  std::string quoted = cql::QuoteIdentifierIfNeeded(column.name);
  if (relation.op == Operator::kContainsKey && column.type.kind() != cql::TypeKind::kMap) {
    return Status::Invalid(fmt::format("Cannot use CONTAINS KEY on non-map column {}", quoted));
  }
  if (relation.op == Operator::kContains && !column.type.IsCollection()) {
    return Status::Invalid(fmt::format("Cannot use CONTAINS on non-collection column {}", quoted));
  }
  if (relation.map_key) {
    if (column.type.kind() != cql::TypeKind::kMap) {
      return Status::Invalid(fmt::format("Column {} cannot be used as a map", quoted));
    }
    if (column.type.frozen()) {
      return Status::Invalid(fmt::format(
          "Map-entry equality predicates on frozen map column {} are not supported", quoted));
    }
  }
  return Status::Ok();
}

Status AddSlice(ColumnRestriction* r, const Relation& relation, ValueExpr value,
                std::string_view column) {
  bool is_start = IsStartOperator(relation.op);
  bool inclusive = relation.op == Operator::kGte || relation.op == Operator::kLte;
  std::optional<SliceBound>& bound = is_start ? r->start : r->end;
  if (r->eq_or_in) {
    return Status::Invalid(
        fmt::format("{} cannot be restricted by more than one relation if it includes {}", column,
                    r->is_in ? "a IN" : "an Equal"));
  }
  if (bound) {
    return Status::Invalid(fmt::format("More than one restriction was found for the {} bound on {}",
                                       is_start ? "start" : "end", column));
  }
  bound = SliceBound{std::move(value), inclusive};
  return Status::Ok();
}

Status AddEquality(ColumnRestriction* r, const Relation& relation, ValueSet values,
                   std::string_view column) {
  if (r->eq_or_in) {
    bool in = relation.op == Operator::kIn || r->is_in;
    return Status::Invalid(
        fmt::format("{} cannot be restricted by more than one relation if it includes {}", column,
                    in ? "a IN" : "an Equal"));
  }
  if (r->start || r->end) {
    return Status::Invalid(fmt::format(
        "Column \"{}\" cannot be restricted by both an equality and an inequality relation",
        column));
  }
  r->eq_or_in = std::move(values);
  r->is_in = relation.op == Operator::kIn;
  return Status::Ok();
}

// token(...) must name exactly the partition key columns, in order.
Status CheckTokenColumns(const std::vector<std::string>& columns,
                         const std::vector<std::string>& pk_names) {
  if (columns == pk_names) return Status::Ok();
  for (const std::string& name : pk_names) {
    if (std::find(columns.begin(), columns.end(), name) == columns.end()) {
      return Status::Invalid(
          "The token() function must be applied to all partition key components or none of "
          "them");
    }
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    if (std::find(columns.begin() + i + 1, columns.end(), columns[i]) != columns.end()) {
      return Status::Invalid("The token() function contains duplicate partition key components");
    }
  }
  if (columns.size() != pk_names.size()) {
    return Status::Invalid("The token() function must contains only partition key components");
  }
  std::vector<std::string> quoted;
  for (const std::string& n : pk_names) quoted.push_back(cql::QuoteIdentifierIfNeeded(n));
  return Status::Invalid(
      fmt::format("The token function arguments must be in the partition key order: {}",
                  fmt::join(quoted, ", ")));
}

}  // namespace

Status ColumnRestriction::Add(const Relation& relation, const schema::ColumnMetadata& column,
                              BindCollector* binds) {
  const std::string& name = column.name;
  std::string quoted = cql::QuoteIdentifierIfNeeded(name);
  switch (relation.op) {
    case Operator::kNeq:
      return UnsupportedRelation(relation);
    case Operator::kIsNot:
      return Status::Invalid(fmt::format("Unsupported restriction: {}", cql::ToCql(relation)));
    case Operator::kLike:
      return Status::Invalid(fmt::format(
          "LIKE restriction is only supported on properly indexed columns. {} is not valid.",
          cql::ToCql(relation)));
    default:
      break;
  }
  if (relation.map_key || relation.op == Operator::kContains ||
      relation.op == Operator::kContainsKey) {
    RETURN_IF_ERROR(CheckElementRelation(relation, column));
    others.push_back(&relation);
    return Status::Ok();
  }
  if (column.type.IsMultiCell() && column.type.IsCollection()) {
    return Status::Invalid(
        fmt::format("Collection column '{}' ({}) cannot be restricted by a '{}' relation", name,
                    column.type.ToCql(), cql::OperatorToCql(relation.op)));
  }
  if (IsSliceOperator(relation.op)) {
    RETURN_IF_ERROR(CheckSliceType(column.type));
    ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(relation.value, column.type, name, binds));
    return AddSlice(this, relation, std::move(v), quoted);
  }
  ASSIGN_OR_RETURN(ValueSet values, PrepareValueSet(relation, column.type, name, binds));
  return AddEquality(this, relation, std::move(values), quoted);
}

int TupleRestriction::first_column() const {
  if (equality != nullptr) return equality_columns[0];
  return start ? start->columns[0] : end->columns[0];
}

std::vector<int> TupleRestriction::columns() const {
  if (equality != nullptr) return equality_columns;
  if (start && end)
    return start->columns.size() >= end->columns.size() ? start->columns : end->columns;
  return start ? start->columns : end->columns;
}

Status TupleRestriction::Add(const Relation& relation, std::vector<int> columns,
                             const TableSchema& table) {
  std::string first = cql::QuoteIdentifierIfNeeded(table.column(columns[0]).name);
  if (relation.op == Operator::kNeq) return UnsupportedRelation(relation);
  if (relation.op == Operator::kEq || relation.op == Operator::kIn) {
    if (equality != nullptr || start || end) {
      return Status::Invalid(
          fmt::format("{} cannot be restricted by more than one relation if it includes {}", first,
                      equality != nullptr && equality->op == Operator::kIn ? "a IN" : "an Equal"));
    }
    equality = &relation;
    equality_columns = std::move(columns);
    return Status::Ok();
  }
  if (!IsSliceOperator(relation.op)) {
    return Status::Invalid(fmt::format("{} cannot be used for multi-column relations",
                                       cql::OperatorToCql(relation.op)));
  }
  if (equality != nullptr) {
    return Status::Invalid(
        fmt::format("{} cannot be restricted by more than one relation if it includes {}", first,
                    equality->op == Operator::kIn ? "a IN" : "an Equal"));
  }
  for (int column : columns) RETURN_IF_ERROR(CheckSliceType(table.column(column).type));
  if ((start || end) && first_column() != columns[0]) {
    int later = table.column(first_column()).position > table.column(columns[0]).position
                    ? first_column()
                    : columns[0];
    return Status::Invalid(
        fmt::format("Column \"{}\" cannot be restricted by two inequalities not starting with "
                    "the same column",
                    table.column(later).name));
  }
  bool is_start = IsStartOperator(relation.op);
  std::optional<TupleBound>& bound = is_start ? start : end;
  if (bound) {
    return Status::Invalid(fmt::format("More than one restriction was found for the {} bound on {}",
                                       is_start ? "start" : "end", first));
  }
  bound = TupleBound{&relation, std::move(columns)};
  return Status::Ok();
}

Status TokenRestriction::Add(const Relation& relation, const TableSchema& table,
                             BindCollector* binds) {
  std::vector<std::string> pk_names;
  for (int index : table.partition_key) pk_names.push_back(table.column(index).name);
  RETURN_IF_ERROR(CheckTokenColumns(relation.columns, pk_names));
  std::string columns = fmt::format("{}", fmt::join(pk_names, ", "));
  if (relation.op != Operator::kEq && !IsSliceOperator(relation.op)) {
    return UnsupportedRelation(relation);
  }
  ASSIGN_OR_RETURN(ValueExpr value, ValueExpr::Prepare(relation.value, CqlType::Bigint(),
                                                       "partition key token", binds));
  if (relation.op == Operator::kEq) {
    if (start || end) {
      return Status::Invalid(fmt::format(
          "Columns \"{}\" cannot be restricted by both an equality and an inequality relation",
          columns));
    }
    start = SliceBound{value, true};
    end = SliceBound{std::move(value), true};
    return Status::Ok();
  }
  bool is_start = IsStartOperator(relation.op);
  std::optional<SliceBound>& bound = is_start ? start : end;
  if (bound) {
    return Status::Invalid(fmt::format("More than one restriction was found for the {} bound on {}",
                                       is_start ? "start" : "end", columns));
  }
  bool inclusive = relation.op == Operator::kGte || relation.op == Operator::kLte;
  bound = SliceBound{std::move(value), inclusive};
  return Status::Ok();
}

}  // namespace engine
