#include "cql/types/types.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace cql {
namespace {

struct NativeName {
  std::string_view name;
  TypeKind kind;
};

// CQL names of the native types; `varchar` is an alias of `text` (listed after it so `text`
// is the canonical name printed back).
constexpr std::array<NativeName, 21> kNativeNames = {{
    {"ascii", TypeKind::kAscii},       {"bigint", TypeKind::kBigint},
    {"blob", TypeKind::kBlob},         {"boolean", TypeKind::kBoolean},
    {"counter", TypeKind::kCounter},   {"date", TypeKind::kDate},
    {"decimal", TypeKind::kDecimal},   {"double", TypeKind::kDouble},
    {"duration", TypeKind::kDuration}, {"float", TypeKind::kFloat},
    {"inet", TypeKind::kInet},         {"int", TypeKind::kInt},
    {"smallint", TypeKind::kSmallint}, {"text", TypeKind::kText},
    {"time", TypeKind::kTime},         {"timestamp", TypeKind::kTimestamp},
    {"timeuuid", TypeKind::kTimeuuid}, {"tinyint", TypeKind::kTinyint},
    {"uuid", TypeKind::kUuid},         {"varint", TypeKind::kVarint},
    {"varchar", TypeKind::kText},
}};

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// Cassandra 4.1 ReservedKeywords.
constexpr std::array<std::string_view, 62> kReservedKeywords = {
    "select",   "from",        "where",        "and",      "entries",      "full",      "insert",
    "update",   "with",        "limit",        "using",    "use",          "set",       "begin",
    "unlogged", "batch",       "apply",        "truncate", "delete",       "in",        "create",
    "keyspace", "schema",      "columnfamily", "table",    "materialized", "view",      "index",
    "on",       "to",          "drop",         "primary",  "into",         "alter",     "rename",
    "add",      "order",       "by",           "asc",      "desc",         "allow",     "if",
    "is",       "grant",       "of",           "revoke",   "modify",       "authorize", "describe",
    "execute",  "norecursive", "token",        "null",     "not",          "nan",       "infinity",
    "or",       "replace",     "default",      "unset",    "mbean",        "mbeans",
};

}  // namespace

CqlType::CqlType() : CqlType(Native(TypeKind::kBlob)) {}

CqlType CqlType::Native(TypeKind kind) {
  // One shared node per native kind: native types are created constantly.
  static const std::array<std::shared_ptr<const Node>, 0x16> nodes = [] {
    std::array<std::shared_ptr<const Node>, 0x16> table;
    for (int i = 0; i < 0x16; ++i) {
      auto node = std::make_shared<Node>();
      node->kind = static_cast<TypeKind>(i);
      table[i] = std::move(node);
    }
    return table;
  }();
  auto index = static_cast<uint16_t>(kind);
  if (index >= nodes.size() || index == 0 || index == 0x000A) index = 0x0003;  // blob
  return CqlType(nodes[index]);
}

CqlType CqlType::List(CqlType element, bool frozen) {
  auto node = std::make_shared<Node>();
  node->kind = TypeKind::kList;
  node->frozen = frozen;
  node->params = {std::move(element)};
  return CqlType(std::move(node));
}

CqlType CqlType::Set(CqlType element, bool frozen) {
  auto node = std::make_shared<Node>();
  node->kind = TypeKind::kSet;
  node->frozen = frozen;
  node->params = {std::move(element)};
  return CqlType(std::move(node));
}

CqlType CqlType::Map(CqlType key, CqlType value, bool frozen) {
  auto node = std::make_shared<Node>();
  node->kind = TypeKind::kMap;
  node->frozen = frozen;
  node->params = {std::move(key), std::move(value)};
  return CqlType(std::move(node));
}

CqlType CqlType::Tuple(std::vector<CqlType> elements) {
  auto node = std::make_shared<Node>();
  node->kind = TypeKind::kTuple;
  node->frozen = true;
  node->params = std::move(elements);
  return CqlType(std::move(node));
}

CqlType CqlType::Udt(std::string keyspace, std::string name, std::vector<std::string> field_names,
                     std::vector<CqlType> field_types, bool frozen) {
  auto node = std::make_shared<Node>();
  node->kind = TypeKind::kUdt;
  node->frozen = frozen;
  node->keyspace = std::move(keyspace);
  node->name = std::move(name);
  node->field_names = std::move(field_names);
  node->params = std::move(field_types);
  return CqlType(std::move(node));
}

