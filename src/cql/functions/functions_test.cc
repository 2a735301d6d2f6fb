#include "cql/functions/functions.h"

#include <gtest/gtest.h>

#include <cmath>

#include "cql/types/big_number.h"
#include "cql/types/temporal.h"
#include "cql/types/value_codec.h"

namespace cql {
namespace {

using common::Bytes;
using common::StatusCode;

Term Const(ConstantKind kind, std::string text) { return Term(Constant{kind, std::move(text)}); }

// Resolves with known argument types only.
std::shared_ptr<const ScalarFunction> ResolveTyped(std::string_view name,
                                                   std::vector<CqlType> types) {
  std::vector<std::optional<CqlType>> arg_types(types.begin(), types.end());
  std::vector<const Term*> terms(types.size(), nullptr);
  auto f = ResolveScalarFunction("", name, arg_types, terms, std::nullopt);
  EXPECT_TRUE(f.ok()) << f.status().ToString();
  return f.ok() ? *f : nullptr;
}

common::Status ResolveError(std::string_view name, const std::vector<std::optional<CqlType>>& types,
                            const std::vector<const Term*>& terms,
                            std::optional<CqlType> receiver = std::nullopt,
                            bool in_selection = false) {
  auto f = ResolveScalarFunction("", name, types, terms, receiver, {}, in_selection);
  EXPECT_FALSE(f.ok());
  return f.ok() ? common::Status::Ok() : f.status();
}

std::optional<Bytes> Exec(const ScalarFunction& f, std::vector<std::optional<Bytes>> args,
                          const FunctionContext& ctx = {}) {
  auto r = f.Execute(ctx, args);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : std::nullopt;
}

common::Status ExecError(const ScalarFunction& f, std::vector<std::optional<Bytes>> args) {
  auto r = f.Execute(FunctionContext{}, args);
  EXPECT_FALSE(r.ok());
  return r.ok() ? common::Status::Ok() : r.status();
}

std::optional<Bytes> Binary(std::string_view op, CqlType left, Bytes a, CqlType right, Bytes b,
                            CqlType* result_type = nullptr) {
  auto f = ResolveTyped(op, {left, right});
  if (f == nullptr) return std::nullopt;
  if (result_type != nullptr) *result_type = f->return_type();
  return Exec(*f, {a, b});
}

constexpr int64_t k20130101T0005 = 1356998700000;  // 2013-01-01 00:05:00Z

TEST(FunctionsTest, TimeuuidRoundTripsThroughTimestampFunctions) {
  auto min = ResolveTyped("mintimeuuid", {CqlType::Timestamp()});
  auto to_ts = ResolveTyped("totimestamp", {CqlType::Timeuuid()});
  auto to_unix = ResolveTyped("tounixtimestamp", {CqlType::Timeuuid()});
  auto date_of = ResolveTyped("dateof", {CqlType::Timeuuid()});
  auto to_date = ResolveTyped("todate", {CqlType::Timeuuid()});
  auto uuid = Exec(*min, {SerializeTimestamp(k20130101T0005)});
  ASSERT_TRUE(uuid.has_value());
  EXPECT_EQ(*uuid, common::MinTimeuuid(k20130101T0005).ToBytes());
  EXPECT_EQ(Exec(*to_ts, {uuid}), SerializeTimestamp(k20130101T0005));
  EXPECT_EQ(Exec(*date_of, {uuid}), SerializeTimestamp(k20130101T0005));
  EXPECT_EQ(Exec(*to_unix, {uuid}), SerializeBigint(k20130101T0005));
  EXPECT_EQ(Exec(*to_date, {uuid}), SerializeDate(kDateEpoch + 15706));
  EXPECT_EQ(to_ts->return_type(), CqlType::Timestamp());
  EXPECT_EQ(Exec(*to_ts, {std::nullopt}), std::nullopt);
  auto max = ResolveTyped("maxtimeuuid", {CqlType::Timestamp()});
  EXPECT_EQ(Exec(*max, {SerializeTimestamp(0)}), common::MaxTimeuuid(0).ToBytes());
}

TEST(FunctionsTest, DateAndTimestampConversions) {
  auto date_to_ts = ResolveTyped("totimestamp", {CqlType::Date()});
  EXPECT_EQ(Exec(*date_to_ts, {SerializeDate(kDateEpoch + 15706)}),
            SerializeTimestamp(1356998400000));
  auto ts_to_date = ResolveTyped("todate", {CqlType::Timestamp()});
  EXPECT_EQ(Exec(*ts_to_date, {SerializeTimestamp(k20130101T0005)}),
            SerializeDate(kDateEpoch + 15706));
  // Before 1970 the day is floored: -1 ms is 1969-12-31.
  EXPECT_EQ(Exec(*ts_to_date, {SerializeTimestamp(-1)}), SerializeDate(kDateEpoch - 1));
  auto date_unix = ResolveTyped("tounixtimestamp", {CqlType::Date()});
  EXPECT_EQ(Exec(*date_unix, {SerializeDate(kDateEpoch + 1)}), SerializeBigint(86400000));
  auto ts_unix = ResolveTyped("tounixtimestamp", {CqlType::Timestamp()});
  EXPECT_EQ(Exec(*ts_unix, {SerializeTimestamp(42)}), SerializeBigint(42));
}

TEST(FunctionsTest, CurrentFunctionsReadTheContext) {
  common::ManualClock clock(k20130101T0005 * 1000 + 234);
  common::TimeuuidGenerator generator(&clock, 0x8000000000000001ULL);
  FunctionContext ctx{&clock, &generator};
  auto now = ResolveTyped("now", {});
  EXPECT_FALSE(now->deterministic());
  auto uuid = Exec(*now, {}, ctx);
  ASSERT_TRUE(uuid.has_value());
  auto parsed = common::Uuid::FromBytes(*uuid);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->version(), 1);
  EXPECT_EQ(parsed->UnixMillis(), k20130101T0005);
  EXPECT_EQ(Exec(*ResolveTyped("currenttimestamp", {}), {}, ctx),
            SerializeTimestamp(k20130101T0005));
  EXPECT_EQ(Exec(*ResolveTyped("currentdate", {}), {}, ctx), SerializeDate(kDateEpoch + 15706));
  EXPECT_EQ(Exec(*ResolveTyped("currenttime", {}), {}, ctx),
            SerializeTime((5 * 60 * 1000000LL + 234) * 1000));
  auto random = Exec(*ResolveTyped("uuid", {}), {}, ctx);
  ASSERT_TRUE(random.has_value());
  EXPECT_EQ(common::Uuid::FromBytes(*random)->version(), 4);
  EXPECT_TRUE(ResolveTyped("totimestamp", {CqlType::Date()})->deterministic());
}

TEST(FunctionsTest, BlobConversions) {
  auto int_as_blob = ResolveTyped("intasblob", {CqlType::Int()});
  EXPECT_EQ(int_as_blob->return_type(), CqlType::Blob());
  EXPECT_EQ(Exec(*int_as_blob, {SerializeInt(1)}), Bytes("\0\0\0\1", 4));
  auto blob_as_text = ResolveTyped("blobastext", {CqlType::Blob()});
  EXPECT_EQ(Exec(*blob_as_text, {Bytes("abc")}), Bytes("abc"));
  auto blob_as_int = ResolveTyped("blobasint", {CqlType::Blob()});
  EXPECT_EQ(Exec(*blob_as_int, {Bytes("\0\0\0\7", 4)}), SerializeInt(7));
  common::Status error = ExecError(*blob_as_int, {Bytes("\x01\x02", 2)});
  EXPECT_EQ(error.code(), StatusCode::kInvalid);
  EXPECT_EQ(error.message(),
            "In call to function system.blobasint, value 0x0102 is not a valid binary "
            "representation for type int");
  for (const char* name : {"varcharasblob", "blobasvarchar", "bigintasblob", "blobastimeuuid",
                           "durationasblob", "blobascounter"}) {
    EXPECT_TRUE(IsScalarFunctionName(name)) << name;
  }
  EXPECT_FALSE(IsScalarFunctionName("blobasblob"));
}

TEST(FunctionsTest, ResolutionErrorsUseCassandraWording) {
  Term text = Const(ConstantKind::kString, "2020-01-01");
  common::Status ambiguous = ResolveError("tounixtimestamp", {std::nullopt}, {&text});
  EXPECT_EQ(ambiguous.message(),
            "Ambiguous call to function tounixtimestamp (can be matched by following signatures: "
            "system.tounixtimestamp : (timestamp) -> bigint, system.tounixtimestamp : (date) -> "
            "bigint): use type casts to disambiguate");
  EXPECT_EQ(ResolveError("foo", {}, {}).message(), "Unknown function foo called");
  EXPECT_EQ(ResolveError("foo", {}, {}, std::nullopt, true).message(), "Unknown function 'foo'");
  EXPECT_EQ(ResolveError("now", {CqlType::Int()}, {nullptr}).message(),
            "Invalid number of arguments in call to function system.now: 0 required but 1 "
            "provided");
  std::vector<std::string> texts = {"name"};
  auto f =
      ResolveScalarFunction("", "mintimeuuid", std::vector<std::optional<CqlType>>{CqlType::Text()},
                            std::vector<const Term*>{nullptr}, std::nullopt, texts);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message(),
            "Type error: name cannot be passed as argument 0 of function system.mintimeuuid of "
            "type timestamp");
  common::Status none =
      ResolveError("totimestamp", {CqlType::Int(), CqlType::Int()}, {nullptr, nullptr});
  EXPECT_EQ(none.message(),
            "Invalid call to function totimestamp, none of its type signatures match (known type "
            "signatures: system.totimestamp : (timeuuid) -> timestamp, system.totimestamp : "
            "(date) -> timestamp)");
  EXPECT_EQ(ResolveError("tojson", {CqlType::Int()}, {nullptr}).message(),
            "toJson() may only be used within the selection clause of SELECT statements");
  EXPECT_EQ(ResolveError("fromjson", {CqlType::Text()}, {nullptr}).message(),
            "fromJson() cannot be used in the selection clause of a SELECT statement");
  // A keyspace other than system holds no built-ins.
  auto other = ResolveScalarFunction("ks", "now", {}, {}, std::nullopt);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().message(), "Unknown function ks.now called");
  EXPECT_TRUE(ResolveScalarFunction("system", "now", {}, {}, std::nullopt).ok());
}

