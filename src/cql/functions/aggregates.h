// Built-in aggregate functions of CQL (Cassandra 4.1's AggregateFcts): count(*), count(x),
// min(x), max(x), sum(x), avg(x).
//
// Pipeline position: when the engine prepares a SELECT whose selectors aggregate, it resolves
// each aggregate here (ResolveAggregate) once; for each query (and each GROUP BY group) it
// creates an `Aggregate` with NewAggregate(), feeds it the column values of the selected rows
// with Add() and reads Compute() at the end.
//
// Semantics, as Cassandra's:
//   countrows (count(*))  bigint, counts rows (Add with any value, null included)
//   count(x)   bigint, counts non-null values; any type
//   min/max    the argument's type, by CompareValues (cql/types/value_compare.h); nulls
//              ignored; null when no value was seen; any type
//   sum        numeric types (tinyint, smallint, int, bigint, counter, float, double,
//              decimal, varint), result of the argument's type; integer sums wrap like Java
//              (int sum of 2^31-1 and 1 is -2^31); float/double use compensated (Kahan)
//              summation; empty sum is 0
//   avg        the argument's type; integer averages use a wide sum then integer division
//              truncated toward zero (avg of 1 and 2 as int is 1); decimal averages round
//              half-even at the sum's scale; empty avg is 0
// Decimal and varint arithmetic is limited to 128 bits (functions_numeric.h).
//
// Thread-safety: AggregateFunction objects are immutable and shared; an Aggregate holds one
// query's state and is not thread-safe.

#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/types/types.h"

namespace cql {

// One aggregation's running state.
class Aggregate {
 public:
  virtual ~Aggregate() = default;
  // Forgets every added value (the start of a new group).
  virtual void Reset() = 0;
  // Adds one input value (std::nullopt = null). Errors: kInvalid for bytes that do not decode
  // as the argument type; kFunctionFailure beyond 128-bit decimal/varint precision.
  virtual common::Status Add(std::optional<std::string_view> value) = 0;
  // The aggregate of the values added since the last Reset (std::nullopt = null).
  virtual common::Result<std::optional<common::Bytes>> Compute() const = 0;
};

class AggregateFunction {
 public:
  using Factory = std::unique_ptr<Aggregate> (*)(const CqlType& arg_type);

  AggregateFunction(std::string name, std::vector<CqlType> arg_types, CqlType return_type,
                    Factory factory)
      : name_(std::move(name)),
        arg_types_(std::move(arg_types)),
        return_type_(std::move(return_type)),
        factory_(factory) {}

  // "countrows", "count", "min", "max", "sum" or "avg".
  const std::string& name() const { return name_; }
  const std::vector<CqlType>& arg_types() const { return arg_types_; }
  const CqlType& return_type() const { return return_type_; }
  // A fresh state for one query or group.
  std::unique_ptr<Aggregate> NewAggregate() const;
  // "system.sum : (int) -> int".
  std::string Signature() const;

 private:
  std::string name_;
  std::vector<CqlType> arg_types_;
  CqlType return_type_;
  Factory factory_;
};

// Whether `name` (lower-case) is an aggregate: count, min, max, sum, avg, countrows.
bool IsAggregateName(std::string_view name);

// Resolves an aggregate call. `name` is "countrows" for count(*) (no arguments), otherwise
// one of count/min/max/sum/avg with one argument of the given type.
// Errors (kInvalid): "Invalid call to function sum, none of its type signatures match (known
// type signatures: system.sum : (tinyint) -> tinyint, ...)" for a non-numeric sum/avg or a
// wrong argument count; "Unknown function <name> called" for other names.
common::Result<std::shared_ptr<const AggregateFunction>> ResolveAggregate(
    std::string_view name, std::span<const CqlType> arg_types);

}  // namespace cql
