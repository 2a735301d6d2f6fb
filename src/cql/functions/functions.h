// Built-in scalar functions of CQL (Cassandra 4.1's system functions) and their overload
// resolution.
//
// Pipeline position: the parser leaves function calls as names with argument terms
// (`FunctionCall` in `cql/parser/term.h`, `Selectable::Kind::kFunction` in selectors); when the
// engine prepares a statement it resolves each call here to one `ScalarFunction` (with Cassandra's
// FunctionResolver rules and error messages), and at execution time calls `Execute` with the
// serialized argument values.
//
// The functions:
//   now(), currenttimeuuid()                   timeuuid (one per call, from the context)
//   uuid()                                     random version-4 uuid
//   currenttimestamp(), currentdate(), currenttime()
//   totimestamp(timeuuid|date), todate(timeuuid|timestamp),
//   tounixtimestamp(timeuuid|timestamp|date), dateof(timeuuid), unixtimestampof(timeuuid),
//   mintimeuuid(timestamp), maxtimeuuid(timestamp)
//   <type>asblob(<type>) and blobas<type>(blob) for every native type but blob
//   tojson(any) -> text, fromjson(text) -> the receiver's type (see json.h)
//   _add, _substract, _multiply, _divide, _modulo: arithmetic on every pair of numeric types
//     (result type as Cassandra's OperationFcts: the wider of the two, floating point when
//     either is; tinyint/smallint/int/bigint wrap like Java; division by zero fails),
//     timestamp/date +/- duration; _negate on numeric types.
// `token`, `writetime`, `ttl`, `cast` and aggregates are not here (engine, cast.h,
// aggregates.h).
//
// Thread-safety: functions are immutable and shared; Execute is safe to call concurrently
// (state lives in the FunctionContext, whose generator is itself thread-safe).

#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/clock.h"
#include "common/result.h"
#include "common/uuid.h"
#include "cql/parser/term.h"
#include "cql/types/types.h"

namespace cql {

// What a function may read at execution time; one per statement execution.
struct FunctionContext {
  const common::Clock* clock = nullptr;            // currenttimestamp() etc.
  common::TimeuuidGenerator* timeuuids = nullptr;  // now()
};

class ScalarFunction {
 public:
  ScalarFunction(std::string name, std::vector<CqlType> arg_types, CqlType return_type,
                 bool deterministic)
      : name_(std::move(name)),
        arg_types_(std::move(arg_types)),
        return_type_(std::move(return_type)),
        deterministic_(deterministic) {}
  virtual ~ScalarFunction() = default;

  // Lower-case name without keyspace, e.g. "totimestamp" or "_add".
  const std::string& name() const { return name_; }
  const std::vector<CqlType>& arg_types() const { return arg_types_; }
  const CqlType& return_type() const { return return_type_; }
  // False for now(), uuid() and the current*() functions.
  bool deterministic() const { return deterministic_; }

  // Cassandra's signature text, "system.tounixtimestamp : (timeuuid) -> bigint".
  std::string Signature() const;

  // Runs the function. `args` are serialized values (std::nullopt = null), one per
  // arg_types() entry, already valid for those types (the engine validates bound values).
  // Returns the serialized result (std::nullopt = null). Errors: kInvalid or
  // kFunctionFailure with Cassandra's messages. REQUIRES: args.size() == arg_types().size();
  // for non-deterministic functions, `ctx` has the clock and generator they use.
  virtual common::Result<std::optional<common::Bytes>> Execute(
      const FunctionContext& ctx, std::span<const std::optional<common::Bytes>> args) const = 0;

