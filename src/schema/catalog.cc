#include "schema/catalog.h"

#include <utility>

namespace schema {

const ColumnMetadata* TableMetadata::FindColumn(std::string_view column_name) const {
  for (const ColumnMetadata& column : columns) {
    if (column.name == column_name) return &column;
  }
  return nullptr;
}

std::vector<const ColumnMetadata*> TableMetadata::ColumnsOfKind(ColumnKind kind) const {
  std::vector<const ColumnMetadata*> result;
  for (const ColumnMetadata& column : columns) {
    if (column.kind == kind) result.push_back(&column);
  }
  return result;
}

size_t TableMetadata::PartitionKeySize() const {
  return ColumnsOfKind(ColumnKind::kPartitionKey).size();
}

size_t TableMetadata::ClusteringSize() const {
  return ColumnsOfKind(ColumnKind::kClustering).size();
}

const cql::CqlType* KeyspaceMetadata::FindType(std::string_view type_name) const {
  auto it = types.find(type_name);
  return it == types.end() ? nullptr : &it->second;
}

const TableMetadata* KeyspaceMetadata::FindTable(std::string_view table_name) const {
  auto it = tables.find(table_name);
  return it == tables.end() ? nullptr : it->second.get();
}

const TableMetadata* KeyspaceMetadata::FindView(std::string_view view_name) const {
  auto it = views.find(view_name);
  return it == views.end() ? nullptr : it->second.get();
}

const TableMetadata* KeyspaceMetadata::FindTableOrView(std::string_view name) const {
  const TableMetadata* table = FindTable(name);
  return table != nullptr ? table : FindView(name);
}

std::vector<const TableMetadata*> KeyspaceMetadata::ViewsOf(
    const common::Uuid& base_table_id) const {
  std::vector<const TableMetadata*> result;
  for (const auto& [name, view] : views) {
    if (view->view && view->view->base_table_id == base_table_id) result.push_back(view.get());
  }
  return result;
}

const TableMetadata* KeyspaceMetadata::FindIndexedTable(std::string_view index_name) const {
  for (const auto& [name, table] : tables) {
    if (table->indexes.contains(index_name)) return table.get();
  }
  return nullptr;
}

std::string_view EntryKindName(EntryKind kind) {
  switch (kind) {
    case EntryKind::kKeyspace:
      return "keyspace";
    case EntryKind::kType:
      return "type";
    case EntryKind::kTable:
      return "table";
    case EntryKind::kView:
      return "view";
  }
  return "entry";
}

const Catalog::Quarantine& Catalog::quarantined() const {
  static const Quarantine kNone;
  return quarantine_ == nullptr ? kNone : *quarantine_;
}

const QuarantinedEntry* Catalog::FindQuarantined(EntryKind kind, std::string_view keyspace,
                                                 std::string_view name) const {
  auto is_relation = [](EntryKind k) { return k == EntryKind::kTable || k == EntryKind::kView; };
  for (const QuarantinedEntry& entry : quarantined()) {
    bool same_kind = entry.kind == kind || (is_relation(entry.kind) && is_relation(kind));
    if (same_kind && entry.keyspace == keyspace && entry.name == name) return &entry;
  }
  return nullptr;
}

std::shared_ptr<const Catalog> Catalog::Empty() {
  return std::make_shared<const Catalog>(KeyspaceMap{}, common::Uuid::Random());
}

const KeyspaceMetadata* Catalog::FindKeyspace(std::string_view keyspace) const {
  auto it = keyspaces_.find(keyspace);
  return it == keyspaces_.end() ? nullptr : it->second.get();
}

const TableMetadata* Catalog::FindTable(std::string_view keyspace, std::string_view table) const {
  const KeyspaceMetadata* ks = FindKeyspace(keyspace);
  return ks == nullptr ? nullptr : ks->FindTable(table);
}

const cql::CqlType* Catalog::FindType(std::string_view keyspace, std::string_view type_name) const {
  const KeyspaceMetadata* ks = FindKeyspace(keyspace);
  return ks == nullptr ? nullptr : ks->FindType(type_name);
}

const TableMetadata* Catalog::FindTableOrView(std::string_view keyspace,
                                              std::string_view name) const {
  const KeyspaceMetadata* ks = FindKeyspace(keyspace);
  return ks == nullptr ? nullptr : ks->FindTableOrView(name);
}

std::shared_ptr<const Catalog> Catalog::WithKeyspace(
    std::shared_ptr<const KeyspaceMetadata> keyspace) const {
  KeyspaceMap keyspaces = keyspaces_;
  std::string name = keyspace->name;
  keyspaces.insert_or_assign(std::move(name), std::move(keyspace));
  return std::make_shared<const Catalog>(std::move(keyspaces), common::Uuid::Random(), quarantine_);
}

std::shared_ptr<const Catalog> Catalog::WithoutKeyspace(std::string_view name) const {
  KeyspaceMap keyspaces = keyspaces_;
  auto it = keyspaces.find(name);
  if (it != keyspaces.end()) keyspaces.erase(it);
  return std::make_shared<const Catalog>(std::move(keyspaces), common::Uuid::Random(), quarantine_);
}

}  // namespace schema
