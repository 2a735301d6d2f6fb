// Measured partitions for `cqlmodel size --host` (docs/cqlmodel.md, "Measured on a live
// server"): the seeds' quantities — rows Nr, values Nv and bytes St per partition — counted on
// the data of a running server instead of assumed.
//
// Three sources (`MeasureSource`), each through any `cql::Session` (the `cqlmodel` binary passes
// the driver's `client::RemoteSession`): the scan below (cqld or any Cassandra); the storage's
// own estimates in system.size_estimates (cqld or any Cassandra: partition count and mean size
// only, of flushed data); and cqld's partition histograms in system_views.partition_histograms
// (percentiles and maxima of bytes and rows per partition, of flushed data). The two storage
// sources cost one small query a table but count bytes as the storage holds them (keys, values
// and per-row overhead, uncompressed), not the seeds' St.
//
// The scan reads the table with `SELECT *`, paged. Rows of one partition arrive together, so
// partitions are cut where the partition key changes. For each partition:
//   Nr = rows with a clustering key (a partition holding only static values has 0),
//   Nv = non-null regular values of its rows + non-null static values,
//   St = bytes of the partition key + of the static values + of every row's clustering and
//        regular values + 8 × Nv,
// the bytes being the values' native-protocol serialization. Unlike the estimate, null cells
// cost nothing, as in Cassandra's storage. The scan stops after `max_rows` rows (the result says
// so), to bound the time a large table takes.
//
// Thread-safety: `MeasureTable` uses the session from the calling thread only.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "cql/session.h"
#include "model/schema_model.h"

namespace model {

// Where `size --host` takes the measured partitions from (docs/cqlmodel.md, "--source").
enum class MeasureSource {
  kScan,        // a paged SELECT * of the table: exact, any server, costs a full read
  kEstimates,   // system.size_estimates: partition count and mean size; any Cassandra
  kHistograms,  // system_views.partition_histograms: cqld's partition-size histograms
};

// "scan", "estimates" or "histograms"; Invalid for another name.
common::Result<MeasureSource> ParseMeasureSource(std::string_view name);
std::string_view MeasureSourceName(MeasureSource source);

struct PartitionMeasurement {
  MeasureSource source = MeasureSource::kScan;
  int64_t partitions = 0;
  int64_t rows_scanned = 0;  // scan only
  bool truncated = false;    // scan only: stopped at max_rows
  // The seeds' quantities per partition. Estimates know only the partition count and the mean
  // bytes (`max_known` false, the rest 0); histograms know the rows and bytes, and Nv follows
  // from the rows as the estimate's formula computes it (every column set, an upper bound).
  bool max_known = true;
  double mean_rows = 0, max_rows = 0;
  double mean_values = 0, max_values = 0;
  double mean_bytes = 0, max_bytes = 0;
  // Histograms only: the 50th, 95th and 99th percentiles.
  struct Percentiles {
    double p50 = 0, p95 = 0, p99 = 0;
  };
  Percentiles row_percentiles, byte_percentiles;
  // Partitions over 100,000 values or 100 MB: exact for a scan; for the other sources a lower
  // bound (`over_limits_at_least`) read from the percentiles or the mean.
  int64_t over_limits = 0;
  bool over_limits_at_least = false;
  int64_t sstables_without_statistics = 0;  // histograms only
};

// Scans `table` through `session`, `page_size` rows a page, at most `max_rows` rows. Fails with
// the server's error (e.g. the table does not exist there).
common::Result<PartitionMeasurement> MeasureTable(cql::Session& session, const Table& table,
                                                  int64_t max_rows, int32_t page_size = 1000);

// `table`'s rows of system.size_estimates (summed over the ranges: partitions added, means
// weighted by them). Fails with the server's error, or Invalid when the server has no row for
// the table (not there, or its estimates not computed yet).
common::Result<PartitionMeasurement> ReadSizeEstimates(cql::Session& session, const Table& table);

// `table`'s row of system_views.partition_histograms (cqld). Fails with the server's error
// (Cassandra has no such table) or Invalid when the server has no row for the table.
common::Result<PartitionMeasurement> ReadPartitionHistograms(cql::Session& session,
                                                             const Table& table);

struct SizeReport;

// Measures the table of each report (`SizeReport::estimate.table`, "keyspace.name") of `schema`
// from `source` (`max_rows` bounds a scan) and stores the result, or the server's error, in the
// report.
void MeasureReports(cql::Session& session, const SchemaModel& schema, MeasureSource source,
                    int64_t max_rows, std::vector<SizeReport>* reports);

}  // namespace model
