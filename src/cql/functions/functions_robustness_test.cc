// Robustness of the built-in functions, CAST, aggregates and JSON on arbitrary bytes: every
// input gives a value or an error, never a crash (ASan/UBSan check the rest). Fixed seeds.

#include <gtest/gtest.h>

#include "cql/functions/aggregates.h"
#include "cql/functions/cast.h"
#include "cql/functions/functions.h"
#include "cql/functions/json.h"
#include "cql/types/random_values_testing.h"
#include "cql/types/value_codec.h"

namespace cql {
namespace {

using common::Bytes;

Bytes RandomBytes(testing::RandomValues& random) {
  Bytes out(static_cast<size_t>(random.Uniform(0, 20)), '\0');
  for (char& c : out) c = static_cast<char>(random.Uniform(0, 255));
  return out;
}

std::optional<Bytes> RandomArg(testing::RandomValues& random, const CqlType& type) {
  switch (random.Uniform(0, 5)) {
    case 0:
      return std::nullopt;
    case 1:
      return RandomBytes(random);
    case 2:
      return random.Malformed(type);
    default:
      return random.Value(type);
  }
}

TEST(FunctionsRobustnessTest, EveryBuiltinAcceptsArbitraryArguments) {
  testing::RandomValues random(20240601);
  common::ManualClock clock(1700000000000000);
  common::TimeuuidGenerator generator(&clock, 0x8000000000000001ULL);
  FunctionContext ctx{&clock, &generator};
  auto functions = AllBuiltinScalarFunctions();
  ASSERT_GT(functions.size(), 400u);
  for (const auto& function : functions) {
    for (int round = 0; round < 30; ++round) {
      std::vector<std::optional<Bytes>> args;
      for (const CqlType& type : function->arg_types()) args.push_back(RandomArg(random, type));
      auto result = function->Execute(ctx, args);
      // min/maxtimeuuid wrap out-of-range timestamps into non-version-1 bits, as Cassandra's.
      bool wraps = function->name() == "mintimeuuid" || function->name() == "maxtimeuuid";
      if (result.ok() && result->has_value() && !(*result)->empty() && !wraps) {
        EXPECT_TRUE(ValidateValue(function->return_type(), **result).ok()) << function->Signature();
      }
    }
    // A wrong argument count is an error, not an out-of-bounds read.
    std::vector<std::optional<Bytes>> too_few;
    if (!function->arg_types().empty()) {
      EXPECT_FALSE(function->Execute(ctx, too_few).ok());
    }
  }
}

TEST(FunctionsRobustnessTest, JsonCastAndAggregatesOnArbitraryValues) {
  testing::RandomValues random(77);
  std::vector<CqlType> natives = random.NativeKeyTypes();
  natives.push_back(CqlType::Counter());
  natives.push_back(CqlType::Duration());
  for (int round = 0; round < 3000; ++round) {
    CqlType type = random.OneIn(2) ? random.Pick(natives) : random.KeyType(3);
    std::optional<Bytes> value = RandomArg(random, type);
    std::string json =
        ValueToJson(type, value ? std::optional<std::string_view>(*value) : std::nullopt);
    auto parsed = ParseJson(json);
    ASSERT_TRUE(parsed.ok()) << type.ToCql() << " " << json;
    (void)JsonToValue(type, *parsed);
    CqlType target = random.Pick(natives);
    (void)CastValue(type, target, value ? std::optional<std::string_view>(*value) : std::nullopt);
    for (const char* name : {"min", "max", "sum", "avg", "count"}) {
      std::vector<CqlType> types = {type};
      auto aggregate = ResolveAggregate(name, types);
      if (!aggregate.ok()) continue;
      auto state = (*aggregate)->NewAggregate();
      (void)state->Add(value ? std::optional<std::string_view>(*value) : std::nullopt);
      (void)state->Compute();
    }
  }
  for (int round = 0; round < 2000; ++round) {
    Bytes text = RandomBytes(random);
    if (random.OneIn(2)) text = "{\"a\": [" + text + "]}";
    (void)ParseJson(text);
    (void)ParseJsonObject(text);
  }
}

}  // namespace
}  // namespace cql
