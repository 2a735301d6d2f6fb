// toJson() and fromJson() as ScalarFunctions (Cassandra's ToJsonFct and FromJsonFct).

#include "cql/functions/functions_internal.h"
#include "cql/functions/json.h"

namespace cql::internal {
namespace {

using common::Bytes;
using common::Result;
using common::Status;

Status FromJsonFailure(const std::string& detail) {
  return Status(common::StatusCode::kFunctionFailure,
                "execution of 'system.fromjson[text]' failed: " + detail);
}

}  // namespace

std::shared_ptr<const ScalarFunction> MakeToJsonFunction(const CqlType& arg_type) {
  return std::make_shared<LambdaFunction>(
      "tojson", std::vector<CqlType>{arg_type}, CqlType::Text(), true,
      [arg_type](const FunctionContext&, FunctionArgs args) -> Result<std::optional<Bytes>> {
        if (!args[0].has_value()) return std::optional<Bytes>("null");
        return std::optional<Bytes>(ValueToJson(arg_type, std::string_view(*args[0])));
      });
}

std::shared_ptr<const ScalarFunction> MakeFromJsonFunction(const CqlType& receiver) {
  return std::make_shared<LambdaFunction>(
      "fromjson", std::vector<CqlType>{CqlType::Text()}, receiver, true,
      [receiver](const FunctionContext&, FunctionArgs args) -> Result<std::optional<Bytes>> {
        if (!args[0].has_value()) return std::optional<Bytes>();
        Result<JsonValue> parsed = ParseJson(*args[0]);
        if (!parsed.ok()) {
          return FromJsonFailure("Could not decode JSON string '" + *args[0] +
                                 "': " + parsed.status().message());
        }
        Result<std::optional<Bytes>> value = JsonToValue(receiver, *parsed);
        if (!value.ok()) {
          return FromJsonFailure("org.apache.cassandra.serializers.MarshalException: " +
                                 value.status().message());
        }
        return value;
      });
}

}  // namespace cql::internal
