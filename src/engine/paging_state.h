// PagingState: where a paged SELECT stopped, handed to the client as opaque bytes and back on
// the next request (native_protocol_v4.spec §8).
//
// It records the storage prefix of the partition being read, the storage key of the last row
// returned (the static row's key for static-only and DISTINCT rows), how many rows the LIMIT
// still allows and how many rows of the current partition were already returned (for PER
// PARTITION LIMIT). With GROUP BY the rows counted are groups, and `last_key` is the last row
// of the last complete group, so the next page starts at the next group (select_statement.cc,
// G1-G5). A checksum over the content rejects accidental corruption; a state that
// does not decode gets Cassandra's Invalid error, never a crash. A well-formed but altered state
// can only move the resume point, which is harmless.
//
// Thread-safety: plain value; pure functions.

#pragma once

#include <cstdint>
#include <string_view>

#include "common/bytes.h"
#include "common/result.h"

namespace engine {

struct PagingState {
  common::Bytes partition_prefix;
  common::Bytes last_key;
  int32_t remaining = 0;       // result rows (groups) LIMIT still allows; -1 = no limit
  int32_t partition_rows = 0;  // result rows (groups) already returned from partition_prefix
  bool operator==(const PagingState&) const = default;
};

common::Bytes EncodePagingState(const PagingState& state);
// Invalid ("Invalid value for the paging state") on any malformed input.
common::Result<PagingState> DecodePagingState(std::string_view bytes);

}  // namespace engine
