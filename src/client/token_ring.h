// TokenRing: token-aware routing for the C++ driver, and the cluster topology it is built from.
//
// Cassandra places a partition on the node whose token is the first at or after the
// partition's Murmur3 token (wrapping around the ring). The driver reads every node's tokens from
// `system.local` and `system.peers`, builds a `TokenRing`, and sends a prepared statement whose
// partition key is bound to the owner of the key's token (cql/types/murmur3.h computes it exactly
// as the engine does). With one node the ring is trivial and routing changes nothing.
//
// Thread-safety: TokenRing is a value; const methods may be called concurrently. The free
// functions are pure.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "cql/session.h"

namespace client {

class TokenRing {
 public:
  TokenRing() = default;
  // `entries`: (token, host index) pairs in any order.
  explicit TokenRing(std::vector<std::pair<int64_t, size_t>> entries);

  // The host owning `token`: the first entry with a token >= `token`, wrapping to the smallest.
  // nullopt when the ring is empty.
  std::optional<size_t> Owner(int64_t token) const;
  bool empty() const { return entries_.empty(); }
  // Distinct hosts in the ring.
  size_t host_count() const;

 private:
  std::vector<std::pair<int64_t, size_t>> entries_;  // sorted by token
};

// The routing token of a prepared statement executed with `options`: the Murmur3 token of its
// partition key, when every partition key column is bound positionally to a value; else nullopt.
std::optional<int64_t> RoutingToken(const cql::PreparedMetadata& prepared,
                                    const cql::QueryOptions& options);

// One node of the cluster as system.local / system.peers describe it.
struct NodeInfo {
  std::string address;  // rpc_address (peers: falls back to peer); "" for system.local
  std::vector<int64_t> tokens;
  std::string schema_version;  // hex of the uuid, "" when null
};

// Reads the rows of `SELECT ... FROM system.local` or `... FROM system.peers` (columns looked up
// by name: peer, rpc_address, tokens, schema_version; any may be absent). Errors: Invalid when a
// value does not decode (a token that is not a number, a malformed set or address).
common::Result<std::vector<NodeInfo>> ParseNodes(const cql::ResultSet& rows);

}  // namespace client
