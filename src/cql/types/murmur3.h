// Partition tokens: Cassandra's Murmur3Partitioner, bit for bit.
//
// Every partition key is serialized (`SerializePartitionKey`) and hashed (`Murmur3Token`) to a
// signed 64-bit token. The storage layer orders partitions by token (the first 8 bytes of every
// key, see storage/key_encoding.h `EncodeToken`), `token(pk)` returns it, and token-range
// queries and paging compare it; drivers compute the same value to route requests, so it must
// match Cassandra exactly.
//
// The hash is the first half (h1) of MurmurHash3_x64_128 with seed 0, with two Cassandra quirks:
//   1. The 1..15 tail bytes are read as *signed* Java bytes and sign-extended to 64 bits before
//      being shifted into place, unlike the reference C implementation (which reads them as
//      unsigned); keys whose tail holds bytes >= 0x80 hash differently from reference murmur3.
//   2. The result Long.MIN_VALUE is mapped to Long.MAX_VALUE, because Long.MIN_VALUE is the
//      partitioner's minimum token, reserved for "before every key".
//
// Thread-safety: pure functions.

#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/status.h"

namespace cql {

// The largest serialized value of one partition-key component (its length goes in 2 bytes).
inline constexpr size_t kMaxPartitionKeyComponentSize = 65535;

// Both 64-bit halves of Cassandra's MurmurHash3_x64_128 variant (signed tail bytes).
struct Murmur3Hash128 {
  int64_t h1 = 0;
  int64_t h2 = 0;
};

// Cassandra's MurmurHash.hash3_x64_128 over `data` with `seed`.
Murmur3Hash128 CassandraMurmur3Hash128(std::string_view data, int64_t seed);

// The Murmur3Partitioner token of a serialized partition key (see `SerializePartitionKey`):
// h1 of the hash with seed 0, Long.MIN_VALUE mapped to Long.MAX_VALUE. An empty key has the
// minimum token, Long.MIN_VALUE, as Cassandra's getToken() gives it: statements reject empty
// single-column partition keys ("Key may not be empty"), but a materialized view stores the row
// of a base row whose view partition key is '' under that token, first in a full scan.
int64_t Murmur3Token(std::string_view serialized_partition_key);

// The bytes Cassandra hashes for a partition key, from the components' protocol values in
// partition-key order: a single component is its raw value; two or more are each written as a
// 2-byte big-endian length, the value bytes and one 0x00 byte (CompositeType).
// REQUIRES: every component is at most `kMaxPartitionKeyComponentSize` bytes when there are two
// or more (check with `ValidatePartitionKeyComponentSizes`); a longer one gets its length
// truncated to 16 bits, as Java's writeShort would.
common::Bytes SerializePartitionKey(const std::vector<std::string_view>& components);

// Splits a serialized composite partition key back into its `count` components (views into
// `serialized`). With count == 1 the whole input is the component. Fails with Invalid when the
// bytes are not `count` well-formed components.
common::Result<std::vector<std::string_view>> SplitPartitionKey(std::string_view serialized,
                                                                size_t count);

// Ok, or Invalid with Cassandra's message "Key length of N is longer than maximum of 65535"
// for the first component that does not fit.
common::Status ValidatePartitionKeyComponentSizes(const std::vector<std::string_view>& components);

}  // namespace cql
