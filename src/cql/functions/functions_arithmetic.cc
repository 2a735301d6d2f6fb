// Arithmetic operators as functions (Cassandra's OperationFcts): _add, _substract, _multiply,
// _divide, _modulo on every pair of numeric types, timestamp/date +/- duration, _negate.

#include <cmath>
#include <limits>
#include <string>

#include "cql/functions/functions_internal.h"
#include "cql/functions/functions_numeric.h"
#include "cql/types/temporal.h"
#include "cql/types/value_codec.h"

namespace cql::internal {
namespace {

using common::Bytes;
using common::Result;
using common::Status;
using numeric::BigDecimal;
using numeric::Int128;

enum class Op { kAdd, kSubtract, kMultiply, kDivide, kModulo };

struct OpInfo {
  Op op;
  const char* name;
  const char* symbol;
};

constexpr OpInfo kOps[] = {{Op::kAdd, "_add", "+"},
                           {Op::kSubtract, "_substract", "-"},
                           {Op::kMultiply, "_multiply", "*"},
                           {Op::kDivide, "_divide", "/"},
                           {Op::kModulo, "_modulo", "%"}};

constexpr TypeKind kNumericKinds[] = {TypeKind::kTinyint, TypeKind::kSmallint, TypeKind::kInt,
                                      TypeKind::kBigint,  TypeKind::kFloat,    TypeKind::kDouble,
                                      TypeKind::kDecimal, TypeKind::kVarint,   TypeKind::kCounter};

constexpr int kUnbounded = std::numeric_limits<int>::max();

// Cassandra's OperationFcts size of a number type.
int SizeOf(TypeKind kind) {
  switch (kind) {
    case TypeKind::kTinyint:
      return 1;
    case TypeKind::kSmallint:
      return 2;
    case TypeKind::kInt:
    case TypeKind::kFloat:
      return 4;
    case TypeKind::kBigint:
    case TypeKind::kCounter:
    case TypeKind::kDouble:
      return 8;
    default:
      return kUnbounded;
  }
}

TypeKind ResultKind(TypeKind left, TypeKind right) {
  bool floating = left == TypeKind::kFloat || left == TypeKind::kDouble ||
                  left == TypeKind::kDecimal || right == TypeKind::kFloat ||
                  right == TypeKind::kDouble || right == TypeKind::kDecimal;
  int size = std::max(SizeOf(left), SizeOf(right));
  if (floating) {
    return size == 4 ? TypeKind::kFloat : size == 8 ? TypeKind::kDouble : TypeKind::kDecimal;
  }
  switch (size) {
    case 1:
      return TypeKind::kTinyint;
    case 2:
      return TypeKind::kSmallint;
    case 4:
      return TypeKind::kInt;
    case 8:
      return TypeKind::kBigint;
    default:
      return TypeKind::kVarint;
  }
}

Status Failure(const std::string& description, const std::string& message) {
  return Status(common::StatusCode::kFunctionFailure,
                "the operation '" + description + "' failed: " + message);
}

Result<Bytes> IntegralOp(Op op, TypeKind result, int64_t a, int64_t b) {
  auto ua = static_cast<uint64_t>(a);
  auto ub = static_cast<uint64_t>(b);
  int64_t v = 0;
  switch (op) {
    case Op::kAdd:
      v = static_cast<int64_t>(ua + ub);
      break;
    case Op::kSubtract:
      v = static_cast<int64_t>(ua - ub);
      break;
    case Op::kMultiply:
      v = static_cast<int64_t>(ua * ub);
      break;
    case Op::kDivide:
    case Op::kModulo:
      if (b == 0) return Status::Internal("/ by zero");
      if (b == -1) {
        v = op == Op::kDivide ? static_cast<int64_t>(0 - ua) : 0;
      } else {
        v = op == Op::kDivide ? a / b : a % b;
      }
      break;
  }
  return numeric::SerializeIntegral(result, v);
}

template <typename T>
T FloatingOp(Op op, T a, T b) {
  switch (op) {
    case Op::kAdd:
      return a + b;
    case Op::kSubtract:
      return a - b;
    case Op::kMultiply:
      return a * b;
    case Op::kDivide:
      return a / b;
    case Op::kModulo:
      return std::fmod(a, b);
  }
  return a;
}

Result<Bytes> VarintOp(Op op, Int128 a, Int128 b) {
  Int128 v = 0;
  switch (op) {
    case Op::kAdd:
      if (__builtin_add_overflow(a, b, &v)) return numeric::PrecisionError();
      break;
    case Op::kSubtract:
      if (__builtin_sub_overflow(a, b, &v)) return numeric::PrecisionError();
      break;
    case Op::kMultiply:
      if (__builtin_mul_overflow(a, b, &v)) return numeric::PrecisionError();
      break;
    case Op::kDivide:
    case Op::kModulo:
      if (b == 0) return Status::Internal("BigInteger divide by zero");
      if (b == -1) {
        if (op == Op::kModulo) return numeric::Int128ToVarint(0);
        if (__builtin_sub_overflow(Int128{0}, a, &v)) return numeric::PrecisionError();
      } else {
        v = op == Op::kDivide ? a / b : a % b;
      }
      break;
  }
  return numeric::Int128ToVarint(v);
}

// BigDecimal.divide(divisor, mc) for a terminating quotient: the exact value with the scale
// closest to this.scale - divisor.scale.
Result<BigDecimal> DecimalDivide(const BigDecimal& a, const BigDecimal& b) {
  int64_t preferred = int64_t{a.scale} - b.scale;
  for (int64_t scale = preferred; scale <= preferred + 40; ++scale) {
    int64_t e = scale - a.scale + b.scale;  // quotient unscaled = a.u * 10^e / b.u
    BigDecimal numerator{a.unscaled, 0};
    BigDecimal denominator{b.unscaled, 0};
    if (e >= 0) {
      auto r = numeric::Rescale(numerator, static_cast<int32_t>(e));
      if (!r.ok()) break;
      numerator = *r;
    } else {
      auto r = numeric::Rescale(denominator, static_cast<int32_t>(-e));
      if (!r.ok()) continue;
      denominator = *r;
    }
    if (numerator.unscaled % denominator.unscaled == 0) {
      if (scale < INT32_MIN || scale > INT32_MAX) break;
      return BigDecimal{numerator.unscaled / denominator.unscaled, static_cast<int32_t>(scale)};
    }
  }
  return numeric::PrecisionError();
}

Result<Bytes> DecimalOp(Op op, BigDecimal a, BigDecimal b) {
  if ((op == Op::kDivide || op == Op::kModulo) && b.unscaled == 0) {
    return Status::Internal(a.unscaled == 0 ? "Division undefined" : "Division by zero");
  }
  BigDecimal v;
  switch (op) {
    case Op::kAdd:
    case Op::kSubtract:
    case Op::kModulo: {
      int32_t scale = std::max(a.scale, b.scale);
      ASSIGN_OR_RETURN(a, numeric::Rescale(a, scale));
      ASSIGN_OR_RETURN(b, numeric::Rescale(b, scale));
      v.scale = scale;
      bool overflow = false;
      if (op == Op::kAdd) overflow = __builtin_add_overflow(a.unscaled, b.unscaled, &v.unscaled);
      if (op == Op::kSubtract) {
        overflow = __builtin_sub_overflow(a.unscaled, b.unscaled, &v.unscaled);
      }
      if (op == Op::kModulo) v.unscaled = b.unscaled == -1 ? 0 : a.unscaled % b.unscaled;
      if (overflow) return numeric::PrecisionError();
      break;
    }
    case Op::kMultiply: {
      int64_t scale = int64_t{a.scale} + b.scale;
      if (scale < INT32_MIN || scale > INT32_MAX) return numeric::PrecisionError();
      if (__builtin_mul_overflow(a.unscaled, b.unscaled, &v.unscaled)) {
        return numeric::PrecisionError();
      }
      v.scale = static_cast<int32_t>(scale);
      break;
    }
    case Op::kDivide: {
      ASSIGN_OR_RETURN(v, DecimalDivide(a, b));
      break;
    }
  }
  return numeric::DecimalToBytes(v);
}

Result<Bytes> Compute(Op op, TypeKind result, TypeKind left, std::string_view a, TypeKind right,
                      std::string_view b) {
  switch (result) {
    case TypeKind::kFloat: {
      ASSIGN_OR_RETURN(double x, numeric::ToDouble(left, a));
      ASSIGN_OR_RETURN(double y, numeric::ToDouble(right, b));
      return SerializeFloat(FloatingOp(op, static_cast<float>(x), static_cast<float>(y)));
    }
    case TypeKind::kDouble: {
      ASSIGN_OR_RETURN(double x, numeric::ToDouble(left, a));
      ASSIGN_OR_RETURN(double y, numeric::ToDouble(right, b));
      return SerializeDouble(FloatingOp(op, x, y));
    }
    case TypeKind::kDecimal: {
      ASSIGN_OR_RETURN(BigDecimal x, numeric::ToDecimal(left, a));
      ASSIGN_OR_RETURN(BigDecimal y, numeric::ToDecimal(right, b));
      return DecimalOp(op, x, y);
    }
    case TypeKind::kVarint: {
      ASSIGN_OR_RETURN(Int128 x, numeric::ToInt128(left, a));
      ASSIGN_OR_RETURN(Int128 y, numeric::ToInt128(right, b));
      return VarintOp(op, x, y);
    }
    default: {
      ASSIGN_OR_RETURN(int64_t x, numeric::ToInt64(left, a));
      ASSIGN_OR_RETURN(int64_t y, numeric::ToInt64(right, b));
      return IntegralOp(op, result, x, y);
    }
  }
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

constexpr int64_t kMillisPerDay = 86400000;

// Duration.addTo: months through the calendar (day of month clamped), then days, then
// milliseconds, in UTC. Wraps like Java's long arithmetic.
int64_t AddDuration(int64_t millis, const Duration& d, bool subtract) {
  int64_t months = subtract ? -int64_t{d.months} : d.months;
  int64_t days = subtract ? -int64_t{d.days} : d.days;
  int64_t nanos =
      subtract ? static_cast<int64_t>(0 - static_cast<uint64_t>(d.nanoseconds)) : d.nanoseconds;
  auto wrap_add = [](int64_t x, int64_t y) {
    return static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y));
  };
  if (months == 0) {
    return wrap_add(millis, wrap_add(static_cast<int64_t>(static_cast<uint64_t>(days) *
                                                          static_cast<uint64_t>(kMillisPerDay)),
                                     nanos / 1000000));
  }
  int64_t day = FloorDiv(millis, kMillisPerDay);
  int64_t millis_of_day = millis % kMillisPerDay;
  if (millis_of_day < 0) millis_of_day += kMillisPerDay;
  CivilDate civil = CivilFromDays(day);
  int64_t total_months = civil.year * 12 + (civil.month - 1) + months;
  int64_t year = FloorDiv(total_months, 12);
  int month = static_cast<int>(total_months - year * 12) + 1;
  int64_t next_month_start =
      month == 12 ? DaysFromCivil(year + 1, 1, 1) : DaysFromCivil(year, month + 1, 1);
  int month_length = static_cast<int>(next_month_start - DaysFromCivil(year, month, 1));
  int64_t new_day = DaysFromCivil(year, month, std::min(civil.day, month_length));
  auto wrap_mul = [](int64_t x, int64_t y) {
    return static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
  };
  int64_t result = wrap_add(wrap_mul(new_day, kMillisPerDay), millis_of_day);
  result = wrap_add(result, wrap_mul(days, kMillisPerDay));
  return wrap_add(result, static_cast<int32_t>(nanos / 1000000));
}

std::shared_ptr<const ScalarFunction> TemporalFunction(TypeKind temporal, const OpInfo& info) {
  CqlType type = CqlType::Native(temporal);
  std::string description = type.ToCql() + " " + info.symbol + " duration";
  bool subtract = info.op == Op::kSubtract;
  return std::make_shared<LambdaFunction>(
      info.name, std::vector<CqlType>{type, CqlType::Duration()}, type, true,
      [temporal, subtract, description](const FunctionContext&,
                                        FunctionArgs args) -> Result<std::optional<Bytes>> {
        if (!args[0] || !args[1] || args[0]->empty() || args[1]->empty()) {
          return std::optional<Bytes>();
        }
        ASSIGN_OR_RETURN(Duration duration, DeserializeDuration(*args[1]));
        if (temporal == TypeKind::kTimestamp) {
          ASSIGN_OR_RETURN(int64_t millis, DeserializeBigint(*args[0]));
          return std::optional<Bytes>(SerializeTimestamp(AddDuration(millis, duration, subtract)));
        }
        if (duration.nanoseconds != 0) {
          return Status::Invalid("The duration must have a day precision. Was: " +
                                 FormatDuration(duration));
        }
        if (args[0]->size() != 4) return Status::Invalid("Expected 4 byte long for date");
        int64_t days = int64_t{common::LoadBigEndian32(args[0]->data())} - kDateEpoch;
        int64_t millis = AddDuration(days * kMillisPerDay, duration, subtract);
        int64_t new_days = FloorDiv(millis, kMillisPerDay) + kDateEpoch;
        if (new_days < 0 || new_days > int64_t{UINT32_MAX}) {
          return Failure(description, "date out of the supported range");
        }
        return std::optional<Bytes>(SerializeDate(static_cast<uint32_t>(new_days)));
      });
}

Result<Bytes> Negate(TypeKind kind, std::string_view bytes) {
  switch (kind) {
    case TypeKind::kFloat: {
      ASSIGN_OR_RETURN(float v, DeserializeFloat(bytes));
      return SerializeFloat(-v);
    }
    case TypeKind::kDouble: {
      ASSIGN_OR_RETURN(double v, DeserializeDouble(bytes));
      return SerializeDouble(-v);
    }
    case TypeKind::kDecimal: {
      ASSIGN_OR_RETURN(BigDecimal v, numeric::DecimalFromBytes(bytes));
      if (v.unscaled == std::numeric_limits<Int128>::min()) return numeric::PrecisionError();
      v.unscaled = -v.unscaled;
      return numeric::DecimalToBytes(v);
    }
    case TypeKind::kVarint: {
      ASSIGN_OR_RETURN(Int128 v, numeric::VarintToInt128(bytes));
      if (v == std::numeric_limits<Int128>::min()) return numeric::PrecisionError();
      return numeric::Int128ToVarint(-v);
    }
    default: {
      ASSIGN_OR_RETURN(int64_t v, numeric::ToInt64(kind, bytes));
      return numeric::SerializeIntegral(kind, static_cast<int64_t>(0 - static_cast<uint64_t>(v)));
    }
  }
}

}  // namespace

