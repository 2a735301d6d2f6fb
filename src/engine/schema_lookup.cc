#include "engine/schema_lookup.h"

#include <fmt/format.h>

#include "schema/system_tables.h"
#include "schema/system_views.h"

namespace engine {

using common::Result;
using common::Status;

Result<std::string> ResolveKeyspace(const cql::QualifiedName& name,
                                    std::string_view session_keyspace) {
  if (!name.keyspace.empty()) return name.keyspace;
  if (session_keyspace.empty()) {
    return Status::Invalid(
        "No keyspace has been specified. USE a keyspace, or explicitly specify "
        "keyspace.tablename");
  }
  return std::string(session_keyspace);
}

Result<TableRef> LookupTable(const schema::Catalog& catalog, const cql::QualifiedName& name,
                             std::string_view session_keyspace) {
  ASSIGN_OR_RETURN(std::string keyspace, ResolveKeyspace(name, session_keyspace));
  TableRef ref;
  if (schema::IsSystemKeyspace(keyspace)) {
    ref.table = schema::FindSystemTable(keyspace, name.name);
    if (ref.table == nullptr) {
      if (catalog.FindKeyspace(keyspace) == nullptr && keyspace != schema::kSystemKeyspace &&
          keyspace != schema::kSystemSchemaKeyspace &&
          keyspace != schema::kSystemVirtualSchemaKeyspace &&
          keyspace != schema::kSystemViewsKeyspace) {
        return Status::Invalid(fmt::format("keyspace {} does not exist", keyspace));
      }
      return Status::Invalid(fmt::format("table {} does not exist", name.name));
    }
    ref.is_system = true;
    return ref;
  }
  const schema::KeyspaceMetadata* ks = catalog.FindKeyspace(keyspace);
  if (ks == nullptr) return Status::Invalid(fmt::format("keyspace {} does not exist", keyspace));
  ref.table = ks->FindTableOrView(name.name);
  if (ref.table == nullptr)
    return Status::Invalid(fmt::format("table {} does not exist", name.name));
  ref.is_view = ref.table->view.has_value();
  return ref;
}

}  // namespace engine
