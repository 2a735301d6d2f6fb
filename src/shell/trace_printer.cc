#include "shell/trace_printer.h"

#include <chrono>
#include <ctime>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "cql/types/value_codec.h"
#include "cql/types/value_format.h"
#include "shell/result_printer.h"

namespace shell {
namespace {

using common::Result;
using common::Status;

// The session row a trace needs: what cqlsh's first and last rows show.
struct TraceSession {
  std::string request;
  int64_t started_at_micros = 0;
  std::optional<int64_t> duration_micros;
  std::string coordinator;
  std::string client;
};

std::string Inet(const cql::ResultSet& rows, size_t row, size_t column) {
  std::optional<std::string_view> value = rows.Value(row, column);
  return value ? cql::FormatValue(cql::CqlType::Inet(), *value) : std::string();
}

// The session's row, or nullopt while it is not there.
Result<std::optional<TraceSession>> ReadSession(cql::Session& session, const common::Uuid& id) {
  ASSIGN_OR_RETURN(cql::ResultSet rows,
                   session.Execute(fmt::format("SELECT request, started_at, duration, "
                                               "coordinator, client FROM system_traces.sessions "
                                               "WHERE session_id = {}",
                                               id.ToString())));
  if (rows.row_count() == 0) return std::optional<TraceSession>();
  TraceSession trace;
  if (!rows.IsNull(0, 0)) {
    ASSIGN_OR_RETURN(trace.request, rows.GetText(0, 0));
  }
  if (!rows.IsNull(0, 1)) {
    ASSIGN_OR_RETURN(int64_t millis, rows.GetInteger(0, 1));
    trace.started_at_micros = millis * 1000;
  }
  if (!rows.IsNull(0, 2)) {
    ASSIGN_OR_RETURN(trace.duration_micros, rows.GetInteger(0, 2));
  }
  trace.coordinator = Inet(rows, 0, 3);
  trace.client = Inet(rows, 0, 4);
  return std::optional<TraceSession>(std::move(trace));
}

// One row per event: "activity [thread]", its time, source, elapsed microseconds, client.
Result<std::vector<std::vector<std::string>>> ReadEvents(cql::Session& session,
                                                         const common::Uuid& id,
                                                         const std::string& client) {
  ASSIGN_OR_RETURN(cql::ResultSet rows,
                   session.Execute(fmt::format("SELECT activity, event_id, source, "
                                               "source_elapsed, thread FROM system_traces.events "
                                               "WHERE session_id = {}",
                                               id.ToString())));
  std::vector<std::vector<std::string>> events;
  for (size_t row = 0; row < rows.row_count(); ++row) {
    std::string activity = rows.IsNull(row, 0) ? "" : rows.GetText(row, 0).value_or("");
    std::string thread = rows.IsNull(row, 4) ? "" : rows.GetText(row, 4).value_or("");
    int64_t at = 0;
    if (std::optional<std::string_view> event_id = rows.Value(row, 1)) {
      Result<common::Uuid> uuid = common::Uuid::FromBytes(*event_id);
      if (uuid.ok()) at = uuid->UnixMicros();
    }
    int64_t elapsed = rows.IsNull(row, 3) ? 0 : rows.GetInteger(row, 3).value_or(0);
    events.push_back({fmt::format("{} [{}]", activity, thread), FormatTraceTime(at),
                      Inet(rows, row, 2), fmt::format("{}", elapsed), client});
  }
  return events;
}

}  // namespace

std::string FormatTraceTime(int64_t unix_micros) {
  int64_t seconds = unix_micros / 1000000;
  int64_t micros = unix_micros % 1000000;
  if (micros < 0) {
    micros += 1000000;
    --seconds;
  }
  const std::time_t time = static_cast<std::time_t>(seconds);
  std::tm utc{};
  gmtime_r(&time, &utc);
  std::string out = fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", utc.tm_year + 1900,
                                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec);
  if (micros != 0) out += fmt::format(".{:06}", micros);
  return out;
}

Result<std::string> FetchTrace(cql::Session& session, const common::Uuid& id, bool tty,
                               int max_wait_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(max_wait_ms);
  std::optional<TraceSession> trace;
  while (true) {
    ASSIGN_OR_RETURN(trace, ReadSession(session, id));
    if (trace && trace->duration_micros) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      return Status::NotFound(
          fmt::format("Statement trace did not complete within {} seconds; trace data may be "
                      "incomplete.",
                      max_wait_ms / 1000));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSIGN_OR_RETURN(std::vector<std::vector<std::string>> events,
                   ReadEvents(session, id, trace->client));
  FormattedRows table;
  table.names = {"activity", "timestamp", "source", "source_elapsed", "client"};
  table.rows.push_back({trace->request, FormatTraceTime(trace->started_at_micros),
                        trace->coordinator, "0", trace->client});
  for (std::vector<std::string>& event : events) table.rows.push_back(std::move(event));
  table.rows.push_back(
      {"Request complete", FormatTraceTime(trace->started_at_micros + *trace->duration_micros),
       trace->coordinator, fmt::format("{}", *trace->duration_micros), trace->client});
  return fmt::format("\nTracing session: {}\n\n{}\n", id.ToString(),
                     FormatTable(table, /*with_header=*/true, tty));
}

}  // namespace shell
