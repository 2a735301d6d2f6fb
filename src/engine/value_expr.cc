#include "engine/value_expr.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "cql/parser/literal.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_compare.h"
#include "engine/table_schema.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;
using cql::BoundValue;
using cql::CqlType;
using cql::TypeKind;

void BindCollector::Bind(int index, const CqlType& type, std::string_view receiver_name) {
  if (index < 0 || static_cast<size_t>(index) >= specs_.size()) return;
  cql::ColumnSpec& spec = specs_[index];
  spec.keyspace = keyspace_;
  spec.table = table_;
  spec.name = names_[index].empty() ? std::string(receiver_name) : names_[index];
  spec.type = type;
}

void BindCollector::SetTable(const TableSchema& table) {
  std::vector<CqlType> partition_key_types;
  for (int index : table.partition_key) partition_key_types.push_back(table.column(index).type);
  SetTable(table.table->keyspace, table.table->name, std::move(partition_key_types));
}

ValueExpr ValueExpr::Constant(CqlType type, std::optional<Bytes> value) {
  ValueExpr expr;
  expr.kind_ = Kind::kConstant;
  expr.type_ = std::move(type);
  expr.constant_ = std::move(value);
  return expr;
}

namespace {

std::string ElementReceiver(std::string_view receiver) {
  return fmt::format("value({})", receiver);
}

// Cassandra's message for a literal of the wrong shape.
Status InvalidLiteral(std::string_view what, std::string_view receiver, const CqlType& type) {
  return Status::Invalid(
      fmt::format("Invalid {} literal for {} of type {}", what, receiver, type.ToCql()));
}

}  // namespace

// Prepares one term kind each (the binder's one-function-per-expression-kind shape).
class ValuePreparer {
 public:
  explicit ValuePreparer(BindCollector* binds) : binds_(binds) {}

  Result<ValueExpr> Prepare(const cql::Term& term, const CqlType& type, std::string_view receiver) {
    if (cql::IsLiteral(term)) {
      ASSIGN_OR_RETURN(std::optional<Bytes> value, cql::EvaluateLiteral(type, term, receiver));
      return ValueExpr::Constant(type, std::move(value));
    }
    ValueExpr expr;
    expr.type_ = type;
    expr.receiver_ = std::string(receiver);
    if (const auto* marker = std::get_if<cql::BindMarker>(&term.value)) {
      expr.kind_ = ValueExpr::Kind::kMarker;
      expr.marker_index_ = marker->index;
      expr.normalize_marker_ = cql::HasUnorderedParts(type);
      if (binds_ != nullptr) binds_->Bind(marker->index, type, receiver);
      return expr;
    }
    if (const auto* call = std::get_if<cql::FunctionCall>(&term.value)) {
      return PrepareCall(*call, std::move(expr));
    }
    if (const auto* hint = std::get_if<cql::TypeHint>(&term.value)) {
      return Prepare(*hint->term, type, receiver);
    }
    if (const auto* collection = std::get_if<cql::CollectionLiteral>(&term.value)) {
      return PrepareCollection(*collection, std::move(expr));
    }
    if (const auto* tuple = std::get_if<cql::TupleLiteral>(&term.value)) {
      return PrepareTuple(*tuple, std::move(expr));
    }
    if (const auto* udt = std::get_if<cql::UdtLiteral>(&term.value)) {
      return PrepareUdt(*udt, std::move(expr));
    }
    // Everything else is a literal EvaluateLiteral rejected above or cannot reach here.
    return Status::Invalid(fmt::format("Invalid value for {}", receiver));
  }

 private:
  // The type a nested call returns on its own (no receiver), if it resolves to one function:
  // what lets `toTimestamp(now())` pick the timeuuid overload, as Cassandra's resolver does.
  std::optional<CqlType> NestedCallType(const cql::FunctionCall& call) const {
    if (IsTokenCall(call)) return CqlType::Bigint();
    Result<std::shared_ptr<const cql::ScalarFunction>> function = Resolve(call, std::nullopt);
    if (!function.ok()) return std::nullopt;
    return (*function)->return_type();
  }

