#include "cql/functions/functions.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "cql/functions/aggregates.h"
#include "cql/functions/cast.h"
#include "cql/functions/functions_internal.h"
#include "cql/types/big_number.h"
#include "cql/types/murmur3.h"
#include "cql/types/value_codec.h"

namespace cql {
namespace {

using common::Bytes;
using common::Result;
using common::Status;

// The built-ins by name, in declaration order. Built once, immutable afterwards: a constant
// lookup table, not mutable global state.
class Builtins {
 public:
  Builtins() {
    internal::FunctionList all;
    internal::AddTimeFunctions(&all);
    internal::AddBlobFunctions(&all);
    internal::AddArithmeticFunctions(&all);
    for (auto& function : all) by_name_[function->name()].push_back(function);
    all_ = std::move(all);
  }

  const internal::FunctionList& all() const { return all_; }

  const internal::FunctionList* Find(std::string_view name) const {
    auto it = by_name_.find(std::string(name));
    return it == by_name_.end() ? nullptr : &it->second;
  }

 private:
  std::map<std::string, internal::FunctionList, std::less<>> by_name_;
  internal::FunctionList all_;
};

const Builtins& GetBuiltins() {
  static const Builtins builtins;
  return builtins;
}

enum class Match { kNotAssignable, kWeak, kExact };

Match MatchKnownType(const CqlType& param, const CqlType& provided) {
  if (param.WithFrozen(true) == provided.WithFrozen(true)) return Match::kExact;
  return IsValueCompatible(param, provided) ? Match::kWeak : Match::kNotAssignable;
}

// The type Cassandra prefers for a constant (Constants.Literal's preferred type).
CqlType PreferredType(const Constant& constant) {
  switch (constant.kind) {
    case ConstantKind::kString:
      return CqlType::Text();
    case ConstantKind::kInteger:
      if (ParseJavaInteger(constant.text, INT32_MIN, INT32_MAX)) return CqlType::Int();
      if (ParseJavaInteger(constant.text, INT64_MIN, INT64_MAX)) return CqlType::Bigint();
      return CqlType::Varint();
    case ConstantKind::kFloat:
      return CqlType::Double();
    case ConstantKind::kBoolean:
      return CqlType::Boolean();
    case ConstantKind::kUuid:
      return CqlType::Uuid();
    case ConstantKind::kHex:
      return CqlType::Blob();
    case ConstantKind::kDuration:
      return CqlType::Duration();
  }
  return CqlType::Text();
}

Match MatchConstant(const CqlType& param, const Constant& constant) {
  if (param.IsCollection() || param.kind() == TypeKind::kUdt || param.kind() == TypeKind::kTuple ||
      param.kind() == TypeKind::kVector) {
    return Match::kNotAssignable;
  }
  if (param.kind() == TypeKind::kCustom) return Match::kWeak;
  if (PreferredType(constant) == param) return Match::kExact;
  TypeKind k = param.kind();
  auto any_of = [k](std::initializer_list<TypeKind> kinds) {
    return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
  };
  bool ok = false;
  switch (constant.kind) {
    case ConstantKind::kString:
      ok = any_of({TypeKind::kAscii, TypeKind::kText, TypeKind::kInet, TypeKind::kDate,
                   TypeKind::kTime, TypeKind::kTimestamp});
      break;
    case ConstantKind::kInteger:
      ok = any_of({TypeKind::kBigint, TypeKind::kCounter, TypeKind::kDate, TypeKind::kDecimal,
                   TypeKind::kDouble, TypeKind::kDuration, TypeKind::kFloat, TypeKind::kInt,
                   TypeKind::kSmallint, TypeKind::kTime, TypeKind::kTimestamp, TypeKind::kTinyint,
                   TypeKind::kVarint});
      break;
    case ConstantKind::kFloat:
      ok = any_of({TypeKind::kDecimal, TypeKind::kDouble, TypeKind::kFloat});
      break;
    case ConstantKind::kUuid:
      ok = any_of({TypeKind::kUuid, TypeKind::kTimeuuid});
      break;
    case ConstantKind::kBoolean:
      ok = k == TypeKind::kBoolean;
      break;
    case ConstantKind::kHex:
      ok = k == TypeKind::kBlob;
      break;
    case ConstantKind::kDuration:
      ok = k == TypeKind::kDuration;
      break;
  }
  return ok ? Match::kWeak : Match::kNotAssignable;
}

Match MatchTerm(const CqlType& param, const Term& term) {
  if (const auto* constant = std::get_if<Constant>(&term.value)) {
    return MatchConstant(param, *constant);
  }
  if (std::holds_alternative<NullLiteral>(term.value)) {
    return param.IsCounter() ? Match::kNotAssignable : Match::kWeak;
  }
  if (const auto* hint = std::get_if<TypeHint>(&term.value)) {
    return MatchKnownType(param, hint->type);
  }
  if (const auto* collection = std::get_if<CollectionLiteral>(&term.value)) {
    switch (collection->kind) {
      case CollectionLiteral::Kind::kList:
        return param.kind() == TypeKind::kList || param.kind() == TypeKind::kVector
                   ? Match::kWeak
                   : Match::kNotAssignable;
      case CollectionLiteral::Kind::kSet:
        return param.kind() == TypeKind::kSet ? Match::kWeak : Match::kNotAssignable;
      case CollectionLiteral::Kind::kMap:
        if (param.kind() == TypeKind::kMap) return Match::kWeak;
        return collection->elements.empty() &&
                       (param.kind() == TypeKind::kSet || param.kind() == TypeKind::kUdt)
                   ? Match::kWeak
                   : Match::kNotAssignable;
    }
  }
  if (std::holds_alternative<UdtLiteral>(term.value)) {
    return param.kind() == TypeKind::kUdt ? Match::kWeak : Match::kNotAssignable;
  }
  if (std::holds_alternative<TupleLiteral>(term.value)) {
    return param.kind() == TypeKind::kTuple ? Match::kWeak : Match::kNotAssignable;
  }
  return Match::kWeak;  // bind markers, unresolved function calls
}

struct Args {
  std::span<const std::optional<CqlType>> types;
  std::span<const Term* const> terms;
  std::span<const std::string> texts;

