#include "engine/selection.h"

#include <utility>

#include <fmt/format.h>

#include "cql/functions/cast.h"
#include "cql/functions/json.h"
#include "cql/types/murmur3.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_compare.h"

namespace engine {

using common::Bytes;
using common::Result;
using common::Status;
using cql::CqlType;
using cql::Selectable;
using cql::TypeKind;
using schema::ColumnKind;

// One selector, evaluated on an assembled row.
class SelectorExpr {
 public:
  enum class Kind : uint8_t {
    kColumn,
    kWritetime,
    kTtl,
    kToken,
    kFunction,
    kCast,
    kField,
    kElement,
    kSlice,
    kTerm,
    kAggregate,
  };
  Kind kind = Kind::kColumn;
  CqlType type;
  std::string name;  // the result column name Cassandra gives it
  int column = -1;   // kColumn, kWritetime, kTtl
  int field = -1;    // kField
  std::shared_ptr<const cql::ScalarFunction> function;
  std::shared_ptr<const cql::AggregateFunction> aggregate;
  int aggregate_slot = -1;
  std::vector<std::unique_ptr<SelectorExpr>> args;
  std::optional<ValueExpr> term;   // kTerm, kElement key, kSlice start
  std::optional<ValueExpr> term2;  // kSlice end

  bool ContainsAggregate() const {
    if (kind == Kind::kAggregate) return true;
    for (const auto& arg : args) {
      if (arg->ContainsAggregate()) return true;
    }
    return false;
  }

  Result<std::optional<Bytes>> Evaluate(const TableSchema& table, const RowData& row,
                                        const EvalContext& context,
                                        const SelectionState* state) const;

