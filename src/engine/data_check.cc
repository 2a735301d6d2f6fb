#include "engine/data_check.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <set>
#include <system_error>
#include <utility>

#include "common/clock.h"
#include "engine/table_schema.h"
#include "schema/catalog.h"
#include "schema/catalog_codec.h"
#include "schema/catalog_store.h"
#include "storage/store.h"

namespace engine {
namespace {

// Reports one live table or view (and a table's indexes) against the families on disk.
class Checker {
 public:
  Checker(const storage::Store& store, DataCheckReport* report) : store_(store), report_(report) {}

  void Relation(const schema::TableMetadata& table) {
    std::string kind = table.view ? "view" : "table";
    CheckFamily(
        fmt::format("  {} {}.{} (id {})", kind, table.keyspace, table.name, table.id.ToString()),
        table.id);
    ++(table.view ? views : tables);
    for (const auto& [name, index] : table.indexes) {
      CheckFamily(fmt::format("  index {}.{} on {}", table.keyspace, name, table.name), index.id);
      ++indexes;
    }
  }

  // The families on disk that no live table, view or index uses.
  void Orphans(bool quarantined) {
    for (const std::string& id : store_.TableIds()) {
      if (used_.contains(id)) continue;
      report_->lines.push_back(fmt::format(
          "column family {}: no live table, view or index uses it; {}", id,
          quarantined ? "kept while entries are quarantined (it may hold a quarantined table's "
                        "data)"
                      : "dropped at the next start (left over from an interrupted change)"));
    }
  }

  int tables = 0;
  int views = 0;
  int indexes = 0;

 private:
  void CheckFamily(std::string subject, const common::Uuid& id) {
    std::string family = StorageId(id);
    used_.insert(family);
    if (store_.HasTable(family)) {
      report_->lines.push_back(std::move(subject) + ": ok");
      return;
    }
    ++report_->damaged;
    report_->lines.push_back(fmt::format(
        "{}: DAMAGED: its data (column family {}) is missing; the next start creates it empty",
        subject, family));
  }

  const storage::Store& store_;
  DataCheckReport* report_;
  std::set<std::string> used_;
};

std::string SourceLine(const schema::LoadedCatalog& loaded) {
  switch (loaded.source) {
    case schema::LoadedCatalog::Source::kNone:
      return "catalogue: none (an empty data directory)";
    case schema::LoadedCatalog::Source::kLegacy:
      return fmt::format(
          "catalogue: format 1, schema version {} (the next start migrates it to format {})",
          loaded.catalog->schema_version().ToString(), schema::kEntryFormatVersion);
    case schema::LoadedCatalog::Source::kEntries:
      break;
  }
  return fmt::format("catalogue: format {}, schema version {}", schema::kEntryFormatVersion,
                     loaded.catalog->schema_version().ToString());
}

}  // namespace

common::Result<DataCheckReport> CheckDataDirectory(const std::string& directory) {
  // RocksDB creates the directory (and its lock file) before it finds no database there.
  std::error_code error;
  if (!std::filesystem::exists(std::filesystem::path(directory) / "CURRENT", error)) {
    return common::Status::NotFound(fmt::format("{} is not a data directory", directory));
  }
  common::SystemClock clock;
  storage::StoreOptions options;
  options.clock = &clock;
  options.create_if_missing = false;
  options.block_cache_bytes = 0;
  ASSIGN_OR_RETURN(std::unique_ptr<storage::Store> store, storage::Store::Open(directory, options));
  ASSIGN_OR_RETURN(schema::LoadedCatalog loaded, schema::LoadCatalog(*store));
  const schema::Catalog& catalog = *loaded.catalog;

  DataCheckReport report;
  report.lines.push_back(SourceLine(loaded));
  Checker checker(*store, &report);
  int types = 0;
  for (const auto& [ks_name, ks] : catalog.keyspaces()) {
    report.lines.push_back(fmt::format("keyspace {}: ok", ks_name));
    for (const auto& [name, type] : ks->types) {
      report.lines.push_back(fmt::format("  type {}.{}: ok", ks_name, name));
      ++types;
    }
    for (const auto& [name, table] : ks->tables) checker.Relation(*table);
    for (const auto& [name, view] : ks->views) checker.Relation(*view);
  }
  for (const schema::QuarantinedEntry& entry : catalog.quarantined()) {
    ++report.damaged;
    std::string what =
        entry.name.empty() ? entry.keyspace : fmt::format("{}.{}", entry.keyspace, entry.name);
    std::string id = entry.id.IsNil() ? "" : fmt::format(" (id {})", entry.id.ToString());
    report.lines.push_back(fmt::format("QUARANTINED {} {}{}: {}", schema::EntryKindName(entry.kind),
                                       what, id, entry.reason));
  }
  checker.Orphans(!catalog.quarantined().empty());
  report.lines.push_back(
      fmt::format("summary: {} keyspaces, {} types, {} tables, {} views, {} indexes; {} damaged",
                  catalog.keyspaces().size(), types, checker.tables, checker.views, checker.indexes,
                  report.damaged));
  return report;
}

}  // namespace engine
