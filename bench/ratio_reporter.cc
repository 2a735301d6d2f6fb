#include "bench/ratio_reporter.h"

#include <fmt/format.h>

namespace bench {

namespace {

constexpr std::string_view kEngine = "BM_Engine";
constexpr std::string_view kRaw = "BM_Raw";

}  // namespace

void RatioReporter::ReportRuns(const std::vector<Run>& reports) {
  ConsoleReporter::ReportRuns(reports);
  for (const Run& run : reports) {
    if (run.error_occurred) continue;
    // With --benchmark_repetitions the median (reported after the repetitions) wins.
    bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
    if (run.run_type != Run::RT_Iteration && !median) continue;
    double to_ns = 1e9 / benchmark::GetTimeUnitMultiplier(run.time_unit);
    std::string name = run.run_name.str();
    if (!times_.contains(name)) order_.push_back(name);
    times_[name] = Times{run.GetAdjustedRealTime() * to_ns, run.GetAdjustedCPUTime() * to_ns};
  }
}

void RatioReporter::Finalize() {
  std::string table;
  for (const std::string& name : order_) {
    if (!name.starts_with(kEngine)) continue;
    std::string raw_name = std::string(kRaw) + name.substr(kEngine.size());
    auto raw = times_.find(raw_name);
    if (raw == times_.end()) continue;
    const Times& engine = times_[name];
    table += fmt::format("{:<60} {:>12.0f} {:>12.0f} {:>8.2f}x {:>8.2f}x\n", name, engine.real_ns,
                         raw->second.real_ns, engine.real_ns / raw->second.real_ns,
                         engine.cpu_ns / raw->second.cpu_ns);
  }
  if (table.empty()) return;
  fmt::print(stdout, "\nEngine against raw RocksDB, same run (ns per operation):\n");
  fmt::print(stdout, "{:<60} {:>12} {:>12} {:>9} {:>9}\n", "benchmark", "engine", "raw", "time",
             "cpu");
  fmt::print(stdout, "{}", table);
  std::fflush(stdout);
}

}  // namespace bench
