// COPY FROM (copy_command.h): reads CSV and inserts it with prepared statements in unlogged
// batches grouped by partition, from several threads.
//
// Invariants:
//   1. The reading thread owns the file text; workers only read records it handed over in
//      chunks (moved into the queue), so no record is shared between threads.
//   2. Every record ends up counted exactly once: imported (`stats.rows`), skipped
//      (SKIPROWS), or failed (parse or insert error, reported and written to ERRFILE).
//   3. Reports and the error file are written under `report_mutex`.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "shell/copy_command.h"

namespace shell {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string Unquoted(const std::string& name) {
  if (name.size() < 2 || name.front() != '"') return name;
  std::string out;
  for (size_t i = 1; i + 1 < name.size(); ++i) {
    out += name[i];
    if (name[i] == '"' && name[i + 1] == '"') ++i;
  }
  return out;
}

struct Chunk {
  std::vector<CsvRecord> records;
};

// One parsed row ready to insert.
struct Row {
  std::vector<cql::BoundValue> values;
  std::string partition;  // the serialized partition key, to group rows
  size_t record = 0;      // index in the chunk
};

class Importer {
 public:
  Importer(cql::Session& session, const CopyCommand& command, const CopyIo& io)
      : session_(session), command_(command), options_(command.options), io_(io) {}

  common::Result<CopyStats> Run();

 private:
  common::Status Prepare();
  void Work();
  void ImportChunk(Chunk& chunk);
  void SendBatch(const std::vector<const Row*>& rows, const Chunk& chunk);
  // Reports `count` failed rows of `chunk` (the records at `indexes`).
  void ReportFailure(const Chunk& chunk, const std::vector<size_t>& indexes, std::string_view kind,
                     std::string_view message, bool parse_error);
  void PrintProgress(bool final);
  bool TooManyErrors() const;

  cql::Session& session_;
  const CopyCommand& command_;
  const CopyOptions& options_;
  CopyIo io_;
  std::string table_;
  std::vector<std::string> file_columns_;  // as in the file
  std::vector<size_t> field_of_value_;     // for each bound value, its field index
  std::shared_ptr<const cql::PreparedMetadata> insert_;
  std::vector<bool> is_partition_key_;  // per bound value

  std::mutex queue_mutex_;
  std::condition_variable queue_changed_;
  std::deque<Chunk> queue_;    // GUARDED_BY(queue_mutex_)
  bool feeding_done_ = false;  // GUARDED_BY(queue_mutex_)

