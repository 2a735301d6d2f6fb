#include "cql/parser/literal.h"

#include <algorithm>
#include <string>
#include <variant>

#include "cql/types/value_codec.h"

namespace cql {
namespace {

using common::Bytes;
using common::Result;
using common::Status;

using MaybeBytes = std::optional<Bytes>;

// Cassandra's AssignmentTestable.TestResult; only "assignable or not" matters here, the
// exactness is kept for fidelity with Cassandra's typing rules.
enum class Assignability : uint8_t { kNotAssignable, kWeaklyAssignable, kExactMatch };

bool IsAssignable(Assignability a) { return a != Assignability::kNotAssignable; }

// The weakest of two results (Cassandra's TestResult.testAll).
Assignability Weakest(Assignability a, Assignability b) { return std::min(a, b); }

std::string_view ConstantKindName(ConstantKind kind) {
  switch (kind) {
    case ConstantKind::kString:
      return "STRING";
    case ConstantKind::kInteger:
      return "INTEGER";
    case ConstantKind::kFloat:
      return "FLOAT";
    case ConstantKind::kBoolean:
      return "BOOLEAN";
    case ConstantKind::kUuid:
      return "UUID";
    case ConstantKind::kHex:
      return "HEX";
    case ConstantKind::kDuration:
      return "DURATION";
  }
  return "UNKNOWN";
}

std::string ConstantText(ConstantKind kind, std::string_view text) {
  return kind == ConstantKind::kHex ? "0x" + std::string(text) : std::string(text);
}

// A term as Cassandra's Term.Raw.getText() prints it in error messages: strings quoted without
// escaping, NULL in capitals, casts as "(type)term".
std::string RawText(const Term& term);

std::string JoinRawText(const std::vector<Term>& terms) {
  std::string out;
  for (size_t i = 0; i < terms.size(); ++i) {
    if (i > 0) out += ", ";
    out += RawText(terms[i]);
  }
  return out;
}

struct RawTextPrinter {
  std::string operator()(const Constant& c) const {
    if (c.kind == ConstantKind::kString) return "'" + c.text + "'";
    return ConstantText(c.kind, c.text);
  }
  std::string operator()(const NullLiteral&) const { return "NULL"; }
  std::string operator()(const BindMarker& b) const { return b.name.empty() ? "?" : ":" + b.name; }
  std::string operator()(const CollectionLiteral& c) const {
    switch (c.kind) {
      case CollectionLiteral::Kind::kList:
        return "[" + JoinRawText(c.elements) + "]";
      case CollectionLiteral::Kind::kSet:
        return "{" + JoinRawText(c.elements) + "}";
      case CollectionLiteral::Kind::kMap:
        break;
    }
    std::string out = "{";
    for (size_t i = 0; i < c.elements.size() && i < c.keys.size(); ++i) {
      if (i > 0) out += ", ";
      out += RawText(c.keys[i]) + ": " + RawText(c.elements[i]);
    }
    return out + "}";
  }
  std::string operator()(const UdtLiteral& u) const {
    std::string out = "{";
    for (size_t i = 0; i < u.values.size() && i < u.field_names.size(); ++i) {
      if (i > 0) out += ", ";
      out += u.field_names[i] + ": " + RawText(u.values[i]);
    }
    return out + "}";
  }
  std::string operator()(const TupleLiteral& t) const {
    return "(" + JoinRawText(t.elements) + ")";
  }
  std::string operator()(const FunctionCall& f) const {
    return (f.keyspace.empty() ? "" : f.keyspace + ".") + f.name + "(" + JoinRawText(f.args) + ")";
  }
  std::string operator()(const TypeHint& h) const {
    return "(" + h.type.ToCql() + ")" + (h.term ? RawText(*h.term) : "NULL");
  }
};

std::string RawText(const Term& term) { return std::visit(RawTextPrinter{}, term.value); }

bool IsEmptyMapLiteral(const CollectionLiteral& c) {
  return c.kind == CollectionLiteral::Kind::kMap && c.elements.empty();
}

// Which constant kinds a type accepts: Cassandra's Constants.Literal.testAssignment.
Assignability ConstantAssignability(const CqlType& type, ConstantKind kind) {
  // Cassandra skips validation for types that are neither native, collections nor UDTs: the
  // constant's text goes through the type's fromString (TupleFromString for tuples).
  if (type.kind() == TypeKind::kCustom || type.kind() == TypeKind::kTuple) {
    return Assignability::kWeaklyAssignable;
  }
  if (!type.IsNative()) return Assignability::kNotAssignable;
  const TypeKind t = type.kind();
  auto one_of = [t](std::initializer_list<TypeKind> kinds) {
    return std::find(kinds.begin(), kinds.end(), t) != kinds.end();
  };
  bool accepted = false;
  switch (kind) {
    case ConstantKind::kString:
      accepted = one_of({TypeKind::kAscii, TypeKind::kText, TypeKind::kInet, TypeKind::kDate,
                         TypeKind::kTime, TypeKind::kTimestamp});
      break;
    case ConstantKind::kInteger:
      accepted = one_of({TypeKind::kBigint, TypeKind::kCounter, TypeKind::kDate, TypeKind::kDecimal,
                         TypeKind::kDouble, TypeKind::kDuration, TypeKind::kFloat, TypeKind::kInt,
                         TypeKind::kSmallint, TypeKind::kTime, TypeKind::kTimestamp,
                         TypeKind::kTinyint, TypeKind::kVarint});
      break;
    case ConstantKind::kUuid:
      accepted = one_of({TypeKind::kUuid, TypeKind::kTimeuuid});
      break;
    case ConstantKind::kFloat:
      accepted = one_of({TypeKind::kDecimal, TypeKind::kDouble, TypeKind::kFloat});
      break;
    case ConstantKind::kBoolean:
      accepted = t == TypeKind::kBoolean;
      break;
    case ConstantKind::kHex:
      // Cassandra types a hex constant as tinyint (its "preferred type"), so tinyint takes it.
      accepted = t == TypeKind::kBlob || t == TypeKind::kTinyint;
      break;
    case ConstantKind::kDuration:
      accepted = t == TypeKind::kDuration;
      break;
  }
  return accepted ? Assignability::kWeaklyAssignable : Assignability::kNotAssignable;
}

// Whether a value of `from` may be stored as `to` unchanged (AbstractType.isValueCompatibleWith
// for the native types).
bool IsValueCompatible(const CqlType& to, const CqlType& from) {
  if (to == from) return true;
  switch (to.kind()) {
    case TypeKind::kBlob:
      return from.IsNative() || from.kind() == TypeKind::kCustom;
    case TypeKind::kText:
      return from.kind() == TypeKind::kAscii;
    case TypeKind::kVarint:
      return from.kind() == TypeKind::kInt || from.kind() == TypeKind::kBigint;
    case TypeKind::kBigint:
      return from.kind() == TypeKind::kTimestamp;
    case TypeKind::kTimestamp:
      return from.kind() == TypeKind::kBigint;
    default:
      return false;
  }
}

// The type a `(type)` hint names, resolving a UDT reference against the receiver.
CqlType HintType(const CqlType& hint, const CqlType& receiver) {
  if (hint.kind() == TypeKind::kUdt && !hint.IsResolved() && receiver.kind() == TypeKind::kUdt &&
      hint.name() == receiver.name()) {
    return receiver.WithFrozen(hint.frozen());
  }
  return hint;
}

Assignability TestAssignment(const CqlType& receiver, const Term& term);

Assignability TestAll(const CqlType& receiver, const std::vector<Term>& terms) {
  Assignability result = Assignability::kExactMatch;
  for (const Term& term : terms) result = Weakest(result, TestAssignment(receiver, term));
  return result;
}

Assignability TestCollectionAssignment(const CqlType& receiver, const CollectionLiteral& c) {
  const TypeKind r = receiver.kind();
  switch (c.kind) {
    case CollectionLiteral::Kind::kList:
      if (r == TypeKind::kVector) {
        if (c.elements.size() != static_cast<size_t>(receiver.dimension())) {
          return Assignability::kNotAssignable;
        }
        return Weakest(Assignability::kWeaklyAssignable, TestAll(receiver.element(), c.elements));
      }
      if (r != TypeKind::kList) return Assignability::kNotAssignable;
      break;
    case CollectionLiteral::Kind::kSet:
      if (r == TypeKind::kMap && c.elements.empty()) return Assignability::kWeaklyAssignable;
      if (r != TypeKind::kSet) return Assignability::kNotAssignable;
      break;
    case CollectionLiteral::Kind::kMap:
      if (r == TypeKind::kSet && c.elements.empty()) return Assignability::kWeaklyAssignable;
      if (r != TypeKind::kMap) return Assignability::kNotAssignable;
      if (c.elements.empty()) return Assignability::kWeaklyAssignable;
      return Weakest(TestAll(receiver.key(), c.keys), TestAll(receiver.value(), c.elements));
  }
  if (c.elements.empty()) return Assignability::kWeaklyAssignable;
  return TestAll(receiver.element(), c.elements);
}

Assignability TestAssignment(const CqlType& receiver, const Term& term) {
  struct Tester {
    const CqlType& receiver;
    Assignability operator()(const Constant& c) const {
      return ConstantAssignability(receiver, c.kind);
    }
    Assignability operator()(const NullLiteral&) const {
      return receiver.IsCounter() ? Assignability::kNotAssignable
                                  : Assignability::kWeaklyAssignable;
    }
    Assignability operator()(const BindMarker&) const { return Assignability::kWeaklyAssignable; }
    Assignability operator()(const FunctionCall&) const { return Assignability::kWeaklyAssignable; }
    Assignability operator()(const CollectionLiteral& c) const {
      return TestCollectionAssignment(receiver, c);
    }
    Assignability operator()(const UdtLiteral& u) const {
      if (receiver.kind() != TypeKind::kUdt || !receiver.IsResolved()) {
        return Assignability::kNotAssignable;
      }
      const auto& names = receiver.field_names();
      for (size_t i = 0; i < u.field_names.size() && i < u.values.size(); ++i) {
        auto it = std::find(names.begin(), names.end(), u.field_names[i]);
        if (it == names.end()) continue;
        const CqlType& field_type = receiver.params()[static_cast<size_t>(it - names.begin())];
        if (!IsAssignable(TestAssignment(field_type, u.values[i]))) {
          return Assignability::kNotAssignable;
        }
      }
      return Assignability::kWeaklyAssignable;
    }
    Assignability operator()(const TupleLiteral& t) const {
      if (receiver.kind() != TypeKind::kTuple || t.elements.size() > receiver.params().size()) {
        return Assignability::kNotAssignable;
      }
      for (size_t i = 0; i < t.elements.size(); ++i) {
        if (!IsAssignable(TestAssignment(receiver.params()[i], t.elements[i]))) {
          return Assignability::kNotAssignable;
        }
      }
      return Assignability::kWeaklyAssignable;
    }
    Assignability operator()(const TypeHint& h) const {
      CqlType hinted = HintType(h.type, receiver);
      if (hinted == receiver) return Assignability::kExactMatch;
      return IsValueCompatible(receiver, hinted) ? Assignability::kWeaklyAssignable
                                                 : Assignability::kNotAssignable;
    }
  };
  return std::visit(Tester{receiver}, term.value);
}

// --- Evaluation -----------------------------------------------------------------------------

class Evaluator {
 public:
  Result<MaybeBytes> Evaluate(const CqlType& type, const Term& term, const std::string& receiver,
                              int depth) {
    if (depth > kMaxValueNestingDepth) {
      return Status::Invalid("Literal nesting exceeds " + std::to_string(kMaxValueNestingDepth) +
                             " levels");
    }
    if (type.kind() == TypeKind::kUdt && !type.IsResolved()) {
      return Status::Internal("Cannot evaluate a literal of unresolved type " + type.ToCql());
    }
    if (const auto* c = std::get_if<Constant>(&term.value)) {
      ASSIGN_OR_RETURN(Bytes bytes, ParseConstantFor(type, c->kind, c->text, receiver));
      return MaybeBytes(std::move(bytes));
    }
    if (std::holds_alternative<NullLiteral>(term.value)) {
      if (type.IsCounter()) {
        return Status::Invalid("Invalid null value for counter increment/decrement");
      }
      return MaybeBytes();
    }
    if (const auto* b = std::get_if<BindMarker>(&term.value)) {
      return Status::Invalid("Bind marker " + RawTextPrinter{}(*b) +
                             " is not a literal: its value is bound at execution");
    }
    if (const auto* f = std::get_if<FunctionCall>(&term.value)) {
      return Status::Invalid("Function call " + RawTextPrinter{}(*f) +
                             " is not a literal: it is evaluated at execution");
    }
    if (const auto* c = std::get_if<CollectionLiteral>(&term.value)) {
      return EvaluateCollection(type, *c, receiver, depth);
    }
    if (const auto* u = std::get_if<UdtLiteral>(&term.value)) {
      return EvaluateUdt(type, *u, receiver, depth);
    }
    if (const auto* t = std::get_if<TupleLiteral>(&term.value)) {
      return EvaluateTuple(type, *t, receiver, depth);
    }
    return EvaluateHint(type, std::get<TypeHint>(term.value), receiver, depth);
  }

