#include "bench/bench_environment.h"

#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>
#include <utility>

#include <fmt/format.h>
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "cql/types/value_codec.h"

namespace bench {

namespace {

using common::Bytes;
using common::Result;
using common::Status;
using Durability = engine::DatabaseOptions::Durability;

// 2026-01-01 in days since 1970-01-01.
constexpr int64_t kFirstDay = 20454;
// The fixed client timestamp of preloaded rows (2026-09-20, in microseconds).
constexpr int64_t kPreloadTimestamp = 1'790'000'000'000'000;
// Rows per UNLOGGED batch in the preload.
constexpr int64_t kPreloadBatchRows = 1000;
constexpr int kPreloadThreads = 2;
// Rows compared byte for byte between engine and raw store after a preload.
constexpr int64_t kVerifiedRows = 64;

struct TableDefinition {
  std::vector<std::string> statements;  // keyspace and table
  std::string keyspace;
  std::string table;
  std::vector<std::string> columns;  // in the order of the row functions
};

TableDefinition Definition(BenchTable table) {
  if (table == BenchTable::kKeyValue) {
    return TableDefinition{{"CREATE KEYSPACE bench WITH replication = {'class': 'SimpleStrategy', "
                            "'replication_factor': 1}",
                            "CREATE TABLE bench.kv (id bigint PRIMARY KEY, a text, b int)"},
                           "bench",
                           "kv",
                           {"id", "a", "b"}};
  }
  return TableDefinition{
      {"CREATE KEYSPACE hotel WITH replication = {'class': 'SimpleStrategy', "
       "'replication_factor': 1}",
       "CREATE TABLE hotel.available_rooms_by_hotel_date (hotel_id text, date date, room_number "
       "smallint, is_available boolean, PRIMARY KEY ((hotel_id), date, room_number)) WITH "
       "comment = 'Q4. Find available rooms by hotel / date'"},
      "hotel",
      "available_rooms_by_hotel_date",
      {"hotel_id", "date", "room_number", "is_available"}};
}

// Opens the engine in `dataset->engine_path`, creating the table when `create`, and prepares
// the data set's INSERT; with a row cache of `row_cache_bytes` (0: none).
Status OpenEngine(const TableDefinition& definition, Durability durability, bool create,
                  Dataset* dataset,
                  size_t row_cache_bytes = engine::DatabaseOptions().row_cache_bytes) {
  engine::DatabaseOptions options;
  options.durability = durability;
  options.row_cache_bytes = row_cache_bytes;
  // The preloads write batches of kPreloadBatchRows rows across partitions, far past
  // cassandra.yaml's batch size thresholds (they would be refused, and warned about).
  options.batch_thresholds.warn_bytes = INT64_MAX;
  options.batch_thresholds.fail_bytes = INT64_MAX;
  ASSIGN_OR_RETURN(dataset->database, engine::Database::Open(dataset->engine_path, options));
  dataset->session = dataset->database->NewSession();
  if (create) {
    for (const std::string& statement : definition.statements) {
      RETURN_IF_ERROR(dataset->session->Execute(statement).status());
    }
  }
  ASSIGN_OR_RETURN(dataset->encoder, RowEncoder::ForTable(*dataset->database, definition.keyspace,
                                                          definition.table, definition.columns));
  std::string markers = "?";
  for (size_t i = 1; i < definition.columns.size(); ++i) markers += ", ?";
  ASSIGN_OR_RETURN(dataset->insert,
                   dataset->session->Prepare(fmt::format(
                       "INSERT INTO {}.{} ({}) VALUES ({})", definition.keyspace, definition.table,
                       fmt::join(definition.columns, ", "), markers)));
  return Status::Ok();
}

void CloseEngine(Dataset* dataset) {
  dataset->insert.reset();
  dataset->session.reset();
  dataset->database.reset();
}

// Writes rows [begin, end) through the engine in UNLOGGED batches.
Status EngineLoad(Dataset* dataset, int64_t begin, int64_t end,
                  const std::function<std::vector<Bytes>(int64_t)>& row) {
  for (int64_t first = begin; first < end; first += kPreloadBatchRows) {
    cql::BatchRequest batch;
    batch.type = cql::BatchType::kUnlogged;
    batch.timestamp = kPreloadTimestamp;
    for (int64_t i = first; i < std::min(end, first + kPreloadBatchRows); ++i) {
      cql::BatchEntry entry;
      entry.prepared = dataset->insert;
      for (Bytes& value : row(i)) entry.values.push_back(cql::BoundValue::Of(std::move(value)));
      batch.entries.push_back(std::move(entry));
    }
    RETURN_IF_ERROR(dataset->session->ExecuteBatch(batch).status());
  }
  return Status::Ok();
}

// Puts rows [begin, end), encoded with the preload timestamp, into the raw store.
Status RawLoad(const Dataset& dataset, int64_t begin, int64_t end,
               const std::function<std::vector<Bytes>(int64_t)>& row) {
  rocksdb::WriteOptions options;
  for (int64_t first = begin; first < end; first += kPreloadBatchRows) {
    rocksdb::WriteBatch batch;
    for (int64_t i = first; i < std::min(end, first + kPreloadBatchRows); ++i) {
      EncodedRow encoded = dataset.encoder->Encode(row(i), kPreloadTimestamp);
      rocksdb::Status s = batch.Put(dataset.raw->table(), encoded.key, encoded.value);
      if (!s.ok()) return Status::IOError(s.ToString());
    }
    rocksdb::Status s = dataset.raw->db()->Write(options, &batch);
    if (!s.ok()) return Status::IOError(s.ToString());
  }
  return Status::Ok();
}

// Runs `load(begin, end)` over [0, rows) split between kPreloadThreads threads.
Status InParallel(int64_t rows, const std::function<Status(int64_t, int64_t)>& load) {
  std::vector<Status> statuses(kPreloadThreads, Status::Ok());
  {
    std::vector<std::jthread> threads;
    int64_t per_thread =
        (rows / kPreloadThreads + kPreloadBatchRows - 1) / kPreloadBatchRows * kPreloadBatchRows;
    for (int t = 0; t < kPreloadThreads; ++t) {
      int64_t begin = std::min(rows, t * per_thread);
      int64_t end = t + 1 == kPreloadThreads ? rows : std::min(rows, begin + per_thread);
      threads.emplace_back([&, t, begin, end]() { statuses[t] = load(begin, end); });
    }
  }
  for (const Status& status : statuses) RETURN_IF_ERROR(status);
  return Status::Ok();
}

}  // namespace

std::vector<Bytes> KeyValueRow(int64_t id) {
  return {cql::SerializeBigint(id), fmt::format("value-{:014d}", id),
          cql::SerializeInt(static_cast<int32_t>((id * 7) % 2147483647))};
}

uint32_t AvailabilityDate(int64_t day) {
  return static_cast<uint32_t>((int64_t{1} << 31) + kFirstDay + day);
}

std::vector<Bytes> AvailabilityRow(int64_t hotel, int64_t day, int64_t room) {
  return {fmt::format("H{:05d}", hotel), cql::SerializeDate(AvailabilityDate(day)),
          cql::SerializeSmallint(static_cast<int16_t>(101 + room)),
          cql::SerializeBoolean((hotel + day + room) % 5 != 0)};
}

Result<std::unique_ptr<TempDirectory>> TempDirectory::Create(std::string_view prefix) {
  const char* base = getenv("TMPDIR");
  std::string pattern = fmt::format("{}/{}XXXXXX", base != nullptr ? base : "/tmp", prefix);
  if (mkdtemp(pattern.data()) == nullptr) {
    return Status::IOError("Cannot create a directory like " + pattern);
  }
  return std::make_unique<TempDirectory>(std::move(pattern));
}

TempDirectory::~TempDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

BenchEnvironment::~BenchEnvironment() {
  // Every database closes before root_ removes the files.
  key_value_.reset();
  availability_.reset();
  datasets_.clear();
}

std::string BenchEnvironment::NewPath(std::string_view name) {
  return fmt::format("{}/{}{}", root_->path(), name, next_directory_.fetch_add(1));
}

Result<Dataset*> BenchEnvironment::KeyValue() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!key_value_) key_value_ = Preload(BenchTable::kKeyValue, kKeyValueRows, KeyValueRow);
  if (!key_value_->ok()) return key_value_->status();
  return key_value_->value().get();
}

