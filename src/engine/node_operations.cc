#include "engine/node_operations.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <system_error>
#include <utility>

#include <fmt/format.h>
#include <boost/json.hpp>

#include "common/logging.h"
#include "engine/table_schema.h"

namespace engine {

using common::Result;
using common::Status;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

constexpr char kSnapshotFolder[] = "snapshots";
constexpr char kManifest[] = "manifest.json";
constexpr size_t kMaxTagLength = 200;

// The storage ids of a table or view and of its indexes.
std::vector<std::string> StorageIdsOfTable(const schema::TableMetadata& table) {
  std::vector<std::string> ids = {StorageId(table.id)};
  for (const auto& [name, index] : table.indexes) ids.push_back(StorageId(index.id));
  return ids;
}

// Every table and view of `keyspace`.
std::vector<const schema::TableMetadata*> TablesOf(const schema::KeyspaceMetadata& keyspace) {
  std::vector<const schema::TableMetadata*> tables;
  for (const auto& [name, table] : keyspace.tables) tables.push_back(table.get());
  for (const auto& [name, view] : keyspace.views) tables.push_back(view.get());
  return tables;
}

Status MissingKeyspace(std::string_view keyspace) {
  return Status::Invalid(fmt::format("Keyspace {} does not exist", keyspace));
}

std::string NowIso8601() {
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// The manifest of a snapshot of `catalog` whose checkpoint holds `files`.
json::object MakeManifest(std::string_view tag, const std::vector<std::string>& keyspaces,
                          const schema::Catalog& catalog,
                          const std::vector<storage::Store::CheckpointFile>& files) {
  std::map<std::string, std::vector<std::string>> files_of;  // storage id -> files
  for (const auto& file : files) files_of[file.column_family].push_back(file.name);
  json::array tables;
  for (const auto& [ks_name, keyspace] : catalog.keyspaces()) {
    for (const schema::TableMetadata* table : TablesOf(*keyspace)) {
      json::array names;
      for (const std::string& id : StorageIdsOfTable(*table)) {
        for (const std::string& name : files_of[id]) names.emplace_back(name);
      }
      tables.push_back(
          json::object{{"keyspace", ks_name}, {"table", table->name}, {"files", names}});
    }
  }
  json::array asked;
  for (const std::string& keyspace : keyspaces) asked.emplace_back(keyspace);
  return json::object{{"format", 1},
                      {"tag", tag},
                      {"created_at", NowIso8601()},
                      {"keyspaces", asked},
                      {"schema_version", catalog.schema_version().ToString()},
                      {"tables", tables}};
}

Status WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.flush();
  if (!out) return Status::IOError(fmt::format("cannot write {}", path.string()));
  return Status::Ok();
}

// (device, inode) of a file; nullopt when it cannot be read.
using FileKey = std::pair<uint64_t, uint64_t>;
std::optional<std::pair<FileKey, uint64_t>> StatFile(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  return std::make_pair(FileKey{info.st_dev, info.st_ino}, static_cast<uint64_t>(info.st_size));
}

// The (device, inode) of every file of the live data directory.
std::set<FileKey> LiveFileKeys(const fs::path& data) {
  std::set<FileKey> keys;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(data, error)) {
    if (auto file = StatFile(entry.path())) keys.insert(file->first);
  }
  return keys;
}

// Adds the file `name` of snapshot folder `folder` to `table`'s figures.
void Count(const fs::path& folder, const std::string& name, const std::set<FileKey>& live,
           SnapshotTable* table) {
  auto file = StatFile(folder / name);
  if (!file) return;
  table->disk_bytes += file->second;
  if (live.count(file->first) == 0) table->true_bytes += file->second;
}

std::string StringOf(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->get_string()) : "";
}

// The array `key` of `object`; an empty one when it is missing or not an array.
const json::array& ArrayOf(const json::object& object, std::string_view key) {
  static const json::array kEmpty;
  const json::value* value = object.if_contains(key);
  return value != nullptr && value->is_array() ? value->get_array() : kEmpty;
}

