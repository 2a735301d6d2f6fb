#include "cql/functions/aggregates.h"

#include <cmath>

#include "cql/functions/functions.h"
#include "cql/functions/functions_numeric.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_compare.h"

namespace cql {
namespace {

using common::Bytes;
using common::Result;
using common::Status;
using numeric::BigDecimal;
using numeric::Int128;

using MaybeBytes = std::optional<Bytes>;

constexpr TypeKind kNumericKinds[] = {TypeKind::kTinyint, TypeKind::kSmallint, TypeKind::kInt,
                                      TypeKind::kBigint,  TypeKind::kFloat,    TypeKind::kDouble,
                                      TypeKind::kDecimal, TypeKind::kVarint,   TypeKind::kCounter};

constexpr TypeKind kAllNativeKinds[] = {
    TypeKind::kAscii,    TypeKind::kBigint,  TypeKind::kBlob,    TypeKind::kBoolean,
    TypeKind::kCounter,  TypeKind::kDate,    TypeKind::kDecimal, TypeKind::kDouble,
    TypeKind::kDuration, TypeKind::kFloat,   TypeKind::kInet,    TypeKind::kInt,
    TypeKind::kSmallint, TypeKind::kText,    TypeKind::kTime,    TypeKind::kTimestamp,
    TypeKind::kTimeuuid, TypeKind::kTinyint, TypeKind::kUuid,    TypeKind::kVarint};

class CountRows final : public Aggregate {
 public:
  void Reset() override { count_ = 0; }
  Status Add(std::optional<std::string_view>) override {
    ++count_;
    return Status::Ok();
  }
  Result<MaybeBytes> Compute() const override { return MaybeBytes(SerializeBigint(count_)); }

 private:
  int64_t count_ = 0;
};

class Count final : public Aggregate {
 public:
  void Reset() override { count_ = 0; }
  Status Add(std::optional<std::string_view> value) override {
    if (value.has_value()) ++count_;
    return Status::Ok();
  }
  Result<MaybeBytes> Compute() const override { return MaybeBytes(SerializeBigint(count_)); }

 private:
  int64_t count_ = 0;
};

class MinMax final : public Aggregate {
 public:
  MinMax(CqlType type, bool max) : type_(std::move(type)), max_(max) {}
  void Reset() override { best_.reset(); }
  Status Add(std::optional<std::string_view> value) override {
    if (!value.has_value()) return Status::Ok();
    if (!best_.has_value()) {
      best_ = Bytes(*value);
      return Status::Ok();
    }
    int c = CompareValues(type_, *value, *best_);
    if (max_ ? c > 0 : c < 0) best_ = Bytes(*value);
    return Status::Ok();
  }
  Result<MaybeBytes> Compute() const override { return best_; }

 private:
  CqlType type_;
  bool max_;
  MaybeBytes best_;
};

// Integral sum/avg: tinyint, smallint, int, bigint, counter. The sum wraps at the type's width
// (Java); the average divides a 128-bit sum.
class IntegralSumAvg final : public Aggregate {
 public:
  IntegralSumAvg(TypeKind kind, bool average) : kind_(kind), average_(average) {}
  void Reset() override {
    wide_sum_ = 0;
    count_ = 0;
  }
  Status Add(std::optional<std::string_view> value) override {
    if (!value.has_value() || value->empty()) return Status::Ok();
    ASSIGN_OR_RETURN(int64_t v, numeric::ToInt64(kind_, *value));
    wide_sum_ += v;
    ++count_;
    return Status::Ok();
  }
  Result<MaybeBytes> Compute() const override {
    Int128 result = wide_sum_;
    if (average_) result = count_ == 0 ? 0 : wide_sum_ / count_;
    // Low 64 bits, then the type's width: Java's wrapping.
    auto low = static_cast<int64_t>(static_cast<uint64_t>(static_cast<unsigned __int128>(result)));
    return MaybeBytes(numeric::SerializeIntegral(kind_, low));
  }

