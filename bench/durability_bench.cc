// Durability modes (docs/reliability.md §5): a prepared single-row INSERT into an empty bench.kv
// with the engine in kPeriodic (the write-ahead log is written, syncing is left to the OS) and
// in kBatch (the log is fsynced before the write is acknowledged; concurrent writers share a
// sync through RocksDB's write groups), from 1 and 4 threads, beside raw RocksDB Puts of the
// same bytes with `WriteOptions::sync` off and on.

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include <rocksdb/db.h>

#include "bench/engine_benchmarks.h"
#include "common/clock.h"

namespace bench {

namespace {

using common::Bytes;
using Durability = engine::DatabaseOptions::Durability;

constexpr size_t kChunk = 256;

struct DurabilityRun {
  DurabilityRun(BenchEnvironment* environment, Durability durability)
      : dataset([environment, durability]() {
          return environment->NewDataset(BenchTable::kKeyValue, durability);
        }) {}
  SharedDataset dataset;
  std::atomic<int64_t> next_id{0};
};

void EngineInsert(benchmark::State& state, DurabilityRun* run) {
  Dataset* dataset = Unwrap(state, run->dataset.Get());
  if (dataset == nullptr) return;
  std::vector<cql::QueryOptions> chunk;
  size_t position = kChunk;
  for (auto _ : state) {
    if (position == kChunk) {
      state.PauseTiming();
      chunk.clear();
      int64_t first = run->next_id.fetch_add(kChunk);
      for (size_t i = 0; i < kChunk; ++i) {
        cql::QueryOptions options;
        for (Bytes& value : KeyValueRow(first + i)) {
          options.values.push_back(cql::BoundValue::Of(std::move(value)));
        }
        chunk.push_back(std::move(options));
      }
      position = 0;
      state.ResumeTiming();
    }
    auto result = dataset->session->ExecutePrepared(*dataset->insert, chunk[position++]);
    if (!Check(state, result.status())) break;
  }
  state.SetItemsProcessed(state.iterations());
}

void RawInsert(benchmark::State& state, DurabilityRun* run) {
  Dataset* dataset = Unwrap(state, run->dataset.Get());
  if (dataset == nullptr) return;
  common::SystemClock clock;
  rocksdb::WriteOptions options;
  options.sync = dataset->raw->sync();
  std::vector<EncodedRow> chunk;
  size_t position = kChunk;
  for (auto _ : state) {
    if (position == kChunk) {
      state.PauseTiming();
      chunk.clear();
      int64_t first = run->next_id.fetch_add(kChunk);
      for (size_t i = 0; i < kChunk; ++i) {
        chunk.push_back(dataset->encoder->Encode(KeyValueRow(first + i), clock.NowMicros()));
      }
      position = 0;
      state.ResumeTiming();
    }
    const EncodedRow& row = chunk[position++];
    rocksdb::Status s = dataset->raw->db()->Put(options, dataset->raw->table(), row.key, row.value);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
}

void Register(const std::string& name, int threads, const std::shared_ptr<DurabilityRun>& run,
              void (*body)(benchmark::State&, DurabilityRun*)) {
  benchmark::RegisterBenchmark(name.c_str(),
                               [run, body](benchmark::State& state) { body(state, run.get()); })
      ->Unit(benchmark::kMicrosecond)
      ->Threads(threads)
      ->UseRealTime()
      ->MeasureProcessCPUTime();
}

}  // namespace

void RegisterDurabilityBenchmarks(BenchEnvironment* environment) {
  auto engine_periodic = std::make_shared<DurabilityRun>(environment, Durability::kPeriodic);
  auto raw_periodic = std::make_shared<DurabilityRun>(environment, Durability::kPeriodic);
  auto engine_batch = std::make_shared<DurabilityRun>(environment, Durability::kBatch);
  auto raw_batch = std::make_shared<DurabilityRun>(environment, Durability::kBatch);
  // Engine and raw side by side for each thread count: fsync latency drifts over a run.
  for (int threads : {1, 4}) {
    Register("BM_EngineInsertPeriodic", threads, engine_periodic, EngineInsert);
    Register("BM_RawInsertPeriodic", threads, raw_periodic, RawInsert);
    Register("BM_EngineInsertBatch", threads, engine_batch, EngineInsert);
    Register("BM_RawInsertBatch", threads, raw_batch, RawInsert);
  }
}

}  // namespace bench
