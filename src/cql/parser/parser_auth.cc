// Roles, users, GRANT/REVOKE, LIST.

#include <algorithm>
#include <utility>

#include "cql/parser/parser_internal.h"

namespace cql::internal {
namespace {

bool IsPermissionToken(TokenKind kind) {
  switch (kind) {
    case TokenKind::kKCreate:
    case TokenKind::kKAlter:
    case TokenKind::kKDrop:
    case TokenKind::kKSelect:
    case TokenKind::kKModify:
    case TokenKind::kKAuthorize:
    case TokenKind::kKDescribe:
    case TokenKind::kKExecute:
      return true;
    default:
      return false;
  }
}

Permission PermissionOf(TokenKind kind) {
  switch (kind) {
    case TokenKind::kKCreate:
      return Permission::kCreate;
    case TokenKind::kKAlter:
      return Permission::kAlter;
    case TokenKind::kKDrop:
      return Permission::kDrop;
    case TokenKind::kKSelect:
      return Permission::kSelect;
    case TokenKind::kKModify:
      return Permission::kModify;
    case TokenKind::kKAuthorize:
      return Permission::kAuthorize;
    case TokenKind::kKDescribe:
      return Permission::kDescribe;
    default:
      return Permission::kExecute;
  }
}

// The permissions Cassandra's IResource.applicablePermissions() allows, and the resource
// class name used in its error message.
std::vector<Permission> ApplicablePermissions(const Resource& resource, const char** name) {
  using P = Permission;
  switch (resource.kind) {
    case Resource::Kind::kAllKeyspaces:
    case Resource::Kind::kKeyspace:
      *name = "DataResource";
      return {P::kCreate, P::kAlter, P::kDrop, P::kSelect, P::kModify, P::kAuthorize};
    case Resource::Kind::kTable:
      *name = "DataResource";
      return {P::kAlter, P::kDrop, P::kSelect, P::kModify, P::kAuthorize};
    case Resource::Kind::kAllRoles:
      *name = "RoleResource";
      return {P::kCreate, P::kAlter, P::kDrop, P::kAuthorize, P::kDescribe};
    case Resource::Kind::kRole:
      *name = "RoleResource";
      return {P::kAlter, P::kDrop, P::kAuthorize};
    case Resource::Kind::kAllFunctions:
    case Resource::Kind::kAllFunctionsInKeyspace:
      *name = "FunctionResource";
      return {P::kCreate, P::kAlter, P::kDrop, P::kAuthorize, P::kExecute};
    case Resource::Kind::kFunction:
      *name = "FunctionResource";
      return {P::kAlter, P::kDrop, P::kAuthorize, P::kExecute};
    default:
      *name = "JMXResource";
      return {P::kAuthorize, P::kDescribe, P::kExecute, P::kModify, P::kSelect};
  }
}

// A light version of javax.management.ObjectName's syntax: "domain:key=value,..." where a
// pattern may use '*' or '?' and a property list may end in '*'.
bool IsObjectName(std::string_view name, bool* is_pattern) {
  *is_pattern = name.find_first_of("*?") != std::string_view::npos;
  size_t colon = name.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view properties = name.substr(colon + 1);
  if (properties.empty()) return false;
  size_t start = 0;
  while (start <= properties.size()) {
    size_t end = properties.find(',', start);
    if (end == std::string_view::npos) end = properties.size();
    std::string_view property = properties.substr(start, end - start);
    if (property != "*") {
      size_t eq = property.find('=');
      if (eq == std::string_view::npos || eq == 0) return false;
    }
    start = end + 1;
  }
  return true;
}

}  // namespace

// roleOptions: roleOption (K_AND roleOption)*
Status Parser::ParseRoleOptions(RoleOptions* options) {
  auto duplicate = [this](const char* option) {
    return ThrownError(
        Status::SyntaxError(std::string("Multiple definition for property '") + option + "'"));
  };
  do {
    switch (PeekKind()) {
      case TokenKind::kKPassword: {
        Consume();
        RETURN_IF_ERROR(Expect(TokenKind::kEq));
        ASSIGN_OR_RETURN(std::string password, ParseStringLiteral());
        if (options->password) return duplicate("PASSWORD");
        options->password = std::move(password);
        break;
      }
      case TokenKind::kKOptions: {
        Consume();
        RETURN_IF_ERROR(Expect(TokenKind::kEq));
        ASSIGN_OR_RETURN(auto entries, ParsePropertyMap());
        if (options->options) return duplicate("OPTIONS");
        options->options = std::move(entries);
        break;
      }
      case TokenKind::kKSuperuser:
      case TokenKind::kKLogin: {
        bool superuser = At(TokenKind::kKSuperuser);
        Consume();
        RETURN_IF_ERROR(Expect(TokenKind::kEq));
        const Token& value = Peek();
        RETURN_IF_ERROR(Expect(TokenKind::kBoolean));
        bool flag = AsciiLower(Source(value)) == "true";
        std::optional<bool>& target = superuser ? options->superuser : options->login;
        if (target) return duplicate(superuser ? "SUPERUSER" : "LOGIN");
        target = flag;
        break;
      }
      case TokenKind::kKAccess: {
        Consume();
        RETURN_IF_ERROR(Expect(TokenKind::kKTo));
        bool all = Accept(TokenKind::kKAll);
        RETURN_IF_ERROR(Expect(TokenKind::kKDatacenters));
        std::vector<std::string> datacenters;
        if (!all) {
          RETURN_IF_ERROR(Expect(TokenKind::kLBrace));
          do {
            ASSIGN_OR_RETURN(std::string datacenter, ParseStringLiteral());
            datacenters.push_back(std::move(datacenter));
          } while (Accept(TokenKind::kComma));
          RETURN_IF_ERROR(Expect(TokenKind::kRBrace));
        }
        if (options->datacenter_access != RoleOptions::DatacenterAccess::kUnspecified) {
          return duplicate("ACCESS TO DATACENTERS");
        }
        options->datacenter_access =
            all ? RoleOptions::DatacenterAccess::kAll : RoleOptions::DatacenterAccess::kListed;
        options->datacenters = std::move(datacenters);
        break;
      }
      default:
        return NoViableAltError();
    }
  } while (Accept(TokenKind::kKAnd));
  return Status::Ok();
}

Result<Statement> Parser::ParseCreateRole() {
  Consume();  // CREATE
  Consume();  // ROLE
  CreateRole create;
  RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  ASSIGN_OR_RETURN(create.role, ParseRoleName());
  if (Accept(TokenKind::kKWith)) RETURN_IF_ERROR(ParseRoleOptions(&create.options));
  return Finish(std::move(create));
}

Result<Statement> Parser::ParseAlterRole() {
  Consume();  // ALTER
  Consume();  // ROLE
  AlterRole alter;
  RETURN_IF_ERROR(ParseIfExists(&alter.if_exists));
  ASSIGN_OR_RETURN(alter.role, ParseRoleName());
  if (Accept(TokenKind::kKWith)) RETURN_IF_ERROR(ParseRoleOptions(&alter.options));
  return Finish(std::move(alter));
}

Result<Statement> Parser::ParseDropRole() {
  Consume();  // DROP
  Consume();  // ROLE
  DropRole drop;
  RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
  ASSIGN_OR_RETURN(drop.role, ParseRoleName());
  return Finish(std::move(drop));
}

// username: IDENT | STRING_LITERAL | QUOTED_NAME (rejected); the case is kept.
Result<std::string> Parser::ParseUserName() {
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kIdent:
      Consume();
      return std::string(Source(token));
    case TokenKind::kStringLiteral:
      Consume();
      return Text(token);
    case TokenKind::kQuotedName:
      return RecognitionError(
          "Quoted strings are are not supported for user names and USER is deprecated, please "
          "use ROLE");
    default:
      return NoViableAltError();
  }
}

