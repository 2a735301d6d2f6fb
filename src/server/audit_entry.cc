#include "server/audit_entry.h"

#include <array>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include "common/ascii.h"
#include "engine/tracing.h"

namespace server {
namespace {

constexpr std::array<std::string_view, kAuditCategoryCount> kCategoryNames = {
    "QUERY", "DML", "DDL", "DCL", "OTHER", "AUTH", "ERROR", "PREPARE"};

struct TypeInfo {
  std::string_view name;
  AuditCategory category;
};

// Indexed by AuditType.
constexpr TypeInfo kTypes[] = {
    {"SELECT", AuditCategory::kQuery},
    {"UPDATE", AuditCategory::kDml},
    {"DELETE", AuditCategory::kDml},
    {"TRUNCATE", AuditCategory::kDdl},
    {"CREATE_KEYSPACE", AuditCategory::kDdl},
    {"ALTER_KEYSPACE", AuditCategory::kDdl},
    {"DROP_KEYSPACE", AuditCategory::kDdl},
    {"CREATE_TABLE", AuditCategory::kDdl},
    {"DROP_TABLE", AuditCategory::kDdl},
    {"PREPARE_STATEMENT", AuditCategory::kPrepare},
    {"DROP_TRIGGER", AuditCategory::kDdl},
    {"LIST_USERS", AuditCategory::kDcl},
    {"CREATE_INDEX", AuditCategory::kDdl},
    {"DROP_INDEX", AuditCategory::kDdl},
    {"GRANT", AuditCategory::kDcl},
    {"REVOKE", AuditCategory::kDcl},
    {"CREATE_TYPE", AuditCategory::kDdl},
    {"DROP_AGGREGATE", AuditCategory::kDdl},
    {"ALTER_VIEW", AuditCategory::kDdl},
    {"CREATE_VIEW", AuditCategory::kDdl},
    {"DROP_ROLE", AuditCategory::kDcl},
    {"CREATE_FUNCTION", AuditCategory::kDdl},
    {"ALTER_TABLE", AuditCategory::kDdl},
    {"BATCH", AuditCategory::kDml},
    {"CREATE_AGGREGATE", AuditCategory::kDdl},
    {"DROP_VIEW", AuditCategory::kDdl},
    {"DROP_TYPE", AuditCategory::kDdl},
    {"DROP_FUNCTION", AuditCategory::kDdl},
    {"ALTER_ROLE", AuditCategory::kDcl},
    {"CREATE_TRIGGER", AuditCategory::kDdl},
    {"LIST_ROLES", AuditCategory::kDcl},
    {"LIST_PERMISSIONS", AuditCategory::kDcl},
    {"ALTER_TYPE", AuditCategory::kDdl},
    {"CREATE_ROLE", AuditCategory::kDcl},
    {"USE_KEYSPACE", AuditCategory::kOther},
    {"DESCRIBE", AuditCategory::kOther},
    {"REQUEST_FAILURE", AuditCategory::kError},
    {"LOGIN_ERROR", AuditCategory::kAuth},
    {"UNAUTHORIZED_ATTEMPT", AuditCategory::kAuth},
    {"LOGIN_SUCCESS", AuditCategory::kAuth},
};
static_assert(std::size(kTypes) == static_cast<size_t>(AuditType::kLoginSuccess) + 1);

AuditStatement Of(AuditType type, std::string keyspace = "", std::string scope = "") {
  AuditStatement statement;
  statement.type = type;
  statement.keyspace = std::move(keyspace);
  statement.scope = std::move(scope);
  return statement;
}

AuditStatement On(AuditType type, const cql::QualifiedName& name) {
  return Of(type, name.keyspace, name.name);
}

// The statement kinds that name a table (or view) the same way.
template <typename T>
constexpr bool kNamesTable =
    std::is_same_v<T, cql::Select> || std::is_same_v<T, cql::Truncate> ||
    std::is_same_v<T, cql::CreateTable> || std::is_same_v<T, cql::AlterTable> ||
    std::is_same_v<T, cql::DropTable>;

template <typename T>
AuditType TableType() {
  if constexpr (std::is_same_v<T, cql::Select>) return AuditType::kSelect;
  if constexpr (std::is_same_v<T, cql::Truncate>) return AuditType::kTruncate;
  if constexpr (std::is_same_v<T, cql::CreateTable>) return AuditType::kCreateTable;
  if constexpr (std::is_same_v<T, cql::AlterTable>) return AuditType::kAlterTable;
  return AuditType::kDropTable;
}

// DDL on objects other than tables and keyspaces, and DCL.
struct OtherStatements {
  AuditStatement operator()(const cql::CreateType& s) const {
    return On(AuditType::kCreateType, s.type);
  }
  AuditStatement operator()(const cql::AlterType& s) const {
    return On(AuditType::kAlterType, s.type);
  }
  AuditStatement operator()(const cql::DropType& s) const {
    return On(AuditType::kDropType, s.type);
  }
  AuditStatement operator()(const cql::CreateIndex& s) const {
    return Of(AuditType::kCreateIndex, s.table.keyspace, s.name.empty() ? s.table.name : s.name);
  }
  AuditStatement operator()(const cql::DropIndex& s) const {
    return On(AuditType::kDropIndex, s.index);
  }
  AuditStatement operator()(const cql::CreateMaterializedView& s) const {
    return On(AuditType::kCreateView, s.view);
  }
  AuditStatement operator()(const cql::AlterMaterializedView& s) const {
    return On(AuditType::kAlterView, s.view);
  }
  AuditStatement operator()(const cql::DropMaterializedView& s) const {
    return On(AuditType::kDropView, s.view);
  }
  AuditStatement operator()(const cql::CreateFunction& s) const {
    return On(AuditType::kCreateFunction, s.function);
  }
  AuditStatement operator()(const cql::DropFunction& s) const {
    return On(AuditType::kDropFunction, s.function);
  }
  AuditStatement operator()(const cql::CreateAggregate& s) const {
    return On(AuditType::kCreateAggregate, s.aggregate);
  }
  AuditStatement operator()(const cql::DropAggregate& s) const {
    return On(AuditType::kDropAggregate, s.aggregate);
  }
  AuditStatement operator()(const cql::CreateTrigger& s) const {
    return Of(AuditType::kCreateTrigger, s.table.keyspace, s.name);
  }
  AuditStatement operator()(const cql::DropTrigger& s) const {
    return Of(AuditType::kDropTrigger, s.table.keyspace, s.name);
  }
  // Roles: Cassandra's USER statements are ROLE statements.
  AuditStatement operator()(const cql::CreateRole&) const { return Of(AuditType::kCreateRole); }
  AuditStatement operator()(const cql::CreateUser&) const { return Of(AuditType::kCreateRole); }
  AuditStatement operator()(const cql::AlterRole&) const { return Of(AuditType::kAlterRole); }
  AuditStatement operator()(const cql::AlterUser&) const { return Of(AuditType::kAlterRole); }
  AuditStatement operator()(const cql::DropRole&) const { return Of(AuditType::kDropRole); }
  AuditStatement operator()(const cql::DropUser&) const { return Of(AuditType::kDropRole); }
  AuditStatement operator()(const cql::Grant&) const { return Of(AuditType::kGrant); }
  AuditStatement operator()(const cql::Revoke&) const { return Of(AuditType::kRevoke); }
  AuditStatement operator()(const cql::ListRoles&) const { return Of(AuditType::kListRoles); }
  AuditStatement operator()(const cql::ListUsers&) const { return Of(AuditType::kListUsers); }
  AuditStatement operator()(const cql::ListPermissions&) const {
    return Of(AuditType::kListPermissions);
  }
};

// Whether `text` at `at` starts the quoted part of a statement: a quote or `$$`, possibly after
// spaces, '=', ':' or an error snippet's '['.
bool QuoteFollows(std::string_view text, size_t at) {
  while (at < text.size() &&
         (text[at] == ' ' || text[at] == '\t' || text[at] == '=' || text[at] == ':' ||
          text[at] == '[' || text[at] == '\n' || text[at] == '\r')) {
    ++at;
  }
  if (at >= text.size()) return false;
  if (text.substr(at, 5) == "'***'") return false;  // already redacted
  return text[at] == '\'' || text.substr(at, 2) == "$$";
}

bool IsWordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::string_view AuditCategoryName(AuditCategory category) {
  return kCategoryNames[static_cast<size_t>(category)];
}

std::optional<AuditCategory> ParseAuditCategory(std::string_view name) {
  const std::string upper = common::AsciiUpper(name);
  for (size_t i = 0; i < kCategoryNames.size(); ++i) {
    if (kCategoryNames[i] == upper) return static_cast<AuditCategory>(i);
  }
  return std::nullopt;
}

std::string_view AuditTypeName(AuditType type) { return kTypes[static_cast<size_t>(type)].name; }

AuditCategory CategoryOf(AuditType type) { return kTypes[static_cast<size_t>(type)].category; }

std::string FormatAuditEntry(const AuditEntry& entry, std::string_view host) {
  std::string line;
  line.reserve(160 + entry.operation.size());
  fmt::format_to(std::back_inserter(line), "user:{}|host:{}|source:/{}",
                 entry.user ? std::string_view(*entry.user) : std::string_view("null"), host,
                 entry.source);
  if (entry.port > 0) fmt::format_to(std::back_inserter(line), "|port:{}", entry.port);
  fmt::format_to(std::back_inserter(line), "|timestamp:{}|type:{}|category:{}",
                 entry.timestamp_millis, AuditTypeName(entry.type),
                 AuditCategoryName(CategoryOf(entry.type)));
  if (entry.batch) line += "|batch:" + entry.batch->ToString();
  if (!entry.keyspace.empty()) line += "|ks:" + entry.keyspace;
  if (!entry.scope.empty()) line += "|scope:" + entry.scope;
  if (!entry.operation.empty()) {
    const size_t start = line.size();
    line += "|operation:" + entry.operation;
    for (size_t i = start; i < line.size(); ++i) {
      if (line[i] == '\n' || line[i] == '\r') line[i] = ' ';
    }
  }
  return line;
}

AuditStatement ClassifyStatement(const cql::Statement& statement) {
  return std::visit(
      [](const auto& s) -> AuditStatement {
        using T = std::decay_t<decltype(s)>;
        if constexpr (kNamesTable<T>) {
          return On(TableType<T>(), s.table);
        } else if constexpr (std::is_same_v<T, cql::Insert> || std::is_same_v<T, cql::Update>) {
          return On(AuditType::kUpdate, s.table);  // Cassandra counts INSERT as UPDATE
        } else if constexpr (std::is_same_v<T, cql::Delete>) {
          return On(AuditType::kDelete, s.table);
        } else if constexpr (std::is_same_v<T, cql::Batch>) {
          return Of(AuditType::kBatch);
        } else if constexpr (std::is_same_v<T, cql::Use>) {
          return Of(AuditType::kUseKeyspace, s.keyspace);
        } else if constexpr (std::is_same_v<T, cql::CreateKeyspace>) {
          return Of(AuditType::kCreateKeyspace, s.keyspace);
        } else if constexpr (std::is_same_v<T, cql::AlterKeyspace>) {
          return Of(AuditType::kAlterKeyspace, s.keyspace);
        } else if constexpr (std::is_same_v<T, cql::DropKeyspace>) {
          return Of(AuditType::kDropKeyspace, s.keyspace);
        } else if constexpr (std::is_same_v<T, cql::Describe>) {
          return Of(AuditType::kDescribe, s.name.keyspace, s.name.name);
        } else {
          return OtherStatements()(s);
        }
      },
      statement);
}

std::string ObfuscatePasswords(std::string_view text) {
  std::string out = engine::RedactPasswords(text);
  for (size_t i = 0; i + 8 <= out.size(); ++i) {
    if ((i > 0 && IsWordByte(out[i - 1])) || common::AsciiLower(out.substr(i, 8)) != "password" ||
        (i + 8 < out.size() && IsWordByte(out[i + 8]))) {
      continue;
    }
    if (QuoteFollows(out, i + 8)) {
      out.resize(i + 8);
      out += " *******";
      break;
    }
  }
  return out;
}

}  // namespace server