TEST(FunctionsTest, LiteralsPickTheirPreferredOverload) {
  Term one = Const(ConstantKind::kInteger, "1");
  Term two = Const(ConstantKind::kInteger, "2");
  Term big = Const(ConstantKind::kInteger, "3000000000");
  Term half = Const(ConstantKind::kFloat, "2.5");
  std::vector<std::optional<CqlType>> no_types(2);
  auto ints = ResolveScalarFunction("", "_add", no_types, std::vector<const Term*>{&one, &two},
                                    std::nullopt);
  ASSERT_TRUE(ints.ok()) << ints.status().ToString();
  EXPECT_EQ((*ints)->return_type(), CqlType::Int());
  auto mixed = ResolveScalarFunction("", "_add", no_types, std::vector<const Term*>{&one, &half},
                                     std::nullopt);
  ASSERT_TRUE(mixed.ok());
  EXPECT_EQ((*mixed)->return_type(), CqlType::Double());
  auto wide = ResolveScalarFunction("", "_multiply", no_types, std::vector<const Term*>{&big, &two},
                                    std::nullopt);
  ASSERT_TRUE(wide.ok());
  EXPECT_EQ((*wide)->return_type(), CqlType::Bigint());
  // A typed argument with a literal: the literal is weakly assignable to every numeric type,
  // so only the exact (bigint, int) overload wins.
  auto typed = ResolveScalarFunction(
      "", "_add", std::vector<std::optional<CqlType>>{CqlType::Bigint(), std::nullopt},
      std::vector<const Term*>{nullptr, &one}, std::nullopt);
  ASSERT_TRUE(typed.ok());
  EXPECT_EQ((*typed)->arg_types()[1], CqlType::Int());
  EXPECT_EQ((*typed)->return_type(), CqlType::Bigint());

  Term yes = Const(ConstantKind::kBoolean, "true");
  EXPECT_EQ(ResolveError("_add", no_types, {&yes, &one}).message(),
            "the '+' operation is not supported between true and 1");
  // An integer literal is also a duration, so a string and an integer are ambiguous.
  Term text = Const(ConstantKind::kString, "a");
  EXPECT_EQ(ResolveError("_add", no_types, {&text, &one}).message(),
            "Ambiguous '+' operation with args 'a' and 1: use type casts to disambiguate");
  EXPECT_EQ(ResolveError("_add", no_types, {nullptr, nullptr}).message(),
            "Ambiguous '+' operation with args ? and ?: use type casts to disambiguate");
  EXPECT_EQ(ResolveError("_negate", {std::nullopt}, {nullptr}).message(),
            "Ambiguous negation: use type casts to disambiguate");
  // A string and a duration literal match timestamp + duration and date + duration; a
  // timestamp receiver keeps only the first.
  Term text_ts = Const(ConstantKind::kString, "2020-01-01");
  Term duration = Const(ConstantKind::kDuration, "1d");
  EXPECT_EQ(ResolveError("_add", no_types, {&text_ts, &duration}).message(),
            "Ambiguous '+' operation with args '2020-01-01' and 1d: use type casts to "
            "disambiguate");
  auto temporal = ResolveScalarFunction(
      "", "_add", no_types, std::vector<const Term*>{&text_ts, &duration}, CqlType::Timestamp());
  ASSERT_TRUE(temporal.ok()) << temporal.status().ToString();
  EXPECT_EQ((*temporal)->return_type(), CqlType::Timestamp());
  Term three = Const(ConstantKind::kInteger, "3");
  Term four = Const(ConstantKind::kInteger, "4");
  Term five_point = Const(ConstantKind::kFloat, "1.5");
  // (int literal) * (float literal): exact (int, double) without a receiver; a float receiver
  // cannot take a double, so (float, float) is picked among the weak matches.
  auto exact = ResolveScalarFunction("", "_multiply", no_types,
                                     std::vector<const Term*>{&three, &five_point}, std::nullopt);
  ASSERT_TRUE(exact.ok());
  EXPECT_EQ((*exact)->return_type(), CqlType::Double());
  auto to_float = ResolveScalarFunction(
      "", "_multiply", no_types, std::vector<const Term*>{&three, &five_point}, CqlType::Float());
  ASSERT_TRUE(to_float.ok()) << to_float.status().ToString();
  EXPECT_EQ((*to_float)->arg_types()[0], CqlType::Float());
  // A receiver drops overloads whose result it cannot take ((int, int) returns int, which a
  // bigint cannot take); the weak matches left are then decided by the receiver's type.
  auto by_receiver = ResolveScalarFunction(
      "", "_add", no_types, std::vector<const Term*>{&three, &four}, CqlType::Bigint());
  ASSERT_TRUE(by_receiver.ok()) << by_receiver.status().ToString();
  EXPECT_EQ((*by_receiver)->arg_types()[0], CqlType::Bigint());
  EXPECT_EQ((*by_receiver)->arg_types()[1], CqlType::Bigint());
  auto as_int = ResolveScalarFunction("", "_add", no_types, std::vector<const Term*>{&three, &four},
                                      CqlType::Int());
  ASSERT_TRUE(as_int.ok());
  EXPECT_EQ((*as_int)->return_type(), CqlType::Int());
}

