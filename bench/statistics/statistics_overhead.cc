// The write cost of rocksdb::Statistics at the level storage::Store uses (kExceptDetailedTimers):
// RocksDB with the options Store gives a table family that matter here (universal compaction,
// 10-bit Bloom filters), 300,000 Puts of 100-byte values (and one Get per 1,000), with and
// without statistics, alternating which runs first, 12 rounds; throughput per second of process
// CPU time (background flushes and compactions included), so that other processes on the
// machine move it less than wall time. docs/benchmarks.md has the figures.
//
// Not part of the CMake build (it has its own main):
//   g++ -std=c++20 -O2 bench/statistics/statistics_overhead.cc -lrocksdb -o /tmp/overhead
//   /tmp/overhead
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/statistics.h>
#include <rocksdb/table.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

double Run(bool statistics, int n, int round) {
  std::string path = std::filesystem::temp_directory_path().string() + "/statistics_overhead_" +
                     std::to_string(round) + (statistics ? "s" : "n");
  std::filesystem::remove_all(path);
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compaction_style = rocksdb::kCompactionStyleUniversal;
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  if (statistics) {
    options.statistics = rocksdb::CreateDBStatistics();
    options.statistics->set_stats_level(rocksdb::StatsLevel::kExceptDetailedTimers);
  }
  rocksdb::DB* raw = nullptr;
  if (!rocksdb::DB::Open(options, path, &raw).ok()) return -1;
  std::unique_ptr<rocksdb::DB> db(raw);
  std::string value(100, 'v');
  char key[32];
  std::clock_t cpu_start = std::clock();
  for (int i = 0; i < n; ++i) {
    snprintf(key, sizeof key, "k%015d", (i * 7919) % n);
    if (!db->Put(rocksdb::WriteOptions(), key, value).ok()) return -1;
    if (i % 1000 == 0) {  // reads too: the block cache tickers
      std::string out;
      if (!db->Get(rocksdb::ReadOptions(), key, &out).ok()) return -1;
    }
  }
  db.reset();  // waits for background work: its CPU time is counted
  double seconds = double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  std::filesystem::remove_all(path);
  return n / seconds;
}

int main() {
  const int n = 300000;
  std::vector<double> ratios;
  double off = 0, on = 0;
  for (int round = 0; round < 12; ++round) {
    bool first_on = round % 2 == 1;
    double b = first_on ? Run(true, n, round) : 0;
    double a = Run(false, n, round);
    if (!first_on) b = Run(true, n, round);
    off += a;
    on += b;
    ratios.push_back((a - b) / a);
    printf("round %d: off %.0f/cpu-s on %.0f/cpu-s (%.1f%%)\n", round, a, b, 100.0 * (a - b) / a);
  }
  std::sort(ratios.begin(), ratios.end());
  printf("mean: off %.0f on %.0f overhead %.1f%%; median overhead %.1f%%\n", off / 12, on / 12,
         100.0 * (off - on) / off, 100.0 * (ratios[5] + ratios[6]) / 2);
}