void AddArithmeticFunctions(FunctionList* out) {
  for (TypeKind left : kNumericKinds) {
    for (TypeKind right : kNumericKinds) {
      TypeKind result = ResultKind(left, right);
      for (const OpInfo& info : kOps) {
        std::string description = CqlType::Native(left).ToCql() + " " + info.symbol + " " +
                                  CqlType::Native(right).ToCql();
        Op op = info.op;
        out->push_back(std::make_shared<LambdaFunction>(
            info.name, std::vector<CqlType>{CqlType::Native(left), CqlType::Native(right)},
            CqlType::Native(result), true,
            [op, result, left, right, description](
                const FunctionContext&, FunctionArgs args) -> Result<std::optional<Bytes>> {
              if (!args[0] || !args[1] || args[0]->empty() || args[1]->empty()) {
                return std::optional<Bytes>();
              }
              auto value = Compute(op, result, left, *args[0], right, *args[1]);
              if (!value.ok()) {
                const Status& status = value.status();
                if (status.code() == common::StatusCode::kInternal ||
                    status.code() == common::StatusCode::kFunctionFailure) {
                  return Failure(description, status.message());
                }
                return status;
              }
              return std::optional<Bytes>(std::move(*value));
            }));
      }
    }
  }
  for (TypeKind temporal : {TypeKind::kTimestamp, TypeKind::kDate}) {
    out->push_back(TemporalFunction(temporal, kOps[0]));
    out->push_back(TemporalFunction(temporal, kOps[1]));
  }
  for (TypeKind kind : kNumericKinds) {
    CqlType type = CqlType::Native(kind);
    out->push_back(std::make_shared<LambdaFunction>(
        "_negate", std::vector<CqlType>{type}, type, true,
        [kind](const FunctionContext&, FunctionArgs args) -> Result<std::optional<Bytes>> {
          if (!args[0] || args[0]->empty()) return std::optional<Bytes>();
          ASSIGN_OR_RETURN(Bytes v, Negate(kind, *args[0]));
          return std::optional<Bytes>(std::move(v));
        }));
  }
}

}  // namespace cql::internal