Result<Dataset*> BenchEnvironment::Availability() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!availability_) {
    // Row i: hotel, then day, then room, so each batch of the preload is one partition.
    availability_ =
        Preload(BenchTable::kAvailability, kHotels * kDaysPerHotel * kRoomsPerHotel, [](int64_t i) {
          return AvailabilityRow(i / (kDaysPerHotel * kRoomsPerHotel),
                                 i / kRoomsPerHotel % kDaysPerHotel, i % kRoomsPerHotel);
        });
  }
  if (!availability_->ok()) return availability_->status();
  return availability_->value().get();
}

Result<Dataset*> BenchEnvironment::NewDataset(BenchTable table, Durability durability) {
  ASSIGN_OR_RETURN(std::unique_ptr<Dataset> dataset, MakeDataset(table, durability));
  std::lock_guard<std::mutex> lock(mutex_);
  datasets_.push_back(std::move(dataset));
  return datasets_.back().get();
}

Status BenchEnvironment::ReopenEngine(Dataset* dataset, BenchTable table, size_t row_cache_bytes) {
  CloseEngine(dataset);
  return OpenEngine(Definition(table), Durability::kPeriodic, /*create=*/false, dataset,
                    row_cache_bytes);
}

Result<std::unique_ptr<Dataset>> BenchEnvironment::MakeDataset(BenchTable table,
                                                               Durability durability) {
  auto dataset = std::make_unique<Dataset>();
  dataset->engine_path = NewPath("engine");
  RETURN_IF_ERROR(OpenEngine(Definition(table), durability, /*create=*/true, dataset.get()));
  ASSIGN_OR_RETURN(dataset->raw, RawStore::Open(NewPath("raw"), durability == Durability::kBatch));
  return dataset;
}

