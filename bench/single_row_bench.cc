// Prepared single-row INSERT and SELECT by key on bench.kv (id bigint PRIMARY KEY, a text,
// b int) preloaded with 1M rows, beside raw RocksDB Put and Get of the same bytes
// (issue "Benchmark": per-operation CPU within 2x of raw RocksDB).

#include <atomic>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <rocksdb/db.h>

#include "bench/engine_benchmarks.h"
#include "common/clock.h"
#include "cql/types/value_codec.h"

namespace bench {

namespace {

using common::Bytes;

// Inputs are generated this many at a time, outside the timed region.
constexpr size_t kChunk = 1024;
// Ids of inserted rows start here (above the preloaded ones), one range per benchmark.
constexpr int64_t kEngineInsertIds = int64_t{1} << 40;
constexpr int64_t kRawInsertIds = int64_t{2} << 40;

// Ids of reads: uniform over the preloaded rows (cold: most reads miss RocksDB's 8 MiB block
// cache and load and decompress a block from the OS page cache), or over a fixed set of kHotIds
// of them (hot: their blocks stay cached, so the figures show CPU overhead alone).
constexpr int64_t kHotIds = 1000;

class IdPicker {
 public:
  IdPicker(int64_t rows, bool hot, int thread) : random_(42 + thread), all_(0, rows - 1) {
    if (!hot) return;
    std::mt19937_64 fixed(99);
    for (int64_t i = 0; i < kHotIds; ++i) hot_.push_back(all_(fixed));
  }
  int64_t Next() {
    if (hot_.empty()) return all_(random_);
    return hot_[random_() % hot_.size()];
  }