 private:
  Result<std::optional<Bytes>> EvaluateElementOrSlice(const Bytes& value,
                                                      const EvalContext& context) const;
};

SelectionState::~SelectionState() = default;
Selection::~Selection() = default;

namespace {

std::string QualifiedTable(const TableSchema& table) {
  return fmt::format("{}.{}", table.table->keyspace, table.table->name);
}

Status Undefined(const TableSchema& table, std::string_view name) {
  return Status::Invalid(fmt::format("Undefined column name {} in table {}",
                                     cql::QuoteIdentifierIfNeeded(name), QualifiedTable(table)));
}

struct PrepareState {
  const TableSchema& table;
  BindCollector* binds;
  int aggregate_slots = 0;
};

Result<std::unique_ptr<SelectorExpr>> PrepareSelectable(const Selectable& s, PrepareState* ps);

Result<std::unique_ptr<SelectorExpr>> PrepareColumn(const std::string& name, PrepareState* ps) {
  int index = ps->table.IndexOfColumn(name);
  if (index < 0) return Undefined(ps->table, name);
  auto expr = std::make_unique<SelectorExpr>();
  expr->kind = SelectorExpr::Kind::kColumn;
  expr->column = index;
  expr->type = ps->table.column(index).type;
  expr->name = cql::QuoteIdentifierIfNeeded(name);
  return expr;
}

std::string JoinNames(const std::vector<std::unique_ptr<SelectorExpr>>& args) {
  std::vector<std::string> names;
  for (const auto& arg : args) names.push_back(arg->name);
  return fmt::format("{}", fmt::join(names, ", "));
}

Result<std::unique_ptr<SelectorExpr>> PrepareCountRows(PrepareState* ps) {
  auto expr = std::make_unique<SelectorExpr>();
  expr->kind = SelectorExpr::Kind::kAggregate;
  ASSIGN_OR_RETURN(expr->aggregate, cql::ResolveAggregate("countrows", {}));
  expr->type = expr->aggregate->return_type();
  expr->aggregate_slot = ps->aggregate_slots++;
  expr->name = "count";
  return expr;
}

Result<std::unique_ptr<SelectorExpr>> PrepareWritetimeOrTtl(const Selectable& s, PrepareState* ps) {
  const TableSchema& table = ps->table;
  bool writetime = s.kind == Selectable::Kind::kWritetime;
  const char* fn = writetime ? "writetime" : "ttl";
  if (s.args.size() != 1 || s.args[0].kind != Selectable::Kind::kColumn) {
    return Status::Invalid(fmt::format("Invalid argument for {}()", fn));
  }
  const std::string& column_name = s.args[0].name;
  int index = table.IndexOfColumn(column_name);
  if (index < 0) return Undefined(table, column_name);
  const schema::ColumnMetadata& column = table.column(index);
  if (column.kind == ColumnKind::kPartitionKey || column.kind == ColumnKind::kClustering) {
    return Status::Invalid(
        fmt::format("Cannot use selection function {} on PRIMARY KEY part {}", fn, column.name));
  }
  if (column.type.IsMultiCell()) {
    return Status::Invalid(fmt::format("Cannot use selection function {} on non-frozen {} {}", fn,
                                       column.type.IsCollection() ? "collection" : "UDT",
                                       column.name));
  }
  if (column.type.IsCounter()) {
    return Status::Invalid(
        fmt::format("Cannot use selection function {} on counter column {}", fn, column.name));
  }
  auto expr = std::make_unique<SelectorExpr>();
  expr->kind = writetime ? SelectorExpr::Kind::kWritetime : SelectorExpr::Kind::kTtl;
  expr->column = index;
  expr->type = writetime ? CqlType::Bigint() : CqlType::Int();
  expr->name = fmt::format("{}({})", fn, cql::QuoteIdentifierIfNeeded(column.name));
  return expr;
}

Result<std::unique_ptr<SelectorExpr>> PrepareCast(const Selectable& s, PrepareState* ps) {
  if (s.args.size() != 1 || !s.type) return Status::Invalid("Invalid CAST");
  ASSIGN_OR_RETURN(std::unique_ptr<SelectorExpr> arg, PrepareSelectable(s.args[0], ps));
  if (!cql::CanCast(arg->type, *s.type)) {
    return Status::Invalid(
        fmt::format("{} cannot be cast to {}", arg->type.ToCql(), s.type->ToCql()));
  }
  auto expr = std::make_unique<SelectorExpr>();
  expr->kind = SelectorExpr::Kind::kCast;
  expr->type = *s.type;
  expr->name = fmt::format("cast({} as {})", arg->name, s.type->ToCql());
  expr->args.push_back(std::move(arg));
  return expr;
}

Result<std::unique_ptr<SelectorExpr>> PrepareField(const Selectable& s, PrepareState* ps) {
  ASSIGN_OR_RETURN(std::unique_ptr<SelectorExpr> arg, PrepareSelectable(s.args[0], ps));
  if (arg->type.kind() != TypeKind::kUdt) {
    return Status::Invalid(fmt::format("Invalid field selection: {} of type {} is not a user type",
                                       arg->name, arg->type.ToCql()));
  }
  const std::vector<std::string>& fields = arg->type.field_names();
  auto it = std::find(fields.begin(), fields.end(), s.name);
  if (it == fields.end()) {
    return Status::Invalid(
        fmt::format("{} of type {} has no field {}", arg->name, arg->type.ToCql(), s.name));
  }
  auto expr = std::make_unique<SelectorExpr>();
  expr->kind = SelectorExpr::Kind::kField;
  expr->field = static_cast<int>(it - fields.begin());
  expr->type = arg->type.params()[expr->field];
  expr->name = fmt::format("{}.{}", arg->name, cql::QuoteIdentifierIfNeeded(s.name));
  expr->args.push_back(std::move(arg));
  return expr;
}

Result<std::unique_ptr<SelectorExpr>> PrepareElementOrSlice(const Selectable& s, PrepareState* ps) {
  ASSIGN_OR_RETURN(std::unique_ptr<SelectorExpr> arg, PrepareSelectable(s.args[0], ps));
  const CqlType& type = arg->type;
  if (type.kind() != TypeKind::kMap && type.kind() != TypeKind::kSet) {
    return Status::Invalid(
        fmt::format("Invalid element selection: {} is of type {} is not a collection", arg->name,
                    type.ToCql()));
  }
  const CqlType& key_type = type.kind() == TypeKind::kMap ? type.key() : type.element();
  auto expr = std::make_unique<SelectorExpr>();
  expr->kind = s.kind == Selectable::Kind::kElement ? SelectorExpr::Kind::kElement
                                                    : SelectorExpr::Kind::kSlice;
  std::string key_receiver = fmt::format("key({})", arg->name);
  if (s.term) {
    ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(*s.term, key_type, key_receiver, ps->binds));
    expr->term = std::move(v);
  }
  if (s.term2) {
    ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(*s.term2, key_type, key_receiver, ps->binds));
    expr->term2 = std::move(v);
  }
  if (expr->kind == SelectorExpr::Kind::kElement) {
    expr->type = type.kind() == TypeKind::kMap ? type.value() : type.element();
    expr->name = fmt::format("{}[{}]", arg->name, s.term ? s.term->ToCql() : "");
  } else {
    expr->type = type;
    expr->name = fmt::format("{}[{}..{}]", arg->name, s.term ? s.term->ToCql() : "",
                             s.term2 ? s.term2->ToCql() : "");
  }
  expr->args.push_back(std::move(arg));
  return expr;
}

