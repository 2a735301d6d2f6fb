#include "model/partition_measure.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "cql/types/value_codec.h"
#include "model/partition_size.h"

namespace model {
namespace {

// The running totals of one partition and of the whole scan.
class Tally {
 public:
  void Finish() {
    if (!open_) return;
    double bytes = bytes_ + kMetadataBytesPerValue * values_;
    ++result_.partitions;
    result_.mean_rows += rows_;
    result_.mean_values += values_;
    result_.mean_bytes += bytes;
    result_.max_rows = std::max(result_.max_rows, rows_);
    result_.max_values = std::max(result_.max_values, values_);
    result_.max_bytes = std::max(result_.max_bytes, bytes);
    if (values_ > kMaxValuesPerPartition || bytes > kMaxBytesPerPartition) ++result_.over_limits;
    open_ = false;
  }

  // Adds row `row` of `page`, whose columns have the kinds `kinds` (nullopt: not in the table).
  void Add(const cql::ResultSet& page, size_t row,
           const std::vector<std::optional<ColumnKind>>& kinds) {
    std::string key;
    double key_bytes = 0, static_bytes = 0, row_bytes = 0, statics = 0, values = 0;
    bool clustered = false;
    for (size_t c = 0; c < kinds.size(); ++c) {
      std::optional<std::string_view> value = page.Value(row, c);
      if (!kinds[c].has_value() || !value.has_value()) continue;
      double size = static_cast<double>(value->size());
      switch (*kinds[c]) {
        case ColumnKind::kPartitionKey:
          key += fmt::format("{}:{}", value->size(), *value);
          key_bytes += size;
          break;
        case ColumnKind::kClustering:
          clustered = true;
          row_bytes += size;
          break;
        case ColumnKind::kStatic:
          static_bytes += size;
          ++statics;
          break;
        case ColumnKind::kRegular:
          row_bytes += size;
          ++values;
          break;
      }
    }
    if (!open_ || key != key_) {
      Finish();
      open_ = true;
      key_ = key;
      rows_ = values_ = 0;
      bytes_ = key_bytes + static_bytes;
      values_ = statics;
    }
    bool has_clustering_columns = std::any_of(kinds.begin(), kinds.end(), [](const auto& kind) {
      return kind == ColumnKind::kClustering;
    });
    if (clustered || !has_clustering_columns) {
      rows_ += 1;
      values_ += values;
      bytes_ += row_bytes;
    }
    ++result_.rows_scanned;
  }

  PartitionMeasurement Result() {
    Finish();
    if (result_.partitions > 0) {
      double count = static_cast<double>(result_.partitions);
      result_.mean_rows /= count;
      result_.mean_values /= count;
      result_.mean_bytes /= count;
    }
    return result_;
  }

  PartitionMeasurement& result() { return result_; }

 private:
  PartitionMeasurement result_;
  bool open_ = false;
  std::string key_;
  double rows_ = 0, values_ = 0, bytes_ = 0;
};

std::string Quoted(const std::string& name) { return cql::QuoteIdentifierIfNeeded(name); }

// A text literal: quotes doubled.
std::string Literal(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += c;
  }
  return out + "'";
}

// The WHERE clause that selects `table`'s rows of a table keyed by keyspace and table names.
std::string WhereTable(const Table& table) {
  return fmt::format(" WHERE keyspace_name = {} AND table_name = {}", Literal(table.keyspace),
                     Literal(table.name));
}

// The columns of `page` by name.
std::map<std::string, size_t> ColumnIndex(const cql::ResultSet& page) {
  std::map<std::string, size_t> index;
  for (size_t c = 0; c < page.columns().size(); ++c) index[page.columns()[c].name] = c;
  return index;
}

// Column `name` of row `row` as a number (bigint or double); 0 when null or absent.
double NumberAt(const cql::ResultSet& page, const std::map<std::string, size_t>& index, size_t row,
                const std::string& name) {
  auto it = index.find(name);
  if (it == index.end()) return 0;
  std::optional<std::string_view> value = page.Value(row, it->second);
  if (!value.has_value()) return 0;
  if (page.columns()[it->second].type.kind() == cql::TypeKind::kDouble) {
    auto number = cql::DeserializeDouble(*value);
    return number.ok() ? *number : 0;
  }
  auto number = cql::DeserializeBigint(*value);
  return number.ok() ? static_cast<double>(*number) : 0;
}

common::Status NoRow(std::string_view source, const Table& table) {
  return common::Status::Invalid(
      fmt::format("{} has no row for {}.{}", source, table.keyspace, table.name));
}

// The seeds' Nv of a partition of `rows` rows of `table`, every column set.
double ValuesOf(const Table& table, double rows) {
  double per_row = 0, statics = 0;
  for (const Column& column : table.columns) {
    if (column.kind == ColumnKind::kRegular) ++per_row;
    if (column.kind == ColumnKind::kStatic) ++statics;
  }
  return rows * per_row + statics;
}

bool Over(double values, double bytes) {
  return values > kMaxValuesPerPartition || bytes > kMaxBytesPerPartition;
}

// A lower bound of the partitions over the limits, from the percentiles: the largest over means
// at least one, the 99th percentile at least 1% of them, and so on.
int64_t OverAtLeast(const Table& table, const PartitionMeasurement& m,
                    const std::map<std::string, double>& row) {
  int64_t at_least = Over(m.max_values, m.max_bytes) ? 1 : 0;
  for (auto [name, share] : {std::pair{"p99", 0.01}, std::pair{"p98", 0.02}, std::pair{"p95", 0.05},
                             std::pair{"p75", 0.25}, std::pair{"p50", 0.5}}) {
    const std::string at(name);
    if (Over(ValuesOf(table, row.at(at + "_rows")), row.at(at + "_bytes"))) {
      at_least = std::max<int64_t>(
          at_least,
          std::max<int64_t>(1, static_cast<int64_t>(share * static_cast<double>(m.partitions))));
    }
  }
  return at_least;
}

}  // namespace

