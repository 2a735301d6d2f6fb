// Building blocks of the raw statement AST (`statement.h`): names, properties, selectors,
// WHERE relations, SET operations, IF conditions, USING attributes.
//
// This is the *raw* (parsed) form: it records what the statement says, without any schema
// knowledge (parsed and prepared statements are kept apart). Identifiers are
// already case-folded (unquoted ones lower-cased, quoted ones kept as written, "" escapes
// resolved). Values are `Term`s (term.h); types are `CqlType`s with UDTs as unresolved
// `CqlType::UdtRef` (cql/types/types.h).
//
// Thread-safety: plain data.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cql/parser/term.h"
#include "cql/types/types.h"

namespace cql {

// `ks.name` or `name`; `keyspace` is empty when the statement did not give one.
struct QualifiedName {
  std::string keyspace;
  std::string name;
  bool operator==(const QualifiedName&) const = default;
};

// The value of a `WITH name = value` property. Cassandra keeps only the raw text of
// constants (`'abc'` -> abc, `0.01` -> 0.01) but the lexical kind is kept here so the
// statement prints back exactly.
struct PropertyValue {
  enum class Kind : uint8_t {
    kConstant,  // `constant` holds it (kind + raw text)
    kKeyword,   // an unreserved keyword used as a value; `constant.text` holds it lower-cased
    kMap,       // {'k': 'v', ...}: `entries`, keys and values constants
  };
  Kind kind = Kind::kConstant;
  Constant constant;
  std::vector<std::pair<Constant, Constant>> entries;
  bool operator==(const PropertyValue&) const = default;
};

// name = value, as written in `WITH` clauses (names lower-cased unless quoted).
struct Property {
  std::string name;
  PropertyValue value;
  bool operator==(const Property&) const = default;
};

enum class Operator : uint8_t {
  kEq,           // =
  kLt,           // <
  kLte,          // <=
  kGt,           // >
  kGte,          // >=
  kNeq,          // !=
  kIn,           // IN
  kContains,     // CONTAINS
  kContainsKey,  // CONTAINS KEY
  kLike,         // LIKE
  kIsNot,        // IS NOT (only `IS NOT NULL`)
};

// One relation of a WHERE clause.
struct Relation {
  enum class Kind : uint8_t {
    kColumn,       // col op value; `map_key` set for `m[key] op value`
    kToken,        // token(c1, c2, ...) op value
    kMultiColumn,  // (c1, c2, ...) op value
    kCustomIndex,  // expr(index_name, value): `columns[0]` is the index name
  };
  Kind kind = Kind::kColumn;
  std::vector<std::string> columns;
  std::optional<Term> map_key;
  Operator op = Operator::kEq;
  // The right-hand side. For `IN (...)` lists it is unused and `in_values` holds the
  // elements (`in_list` is true, possibly with no elements); for `IN ?` it is the marker.
  // For `IS NOT NULL` it is a NullLiteral.
  Term value;
  bool in_list = false;
  std::vector<Term> in_values;
  bool operator==(const Relation&) const = default;
};

// A selection expression (SELECT clause, view definitions).
struct Selectable {
  enum class Kind : uint8_t {
    kColumn,     // `name`
    kTerm,       // a literal, null or bind marker: `term`
    kFunction,   // `keyspace.name(args)`; arithmetic is system._add etc. as in Term
    kCountRows,  // count(*)
    kWritetime,  // writetime(args[0])
    kTtl,        // ttl(args[0])
    kCast,       // CAST(args[0] AS type)
    kField,      // args[0].name
    kElement,    // args[0][term]
    kSlice,      // args[0][term..term2]; either bound may be absent
    kTypeHint,   // (type) args[0]
    kTuple,      // (args...): one element is a parenthesized expression
    kList,       // [args...]
    kSet,        // {args...}; `{}` is an empty set
    kMap,        // {k: v, ...} (a map or a UDT literal): args = k0, v0, k1, v1, ...
  };
  Kind kind = Kind::kColumn;
  std::string keyspace;
  std::string name;
  std::optional<Term> term;
  std::optional<Term> term2;
  std::optional<CqlType> type;
  std::vector<Selectable> args;
  bool operator==(const Selectable& other) const;
};

// A selector with its optional `AS alias` (empty when none).
struct Selector {
  Selectable expression;
  std::string alias;
  bool operator==(const Selector&) const = default;
};

// ORDER BY column [ASC|DESC].
struct Ordering {
  std::string column;
  bool descending = false;
  bool operator==(const Ordering&) const = default;
};

// USING TTL / TIMESTAMP values (integer constants or bind markers). When a clause repeats
// one, the last one wins (as in Cassandra).
struct UsingAttributes {
  std::optional<Term> ttl;
  std::optional<Term> timestamp;
  bool operator==(const UsingAttributes&) const = default;
};

// One assignment of an UPDATE's SET clause.
struct Operation {
  enum class Kind : uint8_t {
    kSet,         // c = value
    kAdd,         // c = c + value, c += value (also `c = c -3`, lexed as c + (-3))
    kSubtract,    // c = c - value, c -= value
    kPrepend,     // c = value + c
    kSetElement,  // c[key] = value
    kSetField,    // c.field = value
  };
  Kind kind = Kind::kSet;
  std::string column;
  Term value;
  std::optional<Term> key;  // kSetElement
  std::string field;        // kSetField
  bool operator==(const Operation&) const = default;
};

// One condition of `IF cond AND cond ...`.
struct Condition {
  std::string column;
  std::optional<Term> element;  // c[element] op value
  std::string field;            // c.field op value (empty when none)
  Operator op = Operator::kEq;  // comparison operators, kIn, kContains, kContainsKey
  Term value;                   // as in Relation
  bool in_list = false;
  std::vector<Term> in_values;
  bool operator==(const Condition&) const = default;
};

// One target of DELETE: a column, an element `c[key]` or a field `c.field`.
struct Deletion {
  std::string column;
  std::optional<Term> element;
  std::string field;
  bool operator==(const Deletion&) const = default;
};

// A column of CREATE TABLE / ALTER TABLE ADD.
struct ColumnDefinition {
  std::string name;
  CqlType type;
  bool is_static = false;
  bool operator==(const ColumnDefinition&) const = default;
};

// CLUSTERING ORDER BY (column ASC|DESC, ...).
struct ClusteringOrder {
  std::string column;
  bool ascending = true;
  bool operator==(const ClusteringOrder&) const = default;
};

}  // namespace cql
