#include "client/host_pool.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "common/logging.h"
#include "cql/types/types.h"

namespace client {

namespace asio = boost::asio;
using common::Result;
using common::Status;

namespace {

std::string Address(const ContactPoint& point) {
  return point.host.find(':') != std::string::npos ? fmt::format("[{}]:{}", point.host, point.port)
                                                   : fmt::format("{}:{}", point.host, point.port);
}

}  // namespace

HostPool::HostPool(asio::io_context& io, ClientOptions options,
                   std::shared_ptr<asio::ssl::context> tls)
    : io_(io), options_(std::move(options)), tls_(std::move(tls)) {
  for (const std::string& text : options_.contact_points) {
    Result<ContactPoint> point = ParseContactPoint(text);
    if (!point.ok()) continue;  // Validate() rejected these already
    bool known = false;
    for (const Host& host : hosts_) known = known || host.point == *point;
    if (known) continue;
    Host host;
    host.point = *point;
    host.address = Address(*point);
    host.slots.resize(options_.connections_per_host);
    host.last_error = Status::IOError("not connected yet");
    hosts_.push_back(std::move(host));
  }
}

ConnectionSettings HostPool::SettingsFor(const Host& host) const {
  ConnectionSettings settings;
  settings.host = host.point.host;
  settings.port = host.point.port;
  settings.version = version_;
  settings.compression = options_.compression;
  settings.username = options_.username;
  settings.password = options_.password;
  settings.connect_timeout = options_.connect_timeout;
  settings.request_timeout = options_.request_timeout;
  settings.max_in_flight = options_.max_in_flight_per_connection;
  settings.keyspace = keyspace_;
  settings.tls = tls_;
  settings.verify_hostname = options_.tls.verify_hostname;
  return settings;
}

asio::awaitable<Status> HostPool::Start() {
  std::vector<uint8_t> versions;
  if (options_.protocol_version != 0) {
    versions.push_back(options_.protocol_version);
  } else {
    for (uint8_t v = protocol::kMaxVersion; v >= protocol::kMinVersion; --v) versions.push_back(v);
  }
  std::vector<std::string> failures;
  for (size_t h = 0; h < hosts_.size() && !shutdown_; ++h) {
    for (uint8_t version : versions) {
      version_ = version;
      std::shared_ptr<Connection> connection = Connection::Create(io_);
      Status status = co_await OpenConnection(h, 0, connection);
      if (status.ok()) {
        Install(h, 0, std::move(connection));
        // Invariant 3: the other slots, and the other hosts, connect in the background.
        for (size_t other = 0; other < hosts_.size(); ++other) {
          for (size_t s = 0; s < hosts_[other].slots.size(); ++s) {
            if (other == h && s == 0) continue;
            StartSlot(other, s, /*wait_first=*/false);
          }
        }
        co_return Status::Ok();
      }
      hosts_[h].last_error = status;
      if (connection->version_refused() && version != versions.back()) continue;
      // Errors the server chose (authentication, protocol) are final: report them as they are.
      if (status.code() != common::StatusCode::kIOError) {
        version_ = 0;
        co_return status;
      }
      failures.push_back(fmt::format("{}: {}", hosts_[h].address, status.message()));
      break;
    }
  }
  version_ = 0;
  co_return Status::IOError(
      fmt::format("Unable to connect to any contact point ({})", fmt::join(failures, "; ")));
}

asio::awaitable<Status> HostPool::OpenConnection(size_t host, size_t slot,
                                                 std::shared_ptr<Connection> connection) {
  hosts_[host].slots[slot].opening = connection;
  Status status = co_await connection->Open(SettingsFor(hosts_[host]));
  // A USE may have happened while the handshake ran: apply the newest keyspace (invariant 4).
  // A keyspace the server does not know (dropped meanwhile) leaves the connection without one.
  std::string tried = connection->keyspace();
  while (status.ok() && !shutdown_ && !keyspace_.empty() && tried != keyspace_) {
    tried = keyspace_;
    protocol::QueryRequest use;
    use.query = "USE " + cql::QuoteIdentifierIfNeeded(tried);
    protocol::Request use_request = std::move(use);  // named: see connection.cc
    Result<Response> used = co_await connection->Call(use_request, options_.request_timeout);
    if (used.ok()) {
      connection->set_keyspace(tried);
    } else if (used.status().code() == common::StatusCode::kIOError) {
      status = used.status();
      connection->Close(status);
    }
  }
  if (shutdown_ && status.ok()) {
    status = Status::IOError("Session is shut down");
    connection->Close(status);
  }
  hosts_[host].slots[slot].opening.reset();
  co_return status;
}

void HostPool::Install(size_t host, size_t slot, std::shared_ptr<Connection> connection) {
  Slot& target = hosts_[host].slots[slot];
  target.connection = std::move(connection);
  target.delay = std::chrono::milliseconds(0);
  hosts_[host].last_error = Status::Ok();
  target.connection->set_close_handler([this, host, slot](const Status& reason) {
    if (shutdown_) return;
    LOG_INFO("client: connection to {} lost ({}); reconnecting", hosts_[host].address,
             reason.message());
    hosts_[host].last_error = reason;
    StartSlot(host, slot, /*wait_first=*/true);
  });
}

void HostPool::StartSlot(size_t host, size_t slot, bool wait_first) {
  if (shutdown_ || hosts_[host].slots[slot].connecting) return;
  hosts_[host].slots[slot].connecting = true;
  asio::co_spawn(io_, ConnectSlot(host, slot, wait_first), asio::detached);
}

asio::awaitable<void> HostPool::ConnectSlot(size_t host, size_t slot, bool wait_first) {
  bool wait = wait_first;
  while (!shutdown_) {
    if (wait) {
      Slot& state = hosts_[host].slots[slot];
      state.delay = state.delay.count() == 0
                        ? options_.reconnect_initial_delay
                        : std::min(state.delay * 2, options_.reconnect_max_delay);
      state.timer = std::make_unique<asio::steady_timer>(io_, state.delay);
      boost::system::error_code ignored;
      co_await state.timer->async_wait(asio::redirect_error(asio::use_awaitable, ignored));
      if (shutdown_) break;
    }
    wait = true;
    std::shared_ptr<Connection> connection = Connection::Create(io_);
    Status status = co_await OpenConnection(host, slot, connection);
    if (shutdown_) break;
    if (status.ok()) {
      Install(host, slot, std::move(connection));
      break;
    }
    hosts_[host].last_error = status;
  }
  hosts_[host].slots[slot].connecting = false;
}

Connection* HostPool::BestConnection(size_t host) const {
  Connection* best = nullptr;
  for (const Slot& slot : hosts_[host].slots) {
    Connection* connection = slot.connection.get();
    if (connection == nullptr || !connection->ready() || !connection->has_free_stream()) continue;
    if (connection->in_flight() >= options_.max_in_flight_per_connection) continue;
    if (best == nullptr || connection->in_flight() < best->in_flight()) best = connection;
  }
  return best;
}

bool HostPool::host_up(size_t host) const {
  for (const Slot& slot : hosts_[host].slots) {
    if (slot.connection && slot.connection->ready()) return true;
  }
  return false;
}

std::string HostPool::DownMessage() const {
  std::vector<std::string> parts;
  bool any_up = false;
  for (const Host& host : hosts_) {
    if (host_up(static_cast<size_t>(&host - hosts_.data()))) {
      any_up = true;
      parts.push_back(fmt::format("{}: all connections busy", host.address));
    } else {
      parts.push_back(fmt::format("{}: down ({})", host.address, host.last_error.message()));
    }
  }
  return fmt::format("{} ({})",
                     any_up ? "No connection available" : "No host available: all hosts are down",
                     fmt::join(parts, "; "));
}

void HostPool::Send(const protocol::Request& request, const Route& route, Callback done) {
  if (shutdown_) {
    done(Status::IOError("Session is shut down"), 0);
    return;
  }
  Connection* connection = nullptr;
  size_t chosen = 0;
  if (route.host) {
    if (*route.host < hosts_.size()) {
      chosen = *route.host;
      connection = BestConnection(chosen);
    }
  } else {
    if (route.token && options_.token_aware_routing) {
      if (std::optional<size_t> owner = ring_.Owner(*route.token);
          owner && *owner < hosts_.size()) {
        chosen = *owner;
        connection = BestConnection(chosen);
      }
    }
    for (size_t i = 0; connection == nullptr && i < hosts_.size(); ++i) {
      chosen = (next_host_ + i) % hosts_.size();
      connection = BestConnection(chosen);
    }
    if (!hosts_.empty()) next_host_ = (next_host_ + 1) % hosts_.size();
  }
  if (connection == nullptr) {
    done(Status::IOError(route.host && *route.host < hosts_.size()
                             ? fmt::format("Host {} is not available ({})",
                                           hosts_[*route.host].address,
                                           hosts_[*route.host].last_error.message())
                             : DownMessage()),
         chosen);
    return;
  }
  connection->Send(request, options_.request_timeout,
                   [done = std::move(done), chosen](Result<Response> response) {
                     done(std::move(response), chosen);
                   });
}

std::vector<std::shared_ptr<Connection>> HostPool::ReadyConnections() const {
  std::vector<std::shared_ptr<Connection>> connections;
  for (const Host& host : hosts_) {
    for (const Slot& slot : host.slots) {
      if (slot.connection && slot.connection->ready()) connections.push_back(slot.connection);
    }
  }
  return connections;
}

std::optional<size_t> HostPool::FindHost(const std::string& host) const {
  for (size_t i = 0; i < hosts_.size(); ++i) {
    if (hosts_[i].point.host == host) return i;
  }
  return std::nullopt;
}

size_t HostPool::AddHost(const ContactPoint& point) {
  for (size_t i = 0; i < hosts_.size(); ++i) {
    if (hosts_[i].point == point) return i;
  }
  Host host;
  host.point = point;
  host.address = Address(point);
  host.slots.resize(options_.connections_per_host);
  host.last_error = Status::IOError("not connected yet");
  hosts_.push_back(std::move(host));
  size_t index = hosts_.size() - 1;
  for (size_t s = 0; s < hosts_[index].slots.size(); ++s) StartSlot(index, s, false);
  return index;
}

void HostPool::Shutdown() {
  if (shutdown_) return;
  shutdown_ = true;
  Status reason = Status::IOError("Session is shut down");
  for (Host& host : hosts_) {
    for (Slot& slot : host.slots) {
      if (slot.timer) slot.timer->cancel();
      if (slot.opening) slot.opening->Close(reason);
      if (slot.connection) slot.connection->Close(reason);
    }
  }
}

}  // namespace client
