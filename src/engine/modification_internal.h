// Private parts of ModificationStatement shared by its source files (modification_prepare.cc
// binds statements, modification_statement.cc executes them, modification_conditions.cc
// evaluates lightweight-transaction conditions).
//
// Thread-safety: plain data, immutable once prepared.

#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "cql/types/value_codec.h"
#include "engine/modification_statement.h"
#include "schema/catalog.h"

namespace engine {

struct ModificationStatement::Assignment {
  enum class Op : uint8_t {
    kSet,
    kAdd,
    kSubtract,
    kPrepend,
    kSetElement,
    kSetField,
    kDeleteColumn,
    kDeleteElement,
    kDeleteField,
  };
  Op op = Op::kSet;
  int column = -1;
  std::optional<ValueExpr> value;
  std::optional<ValueExpr> key;  // element key or list index
  int field = -1;
};

struct ModificationStatement::Condition {
  int column = -1;
  std::optional<ValueExpr> element;
  int field = -1;
  cql::Operator op = cql::Operator::kEq;
  ValueSet values;
  cql::CqlType value_type;
};

inline bool IsKeyColumn(const schema::ColumnMetadata& column) {
  return column.kind == schema::ColumnKind::kPartitionKey ||
         column.kind == schema::ColumnKind::kClustering;
}

}  // namespace engine