common::Result<PartitionMeasurement> MeasureTable(cql::Session& session, const Table& table,
                                                  int64_t max_rows, int32_t page_size) {
  std::string query =
      fmt::format("SELECT * FROM {}.{}", Quoted(table.keyspace), Quoted(table.name));
  cql::QueryOptions options;
  options.page_size = page_size;
  Tally tally;
  while (true) {
    ASSIGN_OR_RETURN(cql::ResultSet page, session.Execute(query, options));
    std::vector<std::optional<ColumnKind>> kinds;
    for (const cql::ColumnSpec& spec : page.columns()) {
      const Column* column = table.Find(spec.name);
      kinds.push_back(column == nullptr ? std::nullopt : std::optional(column->kind));
    }
    for (size_t row = 0; row < page.row_count(); ++row) {
      if (tally.result().rows_scanned >= max_rows) {
        tally.result().truncated = true;
        return tally.Result();
      }
      tally.Add(page, row, kinds);
    }
    if (!page.paging_state().has_value()) return tally.Result();
    options.paging_state = page.paging_state();
  }
}

common::Result<MeasureSource> ParseMeasureSource(std::string_view name) {
  if (name == "scan") return MeasureSource::kScan;
  if (name == "estimates") return MeasureSource::kEstimates;
  if (name == "histograms") return MeasureSource::kHistograms;
  return common::Status::Invalid(
      fmt::format("unknown source '{}': expected scan, estimates or histograms", name));
}

std::string_view MeasureSourceName(MeasureSource source) {
  switch (source) {
    case MeasureSource::kScan:
      return "scan";
    case MeasureSource::kEstimates:
      return "estimates";
    case MeasureSource::kHistograms:
      return "histograms";
  }
  return "scan";
}

common::Result<PartitionMeasurement> ReadSizeEstimates(cql::Session& session, const Table& table) {
  ASSIGN_OR_RETURN(
      cql::ResultSet page,
      session.Execute("SELECT partitions_count, mean_partition_size FROM system.size_estimates" +
                          WhereTable(table),
                      cql::QueryOptions{}));
  if (page.row_count() == 0) return NoRow("system.size_estimates", table);
  const std::map<std::string, size_t> index = ColumnIndex(page);
  PartitionMeasurement m;
  m.source = MeasureSource::kEstimates;
  m.max_known = false;
  m.over_limits_at_least = true;
  double bytes = 0;
  for (size_t row = 0; row < page.row_count(); ++row) {
    const double count = NumberAt(page, index, row, "partitions_count");
    m.partitions += static_cast<int64_t>(count);
    bytes += count * NumberAt(page, index, row, "mean_partition_size");
  }
  if (m.partitions > 0) m.mean_bytes = bytes / static_cast<double>(m.partitions);
  // A mean over 100 MB needs at least one partition over it.
  if (m.mean_bytes > kMaxBytesPerPartition) m.over_limits = 1;
  return m;
}

common::Result<PartitionMeasurement> ReadPartitionHistograms(cql::Session& session,
                                                             const Table& table) {
  ASSIGN_OR_RETURN(
      cql::ResultSet page,
      session.Execute("SELECT * FROM system_views.partition_histograms" + WhereTable(table),
                      cql::QueryOptions{}));
  if (page.row_count() == 0) return NoRow("system_views.partition_histograms", table);
  const std::map<std::string, size_t> index = ColumnIndex(page);
  std::map<std::string, double> row;
  for (const auto& [name, column] : index) row[name] = NumberAt(page, index, 0, name);
  PartitionMeasurement m;
  m.source = MeasureSource::kHistograms;
  m.over_limits_at_least = true;
  m.partitions = static_cast<int64_t>(row["partitions"]);
  m.sstables_without_statistics = static_cast<int64_t>(row["sstables_without_statistics"]);
  m.mean_rows = row["mean_rows"];
  m.max_rows = row["max_rows"];
  m.mean_bytes = row["mean_bytes"];
  m.max_bytes = row["max_bytes"];
  m.mean_values = m.partitions > 0 ? ValuesOf(table, m.mean_rows) : 0;
  m.max_values = m.partitions > 0 ? ValuesOf(table, m.max_rows) : 0;
  m.row_percentiles = {row["p50_rows"], row["p95_rows"], row["p99_rows"]};
  m.byte_percentiles = {row["p50_bytes"], row["p95_bytes"], row["p99_bytes"]};
  if (m.partitions > 0) m.over_limits = OverAtLeast(table, m, row);
  return m;
}

void MeasureReports(cql::Session& session, const SchemaModel& schema, MeasureSource source,
                    int64_t max_rows, std::vector<SizeReport>* reports) {
  for (SizeReport& report : *reports) {
    const Table* table = nullptr;
    for (const Table& candidate : schema.tables) {
      if (candidate.QualifiedName() == report.estimate.table) table = &candidate;
    }
    if (table == nullptr) continue;
    common::Result<PartitionMeasurement> measured =
        source == MeasureSource::kScan        ? MeasureTable(session, *table, max_rows)
        : source == MeasureSource::kEstimates ? ReadSizeEstimates(session, *table)
                                              : ReadPartitionHistograms(session, *table);
    if (measured.ok()) {
      report.measured = *measured;
    } else {
      report.measure_error = measured.status().message();
    }
  }
}

}  // namespace model
