#include "schema/catalog_store.h"

#include <fmt/format.h>

#include <array>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "common/logging.h"
#include "schema/catalog_codec.h"
#include "schema/type_resolver.h"

namespace schema {
namespace {

using common::Bytes;
using common::Result;
using common::Status;

constexpr std::array<EntryKind, 4> kLoadOrder = {EntryKind::kKeyspace, EntryKind::kType,
                                                 EntryKind::kTable, EntryKind::kView};

std::string Describe(EntryKind kind, std::string_view keyspace, std::string_view name) {
  if (kind == EntryKind::kKeyspace) return fmt::format("keyspace {}", keyspace);
  return fmt::format("{} {}.{}", EntryKindName(kind), keyspace, name);
}

// One entry of a catalogue: its manifest line and its bytes.
struct EncodedEntry {
  ManifestEntry line;
  Bytes bytes;
};

// Every entry of `catalog`, by meta key.
std::map<std::string, EncodedEntry> EncodeEntries(const Catalog& catalog) {
  std::map<std::string, EncodedEntry> entries;
  auto add = [&](EntryKind kind, const std::string& keyspace, const std::string& name,
                 const common::Uuid& id, Bytes bytes) {
    entries[CatalogEntryKey(kind, keyspace, name)] =
        EncodedEntry{ManifestEntry{kind, keyspace, name, id}, std::move(bytes)};
  };
  for (const auto& [ks_name, ks] : catalog.keyspaces()) {
    add(EntryKind::kKeyspace, ks_name, "", common::Uuid(), EncodeKeyspaceEntry(*ks));
    for (const auto& [name, type] : ks->types) {
      add(EntryKind::kType, ks_name, name, common::Uuid(), EncodeTypeEntry(ks_name, type));
    }
    for (const auto& [name, table] : ks->tables) {
      add(EntryKind::kTable, ks_name, name, table->id, EncodeTableEntry(*table));
    }
    for (const auto& [name, view] : ks->views) {
      add(EntryKind::kView, ks_name, name, view->id, EncodeTableEntry(*view));
    }
  }
  return entries;
}

// OK when `entry`'s bytes decode to exactly the object of `catalog` they were encoded from
// and encode again to the same bytes; Corruption saying what differs otherwise.
Status VerifyEntry(const Catalog& catalog, const EncodedEntry& entry) {
  const ManifestEntry& line = entry.line;
  const KeyspaceMetadata* ks = catalog.FindKeyspace(line.keyspace);
  if (ks == nullptr) return Status::Corruption("no such keyspace");
  Bytes again;
  bool same = false;
  switch (line.kind) {
    case EntryKind::kKeyspace: {
      ASSIGN_OR_RETURN(std::shared_ptr<KeyspaceMetadata> decoded, DecodeKeyspaceEntry(entry.bytes));
      same = decoded->name == ks->name && decoded->replication == ks->replication &&
             decoded->durable_writes == ks->durable_writes;
      again = EncodeKeyspaceEntry(*decoded);
      break;
    }
    case EntryKind::kType: {
      ASSIGN_OR_RETURN(cql::CqlType decoded, DecodeTypeEntry(entry.bytes, line.keyspace));
      const cql::CqlType* type = ks->FindType(line.name);
      same = type != nullptr && decoded == *type;
      again = EncodeTypeEntry(line.keyspace, decoded);
      break;
    }
    case EntryKind::kTable:
    case EntryKind::kView: {
      ASSIGN_OR_RETURN(std::shared_ptr<TableMetadata> decoded,
                       DecodeTableEntry(entry.bytes, line.kind));
      const TableMetadata* table = ks->FindTableOrView(line.name);
      same = table != nullptr && *decoded == *table;
      again = EncodeTableEntry(*decoded);
      break;
    }
  }
  if (!same) return Status::Corruption("it decodes to a different definition");
  if (again != entry.bytes) return Status::Corruption("it encodes differently once decoded");
  return Status::Ok();
}

// Collects what loads into a catalogue and what is quarantined, checking each entry against
// the ones it depends on (its keyspace; a view's base table).
class CatalogBuilder {
 public:
  void Quarantine(const ManifestEntry& line, std::string reason) {
    LOG_ERROR(
        "quarantined {}{}: its stored definition cannot be used: {}. It is left out of the "
        "schema; its definition and data are kept on disk (see `cqld --data DIR --check`)",
        Describe(line.kind, line.keyspace, line.name),
        line.id.IsNil() ? "" : fmt::format(" (id {})", line.id.ToString()), reason);
    quarantine_.push_back(
        QuarantinedEntry{line.kind, line.keyspace, line.name, line.id, std::move(reason)});
  }