 private:
  // A collection or vector element: never null; bind markers get Cassandra's message.
  Result<Bytes> EvaluateElement(const CqlType& type, const Term& term,
                                const std::string& element_receiver, std::string_view kind,
                                const std::string& receiver, int depth) {
    if (std::holds_alternative<BindMarker>(term.value) && kind != "vector") {
      return Status::Invalid("Invalid " + std::string(kind) + " literal for " + receiver +
                             ": bind variables are not supported inside collection literals");
    }
    ASSIGN_OR_RETURN(MaybeBytes value, Evaluate(type, term, element_receiver, depth + 1));
    if (kind == "vector" && !value) return Status::Invalid("null is not supported inside vectors");
    if (!value) return Status::Invalid("null is not supported inside collections");
    return std::move(*value);
  }

  Result<MaybeBytes> EvaluateCollection(const CqlType& type, const CollectionLiteral& c,
                                        const std::string& receiver, int depth) {
    const TypeKind r = type.kind();
    switch (c.kind) {
      case CollectionLiteral::Kind::kList:
        if (r == TypeKind::kVector) return EvaluateVector(type, c, receiver, depth);
        if (r != TypeKind::kList) return WrongCollection("list", type, receiver);
        return EvaluateListOrSet(type, c, "list", receiver, depth);
      case CollectionLiteral::Kind::kSet:
        if (r == TypeKind::kMap && c.elements.empty()) return MaybeBytes(SerializeMap(type, {}));
        if (r != TypeKind::kSet) return WrongCollection("set", type, receiver);
        return EvaluateListOrSet(type, c, "set", receiver, depth);
      case CollectionLiteral::Kind::kMap:
        if (IsEmptyMapLiteral(c) && r == TypeKind::kSet) {
          return MaybeBytes(SerializeCollection(type, {}));
        }
        if (r != TypeKind::kMap) {
          // `{}` is Cassandra's empty set literal, so it is reported as one.
          return WrongCollection(c.elements.empty() ? "set" : "map", type, receiver);
        }
        return EvaluateMap(type, c, receiver, depth);
    }
    return Status::Internal("Unknown collection literal kind");
  }

