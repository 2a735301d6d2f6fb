// Tracing: Cassandra's query tracing and the slow-query log (docs/operations.md §7).
//
// A traced request is a *session*: its row in system_traces.sessions (what was asked, by whom,
// when, and once it ends how long it took) and its *events* in system_traces.events (what the
// engine did, each with the microseconds since the session started). A request is traced when
// its client sets the protocol's tracing flag (`cql::QueryOptions::tracing`; the id then goes
// back in the response) or, with `Tracer::set_probability`, as a sample (the id is not returned,
// as in Cassandra: the sample is read from system_traces).
//
// Design:
//   1. The trace of the request a thread runs is a thread-local pointer (`CurrentTrace`), as
//      Cassandra's `Tracing.instance` state is: engine calls run a request on one thread from
//      start to end, and code deep in the read path (row_reader.cc) records events without
//      every signature carrying a tracing parameter. `Trace(...)` costs one branch when the
//      thread traces nothing; the message is formatted only when it does.
//   2. `TraceScope` is the one place a session begins and ends: the engine's entry points
//      (database.cc) and the server's PREPARE open one; a scope opened while the thread already
//      traces is a no-op, so nested entry points (a batch preparing its entries) join the
//      outer session.
//   3. Storage: a bounded in-memory `TraceStore`, served as the virtual tables
//      system_traces.sessions and system_traces.events (schema/system_tables.h). It keeps the
//      most recent sessions (kDefaultMaxSessions sessions, kDefaultMaxEvents events; the oldest
//      session goes first) and loses everything on restart, where Cassandra keeps traces 24
//      hours in a replicated table. Writing traces to RocksDB would put a write (and with
//      --durability batch a WAL sync) behind every traced request and need purging; an
//      in-memory ring serves what tracing is for — looking at recent requests — at no cost.
//      A session is stored whole when it ends, so a reader never sees events without their
//      session, and `duration` is never null in the store (the Python driver polls sessions
//      until duration is set).
//   4. A session records at most TraceState::kMaxEventsPerSession events (a traced scan of a
//      large table would otherwise push every other session out); the last one says how many
//      were dropped.
//
// Thread-safety: TraceState is used by the one thread running its request. TraceStore and
// Tracer are thread-safe. TraceScope belongs to the thread that opened it.

#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "common/clock.h"
#include "common/uuid.h"
#include "cql/session.h"
#include "schema/system_tables.h"

namespace engine {

// One traced request in progress: its session row (duration unset) and its events so far.
class TraceState {
 public:
  static constexpr size_t kMaxEventsPerSession = 1000;

  // REQUIRES: `timeuuids` outlives the state.
  TraceState(schema::TraceTablesData::Session session, common::TimeuuidGenerator* timeuuids,
             int32_t source_port);

  // Records an event now: its timeuuid, the microseconds since the session started, the thread.
  void Add(std::string activity);
  // Microseconds since the session started (steady clock).
  int32_t ElapsedMicros() const;

  const common::Uuid& session_id() const { return session_.session_id; }
  schema::TraceTablesData::Session& session() { return session_; }
  std::vector<schema::TraceTablesData::Event>& events() { return events_; }
  // Events not recorded past kMaxEventsPerSession.
  size_t dropped() const { return dropped_; }

 private:
  schema::TraceTablesData::Session session_;
  std::vector<schema::TraceTablesData::Event> events_;
  common::TimeuuidGenerator* timeuuids_;
  int32_t source_port_;
  std::chrono::steady_clock::time_point start_;
  size_t dropped_ = 0;
};

namespace internal {
// Design 1. Constant-initialised, so reading it is one TLS load.
inline constinit thread_local TraceState* current_trace = nullptr;
}  // namespace internal

// The trace of the request this thread runs, or null when it is not traced.
inline TraceState* CurrentTrace() { return internal::current_trace; }

// Records an event in the current trace; one branch when the thread traces nothing.
template <typename... Args>
void Trace(fmt::format_string<Args...> format, Args&&... args) {
  TraceState* trace = internal::current_trace;
  if (trace == nullptr) [[likely]] {
    return;
  }
  trace->Add(fmt::format(format, std::forward<Args>(args)...));
}

// The finished sessions (design 3), oldest dropped first past either bound.
class TraceStore {
 public:
  // REQUIRES: max_sessions > 0.
  TraceStore(size_t max_sessions, size_t max_events);