  size_t size() const { return std::max(types.size(), terms.size()); }

  Match MatchArg(size_t i, const CqlType& param) const {
    if (i < types.size() && types[i].has_value()) return MatchKnownType(param, *types[i]);
    if (i < terms.size() && terms[i] != nullptr) return MatchTerm(param, *terms[i]);
    return Match::kWeak;
  }

  bool IsMarker(size_t i) const {
    return !(i < types.size() && types[i].has_value()) && !(i < terms.size() && terms[i]);
  }

  std::string Text(size_t i) const {
    if (i < texts.size() && !texts[i].empty()) return texts[i];
    if (i < terms.size() && terms[i] != nullptr) return terms[i]->ToCql();
    if (i < types.size() && types[i].has_value()) return types[i]->ToCql();
    return "?";
  }
};

Match MatchArguments(const ScalarFunction& function, const Args& args) {
  if (args.size() != function.arg_types().size()) return Match::kNotAssignable;
  Match result = Match::kExact;
  for (size_t i = 0; i < args.size(); ++i) {
    Match m = args.MatchArg(i, function.arg_types()[i]);
    if (m == Match::kNotAssignable) return m;
    if (m == Match::kWeak) result = Match::kWeak;
  }
  return result;
}

std::string JoinSignatures(const internal::FunctionList& functions) {
  std::string out;
  for (const auto& f : functions) {
    if (!out.empty()) out += ", ";
    out += f->Signature();
  }
  return out;
}

Status ValidateSingle(const ScalarFunction& function, const Args& args) {
  if (args.size() != function.arg_types().size()) {
    return Status::Invalid("Invalid number of arguments in call to function system." +
                           function.name() + ": " + std::to_string(function.arg_types().size()) +
                           " required but " + std::to_string(args.size()) + " provided");
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (args.MatchArg(i, function.arg_types()[i]) == Match::kNotAssignable) {
      return Status::Invalid("Type error: " + args.Text(i) + " cannot be passed as argument " +
                             std::to_string(i) + " of function system." + function.name() +
                             " of type " + function.arg_types()[i].ToCql());
    }
  }
  return Status::Ok();
}

Result<std::shared_ptr<const ScalarFunction>> PickBestMatch(
    std::string_view call_name, const internal::FunctionList& candidates, const Args& args,
    const std::optional<CqlType>& receiver) {
  internal::FunctionList compatible;
  for (const auto& candidate : candidates) {
    // Cassandra's matchReturnType: with a known receiver, only functions whose result it can
    // take are considered.
    if (receiver.has_value() &&
        MatchKnownType(*receiver, candidate->return_type()) == Match::kNotAssignable) {
      continue;
    }
    Match m = MatchArguments(*candidate, args);
    if (m == Match::kExact) return candidate;
    if (m == Match::kWeak) compatible.push_back(candidate);
  }
  std::string_view op = OperatorOfFunction(candidates.front()->name());
  bool binary_operation = !op.empty() && candidates.front()->name() != "_negate";
  if (compatible.empty()) {
    if (binary_operation && args.size() == 2) {
      return Status::Invalid("the '" + std::string(op) + "' operation is not supported between " +
                             args.Text(0) + " and " + args.Text(1));
    }
    return Status::Invalid("Invalid call to function " + std::string(call_name) +
                           ", none of its type signatures match (known type signatures: " +
                           JoinSignatures(candidates) + ")");
  }
  if (compatible.size() == 1) return compatible.front();
  if (binary_operation && args.size() == 2) {
    if (receiver.has_value() && !args.IsMarker(0) && !args.IsMarker(1)) {
      for (const auto& f : compatible) {
        if (f->arg_types()[0] == *receiver && f->arg_types()[1] == *receiver) return f;
      }
    }
    return Status::Invalid("Ambiguous '" + std::string(op) + "' operation with args " +
                           args.Text(0) + " and " + args.Text(1) +
                           ": use type casts to disambiguate");
  }
  if (candidates.front()->name() == "_negate") {
    return Status::Invalid("Ambiguous negation: use type casts to disambiguate");
  }
  return Status::Invalid("Ambiguous call to function " + std::string(call_name) +
                         " (can be matched by following signatures: " + JoinSignatures(compatible) +
                         "): use type casts to disambiguate");
}

}  // namespace

std::string ScalarFunction::Signature() const {
  std::string out = "system." + name_ + " : (";
  for (size_t i = 0; i < arg_types_.size(); ++i) {
    if (i > 0) out += ", ";
    out += arg_types_[i].ToCql();
  }
  return out + ") -> " + return_type_.ToCql();
}

bool IsValueCompatible(const CqlType& receiver, const CqlType& value) {
  if (receiver.WithFrozen(true) == value.WithFrozen(true)) return true;
  switch (receiver.kind()) {
    case TypeKind::kBlob:
      return true;
    case TypeKind::kText:
      return value.kind() == TypeKind::kAscii;
    case TypeKind::kBigint:
      return value.kind() == TypeKind::kTimestamp;
    case TypeKind::kTimestamp:
      return value.kind() == TypeKind::kBigint;
    case TypeKind::kDate:
      return value.kind() == TypeKind::kInt;
    case TypeKind::kTime:
      return value.kind() == TypeKind::kBigint;
    case TypeKind::kVarint:
      return value.kind() == TypeKind::kInt || value.kind() == TypeKind::kBigint ||
             value.kind() == TypeKind::kTimestamp;
    case TypeKind::kUuid:
      return value.kind() == TypeKind::kTimeuuid;
    default:
      return false;
  }
}

Result<std::optional<Bytes>> ConvertCompatibleValue(const CqlType& receiver,
                                                    const CqlType& value_type,
                                                    std::optional<Bytes> value) {
  if (!value || value->empty() || receiver.kind() != TypeKind::kVarint ||
      value_type.kind() == TypeKind::kVarint) {
    return value;
  }
  const CqlType& from = value_type.kind() == TypeKind::kTimestamp ? CqlType::Bigint() : value_type;
  return CastValue(from, receiver, std::string_view(*value));
}

std::shared_ptr<const ScalarFunction> MakeTokenFunction(std::vector<CqlType> partition_key_types) {
  return std::make_shared<internal::LambdaFunction>(
      "token", std::move(partition_key_types), CqlType::Bigint(), true,
      [](const FunctionContext&, internal::FunctionArgs args) -> Result<std::optional<Bytes>> {
        std::vector<std::string_view> parts;
        for (const std::optional<Bytes>& arg : args) {
          if (!arg) return std::optional<Bytes>();
          parts.emplace_back(*arg);
        }
        return std::optional<Bytes>(SerializeBigint(Murmur3Token(SerializePartitionKey(parts))));
      });
}

Status NameFunctionFailure(std::string_view name, std::span<const CqlType> arg_types,
                           Status status) {
  if (status.code() != common::StatusCode::kFunctionFailure) return status;
  const std::string& detail = status.message();
  if (detail.starts_with("execution of '") || detail.starts_with("the operation '")) {
    return status;
  }
  std::vector<std::string> types;
  for (const CqlType& type : arg_types) types.push_back(type.ToCql());
  return Status(
      common::StatusCode::kFunctionFailure,
      fmt::format("execution of 'system.{}[{}]' failed: {}", name, fmt::join(types, ", "), detail));
}

Result<std::optional<Bytes>> ExecuteFunction(const ScalarFunction& function,
                                             const FunctionContext& ctx,
                                             std::span<const std::optional<Bytes>> args) {
  Result<std::optional<Bytes>> result = function.Execute(ctx, args);
  if (result.ok()) return result;
  return NameFunctionFailure(function.name(), function.arg_types(), result.status());
}

std::string_view OperatorOfFunction(std::string_view name) {
  if (name == "_add") return "+";
  if (name == "_substract") return "-";
  if (name == "_multiply") return "*";
  if (name == "_divide") return "/";
  if (name == "_modulo") return "%";
  if (name == "_negate") return "-";
  return "";
}

std::vector<std::shared_ptr<const ScalarFunction>> AllBuiltinScalarFunctions() {
  return GetBuiltins().all();
}

bool IsScalarFunctionName(std::string_view name) {
  return name == "tojson" || name == "fromjson" || GetBuiltins().Find(name) != nullptr;
}

Result<std::shared_ptr<const ScalarFunction>> ResolveScalarFunction(
    std::string_view keyspace, std::string_view name,
    std::span<const std::optional<CqlType>> arg_types, std::span<const Term* const> arg_terms,
    const std::optional<CqlType>& receiver, std::span<const std::string> arg_texts,
    bool in_selection) {
  std::string call_name =
      keyspace.empty() ? std::string(name) : std::string(keyspace) + "." + std::string(name);
  Args args{arg_types, arg_terms, arg_texts};
  bool native = keyspace.empty() || keyspace == "system";
  if (native && name == "tojson") {
    if (!in_selection) {
      return Status::Invalid(
          "toJson() may only be used within the selection clause of SELECT statements");
    }
    if (args.size() != 1) {
      return Status::Invalid("toJson() only accepts one argument (got " +
                             std::to_string(args.size()) + ")");
    }
    CqlType type;
    if (!arg_types.empty() && arg_types[0].has_value()) {
      type = *arg_types[0];
    } else if (!arg_terms.empty() && arg_terms[0] != nullptr &&
               std::holds_alternative<Constant>(arg_terms[0]->value)) {
      type = PreferredType(std::get<Constant>(arg_terms[0]->value));
    } else {
      return Status::Invalid("Cannot infer type of argument " + args.Text(0) +
                             " in call to function system.tojson: use type casts to disambiguate");
    }
    return internal::MakeToJsonFunction(type);
  }
  if (native && name == "fromjson") {
    if (!receiver.has_value()) {
      return Status::Invalid(
          "fromJson() cannot be used in the selection clause of a SELECT statement");
    }
    auto function = internal::MakeFromJsonFunction(*receiver);
    RETURN_IF_ERROR(ValidateSingle(*function, args));
    return function;
  }
  const internal::FunctionList* candidates = native ? GetBuiltins().Find(name) : nullptr;
  if (candidates == nullptr || candidates->empty()) {
    if (in_selection) return Status::Invalid("Unknown function '" + call_name + "'");
    // Cassandra resolves aggregates in terms too, then refuses them (with this wording even
    // outside a WHERE clause).
    if (native && IsAggregateName(name)) {
      return Status::Invalid("Aggregation function are not supported in the where clause");
    }
    return Status::Invalid("Unknown function " + call_name + " called");
  }
  if (candidates->size() == 1) {
    RETURN_IF_ERROR(ValidateSingle(*candidates->front(), args));
    return candidates->front();
  }
  return PickBestMatch(call_name, *candidates, args, receiver);
}

}  // namespace cql
