// BenchEnvironment: the data the engine benchmarks share (docs/benchmarks.md), built once per
// process, on first use, in a temporary directory that is removed when the environment is
// destroyed (main destroys it after the run).
//
// Every data set pairs an embedded engine `Database` with a raw RocksDB baseline (`RawStore`)
// holding the same table's entries. Preloaded sets are written through the engine's batch path
// (prepared INSERTs in UNLOGGED batches, not timed) with a fixed client timestamp, and the same
// rows, encoded by `RowEncoder` with that timestamp, are Put into the raw store; then both are
// fully compacted and a sample of the engine's stored values is compared byte for byte with the
// raw ones, so "the same bytes" is checked, not assumed. A mismatch fails the data set.
//
// Thread-safety: BenchEnvironment is thread-safe (data sets are built under a mutex); a Dataset
// is used concurrently only through its thread-safe members (Session, Database, RawStore).

#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/raw_store.h"
#include "bench/row_encoder.h"
#include "common/bytes.h"
#include "common/result.h"
#include "cql/session.h"
#include "engine/database.h"

namespace bench {

// A fresh directory under $TMPDIR (or /tmp), removed with its contents on destruction.
class TempDirectory {
 public:
  static common::Result<std::unique_ptr<TempDirectory>> Create(std::string_view prefix);
  explicit TempDirectory(std::string path) : path_(std::move(path)) {}
  ~TempDirectory();
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The tables the benchmarks use.
enum class BenchTable : uint8_t {
  // bench.kv (id bigint PRIMARY KEY, a text, b int).
  kKeyValue,
  // The seeds' hotel.available_rooms_by_hotel_date (hotel_id text, date date, room_number
  // smallint, is_available boolean, PRIMARY KEY ((hotel_id), date, room_number)).
  kAvailability,
};

// Row values (native-protocol serializations) in the order of the data set's INSERT markers.
// bench.kv: (id, a, b) with a = "value-" + 14 digits of id (20 bytes), b = id * 7 mod 2^31.
std::vector<common::Bytes> KeyValueRow(int64_t id);
// hotel.available_rooms_by_hotel_date: (hotel_id, date, room_number, is_available) with
// hotel_id = "H" + 5 digits of hotel, date = 2026-01-01 + day, room_number = 101 + room.
std::vector<common::Bytes> AvailabilityRow(int64_t hotel, int64_t day, int64_t room);
// The `date` value of day `day` counted from 2026-01-01 (days since the epoch + 2^31).
uint32_t AvailabilityDate(int64_t day);
inline constexpr int64_t kRoomsPerHotel = 100;
inline constexpr int64_t kDaysPerHotel = 365;

// One engine database and its raw RocksDB baseline, holding one table.
struct Dataset {
  std::string engine_path;
  std::unique_ptr<engine::Database> database;
  std::unique_ptr<cql::Session> session;  // REQUIRES: destroyed before `database`
  std::unique_ptr<RawStore> raw;
  std::unique_ptr<RowEncoder> encoder;
  // INSERT of every column, markers in the order of KeyValueRow / AvailabilityRow.
  std::shared_ptr<const cql::PreparedMetadata> insert;
  // Rows written by the preload (0 for an empty data set).
  int64_t preloaded_rows = 0;
};

class BenchEnvironment {
 public:
  static constexpr int64_t kKeyValueRows = 1'000'000;
  static constexpr int64_t kHotels = 8;

  // REQUIRES: `root` is an empty directory; the environment owns and removes it.
  explicit BenchEnvironment(std::unique_ptr<TempDirectory> root) : root_(std::move(root)) {}
  ~BenchEnvironment();

  // bench.kv with ids 0 .. kKeyValueRows-1 in both stores, compacted and verified. Built on
  // the first call (a few seconds); later calls return the same data set, or the same error.
  common::Result<Dataset*> KeyValue();
  // hotel.available_rooms_by_hotel_date with kHotels hotels x kDaysPerHotel days x
  // kRoomsPerHotel rooms (hotel h, day d, room r: AvailabilityRow(h, d, r)).
  common::Result<Dataset*> Availability();
  // A new, empty data set of `table` in its own directories, with the engine opened in
  // `durability` and the raw store syncing when that is kBatch. Owned by the environment.
  common::Result<Dataset*> NewDataset(BenchTable table,
                                      engine::DatabaseOptions::Durability durability);
  // Closes the engine of `dataset` (a preloaded data set of `table`) and opens it again, with
  // a row cache of `row_cache_bytes` (0: none). REQUIRES: no benchmark is using it.
  common::Status ReopenEngine(Dataset* dataset, BenchTable table, size_t row_cache_bytes);

 private:
  common::Result<std::unique_ptr<Dataset>> MakeDataset(
      BenchTable table, engine::DatabaseOptions::Durability durability);
  common::Result<std::unique_ptr<Dataset>> Preload(
      BenchTable table, int64_t rows,
      const std::function<std::vector<common::Bytes>(int64_t)>& row);
  std::string NewPath(std::string_view name);

  std::unique_ptr<TempDirectory> root_;  // destroyed last
  std::mutex mutex_;
  std::atomic<int> next_directory_{0};
  std::optional<common::Result<std::unique_ptr<Dataset>>> key_value_;     // GUARDED_BY(mutex_)
  std::optional<common::Result<std::unique_ptr<Dataset>>> availability_;  // GUARDED_BY(mutex_)
  std::vector<std::unique_ptr<Dataset>> datasets_;                        // GUARDED_BY(mutex_)
};

}  // namespace bench