// `(type)literal`: a literal made typed; any other hinted selector is the selector itself.
Result<std::unique_ptr<SelectorExpr>> PrepareTypeHint(const Selectable& s, PrepareState* ps) {
  if (s.args.size() == 1 && s.args[0].kind == Selectable::Kind::kTerm && s.type) {
    auto expr = std::make_unique<SelectorExpr>();
    expr->kind = SelectorExpr::Kind::kTerm;
    expr->type = *s.type;
    ASSIGN_OR_RETURN(ValueExpr v, ValueExpr::Prepare(*s.args[0].term, *s.type,
                                                     s.args[0].term->ToCql(), ps->binds));
    expr->name = fmt::format("({}){}", s.type->ToCql(), s.args[0].term->ToCql());
    expr->term = std::move(v);
    return expr;
  }
  return PrepareSelectable(s.args[0], ps);
}

// token(<partition key columns in order>).
Result<std::unique_ptr<SelectorExpr>> PrepareToken(const Selectable& s, PrepareState* ps) {
  const TableSchema& table = ps->table;
  auto expr = std::make_unique<SelectorExpr>();
  expr->kind = SelectorExpr::Kind::kToken;
  expr->type = CqlType::Bigint();
  if (s.args.size() != table.partition_key.size()) {
    return Status::Invalid(fmt::format(
        "Invalid number of arguments in call to function system.token: {} required but {} "
        "provided",
        table.partition_key.size(), s.args.size()));
  }
  std::vector<std::string> names;
  for (size_t i = 0; i < s.args.size(); ++i) {
    if (s.args[i].kind != Selectable::Kind::kColumn ||
        s.args[i].name != table.column(table.partition_key[i]).name) {
      return Status::Invalid(
          "The token function arguments must be the partition key columns in order");
    }
    names.push_back(cql::QuoteIdentifierIfNeeded(s.args[i].name));
  }
  expr->name = fmt::format("system.token({})", fmt::join(names, ", "));
  return expr;
}

// The arguments of a function call: selectors, or literals and markers whose type the
// chosen overload decides (`arg` null, `term` set).
struct CallArgs {
  std::vector<std::unique_ptr<SelectorExpr>> args;
  std::vector<std::optional<CqlType>> types;
  std::vector<const cql::Term*> terms;
  std::vector<std::string> texts;
};

Result<CallArgs> PrepareCallArgs(const Selectable& s, PrepareState* ps) {
  CallArgs call;
  for (const Selectable& a : s.args) {
    if (a.kind == Selectable::Kind::kTerm && a.term) {
      call.args.push_back(nullptr);
      call.types.emplace_back(std::nullopt);
      call.terms.push_back(&*a.term);
      call.texts.push_back(a.term->ToCql());
      continue;
    }
    ASSIGN_OR_RETURN(std::unique_ptr<SelectorExpr> arg, PrepareSelectable(a, ps));
    call.types.emplace_back(arg->type);
    call.terms.push_back(nullptr);
    call.texts.push_back(arg->name);
    call.args.push_back(std::move(arg));
  }
  return call;
}

// COUNT(<integer literal>): the grammar's COUNT(1), a count of rows; any other integer is
// refused as Cassandra's parser refuses it. nullopt when `s` is not such a call.
std::optional<Status> CheckCountLiteral(const Selectable& s) {
  if (s.name != "count" || s.args.size() != 1 || s.args[0].kind != Selectable::Kind::kTerm ||
      !s.args[0].term) {
    return std::nullopt;
  }
  const auto* constant = std::get_if<cql::Constant>(&s.args[0].term->value);
  if (constant == nullptr || constant->kind != cql::ConstantKind::kInteger) return std::nullopt;
  if (constant->text == "1") return Status::Ok();
  return Status::SyntaxError(
      fmt::format("Only COUNT(1) is supported, got COUNT({})", constant->text));
}

