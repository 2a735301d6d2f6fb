// The seeds' hotel.available_rooms_by_hotel_date: Q4 (the available rooms of one hotel over a
// 7-night range: 700 rows) and the bulk load of the table, each beside raw RocksDB reading or
// writing the same bytes (issue "Benchmark": Q4 in tens of microseconds; bulk load above 300k
// rows/s on 2 cores).

#include <algorithm>
#include <atomic>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "bench/engine_benchmarks.h"
#include "common/clock.h"
#include "cql/types/value_codec.h"
#include "storage/key_layout.h"

namespace bench {

namespace {

using common::Bytes;
using Durability = engine::DatabaseOptions::Durability;

constexpr int64_t kNights = 7;
constexpr int64_t kQ4Rows = kNights * kRoomsPerHotel;
// Distinct Q4 queries cycled through (fixed seed): more than the default row cache holds
// (about 370 weeks of one hotel), so that cycling through them misses it every time.
constexpr size_t kQueries = 4096;
constexpr char kQ4[] =
    "SELECT * FROM hotel.available_rooms_by_hotel_date WHERE hotel_id = ? AND date > ? AND "
    "date < ?";
// Rows per bulk-load batch: one hotel, one date, every room (one partition).
constexpr int64_t kBatchRows = kRoomsPerHotel;

struct Q4Query {
  int64_t hotel = 0;
  int64_t first_night = 0;  // day index; nights first_night .. first_night + 6
};

// Cold: random hotels and nights over the whole table (larger than RocksDB's block cache).
// Hot: hotel 0, four fixed weeks, so every block read is cached.
std::vector<Q4Query> Queries(int seed, bool hot) {
  if (hot) return {{0, 10}, {0, 100}, {0, 200}, {0, 300}};
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<int64_t> hotels(0, BenchEnvironment::kHotels - 1);
  std::uniform_int_distribution<int64_t> days(1, kDaysPerHotel - kNights - 1);
  std::vector<Q4Query> queries;
  for (size_t i = 0; i < kQueries; ++i) queries.push_back({hotels(random), days(random)});
  return queries;
}

void EngineQ4(benchmark::State& state, BenchEnvironment* environment, bool hot, bool row_cache) {
  Dataset* dataset = Unwrap(state, environment->Availability());
  if (dataset == nullptr) return;
  const size_t cache_bytes = engine::DatabaseOptions().row_cache_bytes;
  // The engine opened without a row cache for this run only.
  if (!row_cache &&
      !Check(state, environment->ReopenEngine(dataset, BenchTable::kAvailability, 0))) {
    return;
  }
  auto select = dataset->session->Prepare(kQ4);
  if (!Check(state, select.status())) return;
  std::vector<cql::QueryOptions> options;
  for (const Q4Query& q : Queries(7 + state.thread_index(), hot)) {
    cql::QueryOptions o;
    o.values = {cql::BoundValue::Of(AvailabilityRow(q.hotel, 0, 0)[0]),
                cql::BoundValue::Of(cql::SerializeDate(AvailabilityDate(q.first_night - 1))),
                cql::BoundValue::Of(cql::SerializeDate(AvailabilityDate(q.first_night + kNights)))};
    options.push_back(std::move(o));
  }
  const engine::RowCache* cache = dataset->database->row_cache();
  const engine::RowCache::Statistics before =
      cache != nullptr ? cache->statistics() : engine::RowCache::Statistics();
  size_t position = 0;
  for (auto _ : state) {
    auto result = dataset->session->ExecutePrepared(**select, options[position]);
    if (!Check(state, result.status())) break;
    if (result->row_count() != kQ4Rows) {
      state.SkipWithError("Q4 did not return 700 rows");
      break;
    }
    position = (position + 1) % options.size();
  }
  state.counters["rows"] = kQ4Rows;
  if (cache != nullptr) {
    engine::RowCache::Statistics after = cache->statistics();
    const uint64_t hits = after.hits - before.hits;
    const uint64_t misses = after.misses - before.misses;
    state.counters["row_cache_hit%"] = 100.0 * static_cast<double>(hits) /
                                       static_cast<double>(std::max<uint64_t>(1, hits + misses));
  }
  if (!row_cache) {
    Check(state, environment->ReopenEngine(dataset, BenchTable::kAvailability, cache_bytes));
  }
}

// The hotel workflow's Q4 (hotel bench): windows of 1-7 nights starting on a random day of
// the first kWindowDays (2,700 rows of a hotel, as a hotel of the `small` sample: 30 rooms x
// 90 days), of a random hotel; the window's end bound is the next one's start
// when they touch (date >= first AND date < end), as the service reads them. One pass over
// kQueries windows from an empty row cache: the hit rate shows how fast the cached slices
// converge, the CPU per query includes the misses that fill them.
constexpr int64_t kWindowDays = 27;
constexpr char kQ4Window[] =
    "SELECT * FROM hotel.available_rooms_by_hotel_date WHERE hotel_id = ? AND date >= ? AND "
    "date < ?";

void EngineQ4RandomWindow(benchmark::State& state, BenchEnvironment* environment, bool row_cache) {
  Dataset* dataset = Unwrap(state, environment->Availability());
  if (dataset == nullptr) return;
  const size_t cache_bytes = engine::DatabaseOptions().row_cache_bytes;
  // Each run starts from an empty cache (or none), so the hit rate shows the convergence.
  if (!Check(state, environment->ReopenEngine(dataset, BenchTable::kAvailability,
                                              row_cache ? cache_bytes : 0))) {
    return;
  }
  auto select = dataset->session->Prepare(kQ4Window);
  if (!Check(state, select.status())) return;
  std::mt19937_64 random(11 + state.thread_index());
  std::uniform_int_distribution<int64_t> hotels(0, BenchEnvironment::kHotels - 1);
  std::uniform_int_distribution<int64_t> days(0, kWindowDays - 1);
  std::uniform_int_distribution<int64_t> nights(1, kNights);
  std::vector<cql::QueryOptions> options;
  std::vector<size_t> expected_rows;
  for (size_t i = 0; i < kQueries; ++i) {
    const int64_t hotel = hotels(random);
    const int64_t first = days(random);
    const int64_t end = std::min(kWindowDays, first + nights(random));
    cql::QueryOptions o;
    o.values = {cql::BoundValue::Of(AvailabilityRow(hotel, 0, 0)[0]),
                cql::BoundValue::Of(cql::SerializeDate(AvailabilityDate(first))),
                cql::BoundValue::Of(cql::SerializeDate(AvailabilityDate(end)))};
    options.push_back(std::move(o));
    expected_rows.push_back(static_cast<size_t>((end - first) * kRoomsPerHotel));
  }
  const engine::RowCache* cache = dataset->database->row_cache();
  size_t position = 0;
  size_t rows = 0;
  for (auto _ : state) {
    auto result = dataset->session->ExecutePrepared(**select, options[position]);
    if (!Check(state, result.status())) break;
    if (result->row_count() != expected_rows[position]) {
      state.SkipWithError("Q4 window returned the wrong number of rows");
      break;
    }
    rows += result->row_count();
    position = (position + 1) % options.size();
  }
  state.counters["rows"] =
      static_cast<double>(rows) /
      static_cast<double>(std::max<benchmark::IterationCount>(1, state.iterations()));
  if (cache != nullptr) {
    const engine::RowCache::Statistics statistics = cache->statistics();
    state.counters["row_cache_hit%"] =
        100.0 * static_cast<double>(statistics.hits) /
        static_cast<double>(std::max<uint64_t>(1, statistics.hits + statistics.misses));
  }
  if (!row_cache) {
    Check(state, environment->ReopenEngine(dataset, BenchTable::kAvailability, cache_bytes));
  }
}

// A bounded iterator over the same key range as the engine's, appending every value to a
// buffer (the bytes a result would copy).
void RawQ4(benchmark::State& state, BenchEnvironment* environment, bool hot) {
  Dataset* dataset = Unwrap(state, environment->Availability());
  if (dataset == nullptr) return;
  const storage::KeyShape& shape = dataset->encoder->schema().shape;
  struct Range {
    Bytes lower;
    Bytes upper;
  };
  std::vector<Range> ranges;
  for (const Q4Query& q : Queries(7 + state.thread_index(), hot)) {
    std::vector<Bytes> pk = {AvailabilityRow(q.hotel, 0, 0)[0]};
    Bytes prefix = dataset->encoder->PartitionPrefix(pk);
    storage::ClusteringBound after{{cql::SerializeDate(AvailabilityDate(q.first_night - 1))},
                                   storage::BoundSide::kAfter};
    storage::ClusteringBound before{{cql::SerializeDate(AvailabilityDate(q.first_night + kNights))},
                                    storage::BoundSide::kBefore};
    ranges.push_back(
        {storage::RowBoundKey(shape, prefix, after), storage::RowBoundKey(shape, prefix, before)});
  }
  size_t position = 0;
  std::string buffer;
  for (auto _ : state) {
    const Range& range = ranges[position];
    rocksdb::Slice lower(range.lower);
    rocksdb::Slice upper(range.upper);
    rocksdb::ReadOptions options;
    options.total_order_seek = true;
    options.iterate_lower_bound = &lower;
    options.iterate_upper_bound = &upper;
    std::unique_ptr<rocksdb::Iterator> it(
        dataset->raw->db()->NewIterator(options, dataset->raw->table()));
    buffer.clear();
    int64_t rows = 0;
    for (it->Seek(lower); it->Valid(); it->Next()) {
      buffer.append(it->key().data(), it->key().size());
      buffer.append(it->value().data(), it->value().size());
      ++rows;
    }
    if (rows != kQ4Rows) {
      state.SkipWithError("raw Q4 range did not hold 700 rows");
      break;
    }
    benchmark::DoNotOptimize(buffer);
    position = (position + 1) % ranges.size();
  }
  state.counters["rows"] = kQ4Rows;
}

// Per registered bulk-load benchmark: its own empty data set and batch counter.
struct BulkLoad {
  explicit BulkLoad(BenchEnvironment* environment)
      : dataset([environment]() {
          return environment->NewDataset(BenchTable::kAvailability, Durability::kPeriodic);
        }) {}
  SharedDataset dataset;
  std::atomic<int64_t> next_batch{0};
};

// Batch n: hotel n / 365, day n % 365, every room.
std::vector<Bytes> BatchRow(int64_t batch, int64_t room) {
  return AvailabilityRow(batch / kDaysPerHotel, batch % kDaysPerHotel, room);
}

void EngineBulkLoad(benchmark::State& state, BulkLoad* load) {
  Dataset* dataset = Unwrap(state, load->dataset.Get());
  if (dataset == nullptr) return;
  cql::BatchRequest batch;
  batch.type = cql::BatchType::kUnlogged;
  for (auto _ : state) {
    state.PauseTiming();
    int64_t n = load->next_batch.fetch_add(1);
    batch.entries.clear();
    for (int64_t room = 0; room < kBatchRows; ++room) {
      cql::BatchEntry entry;
      entry.prepared = dataset->insert;
      for (Bytes& value : BatchRow(n, room)) {
        entry.values.push_back(cql::BoundValue::Of(std::move(value)));
      }
      batch.entries.push_back(std::move(entry));
    }
    state.ResumeTiming();
    auto result = dataset->session->ExecuteBatch(batch);
    if (!Check(state, result.status())) break;
  }
  state.counters["rows/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * kBatchRows), benchmark::Counter::kIsRate);
}

void RawBulkLoad(benchmark::State& state, BulkLoad* load) {
  Dataset* dataset = Unwrap(state, load->dataset.Get());
  if (dataset == nullptr) return;
  common::SystemClock clock;
  rocksdb::WriteOptions options;
  std::vector<EncodedRow> rows;
  for (auto _ : state) {
    state.PauseTiming();
    int64_t n = load->next_batch.fetch_add(1);
    int64_t timestamp = clock.NowMicros();
    rows.clear();
    for (int64_t room = 0; room < kBatchRows; ++room) {
      rows.push_back(dataset->encoder->Encode(BatchRow(n, room), timestamp));
    }
    state.ResumeTiming();
    rocksdb::WriteBatch batch;
    for (const EncodedRow& row : rows) {
      rocksdb::Status s = batch.Put(dataset->raw->table(), row.key, row.value);
      benchmark::DoNotOptimize(s);
    }
    rocksdb::Status s = dataset->raw->db()->Write(options, &batch);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
  }
  state.counters["rows/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * kBatchRows), benchmark::Counter::kIsRate);
}

}  // namespace

void RegisterAvailabilityBenchmarks(BenchEnvironment* environment) {
  for (bool hot : {false, true}) {
    std::string suffix = hot ? "Hot" : "";
    // With the row cache (the default) and without it, in the same run.
    for (bool row_cache : {true, false}) {
      benchmark::RegisterBenchmark(
          ("BM_EngineQ4" + suffix + (row_cache ? "" : "NoRowCache")).c_str(),
          [environment, hot, row_cache](benchmark::State& state) {
            EngineQ4(state, environment, hot, row_cache);
          })
          ->Unit(benchmark::kMicrosecond)
          ->UseRealTime()
          ->MeasureProcessCPUTime();
    }
    benchmark::RegisterBenchmark(
        ("BM_RawQ4" + suffix).c_str(),
        [environment, hot](benchmark::State& state) { RawQ4(state, environment, hot); })
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime()
        ->MeasureProcessCPUTime();
  }
  for (bool row_cache : {true, false}) {
    benchmark::RegisterBenchmark(
        (std::string("BM_EngineQ4RandomWindow") + (row_cache ? "" : "NoRowCache")).c_str(),
        [environment, row_cache](benchmark::State& state) {
          EngineQ4RandomWindow(state, environment, row_cache);
        })
        ->Unit(benchmark::kMicrosecond)
        ->Iterations(kQueries)  // one pass over the windows, from an empty cache
        ->UseRealTime()
        ->MeasureProcessCPUTime();
  }
  // One data set for the engine's runs and one for the raw ones.
  auto engine_load = std::make_shared<BulkLoad>(environment);
  auto raw_load = std::make_shared<BulkLoad>(environment);
  // Engine and raw side by side for each thread count.
  for (int threads : {1, 2}) {
    benchmark::RegisterBenchmark(
        "BM_EngineBulkLoad",
        [engine_load](benchmark::State& state) { EngineBulkLoad(state, engine_load.get()); })
        ->Unit(benchmark::kMicrosecond)
        ->Threads(threads)
        ->UseRealTime()
        ->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark(
        "BM_RawBulkLoad",
        [raw_load](benchmark::State& state) { RawBulkLoad(state, raw_load.get()); })
        ->Unit(benchmark::kMicrosecond)
        ->Threads(threads)
        ->UseRealTime()
        ->MeasureProcessCPUTime();
  }
}

}  // namespace bench