  bool IsTokenCall(const cql::FunctionCall& call) const {
    return call.name == "token" && (call.keyspace.empty() || call.keyspace == "system") &&
           binds_ != nullptr && !binds_->partition_key_types().empty();
  }

  Result<std::shared_ptr<const cql::ScalarFunction>> Resolve(
      const cql::FunctionCall& call, const std::optional<CqlType>& receiver) const {
    if (IsTokenCall(call)) {
      const std::vector<CqlType>& types = binds_->partition_key_types();
      if (call.args.size() != types.size()) {
        return Status::Invalid(fmt::format(
            "Invalid number of arguments in call to function system.token: {} required but {} "
            "provided",
            types.size(), call.args.size()));
      }
      return cql::MakeTokenFunction(types);
    }
    std::vector<std::optional<CqlType>> arg_types;
    std::vector<const cql::Term*> arg_terms;
    for (const cql::Term& arg : call.args) {
      if (const auto* hint = std::get_if<cql::TypeHint>(&arg.value)) {
        arg_types.emplace_back(hint->type);
      } else if (const auto* nested = std::get_if<cql::FunctionCall>(&arg.value)) {
        arg_types.push_back(NestedCallType(*nested));
      } else {
        arg_types.emplace_back(std::nullopt);
      }
      arg_terms.push_back(cql::IsLiteral(arg) ? &arg : nullptr);
    }
    return cql::ResolveScalarFunction(call.keyspace, call.name, arg_types, arg_terms, receiver);
  }

  Result<ValueExpr> PrepareCall(const cql::FunctionCall& call, ValueExpr expr) {
    const CqlType& type = expr.type_;
    ASSIGN_OR_RETURN(std::shared_ptr<const cql::ScalarFunction> function,
                     Resolve(call, std::optional<CqlType>(type)));
    const CqlType& result = function->return_type();
    if (!cql::IsValueCompatible(type, result)) {
      return Status::Invalid(fmt::format(
          "Type error: cannot assign result of function system.{} (type {}) to {} (type {})",
          function->name(), result.ToCql(), expr.receiver_, type.ToCql()));
    }
    if (!(result == type)) expr.result_type_ = result;
    expr.kind_ = ValueExpr::Kind::kFunction;
    expr.function_ = function;
    for (size_t i = 0; i < call.args.size(); ++i) {
      std::string arg_receiver = fmt::format("{}[{}]", function->name(), i);
      ASSIGN_OR_RETURN(ValueExpr arg,
                       Prepare(call.args[i], function->arg_types()[i], arg_receiver));
      expr.args_.push_back(std::move(arg));
    }
    return expr;
  }

  Result<ValueExpr> PrepareCollection(const cql::CollectionLiteral& collection, ValueExpr expr) {
    const CqlType& type = expr.type_;
    const std::string& receiver = expr.receiver_;
    std::string element_receiver = ElementReceiver(receiver);
    switch (type.kind()) {
      case TypeKind::kList:
      case TypeKind::kSet:
      case TypeKind::kVector: {
        bool is_list = collection.kind == cql::CollectionLiteral::Kind::kList;
        if (type.kind() == TypeKind::kSet && is_list) return InvalidLiteral("set", receiver, type);
        if (type.kind() != TypeKind::kSet && !is_list) {
          return InvalidLiteral("list", receiver, type);
        }
        expr.kind_ = type.kind() == TypeKind::kSet ? ValueExpr::Kind::kSet : ValueExpr::Kind::kList;
        for (const cql::Term& element : collection.elements) {
          ASSIGN_OR_RETURN(ValueExpr e, Prepare(element, type.element(), element_receiver));
          expr.args_.push_back(std::move(e));
        }
        return expr;
      }
      case TypeKind::kMap: {
        if (collection.kind != cql::CollectionLiteral::Kind::kMap) {
          return InvalidLiteral("map", receiver, type);
        }
        expr.kind_ = ValueExpr::Kind::kMap;
        std::string key_receiver = fmt::format("key({})", receiver);
        for (size_t i = 0; i < collection.keys.size(); ++i) {
          ASSIGN_OR_RETURN(ValueExpr k, Prepare(collection.keys[i], type.key(), key_receiver));
          ASSIGN_OR_RETURN(ValueExpr v,
                           Prepare(collection.elements[i], type.value(), element_receiver));
          expr.args_.push_back(std::move(k));
          expr.args_.push_back(std::move(v));
        }
        return expr;
      }
      default:
        return Status::Invalid(
            fmt::format("Invalid collection literal for {} of type {}", receiver, type.ToCql()));
    }
  }

