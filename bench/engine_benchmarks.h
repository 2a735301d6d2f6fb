// The engine benchmarks (docs/benchmarks.md), each beside a raw RocksDB baseline of the same
// bytes measured in the same run, and what they share. Each `Register*` function registers
// its benchmarks with Google Benchmark; data is built on first use through `environment`.
//
//   single_row_bench.cc    prepared single-row INSERT and SELECT by key, 1M-row table
//   availability_bench.cc  the seeds' Q4 (7 nights of one hotel) and the bulk load
//   durability_bench.cc    single-row INSERT with Durability kPeriodic and kBatch
//
// Naming: `BM_Engine<Name>` pairs with `BM_Raw<Name>` (RatioReporter prints their ratio).
// Timing: wall time (`UseRealTime`) and process CPU time (`MeasureProcessCPUTime`, which
// includes RocksDB's background flushes and compactions) per operation. Inputs (bound values,
// encoded rows) are generated outside the timed region, in chunks.
//
// Thread-safety: benchmarks run concurrently in their threads; shared state is atomic or
// guarded (SharedDataset).

#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <benchmark/benchmark.h>

#include "bench/bench_environment.h"
#include "common/result.h"

namespace bench {

void RegisterSingleRowBenchmarks(BenchEnvironment* environment);
void RegisterAvailabilityBenchmarks(BenchEnvironment* environment);
void RegisterDurabilityBenchmarks(BenchEnvironment* environment);

// A data set made on first use by `factory` and shared by every thread and run of one
// benchmark. Thread-safe.
class SharedDataset {
 public:
  explicit SharedDataset(std::function<common::Result<Dataset*>()> factory)
      : factory_(std::move(factory)) {}

  // The data set, or the factory's error (remembered).
  common::Result<Dataset*> Get() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!made_) made_ = factory_();
    return *made_;
  }

 private:
  std::function<common::Result<Dataset*>()> factory_;
  std::mutex mutex_;
  std::optional<common::Result<Dataset*>> made_;  // GUARDED_BY(mutex_)
};

// Reports `status` as the benchmark's error and returns false when it is not OK.
inline bool Check(benchmark::State& state, const common::Status& status) {
  if (status.ok()) return true;
  state.SkipWithError(status.ToString().c_str());
  return false;
}

// The data set of a `Result<Dataset*>`, or nullptr after reporting the error.
inline Dataset* Unwrap(benchmark::State& state, const common::Result<Dataset*>& dataset) {
  if (!Check(state, dataset.status())) return nullptr;
  return *dataset;
}

}  // namespace bench
