// Helpers shared by the DDL implementation files (ddl.cc, ddl_alter.cc). Not for other layers.
//
// Thread-safety: pure functions.

#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "common/clock.h"
#include "common/result.h"
#include "cql/statement.h"
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

// ALTER TABLE (ddl_alter.cc).
common::Result<DdlResult> AlterTable(const Catalog& current, const cql::AlterTable& stmt,
                                     std::string_view session_keyspace, const common::Clock& clock);

}  // namespace schema::internal
