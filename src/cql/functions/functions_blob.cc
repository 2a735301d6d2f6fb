// <type>asblob(<type>) and blobas<type>(blob) for every native type (Cassandra's
// BytesConversionFcts).

#include <string>

#include "cql/functions/functions_internal.h"
#include "cql/types/value_codec.h"

namespace cql::internal {
namespace {

using common::Bytes;
using common::Result;
using common::Status;

struct NamedType {
  const char* name;
  TypeKind kind;
};

constexpr NamedType kNativeTypes[] = {
    {"ascii", TypeKind::kAscii},
    {"bigint", TypeKind::kBigint},
    {"boolean", TypeKind::kBoolean},
    {"counter", TypeKind::kCounter},
    {"date", TypeKind::kDate},
    {"decimal", TypeKind::kDecimal},
    {"double", TypeKind::kDouble},
    {"duration", TypeKind::kDuration},
    {"float", TypeKind::kFloat},
    {"inet", TypeKind::kInet},
    {"int", TypeKind::kInt},
    {"smallint", TypeKind::kSmallint},
    {"text", TypeKind::kText},
    {"time", TypeKind::kTime},
    {"timestamp", TypeKind::kTimestamp},
    {"timeuuid", TypeKind::kTimeuuid},
    {"tinyint", TypeKind::kTinyint},
    {"uuid", TypeKind::kUuid},
    {"varchar", TypeKind::kText},
    {"varint", TypeKind::kVarint},
};

}  // namespace

void AddBlobFunctions(FunctionList* out) {
  for (const NamedType& named : kNativeTypes) {
    CqlType type = CqlType::Native(named.kind);
    out->push_back(std::make_shared<LambdaFunction>(
        std::string(named.name) + "asblob", std::vector<CqlType>{type}, CqlType::Blob(), true,
        [](const FunctionContext&, FunctionArgs args) -> Result<std::optional<Bytes>> {
          return args[0];
        }));
    std::string reverse_name = std::string("blobas") + named.name;
    out->push_back(std::make_shared<LambdaFunction>(
        reverse_name, std::vector<CqlType>{CqlType::Blob()}, type, true,
        [type, reverse_name](const FunctionContext&,
                             FunctionArgs args) -> Result<std::optional<Bytes>> {
          if (!args[0].has_value()) return args[0];
          if (!ValidateValue(type, *args[0]).ok()) {
            return Status::Invalid("In call to function system." + reverse_name + ", value 0x" +
                                   common::ToHex(*args[0]) +
                                   " is not a valid binary representation for type " +
                                   type.ToCql());
          }
          return args[0];
        }));
  }
}

}  // namespace cql::internal