TEST(FunctionsTest, IntegerArithmeticWrapsLikeJava) {
  EXPECT_EQ(Binary("_add", CqlType::Int(), SerializeInt(1), CqlType::Int(), SerializeInt(2)),
            SerializeInt(3));
  EXPECT_EQ(
      Binary("_add", CqlType::Int(), SerializeInt(INT32_MAX), CqlType::Int(), SerializeInt(1)),
      SerializeInt(INT32_MIN));
  EXPECT_EQ(
      Binary("_divide", CqlType::Int(), SerializeInt(INT32_MIN), CqlType::Int(), SerializeInt(-1)),
      SerializeInt(INT32_MIN));
  EXPECT_EQ(Binary("_divide", CqlType::Bigint(), SerializeBigint(INT64_MIN), CqlType::Bigint(),
                   SerializeBigint(-1)),
            SerializeBigint(INT64_MIN));
  EXPECT_EQ(Binary("_divide", CqlType::Int(), SerializeInt(-7), CqlType::Int(), SerializeInt(2)),
            SerializeInt(-3));
  EXPECT_EQ(Binary("_modulo", CqlType::Int(), SerializeInt(-7), CqlType::Int(), SerializeInt(2)),
            SerializeInt(-1));
  EXPECT_EQ(Binary("_substract", CqlType::Tinyint(), SerializeTinyint(-128), CqlType::Tinyint(),
                   SerializeTinyint(1)),
            SerializeTinyint(127));
  CqlType result;
  EXPECT_EQ(Binary("_multiply", CqlType::Int(), SerializeInt(3), CqlType::Bigint(),
                   SerializeBigint(1LL << 40), &result),
            SerializeBigint(3LL << 40));
  EXPECT_EQ(result, CqlType::Bigint());
  Binary("_add", CqlType::Tinyint(), SerializeTinyint(1), CqlType::Smallint(), SerializeSmallint(1),
         &result);
  EXPECT_EQ(result, CqlType::Smallint());
  Binary("_add", CqlType::Counter(), SerializeBigint(1), CqlType::Int(), SerializeInt(1), &result);
  EXPECT_EQ(result, CqlType::Bigint());
  EXPECT_EQ(Binary("_add", CqlType::Int(), SerializeInt(1), CqlType::Int(), Bytes()), std::nullopt);
}

