// Internal helpers of the canonical CQL printer (`ToCql` in statement.h), shared by
// statement_printer.cc (statement parts, data statements, dispatch) and
// statement_printer_ddl.cc (schema and security statements).
//
// Thread-safety: pure functions.

#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cql/parser/statement.h"

namespace cql::printer {

// Joins `items` printed by `print` with `separator`.
template <typename T, typename F>
std::string Join(const std::vector<T>& items, std::string_view separator, F print) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += print(items[i]);
  }
  return out;
}

// 'text' with '' escapes.
std::string StringLiteral(std::string_view text);
// A comma-separated list of identifiers.
std::string Identifiers(const std::vector<std::string>& names);
// " WITH p = v AND ..." for `properties` preceded by `leading` clauses (each a full clause
// such as "CLUSTERING ORDER BY (c ASC)"); empty when there is nothing.
std::string WithClause(std::vector<std::string> leading, const std::vector<Property>& properties);
// "PRIMARY KEY (...)" from a partition key and clustering columns.
std::string PrimaryKey(const std::vector<std::string>& partition_key,
                       const std::vector<std::string>& clustering_columns);
// "CLUSTERING ORDER BY (...)", or "" when `order` is empty.
std::string ClusteringOrderClause(const std::vector<ClusteringOrder>& order);
// " WHERE r AND r ...", or "" when there are no relations.
std::string WhereClause(const std::vector<Relation>& relations);
// The selectors of a SELECT, or "*".
std::string Selectors(const std::vector<Selector>& selectors);

// Printers of the data statements (statement_printer.cc).
std::string Print(const Select& s);
std::string Print(const Insert& s);
std::string Print(const Update& s);
std::string Print(const Delete& s);
std::string Print(const Batch& s);
std::string Print(const Use& s);
std::string Print(const Truncate& s);

// Printers of the schema, security and DESCRIBE statements (statement_printer_ddl.cc).
std::string Print(const CreateKeyspace& s);
std::string Print(const AlterKeyspace& s);
std::string Print(const DropKeyspace& s);
std::string Print(const CreateTable& s);
std::string Print(const AlterTable& s);
std::string Print(const DropTable& s);
std::string Print(const CreateType& s);
std::string Print(const AlterType& s);
std::string Print(const DropType& s);
std::string Print(const CreateIndex& s);
std::string Print(const DropIndex& s);
std::string Print(const CreateMaterializedView& s);
std::string Print(const AlterMaterializedView& s);
std::string Print(const DropMaterializedView& s);
std::string Print(const CreateFunction& s);
std::string Print(const DropFunction& s);
std::string Print(const CreateAggregate& s);
std::string Print(const DropAggregate& s);
std::string Print(const CreateTrigger& s);
std::string Print(const DropTrigger& s);
std::string Print(const CreateRole& s);
std::string Print(const AlterRole& s);
std::string Print(const DropRole& s);
std::string Print(const CreateUser& s);
std::string Print(const AlterUser& s);
std::string Print(const DropUser& s);
std::string Print(const Grant& s);
std::string Print(const Revoke& s);
std::string Print(const ListRoles& s);
std::string Print(const ListUsers& s);
std::string Print(const ListPermissions& s);
std::string Print(const Describe& s);

}  // namespace cql::printer
