// RatioReporter: the console reporter of cqld_bench, which also prints, after the run, the
// ratio of each engine benchmark to its raw RocksDB baseline measured in the same run
// (docs/benchmarks.md). A pair is `BM_Engine<Name>...` and `BM_Raw<Name>...` with the same
// suffix (arguments, thread count); both wall time and CPU time per operation are compared,
// using the median when the run has repetitions (--benchmark_repetitions).
//
// Thread-safety: used by the benchmark runner's thread only.

#pragma once

#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace bench {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  explicit RatioReporter(OutputOptions options) : ConsoleReporter(options) {}

  void ReportRuns(const std::vector<Run>& reports) override;
  // Prints the table of engine/raw ratios (nothing when no pair ran).
  void Finalize() override;

 private:
  struct Times {
    double real_ns = 0;  // per iteration
    double cpu_ns = 0;
  };
  std::vector<std::string> order_;
  std::map<std::string, Times> times_;
};

}  // namespace bench