Result<std::unique_ptr<SelectorExpr>> PrepareAggregate(const Selectable& s, CallArgs call,
                                                       PrepareState* ps) {
  std::vector<CqlType> types;
  for (const auto& t : call.types) {
    if (!t) {
      return Status::Invalid(
          fmt::format("Cannot infer type of argument in call to aggregate {}", s.name));
    }
    types.push_back(*t);
  }
  auto expr = std::make_unique<SelectorExpr>();
  expr->kind = SelectorExpr::Kind::kAggregate;
  ASSIGN_OR_RETURN(expr->aggregate, cql::ResolveAggregate(s.name, types));
  for (const auto& arg : call.args) {
    if (arg->ContainsAggregate()) {
      return Status::Invalid(
          "aggregate functions cannot be used as arguments of aggregate functions");
    }
  }
  expr->type = expr->aggregate->return_type();
  expr->aggregate_slot = ps->aggregate_slots++;
  expr->name = fmt::format("system.{}({})", s.name, JoinNames(call.args));
  expr->args = std::move(call.args);
  return expr;
}

Result<std::unique_ptr<SelectorExpr>> PrepareScalarCall(const Selectable& s, CallArgs call,
                                                        PrepareState* ps) {
  ASSIGN_OR_RETURN(std::shared_ptr<const cql::ScalarFunction> function,
                   cql::ResolveScalarFunction(s.keyspace, s.name, call.types, call.terms,
                                              std::nullopt, call.texts, /*in_selection=*/true));
  auto expr = std::make_unique<SelectorExpr>();
  expr->kind = SelectorExpr::Kind::kFunction;
  expr->function = function;
  expr->type = function->return_type();
  std::vector<std::unique_ptr<SelectorExpr>>& args = call.args;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] != nullptr) continue;
    auto term = std::make_unique<SelectorExpr>();
    term->kind = SelectorExpr::Kind::kTerm;
    term->type = function->arg_types()[i];
    ASSIGN_OR_RETURN(ValueExpr v,
                     ValueExpr::Prepare(*call.terms[i], term->type, call.texts[i], ps->binds));
    term->term = std::move(v);
    term->name = call.texts[i];
    args[i] = std::move(term);
  }
  std::string_view op = cql::OperatorOfFunction(s.name);
  if (!op.empty() && args.size() == 2) {
    expr->name = fmt::format("{} {} {}", args[0]->name, op, args[1]->name);
  } else if (!op.empty() && args.size() == 1) {
    expr->name = fmt::format("-{}", args[0]->name);
  } else {
    expr->name = fmt::format("system.{}({})", s.name, JoinNames(args));
  }
  expr->args = std::move(args);
  return expr;
}

Result<std::unique_ptr<SelectorExpr>> PrepareFunction(const Selectable& s, PrepareState* ps) {
  if (!s.keyspace.empty() && s.keyspace != "system") {
    return Status::Invalid(fmt::format("Unknown function {}.{}", s.keyspace, s.name));
  }
  if (s.name == "token") return PrepareToken(s, ps);
  if (std::optional<Status> count = CheckCountLiteral(s)) {
    RETURN_IF_ERROR(*count);
    return PrepareCountRows(ps);
  }
  ASSIGN_OR_RETURN(CallArgs call, PrepareCallArgs(s, ps));
  if (cql::IsAggregateName(s.name)) return PrepareAggregate(s, std::move(call), ps);
  return PrepareScalarCall(s, std::move(call), ps);
}

Result<std::unique_ptr<SelectorExpr>> PrepareSelectable(const Selectable& s, PrepareState* ps) {
  switch (s.kind) {
    case Selectable::Kind::kColumn:
      return PrepareColumn(s.name, ps);
    case Selectable::Kind::kCountRows:
      return PrepareCountRows(ps);
    case Selectable::Kind::kWritetime:
    case Selectable::Kind::kTtl:
      return PrepareWritetimeOrTtl(s, ps);
    case Selectable::Kind::kCast:
      return PrepareCast(s, ps);
    case Selectable::Kind::kField:
      return PrepareField(s, ps);
    case Selectable::Kind::kElement:
    case Selectable::Kind::kSlice:
      return PrepareElementOrSlice(s, ps);
    case Selectable::Kind::kTerm:
      if (!s.term) return Status::Invalid("Invalid selector");
      // A literal needs a type: a hint, or a constant whose kind implies one.
      return Status::Invalid(fmt::format(
          "Cannot infer type for term {} in selection clause (try using a cast to force a type)",
          s.term->ToCql()));
    case Selectable::Kind::kTypeHint:
      return PrepareTypeHint(s, ps);
    case Selectable::Kind::kFunction:
      return PrepareFunction(s, ps);
    case Selectable::Kind::kTuple:
    case Selectable::Kind::kList:
    case Selectable::Kind::kSet:
    case Selectable::Kind::kMap:
      return Status::Invalid(
          "Collection and tuple literals in the selection clause are not supported");
  }
  return Status::Invalid("Invalid selector");
}

}  // namespace