 private:
  std::mt19937_64 random_;
  std::uniform_int_distribution<int64_t> all_;
  std::vector<int64_t> hot_;
};

cql::QueryOptions ValuesOf(std::vector<Bytes> values) {
  cql::QueryOptions options;
  for (Bytes& value : values) options.values.push_back(cql::BoundValue::Of(std::move(value)));
  return options;
}

void EngineInsert(benchmark::State& state, BenchEnvironment* environment,
                  std::atomic<int64_t>* next_id) {
  Dataset* dataset = Unwrap(state, environment->KeyValue());
  if (dataset == nullptr) return;
  std::vector<cql::QueryOptions> chunk;
  size_t position = kChunk;
  for (auto _ : state) {
    if (position == kChunk) {
      state.PauseTiming();
      chunk.clear();
      int64_t first = next_id->fetch_add(kChunk);
      for (size_t i = 0; i < kChunk; ++i) chunk.push_back(ValuesOf(KeyValueRow(first + i)));
      position = 0;
      state.ResumeTiming();
    }
    auto result = dataset->session->ExecutePrepared(*dataset->insert, chunk[position++]);
    if (!Check(state, result.status())) break;
  }
}

void RawInsert(benchmark::State& state, BenchEnvironment* environment,
               std::atomic<int64_t>* next_id) {
  Dataset* dataset = Unwrap(state, environment->KeyValue());
  if (dataset == nullptr) return;
  common::SystemClock clock;
  rocksdb::WriteOptions options;
  std::vector<EncodedRow> chunk;
  size_t position = kChunk;
  for (auto _ : state) {
    if (position == kChunk) {
      state.PauseTiming();
      chunk.clear();
      int64_t first = next_id->fetch_add(kChunk);
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
}

void EngineSelect(benchmark::State& state, BenchEnvironment* environment, bool hot) {
  Dataset* dataset = Unwrap(state, environment->KeyValue());
  if (dataset == nullptr) return;
  auto select = dataset->session->Prepare("SELECT * FROM bench.kv WHERE id = ?");
  if (!Check(state, select.status())) return;
  IdPicker ids(dataset->preloaded_rows, hot, state.thread_index());
  std::vector<cql::QueryOptions> chunk;
  size_t position = kChunk;
  for (auto _ : state) {
    if (position == kChunk) {
      state.PauseTiming();
      chunk.clear();
      for (size_t i = 0; i < kChunk; ++i) {
        chunk.push_back(ValuesOf({cql::SerializeBigint(ids.Next())}));
      }
      position = 0;
      state.ResumeTiming();
    }
    auto result = dataset->session->ExecutePrepared(**select, chunk[position++]);
    if (!Check(state, result.status())) break;
    if (result->row_count() != 1) {
      state.SkipWithError("SELECT by key did not return one row");
      break;
    }
  }
}

// `iterator` false: Get (what a key-value store does); true: a bounded iterator over the
// partition, as the engine's read path does (RowReader::ReadPartition).
void RawSelect(benchmark::State& state, BenchEnvironment* environment, bool hot, bool iterator) {
  Dataset* dataset = Unwrap(state, environment->KeyValue());
  if (dataset == nullptr) return;
  IdPicker ids(dataset->preloaded_rows, hot, state.thread_index());
  std::vector<EncodedRow> chunk;
  std::vector<Bytes> ends;
  size_t position = kChunk;
  std::string value;
  for (auto _ : state) {
    if (position == kChunk) {
      state.PauseTiming();
      chunk.clear();
      ends.clear();
      for (size_t i = 0; i < kChunk; ++i) {
        chunk.push_back(dataset->encoder->Encode(KeyValueRow(ids.Next()), 0));
        Bytes end = chunk.back().key;
        end.push_back('\xff');
        ends.push_back(std::move(end));
      }
      position = 0;
      state.ResumeTiming();
    }
    const Bytes& key = chunk[position].key;
    bool found = false;
    if (iterator) {
      rocksdb::ReadOptions options;
      rocksdb::Slice lower(key);
      rocksdb::Slice upper(ends[position]);
      options.total_order_seek = true;
      options.iterate_lower_bound = &lower;
      options.iterate_upper_bound = &upper;
      std::unique_ptr<rocksdb::Iterator> it(
          dataset->raw->db()->NewIterator(options, dataset->raw->table()));
      it->Seek(lower);
      if (it->Valid()) {
        value.assign(it->value().data(), it->value().size());
        found = true;
      }
    } else {
      // Pinned, as storage::Store reads: the value is not copied out of the block cache.
      rocksdb::PinnableSlice pinned;
      found =
          dataset->raw->db()->Get(rocksdb::ReadOptions(), dataset->raw->table(), key, &pinned).ok();
      benchmark::DoNotOptimize(pinned.data());
    }
    ++position;
    if (!found) {
      state.SkipWithError("raw read did not find the row");
      break;
    }
    benchmark::DoNotOptimize(value);
  }
}

}  // namespace

void RegisterSingleRowBenchmarks(BenchEnvironment* environment) {
  // Id counters, owned by the registered lambdas.
  auto engine_ids = std::make_shared<std::atomic<int64_t>>(kEngineInsertIds);
  auto raw_ids = std::make_shared<std::atomic<int64_t>>(kRawInsertIds);
  benchmark::RegisterBenchmark("BM_EngineInsert",
                               [environment, engine_ids](benchmark::State& state) {
                                 EngineInsert(state, environment, engine_ids.get());
                               })
      ->UseRealTime()
      ->MeasureProcessCPUTime();
  benchmark::RegisterBenchmark("BM_RawInsert",
                               [environment, raw_ids](benchmark::State& state) {
                                 RawInsert(state, environment, raw_ids.get());
                               })
      ->UseRealTime()
      ->MeasureProcessCPUTime();
  for (bool hot : {false, true}) {
    std::string suffix = hot ? "Hot" : "";
    benchmark::RegisterBenchmark(
        ("BM_EngineSelect" + suffix).c_str(),
        [environment, hot](benchmark::State& state) { EngineSelect(state, environment, hot); })
        ->UseRealTime()
        ->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark(("BM_RawSelect" + suffix).c_str(),
                                 [environment, hot](benchmark::State& state) {
                                   RawSelect(state, environment, hot, /*iterator=*/false);
                                 })
        ->UseRealTime()
        ->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark(("BM_RawSeekSelect" + suffix).c_str(),
                                 [environment, hot](benchmark::State& state) {
                                   RawSelect(state, environment, hot, /*iterator=*/true);
                                 })
        ->UseRealTime()
        ->MeasureProcessCPUTime();
  }
}

}  // namespace bench
