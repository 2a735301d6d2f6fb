// Measured partitions for `cqlmodel size --host` (docs/cqlmodel.md, "Measured on a live
// server"): the seeds' quantities — rows Nr, values Nv and bytes St per partition — counted on
// the data of a running server instead of assumed.
//
// The measurement reads the table with `SELECT *`, paged, through any `cql::Session` (the
// `cqlmodel` binary passes the driver's `client::RemoteSession`, so it works on cqld or any
// Cassandra). Rows of one partition arrive together, so partitions are cut where the
// partition key changes. For each partition:
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
#include <vector>

#include "common/result.h"
#include "cql/session.h"
#include "model/schema_model.h"

namespace model {

struct PartitionMeasurement {
  int64_t partitions = 0;
  int64_t rows_scanned = 0;
  bool truncated = false;  // stopped at max_rows
  double mean_rows = 0, max_rows = 0;
  double mean_values = 0, max_values = 0;
  double mean_bytes = 0, max_bytes = 0;
  int64_t over_limits = 0;  // partitions over 100,000 values or 100 MB
};

// Scans `table` through `session`, `page_size` rows a page, at most `max_rows` rows. Fails with
// the server's error (e.g. the table does not exist there).
common::Result<PartitionMeasurement> MeasureTable(cql::Session& session, const Table& table,
                                                  int64_t max_rows, int32_t page_size = 1000);

struct SizeReport;

// Measures the table of each report (`SizeReport::estimate.table`, "keyspace.name") of `schema`
// and stores the result, or the server's error, in the report.
void MeasureReports(cql::Session& session, const SchemaModel& schema, int64_t max_rows,
                    std::vector<SizeReport>* reports);

}  // namespace model