  static Status WrongCollection(std::string_view kind, const CqlType& type,
                                const std::string& receiver) {
    return Status::Invalid("Invalid " + std::string(kind) + " literal for " + receiver +
                           " of type " + type.ToCql());
  }

  Result<MaybeBytes> EvaluateListOrSet(const CqlType& type, const CollectionLiteral& c,
                                       std::string_view kind, const std::string& receiver,
                                       int depth) {
    const CqlType& element_type = type.element();
    for (const Term& element : c.elements) {
      if (!IsAssignable(TestAssignment(element_type, element))) {
        return Status::Invalid("Invalid " + std::string(kind) + " literal for " + receiver +
                               ": value " + RawText(element) + " is not of type " +
                               element_type.ToCql());
      }
    }
    std::string element_receiver = "value(" + receiver + ")";
    std::vector<Bytes> elements;
    elements.reserve(c.elements.size());
    for (const Term& element : c.elements) {
      ASSIGN_OR_RETURN(Bytes bytes, EvaluateElement(element_type, element, element_receiver, kind,
                                                    receiver, depth));
      elements.push_back(std::move(bytes));
    }
    return MaybeBytes(SerializeCollection(type, std::move(elements)));
  }

  Result<MaybeBytes> EvaluateMap(const CqlType& type, const CollectionLiteral& c,
                                 const std::string& receiver, int depth) {
    if (c.keys.size() != c.elements.size()) {
      return Status::Internal("Malformed map literal: keys and values differ in number");
    }
    for (size_t i = 0; i < c.keys.size(); ++i) {
      if (!IsAssignable(TestAssignment(type.key(), c.keys[i]))) {
        return Status::Invalid("Invalid map literal for " + receiver + ": key " +
                               RawText(c.keys[i]) + " is not of type " + type.key().ToCql());
      }
      if (!IsAssignable(TestAssignment(type.value(), c.elements[i]))) {
        return Status::Invalid("Invalid map literal for " + receiver + ": value " +
                               RawText(c.elements[i]) + " is not of type " + type.value().ToCql());
      }
    }
    std::string key_receiver = "key(" + receiver + ")";
    std::string value_receiver = "value(" + receiver + ")";
    std::vector<std::pair<Bytes, Bytes>> entries;
    entries.reserve(c.keys.size());
    for (size_t i = 0; i < c.keys.size(); ++i) {
      ASSIGN_OR_RETURN(
          Bytes key, EvaluateElement(type.key(), c.keys[i], key_receiver, "map", receiver, depth));
      ASSIGN_OR_RETURN(Bytes value, EvaluateElement(type.value(), c.elements[i], value_receiver,
                                                    "map", receiver, depth));
      entries.emplace_back(std::move(key), std::move(value));
    }
    return MaybeBytes(SerializeMap(type, std::move(entries)));
  }

