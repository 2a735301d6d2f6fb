// NativeMetrics: what the native-protocol server records in the process-wide metrics registry
// (docs/operations.md §4): requests by opcode, ERROR responses by code, connections, bytes,
// requests in flight and timeouts. Every Server of the process adds to the same metrics (tests
// compare deltas); the memory budget, which is per Server, is exported by the Server's own
// collector (`BudgetCollector`).
//
// Thread-safety: thread-safe; every update is one relaxed atomic operation on a metric looked
// up once.

#pragma once

#include <array>
#include <string_view>

#include "common/metrics.h"
#include "protocol/frame.h"

namespace server {

class MemoryBudget;

class NativeMetrics {
 public:
  // The process's instance.
  static NativeMetrics& Get();

  // A request envelope decoded with `opcode`.
  void Request(protocol::Opcode opcode);
  // An ERROR response with `body` (its first 4 bytes are the error code).
  void Error(std::string_view body);

  common::metrics::Gauge& connections;
  common::metrics::Counter& connections_accepted;
  common::metrics::Counter& connections_refused;
  common::metrics::Counter& handshake_timeouts;
  common::metrics::Counter& idle_timeouts;
  common::metrics::Counter& bytes_received;
  common::metrics::Counter& bytes_sent;
  common::metrics::Gauge& requests_in_flight;
  // Statement requests run (connection.h design 4c): inline on their connection's io thread
  // as they were read, queued to the io threads, queued to the worker pool.
  common::metrics::Counter& requests_inline;
  common::metrics::Counter& requests_on_io;
  common::metrics::Counter& requests_on_workers;

 private:
  NativeMetrics();
  std::array<common::metrics::Counter*, 0x11> requests_{};  // by opcode
};

// The name of a protocol error code as in the label `name`: "server_error", "protocol_error",
// "invalid", "syntax_error", ...; "unknown" for a code the protocol does not define.
std::string_view ErrorCodeName(int32_t code);

// A collector of `budget`'s used bytes, limit, high-water mark and waiting reservations.
// REQUIRES: `budget` outlives the handle.
[[nodiscard]] common::metrics::CollectorHandle AddBudgetCollector(const MemoryBudget* budget);

}  // namespace server