  void AddKeyspace(const ManifestEntry& line, std::shared_ptr<KeyspaceMetadata> keyspace) {
    if (keyspace->name != line.keyspace) {
      return Quarantine(line, fmt::format("the entry holds keyspace {}", keyspace->name));
    }
    if (keyspaces_.contains(line.keyspace)) return Quarantine(line, "duplicate keyspace");
    keyspaces_.emplace(line.keyspace, std::move(keyspace));
  }

  void AddType(const ManifestEntry& line, cql::CqlType type) {
    KeyspaceMetadata* ks = LiveKeyspace(line);
    if (ks == nullptr) return;
    if (type.name() != line.name) {
      return Quarantine(line, fmt::format("the entry holds type {}", type.name()));
    }
    if (!ks->types.emplace(line.name, std::move(type)).second) {
      Quarantine(line, "duplicate type");
    }
  }

  void AddTable(const ManifestEntry& line, std::shared_ptr<TableMetadata> table) {
    KeyspaceMetadata* ks = LiveKeyspace(line);
    if (ks == nullptr) return;
    if (table->keyspace != line.keyspace || table->name != line.name || table->id != line.id) {
      return Quarantine(line, fmt::format("the entry holds {}.{} (id {})", table->keyspace,
                                          table->name, table->id.ToString()));
    }
    if (table->view) {
      const TableMetadata* base = ks->FindTable(table->view->base_table_name);
      if (base == nullptr || base->id != table->view->base_table_id) {
        return Quarantine(line, fmt::format("its base table {}.{} is missing or quarantined",
                                            line.keyspace, table->view->base_table_name));
      }
    }
    if (ks->FindTableOrView(line.name) != nullptr) return Quarantine(line, "duplicate name");
    auto& tables = table->view ? ks->views : ks->tables;
    tables.emplace(line.name, std::move(table));
  }

  std::shared_ptr<const Catalog> Build(const common::Uuid& schema_version) {
    Catalog::KeyspaceMap keyspaces;
    for (auto& [name, ks] : keyspaces_) keyspaces.emplace(name, std::move(ks));
    std::shared_ptr<const Catalog::Quarantine> quarantine;
    if (!quarantine_.empty()) {
      quarantine = std::make_shared<const Catalog::Quarantine>(std::move(quarantine_));
    }
    return std::make_shared<const Catalog>(std::move(keyspaces), schema_version,
                                           std::move(quarantine));
  }

 private:
  KeyspaceMetadata* LiveKeyspace(const ManifestEntry& line) {
    auto it = keyspaces_.find(line.keyspace);
    if (it != keyspaces_.end()) return it->second.get();
    Quarantine(line, fmt::format("its keyspace {} is missing or quarantined", line.keyspace));
    return nullptr;
  }