 private:
  std::string name_;
  std::vector<CqlType> arg_types_;
  CqlType return_type_;
  bool deterministic_;
};

// Resolves a call `keyspace.name(args)` to one built-in function, as Cassandra's
// FunctionResolver does. `keyspace` is "", "system" or another keyspace (which holds no
// built-ins); `name` is already lower-cased by the parser unless quoted.
// `arg_types[i]` is the type of argument i when known (a column, another function's result,
// a type hint), std::nullopt otherwise; `arg_terms[i]` is the literal term (constant, null,
// collection literal) when the argument is one, nullptr otherwise; both absent means a bind
// marker. `arg_texts[i]` (optional, may be empty) is how argument i is shown in messages (the
// column name, the literal as written); defaults to the term's CQL text or "?".
// `receiver` is the type the result is assigned to when known (an INSERT value): it picks
// fromjson()'s return type and breaks ties between arithmetic overloads.
// Errors (kInvalid): "Unknown function <name> called" ("Unknown function '<name>'" when
// `in_selection`, as Cassandra's selectors say), "Invalid number of arguments in call to
// function system.totimestamp: 1 required but 2 provided", "Type error: <arg> cannot be passed
// as argument 0 of function system.totimestamp of type timeuuid", "Ambiguous call to function
// tounixtimestamp (can be matched by following signatures: ...): use type casts to
// disambiguate", "Invalid call to function ..., none of its type signatures match (known type
// signatures: ...)", "the '+' operation is not supported between a and b", "Ambiguous '+'
// operation with args 1 and 2: use type casts to disambiguate", "toJson() may only be used
// within the selection clause of SELECT statements" (unless `in_selection`),
// "fromJson() cannot be used in the selection clause of a SELECT statement".
// The result is shared and immutable; built-ins live for the whole process.
common::Result<std::shared_ptr<const ScalarFunction>> ResolveScalarFunction(
    std::string_view keyspace, std::string_view name,
    std::span<const std::optional<CqlType>> arg_types, std::span<const Term* const> arg_terms,
    const std::optional<CqlType>& receiver, std::span<const std::string> arg_texts = {},
    bool in_selection = false);

// Every built-in scalar function except tojson/fromjson (which are made per type), in
// declaration order.
std::vector<std::shared_ptr<const ScalarFunction>> AllBuiltinScalarFunctions();

// Whether `name` (lower-case) names a built-in scalar function in keyspace "" or "system"
// (arithmetic names included; tojson/fromjson included).
bool IsScalarFunctionName(std::string_view name);

// Whether a value of type `value` may be stored where `receiver` is expected, as Cassandra's
// AbstractType.isValueCompatibleWith rules it for function results: the same type; any type
// into blob; ascii into text; timestamp into bigint and bigint into timestamp; int into date;
// bigint into time; int, bigint and timestamp into varint; timeuuid into uuid. Also
// what a function parameter accepts (a weak match in overload resolution).
bool IsValueCompatible(const CqlType& receiver, const CqlType& value);

// Converts a value of `value_type` into the representation of `receiver` (REQUIRES:
// IsValueCompatible(receiver, value_type)): only varint re-encodes (minimal two's complement);
// every other compatible pair shares its bytes.
common::Result<std::optional<common::Bytes>> ConvertCompatibleValue(
    const CqlType& receiver, const CqlType& value_type, std::optional<common::Bytes> value);

// `system.token(<partition key>)` of a table whose partition key columns have
// `partition_key_types`: the Murmur3 token (bigint) of the serialized key. Cassandra resolves
// `token(...)` in a value position (`token(k) > token(1)`, `VALUES (token(1))`) against the
// table of the statement.
std::shared_ptr<const ScalarFunction> MakeTokenFunction(std::vector<CqlType> partition_key_types);

// `status` (a kFunctionFailure of the function `name` with `arg_types`) in Cassandra's
// FunctionExecutionException wording: "execution of 'system.name[t1, t2]' failed: <detail>".
// Other statuses, and failures already worded so (or as an operation's), are returned as they
// are. The protocol layer reads the function's keyspace, name and argument types back from
// this wording into the ERROR body.
common::Status NameFunctionFailure(std::string_view name, std::span<const CqlType> arg_types,
                                   common::Status status);

// Runs `function`, turning a kFunctionFailure that does not yet name its function into
// Cassandra's FunctionExecutionException wording: "execution of 'system.name[t1, t2]' failed:
// <detail>" (code 0x1400). Arithmetic failures ("the operation 'int / int' failed: ...") are
// kept as they are, as Cassandra's OperationExecutionException words them.
common::Result<std::optional<common::Bytes>> ExecuteFunction(
    const ScalarFunction& function, const FunctionContext& ctx,
    std::span<const std::optional<common::Bytes>> args);

// The operator of an arithmetic function name ("_add" -> "+"), or "" for other names.
std::string_view OperatorOfFunction(std::string_view name);

}  // namespace cql