// The details of the snapshot in `folder`, from its manifest (see the header).
SnapshotDetails ReadSnapshot(const fs::path& folder, const std::set<FileKey>& live) {
  SnapshotDetails details;
  details.tag = folder.filename().string();
  std::set<std::string> counted;
  std::ifstream in(folder / kManifest, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code error;
  json::value manifest = json::parse(text.str(), error);
  if (!error && manifest.is_object()) {
    const json::object& object = manifest.get_object();
    details.created_at = StringOf(object, "created_at");
    for (const json::value& keyspace : ArrayOf(object, "keyspaces")) {
      if (keyspace.is_string()) details.keyspaces.emplace_back(keyspace.get_string());
    }
    for (const json::value& entry : ArrayOf(object, "tables")) {
      if (!entry.is_object()) continue;
      SnapshotTable table;
      table.keyspace = StringOf(entry.get_object(), "keyspace");
      table.table = StringOf(entry.get_object(), "table");
      for (const json::value& name : ArrayOf(entry.get_object(), "files")) {
        if (!name.is_string()) continue;
        std::string file(name.get_string());
        if (file.find('/') != std::string::npos || !counted.insert(file).second) continue;
        Count(folder, file, live, &table);
      }
      details.tables.push_back(std::move(table));
    }
  }
  SnapshotTable rest;
  rest.keyspace = "-";
  rest.table = "catalogue";
  std::error_code fs_error;
  for (const auto& entry : fs::directory_iterator(folder, fs_error)) {
    std::string name = entry.path().filename().string();
    if (counted.count(name) == 0) Count(folder, name, live, &rest);
  }
  details.tables.push_back(std::move(rest));
  return details;
}

}  // namespace

std::string NodeOperations::SnapshotRoot(const std::string& data) {
  return (fs::path(data) / kSnapshotFolder).string();
}

Status NodeOperations::ValidateTag(std::string_view tag) {
  bool valid = !tag.empty() && tag.size() <= kMaxTagLength && tag.front() != '.' &&
               !(tag.size() >= 4 && tag.substr(tag.size() - 4) == ".tmp");
  for (char c : tag) {
    valid = valid && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-' || c == '.');
  }
  if (valid) return Status::Ok();
  return Status::Invalid(fmt::format(
      "Invalid snapshot name '{}': use 1 to {} letters, digits, '_', '-' and '.' (not first, "
      "and not ending in .tmp)",
      tag, kMaxTagLength));
}

Result<std::vector<std::string>> NodeOperations::StorageIdsOf(
    std::string_view keyspace, const std::vector<std::string>& tables) const {
  std::shared_ptr<const schema::Catalog> catalog = database_->catalog();
  std::vector<std::string> ids;
  std::vector<const schema::KeyspaceMetadata*> keyspaces;
  if (keyspace.empty()) {
    for (const auto& [name, metadata] : catalog->keyspaces()) keyspaces.push_back(metadata.get());
  } else {
    const schema::KeyspaceMetadata* found = catalog->FindKeyspace(keyspace);
    if (found == nullptr) return MissingKeyspace(keyspace);
    keyspaces.push_back(found);
  }
  for (const schema::KeyspaceMetadata* metadata : keyspaces) {
    std::vector<const schema::TableMetadata*> chosen;
    if (tables.empty()) chosen = TablesOf(*metadata);
    for (const std::string& name : tables) {
      const schema::TableMetadata* table = metadata->FindTableOrView(name);
      if (table == nullptr) {
        return Status::Invalid(fmt::format("Unknown keyspace/cf pair ({}.{})", keyspace, name));
      }
      chosen.push_back(table);
    }
    for (const schema::TableMetadata* table : chosen) {
      for (std::string& id : StorageIdsOfTable(*table)) ids.push_back(std::move(id));
    }
  }
  return ids;
}

Status NodeOperations::Flush(std::string_view keyspace, const std::vector<std::string>& tables) {
  if (keyspace.empty()) return database_->store()->FlushAll();
  ASSIGN_OR_RETURN(std::vector<std::string> ids, StorageIdsOf(keyspace, tables));
  for (const std::string& id : ids) RETURN_IF_ERROR(database_->store()->FlushTable(id));
  return Status::Ok();
}

