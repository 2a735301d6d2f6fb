// Type codec: the native protocol's [option] encoding of a CqlType (native_protocol_v4.spec
// §4.2.5.2, plus `duration` 0x0015 of v5) and Cassandra's marshal class names
// ("org.apache.cassandra.db.marshal.Int32Type", "...ListType(...)", "...UserType(ks,hex,...)").
//
// Used by the protocol layer (result metadata, prepared metadata) and by the schema layer
// (system_schema tables that show marshal names). Vectors travel as a Custom [option] whose
// class name is "org.apache.cassandra.db.marshal.VectorType(<element class>,<dimension>)";
// decoding turns that form back into a vector type.
//
// Frozen-ness is NOT carried by the protocol: DecodeTypeOption gives non-frozen (frozen=false)
// lists, sets, maps and UDTs at every level (tuples and vectors are always frozen). Callers that
// need exact frozen-ness (the catalogue's persistence) use their own encoding.
//
// Thread-safety: pure functions; safe from any thread.

#pragma once

#include <string>
#include <string_view>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/types/type_depth.h"
#include "cql/types/types.h"

namespace cql {

// Nesting depth beyond which decoding refuses input: the decoders' share of the one type-depth
// limit (cql/types/type_depth.h), so every type the schema accepts decodes.
inline constexpr int kMaxTypeNestingDepth = kMaxDecodedTypeDepth;

// Appends the [option] of `type`. REQUIRES: `type` is resolved (no UdtRef) and every name
// (keyspace, UDT and field names, custom class) is at most 65535 bytes long.
void EncodeTypeOption(const CqlType& type, common::ByteWriter* out);

// Reads one [option] from `in`. Fails with Invalid and a message saying what is wrong on
// truncated input, an unknown type id, nesting deeper than kMaxTypeNestingDepth or a malformed
// VectorType class name; never reads past the input. Collections and UDTs come back non-frozen.
common::Result<CqlType> DecodeTypeOption(common::ByteReader* in);

// Cassandra's marshal class name (AbstractType.toString()) of `type`, fully qualified:
// "org.apache.cassandra.db.marshal.UTF8Type", "...FrozenType(...ListType(...Int32Type))",
// "...MapType(...UTF8Type,...FrozenType(...UserType(ks,61646472657373,...)))",
// "...TupleType(...)", "...VectorType(...FloatType,3)"; custom types give their class name.
// Inside a frozen type, nested types are printed without FrozenType, as Cassandra does.
// REQUIRES: `type` is resolved.
std::string MarshalClassName(const CqlType& type);

// Parses a marshal class name as MarshalClassName prints it (the package prefix may be
// omitted, as Cassandra's TypeParser allows). Unknown class names give Custom(name) when they
// have no parameters. Fails with Invalid on malformed text or nesting deeper than
// kMaxTypeNestingDepth.
common::Result<CqlType> ParseMarshalClassName(std::string_view text);

}  // namespace cql
