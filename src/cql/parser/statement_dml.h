// Raw AST of the data statements: SELECT, INSERT, UPDATE, DELETE, BATCH, USE, TRUNCATE.
// Part of `statement.h` (read its header comment first).
//
// Thread-safety: plain data.

#pragma once

#include <string>
#include <variant>
#include <vector>

#include "cql/parser/statement_parts.h"

namespace cql {

// Shared by every statement struct.
struct StatementBase {
  // Names of the statement's bind markers in source order, "" for `?`. Its size is the
  // number of bind markers; `BindMarker::index` indexes it. Statements nested in a BATCH
  // leave it empty: their markers are numbered across the whole batch, whose list this is.
  std::vector<std::string> bind_marker_names;
  bool operator==(const StatementBase&) const = default;
};

struct Select : StatementBase {
  QualifiedName table;
  bool json = false;
  bool distinct = false;
  std::vector<Selector> selectors;  // empty means `*`
  std::vector<Relation> where;
  std::vector<std::string> group_by;
  std::vector<Ordering> order_by;
  std::optional<Term> per_partition_limit;
  std::optional<Term> limit;
  bool allow_filtering = false;
  bool operator==(const Select&) const = default;
};

struct Insert : StatementBase {
  QualifiedName table;
  bool json = false;
  std::vector<std::string> columns;  // VALUES form
  std::vector<Term> values;          // VALUES form, parallel to `columns`
  Term json_value;                   // JSON form: a string constant or a bind marker
  bool default_unset = false;        // JSON form: DEFAULT UNSET (DEFAULT NULL is the default)
  bool if_not_exists = false;
  UsingAttributes using_attributes;
  bool operator==(const Insert&) const = default;
};

struct Update : StatementBase {
  QualifiedName table;
  UsingAttributes using_attributes;
  std::vector<Operation> operations;
  std::vector<Relation> where;
  bool if_exists = false;
  std::vector<Condition> conditions;
  bool operator==(const Update&) const = default;
};

struct Delete : StatementBase {
  std::vector<Deletion> deletions;  // empty: the whole row(s)
  QualifiedName table;
  std::optional<Term> timestamp;  // USING TIMESTAMP
  std::vector<Relation> where;
  bool if_exists = false;
  std::vector<Condition> conditions;
  bool operator==(const Delete&) const = default;
};

struct Batch : StatementBase {
  enum class Type : uint8_t { kLogged, kUnlogged, kCounter };
  Type type = Type::kLogged;
  UsingAttributes using_attributes;
  std::vector<std::variant<Insert, Update, Delete>> statements;
  bool operator==(const Batch&) const = default;
};

struct Use : StatementBase {
  std::string keyspace;
  bool operator==(const Use&) const = default;
};

struct Truncate : StatementBase {
  QualifiedName table;
  bool operator==(const Truncate&) const = default;
};

}  // namespace cql
