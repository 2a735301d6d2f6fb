// The time functions of Cassandra 4.1 (TimeFcts) and uuid().

#include <cstdint>
#include <string>

#include "common/uuid.h"
#include "cql/functions/functions_internal.h"
#include "cql/types/temporal.h"
#include "cql/types/value_codec.h"

namespace cql::internal {
namespace {

using common::Bytes;
using common::Result;
using common::Status;

constexpr int64_t kMillisPerDay = 86400000;

Result<std::optional<Bytes>> Null() { return std::optional<Bytes>(); }

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// The serialized date of the day holding `millis`.
Result<Bytes> DateFromMillis(int64_t millis) {
  int64_t days = FloorDiv(millis, kMillisPerDay) + int64_t{kDateEpoch};
  if (days < 0 || days > int64_t{UINT32_MAX}) {
    return Status::Invalid("Unable to convert timestamp " + std::to_string(millis) +
                           " to a date: out of the supported range");
  }
  return SerializeDate(static_cast<uint32_t>(days));
}

int64_t MillisFromDate(uint32_t days) {
  return (int64_t{days} - int64_t{kDateEpoch}) * kMillisPerDay;
}

Result<uint32_t> ReadDate(std::string_view bytes) {
  if (bytes.size() != 4)
    return Status::Invalid("Expected 4 byte long for date (" + std::to_string(bytes.size()) + ")");
  return common::LoadBigEndian32(bytes.data());
}

Result<common::Uuid> ReadTimeuuid(std::string_view bytes) { return common::Uuid::FromBytes(bytes); }

// A one-argument function returning null for a null or empty argument.
std::shared_ptr<const ScalarFunction> Unary(std::string name, CqlType arg, CqlType result,
                                            std::function<Result<Bytes>(std::string_view)> body) {
  return std::make_shared<LambdaFunction>(
      std::move(name), std::vector<CqlType>{std::move(arg)}, std::move(result), true,
      [body = std::move(body)](const FunctionContext&,
                               FunctionArgs args) -> Result<std::optional<Bytes>> {
        if (!args[0].has_value() || args[0]->empty()) return Null();
        ASSIGN_OR_RETURN(Bytes out, body(*args[0]));
        return std::optional<Bytes>(std::move(out));
      });
}

std::shared_ptr<const ScalarFunction> Nullary(
    std::string name, CqlType result, std::function<Result<Bytes>(const FunctionContext&)> body) {
  return std::make_shared<LambdaFunction>(
      std::move(name), std::vector<CqlType>{}, std::move(result), false,
      [body = std::move(body)](const FunctionContext& ctx,
                               FunctionArgs) -> Result<std::optional<Bytes>> {
        ASSIGN_OR_RETURN(Bytes out, body(ctx));
        return std::optional<Bytes>(std::move(out));
      });
}

Status MissingContext(const char* what) {
  return Status::Internal(std::string("function context lacks a ") + what);
}

Result<Bytes> Now(const FunctionContext& ctx) {
  if (ctx.timeuuids == nullptr) return MissingContext("timeuuid generator");
  return ctx.timeuuids->Next().ToBytes();
}

Result<int64_t> NowMillis(const FunctionContext& ctx) {
  if (ctx.clock == nullptr) return MissingContext("clock");
  return ctx.clock->NowMillis();
}

Result<Bytes> TimeuuidToTimestamp(std::string_view bytes) {
  ASSIGN_OR_RETURN(common::Uuid uuid, ReadTimeuuid(bytes));
  return SerializeTimestamp(uuid.UnixMillis());
}

Result<Bytes> TimeuuidToBigint(std::string_view bytes) {
  ASSIGN_OR_RETURN(common::Uuid uuid, ReadTimeuuid(bytes));
  return SerializeBigint(uuid.UnixMillis());
}

Result<Bytes> TimeuuidToDate(std::string_view bytes) {
  ASSIGN_OR_RETURN(common::Uuid uuid, ReadTimeuuid(bytes));
  return DateFromMillis(uuid.UnixMillis());
}

}  // namespace

void AddTimeFunctions(FunctionList* out) {
  out->push_back(Nullary("now", CqlType::Timeuuid(), Now));
  out->push_back(Nullary("currenttimeuuid", CqlType::Timeuuid(), Now));
  out->push_back(Nullary("currenttimestamp", CqlType::Timestamp(),
                         [](const FunctionContext& ctx) -> Result<Bytes> {
                           ASSIGN_OR_RETURN(int64_t millis, NowMillis(ctx));
                           return SerializeTimestamp(millis);
                         }));
  out->push_back(
      Nullary("currentdate", CqlType::Date(), [](const FunctionContext& ctx) -> Result<Bytes> {
        ASSIGN_OR_RETURN(int64_t millis, NowMillis(ctx));
        return DateFromMillis(millis);
      }));
  out->push_back(
      Nullary("currenttime", CqlType::Time(), [](const FunctionContext& ctx) -> Result<Bytes> {
        if (ctx.clock == nullptr) return MissingContext("clock");
        int64_t micros = ctx.clock->NowMicros();
        int64_t day_micros = kMillisPerDay * 1000;
        int64_t of_day = micros - FloorDiv(micros, day_micros) * day_micros;
        return SerializeTime(of_day * 1000);
      }));
  out->push_back(Unary("mintimeuuid", CqlType::Timestamp(), CqlType::Timeuuid(),
                       [](std::string_view bytes) -> Result<Bytes> {
                         ASSIGN_OR_RETURN(int64_t millis, DeserializeBigint(bytes));
                         return common::MinTimeuuid(millis).ToBytes();
                       }));
  out->push_back(Unary("maxtimeuuid", CqlType::Timestamp(), CqlType::Timeuuid(),
                       [](std::string_view bytes) -> Result<Bytes> {
                         ASSIGN_OR_RETURN(int64_t millis, DeserializeBigint(bytes));
                         return common::MaxTimeuuid(millis).ToBytes();
                       }));
  out->push_back(Unary("dateof", CqlType::Timeuuid(), CqlType::Timestamp(), TimeuuidToTimestamp));
  out->push_back(
      Unary("unixtimestampof", CqlType::Timeuuid(), CqlType::Bigint(), TimeuuidToBigint));
  out->push_back(Unary("todate", CqlType::Timeuuid(), CqlType::Date(), TimeuuidToDate));
  out->push_back(
      Unary("totimestamp", CqlType::Timeuuid(), CqlType::Timestamp(), TimeuuidToTimestamp));
  out->push_back(
      Unary("tounixtimestamp", CqlType::Timeuuid(), CqlType::Bigint(), TimeuuidToBigint));
  out->push_back(Unary("tounixtimestamp", CqlType::Timestamp(), CqlType::Bigint(),
                       [](std::string_view bytes) -> Result<Bytes> {
                         ASSIGN_OR_RETURN(int64_t millis, DeserializeBigint(bytes));
                         return SerializeBigint(millis);
                       }));
  out->push_back(Unary("todate", CqlType::Timestamp(), CqlType::Date(),
                       [](std::string_view bytes) -> Result<Bytes> {
                         ASSIGN_OR_RETURN(int64_t millis, DeserializeBigint(bytes));
                         return DateFromMillis(millis);
                       }));
  out->push_back(Unary("tounixtimestamp", CqlType::Date(), CqlType::Bigint(),
                       [](std::string_view bytes) -> Result<Bytes> {
                         ASSIGN_OR_RETURN(uint32_t days, ReadDate(bytes));
                         return SerializeBigint(MillisFromDate(days));
                       }));
  out->push_back(Unary("totimestamp", CqlType::Date(), CqlType::Timestamp(),
                       [](std::string_view bytes) -> Result<Bytes> {
                         ASSIGN_OR_RETURN(uint32_t days, ReadDate(bytes));
                         return SerializeTimestamp(MillisFromDate(days));
                       }));
  out->push_back(Nullary("uuid", CqlType::Uuid(), [](const FunctionContext&) -> Result<Bytes> {
    return common::Uuid::Random().ToBytes();
  }));
}

}  // namespace cql::internal
