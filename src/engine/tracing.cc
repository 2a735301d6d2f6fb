#include "engine/tracing.h"

#include <algorithm>
#include <random>

#include "common/ascii.h"

namespace engine {

using schema::TraceTablesData;

namespace {

// A short, stable name for the calling thread ("thread-3"), numbered in first-use order.
const std::string& ThreadName() {
  static std::atomic<uint32_t> next{1};
  thread_local const std::string name =
      fmt::format("thread-{}", next.fetch_add(1, std::memory_order_relaxed));
  return name;
}

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The end of the CQL string literal starting at `begin` ('...' with '' escapes, or $$...$$),
// or npos when there is none there.
size_t LiteralEnd(std::string_view query, size_t begin) {
  if (query.substr(begin, 2) == "$$") {
    const size_t close = query.find("$$", begin + 2);
    return close == std::string_view::npos ? query.size() : close + 2;
  }
  if (begin >= query.size() || query[begin] != '\'') return std::string_view::npos;
  size_t i = begin + 1;
  while (i < query.size()) {
    if (query[i] == '\'') {
      if (i + 1 < query.size() && query[i + 1] == '\'') {
        i += 2;
        continue;
      }
      return i + 1;
    }
    ++i;
  }
  return query.size();  // unterminated: hide the rest
}

}  // namespace

TraceState::TraceState(TraceTablesData::Session session, common::TimeuuidGenerator* timeuuids,
                       int32_t source_port)
    : session_(std::move(session)),
      timeuuids_(timeuuids),
      source_port_(source_port),
      start_(std::chrono::steady_clock::now()) {}

int32_t TraceState::ElapsedMicros() const {
  const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - start_);
  return static_cast<int32_t>(std::min<int64_t>(elapsed.count(), INT32_MAX));
}

void TraceState::Add(std::string activity) {
  if (events_.size() >= kMaxEventsPerSession) {
    ++dropped_;
    return;
  }
  TraceTablesData::Event event;
  event.session_id = session_.session_id;
  event.event_id = timeuuids_->Next();
  event.activity = std::move(activity);
  event.source = session_.coordinator;
  event.source_port = source_port_;
  event.source_elapsed = ElapsedMicros();
  event.thread = ThreadName();
  events_.push_back(std::move(event));
}

TraceStore::TraceStore(size_t max_sessions, size_t max_events)
    : max_sessions_(std::max<size_t>(1, max_sessions)), max_events_(max_events) {}

void TraceStore::Add(TraceTablesData::Session session, std::vector<TraceTablesData::Event> events) {
  std::lock_guard<std::mutex> lock(mutex_);
  const common::Uuid id = session.session_id;
  events_ += events.size();
  auto [it, added] = entries_.try_emplace(id);
  if (!added) events_ -= it->second.events.size();
  it->second = Entry{std::move(session), std::move(events)};
  if (added) order_.push_back(id);
  while (!order_.empty() && (order_.size() > max_sessions_ || events_ > max_events_)) {
    auto oldest = entries_.find(order_.front());
    events_ -= oldest->second.events.size();
    entries_.erase(oldest);
    order_.pop_front();
  }
}

TraceTablesData TraceStore::Snapshot(std::span<const common::Uuid> ids) const {
  TraceTablesData data;
  std::lock_guard<std::mutex> lock(mutex_);
  auto add = [&](const Entry& entry) {
    data.sessions.push_back(entry.session);
    data.events.insert(data.events.end(), entry.events.begin(), entry.events.end());
  };
  if (ids.empty()) {
    for (const auto& [id, entry] : entries_) add(entry);
    return data;
  }
  for (const common::Uuid& id : ids) {
    if (auto it = entries_.find(id); it != entries_.end()) add(it->second);
  }
  return data;
}

size_t TraceStore::session_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

size_t TraceStore::event_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return events_;
}