// (K_WITH K_PASSWORD STRING_LITERAL)? (K_SUPERUSER | K_NOSUPERUSER)?
Status Parser::ParseUserPasswordAndSuperuser(std::optional<std::string>* password,
                                             std::optional<bool>* superuser) {
  if (Accept(TokenKind::kKWith)) {
    RETURN_IF_ERROR(Expect(TokenKind::kKPassword));
    ASSIGN_OR_RETURN(std::string value, ParseStringLiteral());
    *password = std::move(value);
  }
  if (Accept(TokenKind::kKSuperuser)) {
    *superuser = true;
  } else if (Accept(TokenKind::kKNosuperuser)) {
    *superuser = false;
  }
  return Status::Ok();
}

Result<Statement> Parser::ParseCreateUser() {
  Consume();  // CREATE
  Consume();  // USER
  CreateUser create;
  RETURN_IF_ERROR(ParseIfNotExists(&create.if_not_exists));
  ASSIGN_OR_RETURN(create.user, ParseUserName());
  RETURN_IF_ERROR(ParseUserPasswordAndSuperuser(&create.password, &create.superuser));
  return Finish(std::move(create));
}

Result<Statement> Parser::ParseAlterUser() {
  Consume();  // ALTER
  Consume();  // USER
  AlterUser alter;
  RETURN_IF_ERROR(ParseIfExists(&alter.if_exists));
  ASSIGN_OR_RETURN(alter.user, ParseUserName());
  RETURN_IF_ERROR(ParseUserPasswordAndSuperuser(&alter.password, &alter.superuser));
  return Finish(std::move(alter));
}