// Element (`m[k]`, `s[e]`) or slice (`m[a..b]`) selection on the collection `value`.
Result<std::optional<Bytes>> SelectorExpr::EvaluateElementOrSlice(
    const Bytes& value, const EvalContext& context) const {
  const Bytes* v = &value;
  const CqlType& collection = args[0]->type;
  bool is_map = collection.kind() == TypeKind::kMap;
  const CqlType& key_type = is_map ? collection.key() : collection.element();
  std::optional<Bytes> low;
  std::optional<Bytes> high;
  if (term) {
    ASSIGN_OR_RETURN(cql::BoundValue b, term->Evaluate(context));
    if (b.is_value())
      low = std::move(b.bytes);
    else if (kind == Kind::kElement)
      return std::optional<Bytes>();
  }
  if (term2) {
    ASSIGN_OR_RETURN(cql::BoundValue b, term2->Evaluate(context));
    if (b.is_value()) high = std::move(b.bytes);
  }
  if (is_map) {
    ASSIGN_OR_RETURN(std::vector<cql::MapEntryView> entries, cql::SplitMap(*v));
    if (kind == Kind::kElement) {
      for (const auto& e : entries) {
        if (cql::CompareValues(key_type, e.key, *low) == 0) {
          return std::optional<Bytes>(Bytes(e.value));
        }
      }
      return std::optional<Bytes>();
    }
    std::vector<std::pair<Bytes, Bytes>> kept;
    for (const auto& e : entries) {
      if (low && cql::CompareValues(key_type, e.key, *low) < 0) continue;
      if (high && cql::CompareValues(key_type, e.key, *high) > 0) continue;
      kept.emplace_back(Bytes(e.key), Bytes(e.value));
    }
    if (kept.empty()) return std::optional<Bytes>();
    return std::optional<Bytes>(cql::SerializeMap(collection, std::move(kept)));
  }
  ASSIGN_OR_RETURN(std::vector<std::string_view> elements, cql::SplitListOrSet(collection, *v));
  if (kind == Kind::kElement) {
    for (std::string_view e : elements) {
      if (cql::CompareValues(key_type, e, *low) == 0) return std::optional<Bytes>(Bytes(e));
    }
    return std::optional<Bytes>();
  }
  std::vector<Bytes> kept;
  for (std::string_view e : elements) {
    if (low && cql::CompareValues(key_type, e, *low) < 0) continue;
    if (high && cql::CompareValues(key_type, e, *high) > 0) continue;
    kept.emplace_back(e);
  }
  if (kept.empty()) return std::optional<Bytes>();
  return std::optional<Bytes>(cql::SerializeCollection(collection, std::move(kept)));
}

