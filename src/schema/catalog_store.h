// Catalog store: where the catalogue lives in the storage meta family, how a data directory's
// catalogue is loaded (quarantining what cannot be read), and how a schema change is
// persisted (only after every entry it writes has been decoded back). The engine calls these
// from `Database::Open` and its DDL path; `cqld --check` (engine/data_check.h) loads without
// writing.
//
// Meta keys (bytes in docs/dev/storage_format.md):
//   "catalog"            format 1: the whole catalogue in one value (earlier versions). Read
//                        only when there is no manifest; never written or deleted.
//   "catalog2/manifest"  format 2 manifest: schema_version and the list of entries.
//   "catalog2/<kind>/" u32 keyspace length ‖ keyspace ‖ name   one format 2 entry.
//
// Invariants:
// 1. Every schema change writes the entries that changed, deletes the ones that are gone and
//    rewrites the manifest, all in one atomic storage batch.
// 2. No entry or manifest is written unless its bytes decode back to exactly what was encoded
//    (PlanCatalogWrite): a change the next open could not read is refused, not persisted.
// 3. Quarantined entries are never written or deleted: they stay listed in every later
//    manifest, their bytes untouched, so a fixed version can still read them.
// 4. Opening never fails because of one entry: an entry that is missing, does not decode,
//    nests a type deeper than cql::kMaxTypeDepth, or whose keyspace (for a view: base table)
//    is missing or quarantined, is quarantined; the rest loads. Only an unreadable manifest
//    (or an unreadable format 1 value, which has no entries to isolate) fails the load.
//
// Thread-safety: pure functions over the given store and catalogues; `Store` is thread-safe.
// The caller serializes schema changes (the engine's schema mutex).

#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "common/result.h"
#include "schema/catalog.h"
#include "storage/store.h"

namespace schema {

inline constexpr std::string_view kLegacyCatalogKey = "catalog";
inline constexpr std::string_view kCatalogManifestKey = "catalog2/manifest";

// The meta key of the entry of `kind` named `name` in `keyspace` (`name` empty for a keyspace).
std::string CatalogEntryKey(EntryKind kind, std::string_view keyspace, std::string_view name);

struct LoadedCatalog {
  enum class Source : uint8_t {
    kNone,     // a new data directory: the empty catalogue
    kLegacy,   // format 1; `migration` writes it as format 2
    kEntries,  // format 2
  };
  Source source = Source::kNone;
  // Everything readable, with the quarantined entries in `quarantined()`.
  std::shared_ptr<const Catalog> catalog;
  // For kLegacy: the format 2 entries (quarantined ones included, when they decoded) and
  // manifest to write; the format 1 value stays. Empty otherwise.
  storage::WriteBatch migration;
};

// Loads the catalogue of `store` (see the invariants). Errors: the store's read errors;
// Corruption when the manifest or a format 1 value cannot be decoded at all, or when the
// migration of a format 1 catalogue does not decode back.
common::Result<LoadedCatalog> LoadCatalog(const storage::Store& store);

// The meta operations that take the persisted catalogue from `old_catalog` (what is stored
// now) to `new_catalog`: puts of new and changed entries, deletes of removed ones, and the
// new manifest (new_catalog's schema_version, its entries and its quarantined entries).
// Every entry written is decoded back and compared with the metadata it encodes first.
// Errors: Invalid "Schema change refused: the new definition of table k.t could not be read
// back (...); nothing was changed" when any does not, or when a live entry would take a
// quarantined entry's key.
common::Result<storage::WriteBatch> PlanCatalogWrite(const Catalog& old_catalog,
                                                     const Catalog& new_catalog);

}  // namespace schema