Result<std::unique_ptr<Dataset>> BenchEnvironment::Preload(
    BenchTable table, int64_t rows, const std::function<std::vector<Bytes>(int64_t)>& row) {
  TableDefinition definition = Definition(table);
  ASSIGN_OR_RETURN(std::unique_ptr<Dataset> dataset, MakeDataset(table, Durability::kPeriodic));
  dataset->preloaded_rows = rows;

  // The engine's batch path, in parallel.
  auto start = std::chrono::steady_clock::now();
  RETURN_IF_ERROR(InParallel(rows, [&](int64_t begin, int64_t end) {
    return EngineLoad(dataset.get(), begin, end, row);
  }));
  auto loaded = std::chrono::steady_clock::now();

  // Compact the engine's files (closed), read back a sample, reopen.
  std::string family = dataset->encoder->schema().storage_id;
  std::vector<Bytes> sample_keys;
  std::vector<Bytes> sample_values;
  for (int64_t k = 0; k < kVerifiedRows; ++k) {
    EncodedRow encoded = dataset->encoder->Encode(row(k * rows / kVerifiedRows), kPreloadTimestamp);
    sample_keys.push_back(std::move(encoded.key));
    sample_values.push_back(std::move(encoded.value));
  }
  CloseEngine(dataset.get());
  ASSIGN_OR_RETURN(std::vector<std::optional<Bytes>> stored,
                   RawStore::CompactDirectory(dataset->engine_path, family, sample_keys));
  for (size_t i = 0; i < stored.size(); ++i) {
    if (!stored[i] || *stored[i] != sample_values[i]) {
      return Status::Internal(fmt::format(
          "The raw baseline's bytes differ from the engine's for key {}: engine {}, raw {}",
          common::ToHex(sample_keys[i]), stored[i] ? common::ToHex(*stored[i]) : "(none)",
          common::ToHex(sample_values[i])));
    }
  }
  RETURN_IF_ERROR(OpenEngine(definition, Durability::kPeriodic, /*create=*/false, dataset.get()));

  auto compacted = std::chrono::steady_clock::now();
  RETURN_IF_ERROR(InParallel(
      rows, [&](int64_t begin, int64_t end) { return RawLoad(*dataset, begin, end, row); }));
  auto raw_loaded = std::chrono::steady_clock::now();
  RETURN_IF_ERROR(dataset->raw->CompactAll());
  auto done = std::chrono::steady_clock::now();
  auto seconds = [](auto from, auto to) {
    return std::chrono::duration<double>(to - from).count();
  };
  // Not a benchmark (setup, one sample, other work may run meanwhile); printed for context.
  fmt::print(
      stderr,
      "preloaded {}.{}: {} rows; engine {:.2f} s ({:.0f} rows/s, {} threads, batches of "
      "{}), engine compaction {:.2f} s; raw {:.2f} s ({} threads), raw compaction {:.2f} s\n",
      definition.keyspace, definition.table, rows, seconds(start, loaded),
      static_cast<double>(rows) / seconds(start, loaded), kPreloadThreads, kPreloadBatchRows,
      seconds(loaded, compacted), seconds(compacted, raw_loaded), kPreloadThreads,
      seconds(raw_loaded, done));
  return dataset;
}

}  // namespace bench
