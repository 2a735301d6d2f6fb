// ValueExpr: a prepared value expression — a raw `cql::Term` bound to the type that receives
// it (a column, a collection element, LIMIT, USING TTL...), ready to evaluate at execution.
//
// Prepare turns literals into bytes once (cql/parser/literal.h); what remains for execution is bind
// markers, function calls (cql/functions/functions.h) and collection/tuple/UDT literals that
// contain them. Prepare also records the type and name of every bind marker (`BindCollector`),
// which is the bind-variable metadata PREPARE returns.
//
// Thread-safety: immutable after Prepare; Evaluate is const and safe from many threads.

#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "cql/functions/functions.h"
#include "cql/parser/term.h"
#include "cql/session.h"
#include "cql/types/types.h"

namespace engine {

struct TableSchema;

// Records each bind marker's receiver while a statement is prepared.
class BindCollector {
 public:
  // `names` are the statement's marker names ("" for `?`), in marker order.
  explicit BindCollector(const std::vector<std::string>& names, std::string keyspace,
                         std::string table)
      : names_(names), keyspace_(std::move(keyspace)), table_(std::move(table)) {
    specs_.resize(names.size());
  }
  // Names the table bound markers are reported on (ColumnSpec keyspace/table), and the types
  // of its partition key columns: what `token(...)` takes in a value position.
  void SetTable(std::string keyspace, std::string table,
                std::vector<cql::CqlType> partition_key_types = {}) {
    keyspace_ = std::move(keyspace);
    table_ = std::move(table);
    partition_key_types_ = std::move(partition_key_types);
  }
  // The same for the statement's table `table` (which must outlive the call only).
  void SetTable(const TableSchema& table);
  const std::vector<cql::CqlType>& partition_key_types() const { return partition_key_types_; }
  // Marker `index` receives a value of `type`, for the receiver called `receiver_name`.
  void Bind(int index, const cql::CqlType& type, std::string_view receiver_name);
  // The specs; a marker never bound (impossible for valid statements) stays a blob.
  const std::vector<cql::ColumnSpec>& specs() const { return specs_; }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
  std::string keyspace_;
  std::string table_;
  std::vector<cql::CqlType> partition_key_types_;
  std::vector<cql::ColumnSpec> specs_;
};

// What an execution provides to expressions.
struct EvalContext {
  std::span<const cql::BoundValue> values;  // by marker index
  const cql::FunctionContext* functions = nullptr;
};

class ValueExpr {
 public:
  enum class Kind : uint8_t { kConstant, kMarker, kFunction, kList, kSet, kMap, kTupleOrUdt };

  // Prepares `term` for a receiver of `type` named `receiver` (error messages, marker names).
  // `binds` may be null when the term cannot contain markers.
  static common::Result<ValueExpr> Prepare(const cql::Term& term, const cql::CqlType& type,
                                           std::string_view receiver, BindCollector* binds);
  // A constant (nullopt = null).
  static ValueExpr Constant(cql::CqlType type, std::optional<common::Bytes> value);

  // The value: kValue, kNull, or kUnset (a marker bound to unset). Validates bound values
  // against the type ("Invalid ... for ..." errors as Cassandra words them).
  common::Result<cql::BoundValue> Evaluate(const EvalContext& context) const;

  Kind kind() const { return kind_; }
  const cql::CqlType& type() const { return type_; }
  // True for a constant (also null): Evaluate never fails and needs no context.
  bool is_constant() const { return kind_ == Kind::kConstant; }
  bool is_null_constant() const { return kind_ == Kind::kConstant && !constant_; }
  // The marker index for kMarker.
  int marker_index() const { return marker_index_; }
  // Whether the expression contains a bind marker at any depth.
  bool has_marker() const;

 private:
  friend class ValuePreparer;

  Kind kind_ = Kind::kConstant;
  cql::CqlType type_;
  std::string receiver_;
  std::optional<common::Bytes> constant_;
  int marker_index_ = -1;
  // A marker whose type holds sets or maps: bound bytes are normalised (cql::NormalizeValue).
  bool normalize_marker_ = false;
  std::shared_ptr<const cql::ScalarFunction> function_;
  // The value's own type when a function result of that type is stored as `type_` (a
  // value-compatible type: cql::IsValueCompatible), so that Evaluate converts it.
  std::optional<cql::CqlType> result_type_;
  std::vector<ValueExpr> args_;  // function args, collection elements, map k0,v0,k1,v1...
};

}  // namespace engine