TEST(FunctionsTest, DivisionByZero) {
  auto int_div = ResolveTyped("_divide", {CqlType::Int(), CqlType::Int()});
  common::Status error = ExecError(*int_div, {SerializeInt(1), SerializeInt(0)});
  EXPECT_EQ(error.code(), StatusCode::kFunctionFailure);
  EXPECT_EQ(error.message(), "the operation 'int / int' failed: / by zero");
  auto mod = ResolveTyped("_modulo", {CqlType::Bigint(), CqlType::Int()});
  EXPECT_EQ(ExecError(*mod, {SerializeBigint(1), SerializeInt(0)}).message(),
            "the operation 'bigint % int' failed: / by zero");
  auto varint_div = ResolveTyped("_divide", {CqlType::Varint(), CqlType::Varint()});
  EXPECT_EQ(ExecError(*varint_div, {SerializeVarint(1), SerializeVarint(0)}).message(),
            "the operation 'varint / varint' failed: BigInteger divide by zero");
  auto decimal_div = ResolveTyped("_divide", {CqlType::Decimal(), CqlType::Decimal()});
  EXPECT_EQ(ExecError(*decimal_div, {SerializeDecimal(1, 0), SerializeDecimal(0, 0)}).message(),
            "the operation 'decimal / decimal' failed: Division by zero");
  EXPECT_EQ(ExecError(*decimal_div, {SerializeDecimal(0, 0), SerializeDecimal(0, 0)}).message(),
            "the operation 'decimal / decimal' failed: Division undefined");
  auto double_div = ResolveTyped("_divide", {CqlType::Double(), CqlType::Double()});
  auto inf = Exec(*double_div, {SerializeDouble(1), SerializeDouble(0)});
  ASSERT_TRUE(inf.has_value());
  EXPECT_TRUE(std::isinf(*DeserializeDouble(*inf)));
}

