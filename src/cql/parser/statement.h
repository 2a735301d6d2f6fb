// Statement: the raw (parsed, schema-free) AST of one CQL statement, as the parser
// (`parser.h`) produces it and before prepare binds it to the schema (docs/dev/architecture.md §2).
//
// `Statement` is a std::variant with one struct per statement kind (statement_dml.h,
// statement_ddl.h, statement_auth.h); every struct compares with ==, so whole statements do.
// Every struct derives from `StatementBase`, which records the statement's bind markers
// (count and names, in source order) as PREPARE needs them.
//
// `ToCql` prints a statement back as canonical CQL: keywords upper case, identifiers quoted
// only when needed, one space between tokens, clauses in a fixed order, properties in source
// order. For every statement the parser accepts, `ParseStatement(ToCql(s)) == s`.
//
// Thread-safety: plain data; `ToCql` is a pure function.

#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cql/parser/statement_auth.h"
#include "cql/parser/statement_ddl.h"
#include "cql/parser/statement_dml.h"

namespace cql {

using Statement =
    std::variant<Select, Insert, Update, Delete, Batch, Use, Truncate, CreateKeyspace,
                 AlterKeyspace, DropKeyspace, CreateTable, AlterTable, DropTable, CreateType,
                 AlterType, DropType, CreateIndex, DropIndex, CreateMaterializedView,
                 AlterMaterializedView, DropMaterializedView, CreateFunction, DropFunction,
                 CreateAggregate, DropAggregate, CreateTrigger, DropTrigger, CreateRole, AlterRole,
                 DropRole, CreateUser, AlterUser, DropUser, Grant, Revoke, ListRoles,
                 ListPermissions, ListUsers, Describe>;

// The statement's bind marker names in source order ("" for `?`).
const std::vector<std::string>& BindMarkerNames(const Statement& statement);
// The number of bind markers of the statement.
inline int BindMarkerCount(const Statement& statement) {
  return static_cast<int>(BindMarkerNames(statement).size());
}

// Canonical CQL text of the statement, without a trailing ';'.
std::string ToCql(const Statement& statement);

// Canonical CQL of the parts, for error messages and other printers.
std::string ToCql(const Selectable& selectable);
std::string ToCql(const Relation& relation);
std::string ToCql(const Property& property);
// "ks.name" with quoting as needed, or "name" when there is no keyspace.
std::string ToCql(const QualifiedName& name);
// The CQL spelling of an operator: "=", "IN", "CONTAINS KEY", "IS NOT"...
std::string_view OperatorToCql(Operator op);
// "CREATE", "ALTER", ... as Cassandra names permissions.
std::string_view PermissionName(Permission permission);

}  // namespace cql