  Result<ValueExpr> PrepareTuple(const cql::TupleLiteral& tuple, ValueExpr expr) {
    const CqlType& type = expr.type_;
    const std::string& receiver = expr.receiver_;
    if (type.kind() != TypeKind::kTuple) {
      return Status::Invalid(
          fmt::format("Invalid tuple type literal for {} of type {}", receiver, type.ToCql()));
    }
    if (tuple.elements.size() > type.params().size()) {
      return Status::Invalid(fmt::format(
          "Invalid tuple literal for {}: too many elements. Type {} expects {} but got {}",
          receiver, type.ToCql(), type.params().size(), tuple.elements.size()));
    }
    expr.kind_ = ValueExpr::Kind::kTupleOrUdt;
    for (size_t i = 0; i < type.params().size(); ++i) {
      if (i < tuple.elements.size()) {
        ASSIGN_OR_RETURN(ValueExpr e, Prepare(tuple.elements[i], type.params()[i],
                                              fmt::format("{}[{}]", receiver, i)));
        expr.args_.push_back(std::move(e));
      } else {
        expr.args_.push_back(ValueExpr::Constant(type.params()[i], std::nullopt));
      }
    }
    return expr;
  }

  Result<ValueExpr> PrepareUdt(const cql::UdtLiteral& udt, ValueExpr expr) {
    const CqlType& type = expr.type_;
    const std::string& receiver = expr.receiver_;
    if (type.kind() != TypeKind::kUdt) {
      return Status::Invalid(
          fmt::format("Invalid user type literal for {} of type {}", receiver, type.ToCql()));
    }
    expr.kind_ = ValueExpr::Kind::kTupleOrUdt;
    const std::vector<std::string>& fields = type.field_names();
    for (const std::string& name : udt.field_names) {
      if (std::find(fields.begin(), fields.end(), name) == fields.end()) {
        return Status::Invalid(
            fmt::format("Unknown field '{}' in value of user defined type {}", name, type.name()));
      }
    }
    for (size_t i = 0; i < fields.size(); ++i) {
      auto it = std::find(udt.field_names.begin(), udt.field_names.end(), fields[i]);
      if (it == udt.field_names.end()) {
        expr.args_.push_back(ValueExpr::Constant(type.params()[i], std::nullopt));
        continue;
      }
      const cql::Term& value = udt.values[it - udt.field_names.begin()];
      ASSIGN_OR_RETURN(ValueExpr e,
                       Prepare(value, type.params()[i], fmt::format("{}.{}", receiver, fields[i])));
      expr.args_.push_back(std::move(e));
    }
    return expr;
  }

  BindCollector* binds_;
};

Result<ValueExpr> ValueExpr::Prepare(const cql::Term& term, const CqlType& type,
                                     std::string_view receiver, BindCollector* binds) {
  return ValuePreparer(binds).Prepare(term, type, receiver);
}

bool ValueExpr::has_marker() const {
  if (kind_ == Kind::kMarker) return true;
  for (const ValueExpr& arg : args_) {
    if (arg.has_marker()) return true;
  }
  return false;
}

namespace {

Status NullInCollection() { return Status::Invalid("null is not supported inside collections"); }
Status UnsetInCollection() {
  return Status::Invalid("unset value is not supported inside collections");
}

}  // namespace

