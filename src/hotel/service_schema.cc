#include "hotel/service_schema.h"

#include <fmt/format.h>

#include "hotel/service_schema_text.h"

namespace hotel {

namespace {

// schema/hotel_service.cql, compiled in by the build (src/hotel/CMakeLists.txt generates
// hotel/service_schema_text.h from it), so the file is the only copy of the text.
constexpr std::string_view kSchema = kServiceSchemaText;

void ReplaceAll(std::string& text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// Columns added to a table of schema/hotel_service.cql after the table was first released:
// CREATE TABLE IF NOT EXISTS leaves an older database's table as it was, so
// `AddMissingColumns` adds these to it (Cassandra 4 has no ALTER TABLE ... ADD IF NOT EXISTS).
struct AddedColumn {
  std::string_view keyspace;  // "hotel" or "reservation", before the prefix
  std::string_view table;
  std::string_view column;
  std::string_view type;
};
constexpr AddedColumn kAddedColumns[] = {
    // The reservation lifecycle: the status on the Q7 and Q8 rows.
    {"reservation", "reservations_by_hotel_date", "status", "text"},
    {"reservation", "reservations_by_guest", "status", "text"},
};

// Adds each of kAddedColumns its table lacks: one single-partition read of
// system_schema.columns per column, then ALTER TABLE ... ADD.
common::Status AddMissingColumns(cql::Session& session, std::string_view prefix) {
  for (const AddedColumn& added : kAddedColumns) {
    std::string keyspace = std::string(prefix) + std::string(added.keyspace);
    auto found = session.Execute(
        fmt::format("SELECT column_name FROM system_schema.columns WHERE keyspace_name = '{}' AND "
                    "table_name = '{}' AND column_name = '{}'",
                    keyspace, added.table, added.column));
    if (!found.ok()) return found.status().WithPrefix("reading system_schema.columns: ");
    if (found->row_count() > 0) continue;
    std::string alter =
        fmt::format("ALTER TABLE {}.{} ADD {} {}", keyspace, added.table, added.column, added.type);
    auto altered = session.Execute(alter);
    if (!altered.ok()) return altered.status().WithPrefix(alter + ": ");
  }
  return common::Status::Ok();
}

}  // namespace

common::Result<Keyspaces> KeyspacesForPrefix(std::string_view prefix) {
  if (prefix.size() > 24) {
    return common::Status::Invalid("Keyspace prefix '" + std::string(prefix) +
                                   "' is longer than 24 characters");
  }
  for (char c : prefix) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
      return common::Status::Invalid("Keyspace prefix '" + std::string(prefix) +
                                     "' may only hold a-z, 0-9 and _");
    }
  }
  if (!prefix.empty() && prefix[0] >= '0' && prefix[0] <= '9') {
    return common::Status::Invalid("Keyspace prefix '" + std::string(prefix) +
                                   "' must not start with a digit");
  }
  return Keyspaces{std::string(prefix) + "hotel", std::string(prefix) + "reservation"};
}

std::string_view ServiceSchemaTemplate() { return kSchema; }

common::Result<std::vector<std::string>> ServiceSchemaStatements(std::string_view prefix,
                                                                 std::string_view replication) {
  RETURN_IF_ERROR(KeyspacesForPrefix(prefix));
  // Drop comment lines, then split at ';' (the schema has no ';' inside strings).
  std::string text;
  size_t begin = 0;
  while (begin < kSchema.size()) {
    size_t end = kSchema.find('\n', begin);
    if (end == std::string_view::npos) end = kSchema.size();
    std::string_view line = kSchema.substr(begin, end - begin);
    if (line.substr(0, 2) != "--") {
      text.append(line);
      text.push_back('\n');
    }
    begin = end + 1;
  }
  ReplaceAll(text, "${prefix}", prefix);
  ReplaceAll(text, "${replication}", replication);
  std::vector<std::string> statements;
  size_t start = 0;
  for (size_t semicolon = text.find(';'); semicolon != std::string::npos;
       semicolon = text.find(';', start)) {
    std::string statement = text.substr(start, semicolon - start);
    size_t first = statement.find_first_not_of(" \n\t");
    if (first != std::string::npos) statements.push_back(statement.substr(first));
    start = semicolon + 1;
  }
  return statements;
}

common::Status CreateServiceSchema(cql::Session& session, std::string_view prefix,
                                   std::string_view replication) {
  ASSIGN_OR_RETURN(std::vector<std::string> statements,
                   ServiceSchemaStatements(prefix, replication));
  for (const std::string& statement : statements) {
    auto result = session.Execute(statement);
    if (!result.ok()) return result.status().WithPrefix(statement + ": ");
  }
  return AddMissingColumns(session, prefix);
}

}  // namespace hotel
