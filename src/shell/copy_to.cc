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

}  // namespace

common::Result<CopyStats> RunCopyTo(cql::Session& session, const CopyCommand& command,
                                    const CopyIo& io) {
  Clock::time_point start = Clock::now();
  const CopyOptions& options = command.options;
  std::string table = command.keyspace + "." + command.table;
  std::string query =
      fmt::format("SELECT {} FROM {}",
                  command.columns.empty() ? std::string("*")
                                          : fmt::format("{}", fmt::join(command.columns, ", ")),
                  table);
  cql::QueryOptions query_options;
  query_options.consistency = io.consistency;
  query_options.page_size = options.page_size;
  ASSIGN_OR_RETURN(cql::ResultSet page, session.Execute(query, query_options));

  const bool to_stdout = command.file.empty();
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(nullptr, &std::fclose);
  int files = 0;
  auto open_next = [&]() -> common::Status {
    std::string name = command.file;
    if (options.max_output_size > 0 && files > 0) name += fmt::format(".{}", files);
    errno = 0;
    file.reset(std::fopen(name.c_str(), "w"));
    if (!file) {
      int error = errno != 0 ? errno : EIO;
      return common::Status::IOError(fmt::format("Can't open '{}' for writing: [Errno {}] {}: '{}'",
                                                 name, error, std::strerror(error), name));
    }
    ++files;
    return common::Status::Ok();
  };
  std::FILE* out = io.out;
  if (!to_stdout) {
    RETURN_IF_ERROR(open_next());
    out = file.get();
  }
  std::vector<std::string> names;
  for (const cql::ColumnSpec& column : page.columns()) {
    names.push_back(cql::QuoteIdentifierIfNeeded(column.name));
  }
  if (!to_stdout) {
    std::fprintf(io.out, "Using %d child processes\n\nStarting copy of %s with columns [%s].\n", 1,
                 table.c_str(), fmt::format("{}", fmt::join(names, ", ")).c_str());
    std::fflush(io.out);
  }

  std::string buffer;
  std::vector<std::string> fields(names.size());
  std::vector<bool> quote_empty(names.size());
  auto write_header = [&]() {
    if (!options.header) return;
    std::vector<bool> none(names.size(), false);
    AppendCsvRecord(names, none, options.dialect, &buffer);
  };
  write_header();
  CopyStats stats;
  int64_t in_file = 0;
  Clock::time_point last_report = start;
  auto flush = [&]() {
    std::fwrite(buffer.data(), 1, buffer.size(), out);
    buffer.clear();
  };
  while (true) {
    for (size_t r = 0; r < page.row_count(); ++r) {
      if (options.max_rows >= 0 && stats.rows >= options.max_rows) break;
      if (!to_stdout && options.max_output_size > 0 && in_file >= options.max_output_size) {
        flush();
        RETURN_IF_ERROR(open_next());
        out = file.get();
        in_file = 0;
        write_header();
      }
      for (size_t c = 0; c < page.column_count(); ++c) {
        std::optional<std::string_view> value = page.Value(r, c);
        if (!value) {
          fields[c] = options.null_text;
          quote_empty[c] = false;
        } else {
          fields[c] = CopyFormatValue(page.columns()[c].type, *value, options);
          quote_empty[c] = true;  // an empty non-null value is written as "" (not null)
        }
      }
      AppendCsvRecord(fields, quote_empty, options.dialect, &buffer);
      ++stats.rows;
      ++in_file;
      if (buffer.size() > (1 << 20)) flush();
    }
    if (io.progress && SecondsSince(last_report) >= options.report_frequency) {
      last_report = Clock::now();
      double elapsed = SecondsSince(start);
      std::fprintf(io.out, "\rProcessed: %lld rows; Rate: %7.0f rows/s; Avg. rate: %7.0f rows/s",
                   static_cast<long long>(stats.rows),
                   elapsed > 0 ? static_cast<double>(stats.rows) / elapsed : 0.0,
                   elapsed > 0 ? static_cast<double>(stats.rows) / elapsed : 0.0);
      std::fflush(io.out);
    }
    bool limit_reached = options.max_rows >= 0 && stats.rows >= options.max_rows;
    if (limit_reached || !page.paging_state() ||
        page.paging_state() == query_options.paging_state) {
      break;
    }
    query_options.paging_state = page.paging_state();
    ASSIGN_OR_RETURN(page, session.Execute(query, query_options));
  }
  flush();
  if (!to_stdout) {
    if (std::fflush(out) != 0 || std::ferror(out)) {
      return common::Status::IOError(fmt::format("Error writing '{}': {}", command.file,
                                                 std::strerror(errno != 0 ? errno : EIO)));
    }
    file.reset();
  } else {
    std::fflush(out);
  }
  stats.seconds = SecondsSince(start);
  if (!to_stdout) {
    if (io.progress) {
      double rate = stats.seconds > 0 ? static_cast<double>(stats.rows) / stats.seconds : 0.0;
      std::fprintf(io.out, "\rProcessed: %lld rows; Rate: %7.0f rows/s; Avg. rate: %7.0f rows/s\n",
                   static_cast<long long>(stats.rows), rate, rate);
    }
    std::fprintf(io.out, "\n%lld rows exported to %d files in %s.\n",
                 static_cast<long long>(stats.rows), files,
                 DescribeInterval(stats.seconds).c_str());
    std::fflush(io.out);
  }
  return stats;
}

}  // namespace shell
