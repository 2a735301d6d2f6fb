// Serializing and deserializing a row of the seeds' `reservation.guests` table:
//   guest_id uuid, first_name text, last_name text, title text, emails set<text>,
//   phone_numbers list<text>, addresses map<text, frozen<address>>, confirm_number text

#include <benchmark/benchmark.h>

#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "cql/types/value_codec.h"
#include "cql/types/value_format.h"

namespace {

using cql::CqlType;

struct GuestTypes {
  CqlType address = CqlType::Udt(
      "reservation", "address", {"street", "city", "state_or_province", "postal_code", "country"},
      {CqlType::Text(), CqlType::Text(), CqlType::Text(), CqlType::Text(), CqlType::Text()},
      /*frozen=*/true);
  CqlType emails = CqlType::Set(CqlType::Text());
  CqlType phones = CqlType::List(CqlType::Text());
  CqlType addresses = CqlType::Map(CqlType::Text(), address);
  std::vector<CqlType> columns = {CqlType::Uuid(), CqlType::Text(), CqlType::Text(),
                                  CqlType::Text(), emails,          phones,
                                  addresses,       CqlType::Text()};
};

common::Bytes Address(const char* street, const char* city, const char* state, const char* zip,
                      const char* country) {
  return cql::SerializeTupleOrUdt({common::Bytes(street), common::Bytes(city), common::Bytes(state),
                                   common::Bytes(zip), common::Bytes(country)});
}

// One row's cells in native-protocol serialization, built from plain C++ values.
std::vector<common::Bytes> SerializeGuest(const GuestTypes& types) {
  std::vector<common::Bytes> row;
  row.reserve(8);
  row.push_back(*common::FromHex("5b6962dd3f904c938f61eabfa4a803e2"));
  row.emplace_back("Thi");
  row.emplace_back("Nguyen");
  row.emplace_back("Dr.");
  row.push_back(cql::SerializeCollection(types.emails, {"thi@example.com", "nguyen@example.org"}));
  row.push_back(cql::SerializeCollection(types.phones, {"+1 555 0100", "+1 555 0101"}));
  row.push_back(cql::SerializeMap(
      types.addresses,
      {{"home", Address("1 Main St", "Springfield", "IL", "62701", "USA")},
       {"work", Address("100 Market St", "San Francisco", "CA", "94105", "USA")}}));
  row.emplace_back("RS2G0Z");
  return row;
}

void BM_SerializeGuestRow(benchmark::State& state) {
  GuestTypes types;
  for (auto _ : state) {
    auto row = SerializeGuest(types);
    benchmark::DoNotOptimize(row);
  }
}
BENCHMARK(BM_SerializeGuestRow);

// Validates every cell as a server does for bound values, and walks the collections down to
// the address fields as a reader does.
void BM_DeserializeGuestRow(benchmark::State& state) {
  GuestTypes types;
  std::vector<common::Bytes> row = SerializeGuest(types);
  for (auto _ : state) {
    size_t fields = 0;
    for (size_t i = 0; i < row.size(); ++i) {
      common::Status status = cql::ValidateValue(types.columns[i], row[i]);
      benchmark::DoNotOptimize(status);
    }
    auto emails = cql::SplitListOrSet(types.emails, row[4]);
    auto phones = cql::SplitListOrSet(types.phones, row[5]);
    auto addresses = cql::SplitMap(row[6]);
    for (const auto& entry : *addresses) {
      auto address = cql::SplitTupleOrUdt(entry.value, 5);
      fields += address->size();
    }
    fields += emails->size() + phones->size();
    benchmark::DoNotOptimize(fields);
  }
}
BENCHMARK(BM_DeserializeGuestRow);

void BM_FormatGuestRow(benchmark::State& state) {
  GuestTypes types;
  std::vector<common::Bytes> row = SerializeGuest(types);
  for (auto _ : state) {
    for (size_t i = 0; i < row.size(); ++i) {
      std::string text = cql::FormatValue(types.columns[i], row[i]);
      benchmark::DoNotOptimize(text);
    }
  }
}
BENCHMARK(BM_FormatGuestRow);

}  // namespace