  std::map<std::string, std::shared_ptr<KeyspaceMetadata>> keyspaces_;
  Catalog::Quarantine quarantine_;
};

// Decodes the entry of `line` from `bytes` into `builder`, or quarantines it.
void LoadEntry(const ManifestEntry& line, std::string_view bytes, CatalogBuilder* builder) {
  switch (line.kind) {
    case EntryKind::kKeyspace: {
      auto keyspace = DecodeKeyspaceEntry(bytes);
      if (!keyspace.ok()) return builder->Quarantine(line, keyspace.status().message());
      return builder->AddKeyspace(line, std::move(keyspace).value());
    }
    case EntryKind::kType: {
      auto type = DecodeTypeEntry(bytes, line.keyspace);
      if (!type.ok()) return builder->Quarantine(line, type.status().message());
      return builder->AddType(line, std::move(type).value());
    }
    case EntryKind::kTable:
    case EntryKind::kView: {
      auto table = DecodeTableEntry(bytes, line.kind);
      if (!table.ok()) return builder->Quarantine(line, table.status().message());
      return builder->AddTable(line, std::move(table).value());
    }
  }
}

Result<LoadedCatalog> LoadEntries(const storage::Store& store, std::string_view manifest_bytes) {
  ASSIGN_OR_RETURN(CatalogManifest manifest, DecodeManifest(manifest_bytes));
  CatalogBuilder builder;
  std::set<std::string> seen;
  for (EntryKind kind : kLoadOrder) {
    for (const ManifestEntry& line : manifest.entries) {
      if (line.kind != kind) continue;
      std::string key = CatalogEntryKey(line.kind, line.keyspace, line.name);
      if (!seen.insert(key).second) continue;  // listed twice: the first line is the entry
      Result<std::optional<Bytes>> value = store.GetMeta(key);
      if (!value.ok()) {
        builder.Quarantine(line, value.status().ToString());
      } else if (!value->has_value()) {
        builder.Quarantine(line, "its entry is missing");
      } else {
        LoadEntry(line, **value, &builder);
      }
    }
  }
  LoadedCatalog loaded;
  loaded.source = LoadedCatalog::Source::kEntries;
  loaded.catalog = builder.Build(manifest.schema_version);
  return loaded;
}

// Format 1: one value. Anything malformed fails it whole; what decodes but breaks a rule (a
// type too deep, e.g. written before the limit existed; a view of such a table) is quarantined
// entry by entry.
Result<LoadedCatalog> LoadLegacy(std::string_view bytes) {
  ASSIGN_OR_RETURN(std::shared_ptr<const Catalog> decoded, DecodeCatalog(bytes));
  CatalogBuilder builder;
  for (const auto& [ks_name, ks] : decoded->keyspaces()) {
    auto keyspace = std::make_shared<KeyspaceMetadata>();
    keyspace->name = ks->name;
    keyspace->replication = ks->replication;
    keyspace->durable_writes = ks->durable_writes;
    builder.AddKeyspace(ManifestEntry{EntryKind::kKeyspace, ks_name, "", {}}, keyspace);
    for (const auto& [name, type] : ks->types) {
      ManifestEntry line{EntryKind::kType, ks_name, name, {}};
      Status depth = CheckTypeDepth(type, fmt::format("Type {}.{}", ks_name, name));
      if (!depth.ok()) {
        builder.Quarantine(line, depth.message());
      } else {
        builder.AddType(line, type);
      }
    }
    for (const auto* tables : {&ks->tables, &ks->views}) {
      for (const auto& [name, table] : *tables) {
        ManifestEntry line{table->view ? EntryKind::kView : EntryKind::kTable, ks_name, name,
                           table->id};
        Status depth = CheckTableTypeDepths(*table);
        if (!depth.ok()) {
          builder.Quarantine(line, depth.message());
        } else {
          builder.AddTable(line, std::make_shared<TableMetadata>(*table));
        }
      }
    }
  }
  LoadedCatalog loaded;
  loaded.source = LoadedCatalog::Source::kLegacy;
  loaded.catalog = builder.Build(decoded->schema_version());
  auto migration = PlanCatalogWrite(*Catalog::Empty(), *loaded.catalog);
  if (!migration.ok()) {
    return Status::Corruption(fmt::format("Cannot migrate the schema catalogue to format {}: {}",
                                          kEntryFormatVersion, migration.status().message()));
  }
  loaded.migration = std::move(migration).value();
  // Quarantined objects are written too, as they were: they decode as format 2 entries and are
  // quarantined again there for the same reason, so the migration loses nothing.
  std::map<std::string, EncodedEntry> everything = EncodeEntries(*decoded);
  for (const QuarantinedEntry& entry : loaded.catalog->quarantined()) {
    auto it = everything.find(CatalogEntryKey(entry.kind, entry.keyspace, entry.name));
    if (it != everything.end()) loaded.migration.PutMeta(it->first, it->second.bytes);
  }
  return loaded;
}

}  // namespace

std::string CatalogEntryKey(EntryKind kind, std::string_view keyspace, std::string_view name) {
  common::ByteWriter out;
  out.PutRaw("catalog2/");
  out.PutRaw(EntryKindName(kind));
  out.PutRaw("/");
  out.PutU32(static_cast<uint32_t>(keyspace.size()));
  out.PutRaw(keyspace);
  out.PutRaw(name);
  return out.Release();
}

Result<LoadedCatalog> LoadCatalog(const storage::Store& store) {
  ASSIGN_OR_RETURN(std::optional<Bytes> manifest, store.GetMeta(kCatalogManifestKey));
  if (manifest) return LoadEntries(store, *manifest);
  ASSIGN_OR_RETURN(std::optional<Bytes> legacy, store.GetMeta(kLegacyCatalogKey));
  if (legacy) return LoadLegacy(*legacy);
  LoadedCatalog loaded;
  loaded.catalog = Catalog::Empty();
  return loaded;
}

Result<storage::WriteBatch> PlanCatalogWrite(const Catalog& old_catalog,
                                             const Catalog& new_catalog) {
  std::map<std::string, EncodedEntry> before = EncodeEntries(old_catalog);
  std::map<std::string, EncodedEntry> after = EncodeEntries(new_catalog);
  std::set<std::string> quarantined_keys;
  CatalogManifest manifest{new_catalog.schema_version(), {}};
  for (const QuarantinedEntry& entry : new_catalog.quarantined()) {
    quarantined_keys.insert(CatalogEntryKey(entry.kind, entry.keyspace, entry.name));
  }
  storage::WriteBatch batch;
  for (const auto& [key, entry] : after) {
    const ManifestEntry& line = entry.line;
    auto refuse = [&](std::string_view why) {
      return Status::Invalid(fmt::format(
          "Schema change refused: the new definition of {} could not be read back ({}); "
          "nothing was changed",
          Describe(line.kind, line.keyspace, line.name), why));
    };
    if (quarantined_keys.contains(key)) return refuse("a quarantined entry holds its name");
    auto old = before.find(key);
    if (old == before.end() || old->second.bytes != entry.bytes) {
      Status verified = VerifyEntry(new_catalog, entry);
      if (!verified.ok()) return refuse(verified.message());
      batch.PutMeta(key, entry.bytes);
    }
    manifest.entries.push_back(line);
  }
  for (const auto& [key, entry] : before) {
    if (!after.contains(key)) batch.DeleteMeta(key);
  }
  for (const QuarantinedEntry& entry : new_catalog.quarantined()) {
    manifest.entries.push_back(ManifestEntry{entry.kind, entry.keyspace, entry.name, entry.id});
  }
  Bytes manifest_bytes = EncodeManifest(manifest);
  auto decoded = DecodeManifest(manifest_bytes);
  if (!decoded.ok() || !(*decoded == manifest)) {
    return Status::Invalid(
        "Schema change refused: the new catalogue manifest could not be read back; nothing was "
        "changed");
  }
  batch.PutMeta(kCatalogManifestKey, manifest_bytes);
  return batch;
}

}  // namespace schema
