// Term: the parsed, schema-free form of a value expression in CQL source.
//
// The parser (`parser.h`) produces Terms wherever CQL accepts a value: INSERT VALUES, SET
// assignments, WHERE right-hand sides, IF conditions, function arguments. A Term says only
// what was written; its meaning depends on the type it is assigned to, which is known once the
// statement is bound to the schema. `literal.h` turns a Term into serialized bytes for a given
// CqlType (or reports Cassandra's error).
//
// Thread-safety: plain data; immutable once built.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "cql/types/types.h"

namespace cql {

struct Term;

// The lexical class of a constant, as the lexer saw it.
enum class ConstantKind : uint8_t {
  kString,    // 'it''s' or $$...$$; `text` holds the unescaped content
  kInteger,   // -?[0-9]+; `text` as written, sign included
  kFloat,     // decimal/exponent number, NaN, Infinity, -Infinity; `text` as written
  kBoolean,   // `text` is "true" or "false" (lower-cased)
  kUuid,      // 8-4-4-4-12 hex; `text` as written
  kHex,       // 0x...; `text` holds the digits after "0x" as written
  kDuration,  // 1h30m, -2d, P1DT2H, P2W, P0001-02-03T04:05:06; `text` as written
};

struct Constant {
  ConstantKind kind = ConstantKind::kString;
  std::string text;
  bool operator==(const Constant&) const = default;
};

struct NullLiteral {
  bool operator==(const NullLiteral&) const = default;
};

// A bind marker `?` or `:name`. `index` is the 0-based position among all bind markers of the
// statement, in source order; `name` is empty for `?`.
struct BindMarker {
  int index = 0;
  std::string name;
  bool operator==(const BindMarker&) const = default;
};

// [a, b] / {a, b} / {k: v, ...}. An empty `{}` is parsed as an empty map; it is also accepted
// where a set (or a UDT) is expected.
struct CollectionLiteral {
  enum class Kind : uint8_t { kList, kSet, kMap };
  Kind kind = Kind::kList;
  std::vector<Term> elements;  // list/set: the elements
  std::vector<Term> keys;      // map: keys, parallel to `elements` as values
  bool operator==(const CollectionLiteral&) const;
};

// {field: value, ...}: keys are identifiers (already case-folded unless quoted).
struct UdtLiteral {
  std::vector<std::string> field_names;
  std::vector<Term> values;
  bool operator==(const UdtLiteral&) const;
};

// (a, b, ...) with at least... one element when it is a tuple value.
struct TupleLiteral {
  std::vector<Term> elements;
  bool operator==(const TupleLiteral&) const;
};

// fn(args) or ks.fn(args); the function name is case-folded unless quoted.
struct FunctionCall {
  std::string keyspace;
  std::string name;
  std::vector<Term> args;
  bool operator==(const FunctionCall&) const;
};

// (type) term: a type hint, e.g. `(bigint) 3` or `(frozen<list<int>>) ?`.
struct TypeHint {
  CqlType type;
  std::unique_ptr<Term> term;
  bool operator==(const TypeHint&) const;
};

struct Term {
  using Variant = std::variant<Constant, NullLiteral, BindMarker, CollectionLiteral, UdtLiteral,
                               TupleLiteral, FunctionCall, TypeHint>;
  Variant value;

  Term() = default;
  Term(Variant v) : value(std::move(v)) {}  // NOLINT(google-explicit-constructor)
  // From one alternative (`Term(Constant{...})`): moved straight into `value`, without the
  // extra move through a `Variant` temporary that the constructor above costs.
  template <typename Alternative>
  requires(!std::is_same_v<std::remove_cvref_t<Alternative>, Term> &&
           !std::is_same_v<std::remove_cvref_t<Alternative>, Variant> &&
           std::is_constructible_v<Variant, Alternative&&>)
      Term(Alternative&& alternative)  // NOLINT(google-explicit-constructor)
      : value(std::forward<Alternative>(alternative)) {}
  Term(const Term& other);
  Term& operator=(const Term& other);
  Term(Term&&) noexcept = default;
  Term& operator=(Term&&) noexcept = default;
  bool operator==(const Term& other) const { return value == other.value; }

  // Canonical CQL text: strings single-quoted with '' escapes, collections as `[..]`/`{..}`,
  // UDT literals as `{f: v}`, hints as `(type) term`.
  std::string ToCql() const;
};

// Printing helpers shared by `Term::ToCql` and the statement printer (`statement.h`).

// `name` as a CQL identifier: bare when it lexes back as the same identifier, otherwise
// double-quoted (like QuoteIdentifierIfNeeded, and also quoting `true`/`false`, which lex as
// booleans).
std::string CqlIdentifier(std::string_view name);

// `name` as a function name: bare when CQL accepts it unquoted there (`token` and `count`
// are, `ttl` or `cast` are not), otherwise double-quoted.
std::string CqlFunctionName(std::string_view name);

// `name` as a user type name (Cassandra's `non_type_ident`): native type names and the
// reserved type names (`byte`, `date`...) are quoted.
std::string CqlTypeName(std::string_view name);

// CQL text of a type like CqlType::ToCql, but keeping the keyspace of UDT references
// (`frozen<ks.address>`), so the text parses back to an equal type.
std::string TypeToCql(const CqlType& type);

}  // namespace cql
