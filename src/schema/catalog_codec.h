// Catalog codec: the persistent binary forms of the schema (`catalog.h`).
//
// Format 2 (current) stores the catalogue as one entry per keyspace, user type, table and view
// plus a manifest listing them (catalog_store.h keeps them in the storage meta family), so one
// entry that cannot be read quarantines that object only. Format 1, EncodeCatalog's single
// snapshot under one key, is what earlier versions wrote; it is still decoded (and migrated)
// when a data directory is opened (docs/dev/storage_format.md; docs/dev/architecture.md §4). Both
// are private to cqld and versioned by their first byte (kCatalogFormatVersion,
// kEntryFormatVersion); they keep everything in a Catalog, including the exact frozen-ness of every
// nested type (unlike the protocol's [option] encoding of `cql/types/type_codec.h`), table/view
// options with their `other` properties, dropped columns, indexes and materialized-view
// definitions. A view's WHERE relations are stored as its `where_clause` text and re-parsed on
// decode.
//
// Format 1 layout (all integers big-endian): u8 version, 16-byte schema_version, u32 keyspace
// count, then per keyspace: name, replication map, durable_writes, types, tables, views.
// Strings are u32 length + bytes. Types are trees of (u8 frozen flag, u16 kind, kind-specific
// body). Format 2 entries are u8 version (2), u8 EntryKind, then the same body as format 1
// gives that object (a keyspace entry holds only name, replication and durable_writes; a type
// entry its keyspace and the UDT); docs/dev/storage_format.md has the bytes.
//
// Type depth: every decoder reads at most 256 levels (the most any version could store), and
// the entry decoders refuse a type deeper than cql::kMaxTypeDepth, the limit the DDL enforces.
//
// Thread-safety: pure functions; safe from any thread.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/result.h"
#include "schema/catalog.h"

namespace schema {

inline constexpr uint8_t kCatalogFormatVersion = 1;

// The persistent form of `catalog`. Deterministic: equal catalogues give equal bytes.
common::Bytes EncodeCatalog(const Catalog& catalog);

// The catalogue encoded in `bytes` (with its stored schema_version). Any malformed, truncated
// or trailing input, an unknown format version, a type nesting deeper than 256 levels or an
// unparsable view WHERE clause gives Corruption; never crashes or reads past the input. Types
// deeper than cql::kMaxTypeDepth decode: the caller decides (catalog_store.h quarantines).
common::Result<std::shared_ptr<const Catalog>> DecodeCatalog(std::string_view bytes);

// ---- Format 2 ----

inline constexpr uint8_t kEntryFormatVersion = 2;

// The entries of one object each. Deterministic. A keyspace entry leaves out the keyspace's
// types, tables and views (entries of their own); a table entry holds the table's indexes.
common::Bytes EncodeKeyspaceEntry(const KeyspaceMetadata& keyspace);
common::Bytes EncodeTypeEntry(std::string_view keyspace, const cql::CqlType& udt);
// A table's or a view's entry (EntryKind::kView when `table.view` is set).
common::Bytes EncodeTableEntry(const TableMetadata& table);

// Decoders of the entries above. Each gives Corruption "Corrupted schema catalogue: ..."
// on malformed, truncated or trailing input, an unknown version, an entry of another kind, a
// type deeper than cql::kMaxTypeDepth (the message names the type or column), and for a type
// entry one that is not a UDT of `keyspace`. Never crash or read past the input. The keyspace
// comes back without types, tables or views.
common::Result<std::shared_ptr<KeyspaceMetadata>> DecodeKeyspaceEntry(std::string_view bytes);
common::Result<cql::CqlType> DecodeTypeEntry(std::string_view bytes, std::string_view keyspace);
// REQUIRES: kind is kTable or kView.
common::Result<std::shared_ptr<TableMetadata>> DecodeTableEntry(std::string_view bytes,
                                                                EntryKind kind);

// Corruption naming the first column or dropped column of `table` whose type is deeper than
// cql::kMaxTypeDepth; OK otherwise.
common::Status CheckTableTypeDepths(const TableMetadata& table);

// One line of the manifest: an entry that exists (or existed and is quarantined).
struct ManifestEntry {
  EntryKind kind = EntryKind::kKeyspace;
  std::string keyspace;
  std::string name;  // empty for a keyspace
  common::Uuid id;   // a table's or view's id; nil for keyspaces and types
  bool operator==(const ManifestEntry&) const = default;
};

// The manifest: the schema_version and every entry, in the order written.
struct CatalogManifest {
  common::Uuid schema_version;
  std::vector<ManifestEntry> entries;
  bool operator==(const CatalogManifest&) const = default;
};

common::Bytes EncodeManifest(const CatalogManifest& manifest);
// Corruption on malformed, truncated or trailing input or an unknown version or kind.
common::Result<CatalogManifest> DecodeManifest(std::string_view bytes);

}  // namespace schema
