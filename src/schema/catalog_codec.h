// Catalog codec: the persistent binary form of a whole schema snapshot (`catalog.h`).
//
// The engine stores EncodeCatalog's bytes under one key of the storage meta family after each
// DDL and decodes them when it opens a data directory (ARCHITECTURE.md §4.2, §7). The format
// is private to cqld and versioned by its first byte (kCatalogFormatVersion); it keeps
// everything in a Catalog, including the exact frozen-ness of every nested type (unlike the
// protocol's [option] encoding of `cql/type_codec.h`), table/view options with their `other`
// properties, dropped columns, indexes and materialized-view definitions. A view's WHERE
// relations are stored as its `where_clause` text and re-parsed on decode.
//
// Layout (all integers big-endian): u8 version, 16-byte schema_version, u32 keyspace count,
// then per keyspace: name, replication map, durable_writes, types, tables, views. Strings are
// u32 length + bytes. Types are trees of (u8 frozen flag, u16 kind, kind-specific body).
//
// Thread-safety: pure functions; safe from any thread.

#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "common/bytes.h"
#include "common/result.h"
#include "schema/catalog.h"

namespace schema {

inline constexpr uint8_t kCatalogFormatVersion = 1;

// The persistent form of `catalog`. Deterministic: equal catalogues give equal bytes.
common::Bytes EncodeCatalog(const Catalog& catalog);

// The catalogue encoded in `bytes` (with its stored schema_version). Any malformed, truncated
// or trailing input, an unknown format version, a type nesting deeper than 64 levels or an
// unparsable view WHERE clause gives Corruption; never crashes or reads past the input.
common::Result<std::shared_ptr<const Catalog>> DecodeCatalog(std::string_view bytes);

}  // namespace schema