 private:
  TypeKind kind_;
  bool average_;
  Int128 wide_sum_ = 0;
  int64_t count_ = 0;
};

class FloatingSumAvg final : public Aggregate {
 public:
  FloatingSumAvg(TypeKind kind, bool average) : kind_(kind), average_(average) {}
  void Reset() override {
    sum_ = compensation_ = simple_sum_ = 0;
    count_ = 0;
  }
  Status Add(std::optional<std::string_view> value) override {
    if (!value.has_value() || value->empty()) return Status::Ok();
    ASSIGN_OR_RETURN(double v, numeric::ToDouble(kind_, *value));
    ++count_;
    simple_sum_ += v;
    double y = v - compensation_;
    double t = sum_ + y;
    compensation_ = (t - sum_) - y;
    sum_ = t;
    return Status::Ok();
  }
  Result<MaybeBytes> Compute() const override {
    double total = sum_;
    if (std::isnan(total) && std::isinf(simple_sum_)) total = simple_sum_;
    double result = total;
    if (average_) result = count_ == 0 ? 0 : total / static_cast<double>(count_);
    if (kind_ == TypeKind::kFloat) return MaybeBytes(SerializeFloat(static_cast<float>(result)));
    return MaybeBytes(SerializeDouble(result));
  }

 private:
  TypeKind kind_;
  bool average_;
  double sum_ = 0;
  double compensation_ = 0;
  double simple_sum_ = 0;
  int64_t count_ = 0;
};

class VarintSumAvg final : public Aggregate {
 public:
  explicit VarintSumAvg(bool average) : average_(average) {}
  void Reset() override {
    sum_ = 0;
    count_ = 0;
  }
  Status Add(std::optional<std::string_view> value) override {
    if (!value.has_value() || value->empty()) return Status::Ok();
    ASSIGN_OR_RETURN(Int128 v, numeric::VarintToInt128(*value));
    if (__builtin_add_overflow(sum_, v, &sum_)) return numeric::PrecisionError();
    ++count_;
    return Status::Ok();
  }
  Result<MaybeBytes> Compute() const override {
    Int128 result = sum_;
    if (average_) result = count_ == 0 ? 0 : sum_ / count_;
    return MaybeBytes(numeric::Int128ToVarint(result));
  }

 private:
  bool average_;
  Int128 sum_ = 0;
  int64_t count_ = 0;
};

class DecimalSumAvg final : public Aggregate {
 public:
  explicit DecimalSumAvg(bool average) : average_(average) {}
  void Reset() override {
    sum_ = BigDecimal{};
    count_ = 0;
  }
  Status Add(std::optional<std::string_view> value) override {
    if (!value.has_value() || value->empty()) return Status::Ok();
    ASSIGN_OR_RETURN(BigDecimal v, numeric::DecimalFromBytes(*value));
    int32_t scale = std::max(sum_.scale, v.scale);
    ASSIGN_OR_RETURN(BigDecimal a, numeric::Rescale(sum_, scale));
    ASSIGN_OR_RETURN(BigDecimal b, numeric::Rescale(v, scale));
    if (__builtin_add_overflow(a.unscaled, b.unscaled, &sum_.unscaled)) {
      return numeric::PrecisionError();
    }
    sum_.scale = scale;
    ++count_;
    return Status::Ok();
  }
  Result<MaybeBytes> Compute() const override {
    if (!average_ || count_ == 0) {
      return MaybeBytes(numeric::DecimalToBytes(average_ ? BigDecimal{} : sum_));
    }
    // sum / count rounded half-even at the sum's scale.
    Int128 q = sum_.unscaled / count_;
    Int128 r = sum_.unscaled % count_;
    Int128 twice = (r < 0 ? -r : r) * 2;
    if (twice > count_ || (twice == count_ && (q % 2 != 0))) q += sum_.unscaled < 0 ? -1 : 1;
    return MaybeBytes(numeric::DecimalToBytes(BigDecimal{q, sum_.scale}));
  }

