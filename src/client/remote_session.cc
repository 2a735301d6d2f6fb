#include "client/remote_session.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>

#include "client/token_ring.h"
#include "common/logging.h"
#include "cql/types/types.h"

namespace client {

namespace asio = boost::asio;
using common::Result;
using common::Status;
using common::StatusCode;

namespace {

// How long a blocking call waits beyond the request timeout before giving up on the io thread
// (the connection's own timer normally answers first).
constexpr std::chrono::milliseconds kCallGrace{5000};
constexpr int32_t kDefaultFetchSize = 5000;
// Direct connections open at once (lent and idle); more concurrent callers take the pool.
constexpr size_t kMaxDirectConnections = 64;

}  // namespace

Result<std::unique_ptr<RemoteSession>> RemoteSession::Connect(const ClientOptions& options) {
  RETURN_IF_ERROR(Validate(options));
  std::shared_ptr<asio::ssl::context> tls;
  if (options.tls.enabled) {
    ASSIGN_OR_RETURN(tls, NewTlsContext(options.tls));
  }
  std::unique_ptr<RemoteSession> session(new RemoteSession(options, std::move(tls)));
  RETURN_IF_ERROR(session->Start());
  return session;
}

RemoteSession::RemoteSession(ClientOptions options, std::shared_ptr<asio::ssl::context> tls)
    : options_(std::move(options)), work_(asio::make_work_guard(io_)) {
  pool_ = std::make_unique<HostPool>(io_, options_, std::move(tls));
  thread_ = std::thread([this] { io_.run(); });
}

RemoteSession::~RemoteSession() { Shutdown(); }

void RemoteSession::Shutdown() {
  if (shut_down_.exchange(true)) return;
  asio::post(io_, [this] { pool_->Shutdown(); });
  work_.reset();
  if (thread_.joinable()) thread_.join();
}

template <typename Function>
auto RemoteSession::RunOnIo(Function function) -> decltype(function()) {
  using T = decltype(function());
  std::promise<T> promise;
  std::future<T> future = promise.get_future();
  asio::post(io_, [&] {
    if constexpr (std::is_void_v<T>) {
      function();
      promise.set_value();
    } else {
      promise.set_value(function());
    }
  });
  return future.get();
}

Status RemoteSession::Start() {
  auto promise = std::make_shared<std::promise<Status>>();
  std::future<Status> future = promise->get_future();
  asio::co_spawn(
      io_,
      [pool = pool_.get(), promise]() -> asio::awaitable<void> {
        promise->set_value(co_await pool->Start());
      },
      asio::detached);
  RETURN_IF_ERROR(future.get());
  version_ = RunOnIo([this] { return pool_->version(); });
  DiscoverTopology();
  if (options_.direct_connections && !options_.tls.enabled &&
      options_.compression == protocol::Compression::kNone) {
    RunOnIo([this] {
      if (pool_->host_count() != 1) return;  // routing between hosts stays the pool's
      direct_settings_ = pool_->SettingsForHost(0);
      direct_ = true;
    });
  }
  return Status::Ok();
}

std::optional<RemoteSession::CallResult> RemoteSession::CallDirect(
    const protocol::Request& request) {
  std::optional<DirectLease> lease = TakeDirect();
  if (!lease) return std::nullopt;
  Result<Response> response = lease->connection->Call(request, options_.request_timeout);
  ReturnDirect(std::move(*lease));
  return CallResult{std::move(response), 0};
}

std::optional<RemoteSession::DirectLease> RemoteSession::TakeDirect() {
  uint64_t epoch = keyspace_epoch_.load();
  for (;;) {
    std::optional<DirectLease> idle;
    {
      std::lock_guard lock(direct_mutex_);
      if (!idle_direct_.empty()) {
        idle = std::move(idle_direct_.back());
        idle_direct_.pop_back();
      } else if (direct_open_ >= kMaxDirectConnections ||
                 std::chrono::steady_clock::now() < direct_retry_after_) {
        return std::nullopt;
      } else {
        ++direct_open_;
        break;
      }
    }
    if (idle->keyspace_epoch == epoch && idle->connection->StillOpen()) return idle;
    std::lock_guard lock(direct_mutex_);
    --direct_open_;
  }
  ConnectionSettings settings = direct_settings_;
  settings.keyspace = keyspace();
  Result<std::unique_ptr<DirectConnection>> opened = DirectConnection::Open(settings);
  std::lock_guard lock(direct_mutex_);
  if (!opened.ok()) {
    --direct_open_;
    direct_backoff_ = std::min(std::max(direct_backoff_ * 2, options_.reconnect_initial_delay),
                               options_.reconnect_max_delay);
    direct_retry_after_ = std::chrono::steady_clock::now() + direct_backoff_;
    return std::nullopt;
  }
  direct_backoff_ = std::chrono::milliseconds(0);
  return DirectLease{std::move(*opened), epoch};
}

void RemoteSession::ReturnDirect(DirectLease lease) {
  bool keep = lease.connection->usable() && lease.keyspace_epoch == keyspace_epoch_.load();
  std::lock_guard lock(direct_mutex_);
  if (keep) {
    idle_direct_.push_back(std::move(lease));
  } else {
    --direct_open_;
  }
}

RemoteSession::CallResult RemoteSession::Call(protocol::Request request, Route route) {
  if (shut_down_) return {Status::IOError("Session is shut down"), 0};
  if (direct_) {
    if (std::optional<CallResult> done = CallDirect(request)) return std::move(*done);
  }
  auto promise = std::make_shared<std::promise<CallResult>>();
  std::future<CallResult> future = promise->get_future();
  asio::post(io_, [this, request = std::move(request), route, promise]() {
    pool_->Send(request, route, [promise](Result<Response> response, size_t host) {
      promise->set_value(CallResult{std::move(response), host});
    });
  });
  if (future.wait_for(options_.request_timeout + kCallGrace) != std::future_status::ready) {
    return {Status::IOError(
                fmt::format("Request timed out after {} ms", options_.request_timeout.count())),
            0};
  }
  return future.get();
}

cql::Consistency RemoteSession::Effective(cql::Consistency consistency) const {
  return consistency == cql::Consistency::kOne ? options_.default_consistency : consistency;
}

Result<protocol::ResultResponse> RemoteSession::Decode(
    const Response& response,
    std::shared_ptr<const std::vector<cql::ColumnSpec>> known_columns) const {
  if (response.opcode != protocol::Opcode::kResult) {
    return Status::ProtocolError(
        fmt::format("Expected RESULT, got {}", protocol::OpcodeName(response.opcode)));
  }
  return protocol::DecodeResult(response.body, version_, std::move(known_columns));
}

Result<cql::ResultSet> RemoteSession::Finish(protocol::ResultResponse decoded,
                                             std::vector<std::string> warnings,
                                             std::optional<common::Bytes> tracing_id, size_t host) {
  if (decoded.kind == protocol::ResultResponse::Kind::kPrepared) {
    return Status::ProtocolError("Unexpected Prepared result for a statement");
  }
  cql::ResultSet result = std::move(decoded.result);
  for (std::string& warning : warnings) result.AddWarning(std::move(warning));
  if (tracing_id) {
    Result<common::Uuid> id = common::Uuid::FromBytes(*tracing_id);
    if (id.ok()) result.set_tracing_id(*id);
  }
  if (result.kind() == cql::ResultSet::Kind::kSetKeyspace) {
    {
      std::lock_guard lock(mutex_);
      keyspace_ = result.keyspace();
    }
    ++keyspace_epoch_;
    RETURN_IF_ERROR(UseEverywhere(result.keyspace()));
  } else if (result.kind() == cql::ResultSet::Kind::kSchemaChange) {
    Status agreed = WaitForSchemaAgreement(host);
    if (!agreed.ok()) LOG_INFO("client: {}", agreed.message());
  }
  return result;
}

Result<cql::ResultSet> RemoteSession::Execute(std::string_view query,
                                              const cql::QueryOptions& options) {
  protocol::QueryRequest request;
  request.query = std::string(query);
  request.parameters.options = options;
  request.parameters.options.consistency = Effective(options.consistency);
  CallResult call = Call(std::move(request), Route{});
  if (!call.response.ok()) return call.response.status();
  ASSIGN_OR_RETURN(protocol::ResultResponse decoded, Decode(*call.response, nullptr));
  return Finish(std::move(decoded), std::move(call.response->warnings),
                std::move(call.response->tracing_id), call.host);
}

Result<cql::ResultSet> RemoteSession::ExecuteAll(std::string_view query,
                                                 const cql::QueryOptions& options) {
  cql::QueryOptions page_options = options;
  if (page_options.page_size <= 0) page_options.page_size = kDefaultFetchSize;
  ASSIGN_OR_RETURN(cql::ResultSet all, Execute(query, page_options));
  while (all.paging_state()) {
    page_options.paging_state = all.paging_state();
    ASSIGN_OR_RETURN(cql::ResultSet page, Execute(query, page_options));
    for (size_t row = 0; row < page.row_count(); ++row) {
      for (size_t column = 0; column < page.column_count(); ++column) {
        std::optional<std::string_view> value = page.Value(row, column);
        all.AddCell(value ? std::optional<common::Bytes>(common::Bytes(*value)) : std::nullopt);
      }
    }
    for (const std::string& warning : page.warnings()) all.AddWarning(warning);
    all.set_paging_state(page.paging_state());
  }
  return all;
}

Result<std::shared_ptr<const cql::PreparedMetadata>> RemoteSession::Prepare(
    std::string_view query) {
  protocol::PrepareRequest request;
  request.query = std::string(query);
  CallResult call = Call(std::move(request), Route{});
  if (!call.response.ok()) return call.response.status();
  ASSIGN_OR_RETURN(protocol::ResultResponse decoded, Decode(*call.response, nullptr));
  if (decoded.kind != protocol::ResultResponse::Kind::kPrepared) {
    return Status::ProtocolError("Expected a Prepared result for PREPARE");
  }
  auto prepared = std::make_shared<cql::PreparedMetadata>(std::move(decoded.prepared));
  prepared->query = std::string(query);
  prepared->keyspace = keyspace();
  prepared_.Put(prepared);
  return std::shared_ptr<const cql::PreparedMetadata>(std::move(prepared));
}

Result<std::shared_ptr<const cql::PreparedMetadata>> RemoteSession::Reprepare(
    const cql::PreparedMetadata& prepared, size_t host) {
  if (prepared.query.empty()) {
    return Status(StatusCode::kUnprepared,
                  "Prepared statement is unknown to the server and its query text is unknown");
  }
  protocol::PrepareRequest request;
  request.query = prepared.query;
  if (version_ >= 5) request.keyspace = prepared.keyspace;
  CallResult call = Call(std::move(request), Route{host, std::nullopt});
  if (!call.response.ok()) return call.response.status();
  ASSIGN_OR_RETURN(protocol::ResultResponse decoded, Decode(*call.response, nullptr));
  if (decoded.kind != protocol::ResultResponse::Kind::kPrepared) {
    return Status::ProtocolError("Expected a Prepared result for PREPARE");
  }
  auto fresh = std::make_shared<cql::PreparedMetadata>(std::move(decoded.prepared));
  fresh->query = prepared.query;
  fresh->keyspace = prepared.keyspace;
  prepared_.Put(fresh);
  return std::shared_ptr<const cql::PreparedMetadata>(std::move(fresh));
}

Result<cql::ResultSet> RemoteSession::ExecutePrepared(const cql::PreparedMetadata& prepared,
                                                      const cql::QueryOptions& options) {
  std::shared_ptr<const cql::PreparedMetadata> cached = prepared_.Find(prepared.id);
  if (!cached) {
    cached = std::make_shared<cql::PreparedMetadata>(prepared);
    prepared_.Put(cached);
  }
  std::optional<int64_t> token = RoutingToken(*cached, options);
  for (int attempt = 0;; ++attempt) {
    protocol::ExecuteRequest request;
    request.id = cached->id;
    request.result_metadata_id = cached->result_metadata_id;
    request.parameters.options = options;
    request.parameters.options.consistency = Effective(options.consistency);
    request.parameters.skip_metadata = !cached->result_columns.empty();
    CallResult call = Call(std::move(request), Route{std::nullopt, token});
    if (!call.response.ok()) {
      if (call.response.status().code() == StatusCode::kUnprepared && attempt == 0) {
        ASSIGN_OR_RETURN(cached, Reprepare(*cached, call.host));
        continue;
      }
      return call.response.status();
    }
    ASSIGN_OR_RETURN(protocol::ResultResponse decoded,
                     Decode(*call.response, std::shared_ptr<const std::vector<cql::ColumnSpec>>(
                                                cached, &cached->result_columns)));
    if (decoded.new_metadata_id) {
      prepared_.UpdateResultMetadata(cached->id, decoded.result.columns(),
                                     *decoded.new_metadata_id);
    }
    return Finish(std::move(decoded), std::move(call.response->warnings),
                  std::move(call.response->tracing_id), call.host);
  }
}

Result<cql::ResultSet> RemoteSession::ExecuteBatch(const cql::BatchRequest& batch) {
  std::vector<std::shared_ptr<const cql::PreparedMetadata>> entries(batch.entries.size());
  for (size_t i = 0; i < batch.entries.size(); ++i) {
    const cql::BatchEntry& entry = batch.entries[i];
    if (!entry.prepared) continue;
    entries[i] = prepared_.Find(entry.prepared->id);
    if (!entries[i]) {
      entries[i] = entry.prepared;
      prepared_.Put(entry.prepared);
    }
  }
  for (int attempt = 0;; ++attempt) {
    protocol::BatchRequestMessage message;
    message.type = batch.type;
    message.consistency = Effective(batch.consistency);
    message.serial_consistency = batch.serial_consistency;
    message.timestamp = batch.timestamp;
    message.keyspace = batch.keyspace;
    message.tracing = batch.tracing;
    for (size_t i = 0; i < batch.entries.size(); ++i) {
      const cql::BatchEntry& entry = batch.entries[i];
      protocol::BatchRequestMessage::Statement statement;
      statement.prepared = entries[i] != nullptr;
      if (statement.prepared) {
        statement.id = entries[i]->id;
      } else {
        statement.query = entry.query;
      }
      statement.values = entry.values;
      statement.value_names = entry.value_names;
      message.statements.push_back(std::move(statement));
    }
    CallResult call = Call(std::move(message), Route{});
    if (!call.response.ok()) {
      if (call.response.status().code() == StatusCode::kUnprepared && attempt == 0) {
        for (auto& entry : entries) {
          if (!entry) continue;
          ASSIGN_OR_RETURN(entry, Reprepare(*entry, call.host));
        }
        continue;
      }
      return call.response.status();
    }
    ASSIGN_OR_RETURN(protocol::ResultResponse decoded, Decode(*call.response, nullptr));
    return Finish(std::move(decoded), std::move(call.response->warnings),
                  std::move(call.response->tracing_id), call.host);
  }
}

std::string RemoteSession::keyspace() const {
  std::lock_guard lock(mutex_);
  return keyspace_;
}

Status RemoteSession::UseEverywhere(const std::string& keyspace) {
  struct State {
    std::promise<Status> done;
    size_t pending = 0;
    Status first_error;
  };
  auto state = std::make_shared<State>();
  std::future<Status> future = state->done.get_future();
  asio::post(io_, [this, keyspace, state] {
    pool_->SetKeyspace(keyspace);
    std::vector<std::shared_ptr<Connection>> connections = pool_->ReadyConnections();
    state->pending = connections.size() + 1;
    auto finish = [state] {
      if (--state->pending == 0) state->done.set_value(state->first_error);
    };
    protocol::Request use = UseRequest(keyspace);
    for (const std::shared_ptr<Connection>& connection : connections) {
      connection->Send(use, options_.request_timeout,
                       [state, finish, connection, keyspace](Result<Response> response) {
                         if (response.ok()) {
                           connection->set_keyspace(keyspace);
                         } else if (response.status().code() != StatusCode::kIOError &&
                                    state->first_error.ok()) {
                           // A broken connection reconnects into the new keyspace anyway.
                           state->first_error = response.status();
                         }
                         finish();
                       });
    }
    finish();
  });
  if (future.wait_for(options_.request_timeout + kCallGrace) != std::future_status::ready) {
    return Status::IOError("Timed out applying USE to every connection");
  }
  return future.get();
}

Status RemoteSession::WaitForSchemaAgreement(std::optional<size_t> host) {
  auto deadline = std::chrono::steady_clock::now() + options_.schema_agreement_timeout;
  cql::QueryOptions options;
  options.consistency = cql::Consistency::kOne;
  for (;;) {
    std::set<std::string> versions;
    for (const char* query : {"SELECT schema_version FROM system.local",
                              "SELECT peer, rpc_address, schema_version FROM system.peers"}) {
      protocol::QueryRequest request;
      request.query = query;
      request.parameters.options = options;
      CallResult call = Call(std::move(request), Route{host, std::nullopt});
      if (!call.response.ok()) return call.response.status();
      host = call.host;  // both tables must come from the same node
      ASSIGN_OR_RETURN(protocol::ResultResponse decoded, Decode(*call.response, nullptr));
      ASSIGN_OR_RETURN(std::vector<NodeInfo> nodes, ParseNodes(decoded.result));
      for (const NodeInfo& node : nodes) {
        if (!node.schema_version.empty()) versions.insert(node.schema_version);
      }
    }
    if (versions.size() <= 1) return Status::Ok();
    if (std::chrono::steady_clock::now() >= deadline) {
      return Status::IOError(
          fmt::format("Schema agreement not reached after {} ms ({} schema versions)",
                      options_.schema_agreement_timeout.count(), versions.size()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

void RemoteSession::DiscoverTopology() {
  // Both tables must come from the same node: the first answer pins the host.
  std::optional<size_t> host;
  auto nodes_of = [&](const char* query) -> std::optional<std::vector<NodeInfo>> {
    protocol::QueryRequest request;
    request.query = query;
    CallResult call = Call(std::move(request), Route{host, std::nullopt});
    if (!call.response.ok()) return std::nullopt;
    host = call.host;
    Result<protocol::ResultResponse> decoded = Decode(*call.response, nullptr);
    if (!decoded.ok()) return std::nullopt;
    Result<std::vector<NodeInfo>> nodes = ParseNodes(decoded->result);
    if (!nodes.ok()) return std::nullopt;
    return std::move(*nodes);
  };
  // Without topology the pool round-robins over the contact points.
  std::optional<std::vector<NodeInfo>> local = nodes_of("SELECT tokens FROM system.local");
  if (!local || local->empty()) return;
  std::optional<std::vector<NodeInfo>> peers =
      nodes_of("SELECT peer, rpc_address, tokens FROM system.peers");
  if (!peers || peers->empty()) return;  // one node: nothing to route
  RunOnIo([&] {
    std::vector<std::pair<int64_t, size_t>> ring;
    for (int64_t token : (*local)[0].tokens) ring.emplace_back(token, *host);
    uint16_t port = pool_->host_point(*host).port;
    for (const NodeInfo& peer : *peers) {
      if (peer.address.empty()) continue;
      size_t index = pool_->AddHost(ContactPoint{peer.address, port});
      for (int64_t token : peer.tokens) ring.emplace_back(token, index);
    }
    pool_->SetTokenRing(TokenRing(std::move(ring)));
  });
}

size_t RemoteSession::host_count() {
  return RunOnIo([this] { return pool_->host_count(); });
}

size_t RemoteSession::hosts_up() {
  return RunOnIo([this] {
    size_t up = 0;
    for (size_t host = 0; host < pool_->host_count(); ++host) up += pool_->host_up(host) ? 1 : 0;
    return up;
  });
}

size_t RemoteSession::connection_count() {
  return RunOnIo([this] { return pool_->ReadyConnections().size(); });
}

}  // namespace client
