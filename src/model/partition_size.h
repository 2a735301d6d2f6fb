// The seeds' partition-size method (docs/cqlmodel.md, "size"): for a table, the number of values
// in a partition
//   Nv = Nr × (Nc − Npk − Ns) + Ns
// and its size on disk
//   St = Σ sizeOf(partition key columns) + Σ sizeOf(static columns)
//        + Nr × (Σ sizeOf(regular columns) + Σ sizeOf(clustering columns)) + 8 × Nv
// (Nr rows per partition, Nc columns, Npk primary key columns, Ns static columns, 8 bytes of
// metadata per value), checked against the seeds' rules of thumb: at most 100,000 values and
// 100 MB per partition. A partition over either limit gets bucketing proposals with their
// resulting sizes, as the seeds split `available_rooms_by_hotel_date` with a month bucket.
//
// The formulas are the seeds' approximation of the uncompressed size of one replica of one
// partition; as in the seeds, a collection counts as one value.
//
// Thread-safety: pure functions over plain data.

#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "model/partition_measure.h"
#include "model/schema_model.h"

namespace model {

inline constexpr double kMaxValuesPerPartition = 100'000;
inline constexpr double kMaxBytesPerPartition = 100'000'000;  // 100 MB
inline constexpr double kMetadataBytesPerValue = 8;

// What the schema cannot say: rows per partition and the size of variable-length values. Keys of
// the maps are a table's name or `keyspace.table`; value sizes are looked up by `table.column`,
// then `column`, then the CQL type name (`text`).
struct SizeAssumptions {
  std::map<std::string, double> rows;          // Nr per table
  std::map<std::string, int64_t> value_sizes;  // bytes
  std::map<std::string, double> span_days;     // days a partition's time clustering column spans
  double default_rows = 100;        // Nr of a table with clustering columns not in `rows`
  int64_t variable_size = 16;       // text, ascii, blob, varint, decimal, custom types
  int64_t collection_elements = 4;  // elements of a list, set or map
};

struct PartitionEstimate {
  std::string table;  // keyspace.name
  std::string comment;
  double rows = 1;  // Nr
  bool rows_assumed = false;
  int columns = 0;              // Nc
  int primary_key_columns = 0;  // Npk
  int static_columns = 0;       // Ns
  double values = 0;            // Nv
  double partition_key_bytes = 0;
  double static_bytes = 0;
  double row_bytes = 0;  // Σ sizeOf(regular) + Σ sizeOf(clustering), one row
  double metadata_bytes = 0;
  double total_bytes = 0;  // St
  bool over_values = false;
  bool over_bytes = false;
  bool OverLimits() const { return over_values || over_bytes; }
};

// A way to split an oversized partition, with the estimate of the new partitions.
struct BucketingProposal {
  std::string name;         // "month", "day", "shard"
  std::string change;       // what to do, in a sentence
  std::string primary_key;  // the new PRIMARY KEY clause
  PartitionEstimate estimate;
};

struct SizeReport {
  PartitionEstimate estimate;
  std::vector<BucketingProposal> proposals;  // empty unless the estimate is over the limits
  // Set by MeasureReports (partition_measure.h) when a live server was asked.
  std::optional<PartitionMeasurement> measured;
  std::string measure_error;  // why the measurement failed, "" when it did not
  // Set by ProposeFromMeasurements: the proposals are for the largest measured partition (its
  // Nr), the estimate being within the limits but the data not.
  std::optional<double> proposals_for_measured_rows;
};

// The size in bytes of one value of `type` in `table`'s keyspace (user types resolved in
// `schema`) under `assumptions`; `column` (may be empty) selects per-column overrides.
int64_t SizeOf(const SchemaModel& schema, const Table& table, const std::string& column,
               const cql::CqlType& type, const SizeAssumptions& assumptions);

// The seeds' estimate for one partition of `table` with `rows` rows.
PartitionEstimate EstimatePartition(const SchemaModel& schema, const Table& table, double rows,
                                    const SizeAssumptions& assumptions);

// The estimate of every table and view of `schema` (of `keyspace` only when not empty), with
// bucketing proposals for those over the limits.
std::vector<SizeReport> EstimateSchema(const SchemaModel& schema, const std::string& keyspace,
                                       const SizeAssumptions& assumptions);

// For each report whose measured partitions are over the limits while its estimate is not (so
// without proposals), the bucketing proposals for the largest measured partition: the estimate
// with Nr = its rows, and at least its measured values and bytes. Needs the maximum rows (a scan
// or histograms); a report without them is left as it is.
void ProposeFromMeasurements(const SchemaModel& schema, const SizeAssumptions& assumptions,
                             std::vector<SizeReport>* reports);

// The reports as text (numbers spelled out as the seeds work them) or as a JSON array.
std::string FormatSizeReports(const std::vector<SizeReport>& reports);
std::string SizeReportsJson(const std::vector<SizeReport>& reports);

// Parses a row count: an integer or a product ("100*730", "100x730"). Invalid when malformed.
common::Result<double> ParseRowCount(const std::string& text);

}  // namespace model
