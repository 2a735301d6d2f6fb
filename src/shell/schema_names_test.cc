#include "shell/schema_names.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace shell {
namespace {

using ::testing::Contains;
using ::testing::IsSupersetOf;
using ::testing::Not;

SchemaNames Names() {
  SchemaNames names;
  names.AddKeyspace("hotel");
  names.AddKeyspace("reservation");
  names.AddColumn("hotel", "hotels", "id");
  names.AddColumn("hotel", "hotels", "name");
  names.AddColumn("hotel", "available_rooms_by_hotel_date", "hotel_id");
  names.AddColumn("hotel", "Mixed", "Col");
  names.AddTable("reservation", "reservations_by_confirmation");
  names.AddType("hotel", "address");
  return names;
}

TEST(SchemaNamesTest, TablesAfterFromAndKeyspaceDot) {
  SchemaNames names = Names();
  EXPECT_THAT(CompletionCandidates(names, "hotel", "SELECT * FROM ", "av"),
              IsSupersetOf({"available_rooms_by_hotel_date", "hotels", "hotel", "reservation",
                            "\"Mixed\""}));
  EXPECT_THAT(CompletionCandidates(names, "", "select * from reservation.", "res"),
              testing::ElementsAre("reservations_by_confirmation"));
  EXPECT_THAT(CompletionCandidates(names, "", "USE ", ""),
              testing::ElementsAre("hotel", "reservation"));
  EXPECT_THAT(CompletionCandidates(names, "hotel", "DESCRIBE TYPE ", "a"), Contains("address"));
}

TEST(SchemaNamesTest, ColumnsOfTheNamedTable) {
  SchemaNames names = Names();
  auto candidates = CompletionCandidates(names, "", "SELECT * FROM hotel.hotels WHERE ", "n");
  EXPECT_THAT(candidates, IsSupersetOf({"id", "name"}));
  EXPECT_THAT(candidates, Not(Contains("hotel_id")));
  EXPECT_THAT(CompletionCandidates(names, "hotel", "INSERT INTO hotels (id, ", "n"),
              Contains("name"));
}

TEST(SchemaNamesTest, KeywordsInTheCaseTyped) {
  SchemaNames names = Names();
  EXPECT_THAT(CompletionCandidates(names, "", "", "sel"), Contains("select"));
  EXPECT_THAT(CompletionCandidates(names, "", "", "SEL"), Contains("SELECT"));
  EXPECT_THAT(CompletionCandidates(names, "", "", ""), Contains("DESCRIBE"));
}

}  // namespace
}  // namespace shell