Result<BoundValue> ValueExpr::Evaluate(const EvalContext& context) const {
  switch (kind_) {
    case Kind::kConstant:
      return constant_ ? BoundValue::Of(*constant_) : BoundValue::Null();
    case Kind::kMarker: {
      if (marker_index_ < 0 || static_cast<size_t>(marker_index_) >= context.values.size()) {
        return Status::Invalid(fmt::format("No value bound for marker {}", marker_index_));
      }
      const BoundValue& value = context.values[marker_index_];
      if (value.is_value()) {
        if (Status s = cql::ValidateValue(type_, value.bytes); !s.ok()) {
          return Status::Invalid(fmt::format("Invalid value for {} of type {}: {}", receiver_,
                                             type_.ToCql(), s.message()));
        }
        // Sets and maps bound as bytes take the canonical form literals have.
        if (normalize_marker_) {
          ASSIGN_OR_RETURN(Bytes normalized, cql::NormalizeValue(type_, value.bytes));
          return BoundValue::Of(std::move(normalized));
        }
      }
      return value;
    }
    case Kind::kFunction: {
      std::vector<std::optional<Bytes>> args;
      args.reserve(args_.size());
      for (const ValueExpr& arg : args_) {
        ASSIGN_OR_RETURN(BoundValue v, arg.Evaluate(context));
        if (v.is_unset()) {
          return Status::Invalid(
              fmt::format("Invalid unset value for argument in call to "
                          "function {}",
                          function_->name()));
        }
        args.push_back(v.is_value() ? std::optional<Bytes>(std::move(v.bytes)) : std::nullopt);
      }
      if (context.functions == nullptr) {
        return Status::Internal("function evaluated without a function context");
      }
      ASSIGN_OR_RETURN(std::optional<Bytes> result,
                       cql::ExecuteFunction(*function_, *context.functions, args));
      if (result_type_) {
        ASSIGN_OR_RETURN(result,
                         cql::ConvertCompatibleValue(type_, *result_type_, std::move(result)));
      }
      return result ? BoundValue::Of(std::move(*result)) : BoundValue::Null();
    }
    case Kind::kList:
    case Kind::kSet: {
      std::vector<Bytes> elements;
      elements.reserve(args_.size());
      for (const ValueExpr& arg : args_) {
        ASSIGN_OR_RETURN(BoundValue v, arg.Evaluate(context));
        if (v.is_null()) return NullInCollection();
        if (v.is_unset()) return UnsetInCollection();
        elements.push_back(std::move(v.bytes));
      }
      if (type_.kind() == TypeKind::kVector) {
        ASSIGN_OR_RETURN(Bytes bytes, cql::SerializeVector(type_, elements));
        return BoundValue::Of(std::move(bytes));
      }
      return BoundValue::Of(cql::SerializeCollection(type_, std::move(elements)));
    }
    case Kind::kMap: {
      std::vector<std::pair<Bytes, Bytes>> entries;
      for (size_t i = 0; i + 1 < args_.size(); i += 2) {
        ASSIGN_OR_RETURN(BoundValue k, args_[i].Evaluate(context));
        ASSIGN_OR_RETURN(BoundValue v, args_[i + 1].Evaluate(context));
        if (k.is_null() || v.is_null()) return NullInCollection();
        if (k.is_unset() || v.is_unset()) return UnsetInCollection();
        entries.emplace_back(std::move(k.bytes), std::move(v.bytes));
      }
      return BoundValue::Of(cql::SerializeMap(type_, std::move(entries)));
    }
    case Kind::kTupleOrUdt: {
      std::vector<std::optional<Bytes>> fields;
      for (const ValueExpr& arg : args_) {
        ASSIGN_OR_RETURN(BoundValue v, arg.Evaluate(context));
        if (v.is_unset()) return Status::Invalid("Invalid unset value in tuple or user type");
        fields.push_back(v.is_value() ? std::optional<Bytes>(std::move(v.bytes)) : std::nullopt);
      }
      return BoundValue::Of(cql::SerializeTupleOrUdt(fields));
    }
  }
  return Status::Internal("unknown value expression");
}

}  // namespace engine