Result<std::optional<Bytes>> SelectorExpr::Evaluate(const TableSchema& table, const RowData& row,
                                                    const EvalContext& context,
                                                    const SelectionState* state) const {
  switch (kind) {
    case Kind::kColumn:
      return row.cells[column].value;
    case Kind::kWritetime: {
      const CellData& cell = row.cells[column];
      if (!cell.value) return std::optional<Bytes>();
      return std::optional<Bytes>(cql::SerializeBigint(cell.timestamp));
    }
    case Kind::kTtl: {
      const CellData& cell = row.cells[column];
      if (!cell.value || cell.ttl <= 0) return std::optional<Bytes>();
      return std::optional<Bytes>(cql::SerializeInt(cell.ttl));
    }
    case Kind::kToken: {
      std::vector<std::string_view> parts;
      for (int index : table.partition_key) {
        if (!row.cells[index].value) return std::optional<Bytes>();
        parts.push_back(*row.cells[index].value);
      }
      return std::optional<Bytes>(
          cql::SerializeBigint(cql::Murmur3Token(cql::SerializePartitionKey(parts))));
    }
    case Kind::kTerm: {
      ASSIGN_OR_RETURN(cql::BoundValue v, term->Evaluate(context));
      if (!v.is_value()) return std::optional<Bytes>();
      return std::optional<Bytes>(std::move(v.bytes));
    }
    case Kind::kFunction: {
      std::vector<std::optional<Bytes>> values;
      for (const auto& arg : args) {
        ASSIGN_OR_RETURN(std::optional<Bytes> v, arg->Evaluate(table, row, context, state));
        values.push_back(std::move(v));
      }
      return cql::ExecuteFunction(*function, *context.functions, values);
    }
    case Kind::kCast: {
      ASSIGN_OR_RETURN(std::optional<Bytes> v, args[0]->Evaluate(table, row, context, state));
      std::optional<std::string_view> view;
      if (v) view = *v;
      return cql::CastValue(args[0]->type, type, view);
    }
    case Kind::kField: {
      ASSIGN_OR_RETURN(std::optional<Bytes> v, args[0]->Evaluate(table, row, context, state));
      if (!v) return std::optional<Bytes>();
      ASSIGN_OR_RETURN(std::vector<std::optional<std::string_view>> fields,
                       cql::SplitTupleOrUdt(*v, args[0]->type.params().size()));
      if (static_cast<size_t>(field) >= fields.size() || !fields[field]) {
        return std::optional<Bytes>();
      }
      return std::optional<Bytes>(Bytes(*fields[field]));
    }
    case Kind::kElement:
    case Kind::kSlice: {
      ASSIGN_OR_RETURN(std::optional<Bytes> v, args[0]->Evaluate(table, row, context, state));
      if (!v) return std::optional<Bytes>();
      return EvaluateElementOrSlice(*v, context);
    }
    case Kind::kAggregate: {
      if (state == nullptr || aggregate_slot < 0 ||
          static_cast<size_t>(aggregate_slot) >= state->aggregates_size()) {
        return Status::Internal("aggregate evaluated without state");
      }
      return state->AggregateResult(aggregate_slot);
    }
  }
  return Status::Internal("unknown selector");
}

namespace {

void CollectAggregates(const SelectorExpr& expr, std::vector<const SelectorExpr*>* out) {
  if (expr.kind == SelectorExpr::Kind::kAggregate) {
    if (static_cast<size_t>(expr.aggregate_slot) >= out->size()) {
      out->resize(expr.aggregate_slot + 1, nullptr);
    }
    (*out)[expr.aggregate_slot] = &expr;
    return;
  }
  for (const auto& arg : expr.args) CollectAggregates(*arg, out);
}

}  // namespace

Result<std::unique_ptr<Selection>> Selection::Prepare(const TableSchema& table,
                                                      const std::vector<cql::Selector>& selectors,
                                                      bool json, BindCollector* binds) {
  std::unique_ptr<Selection> selection(new Selection());
  selection->table_ = &table;
  selection->json_ = json;
  const std::string& ks = table.table->keyspace;
  const std::string& tn = table.table->name;
  if (selectors.empty()) {
    selection->wildcard_ = true;
    for (size_t i = 0; i < table.table->columns.size(); ++i) {
      auto expr = std::make_unique<SelectorExpr>();
      expr->kind = SelectorExpr::Kind::kColumn;
      expr->column = static_cast<int>(i);
      expr->type = table.column(static_cast<int>(i)).type;
      expr->name = table.column(static_cast<int>(i)).name;
      selection->selector_specs_.push_back(cql::ColumnSpec{ks, tn, expr->name, expr->type});
      selection->selectors_.push_back(std::move(expr));
    }
  } else {
    PrepareState ps{table, binds};
    for (const cql::Selector& selector : selectors) {
      ASSIGN_OR_RETURN(std::unique_ptr<SelectorExpr> expr,
                       PrepareSelectable(selector.expression, &ps));
      std::string name = selector.alias.empty() ? expr->name : selector.alias;
      if (selector.alias.empty() && selector.expression.kind == Selectable::Kind::kColumn) {
        name = selector.expression.name;
      }
      selection->selector_specs_.push_back(cql::ColumnSpec{ks, tn, name, expr->type});
      if (expr->ContainsAggregate()) selection->is_aggregate_ = true;
      selection->selectors_.push_back(std::move(expr));
    }
  }
  for (const auto& expr : selection->selectors_) CollectAggregates(*expr, &selection->aggregates_);
  bool plain = !json;
  for (const auto& expr : selection->selectors_) {
    plain = plain && expr->kind == SelectorExpr::Kind::kColumn;
  }
  if (plain) {
    for (const auto& expr : selection->selectors_)
      selection->plain_columns_.push_back(expr->column);
  }
  for (const SelectorExpr* expr : selection->aggregates_) {
    if (expr == nullptr) return Status::Internal("aggregate slot without aggregate");
  }
  if (json) {
    selection->result_columns_ = std::make_shared<const std::vector<cql::ColumnSpec>>(
        std::vector<cql::ColumnSpec>{cql::ColumnSpec{ks, tn, "[json]", CqlType::Text()}});
  } else {
    selection->result_columns_ =
        std::make_shared<const std::vector<cql::ColumnSpec>>(selection->selector_specs_);
  }
  return selection;
}

