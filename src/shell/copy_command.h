// COPY, the shell's CSV import and export (cqlsh's COPY TO / COPY FROM):
//
//   COPY [ks.]table [(col, ...)] TO   'file.csv' | STDOUT [WITH option = value [AND ...]]
//   COPY [ks.]table [(col, ...)] FROM 'file.csv'          [WITH option = value [AND ...]]
//
// `ParseCopyCommand` reads the command and its options (cqlsh's names and defaults; unknown
// options are refused with cqlsh's "Unrecognized COPY FROM options: ..."). `RunCopyTo` pages
// through `SELECT cols FROM ks.table` and writes CSV; `RunCopyFrom` reads CSV and inserts it.
//
// Values: COPY TO writes each value as cqlsh prints it (text as is, timestamps as
// `2015-05-03 13:30:54.234000+0000`, booleans True/False, blobs 0x...), except that floats,
// doubles and decimals keep every digit, and collections, tuples and UDTs are written as CQL
// literals (`{'a': 1}`, `{street: '1 Main', city: null}`) so that COPY FROM reads them back
// exactly. Nulls are written as the NULL option's text ('' by default); an empty string as
// `""`. COPY FROM parses native values like cqlsh (cql::ParseValueText) and the others as CQL
// literals.
//
// COPY FROM design (fast, and never aborting on a bad row):
//   1. The calling thread reads the file and splits it into chunks of CHUNKSIZE records.
//   2. NUMPROCESSES worker threads take chunks, turn each record into bound values for the
//      prepared `INSERT INTO ks.table (cols) VALUES (?, ...)`, group the rows of the chunk by
//      partition key and send them as UNLOGGED batches of at most MAXBATCHSIZE rows of one
//      partition (partitions with fewer than MINBATCHSIZE rows are batched together).
//   3. A batch that fails is retried row by row; rows that still fail, and rows that do not
//      parse, are reported with their line number on the error stream and written to ERRFILE
//      (`import_<ks>_<table>.err` by default) as they were in the file. The load goes on
//      until MAXPARSEERRORS or MAXINSERTERRORS is exceeded.
//   4. At a terminal a progress line is refreshed; at the end cqlsh's summary is printed:
//      `N rows imported from 1 files in X seconds (S skipped).`
// The session must be thread-safe (the embedded one and RemoteSession are).
//
// Thread-safety: the functions may run concurrently on different commands.

#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "cql/session.h"
#include "cql/types/types.h"
#include "shell/csv.h"

namespace shell {

struct CopyOptions {
  CsvDialect dialect;
  bool header = false;
  std::string null_text;                  // NULL
  int32_t page_size = 1000;               // PAGESIZE (TO)
  int32_t max_batch_size = 20;            // MAXBATCHSIZE (FROM)
  int32_t min_batch_size = 10;            // MINBATCHSIZE (FROM)
  int32_t chunk_size = 5000;              // CHUNKSIZE (FROM)
  int32_t threads = 0;                    // NUMPROCESSES; 0: chosen from the number of cores
  int64_t max_rows = -1;                  // MAXROWS; -1: all
  int64_t skip_rows = 0;                  // SKIPROWS (FROM)
  std::vector<std::string> skip_columns;  // SKIPCOLS (FROM)
  int64_t max_parse_errors = -1;          // MAXPARSEERRORS; -1: no limit
  int64_t max_insert_errors = 1000;       // MAXINSERTERRORS; -1: no limit
  std::string error_file;                 // ERRFILE (FROM); empty: import_<ks>_<table>.err
  int32_t ttl = -1;                       // TTL (FROM)
  double report_frequency = 0.25;         // REPORTFREQUENCY, seconds between progress lines
  int32_t max_output_size = -1;           // MAXOUTPUTSIZE (TO): rows per file; -1: one file
  std::string bool_true = "True";         // BOOLSTYLE
  std::string bool_false = "False";
  int32_t float_precision = -1;   // FLOATPRECISION (TO); -1: every digit
  int32_t double_precision = -1;  // DOUBLEPRECISION (TO); -1: every digit
};

struct CopyCommand {
  bool from = false;     // COPY FROM, else COPY TO
  std::string keyspace;  // as it names the keyspace in CQL (quoted when needed)
  std::string table;
  std::vector<std::string> columns;  // empty: every column; each quoted when needed
  std::string file;                  // empty: STDOUT (COPY TO only)
  CopyOptions options;
};

// Parses a COPY statement. `session_keyspace` is used when the table is not qualified.
// Errors (kInvalid, printed as they are): "Improper COPY command.", "Unrecognized COPY FROM
// options: x, y", "Invalid value for COPY option X: v", "No keyspace specified and no current
// keyspace", "COPY FROM STDIN is not supported".
common::Result<CopyCommand> ParseCopyCommand(std::string_view statement,
                                             std::string_view session_keyspace);

struct CopyIo {
  std::FILE* out = nullptr;  // the summary (and the CSV for COPY TO STDOUT)
  std::FILE* err = nullptr;  // row errors
  bool progress = false;     // print a progress line (at a terminal)
  cql::Consistency consistency = cql::Consistency::kOne;
};

struct CopyStats {
  int64_t rows = 0;     // rows exported or imported
  int64_t skipped = 0;  // SKIPROWS
  int64_t failed = 0;   // rows that could not be parsed or inserted
  double seconds = 0;
};

// cqlsh's way to print a duration: "1.234 seconds", "2 minutes and 3.000 seconds".
std::string DescribeInterval(double seconds);

// COPY TO. Returns the statistics after printing the summary, or the error that stopped the
// export before any row was written (unknown table, file not writable).
common::Result<CopyStats> RunCopyTo(cql::Session& session, const CopyCommand& command,
                                    const CopyIo& io);

// COPY FROM. Returns the statistics after printing the summary; bad rows are reported and
// counted, not returned as errors. Errors: the table or a column does not exist, the file
// cannot be read, too many errors (after the summary of what was done).
common::Result<CopyStats> RunCopyFrom(cql::Session& session, const CopyCommand& command,
                                      const CopyIo& io);

// A CSV field for a value of `type` as COPY TO writes it. REQUIRES: `bytes` is a non-null
// value (nulls are written as the NULL option's text by the caller).
std::string CopyFormatValue(const cql::CqlType& type, std::string_view bytes,
                            const CopyOptions& options);

// The serialized value of `type` a CSV field holds, as COPY FROM reads it. Errors: kInvalid
// with the parser's message.
common::Result<common::Bytes> CopyParseValue(const cql::CqlType& type, std::string_view text,
                                             std::string_view column, const CopyOptions& options);

}  // namespace shell
