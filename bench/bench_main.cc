// cqld_bench's main: Google Benchmark's, plus the engine benchmarks' shared data
// (BenchEnvironment, removed at exit) and the engine/raw ratio table (RatioReporter).

#include <unistd.h>

#include <cstdio>

#include <benchmark/benchmark.h>

#include "bench/bench_environment.h"
#include "bench/engine_benchmarks.h"
#include "bench/ratio_reporter.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  auto root = bench::TempDirectory::Create("cqld_bench.");
  if (!root.ok()) {
    std::fprintf(stderr, "%s\n", root.status().ToString().c_str());
    return 1;
  }
  bench::BenchEnvironment environment(std::move(root).value());
  bench::RegisterSingleRowBenchmarks(&environment);
  bench::RegisterAvailabilityBenchmarks(&environment);
  bench::RegisterDurabilityBenchmarks(&environment);
  // Colour only on a terminal, as Google Benchmark's own reporter decides by default.
  bench::RatioReporter reporter(isatty(fileno(stdout)) != 0
                                    ? benchmark::ConsoleReporter::OO_ColorTabular
                                    : benchmark::ConsoleReporter::OO_Tabular);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  // The registered benchmarks point into `environment`: drop them first.
  benchmark::ClearRegisteredBenchmarks();
  benchmark::Shutdown();
  return 0;
}