 private:
  bool average_;
  BigDecimal sum_;
  int64_t count_ = 0;
};

std::unique_ptr<Aggregate> MakeSumOrAvg(const CqlType& type, bool average) {
  switch (type.kind()) {
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      return std::make_unique<FloatingSumAvg>(type.kind(), average);
    case TypeKind::kVarint:
      return std::make_unique<VarintSumAvg>(average);
    case TypeKind::kDecimal:
      return std::make_unique<DecimalSumAvg>(average);
    default:
      return std::make_unique<IntegralSumAvg>(type.kind(), average);
  }
}

std::unique_ptr<Aggregate> MakeCountRows(const CqlType&) { return std::make_unique<CountRows>(); }
std::unique_ptr<Aggregate> MakeCount(const CqlType&) { return std::make_unique<Count>(); }
std::unique_ptr<Aggregate> MakeMin(const CqlType& t) { return std::make_unique<MinMax>(t, false); }
std::unique_ptr<Aggregate> MakeMax(const CqlType& t) { return std::make_unique<MinMax>(t, true); }
std::unique_ptr<Aggregate> MakeSum(const CqlType& t) { return MakeSumOrAvg(t, false); }
std::unique_ptr<Aggregate> MakeAvg(const CqlType& t) { return MakeSumOrAvg(t, true); }

AggregateFunction::Factory FactoryFor(std::string_view name) {
  if (name == "countrows") return MakeCountRows;
  if (name == "count") return MakeCount;
  if (name == "min") return MakeMin;
  if (name == "max") return MakeMax;
  if (name == "sum") return MakeSum;
  if (name == "avg") return MakeAvg;
  return nullptr;
}

std::string KnownSignatures(std::string_view name) {
  bool numeric_only = name == "sum" || name == "avg";
  std::string out;
  auto add = [&out, name](TypeKind kind, TypeKind result) {
    if (!out.empty()) out += ", ";
    out += "system." + std::string(name) + " : (" + CqlType::Native(kind).ToCql() + ") -> " +
           CqlType::Native(result).ToCql();
  };
  if (numeric_only) {
    for (TypeKind kind : kNumericKinds) add(kind, kind);
  } else {
    for (TypeKind kind : kAllNativeKinds) add(kind, name == "count" ? TypeKind::kBigint : kind);
  }
  return out;
}

}  // namespace

namespace {

// An aggregate whose failures name their function, as a scalar function's do
// (NameFunctionFailure): "execution of 'system.sum[varint]' failed: ...".
class NamedAggregate final : public Aggregate {
 public:
  NamedAggregate(const AggregateFunction& function, std::unique_ptr<Aggregate> inner)
      : name_(function.name()), arg_types_(function.arg_types()), inner_(std::move(inner)) {}

  void Reset() override { inner_->Reset(); }
  Status Add(std::optional<std::string_view> value) override { return Named(inner_->Add(value)); }
  Result<std::optional<Bytes>> Compute() const override {
    Result<std::optional<Bytes>> result = inner_->Compute();
    if (result.ok()) return result;
    return Named(result.status());
  }

 private:
  Status Named(Status status) const {
    if (status.ok()) return status;
    return NameFunctionFailure(name_, arg_types_, std::move(status));
  }

  std::string name_;
  std::vector<CqlType> arg_types_;
  std::unique_ptr<Aggregate> inner_;
};

}  // namespace

std::unique_ptr<Aggregate> AggregateFunction::NewAggregate() const {
  return std::make_unique<NamedAggregate>(
      *this, factory_(arg_types_.empty() ? return_type_ : arg_types_[0]));
}

std::string AggregateFunction::Signature() const {
  std::string out = "system." + name_ + " : (";
  for (size_t i = 0; i < arg_types_.size(); ++i) {
    if (i > 0) out += ", ";
    out += arg_types_[i].ToCql();
  }
  return out + ") -> " + return_type_.ToCql();
}

bool IsAggregateName(std::string_view name) { return FactoryFor(name) != nullptr; }

Result<std::shared_ptr<const AggregateFunction>> ResolveAggregate(
    std::string_view name, std::span<const CqlType> arg_types) {
  AggregateFunction::Factory factory = FactoryFor(name);
  if (factory == nullptr)
    return Status::Invalid("Unknown function " + std::string(name) + " called");
  if (name == "countrows") {
    if (!arg_types.empty()) {
      return Status::Invalid(
          "Invalid number of arguments in call to function system.countrows: "
          "0 required but " +
          std::to_string(arg_types.size()) + " provided");
    }
    return std::make_shared<const AggregateFunction>("countrows", std::vector<CqlType>{},
                                                     CqlType::Bigint(), factory);
  }
  bool numeric_only = name == "sum" || name == "avg";
  if (arg_types.size() != 1 || (numeric_only && !numeric::IsNumeric(arg_types[0].kind()))) {
    return Status::Invalid("Invalid call to function " + std::string(name) +
                           ", none of its type signatures match (known type signatures: " +
                           KnownSignatures(name) + ")");
  }
  CqlType arg = arg_types[0];
  CqlType result = name == "count" ? CqlType::Bigint() : arg;
  return std::make_shared<const AggregateFunction>(std::string(name), std::vector<CqlType>{arg},
                                                   result, factory);
}

}  // namespace cql
