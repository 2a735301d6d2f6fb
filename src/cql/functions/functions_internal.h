// Internal to the built-in function implementation (functions*.cc, json*.cc): the pieces each
// file contributes to the table of built-ins, and a ScalarFunction backed by a callable.
//
// Thread-safety: the functions built here are immutable.

#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cql/functions/functions.h"

namespace cql::internal {

using FunctionArgs = std::span<const std::optional<common::Bytes>>;
using FunctionBody = std::function<common::Result<std::optional<common::Bytes>>(
    const FunctionContext& ctx, FunctionArgs args)>;

class LambdaFunction final : public ScalarFunction {
 public:
  LambdaFunction(std::string name, std::vector<CqlType> arg_types, CqlType return_type,
                 bool deterministic, FunctionBody body)
      : ScalarFunction(std::move(name), std::move(arg_types), std::move(return_type),
                       deterministic),
        body_(std::move(body)) {}

  common::Result<std::optional<common::Bytes>> Execute(const FunctionContext& ctx,
                                                       FunctionArgs args) const override {
    if (args.size() != arg_types().size()) {
      return common::Status::Internal("function " + name() + " called with " +
                                      std::to_string(args.size()) + " arguments");
    }
    return body_(ctx, args);
  }

 private:
  FunctionBody body_;
};

using FunctionList = std::vector<std::shared_ptr<const ScalarFunction>>;

// The time functions (now(), totimestamp()...), in Cassandra's declaration order.
void AddTimeFunctions(FunctionList* out);
// <type>asblob / blobas<type>.
void AddBlobFunctions(FunctionList* out);
// _add, _substract, _multiply, _divide, _modulo, _negate.
void AddArithmeticFunctions(FunctionList* out);

// tojson(arg_type) -> text and fromjson(text) -> receiver (json_functions.cc).
std::shared_ptr<const ScalarFunction> MakeToJsonFunction(const CqlType& arg_type);
std::shared_ptr<const ScalarFunction> MakeFromJsonFunction(const CqlType& receiver);

}  // namespace cql::internal