  Result<MaybeBytes> EvaluateVector(const CqlType& type, const CollectionLiteral& c,
                                    const std::string& receiver, int depth) {
    if (c.elements.size() != static_cast<size_t>(type.dimension())) {
      return Status::Invalid("Invalid vector literal for " + receiver + " of type " + type.ToCql() +
                             "; expected " + std::to_string(type.dimension()) +
                             " elements, but given " + std::to_string(c.elements.size()));
    }
    const CqlType& element_type = type.element();
    for (const Term& element : c.elements) {
      if (!IsAssignable(TestAssignment(element_type, element))) {
        return Status::Invalid("Invalid vector literal for " + receiver + ": value " +
                               RawText(element) + " is not of type " + element_type.ToCql());
      }
    }
    std::string element_receiver = "value(" + receiver + ")";
    std::vector<Bytes> elements;
    elements.reserve(c.elements.size());
    for (const Term& element : c.elements) {
      ASSIGN_OR_RETURN(Bytes bytes, EvaluateElement(element_type, element, element_receiver,
                                                    "vector", receiver, depth));
      elements.push_back(std::move(bytes));
    }
    ASSIGN_OR_RETURN(Bytes bytes, SerializeVector(type, elements));
    return MaybeBytes(std::move(bytes));
  }

  Result<MaybeBytes> EvaluateUdt(const CqlType& type, const UdtLiteral& u,
                                 const std::string& receiver, int depth) {
    if (type.kind() != TypeKind::kUdt) {
      return Status::Invalid("Invalid user type literal for " + receiver + " of type " +
                             type.ToCql());
    }
    if (u.field_names.size() != u.values.size()) {
      return Status::Internal("Malformed UDT literal: names and values differ in number");
    }
    const std::vector<std::string>& names = type.field_names();
    // The literal's value for each field of the type; with repeated names the last one wins.
    std::vector<const Term*> values(names.size(), nullptr);
    for (size_t i = 0; i < u.field_names.size(); ++i) {
      auto it = std::find(names.begin(), names.end(), u.field_names[i]);
      if (it != names.end()) values[static_cast<size_t>(it - names.begin())] = &u.values[i];
    }
    for (size_t i = 0; i < names.size(); ++i) {
      if (values[i] != nullptr && !IsAssignable(TestAssignment(type.params()[i], *values[i]))) {
        return Status::Invalid("Invalid user type literal for " + receiver + ": field " + names[i] +
                               " is not of type " + type.params()[i].ToCql());
      }
    }
    std::vector<MaybeBytes> fields;
    fields.reserve(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
      if (values[i] == nullptr) {
        fields.emplace_back();
        continue;
      }
      ASSIGN_OR_RETURN(MaybeBytes field, Evaluate(type.params()[i], *values[i],
                                                  receiver + "." + names[i], depth + 1));
      fields.push_back(std::move(field));
    }
    for (const std::string& name : u.field_names) {
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        return Status::Invalid("Unknown field '" + name + "' in value of user defined type " +
                               type.name());
      }
    }
    return MaybeBytes(SerializeTupleOrUdt(fields));
  }