  std::mutex report_mutex_;
  std::unique_ptr<std::ofstream> error_file_;  // GUARDED_BY(report_mutex_)
  std::atomic<int64_t> imported_{0};
  std::atomic<int64_t> parse_errors_{0};
  std::atomic<int64_t> insert_errors_{0};
  std::atomic<bool> aborted_{false};
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_report_ = start_;
};

bool Importer::TooManyErrors() const {
  return (options_.max_parse_errors >= 0 && parse_errors_ > options_.max_parse_errors) ||
         (options_.max_insert_errors >= 0 && insert_errors_ > options_.max_insert_errors);
}

common::Status Importer::Prepare() {
  table_ = command_.keyspace + "." + command_.table;
  file_columns_ = command_.columns;
  if (file_columns_.empty()) {
    ASSIGN_OR_RETURN(std::shared_ptr<const cql::PreparedMetadata> select,
                     session_.Prepare("SELECT * FROM " + table_));
    for (const cql::ColumnSpec& column : select->result_columns) {
      file_columns_.push_back(cql::QuoteIdentifierIfNeeded(column.name));
    }
  }
  std::vector<std::string> inserted;
  for (size_t i = 0; i < file_columns_.size(); ++i) {
    const std::string& column = file_columns_[i];
    bool skipped = std::any_of(
        options_.skip_columns.begin(), options_.skip_columns.end(),
        [&](const std::string& skip) { return skip == Unquoted(column) || skip == column; });
    if (skipped) continue;
    inserted.push_back(column);
    field_of_value_.push_back(i);
  }
  if (inserted.empty()) return common::Status::Invalid("No column specified");
  std::string markers;
  for (size_t i = 0; i < inserted.size(); ++i) markers += i == 0 ? "?" : ", ?";
  std::string query =
      fmt::format("INSERT INTO {} ({}) VALUES ({})", table_, fmt::join(inserted, ", "), markers);
  if (options_.ttl > 0) query += fmt::format(" USING TTL {}", options_.ttl);
  ASSIGN_OR_RETURN(insert_, session_.Prepare(query));
  is_partition_key_.assign(insert_->bind_variables.size(), false);
  for (uint16_t index : insert_->partition_key_indexes) {
    if (index < is_partition_key_.size()) is_partition_key_[index] = true;
  }
  return common::Status::Ok();
}

void Importer::ReportFailure(const Chunk& chunk, const std::vector<size_t>& indexes,
                             std::string_view kind, std::string_view message, bool parse_error) {
  std::lock_guard<std::mutex> lock(report_mutex_);
  (parse_error ? parse_errors_ : insert_errors_) += static_cast<int64_t>(indexes.size());
  std::string lines;
  for (size_t index : indexes) {
    lines += (lines.empty() ? "" : ", ") + std::to_string(chunk.records[index].line);
  }
  std::fprintf(io_.err, "Failed to import %zu rows: %.*s - %.*s (line%s %s),  given up %s\n",
               indexes.size(), static_cast<int>(kind.size()), kind.data(),
               static_cast<int>(message.size()), message.data(), indexes.size() > 1 ? "s" : "",
               lines.c_str(), parse_error ? "without retries" : "after 1 attempts");
  std::fflush(io_.err);
  if (!error_file_) {
    error_file_ = std::make_unique<std::ofstream>(options_.error_file, std::ios::trunc);
  }
  for (size_t index : indexes) *error_file_ << chunk.records[index].raw << '\n';
  error_file_->flush();
  if (TooManyErrors()) aborted_ = true;
}

void Importer::ImportChunk(Chunk& chunk) {
  const size_t value_count = field_of_value_.size();
  std::vector<Row> rows;
  rows.reserve(chunk.records.size());
  for (size_t r = 0; r < chunk.records.size(); ++r) {
    const CsvRecord& record = chunk.records[r];
    if (record.fields.size() != file_columns_.size()) {
      ReportFailure(chunk, {r}, "ParseError",
                    fmt::format("Invalid row length {} should be {}", record.fields.size(),
                                file_columns_.size()),
                    true);
      continue;
    }
    Row row;
    row.record = r;
    row.values.reserve(value_count);
    bool ok = true;
    for (size_t v = 0; v < value_count && ok; ++v) {
      const CsvField& field = record.fields[field_of_value_[v]];
      const cql::ColumnSpec& column = insert_->bind_variables[v];
      if (!field.quoted && field.text == options_.null_text) {
        if (is_partition_key_[v]) {
          ReportFailure(chunk, {r}, "ParseError",
                        fmt::format("Cannot insert null value for primary key column '{}'. If "
                                    "you want to insert empty strings, consider using the WITH "
                                    "NULL=<marker> option for COPY.",
                                    column.name),
                        true);
          ok = false;
          break;
        }
        row.values.push_back(cql::BoundValue::Null());
        continue;
      }
      common::Result<common::Bytes> value =
          CopyParseValue(column.type, field.text, column.name, options_);
      if (!value.ok()) {
        ReportFailure(chunk, {r}, "ParseError",
                      fmt::format("Failed to parse {} : {}", field.text, value.status().message()),
                      true);
        ok = false;
        break;
      }
      if (is_partition_key_[v]) {
        row.partition += std::to_string(value->size());
        row.partition += ':';
        row.partition += *value;
      }
      row.values.push_back(cql::BoundValue::Of(std::move(value).value()));
    }
    if (ok) rows.push_back(std::move(row));
  }
  // Group by partition, keeping the file order within each partition.
  std::unordered_map<std::string_view, std::vector<const Row*>> partitions;
  std::vector<std::string_view> order;
  for (const Row& row : rows) {
    auto [it, inserted] = partitions.try_emplace(row.partition);
    if (inserted) order.push_back(row.partition);
    it->second.push_back(&row);
  }
  const size_t max_batch = static_cast<size_t>(std::max(1, options_.max_batch_size));
  const size_t min_batch = static_cast<size_t>(std::max(1, options_.min_batch_size));
  std::vector<const Row*> mixed;
  for (std::string_view key : order) {
    const std::vector<const Row*>& group = partitions[key];
    if (group.size() < min_batch) {
      for (const Row* row : group) {
        mixed.push_back(row);
        if (mixed.size() == max_batch) {
          SendBatch(mixed, chunk);
          mixed.clear();
        }
      }
      continue;
    }
    for (size_t begin = 0; begin < group.size(); begin += max_batch) {
      size_t end = std::min(group.size(), begin + max_batch);
      SendBatch(std::vector<const Row*>(group.begin() + static_cast<std::ptrdiff_t>(begin),
                                        group.begin() + static_cast<std::ptrdiff_t>(end)),
                chunk);
    }
  }
  if (!mixed.empty()) SendBatch(mixed, chunk);
}

void Importer::SendBatch(const std::vector<const Row*>& rows, const Chunk& chunk) {
  if (aborted_) return;
  common::Status status = common::Status::Ok();
  if (rows.size() == 1) {
    cql::QueryOptions options;
    options.consistency = io_.consistency;
    options.values = rows[0]->values;
    status = session_.ExecutePrepared(*insert_, options).status();
  } else {
    cql::BatchRequest batch;
    batch.type = cql::BatchType::kUnlogged;
    batch.consistency = io_.consistency;
    batch.entries.reserve(rows.size());
    for (const Row* row : rows) {
      cql::BatchEntry entry;
      entry.prepared = insert_;
      entry.values = row->values;
      batch.entries.push_back(std::move(entry));
    }
    status = session_.ExecuteBatch(batch).status();
    if (!status.ok()) {
      // Find the rows that fail on their own; the others get in.
      for (const Row* row : rows) SendBatch({row}, chunk);
      return;
    }
  }
  if (status.ok()) {
    imported_ += static_cast<int64_t>(rows.size());
    return;
  }
  std::string kind = status.code() == common::StatusCode::kInvalid        ? "InvalidRequest"
                     : status.code() == common::StatusCode::kUnauthorized ? "Unauthorized"
                     : status.code() == common::StatusCode::kIOError      ? "ConnectionError"
                                                                          : "ServerError";
  ReportFailure(chunk, {rows[0]->record}, kind, status.message(), false);
}

void Importer::Work() {
  while (true) {
    Chunk chunk;
    {
      std::unique_lock<std::mutex> lock(queue_mutex_);
      queue_changed_.wait(lock, [&] { return !queue_.empty() || feeding_done_; });
      if (queue_.empty()) return;
      chunk = std::move(queue_.front());
      queue_.pop_front();
    }
    queue_changed_.notify_all();
    if (!aborted_) ImportChunk(chunk);
  }
}

void Importer::PrintProgress(bool final) {
  if (!io_.progress) return;
  if (!final && SecondsSince(last_report_) < options_.report_frequency) return;
  last_report_ = Clock::now();
  double elapsed = SecondsSince(start_);
  double rate = elapsed > 0 ? static_cast<double>(imported_.load()) / elapsed : 0.0;
  std::lock_guard<std::mutex> lock(report_mutex_);
  std::fprintf(io_.out, "\rProcessed: %lld rows; Rate: %7.0f rows/s; Avg. rate: %7.0f rows/s%s",
               static_cast<long long>(imported_.load()), rate, rate, final ? "\n" : "");
  std::fflush(io_.out);
}

common::Result<CopyStats> Importer::Run() {
  std::string text;
  {
    errno = 0;
    std::ifstream in(command_.file, std::ios::binary);
    if (!in) {
      int error = errno != 0 ? errno : ENOENT;
      return common::Status::IOError(fmt::format("Can't open '{}' for reading: [Errno {}] {}: '{}'",
                                                 command_.file, error, std::strerror(error),
                                                 command_.file));
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
  }
  RETURN_IF_ERROR(Prepare());
  int threads =
      options_.threads > 0
          ? options_.threads
          : static_cast<int>(std::clamp(std::thread::hardware_concurrency() * 2, 4u, 16u));
  std::fprintf(io_.out, "Using %d child processes\n\nStarting copy of %s with columns [%s].\n",
               threads, table_.c_str(), fmt::format("{}", fmt::join(file_columns_, ", ")).c_str());
  std::fflush(io_.out);
  start_ = last_report_ = Clock::now();

  std::vector<std::thread> workers;
  for (int i = 0; i < threads; ++i) workers.emplace_back([this] { Work(); });
  CsvReader reader(text, options_.dialect);
  CsvRecord record;
  int64_t skipped = 0;
  int64_t read = 0;
  bool header_pending = options_.header;
  const size_t max_queued = static_cast<size_t>(threads) * 2;
  Chunk chunk;
  auto push = [&]() {
    std::unique_lock<std::mutex> lock(queue_mutex_);
    while (queue_.size() >= max_queued) {
      queue_changed_.wait_for(lock, std::chrono::milliseconds(50));
      lock.unlock();
      PrintProgress(false);
      lock.lock();
    }
    queue_.push_back(std::move(chunk));
    chunk = Chunk();
    lock.unlock();
    queue_changed_.notify_all();
  };
  while (!aborted_ && reader.Next(&record)) {
    if (header_pending) {
      header_pending = false;
      continue;
    }
    if (skipped < options_.skip_rows) {
      ++skipped;
      continue;
    }
    if (options_.max_rows >= 0 && read >= options_.max_rows) break;
    ++read;
    chunk.records.push_back(std::move(record));
    record = CsvRecord();
    if (chunk.records.size() >= static_cast<size_t>(options_.chunk_size)) push();
  }
  if (!chunk.records.empty()) push();
  {
    std::unique_lock<std::mutex> lock(queue_mutex_);
    feeding_done_ = true;
  }
  queue_changed_.notify_all();
  for (std::thread& worker : workers) {
    while (true) {
      // Join with progress reports in between.
      {
        std::unique_lock<std::mutex> lock(queue_mutex_);
        if (queue_.empty()) break;
        queue_changed_.wait_for(lock, std::chrono::milliseconds(100));
      }
      PrintProgress(false);
    }
    worker.join();
  }
  PrintProgress(true);

  CopyStats stats;
  stats.rows = imported_;
  stats.skipped = skipped;
  stats.failed = parse_errors_ + insert_errors_;
  stats.seconds = SecondsSince(start_);
  if (stats.failed > 0) {
    std::fprintf(io_.err, "Failed to process %lld rows; failed rows written to %s\n",
                 static_cast<long long>(stats.failed), options_.error_file.c_str());
  }
  if (options_.max_parse_errors >= 0 && parse_errors_ > options_.max_parse_errors) {
    std::fprintf(io_.err, "Exceeded maximum number of parse errors %lld\n",
                 static_cast<long long>(options_.max_parse_errors));
  }
  if (options_.max_insert_errors >= 0 && insert_errors_ > options_.max_insert_errors) {
    std::fprintf(io_.err, "Exceeded maximum number of insert errors %lld\n",
                 static_cast<long long>(options_.max_insert_errors));
  }
  std::fflush(io_.err);
  std::fprintf(io_.out, "\n%lld rows imported from 1 files in %s (%lld skipped).\n",
               static_cast<long long>(stats.rows), DescribeInterval(stats.seconds).c_str(),
               static_cast<long long>(stats.skipped));
  std::fflush(io_.out);
  return stats;
}

}  // namespace

common::Result<CopyStats> RunCopyFrom(cql::Session& session, const CopyCommand& command,
                                      const CopyIo& io) {
  Importer importer(session, command, io);
  return importer.Run();
}

}  // namespace shell