TEST(FunctionsTest, FloatingAndDecimalResultTypes) {
  CqlType result;
  EXPECT_EQ(Binary("_add", CqlType::Int(), SerializeInt(1), CqlType::Float(), SerializeFloat(0.5f),
                   &result),
            SerializeFloat(1.5f));
  EXPECT_EQ(result, CqlType::Float());
  EXPECT_EQ(Binary("_add", CqlType::Bigint(), SerializeBigint(1), CqlType::Float(),
                   SerializeFloat(0.5f), &result),
            SerializeDouble(1.5));
  EXPECT_EQ(result, CqlType::Double());
  EXPECT_EQ(Binary("_add", CqlType::Varint(), SerializeVarint(1), CqlType::Double(),
                   SerializeDouble(0.5), &result),
            SerializeDecimal(15, 1));
  EXPECT_EQ(result, CqlType::Decimal());
  EXPECT_EQ(Binary("_modulo", CqlType::Double(), SerializeDouble(7.5), CqlType::Double(),
                   SerializeDouble(2)),
            SerializeDouble(1.5));
  // Decimal: add keeps the larger scale, multiply adds scales, divide is exact when it ends.
  EXPECT_EQ(
      Binary("_add", CqlType::Decimal(), SerializeDecimal(15, 1), CqlType::Int(), SerializeInt(1)),
      SerializeDecimal(25, 1));
  EXPECT_EQ(Binary("_multiply", CqlType::Decimal(), SerializeDecimal(15, 1), CqlType::Decimal(),
                   SerializeDecimal(15, 1)),
            SerializeDecimal(225, 2));
  EXPECT_EQ(Binary("_divide", CqlType::Decimal(), SerializeDecimal(1, 0), CqlType::Decimal(),
                   SerializeDecimal(4, 0)),
            SerializeDecimal(25, 2));
  EXPECT_EQ(Binary("_divide", CqlType::Decimal(), SerializeDecimal(100, 2), CqlType::Decimal(),
                   SerializeDecimal(2, 0)),
            SerializeDecimal(50, 2));
  EXPECT_EQ(Binary("_divide", CqlType::Decimal(), SerializeDecimal(100, 0), CqlType::Decimal(),
                   SerializeDecimal(4, 0)),
            SerializeDecimal(25, 0));
  EXPECT_EQ(Binary("_multiply", CqlType::Varint(), SerializeVarint(INT64_MAX), CqlType::Varint(),
                   SerializeVarint(4)),
            *VarintFromText("36893488147419103228"));
}