  void Add(schema::TraceTablesData::Session session,
           std::vector<schema::TraceTablesData::Event> events);
  // The sessions `ids` (every session when empty) and their events, as the system tables show.
  schema::TraceTablesData Snapshot(std::span<const common::Uuid> ids) const;
  size_t session_count() const;
  size_t event_count() const;

 private:
  struct Entry {
    schema::TraceTablesData::Session session;
    std::vector<schema::TraceTablesData::Event> events;
  };
  const size_t max_sessions_;
  const size_t max_events_;
  mutable std::mutex mutex_;
  std::deque<common::Uuid> order_;         // GUARDED_BY(mutex_), oldest first
  std::map<common::Uuid, Entry> entries_;  // GUARDED_BY(mutex_)
  size_t events_ = 0;                      // GUARDED_BY(mutex_)
};

// What a session records about its request when it begins.
struct TraceRequest {
  std::string request;  // "Execute CQL3 query", "Execute CQL3 prepared query", ...
  std::map<std::string, std::string> parameters;
  std::string client;  // the client's address; empty: the coordinator's
};

// The sessions parameters of a statement: consistency_level, page_size (when paged),
// serial_consistency_level (when set) and query, as Cassandra records them. Bound values are
// never recorded (they may hold passwords or personal data).
std::map<std::string, std::string> TraceParameters(std::string_view query,
                                                   const cql::QueryOptions& options);

// Tracing for one Database: the store, the sampling probability, and how sessions begin.
class Tracer {
 public:
  static constexpr size_t kDefaultMaxSessions = 10000;
  static constexpr size_t kDefaultMaxEvents = 200000;

  // REQUIRES: the arguments outlive the tracer.
  Tracer(const common::Clock* clock, common::TimeuuidGenerator* timeuuids,
         const schema::LocalNodeInfo* node, size_t max_sessions = kDefaultMaxSessions,
         size_t max_events = kDefaultMaxEvents);

  // The fraction of requests traced without asking (nodetool settraceprobability), clamped to
  // [0, 1]; 0 (the default) traces only the requests that ask.
  void set_probability(double probability);
  double probability() const { return probability_.load(std::memory_order_relaxed); }
  // True with probability(); false at once when it is 0.
  bool Sample() const;

  std::unique_ptr<TraceState> Begin(TraceRequest request);
  // Sets the session's duration and stores it with its events.
  void End(TraceState& state);

  TraceStore& store() { return store_; }
  const TraceStore& store() const { return store_; }

 private:
  const common::Clock* clock_;
  common::TimeuuidGenerator* timeuuids_;
  const schema::LocalNodeInfo* node_;
  std::atomic<double> probability_{0.0};
  TraceStore store_;
};

// A traced request from begin to end (design 2).
class TraceScope {
 public:
  // Begins a session when `requested` or sampled, unless this thread already traces (then the
  // scope does nothing). `describe()` -> TraceRequest is called only when a session begins.
  // REQUIRES: `tracer` outlives the scope.
  template <typename Describe>
  TraceScope(Tracer* tracer, bool requested, Describe&& describe) {
    if (internal::current_trace != nullptr) return;
    if (!requested && !tracer->Sample()) return;
    Start(tracer, requested, describe());
  }
  // Ends the session, if this scope began one.
  ~TraceScope();
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

  // Whether this scope began a session.
  bool active() const { return state_ != nullptr; }
  // The session id to return to the client: only when the client asked for the trace.
  std::optional<common::Uuid> client_id() const;

 private:
  void Start(Tracer* tracer, bool requested, TraceRequest request);

  Tracer* tracer_ = nullptr;
  std::unique_ptr<TraceState> state_;
  bool requested_ = false;
};

// `query` with the string literal after each PASSWORD keyword replaced by '***', for logs:
// `CREATE ROLE r WITH PASSWORD = 'secret'` -> `CREATE ROLE r WITH PASSWORD = '***'`.
std::string RedactPasswords(std::string_view query);

}  // namespace engine