std::map<std::string, std::string> TraceParameters(std::string_view query,
                                                   const cql::QueryOptions& options) {
  std::map<std::string, std::string> parameters;
  parameters["consistency_level"] = std::string(cql::ConsistencyName(options.consistency));
  if (options.page_size > 0) parameters["page_size"] = fmt::format("{}", options.page_size);
  if (options.serial_consistency) {
    parameters["serial_consistency_level"] =
        std::string(cql::ConsistencyName(*options.serial_consistency));
  }
  parameters["query"] = std::string(query);
  return parameters;
}

Tracer::Tracer(const common::Clock* clock, common::TimeuuidGenerator* timeuuids,
               const schema::LocalNodeInfo* node, size_t max_sessions, size_t max_events)
    : clock_(clock), timeuuids_(timeuuids), node_(node), store_(max_sessions, max_events) {}

void Tracer::set_probability(double probability) {
  if (!(probability > 0)) probability = 0;  // NaN too
  probability_.store(std::min(probability, 1.0), std::memory_order_relaxed);
}

bool Tracer::Sample() const {
  const double probability = probability_.load(std::memory_order_relaxed);
  if (probability <= 0) return false;
  if (probability >= 1) return true;
  thread_local std::minstd_rand random(std::random_device{}());
  return std::uniform_real_distribution<double>(0, 1)(random) < probability;
}

std::unique_ptr<TraceState> Tracer::Begin(TraceRequest request) {
  TraceTablesData::Session session;
  session.session_id = timeuuids_->Next();
  session.command = "QUERY";
  session.coordinator = node_->rpc_address;
  session.client = request.client.empty() ? node_->rpc_address : std::move(request.client);
  session.coordinator_port = node_->native_port;
  session.parameters = std::move(request.parameters);
  session.request = std::move(request.request);
  session.started_at_millis = clock_->NowMicros() / 1000;
  return std::make_unique<TraceState>(std::move(session), timeuuids_, node_->listen_port);
}

void Tracer::End(TraceState& state) {
  if (state.dropped() > 0) {
    state.events().back().activity +=
        fmt::format(" ({} more events of this session not recorded)", state.dropped());
  }
  state.session().duration = std::max<int32_t>(1, state.ElapsedMicros());
  store_.Add(std::move(state.session()), std::move(state.events()));
}

void TraceScope::Start(Tracer* tracer, bool requested, TraceRequest request) {
  tracer_ = tracer;
  requested_ = requested;
  state_ = tracer->Begin(std::move(request));
  internal::current_trace = state_.get();
}

TraceScope::~TraceScope() {
  if (state_ == nullptr) return;
  internal::current_trace = nullptr;
  tracer_->End(*state_);
}

std::optional<common::Uuid> TraceScope::client_id() const {
  if (state_ == nullptr || !requested_) return std::nullopt;
  return state_->session_id();
}

std::string RedactPasswords(std::string_view query) {
  std::string out;
  size_t copied = 0;
  size_t i = 0;
  while (i + 8 <= query.size()) {
    if (query[i] == '\'' || query.substr(i, 2) == "$$") {  // a literal's text is not a keyword
      i = LiteralEnd(query, i);
      continue;
    }
    const bool word_start = i == 0 || !IsWordChar(query[i - 1]);
    if (!word_start || common::AsciiLower(query.substr(i, 8)) != "password" ||
        (i + 8 < query.size() && IsWordChar(query[i + 8]))) {
      ++i;
      continue;
    }
    size_t at = i + 8;
    while (at < query.size() && (query[at] == ' ' || query[at] == '\t' || query[at] == '\n' ||
                                 query[at] == '\r' || query[at] == '=' || query[at] == ':')) {
      ++at;
    }
    const size_t end = LiteralEnd(query, at);
    if (end == std::string_view::npos) {
      i += 8;
      continue;
    }
    out.append(query.substr(copied, at - copied));
    out.append("'***'");
    copied = end;
    i = end;
  }
  out.append(query.substr(copied));
  return out;
}

}  // namespace engine
