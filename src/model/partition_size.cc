#include "model/partition_size.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <cstdlib>

#include "cql/types/element_cursor.h"
#include "cql/types/type_depth.h"

namespace model {
namespace {

using common::Result;
using common::Status;
using cql::TypeKind;

// The bytes of a value of a native type: the fixed sizes of the native protocol
// (cql/types/element_cursor.h), and for the variable-length ones an assumption.
int64_t NativeSize(TypeKind kind, int64_t variable_size) {
  if (size_t fixed = cql::FixedValueSize(kind); fixed > 0) return static_cast<int64_t>(fixed);
  switch (kind) {
    case TypeKind::kDuration:
      return 12;  // months, days and nanoseconds as vints: up to 1 + 5 + 9, typically fewer
    case TypeKind::kInet:
      return 16;  // IPv6; an IPv4 address takes 4
    default:
      return variable_size;  // text, ascii, blob, varint, decimal, custom
  }
}

const double* FindPerTable(const std::map<std::string, double>& values, const Table& table) {
  auto it = values.find(table.QualifiedName());
  if (it == values.end()) it = values.find(table.name);
  return it == values.end() ? nullptr : &it->second;
}

bool IsTime(const cql::CqlType& type) {
  return type.kind() == TypeKind::kDate || type.kind() == TypeKind::kTimestamp;
}

std::string PrimaryKeyClause(const Table& table) {
  std::vector<std::string> partition;
  for (const Column* column : table.ColumnsOf(ColumnKind::kPartitionKey)) {
    partition.push_back(column->name);
  }
  std::string clause = fmt::format("PRIMARY KEY (({})", fmt::join(partition, ", "));
  for (const Column* column : table.ColumnsOf(ColumnKind::kClustering)) {
    clause += ", " + column->name;
  }
  return clause + ")";
}

// `table` with `column` added as the last partition key column.
Table WithPartitionColumn(const Table& table, Column column) {
  Table result = table;
  size_t position = table.ColumnsOf(ColumnKind::kPartitionKey).size();
  column.kind = ColumnKind::kPartitionKey;
  result.columns.insert(result.columns.begin() + static_cast<std::ptrdiff_t>(position), column);
  return result;
}

std::string FreeName(const Table& table, const std::string& name) {
  return table.Find(name) == nullptr ? name : "bucket_" + name;
}

// The seeds' time buckets: a month column in the partition key, then (when a month is still too
// big) the day itself, for a partition whose rows spread over `span` days of `time`.
void ProposeTimeBuckets(const SchemaModel& schema, const Table& table, const Column& time,
                        const PartitionEstimate& estimate, double span,
                        const SizeAssumptions& assumptions, std::vector<BucketingProposal>* out) {
  struct Granularity {
    const char* name;
    double days;
  };
  for (Granularity granularity : {Granularity{"month", 31}, Granularity{"day", 1}}) {
    if (span <= granularity.days) continue;
    BucketingProposal proposal;
    proposal.name = granularity.name;
    Table bucketed;
    if (granularity.days == 1 && time.type.kind() == TypeKind::kDate) {
      bucketed = table;
      std::erase_if(bucketed.columns, [&](const Column& c) { return c.name == time.name; });
      bucketed = WithPartitionColumn(bucketed, time);
      proposal.change =
          fmt::format("move `{}` into the partition key: one partition per day", time.name);
    } else {
      bool month = granularity.days > 1;
      std::string name = FreeName(table, granularity.name);
      cql::CqlType type = month ? cql::CqlType::Int() : cql::CqlType::Date();
      bucketed = WithPartitionColumn(table, Column{name, type, ColumnKind::kPartitionKey, false});
      proposal.change = fmt::format(
          "add `{} {}` to the partition key, {} of `{}` (the seeds' bucketing)", name, type.ToCql(),
          month ? "the year and month (e.g. 202612)" : "the day", time.name);
    }
    proposal.primary_key = PrimaryKeyClause(bucketed);
    proposal.estimate = EstimatePartition(
        schema, bucketed, std::ceil(estimate.rows * granularity.days / span), assumptions);
    proposal.estimate.rows_assumed = estimate.rows_assumed;
    out->push_back(std::move(proposal));
    if (!out->back().estimate.OverLimits()) return;
  }
}

// A shard bucket: an integer column in the partition key taking one of `count` values (a hash of
// a clustering column, computed by the application), the seeds' "sharding key".
void ProposeShardBucket(const SchemaModel& schema, const Table& table,
                        const PartitionEstimate& estimate, const SizeAssumptions& assumptions,
                        std::vector<BucketingProposal>* out) {
  double ratio = std::max(estimate.values / kMaxValuesPerPartition,
                          estimate.total_bytes / kMaxBytesPerPartition);
  std::string name = FreeName(table, "bucket");
  Table bucketed = WithPartitionColumn(
      table, Column{name, cql::CqlType::Int(), ColumnKind::kPartitionKey, false});
  for (double count = std::max(2.0, std::ceil(ratio)); count <= estimate.rows; count *= 2) {
    PartitionEstimate shard =
        EstimatePartition(schema, bucketed, std::ceil(estimate.rows / count), assumptions);
    shard.rows_assumed = estimate.rows_assumed;
    if (shard.OverLimits()) continue;
    out->push_back(BucketingProposal{
        "shard",
        fmt::format("add `{} int` to the partition key, one of {} values the application derives "
                    "from the row (e.g. a hash of a clustering column); reads query every bucket",
                    name, count),
        PrimaryKeyClause(bucketed), shard});
    return;
  }
}

std::vector<BucketingProposal> ProposeBucketing(const SchemaModel& schema, const Table& table,
                                                const PartitionEstimate& estimate,
                                                const SizeAssumptions& assumptions) {
  std::vector<BucketingProposal> proposals;
  const double* span = FindPerTable(assumptions.span_days, table);
  const Column* time = nullptr;
  for (const Column* column : table.ColumnsOf(ColumnKind::kClustering)) {
    if (IsTime(column->type) && time == nullptr) time = column;
  }
  if (time != nullptr && span != nullptr) {
    ProposeTimeBuckets(schema, table, *time, estimate, *span, assumptions, &proposals);
  }
  if (proposals.empty() || proposals.back().estimate.OverLimits()) {
    ProposeShardBucket(schema, table, estimate, assumptions, &proposals);
    if (time != nullptr && span == nullptr && !proposals.empty()) {
      proposals.back().change += fmt::format(
          "; give --span {}=DAYS (the days a partition spans) for a time bucket on `{}`",
          table.name, time->name);
    }
  }
  return proposals;
}

std::string Number(double value) {
  double rounded = std::round(value);
  std::string digits = fmt::format("{:.0f}", std::fabs(rounded));
  std::string grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return (rounded < 0 ? "-" : "") + grouped;
}

// Decimal units, as the seeds write 511,000 bytes as 0.51 MB.
std::string Megabytes(double bytes) {
  if (bytes >= 1e6) return fmt::format("{:.2f} MB", bytes / 1e6);
  return fmt::format("{:.2f} kB", bytes / 1e3);
}

std::string Verdict(const PartitionEstimate& e) {
  if (!e.OverLimits()) return "ok: within 100,000 values and 100 MB per partition";
  std::string verdict = "OVER the seeds' limits:";
  if (e.over_values) verdict += fmt::format(" {} values > 100,000", Number(e.values));
  if (e.over_values && e.over_bytes) verdict += ",";
  if (e.over_bytes) verdict += fmt::format(" {} > 100 MB", Megabytes(e.total_bytes));
  return verdict;
}

void FormatEstimate(const PartitionEstimate& e, const std::string& indent, std::string* out) {
  std::string note = e.rows_assumed ? " (assumed: give --rows TABLE=N)" : "";
  if (e.rows == 1 && !e.rows_assumed) note = " (no clustering columns)";
  *out += fmt::format("{}Nr = {} row{} per partition{}\n", indent, Number(e.rows),
                      e.rows == 1 ? "" : "s", note);
  *out += fmt::format("{}Nv = Nr * (Nc - Npk - Ns) + Ns = {} * ({} - {} - {}) + {} = {} values\n",
                      indent, Number(e.rows), e.columns, e.primary_key_columns, e.static_columns,
                      e.static_columns, Number(e.values));
  *out += fmt::format(
      "{}St = key + static + Nr * (regular + clustering) + 8 * Nv\n"
      "{}   = {} + {} + {} * {} + 8 * {} = {} bytes ({})\n",
      indent, indent, Number(e.partition_key_bytes), Number(e.static_bytes), Number(e.rows),
      Number(e.row_bytes), Number(e.values), Number(e.total_bytes), Megabytes(e.total_bytes));
  *out += indent + Verdict(e) + "\n";
}

void FormatScan(const PartitionMeasurement& m, std::string* out) {
  *out += fmt::format(
      "  measured: {} partitions{} ({} rows read)\n"
      "    Nr mean {:.1f}, max {}; Nv mean {:.1f}, max {}; St mean {}, max {} bytes ({})\n"
      "    {} partition(s) over the seeds' limits\n",
      Number(static_cast<double>(m.partitions)), m.truncated ? " (stopped at --max-rows)" : "",
      Number(static_cast<double>(m.rows_scanned)), m.mean_rows, Number(m.max_rows), m.mean_values,
      Number(m.max_values), Number(m.mean_bytes), Number(m.max_bytes), Megabytes(m.max_bytes),
      m.over_limits);
}

// The storage counts flushed data only: a table whose data is all in memtables shows nothing.
constexpr const char* kNothingFlushed =
    "    no flushed data: the server counts SST files only (flush first: `cqld admin flush`, "
    "`nodetool flush`)\n";

void FormatEstimates(const PartitionMeasurement& m, std::string* out) {
  *out += fmt::format(
      "  measured (system.size_estimates): {} partitions, St mean {} bytes ({}) as stored\n",
      Number(static_cast<double>(m.partitions)), Number(m.mean_bytes), Megabytes(m.mean_bytes));
  if (m.partitions == 0) {
    *out += kNothingFlushed;
  } else if (m.over_limits > 0) {
    *out += "    the mean partition is over 100 MB: at least 1 partition over the seeds' limits\n";
  } else {
    *out += "    largest partition not known from size_estimates (--source histograms or scan)\n";
  }
}

void FormatHistograms(const PartitionMeasurement& m, std::string* out) {
  *out += fmt::format("  measured (system_views.partition_histograms): {} partitions\n",
                      Number(static_cast<double>(m.partitions)));
  if (m.partitions == 0) {
    *out += kNothingFlushed;
    return;
  }
  const auto& rows = m.row_percentiles;
  const auto& bytes = m.byte_percentiles;
  *out += fmt::format(
      "    Nr mean {:.1f}, p50 {}, p95 {}, p99 {}, max {}; Nv max {} (every column set)\n"
      "    St mean {}, p50 {}, p95 {}, p99 {}, max {} bytes ({}) as stored\n"
      "    {}{} partition(s) over the seeds' limits\n",
      m.mean_rows, Number(rows.p50), Number(rows.p95), Number(rows.p99), Number(m.max_rows),
      Number(m.max_values), Number(m.mean_bytes), Number(bytes.p50), Number(bytes.p95),
      Number(bytes.p99), Number(m.max_bytes), Megabytes(m.max_bytes),
      m.over_limits > 0 ? "at least " : "", m.over_limits);
  if (m.sstables_without_statistics > 0) {
    *out += fmt::format("    {} SST file(s) without partition statistics not counted\n",
                        m.sstables_without_statistics);
  }
}

void FormatMeasurement(const SizeReport& report, std::string* out) {
  if (!report.measure_error.empty()) {
    *out += "  measured: failed: " + report.measure_error + "\n";
    return;
  }
  if (!report.measured.has_value()) return;
  switch (report.measured->source) {
    case MeasureSource::kScan:
      return FormatScan(*report.measured, out);
    case MeasureSource::kEstimates:
      return FormatEstimates(*report.measured, out);
    case MeasureSource::kHistograms:
      return FormatHistograms(*report.measured, out);
  }
}

void FormatProposals(const SizeReport& report, std::string* out) {
  if (report.proposals_for_measured_rows.has_value()) {
    *out += fmt::format("  bucketing for the largest measured partition (Nr = {}):\n",
                        Number(*report.proposals_for_measured_rows));
  }
  for (const BucketingProposal& proposal : report.proposals) {
    *out += fmt::format("  bucketing ({}): {}\n    {}\n", proposal.name, proposal.change,
                        proposal.primary_key);
    FormatEstimate(proposal.estimate, "    ", out);
  }
}

boost::json::value JsonNumber(double value) {
  if (value == std::round(value) && std::fabs(value) < 9e15) {
    return static_cast<int64_t>(value);
  }
  return value;
}

boost::json::object EstimateJson(const PartitionEstimate& e) {
  boost::json::object o;
  o["rows"] = JsonNumber(e.rows);
  o["rows_assumed"] = e.rows_assumed;
  o["columns"] = e.columns;
  o["primary_key_columns"] = e.primary_key_columns;
  o["static_columns"] = e.static_columns;
  o["values"] = JsonNumber(e.values);
  o["partition_key_bytes"] = JsonNumber(e.partition_key_bytes);
  o["static_bytes"] = JsonNumber(e.static_bytes);
  o["row_bytes"] = JsonNumber(e.row_bytes);
  o["metadata_bytes"] = JsonNumber(e.metadata_bytes);
  o["total_bytes"] = JsonNumber(e.total_bytes);
  o["over_values"] = e.over_values;
  o["over_bytes"] = e.over_bytes;
  return o;
}

boost::json::object MeasurementJson(const PartitionMeasurement& m) {
  boost::json::object o{{"partitions", m.partitions},
                        {"rows_scanned", m.rows_scanned},
                        {"truncated", m.truncated},
                        {"mean_rows", m.mean_rows},
                        {"max_rows", JsonNumber(m.max_rows)},
                        {"mean_values", m.mean_values},
                        {"max_values", JsonNumber(m.max_values)},
                        {"mean_bytes", m.mean_bytes},
                        {"max_bytes", JsonNumber(m.max_bytes)},
                        {"over_limits", m.over_limits}};
  o["source"] = std::string(MeasureSourceName(m.source));
  o["max_known"] = m.max_known;
  o["over_limits_at_least"] = m.over_limits_at_least;
  if (m.source == MeasureSource::kHistograms) {
    auto percentiles = [](const PartitionMeasurement::Percentiles& p) {
      return boost::json::object{
          {"p50", JsonNumber(p.p50)}, {"p95", JsonNumber(p.p95)}, {"p99", JsonNumber(p.p99)}};
    };
    o["row_percentiles"] = percentiles(m.row_percentiles);
    o["byte_percentiles"] = percentiles(m.byte_percentiles);
    o["sstables_without_statistics"] = m.sstables_without_statistics;
  }
  return o;
}

}  // namespace

namespace {

// SizeOf at nesting level `depth`. A schema file may define user types that contain each other
// (the model does not reject it, Cassandra would): past kMaxTypeDepth levels a value counts as
// variable-length instead of recursing forever.
int64_t SizeAt(const SchemaModel& schema, const Table& table, const std::string& column,
               const cql::CqlType& type, const SizeAssumptions& assumptions, int depth) {
  if (depth > cql::kMaxTypeDepth) return assumptions.variable_size;
  const auto& sizes = assumptions.value_sizes;
  if (!column.empty()) {
    if (auto it = sizes.find(table.name + "." + column); it != sizes.end()) return it->second;
    if (auto it = sizes.find(column); it != sizes.end()) return it->second;
  }
  int64_t elements = assumptions.collection_elements;
  switch (type.kind()) {
    case TypeKind::kList:
    case TypeKind::kSet:
      return elements * SizeAt(schema, table, "", type.element(), assumptions, depth + 1);
    case TypeKind::kMap:
      return elements * (SizeAt(schema, table, "", type.key(), assumptions, depth + 1) +
                         SizeAt(schema, table, "", type.value(), assumptions, depth + 1));
    case TypeKind::kVector:
      return type.dimension() * SizeAt(schema, table, "", type.element(), assumptions, depth + 1);
    case TypeKind::kTuple: {
      int64_t total = 0;
      for (const cql::CqlType& element : type.params()) {
        total += SizeAt(schema, table, "", element, assumptions, depth + 1);
      }
      return total;
    }
    case TypeKind::kUdt: {
      const UserType* udt =
          schema.FindType(type.keyspace().empty() ? table.keyspace : type.keyspace(), type.name());
      if (udt == nullptr) return assumptions.variable_size;
      int64_t total = 0;
      for (size_t i = 0; i < udt->field_types.size(); ++i) {
        total +=
            SizeAt(schema, table, udt->field_names[i], udt->field_types[i], assumptions, depth + 1);
      }
      return total;
    }
    default:
      break;
  }
  if (type.IsNative()) {
    if (auto it = sizes.find(std::string(type.NativeName())); it != sizes.end()) return it->second;
  }
  return NativeSize(type.kind(), assumptions.variable_size);
}

}  // namespace

int64_t SizeOf(const SchemaModel& schema, const Table& table, const std::string& column,
               const cql::CqlType& type, const SizeAssumptions& assumptions) {
  return SizeAt(schema, table, column, type, assumptions, 0);
}

PartitionEstimate EstimatePartition(const SchemaModel& schema, const Table& table, double rows,
                                    const SizeAssumptions& assumptions) {
  PartitionEstimate e;
  e.table = table.QualifiedName();
  e.comment = table.comment;
  e.rows = rows;
  e.columns = static_cast<int>(table.columns.size());
  for (const Column& column : table.columns) {
    double size = static_cast<double>(SizeOf(schema, table, column.name, column.type, assumptions));
    switch (column.kind) {
      case ColumnKind::kPartitionKey:
        ++e.primary_key_columns;
        e.partition_key_bytes += size;
        break;
      case ColumnKind::kClustering:
        ++e.primary_key_columns;
        e.row_bytes += size;
        break;
      case ColumnKind::kStatic:
        ++e.static_columns;
        e.static_bytes += size;
        break;
      case ColumnKind::kRegular:
        e.row_bytes += size;
        break;
    }
  }
  e.values = rows * (e.columns - e.primary_key_columns - e.static_columns) + e.static_columns;
  e.metadata_bytes = kMetadataBytesPerValue * e.values;
  e.total_bytes = e.partition_key_bytes + e.static_bytes + rows * e.row_bytes + e.metadata_bytes;
  e.over_values = e.values > kMaxValuesPerPartition;
  e.over_bytes = e.total_bytes > kMaxBytesPerPartition;
  return e;
}

std::vector<SizeReport> EstimateSchema(const SchemaModel& schema, const std::string& keyspace,
                                       const SizeAssumptions& assumptions) {
  std::vector<SizeReport> reports;
  for (const Table& table : schema.tables) {
    if (!keyspace.empty() && table.keyspace != keyspace) continue;
    double rows = 1;
    bool assumed = false;
    if (const double* given = FindPerTable(assumptions.rows, table)) {
      rows = *given;
    } else if (!table.ColumnsOf(ColumnKind::kClustering).empty()) {
      rows = assumptions.default_rows;
      assumed = true;
    }
    SizeReport report;
    report.estimate = EstimatePartition(schema, table, rows, assumptions);
    report.estimate.rows_assumed = assumed;
    if (report.estimate.OverLimits()) {
      report.proposals = ProposeBucketing(schema, table, report.estimate, assumptions);
    }
    reports.push_back(std::move(report));
  }
  return reports;
}

void ProposeFromMeasurements(const SchemaModel& schema, const SizeAssumptions& assumptions,
                             std::vector<SizeReport>* reports) {
  for (SizeReport& report : *reports) {
    if (!report.measured.has_value() || !report.proposals.empty()) continue;
    const PartitionMeasurement& m = *report.measured;
    if (m.over_limits == 0 || !m.max_known || m.max_rows < 1) continue;
    const Table* table = nullptr;
    for (const Table& candidate : schema.tables) {
      if (candidate.QualifiedName() == report.estimate.table) table = &candidate;
    }
    if (table == nullptr) continue;
    PartitionEstimate largest = EstimatePartition(schema, *table, m.max_rows, assumptions);
    // The data may hold bigger values than the sizes assumed: the measured figures are floors.
    largest.values = std::max(largest.values, m.max_values);
    largest.total_bytes = std::max(largest.total_bytes, m.max_bytes);
    largest.over_values = largest.values > kMaxValuesPerPartition;
    largest.over_bytes = largest.total_bytes > kMaxBytesPerPartition;
    if (!largest.OverLimits()) continue;
    report.proposals = ProposeBucketing(schema, *table, largest, assumptions);
    report.proposals_for_measured_rows = m.max_rows;
  }
}

std::string FormatSizeReports(const std::vector<SizeReport>& reports) {
  std::string out;
  for (const SizeReport& report : reports) {
    const PartitionEstimate& e = report.estimate;
    out += e.table + (e.comment.empty() ? "" : "  -- " + e.comment) + "\n";
    FormatEstimate(e, "  ", &out);
    // Proposals follow what they are for: the estimate, or the measured partitions.
    const bool for_measured = report.proposals_for_measured_rows.has_value();
    if (!for_measured) FormatProposals(report, &out);
    FormatMeasurement(report, &out);
    if (for_measured) FormatProposals(report, &out);
    out += "\n";
  }
  return out;
}

std::string SizeReportsJson(const std::vector<SizeReport>& reports) {
  boost::json::array array;
  for (const SizeReport& report : reports) {
    boost::json::object o;
    o["table"] = report.estimate.table;
    o["comment"] = report.estimate.comment;
    o["estimate"] = EstimateJson(report.estimate);
    boost::json::array proposals;
    for (const BucketingProposal& proposal : report.proposals) {
      boost::json::object p;
      p["bucketing"] = proposal.name;
      p["change"] = proposal.change;
      p["primary_key"] = proposal.primary_key;
      p["estimate"] = EstimateJson(proposal.estimate);
      proposals.push_back(std::move(p));
    }
    o["bucketing"] = std::move(proposals);
    if (report.measured.has_value()) o["measured"] = MeasurementJson(*report.measured);
    if (report.proposals_for_measured_rows.has_value()) {
      o["bucketing_for_measured_rows"] = JsonNumber(*report.proposals_for_measured_rows);
    }
    if (!report.measure_error.empty()) o["measure_error"] = report.measure_error;
    array.push_back(std::move(o));
  }
  return boost::json::serialize(array) + "\n";
}

Result<double> ParseRowCount(const std::string& text) {
  double product = 1;
  size_t start = 0;
  while (true) {
    size_t end = text.find_first_of("*x", start);
    std::string factor = text.substr(start, end == std::string::npos ? end : end - start);
    char* parse_end = nullptr;
    double value = factor.empty() ? -1 : std::strtod(factor.c_str(), &parse_end);
    if (factor.empty() || *parse_end != '\0' || !(value > 0)) {
      return Status::Invalid(fmt::format("invalid row count '{}': expected N or N*M", text));
    }
    product *= value;
    if (end == std::string::npos) return product;
    start = end + 1;
  }
}

}  // namespace model