  Result<MaybeBytes> EvaluateTuple(const CqlType& type, const TupleLiteral& t,
                                   const std::string& receiver, int depth) {
    if (type.kind() != TypeKind::kTuple) {
      return Status::Invalid("Invalid tuple type literal for " + receiver + " of type " +
                             type.ToCql());
    }
    const std::vector<CqlType>& components = type.params();
    for (size_t i = 0; i < t.elements.size(); ++i) {
      if (i >= components.size()) {
        return Status::Invalid("Invalid tuple literal for " + receiver +
                               ": too many elements. Type " + type.ToCql() + " expects " +
                               std::to_string(components.size()) + " but got " +
                               std::to_string(t.elements.size()));
      }
      if (!IsAssignable(TestAssignment(components[i], t.elements[i]))) {
        return Status::Invalid("Invalid tuple literal for " + receiver + ": component " +
                               std::to_string(i) + " is not of type " + components[i].ToCql());
      }
    }
    std::vector<MaybeBytes> fields;
    fields.reserve(t.elements.size());
    for (size_t i = 0; i < t.elements.size(); ++i) {
      ASSIGN_OR_RETURN(MaybeBytes field,
                       Evaluate(components[i], t.elements[i],
                                receiver + "[" + std::to_string(i) + "]", depth + 1));
      fields.push_back(std::move(field));
    }
    return MaybeBytes(SerializeTupleOrUdt(fields));
  }

