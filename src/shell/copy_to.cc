// COPY TO (copy_command.h): pages through the table and writes CSV.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>

#include "shell/copy_command.h"

namespace shell {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One COPY TO: pages through `SELECT cols FROM ks.table` and writes CSV to the file (a new
// one, `file.1`, `file.2`, ..., every MAXOUTPUTSIZE rows) or, without a file, to `io.out`.
class Exporter {
 public:
  Exporter(cql::Session& session, const CopyCommand& command, const CopyIo& io)
      : session_(session),
        command_(command),
        options_(command.options),
        io_(io),
        to_stdout_(command.file.empty()),
        out_(io.out) {}

  common::Result<CopyStats> Run();

 private:
  std::string SelectQuery() const;
  // Opens the next output file and makes it `out_`. Errors: IOError when it cannot be opened.
  common::Status OpenNextFile();
  // Takes the column names from the first page and sizes the record being built to match.
  void SetColumns(const cql::ResultSet& page);
  void PrintStart() const;
  // Appends the header record to the buffer when HEADER is set.
  void WriteHeader();
  // Writes the buffered CSV to `out_`.
  void FlushBuffer();
  // Flushes the buffer and continues in the next file, header first.
  common::Status StartNextFile();
  bool MaxRowsReached() const;
  // Appends the rows of `page` until MAXROWS, starting a new file every MAXOUTPUTSIZE rows.
  common::Status WritePage(const cql::ResultSet& page);
  // Appends row `r` of `page` as a CSV record.
  void AppendRecord(const cql::ResultSet& page, size_t r);
  // Refreshes the progress line when REPORTFREQUENCY seconds have passed since the last one.
  void PrintProgress();
  // Writes what is buffered and flushes `out_`, then closes the file. Errors: IOError when
  // writing to the file failed.
  common::Status FinishOutput();
  // cqlsh's last progress line and summary, printed when writing to a file.
  void PrintSummary() const;

  cql::Session& session_;
  const CopyCommand& command_;
  const CopyOptions& options_;
  CopyIo io_;
  const bool to_stdout_;
  std::string table_;  // ks.table, as the query names it
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_{nullptr, &std::fclose};
  std::FILE* out_;                   // the current file, or io_.out for STDOUT
  int files_ = 0;                    // files opened so far
  std::vector<std::string> names_;   // the columns, quoted when needed
  std::string buffer_;               // CSV not yet written to `out_`
  std::vector<std::string> fields_;  // of the record being appended, reused across rows
  std::vector<bool> quote_empty_;
  CopyStats stats_;
  int64_t in_file_ = 0;  // rows written to the current file
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_report_ = start_;
};

std::string Exporter::SelectQuery() const {
  return fmt::format("SELECT {} FROM {}",
                     command_.columns.empty()
                         ? std::string("*")
                         : fmt::format("{}", fmt::join(command_.columns, ", ")),
                     table_);
}

common::Status Exporter::OpenNextFile() {
  std::string name = command_.file;
  if (options_.max_output_size > 0 && files_ > 0) name += fmt::format(".{}", files_);
  errno = 0;
  file_.reset(std::fopen(name.c_str(), "w"));
  if (!file_) {
    int error = errno != 0 ? errno : EIO;
    return common::Status::IOError(fmt::format("Can't open '{}' for writing: [Errno {}] {}: '{}'",
                                               name, error, std::strerror(error), name));
  }
  ++files_;
  out_ = file_.get();
  return common::Status::Ok();
}

void Exporter::SetColumns(const cql::ResultSet& page) {
  for (const cql::ColumnSpec& column : page.columns()) {
    names_.push_back(cql::QuoteIdentifierIfNeeded(column.name));
  }
  fields_.resize(names_.size());
  quote_empty_.resize(names_.size());
}

void Exporter::PrintStart() const {
  std::fprintf(io_.out, "Using %d child processes\n\nStarting copy of %s with columns [%s].\n", 1,
               table_.c_str(), fmt::format("{}", fmt::join(names_, ", ")).c_str());
  std::fflush(io_.out);
}

void Exporter::WriteHeader() {
  if (!options_.header) return;
  std::vector<bool> none(names_.size(), false);
  AppendCsvRecord(names_, none, options_.dialect, &buffer_);
}

void Exporter::FlushBuffer() {
  std::fwrite(buffer_.data(), 1, buffer_.size(), out_);
  buffer_.clear();
}

common::Status Exporter::StartNextFile() {
  FlushBuffer();
  RETURN_IF_ERROR(OpenNextFile());
  in_file_ = 0;
  WriteHeader();
  return common::Status::Ok();
}

bool Exporter::MaxRowsReached() const {
  return options_.max_rows >= 0 && stats_.rows >= options_.max_rows;
}

common::Status Exporter::WritePage(const cql::ResultSet& page) {
  for (size_t r = 0; r < page.row_count(); ++r) {
    if (MaxRowsReached()) break;
    if (!to_stdout_ && options_.max_output_size > 0 && in_file_ >= options_.max_output_size) {
      RETURN_IF_ERROR(StartNextFile());
    }
    AppendRecord(page, r);
    ++stats_.rows;
    ++in_file_;
    if (buffer_.size() > (1 << 20)) FlushBuffer();
  }
  return common::Status::Ok();
}

void Exporter::AppendRecord(const cql::ResultSet& page, size_t r) {
  for (size_t c = 0; c < page.column_count(); ++c) {
    std::optional<std::string_view> value = page.Value(r, c);
    if (!value) {
      fields_[c] = options_.null_text;
      quote_empty_[c] = false;
    } else {
      fields_[c] = CopyFormatValue(page.columns()[c].type, *value, options_);
      quote_empty_[c] = true;  // an empty non-null value is written as "" (not null)
    }
  }
  AppendCsvRecord(fields_, quote_empty_, options_.dialect, &buffer_);
}

void Exporter::PrintProgress() {
  if (!io_.progress || SecondsSince(last_report_) < options_.report_frequency) return;
  last_report_ = Clock::now();
  double elapsed = SecondsSince(start_);
  double rate = elapsed > 0 ? static_cast<double>(stats_.rows) / elapsed : 0.0;
  std::fprintf(io_.out, "\rProcessed: %lld rows; Rate: %7.0f rows/s; Avg. rate: %7.0f rows/s",
               static_cast<long long>(stats_.rows), rate, rate);
  std::fflush(io_.out);
}

common::Status Exporter::FinishOutput() {
  FlushBuffer();
  if (to_stdout_) {
    std::fflush(out_);
    return common::Status::Ok();
  }
  if (std::fflush(out_) != 0 || std::ferror(out_)) {
    return common::Status::IOError(fmt::format("Error writing '{}': {}", command_.file,
                                               std::strerror(errno != 0 ? errno : EIO)));
  }
  file_.reset();
  return common::Status::Ok();
}

void Exporter::PrintSummary() const {
  if (io_.progress) {
    double rate = stats_.seconds > 0 ? static_cast<double>(stats_.rows) / stats_.seconds : 0.0;
    std::fprintf(io_.out, "\rProcessed: %lld rows; Rate: %7.0f rows/s; Avg. rate: %7.0f rows/s\n",
                 static_cast<long long>(stats_.rows), rate, rate);
  }
  std::fprintf(io_.out, "\n%lld rows exported to %d files in %s.\n",
               static_cast<long long>(stats_.rows), files_,
               DescribeInterval(stats_.seconds).c_str());
  std::fflush(io_.out);
}

common::Result<CopyStats> Exporter::Run() {
  table_ = command_.keyspace + "." + command_.table;
  std::string query = SelectQuery();
  cql::QueryOptions query_options;
  query_options.consistency = io_.consistency;
  query_options.page_size = options_.page_size;
  ASSIGN_OR_RETURN(cql::ResultSet page, session_.Execute(query, query_options));
  if (!to_stdout_) RETURN_IF_ERROR(OpenNextFile());
  SetColumns(page);
  if (!to_stdout_) PrintStart();
  WriteHeader();
  while (true) {
    RETURN_IF_ERROR(WritePage(page));
    PrintProgress();
    if (MaxRowsReached() || !page.paging_state() ||
        page.paging_state() == query_options.paging_state) {
      break;
    }
    query_options.paging_state = page.paging_state();
    ASSIGN_OR_RETURN(page, session_.Execute(query, query_options));
  }
  RETURN_IF_ERROR(FinishOutput());
  stats_.seconds = SecondsSince(start_);
  if (!to_stdout_) PrintSummary();
  return stats_;
}

}  // namespace

common::Result<CopyStats> RunCopyTo(cql::Session& session, const CopyCommand& command,
                                    const CopyIo& io) {
  Exporter exporter(session, command, io);
  return exporter.Run();
}

}  // namespace shell
