// What the native-protocol server adds to the system_views tables (engine/system_views.h;
// docs/operations.md "system_views"): its connections (clients), its settings under
// cassandra.yaml's names (native_transport_*, rpc_address, client_encryption_options.*) or
// cqld's own flag names, and its request pool (thread_pools). `Server::Start` registers it with
// the Database and `Server::Stop` removes it.
//
// Thread-safety: the source's functions are thread-safe; they hold the registry and the
// activity counters by shared_ptr, so they stay valid after the server is gone.

#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "engine/system_views.h"
#include "server/connection.h"

namespace server {

struct ServerOptions;

// The source for a server with `options`, bound to `port`, whose requests run on
// `request_threads` threads.
std::shared_ptr<const engine::SystemViewsSource> NewSystemViewsSource(
    const ServerOptions& options, uint16_t port, size_t request_threads,
    const std::shared_ptr<ConnectionRegistry>& registry,
    const std::shared_ptr<RequestActivity>& activity);

}  // namespace server
