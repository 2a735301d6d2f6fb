#include "model/partition_measure.h"

#include <fmt/format.h>

#include <algorithm>

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

void MeasureReports(cql::Session& session, const SchemaModel& schema, int64_t max_rows,
                    std::vector<SizeReport>* reports) {
  for (SizeReport& report : *reports) {
    const Table* table = nullptr;
    for (const Table& candidate : schema.tables) {
      if (candidate.QualifiedName() == report.estimate.table) table = &candidate;
    }
    if (table == nullptr) continue;
    common::Result<PartitionMeasurement> measured = MeasureTable(session, *table, max_rows);
    if (measured.ok()) {
      report.measured = *measured;
    } else {
      report.measure_error = measured.status().message();
    }
  }
}

}  // namespace model
