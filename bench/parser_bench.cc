// Parsing typical statements (issue target: a one-line INSERT or SELECT in well under 2 µs).

#include <benchmark/benchmark.h>

#include "cql/parser/parser.h"

namespace {

void BM_ParseInsert(benchmark::State& state) {
  const char* text =
      "INSERT INTO hotel.available_rooms_by_hotel_date (hotel_id, date, room_number, "
      "is_available) VALUES ('AZ123', '2016-01-05', 101, true)";
  for (auto _ : state) {
    auto statement = cql::ParseStatement(text);
    benchmark::DoNotOptimize(statement);
  }
}
BENCHMARK(BM_ParseInsert);

void BM_ParseSelect(benchmark::State& state) {
  const char* text =
      "SELECT date, room_number, is_available FROM hotel.available_rooms_by_hotel_date "
      "WHERE hotel_id = 'AZ123' AND date >= '2016-01-01' AND date < '2016-01-05'";
  for (auto _ : state) {
    auto statement = cql::ParseStatement(text);
    benchmark::DoNotOptimize(statement);
  }
}
BENCHMARK(BM_ParseSelect);

void BM_ParsePreparedInsert(benchmark::State& state) {
  const char* text =
      "INSERT INTO reservation.guests (guest_id, first_name, last_name, title, emails, "
      "phone_numbers, addresses, confirm_number) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
  for (auto _ : state) {
    auto statement = cql::ParseStatement(text);
    benchmark::DoNotOptimize(statement);
  }
}
BENCHMARK(BM_ParsePreparedInsert);

void BM_ParseCreateTable(benchmark::State& state) {
  const char* text =
      "CREATE TABLE reservation.guests (guest_id uuid PRIMARY KEY, first_name text, last_name "
      "text, title text, emails set<text>, phone_numbers list<text>, addresses map<text, "
      "frozen<address>>, confirm_number text) WITH comment = 'Q9. Find guest by ID'";
  for (auto _ : state) {
    auto statement = cql::ParseStatement(text);
    benchmark::DoNotOptimize(statement);
  }
}
BENCHMARK(BM_ParseCreateTable);

}  // namespace