TEST(FunctionsTest, TemporalArithmetic) {
  auto parse_ts = [](std::string_view text) { return SerializeTimestamp(*ParseTimestamp(text)); };
  auto add = ResolveTyped("_add", {CqlType::Timestamp(), CqlType::Duration()});
  EXPECT_EQ(add->return_type(), CqlType::Timestamp());
  EXPECT_EQ(Exec(*add, {parse_ts("2024-01-31 10:00:00Z"), SerializeDuration(Duration{1, 0, 0})}),
            parse_ts("2024-02-29 10:00:00Z"));
  EXPECT_EQ(Exec(*add, {parse_ts("2024-01-31 10:00:00Z"),
                        SerializeDuration(Duration{0, 1, 3600LL * 1000000000})}),
            parse_ts("2024-02-01 11:00:00Z"));
  auto sub = ResolveTyped("_substract", {CqlType::Timestamp(), CqlType::Duration()});
  EXPECT_EQ(Exec(*sub, {parse_ts("2024-03-31 00:00:00Z"), SerializeDuration(Duration{1, 0, 0})}),
            parse_ts("2024-02-29 00:00:00Z"));
  auto date_sub = ResolveTyped("_substract", {CqlType::Date(), CqlType::Duration()});
  EXPECT_EQ(Exec(*date_sub, {SerializeDate(kDateEpoch), SerializeDuration(Duration{0, 1, 0})}),
            SerializeDate(kDateEpoch - 1));
  EXPECT_EQ(ExecError(*date_sub, {SerializeDate(kDateEpoch), SerializeDuration(Duration{0, 0, 5})})
                .message(),
            "The duration must have a day precision. Was: 5ns");
}

TEST(FunctionsTest, Negation) {
  auto negate_int = ResolveTyped("_negate", {CqlType::Int()});
  EXPECT_EQ(Exec(*negate_int, {SerializeInt(5)}), SerializeInt(-5));
  EXPECT_EQ(Exec(*negate_int, {SerializeInt(INT32_MIN)}), SerializeInt(INT32_MIN));
  auto negate_decimal = ResolveTyped("_negate", {CqlType::Decimal()});
  EXPECT_EQ(Exec(*negate_decimal, {SerializeDecimal(15, 1)}), SerializeDecimal(-15, 1));
  EXPECT_EQ(OperatorOfFunction("_modulo"), "%");
  EXPECT_EQ(OperatorOfFunction("now"), "");
}

TEST(FunctionsTest, JsonFunctions) {
  auto to_json = ResolveScalarFunction(
      "", "tojson", std::vector<std::optional<CqlType>>{CqlType::List(CqlType::Int())},
      std::vector<const Term*>{nullptr}, std::nullopt, {}, true);
  ASSERT_TRUE(to_json.ok());
  EXPECT_EQ(Exec(**to_json, {SerializeCollection(CqlType::List(CqlType::Int()),
                                                 {SerializeInt(1), SerializeInt(2)})}),
            Bytes("[1, 2]"));
  EXPECT_EQ(Exec(**to_json, {std::nullopt}), Bytes("null"));
  Term arg = Const(ConstantKind::kString, "{\"a\": 1}");
  auto from_json = ResolveScalarFunction(
      "", "fromjson", std::vector<std::optional<CqlType>>{std::nullopt},
      std::vector<const Term*>{&arg}, CqlType::Map(CqlType::Text(), CqlType::Int()));
  ASSERT_TRUE(from_json.ok()) << from_json.status().ToString();
  EXPECT_EQ(
      Exec(**from_json, {Bytes("{\"a\": 1}")}),
      SerializeMap(CqlType::Map(CqlType::Text(), CqlType::Int()), {{Bytes("a"), SerializeInt(1)}}));
  common::Status error = ExecError(**from_json, {Bytes("[1]")});
  EXPECT_EQ(error.code(), StatusCode::kFunctionFailure);
  EXPECT_EQ(error.message(),
            "execution of 'system.fromjson[text]' failed: "
            "org.apache.cassandra.serializers.MarshalException: Expected a map, but got a "
            "ArrayList: [1]");
}

}  // namespace
}  // namespace cql