  Result<MaybeBytes> EvaluateHint(const CqlType& type, const TypeHint& hint,
                                  const std::string& receiver, int depth) {
    if (!hint.term) return Status::Internal("Type hint without a term");
    CqlType cast = HintType(hint.type, type);
    if (cast.kind() == TypeKind::kUdt && !cast.IsResolved()) {
      return Status::Invalid("Cannot cast value " + RawText(*hint.term) + " to type " +
                             cast.ToCql());
    }
    if (!IsAssignable(TestAssignment(cast, *hint.term))) {
      return Status::Invalid("Cannot cast value " + RawText(*hint.term) + " to type " +
                             cast.ToCql());
    }
    if (!(cast == type) && !IsValueCompatible(type, cast)) {
      return Status::Invalid("Cannot assign value " + RawTextPrinter{}(hint) + " to " + receiver +
                             " of type " + type.ToCql());
    }
    return Evaluate(cast, *hint.term, RawTextPrinter{}(hint), depth + 1);
  }
};

bool IsLiteralAt(const Term& term, int depth) {
  if (depth > kMaxValueNestingDepth) return false;
  auto all = [depth](const std::vector<Term>& terms) {
    return std::all_of(terms.begin(), terms.end(),
                       [depth](const Term& t) { return IsLiteralAt(t, depth + 1); });
  };
  if (const auto* c = std::get_if<CollectionLiteral>(&term.value)) {
    return all(c->elements) && all(c->keys);
  }
  if (const auto* u = std::get_if<UdtLiteral>(&term.value)) return all(u->values);
  if (const auto* t = std::get_if<TupleLiteral>(&term.value)) return all(t->elements);
  if (const auto* h = std::get_if<TypeHint>(&term.value)) {
    return h->term != nullptr && IsLiteralAt(*h->term, depth + 1);
  }
  return std::holds_alternative<Constant>(term.value) ||
         std::holds_alternative<NullLiteral>(term.value);
}

}  // namespace

