#include "server/server_metrics.h"

#include <fmt/format.h>

#include "common/bytes.h"
#include "server/memory_budget.h"

namespace server {
namespace {

using common::metrics::Registry;

struct ErrorCode {
  int32_t code;
  std::string_view name;
};

// The protocol's error codes (native_protocol_v5.spec §9) with their label names.
constexpr ErrorCode kErrorCodes[] = {
    {0x0000, "server_error"},      {0x000A, "protocol_error"},    {0x0100, "bad_credentials"},
    {0x1000, "unavailable"},       {0x1001, "overloaded"},        {0x1002, "is_bootstrapping"},
    {0x1003, "truncate_error"},    {0x1100, "write_timeout"},     {0x1200, "read_timeout"},
    {0x1300, "read_failure"},      {0x1400, "function_failure"},  {0x1500, "write_failure"},
    {0x1600, "cdc_write_failure"}, {0x1700, "cas_write_unknown"}, {0x2000, "syntax_error"},
    {0x2100, "unauthorized"},      {0x2200, "invalid"},           {0x2300, "config_error"},
    {0x2400, "already_exists"},    {0x2500, "unprepared"},
};

constexpr std::string_view kExecutedHelp =
    "Statement requests run: inline on the connection's io thread as read (durability batch, "
    "nothing else waiting), queued to the io threads, or queued to the worker pool (batch).";

}  // namespace

std::string_view ErrorCodeName(int32_t code) {
  for (const ErrorCode& known : kErrorCodes) {
    if (known.code == code) return known.name;
  }
  return "unknown";
}

NativeMetrics& NativeMetrics::Get() {
  static NativeMetrics metrics;  // references into the global registry, which outlives it
  return metrics;
}

NativeMetrics::NativeMetrics()
    : connections(
          Registry::Global().gauge("cqld_native_connections", "Native-protocol connections open.")),
      connections_accepted(Registry::Global().counter("cqld_native_connections_accepted_total",
                                                      "Native-protocol connections accepted.")),
      connections_refused(Registry::Global().counter(
          "cqld_native_connections_refused_total",
          "Connections refused because max_connections were open (answered Overloaded).")),
      handshake_timeouts(Registry::Global().counter(
          "cqld_native_connection_timeouts_total",
          "Connections closed by a timeout: no STARTUP (and TLS handshake) in time, or idle.",
          {{"reason", "handshake"}})),
      idle_timeouts(Registry::Global().counter(
          "cqld_native_connection_timeouts_total",
          "Connections closed by a timeout: no STARTUP (and TLS handshake) in time, or idle.",
          {{"reason", "idle"}})),
      bytes_received(Registry::Global().counter("cqld_native_bytes_received_total",
                                                "Bytes read from native-protocol clients.")),
      bytes_sent(Registry::Global().counter("cqld_native_bytes_sent_total",
                                            "Bytes written to native-protocol clients.")),
      requests_in_flight(Registry::Global().gauge(
          "cqld_native_requests_in_flight", "Statement requests dispatched and not answered.")),
      requests_inline(Registry::Global().counter("cqld_native_requests_executed_total",
                                                 kExecutedHelp, {{"where", "inline"}})),
      requests_on_io(Registry::Global().counter("cqld_native_requests_executed_total",
                                                kExecutedHelp, {{"where", "io"}})),
      requests_on_workers(Registry::Global().counter("cqld_native_requests_executed_total",
                                                     kExecutedHelp, {{"where", "workers"}})) {
  using protocol::Opcode;
  for (Opcode opcode :
       {Opcode::kStartup, Opcode::kOptions, Opcode::kQuery, Opcode::kPrepare, Opcode::kExecute,
        Opcode::kRegister, Opcode::kBatch, Opcode::kAuthResponse}) {
    requests_[static_cast<size_t>(opcode)] = &Registry::Global().counter(
        "cqld_native_requests_total", "Request envelopes decoded, by opcode.",
        {{"opcode", std::string(protocol::OpcodeName(opcode))}});
  }
}

void NativeMetrics::Request(protocol::Opcode opcode) {
  const size_t index = static_cast<size_t>(opcode);
  if (index < requests_.size() && requests_[index] != nullptr) requests_[index]->Increment();
}

void NativeMetrics::Error(std::string_view body) {
  if (body.size() < 4) return;
  const auto code = static_cast<int32_t>(common::LoadBigEndian32(body.data()));
  // A look-up under the registry's lock: errors are not the hot path.
  Registry::Global()
      .counter(
          "cqld_native_errors_total", "ERROR responses sent, by protocol error code.",
          {{"code", fmt::format("0x{:04X}", code)}, {"name", std::string(ErrorCodeName(code))}})
      .Increment();
}

common::metrics::CollectorHandle AddBudgetCollector(const MemoryBudget* budget) {
  return Registry::Global().AddCollector([budget](common::metrics::SampleWriter& writer) {
    writer.Gauge("cqld_native_request_memory_used_bytes",
                 "Bytes of the request memory budget in use (requests and queued responses).", {},
                 static_cast<double>(budget->used()));
    writer.Gauge("cqld_native_request_memory_limit_bytes",
                 "The request memory budget (max_request_memory).", {},
                 static_cast<double>(budget->limit()));
    writer.Gauge("cqld_native_request_memory_high_water_bytes",
                 "The most of the request memory budget ever in use.", {},
                 static_cast<double>(budget->high_water()));
    writer.Gauge("cqld_native_request_memory_waiting",
                 "Connections waiting for request memory (not reading).", {},
                 static_cast<double>(budget->waiting()));
  });
}

}  // namespace server
