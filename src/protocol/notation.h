// Notation: the compound encodings of native_protocol_v4.spec §3 ([string], [long string],
// [string list], [string map], [string multimap], [bytes map], [value], [consistency]) and the
// column specifications shared by Rows and Prepared results (§4.2.5.2).
//
// Internal to the protocol layer: messages_*.cc build on these. Readers are bounds-checked and
// return ProtocolError on malformed input; writers never fail (strings longer than a [short]
// length allows are cut to 65535 bytes rather than written with a wrong length).
//
// Thread-safety: free functions.

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/session.h"

namespace protocol::internal {

using StringMap = std::vector<std::pair<std::string, std::string>>;
using StringMultimap = std::vector<std::pair<std::string, std::vector<std::string>>>;

// Readers. Each consumes exactly its item from `in`.
common::Result<std::string_view> ReadString(common::ByteReader* in);
// A null (negative length) long string is an error.
common::Result<std::string_view> ReadLongString(common::ByteReader* in);
common::Result<std::vector<std::string>> ReadStringList(common::ByteReader* in);
common::Result<StringMap> ReadStringMap(common::ByteReader* in);
common::Result<StringMultimap> ReadStringMultimap(common::ByteReader* in);
// Skips a [bytes map] (custom payloads are ignored).
common::Status SkipBytesMap(common::ByteReader* in);
// [value]: -1 null, -2 unset, below -2 an error.
common::Result<cql::BoundValue> ReadValue(common::ByteReader* in);
// [bytes] where any negative length is null (RESULT cells, paging states, tokens).
common::Result<std::optional<std::string_view>> ReadNullableBytes(common::ByteReader* in);
// Errors: ProtocolError "Unknown code N for a consistency level".
common::Result<cql::Consistency> ReadConsistency(common::ByteReader* in);

// Writers.
void PutString(std::string_view s, common::ByteWriter* out);
void PutLongString(std::string_view s, common::ByteWriter* out);
void PutStringList(const std::vector<std::string>& list, common::ByteWriter* out);
void PutStringMap(const StringMap& map, common::ByteWriter* out);
void PutStringMultimap(const StringMultimap& map, common::ByteWriter* out);
void PutValue(const cql::BoundValue& value, common::ByteWriter* out);
void PutConsistency(cql::Consistency consistency, common::ByteWriter* out);

// The number of elements a count read from the input can describe when each takes at least
// `min_size` bytes: a safe vector reservation for untrusted counts.
inline size_t SafeReserve(uint64_t count, const common::ByteReader& in, size_t min_size) {
  uint64_t fits = in.remaining() / (min_size == 0 ? 1 : min_size);
  return static_cast<size_t>(count < fits ? count : fits);
}

// Column specifications (§4.2.5.2). Global_tables_spec applies when there is at least one
// column and all share one keyspace and table.
bool AllInOneTable(const std::vector<cql::ColumnSpec>& columns);
// Writes the optional global table spec (when `global`) and every column spec.
void PutColumnSpecs(const std::vector<cql::ColumnSpec>& columns, bool global,
                    common::ByteWriter* out);
// Reads `count` column specs (after the global table spec when `global`).
common::Result<std::vector<cql::ColumnSpec>> ReadColumnSpecs(common::ByteReader* in, uint64_t count,
                                                             bool global);

// The fields of a schema change (RESULT Schema_change and EVENT SCHEMA_CHANGE after its type):
// <change_type><target> then KEYSPACE [ks]; TABLE, TYPE [ks][name]; FUNCTION, AGGREGATE
// [ks][name][string list arg types]. Reading an unknown target is a ProtocolError.
void PutSchemaChange(const cql::SchemaChangeEvent& event, common::ByteWriter* out);
common::Status ReadSchemaChange(common::ByteReader* in, cql::SchemaChangeEvent* event);

}  // namespace protocol::internal
