// ClientOptions: how the C++ driver (src/client/) connects to a Cassandra-compatible cluster.
//
// `RemoteSession::Connect` (remote_session.h) takes these options: the contact points to try, the
// protocol version (or negotiation from v5 down to v4), compression, plain-text credentials, TLS,
// timeouts and the size of the connection pool. `ParseContactPoint` turns "host:port" into its
// parts; `Validate` checks the options before any connection is made.
//
// Thread-safety: plain values and pure functions.

#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "common/status.h"
#include "cql/session.h"
#include "protocol/compression.h"

namespace client {

// TLS on every connection of a session (transport.h). TLS 1.2 is the oldest version offered.
struct TlsOptions {
  bool enabled = false;
  // PEM file of the certificate authorities that sign the servers' certificates. Empty: the
  // system's default trust store (OpenSSL's default paths).
  std::string ca_file;
  // PEM client certificate (with its chain) and its private key, for servers that require
  // client certificates (mutual TLS). Both or neither.
  std::string cert_file;
  std::string key_file;
  // Check the server's certificate chain against the certificate authorities. Off, TLS still
  // encrypts but anyone on the path can pose as the server: for tests only.
  bool verify_peer = true;
  // With verify_peer: the certificate must name the host connected to (its DNS name in the
  // subjectAltName, or the common name when there is none; an IP address in an IP
  // subjectAltName).
  bool verify_hostname = true;
};

struct ClientOptions {
  // "host:port" or "host" (port 9042); IPv6 as "[::1]:9042". Tried in order to open the control
  // connection; every reachable one gets a pool of connections.
  std::vector<std::string> contact_points = {"127.0.0.1:9042"};
  // 0: negotiate (v5, then v4 when the server refuses v5). 4 or 5: exactly that version.
  // Protocol v3 is not supported (the protocol layer speaks v4 and v5 only).
  uint8_t protocol_version = 0;
  // kLz4 or kSnappy (v4 only; v5 compresses segments with lz4 only) when the server supports it
  // (OPTIONS/SUPPORTED); otherwise the connection is uncompressed.
  protocol::Compression compression = protocol::Compression::kNone;
  // SASL PLAIN credentials (PasswordAuthenticator); empty username: no credentials.
  std::string username;
  std::string password;
  TlsOptions tls;
  // TCP connect plus handshake (STARTUP, authentication, USE) of one connection.
  std::chrono::milliseconds connect_timeout{5000};
  // One request, from send to response; a request that takes longer fails with IOError.
  std::chrono::milliseconds request_timeout{12000};
  // How long a schema change waits for every node to report the same schema_version.
  std::chrono::milliseconds schema_agreement_timeout{10000};
  size_t connections_per_host = 2;
  // Requests in flight on one connection (stream ids); 1..32768.
  size_t max_in_flight_per_connection = 1024;
  // Used in place of QueryOptions' default consistency (kOne) and for the session's own queries.
  // QueryOptions cannot tell "unset" from an explicit ONE, so with a default other than kOne an
  // explicit ONE is replaced too.
  cql::Consistency default_consistency = cql::Consistency::kOne;
  // Reconnection backoff of a broken connection: initial delay, doubled up to the maximum.
  std::chrono::milliseconds reconnect_initial_delay{100};
  std::chrono::milliseconds reconnect_max_delay{10000};
  // Route prepared statements whose partition key is bound to the node that owns its token,
  // when the cluster has several nodes (system.peers).
  bool token_aware_routing = true;
  // With one host, plain TCP and no compression: each calling thread sends its request and
  // reads the answer itself on a connection it borrows for that request (direct_connection.h),
  // instead of handing it to the io thread's pipelined connections. Same answers and errors,
  // much less CPU per request; off: every request goes through the pipelined pool.
  bool direct_connections = true;
};

struct ContactPoint {
  std::string host;
  uint16_t port = 9042;
  bool operator==(const ContactPoint&) const = default;
};

// "host", "host:port", "[v6]" or "[v6]:port". Errors: Invalid for an empty host or a port that
// is not a number in 1..65535.
common::Result<ContactPoint> ParseContactPoint(std::string_view text);

// Ok, or Invalid naming the first bad option (no contact points, a bad contact point, a protocol
// version other than 0/4/5, zero connections, an in-flight limit outside 1..32768, a
// non-positive timeout, a TLS client certificate without its key or the other way round, TLS
// files given while TLS is off). Reads no file: `NewTlsContext` (transport.h) loads them.
common::Status Validate(const ClientOptions& options);

}  // namespace client
