// Canonical CQL printer: schema, security and DESCRIBE statements.

#include "cql/parser/statement_printer.h"
#include "cql/parser/token_kind.h"

namespace cql::printer {
namespace {

std::string IfNotExists(bool flag) { return flag ? "IF NOT EXISTS " : ""; }
std::string IfExists(bool flag) { return flag ? "IF EXISTS " : ""; }

std::string TypeNameText(const QualifiedName& name) {
  std::string out = name.keyspace.empty() ? "" : CqlIdentifier(name.keyspace) + ".";
  return out + CqlTypeName(name.name);
}

std::string FunctionNameText(const QualifiedName& name) {
  std::string out = name.keyspace.empty() ? "" : CqlIdentifier(name.keyspace) + ".";
  return out + CqlFunctionName(name.name);
}

std::string Types(const std::vector<CqlType>& types) {
  return Join(types, ", ", [](const CqlType& t) { return TypeToCql(t); });
}

std::string Column(const ColumnDefinition& c) {
  return CqlIdentifier(c.name) + " " + TypeToCql(c.type) + (c.is_static ? " STATIC" : "");
}

std::string Renames(const std::vector<std::pair<std::string, std::string>>& renames) {
  return Join(renames, " AND ", [](const std::pair<std::string, std::string>& r) {
    return CqlIdentifier(r.first) + " TO " + CqlIdentifier(r.second);
  });
}

// Role names print as identifiers (quoted when needed); "" only as a string.
std::string RoleName(const std::string& role) { return role.empty() ? "''" : CqlIdentifier(role); }

std::string RoleOptionsText(const RoleOptions& o) {
  std::vector<std::string> parts;
  if (o.password) parts.push_back("PASSWORD = " + StringLiteral(*o.password));
  if (o.login) parts.push_back(std::string("LOGIN = ") + (*o.login ? "true" : "false"));
  if (o.superuser) {
    parts.push_back(std::string("SUPERUSER = ") + (*o.superuser ? "true" : "false"));
  }
  if (o.options) {
    parts.push_back("OPTIONS = {" +
                    Join(*o.options, ", ",
                         [](const std::pair<Constant, Constant>& e) {
                           return Term(e.first).ToCql() + ": " + Term(e.second).ToCql();
                         }) +
                    "}");
  }
  if (o.datacenter_access == RoleOptions::DatacenterAccess::kAll) {
    parts.push_back("ACCESS TO ALL DATACENTERS");
  } else if (o.datacenter_access == RoleOptions::DatacenterAccess::kListed) {
    parts.push_back(
        "ACCESS TO DATACENTERS {" +
        Join(o.datacenters, ", ", [](const std::string& dc) { return StringLiteral(dc); }) + "}");
  }
  if (parts.empty()) return std::string();
  return " WITH " + Join(parts, " AND ", [](const std::string& p) { return p; });
}

std::string UserOptions(const std::optional<std::string>& password,
                        const std::optional<bool>& superuser) {
  std::string out;
  if (password) out += " WITH PASSWORD " + StringLiteral(*password);
  if (superuser) out += *superuser ? " SUPERUSER" : " NOSUPERUSER";
  return out;
}

std::string Permissions(const PermissionSet& set) {
  if (set.all) return "ALL PERMISSIONS";
  return Join(set.permissions, ", ", [](Permission p) { return std::string(PermissionName(p)); });
}

std::string ResourceText(const Resource& r) {
  switch (r.kind) {
    case Resource::Kind::kAllKeyspaces:
      return "ALL KEYSPACES";
    case Resource::Kind::kKeyspace:
      return "KEYSPACE " + CqlIdentifier(r.keyspace);
    case Resource::Kind::kTable:
      return "TABLE " + ToCql(QualifiedName{r.keyspace, r.name});
    case Resource::Kind::kAllRoles:
      return "ALL ROLES";
    case Resource::Kind::kRole:
      return "ROLE " + RoleName(r.name);
    case Resource::Kind::kAllFunctions:
      return "ALL FUNCTIONS";
    case Resource::Kind::kAllFunctionsInKeyspace:
      return "ALL FUNCTIONS IN KEYSPACE " + CqlIdentifier(r.keyspace);
    case Resource::Kind::kFunction:
      return "FUNCTION " + FunctionNameText(QualifiedName{r.keyspace, r.name}) + "(" +
             Types(r.argument_types) + ")";
    case Resource::Kind::kAllMBeans:
      return "ALL MBEANS";
    case Resource::Kind::kMBean:
      return "MBEAN " + StringLiteral(r.name);
    case Resource::Kind::kMBeans:
      return "MBEANS " + StringLiteral(r.name);
  }
  return std::string();
}

// DESCRIBE's generic form reads keywords specially: quote any keyword.
std::string DescribeName(const std::string& name) {
  if (LookupKeyword(name) != TokenKind::kIdent) return "\"" + name + "\"";
  return CqlIdentifier(name);
}

// A function body: $$...$$ when that reads better and is unambiguous, else a quoted string.
std::string Body(const std::string& body) {
  bool dollar_safe = body.find("$$") == std::string::npos && (body.empty() || body.back() != '$');
  if (dollar_safe &&
      (body.find('\'') != std::string::npos || body.find('\n') != std::string::npos)) {
    return "$$" + body + "$$";
  }
  return StringLiteral(body);
}

}  // namespace

std::string Print(const CreateKeyspace& s) {
  return "CREATE KEYSPACE " + IfNotExists(s.if_not_exists) + CqlIdentifier(s.keyspace) +
         WithClause({}, s.properties);
}

std::string Print(const AlterKeyspace& s) {
  return "ALTER KEYSPACE " + IfExists(s.if_exists) + CqlIdentifier(s.keyspace) +
         WithClause({}, s.properties);
}

std::string Print(const DropKeyspace& s) {
  return "DROP KEYSPACE " + IfExists(s.if_exists) + CqlIdentifier(s.keyspace);
}

std::string Print(const CreateTable& s) {
  std::vector<std::string> parts;
  for (const ColumnDefinition& c : s.columns) parts.push_back(Column(c));
  if (!s.partition_key.empty()) parts.push_back(PrimaryKey(s.partition_key, s.clustering_columns));
  std::vector<std::string> leading;
  if (!s.clustering_order.empty()) leading.push_back(ClusteringOrderClause(s.clustering_order));
  if (s.compact_storage) leading.push_back("COMPACT STORAGE");
  return "CREATE TABLE " + IfNotExists(s.if_not_exists) + ToCql(s.table) + " (" +
         Join(parts, ", ", [](const std::string& p) { return p; }) + ")" +
         WithClause(std::move(leading), s.properties);
}

std::string Print(const AlterTable& s) {
  std::string out = "ALTER TABLE " + IfExists(s.if_exists) + ToCql(s.table) + " ";
  switch (s.kind) {
    case AlterTable::Kind::kAlterColumnType:
      return out + "ALTER " + CqlIdentifier(s.column) + " TYPE " + TypeToCql(s.type);
    case AlterTable::Kind::kAddColumns:
      out += "ADD " + IfNotExists(s.if_column_not_exists);
      if (s.added_columns.size() == 1) return out + Column(s.added_columns[0]);
      return out + "(" + Join(s.added_columns, ", ", Column) + ")";
    case AlterTable::Kind::kDropColumns:
      out += "DROP " + IfExists(s.if_column_exists);
      if (s.dropped_columns.size() == 1) {
        out += CqlIdentifier(s.dropped_columns[0]);
      } else {
        out += "(" + Identifiers(s.dropped_columns) + ")";
      }
      if (s.drop_timestamp) out += " USING TIMESTAMP " + std::to_string(*s.drop_timestamp);
      return out;
    case AlterTable::Kind::kRenameColumns:
      return out + "RENAME " + IfExists(s.if_column_exists) + Renames(s.renames);
    case AlterTable::Kind::kWithOptions:
      return out + WithClause({}, s.properties).substr(1);
    case AlterTable::Kind::kDropCompactStorage:
      return out + "DROP COMPACT STORAGE";
  }
  return out;
}

std::string Print(const DropTable& s) {
  return "DROP TABLE " + IfExists(s.if_exists) + ToCql(s.table);
}

std::string Print(const CreateType& s) {
  return "CREATE TYPE " + IfNotExists(s.if_not_exists) + TypeNameText(s.type) + " (" +
         Join(s.fields, ", ",
              [](const UserTypeField& f) {
                return CqlIdentifier(f.name) + " " + TypeToCql(f.type);
              }) +
         ")";
}

std::string Print(const AlterType& s) {
  std::string out = "ALTER TYPE " + IfExists(s.if_exists) + TypeNameText(s.type) + " ";
  switch (s.kind) {
    case AlterType::Kind::kAlterFieldType:
      return out + "ALTER " + CqlIdentifier(s.field) + " TYPE " + TypeToCql(s.field_type);
    case AlterType::Kind::kAddField:
      return out + "ADD " + IfNotExists(s.if_field_not_exists) + CqlIdentifier(s.field) + " " +
             TypeToCql(s.field_type);
    case AlterType::Kind::kRenameFields:
      return out + "RENAME " + IfExists(s.if_field_exists) + Renames(s.renames);
  }
  return out;
}

std::string Print(const DropType& s) {
  return "DROP TYPE " + IfExists(s.if_exists) + TypeNameText(s.type);
}

std::string Print(const CreateIndex& s) {
  std::string out = std::string("CREATE ") + (s.custom ? "CUSTOM " : "") + "INDEX " +
                    IfNotExists(s.if_not_exists);
  if (!s.name.empty()) out += CqlIdentifier(s.name) + " ";
  out += "ON " + ToCql(s.table) + " (" +
         Join(s.targets, ", ",
              [](const IndexTarget& t) {
                std::string column = CqlIdentifier(t.column);
                switch (t.kind) {
                  case IndexTarget::Kind::kValues:
                    return "values(" + column + ")";
                  case IndexTarget::Kind::kKeys:
                    return "keys(" + column + ")";
                  case IndexTarget::Kind::kEntries:
                    return "entries(" + column + ")";
                  case IndexTarget::Kind::kFull:
                    return "full(" + column + ")";
                  default:
                    return column;
                }
              }) +
         ")";
  if (s.using_class) out += " USING " + StringLiteral(*s.using_class);
  return out + WithClause({}, s.properties);
}

std::string Print(const DropIndex& s) {
  return "DROP INDEX " + IfExists(s.if_exists) + ToCql(s.index);
}

std::string Print(const CreateMaterializedView& s) {
  std::vector<std::string> leading;
  if (!s.clustering_order.empty()) leading.push_back(ClusteringOrderClause(s.clustering_order));
  return "CREATE MATERIALIZED VIEW " + IfNotExists(s.if_not_exists) + ToCql(s.view) +
         " AS SELECT " + Selectors(s.selectors) + " FROM " + ToCql(s.base_table) +
         WhereClause(s.where) + " " + PrimaryKey(s.partition_key, s.clustering_columns) +
         WithClause(std::move(leading), s.properties);
}

std::string Print(const AlterMaterializedView& s) {
  return "ALTER MATERIALIZED VIEW " + IfExists(s.if_exists) + ToCql(s.view) +
         WithClause({}, s.properties);
}

std::string Print(const DropMaterializedView& s) {
  return "DROP MATERIALIZED VIEW " + IfExists(s.if_exists) + ToCql(s.view);
}

std::string Print(const CreateFunction& s) {
  std::string arguments;
  for (size_t i = 0; i < s.argument_names.size() && i < s.argument_types.size(); ++i) {
    if (i > 0) arguments += ", ";
    arguments += CqlIdentifier(s.argument_names[i]) + " " + TypeToCql(s.argument_types[i]);
  }
  return std::string("CREATE ") + (s.or_replace ? "OR REPLACE " : "") + "FUNCTION " +
         IfNotExists(s.if_not_exists) + FunctionNameText(s.function) + "(" + arguments + ") " +
         (s.called_on_null_input ? "CALLED" : "RETURNS NULL") + " ON NULL INPUT RETURNS " +
         TypeToCql(s.return_type) + " LANGUAGE " + s.language + " AS " + Body(s.body);
}

std::string Print(const DropFunction& s) {
  std::string out = "DROP FUNCTION " + IfExists(s.if_exists) + FunctionNameText(s.function);
  if (s.arguments_specified) out += "(" + Types(s.argument_types) + ")";
  return out;
}

std::string Print(const CreateAggregate& s) {
  std::string out = std::string("CREATE ") + (s.or_replace ? "OR REPLACE " : "") + "AGGREGATE " +
                    IfNotExists(s.if_not_exists) + FunctionNameText(s.aggregate) + "(" +
                    Types(s.argument_types) + ") SFUNC " + CqlFunctionName(s.state_function) +
                    " STYPE " + TypeToCql(s.state_type);
  if (s.final_function) out += " FINALFUNC " + CqlFunctionName(*s.final_function);
  if (s.initial_condition) out += " INITCOND " + s.initial_condition->ToCql();
  return out;
}

std::string Print(const DropAggregate& s) {
  std::string out = "DROP AGGREGATE " + IfExists(s.if_exists) + FunctionNameText(s.aggregate);
  if (s.arguments_specified) out += "(" + Types(s.argument_types) + ")";
  return out;
}

std::string Print(const CreateTrigger& s) {
  return "CREATE TRIGGER " + IfNotExists(s.if_not_exists) + CqlIdentifier(s.name) + " ON " +
         ToCql(s.table) + " USING " + StringLiteral(s.using_class);
}

std::string Print(const DropTrigger& s) {
  return "DROP TRIGGER " + IfExists(s.if_exists) + CqlIdentifier(s.name) + " ON " + ToCql(s.table);
}

std::string Print(const CreateRole& s) {
  return "CREATE ROLE " + IfNotExists(s.if_not_exists) + RoleName(s.role) +
         RoleOptionsText(s.options);
}

std::string Print(const AlterRole& s) {
  return "ALTER ROLE " + IfExists(s.if_exists) + RoleName(s.role) + RoleOptionsText(s.options);
}

std::string Print(const DropRole& s) {
  return "DROP ROLE " + IfExists(s.if_exists) + RoleName(s.role);
}

std::string Print(const CreateUser& s) {
  return "CREATE USER " + IfNotExists(s.if_not_exists) + StringLiteral(s.user) +
         UserOptions(s.password, s.superuser);
}

std::string Print(const AlterUser& s) {
  return "ALTER USER " + IfExists(s.if_exists) + StringLiteral(s.user) +
         UserOptions(s.password, s.superuser);
}

std::string Print(const DropUser& s) {
  return "DROP USER " + IfExists(s.if_exists) + StringLiteral(s.user);
}

std::string Print(const Grant& s) {
  if (s.role_grant) return "GRANT " + RoleName(s.role) + " TO " + RoleName(s.grantee);
  return "GRANT " + Permissions(s.permissions) + " ON " + ResourceText(s.resource) + " TO " +
         RoleName(s.grantee);
}

std::string Print(const Revoke& s) {
  if (s.role_revoke) return "REVOKE " + RoleName(s.role) + " FROM " + RoleName(s.revokee);
  return "REVOKE " + Permissions(s.permissions) + " ON " + ResourceText(s.resource) + " FROM " +
         RoleName(s.revokee);
}

std::string Print(const ListRoles& s) {
  std::string out = "LIST ROLES";
  if (s.of_role) out += " OF " + RoleName(*s.of_role);
  if (!s.recursive) out += " NORECURSIVE";
  return out;
}

std::string Print(const ListUsers&) { return "LIST USERS"; }

std::string Print(const ListPermissions& s) {
  std::string out = "LIST " + Permissions(s.permissions);
  if (s.resource) out += " ON " + ResourceText(*s.resource);
  if (s.of_role) out += " OF " + RoleName(*s.of_role);
  if (!s.recursive) out += " NORECURSIVE";
  return out;
}

std::string Print(const Describe& s) {
  std::string out = "DESCRIBE ";
  switch (s.kind) {
    case Describe::Kind::kCluster:
      out += "CLUSTER";
      break;
    case Describe::Kind::kSchema:
      out += s.full ? "FULL SCHEMA" : "SCHEMA";
      break;
    case Describe::Kind::kKeyspaces:
      out += "KEYSPACES";
      break;
    case Describe::Kind::kKeyspace:
      out += s.only ? "ONLY KEYSPACE" : "KEYSPACE";
      if (!s.name.keyspace.empty()) out += " " + CqlIdentifier(s.name.keyspace);
      break;
    case Describe::Kind::kTables:
      out += "TABLES";
      break;
    case Describe::Kind::kTable:
      out += "TABLE " + ToCql(s.name);
      break;
    case Describe::Kind::kIndex:
      out += "INDEX " + ToCql(s.name);
      break;
    case Describe::Kind::kMaterializedView:
      out += "MATERIALIZED VIEW " + ToCql(s.name);
      break;
    case Describe::Kind::kTypes:
      out += "TYPES";
      break;
    case Describe::Kind::kType:
      out += "TYPE " + TypeNameText(s.name);
      break;
    case Describe::Kind::kFunctions:
      out += "FUNCTIONS";
      break;
    case Describe::Kind::kFunction:
      out += "FUNCTION " + FunctionNameText(s.name);
      break;
    case Describe::Kind::kAggregates:
      out += "AGGREGATES";
      break;
    case Describe::Kind::kAggregate:
      out += "AGGREGATE " + FunctionNameText(s.name);
      break;
    case Describe::Kind::kGeneric:
      if (!s.name.keyspace.empty()) out += DescribeName(s.name.keyspace) + ".";
      out += DescribeName(s.name.name);
      break;
  }
  if (s.with_internals) out += " WITH INTERNALS";
  return out;
}

}  // namespace cql::printer