Result<Statement> Parser::ParseDropUser() {
  Consume();  // DROP
  Consume();  // USER
  DropUser drop;
  RETURN_IF_ERROR(ParseIfExists(&drop.if_exists));
  ASSIGN_OR_RETURN(drop.user, ParseUserName());
  return Finish(std::move(drop));
}

// permissionOrAll: K_ALL K_PERMISSIONS? | permission K_PERMISSION? (',' permission ...)*
Result<PermissionSet> Parser::ParsePermissionOrAll() {
  PermissionSet set;
  if (Accept(TokenKind::kKAll)) {
    Accept(TokenKind::kKPermissions);
    set.all = true;
    return set;
  }
  do {
    TokenKind kind = PeekKind();
    if (!IsPermissionToken(kind)) return MismatchSetError();
    Consume();
    Accept(TokenKind::kKPermission);
    Permission permission = PermissionOf(kind);
    if (std::find(set.permissions.begin(), set.permissions.end(), permission) ==
        set.permissions.end()) {
      set.permissions.push_back(permission);
    }
  } while (Accept(TokenKind::kComma));
  std::sort(set.permissions.begin(), set.permissions.end());
  return set;
}

// resource: dataResource | roleResource | functionResource | jmxResource
Result<Resource> Parser::ParseResource() {
  Resource resource;
  TokenKind kind = PeekKind();
  TokenKind next = PeekKind(2);
  if (kind == TokenKind::kKAll && (next == TokenKind::kKKeyspaces || next == TokenKind::kKRoles ||
                                   next == TokenKind::kKFunctions || next == TokenKind::kKMbeans)) {
    Consume();
    Consume();
    if (next == TokenKind::kKKeyspaces) {
      resource.kind = Resource::Kind::kAllKeyspaces;
    } else if (next == TokenKind::kKRoles) {
      resource.kind = Resource::Kind::kAllRoles;
    } else if (next == TokenKind::kKMbeans) {
      resource.kind = Resource::Kind::kAllMBeans;
    } else if (Accept(TokenKind::kKIn)) {
      RETURN_IF_ERROR(Expect(TokenKind::kKKeyspace));
      resource.kind = Resource::Kind::kAllFunctionsInKeyspace;
      ASSIGN_OR_RETURN(resource.keyspace, ParseKeyspaceName());
    } else {
      resource.kind = Resource::Kind::kAllFunctions;
    }
    return resource;
  }
  if (kind == TokenKind::kKKeyspace || kind == TokenKind::kKSchema) {
    Consume();
    resource.kind = Resource::Kind::kKeyspace;
    ASSIGN_OR_RETURN(resource.keyspace, ParseKeyspaceName());
    return resource;
  }
  if (kind == TokenKind::kKRole &&
      (IsIdentToken(next) || next == TokenKind::kStringLiteral || next == TokenKind::kQmark)) {
    Consume();
    resource.kind = Resource::Kind::kRole;
    ASSIGN_OR_RETURN(resource.name, ParseRoleName());
    return resource;
  }
  if (kind == TokenKind::kKFunction &&
      (IsIdentToken(next) || next == TokenKind::kQmark || IsFunctionNameToken(next))) {
    Consume();
    resource.kind = Resource::Kind::kFunction;
    ASSIGN_OR_RETURN(QualifiedName name, ParseFunctionName());
    resource.keyspace = std::move(name.keyspace);
    resource.name = std::move(name.name);
    ASSIGN_OR_RETURN(resource.argument_types, ParseTypeList());
    return resource;
  }
  if ((kind == TokenKind::kKMbean || kind == TokenKind::kKMbeans) &&
      next == TokenKind::kStringLiteral) {
    Consume();
    resource.kind = kind == TokenKind::kKMbean ? Resource::Kind::kMBean : Resource::Kind::kMBeans;
    ASSIGN_OR_RETURN(resource.name, ParseStringLiteral());
    if (resource.name.empty()) return RecognitionError("Empty JMX object name supplied");
    if (resource.name == "*:*") {
      return RecognitionError("Please use ALL MBEANS instead of wildcard pattern");
    }
    bool is_pattern = false;
    if (!IsObjectName(resource.name, &is_pattern)) {
      return RecognitionError(resource.name + " is not a valid JMX object name");
    }
    if (resource.kind == Resource::Kind::kMBeans && !is_pattern) {
      return RecognitionError("Plural form used, but non-pattern JMX object name specified (" +
                              resource.name + ")");
    }
    return resource;
  }
  Accept(TokenKind::kKColumnfamily);
  resource.kind = Resource::Kind::kTable;
  ASSIGN_OR_RETURN(QualifiedName table, ParseColumnFamilyName());
  resource.keyspace = std::move(table.keyspace);
  resource.name = std::move(table.name);
  return resource;
}