Result<SelectionState> Selection::NewState() const {
  SelectionState state;
  for (const SelectorExpr* expr : aggregates_) {
    state.aggregates_.push_back(expr->aggregate->NewAggregate());
  }
  state.first_row_.assign(selectors_.size(), std::nullopt);
  return state;
}

Status Selection::Accumulate(const RowData& row, const EvalContext& context,
                             SelectionState* state) const {
  for (const SelectorExpr* expr : aggregates_) {
    if (expr->args.empty()) {  // count(*)
      RETURN_IF_ERROR(state->aggregates_[expr->aggregate_slot]->Add(std::string_view()));
      continue;
    }
    ASSIGN_OR_RETURN(std::optional<Bytes> v,
                     expr->args[0]->Evaluate(*table_, row, context, nullptr));
    std::optional<std::string_view> view;
    if (v) view = *v;
    RETURN_IF_ERROR(state->aggregates_[expr->aggregate_slot]->Add(view));
  }
  if (!state->has_rows_) {
    for (size_t i = 0; i < selectors_.size(); ++i) {
      if (selectors_[i]->ContainsAggregate()) continue;
      ASSIGN_OR_RETURN(state->first_row_[i], Evaluate(i, row, context));
    }
    state->has_rows_ = true;
  }
  return Status::Ok();
}

Status Selection::Emit(const EvalContext& context, SelectionState* state, bool always,
                       cql::ResultSet* out) const {
  if (!state->has_rows_ && !always) return Status::Ok();
  std::vector<std::optional<Bytes>> values;
  RowData empty;
  empty.cells.resize(table_->table->columns.size());
  for (size_t i = 0; i < selectors_.size(); ++i) {
    if (!selectors_[i]->ContainsAggregate()) {
      values.push_back(state->first_row_[i]);
      continue;
    }
    ASSIGN_OR_RETURN(std::optional<Bytes> v,
                     selectors_[i]->Evaluate(*table_, empty, context, state));
    values.push_back(std::move(v));
  }
  if (json_) return AppendJson(std::move(values), out);
  for (auto& v : values) out->AddCell(std::move(v));
  return Status::Ok();
}

Result<std::optional<Bytes>> Selection::Evaluate(size_t i, const RowData& row,
                                                 const EvalContext& context) const {
  return selectors_[i]->Evaluate(*table_, row, context, nullptr);
}

Status Selection::AppendJson(std::vector<std::optional<Bytes>> values, cql::ResultSet* out) const {
  std::string json = "{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) json += ", ";
    json += cql::QuoteJsonColumnName(selector_specs_[i].name);
    json += ": ";
    std::optional<std::string_view> view;
    if (values[i]) view = *values[i];
    json += cql::ValueToJson(selector_specs_[i].type, view);
  }
  json += "}";
  out->AddCell(Bytes(std::move(json)));
  return Status::Ok();
}

Status Selection::AddRow(const RowData& row, const EvalContext& context,
                         cql::ResultSet* out) const {
  if (!plain_columns_.empty()) {
    for (int column : plain_columns_) out->AddCell(row.cells[column].value);
    return Status::Ok();
  }
  if (json_) {
    std::vector<std::optional<Bytes>> values;
    for (size_t i = 0; i < selectors_.size(); ++i) {
      ASSIGN_OR_RETURN(std::optional<Bytes> v, Evaluate(i, row, context));
      values.push_back(std::move(v));
    }
    return AppendJson(std::move(values), out);
  }
  for (size_t i = 0; i < selectors_.size(); ++i) {
    ASSIGN_OR_RETURN(std::optional<Bytes> v, Evaluate(i, row, context));
    out->AddCell(std::move(v));
  }
  return Status::Ok();
}

}  // namespace engine