bool IsLiteral(const Term& term) { return IsLiteralAt(term, 0); }

Result<MaybeBytes> EvaluateLiteral(const CqlType& type, const Term& term,
                                   std::string_view receiver) {
  return Evaluator().Evaluate(type, term, std::string(receiver), 0);
}

namespace {

// Cassandra's TupleType.fromString: components split on ':' not escaped by an odd number of
// '\\', "@" for null, "\\:" unescaped to ':' and one trailing '!' dropped; missing trailing
// components are null.
Result<Bytes> TupleFromString(const CqlType& type, std::string_view text) {
  std::vector<std::string> parts;
  if (!text.empty()) {
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i) {
      if (i < text.size()) {
        if (text[i] != ':') continue;
        size_t slashes = 0;
        while (slashes < i && text[i - 1 - slashes] == '\\') ++slashes;
        if (slashes % 2 == 1) continue;
      }
      parts.emplace_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  const std::vector<CqlType>& types = type.params();
  if (parts.size() > types.size()) {
    return Status::Invalid("Invalid tuple literal: too many elements. Type " + type.ToCql() +
                           " expects " + std::to_string(types.size()) + " but got " +
                           std::to_string(parts.size()));
  }
  std::vector<std::optional<Bytes>> fields(types.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i] == "@") continue;
    std::string part;
    for (size_t j = 0; j < parts[i].size(); ++j) {
      if (parts[i][j] == '\\' && j + 1 < parts[i].size() && parts[i][j + 1] == ':') continue;
      part += parts[i][j];
    }
    if (!part.empty() && part.back() == '!') part.pop_back();
    if (types[i].kind() == TypeKind::kTuple) {
      ASSIGN_OR_RETURN(fields[i], TupleFromString(types[i], part));
    } else {
      ASSIGN_OR_RETURN(fields[i], ParseValueText(types[i], part));
    }
  }
  return SerializeTupleOrUdt(fields);
}

}  // namespace

Result<Bytes> ParseConstantFor(const CqlType& type, ConstantKind kind, std::string_view text,
                               std::string_view receiver) {
  if (!IsAssignable(ConstantAssignability(type, kind))) {
    return Status::Invalid("Invalid " + std::string(ConstantKindName(kind)) + " constant (" +
                           ConstantText(kind, text) + ") for \"" + std::string(receiver) +
                           "\" of type " + type.ToCql());
  }
  if (type.kind() == TypeKind::kTuple) return TupleFromString(type, ConstantText(kind, text));
  if (kind == ConstantKind::kHex) {
    Result<Bytes> bytes = common::FromHex(text);
    if (!bytes.ok()) {
      return Status::Invalid("cannot parse '" + std::string(text) + "' as hex bytes");
    }
    if (type.kind() == TypeKind::kTinyint) RETURN_IF_ERROR(ValidateValue(type, *bytes));
    return bytes;
  }
  return ParseValueText(type, text);
}

}  // namespace cql