Status Parser::CheckPermissionsApply(const PermissionSet& permissions, const Resource& resource) {
  if (permissions.all) return Status::Ok();
  const char* name = "";
  std::vector<Permission> applicable = ApplicablePermissions(resource, &name);
  for (Permission p : permissions.permissions) {
    if (std::find(applicable.begin(), applicable.end(), p) != applicable.end()) {
      return Status::Ok();
    }
  }
  return RecognitionError(std::string("Resource type ") + name +
                          " does not support any of the requested permissions");
}

bool Parser::StartsPermissionStatement() {
  TokenKind second = PeekKind(2);
  if (IsPermissionToken(second)) return true;
  if (second != TokenKind::kKAll) return false;
  TokenKind third = PeekKind(3);
  return third == TokenKind::kKPermissions || third == TokenKind::kKOn;
}

Result<Statement> Parser::ParseGrant() {
  Grant grant;
  if (StartsPermissionStatement()) {
    Consume();  // GRANT
    ASSIGN_OR_RETURN(grant.permissions, ParsePermissionOrAll());
    RETURN_IF_ERROR(Expect(TokenKind::kKOn));
    ASSIGN_OR_RETURN(grant.resource, ParseResource());
    RETURN_IF_ERROR(Expect(TokenKind::kKTo));
    ASSIGN_OR_RETURN(grant.grantee, ParseRoleName());
    RETURN_IF_ERROR(CheckPermissionsApply(grant.permissions, grant.resource));
    return Finish(std::move(grant));
  }
  Consume();  // GRANT
  grant.role_grant = true;
  ASSIGN_OR_RETURN(grant.role, ParseRoleName());
  RETURN_IF_ERROR(Expect(TokenKind::kKTo));
  ASSIGN_OR_RETURN(grant.grantee, ParseRoleName());
  return Finish(std::move(grant));
}

Result<Statement> Parser::ParseRevoke() {
  Revoke revoke;
  if (StartsPermissionStatement()) {
    Consume();  // REVOKE
    ASSIGN_OR_RETURN(revoke.permissions, ParsePermissionOrAll());
    RETURN_IF_ERROR(Expect(TokenKind::kKOn));
    ASSIGN_OR_RETURN(revoke.resource, ParseResource());
    RETURN_IF_ERROR(Expect(TokenKind::kKFrom));
    ASSIGN_OR_RETURN(revoke.revokee, ParseRoleName());
    RETURN_IF_ERROR(CheckPermissionsApply(revoke.permissions, revoke.resource));
    return Finish(std::move(revoke));
  }
  Consume();  // REVOKE
  revoke.role_revoke = true;
  ASSIGN_OR_RETURN(revoke.role, ParseRoleName());
  RETURN_IF_ERROR(Expect(TokenKind::kKFrom));
  ASSIGN_OR_RETURN(revoke.revokee, ParseRoleName());
  return Finish(std::move(revoke));
}

// LIST ROLES / LIST USERS / LIST permissions
Result<Statement> Parser::ParseList() {
  TokenKind second = PeekKind(2);
  if (second == TokenKind::kKUsers) {
    Consume();
    Consume();
    return Finish(ListUsers{});
  }
  if (second == TokenKind::kKRoles) {
    Consume();
    Consume();
    ListRoles list;
    if (Accept(TokenKind::kKOf)) {
      ASSIGN_OR_RETURN(std::string role, ParseRoleName());
      list.of_role = std::move(role);
    }
    if (Accept(TokenKind::kKNorecursive)) list.recursive = false;
    return Finish(std::move(list));
  }
  if (second != TokenKind::kKAll && !IsPermissionToken(second)) return NoViableAltError(2);
  Consume();  // LIST
  ListPermissions list;
  ASSIGN_OR_RETURN(list.permissions, ParsePermissionOrAll());
  if (Accept(TokenKind::kKOn)) {
    ASSIGN_OR_RETURN(Resource resource, ParseResource());
    list.resource = std::move(resource);
  }
  if (Accept(TokenKind::kKOf)) {
    ASSIGN_OR_RETURN(std::string role, ParseRoleName());
    list.of_role = std::move(role);
  }
  if (Accept(TokenKind::kKNorecursive)) list.recursive = false;
  return Finish(std::move(list));
}

}  // namespace cql::internal
