// Helpers shared by the DDL implementation files (ddl.cc, ddl_alter.cc, ddl_type.cc,
// ddl_index.cc, ddl_view.cc). Not for other layers.
//
// Thread-safety: pure functions.

#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "common/result.h"
#include "cql/parser/statement.h"
#include "schema/catalog.h"
#include "schema/ddl.h"

namespace schema::internal {

inline constexpr std::string_view kNoKeyspaceMessage =
    "No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename";

// The keyspace `name` refers to: its own, else the session's; Invalid when neither is set.
inline common::Result<std::string> KeyspaceOf(const cql::QualifiedName& name,
                                              std::string_view session_keyspace) {
  if (!name.keyspace.empty()) return name.keyspace;
  if (session_keyspace.empty()) return common::Status::Invalid(std::string(kNoKeyspaceMessage));
  return std::string(session_keyspace);
}

inline DdlResult Changed(std::shared_ptr<const Catalog> catalog, ChangeType change,
                         ChangeTarget target, std::string keyspace, std::string name) {
  return DdlResult{std::move(catalog),
                   SchemaChange{change, target, std::move(keyspace), std::move(name)}};
}

// `ks.name` as Cassandra prints table and type names in messages (each part quoted if needed).
inline std::string QualifiedToString(std::string_view keyspace, std::string_view name) {
  return cql::QuoteIdentifierIfNeeded(keyspace) + "." + cql::QuoteIdentifierIfNeeded(name);
}

// Whether `properties` sets the property `name`.
inline bool HasProperty(const std::vector<cql::Property>& properties, std::string_view name) {
  for (const cql::Property& property : properties) {
    if (property.name == name) return true;
  }
  return false;
}

// ALTER KEYSPACE and ALTER TYPE (ddl_type.cc).
common::Result<DdlResult> AlterKeyspace(const Catalog& current, const cql::AlterKeyspace& stmt,
                                        std::string_view local_datacenter);
common::Result<DdlResult> AlterType(const Catalog& current, const cql::AlterType& stmt,
                                    std::string_view session_keyspace);

// CREATE [CUSTOM] INDEX and DROP INDEX (ddl_index.cc).
common::Result<DdlResult> CreateIndex(const Catalog& current, const cql::CreateIndex& stmt,
                                      std::string_view session_keyspace);
common::Result<DdlResult> DropIndex(const Catalog& current, const cql::DropIndex& stmt,
                                    std::string_view session_keyspace);

// A view's WHERE clause as Cassandra stores it in system_schema.views.where_clause:
// the relations printed as CQL, joined with " AND " (ddl_view.cc).
std::string WhereClauseText(const std::vector<cql::Relation>& where);

// CREATE / ALTER / DROP MATERIALIZED VIEW (ddl_view.cc).
common::Result<DdlResult> CreateView(const Catalog& current,
                                     const cql::CreateMaterializedView& stmt,
                                     std::string_view session_keyspace);
common::Result<DdlResult> AlterView(const Catalog& current, const cql::AlterMaterializedView& stmt,
                                    std::string_view session_keyspace);
common::Result<DdlResult> DropView(const Catalog& current, const cql::DropMaterializedView& stmt,
                                   std::string_view session_keyspace);

// ALTER TABLE (ddl_alter.cc).
common::Result<DdlResult> AlterTable(const Catalog& current, const cql::AlterTable& stmt,
                                     std::string_view session_keyspace, const common::Clock& clock);

}  // namespace schema::internal
