#include "cql/term.h"

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
        case ConstantKind::kString: return QuoteString(c.text);
        case ConstantKind::kHex: return "0x" + c.text;
        default: return c.text;
      }
    }
    std::string operator()(const NullLiteral&) const { return "null"; }
    std::string operator()(const BindMarker& b) const {
      return b.name.empty() ? "?" : ":" + QuoteIdentifierIfNeeded(b.name);
    }
    std::string operator()(const CollectionLiteral& c) const {
      switch (c.kind) {
        case CollectionLiteral::Kind::kList: return "[" + JoinTerms(c.elements) + "]";
        case CollectionLiteral::Kind::kSet: return "{" + JoinTerms(c.elements) + "}";
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
        out += QuoteIdentifierIfNeeded(u.field_names[i]) + ": " + u.values[i].ToCql();
      }
      return out + "}";
    }
    std::string operator()(const TupleLiteral& t) const { return "(" + JoinTerms(t.elements) + ")"; }
    std::string operator()(const FunctionCall& f) const {
      std::string name = f.keyspace.empty() ? "" : QuoteIdentifierIfNeeded(f.keyspace) + ".";
      return name + QuoteIdentifierIfNeeded(f.name) + "(" + JoinTerms(f.args) + ")";
    }
    std::string operator()(const TypeHint& h) const {
      return "(" + h.type.ToCql() + ") " + (h.term ? h.term->ToCql() : "null");
    }
  };
  return std::visit(Printer{}, value);
}

}  // namespace cql