CqlType CqlType::UdtRef(std::string keyspace, std::string name, bool frozen) {
  auto node = std::make_shared<Node>();
  node->kind = TypeKind::kUdt;
  node->frozen = frozen;
  node->resolved = false;
  node->keyspace = std::move(keyspace);
  node->name = std::move(name);
  return CqlType(std::move(node));
}

CqlType CqlType::Vector(CqlType element, int32_t dimension) {
  auto node = std::make_shared<Node>();
  node->kind = TypeKind::kVector;
  node->frozen = true;
  node->dimension = dimension;
  node->params = {std::move(element)};
  return CqlType(std::move(node));
}

CqlType CqlType::Custom(std::string class_name) {
  auto node = std::make_shared<Node>();
  node->kind = TypeKind::kCustom;
  node->frozen = true;
  node->name = std::move(class_name);
  return CqlType(std::move(node));
}

bool CqlType::FromNativeName(std::string_view name, CqlType* out) {
  for (const auto& entry : kNativeNames) {
    if (EqualsIgnoreCase(entry.name, name)) {
      *out = Native(entry.kind);
      return true;
    }
  }
  return false;
}

bool CqlType::IsNative() const {
  auto k = static_cast<uint16_t>(kind());
  return k >= 0x0001 && k <= 0x0015 && k != 0x000A;
}

bool CqlType::IsCollection() const {
  return kind() == TypeKind::kList || kind() == TypeKind::kSet || kind() == TypeKind::kMap;
}

bool CqlType::IsResolved() const {
  if (!node_->resolved) return false;
  return std::all_of(params().begin(), params().end(),
                     [](const CqlType& t) { return t.IsResolved(); });
}

CqlType CqlType::WithFrozen(bool frozen) const {
  if (this->frozen() == frozen || IsNative() || kind() == TypeKind::kTuple ||
      kind() == TypeKind::kVector || kind() == TypeKind::kCustom) {
    return *this;
  }
  auto node = std::make_shared<Node>(*node_);
  node->frozen = frozen;
  return CqlType(std::move(node));
}

std::string_view CqlType::NativeName() const {
  for (const auto& entry : kNativeNames) {
    if (entry.kind == kind()) return entry.name;
  }
  return "blob";
}

std::string CqlType::ToCql() const {
  std::string out;
  switch (kind()) {
    case TypeKind::kList:
      out = "list<" + element().ToCql() + ">";
      break;
    case TypeKind::kSet:
      out = "set<" + element().ToCql() + ">";
      break;
    case TypeKind::kMap:
      out = "map<" + key().ToCql() + ", " + value().ToCql() + ">";
      break;
    case TypeKind::kTuple: {
      out = "tuple<";
      for (size_t i = 0; i < params().size(); ++i) {
        if (i > 0) out += ", ";
        out += params()[i].ToCql();
      }
      // Tuples are always frozen; Cassandra 4.1 says so in the name (schema tables, DESCRIBE
      // and error messages all show frozen<tuple<...>>).
      return "frozen<" + out + ">>";
    }
    case TypeKind::kUdt:
      out = QuoteIdentifierIfNeeded(name());
      break;
    case TypeKind::kVector:
      return "vector<" + element().ToCql() + ", " + std::to_string(dimension()) + ">";
    case TypeKind::kCustom: {
      out = "'";
      for (char c : name()) {
        if (c == '\'') out += '\'';
        out += c;
      }
      return out + "'";
    }
    default:
      return std::string(NativeName());
  }
  return frozen() ? "frozen<" + out + ">" : out;
}

bool CqlType::operator==(const CqlType& other) const {
  if (node_ == other.node_) return true;
  const Node& a = *node_;
  const Node& b = *other.node_;
  return a.kind == b.kind && a.frozen == b.frozen && a.dimension == b.dimension &&
         a.keyspace == b.keyspace && a.name == b.name && a.field_names == b.field_names &&
         a.params == b.params;
}

bool IsReservedKeyword(std::string_view word) {
  return std::any_of(kReservedKeywords.begin(), kReservedKeywords.end(),
                     [&](std::string_view k) { return EqualsIgnoreCase(k, word); });
}

std::string QuoteIdentifierIfNeeded(std::string_view name) {
  bool plain = !name.empty() && std::islower(static_cast<unsigned char>(name[0]));
  for (char c : name) {
    if (!(std::islower(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c)) || c == '_')) {
      plain = false;
    }
  }
  if (plain && !IsReservedKeyword(name)) return std::string(name);
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace cql