Status NodeOperations::Compact(std::string_view keyspace, const std::vector<std::string>& tables) {
  ASSIGN_OR_RETURN(std::vector<std::string> ids, StorageIdsOf(keyspace, tables));
  for (const std::string& id : ids) RETURN_IF_ERROR(database_->store()->CompactTable(id));
  return Status::Ok();
}

Status NodeOperations::Snapshot(std::string_view tag, const std::vector<std::string>& keyspaces) {
  RETURN_IF_ERROR(ValidateTag(tag));
  // Read before the checkpoint: a table created meanwhile is in the checkpoint but not listed;
  // one dropped meanwhile is listed without files. (Read after, the opposite.)
  std::shared_ptr<const schema::Catalog> catalog = database_->catalog();
  for (const std::string& keyspace : keyspaces) {
    if (catalog->FindKeyspace(keyspace) == nullptr) return MissingKeyspace(keyspace);
  }
  const fs::path root = SnapshotRoot(database_->directory());
  const fs::path folder = root / std::string(tag);
  std::error_code error;
  if (fs::exists(folder, error)) {
    return Status::AlreadyExists(fmt::format("Snapshot {} already exists.", tag));
  }
  fs::create_directories(root, error);
  if (error) {
    return Status::IOError(fmt::format("cannot create {}: {}", root.string(), error.message()));
  }
  auto files = database_->store()->Checkpoint(folder.string());
  if (!files.ok()) {
    if (files.status().message().find("already exists") != std::string::npos) {
      return Status::AlreadyExists(fmt::format("Snapshot {} already exists.", tag));
    }
    return files.status();
  }
  json::object manifest = MakeManifest(tag, keyspaces, *catalog, *files);
  Status written = WriteFile(folder / kManifest, json::serialize(manifest) + "\n");
  if (!written.ok()) fs::remove_all(folder, error);
  if (written.ok()) LOG_INFO("snapshot {} taken in {}", tag, folder.string());
  return written;
}

Result<std::vector<SnapshotDetails>> NodeOperations::ListSnapshots() const {
  const fs::path root = SnapshotRoot(database_->directory());
  std::vector<SnapshotDetails> snapshots;
  std::error_code error;
  if (!fs::is_directory(root, error)) return snapshots;
  const std::set<FileKey> live = LiveFileKeys(database_->directory());
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(root, error)) {
    std::string name = entry.path().filename().string();
    if (entry.is_directory(error) && ValidateTag(name).ok()) folders.push_back(entry.path());
  }
  if (error)
    return Status::IOError(fmt::format("cannot list {}: {}", root.string(), error.message()));
  std::sort(folders.begin(), folders.end());
  for (const fs::path& folder : folders) snapshots.push_back(ReadSnapshot(folder, live));
  return snapshots;
}

Result<size_t> NodeOperations::ClearSnapshots(std::string_view tag,
                                              const std::vector<std::string>& keyspaces) {
  if (!tag.empty()) RETURN_IF_ERROR(ValidateTag(tag));
  ASSIGN_OR_RETURN(std::vector<SnapshotDetails> snapshots, ListSnapshots());
  const fs::path root = SnapshotRoot(database_->directory());
  size_t removed = 0;
  for (const SnapshotDetails& snapshot : snapshots) {
    if (!tag.empty() && snapshot.tag != tag) continue;
    if (!keyspaces.empty()) {
      bool named = std::any_of(
          snapshot.keyspaces.begin(), snapshot.keyspaces.end(), [&](const std::string& keyspace) {
            return std::find(keyspaces.begin(), keyspaces.end(), keyspace) != keyspaces.end();
          });
      if (!named) continue;
    }
    std::error_code error;
    fs::remove_all(root / snapshot.tag, error);
    if (error) {
      return Status::IOError(
          fmt::format("cannot remove snapshot {}: {}", snapshot.tag, error.message()));
    }
    LOG_INFO("snapshot {} cleared", snapshot.tag);
    ++removed;
  }
  return removed;
}

uint64_t NodeOperations::LoadBytes() const {
  uint64_t bytes = 0;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(database_->directory(), error)) {
    if (auto file = StatFile(entry.path())) bytes += file->second;
  }
  return bytes;
}

}  // namespace engine
