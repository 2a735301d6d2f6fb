#include "cql/parser/term.h"

#include "cql/parser/token_kind.h"

#include <cctype>

namespace cql {

bool CollectionLiteral::operator==(const CollectionLiteral& o) const {
  return kind == o.kind && elements == o.elements && keys == o.keys;
}
bool UdtLiteral::operator==(const UdtLiteral& o) const {
  return field_names == o.field_names && values == o.values;
}
bool TupleLiteral::operator==(const TupleLiteral& o) const { return elements == o.elements; }
bool FunctionCall::operator==(const FunctionCall& o) const {
  return keyspace == o.keyspace && name == o.name && args == o.args;
}
bool TypeHint::operator==(const TypeHint& o) const {
  if (!(type == o.type)) return false;
  if (!term || !o.term) return !term && !o.term;
  return *term == *o.term;
}

namespace {

bool IsPlainLowerName(std::string_view name) {
  if (name.empty() || !(name[0] >= 'a' && name[0] <= 'z')) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

std::string DoubleQuote(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// Binary operators of CQL arithmetic, as Cassandra names their functions (system._add...).
const char* InfixOperator(std::string_view name) {
  if (name == "_add") return "+";
  if (name == "_substract") return "-";
  if (name == "_multiply") return "*";
  if (name == "_divide") return "/";
  if (name == "_modulo") return "%";
  return nullptr;
}

}  // namespace

std::string CqlIdentifier(std::string_view name) {
  if (name == "true" || name == "false") return DoubleQuote(name);
  return QuoteIdentifierIfNeeded(name);
}

std::string CqlFunctionName(std::string_view name) {
  if (!IsPlainLowerName(name) || name == "expr") return DoubleQuote(name);
  TokenKind kind = LookupKeyword(name);
  if (kind == TokenKind::kIdent || kind == TokenKind::kKToken || kind == TokenKind::kKCount ||
      IsBasicUnreservedKeyword(kind) || IsNativeTypeKeyword(kind)) {
    return std::string(name);
  }
  return DoubleQuote(name);
}

std::string CqlTypeName(std::string_view name) {
  if (!IsPlainLowerName(name)) return DoubleQuote(name);
  TokenKind kind = LookupKeyword(name);
  if (kind == TokenKind::kIdent) {
    bool reserved = name == "byte" || name == "complex" || name == "enum" || name == "date" ||
                    name == "interval" || name == "macaddr" || name == "bitstring";
    return reserved ? DoubleQuote(name) : std::string(name);
  }
  if (IsBasicUnreservedKeyword(kind) || kind == TokenKind::kKKey) return std::string(name);
  return DoubleQuote(name);
}

std::string TypeToCql(const CqlType& type) {
  std::string out;
  switch (type.kind()) {
    case TypeKind::kList:
      out = "list<" + TypeToCql(type.element()) + ">";
      break;
    case TypeKind::kSet:
      out = "set<" + TypeToCql(type.element()) + ">";
      break;
    case TypeKind::kMap:
      out = "map<" + TypeToCql(type.key()) + ", " + TypeToCql(type.value()) + ">";
      break;
    case TypeKind::kTuple: {
      out = "tuple<";
      for (size_t i = 0; i < type.params().size(); ++i) {
        if (i > 0) out += ", ";
        out += TypeToCql(type.params()[i]);
      }
      return out + ">";
    }
    case TypeKind::kVector:
      return "vector<" + TypeToCql(type.element()) + ", " + std::to_string(type.dimension()) + ">";
    case TypeKind::kUdt:
      out = type.keyspace().empty() ? "" : CqlIdentifier(type.keyspace()) + ".";
      out += CqlTypeName(type.name());
      break;
    default:
      return type.ToCql();
  }
  return type.frozen() ? "frozen<" + out + ">" : out;
}

Term::Term(const Term& other) { *this = other; }

Term& Term::operator=(const Term& other) {
  if (this == &other) return *this;
  if (const auto* hint = std::get_if<TypeHint>(&other.value)) {
    TypeHint copy;
    copy.type = hint->type;
    if (hint->term) copy.term = std::make_unique<Term>(*hint->term);
    value = std::move(copy);
  } else if (const auto* c = std::get_if<Constant>(&other.value)) {
    value = *c;
  } else if (std::holds_alternative<NullLiteral>(other.value)) {
    value = NullLiteral{};
  } else if (const auto* b = std::get_if<BindMarker>(&other.value)) {
    value = *b;
  } else if (const auto* col = std::get_if<CollectionLiteral>(&other.value)) {
    value = *col;
  } else if (const auto* u = std::get_if<UdtLiteral>(&other.value)) {
    value = *u;
  } else if (const auto* t = std::get_if<TupleLiteral>(&other.value)) {
    value = *t;
  } else if (const auto* f = std::get_if<FunctionCall>(&other.value)) {
    value = *f;
  }
  return *this;
}

namespace {

std::string QuoteString(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string JoinTerms(const std::vector<Term>& terms) {
  std::string out;
  for (size_t i = 0; i < terms.size(); ++i) {
    if (i > 0) out += ", ";
    out += terms[i].ToCql();
  }
  return out;
}

}  // namespace

std::string Term::ToCql() const {
  struct Printer {
    std::string operator()(const Constant& c) const {
      switch (c.kind) {
        case ConstantKind::kString:
          return QuoteString(c.text);
        case ConstantKind::kHex:
          return "0x" + c.text;
        default:
          return c.text;
      }
    }
    std::string operator()(const NullLiteral&) const { return "null"; }
    std::string operator()(const BindMarker& b) const {
      return b.name.empty() ? "?" : ":" + CqlIdentifier(b.name);
    }
    std::string operator()(const CollectionLiteral& c) const {
      switch (c.kind) {
        case CollectionLiteral::Kind::kList:
          return "[" + JoinTerms(c.elements) + "]";
        case CollectionLiteral::Kind::kSet:
          return "{" + JoinTerms(c.elements) + "}";
        case CollectionLiteral::Kind::kMap: {
          std::string out = "{";
          for (size_t i = 0; i < c.elements.size(); ++i) {
            if (i > 0) out += ", ";
            out += c.keys[i].ToCql() + ": " + c.elements[i].ToCql();
          }
          return out + "}";
        }
      }
      return "";
    }
    std::string operator()(const UdtLiteral& u) const {
      std::string out = "{";
      for (size_t i = 0; i < u.values.size(); ++i) {
        if (i > 0) out += ", ";
        out += CqlIdentifier(u.field_names[i]) + ": " + u.values[i].ToCql();
      }
      return out + "}";
    }
    std::string operator()(const TupleLiteral& t) const {
      return "(" + JoinTerms(t.elements) + ")";
    }
    std::string operator()(const FunctionCall& f) const {
      // Arithmetic and CAST are the system functions Cassandra turns them into.
      if (f.keyspace == "system") {
        if (const char* op = InfixOperator(f.name); op != nullptr && f.args.size() == 2) {
          return f.args[0].ToCql() + " " + op + " " + f.args[1].ToCql();
        }
        if (f.name == "_negate" && f.args.size() == 1) return "- " + f.args[0].ToCql();
        CqlType cast_type;
        if (f.name.size() > 6 && f.name.compare(0, 6, "castAs") == 0 && f.args.size() == 1 &&
            CqlType::FromNativeName(f.name.substr(6), &cast_type)) {
          std::string type_name = f.name.substr(6);
          for (char& c : type_name)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          return "CAST(" + f.args[0].ToCql() + " AS " + type_name + ")";
        }
      }
      std::string name = f.keyspace.empty() ? "" : CqlIdentifier(f.keyspace) + ".";
      return name + CqlFunctionName(f.name) + "(" + JoinTerms(f.args) + ")";
    }
    std::string operator()(const TypeHint& h) const {
      return "(" + TypeToCql(h.type) + ") " + (h.term ? h.term->ToCql() : "null");
    }
  };
  return std::visit(Printer{}, value);
}

}  // namespace cql
