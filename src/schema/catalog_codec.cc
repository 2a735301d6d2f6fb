#include "schema/catalog_codec.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cql/parser/parser.h"
#include "cql/parser/statement.h"
#include "schema/type_resolver.h"

namespace schema {
namespace {

using common::Status;
using cql::CqlType;
using cql::TypeKind;

// Decoding stops past this nesting: the deepest type any version could have stored (before
// cql::kMaxTypeDepth existed, the parser allowed 256 levels). Decoders then check the real limit
// per entry, so a too-deep type quarantines its table instead of failing the whole catalogue.
constexpr int kMaxStoredTypeDepth = 256;
constexpr uint8_t kFrozenFlag = 0x01;

// ---- encoding ----

class Encoder {
 public:
  void String(std::string_view text) {
    out_.PutU32(static_cast<uint32_t>(text.size()));
    out_.PutRaw(text);
  }
  void U8(uint8_t v) { out_.PutU8(v); }
  void U32(uint32_t v) { out_.PutU32(v); }
  void I32(int32_t v) { out_.PutI32(v); }
  void I64(int64_t v) { out_.PutI64(v); }
  void Bool(bool v) { out_.PutU8(v ? 1 : 0); }
  void Count(size_t n) { out_.PutU32(static_cast<uint32_t>(n)); }
  void Id(const common::Uuid& id) { out_.PutRaw(id.ToBytes()); }

  void StringMap(const std::map<std::string, std::string>& map) {
    Count(map.size());
    for (const auto& [key, value] : map) {
      String(key);
      String(value);
    }
  }

  void Type(const CqlType& type) {
    U8(type.frozen() ? kFrozenFlag : 0);
    out_.PutU16(static_cast<uint16_t>(type.kind()));
    switch (type.kind()) {
      case TypeKind::kCustom:
        String(type.name());
        return;
      case TypeKind::kList:
      case TypeKind::kSet:
        Type(type.element());
        return;
      case TypeKind::kMap:
        Type(type.key());
        Type(type.value());
        return;
      case TypeKind::kUdt:
        String(type.keyspace());
        String(type.name());
        Count(type.params().size());
        for (size_t i = 0; i < type.params().size(); ++i) {
          String(i < type.field_names().size() ? type.field_names()[i] : "");
          Type(type.params()[i]);
        }
        return;
      case TypeKind::kTuple:
        Count(type.params().size());
        for (const CqlType& element : type.params()) Type(element);
        return;
      case TypeKind::kVector:
        I32(type.dimension());
        Type(type.element());
        return;
      default:
        return;
    }
  }

  void Constant(const cql::Constant& constant) {
    U8(static_cast<uint8_t>(constant.kind));
    String(constant.text);
  }

  void Property(const cql::Property& property) {
    String(property.name);
    U8(static_cast<uint8_t>(property.value.kind));
    Constant(property.value.constant);
    Count(property.value.entries.size());
    for (const auto& [key, value] : property.value.entries) {
      Constant(key);
      Constant(value);
    }
  }

  void Table(const TableMetadata& table) {
    Id(table.id);
    String(table.keyspace);
    String(table.name);
    Count(table.columns.size());
    for (const ColumnMetadata& column : table.columns) {
      String(column.name);
      Type(column.type);
      U8(static_cast<uint8_t>(column.kind));
      I32(column.position);
      U8(static_cast<uint8_t>(column.order));
      U32(column.column_id);
    }
    Bool(table.is_counter);
    String(table.options.comment);
    I32(table.options.default_time_to_live);
    I32(table.options.gc_grace_seconds);
    Count(table.options.other.size());
    for (const cql::Property& property : table.options.other) Property(property);
    U32(table.next_column_id);
    Count(table.dropped_columns.size());
    for (const auto& [name, dropped] : table.dropped_columns) {
      String(dropped.name);
      Type(dropped.type);
      U8(static_cast<uint8_t>(dropped.kind));
      I64(dropped.dropped_time_micros);
    }
    Count(table.indexes.size());
    for (const auto& [name, index] : table.indexes) {
      Id(index.id);
      String(index.name);
      String(index.column);
      U8(static_cast<uint8_t>(index.target));
      String(index.kind);
      StringMap(index.options);
    }
    Bool(table.view.has_value());
    if (table.view) {
      Id(table.view->base_table_id);
      String(table.view->base_table_name);
      Bool(table.view->include_all_columns);
      String(table.view->where_clause);
    }
  }

  common::Bytes Release() { return out_.Release(); }

 private:
  common::ByteWriter out_;
};

// ---- decoding ----

Status Corrupt(std::string_view what) {
  return Status::Corruption(fmt::format("Corrupted schema catalogue: {}", what));
}

// What every table the DDL builds satisfies and the engine and DESCRIBE rely on (a key shape
// with at least one partition-key column, key positions 0..n-1 each used once, unique column
// names and ids, indexes on existing columns). A decoded table that breaks one is corrupt.
Status CheckTableStructure(const TableMetadata& table) {
  std::vector<int> partition_positions;
  std::vector<int> clustering_positions;
  std::set<std::string_view> names;
  std::set<uint32_t> ids;
  for (const ColumnMetadata& column : table.columns) {
    if (column.name.empty() || !names.insert(column.name).second) {
      return Corrupt("empty or duplicate column name");
    }
    if (!ids.insert(column.column_id).second || column.column_id >= table.next_column_id) {
      return Corrupt("duplicate or unallocated column id");
    }
    if (column.kind == ColumnKind::kPartitionKey) partition_positions.push_back(column.position);
    if (column.kind == ColumnKind::kClustering) clustering_positions.push_back(column.position);
  }
  if (partition_positions.empty()) return Corrupt("table without a partition key");
  for (std::vector<int>* positions : {&partition_positions, &clustering_positions}) {
    std::sort(positions->begin(), positions->end());
    for (size_t i = 0; i < positions->size(); ++i) {
      if ((*positions)[i] != static_cast<int>(i)) return Corrupt("key column positions");
    }
  }
  for (const auto& [name, index] : table.indexes) {
    if (!names.contains(index.column)) return Corrupt("index on a column the table lacks");
  }
  return Status::Ok();
}

class Decoder {
 public:
  explicit Decoder(std::string_view bytes) : in_(bytes) {}

  bool AtEnd() const { return in_.empty(); }

  common::Result<uint8_t> U8(std::string_view what) { return Check(in_.ReadU8(), what); }
  common::Result<uint32_t> U32(std::string_view what) { return Check(in_.ReadU32(), what); }
  common::Result<int32_t> I32(std::string_view what) { return Check(in_.ReadI32(), what); }
  common::Result<int64_t> I64(std::string_view what) { return Check(in_.ReadI64(), what); }

  common::Result<bool> Bool(std::string_view what) {
    ASSIGN_OR_RETURN(uint8_t v, U8(what));
    if (v > 1) return Corrupt(fmt::format("bad boolean {} for {}", v, what));
    return v == 1;
  }

  // An element count; every element takes at least one byte, which bounds allocations.
  common::Result<uint32_t> Count(std::string_view what) {
    ASSIGN_OR_RETURN(uint32_t n, U32(what));
    if (n > in_.remaining()) return Corrupt(fmt::format("count {} too large for {}", n, what));
    return n;
  }

  common::Result<std::string> String(std::string_view what) {
    ASSIGN_OR_RETURN(uint32_t size, U32(what));
    ASSIGN_OR_RETURN(std::string_view bytes, Check(in_.ReadRaw(size), what));
    return std::string(bytes);
  }

  common::Result<common::Uuid> Id(std::string_view what) {
    ASSIGN_OR_RETURN(std::string_view bytes, Check(in_.ReadRaw(common::Uuid::kSize), what));
    auto id = common::Uuid::FromBytes(bytes);
    if (!id.ok()) return Corrupt(what);
    return id.value();
  }

  common::Result<std::map<std::string, std::string>> StringMap(std::string_view what) {
    ASSIGN_OR_RETURN(uint32_t n, Count(what));
    std::map<std::string, std::string> map;
    for (uint32_t i = 0; i < n; ++i) {
      ASSIGN_OR_RETURN(std::string key, String(what));
      ASSIGN_OR_RETURN(std::string value, String(what));
      if (!map.emplace(std::move(key), std::move(value)).second) {
        return Corrupt(fmt::format("duplicate key in {}", what));
      }
    }
    return map;
  }

  common::Result<CqlType> Type(int depth = 0) {
    if (depth > kMaxStoredTypeDepth) return Corrupt("type nested too deeply");
    ASSIGN_OR_RETURN(uint8_t flags, U8("type flags"));
    if ((flags & ~kFrozenFlag) != 0) return Corrupt(fmt::format("bad type flags {}", flags));
    const bool frozen = (flags & kFrozenFlag) != 0;
    ASSIGN_OR_RETURN(uint16_t id, Check(in_.ReadU16(), "type kind"));
    if (id >= 0x0001 && id <= 0x0015 && id != 0x000A) {
      if (frozen) return Corrupt("frozen native type");
      return CqlType::Native(static_cast<TypeKind>(id));
    }
    switch (static_cast<TypeKind>(id)) {
      case TypeKind::kCustom: {
        ASSIGN_OR_RETURN(std::string name, String("custom type name"));
        return CqlType::Custom(std::move(name));
      }
      case TypeKind::kList:
      case TypeKind::kSet: {
        ASSIGN_OR_RETURN(CqlType element, Type(depth + 1));
        return static_cast<TypeKind>(id) == TypeKind::kList
                   ? CqlType::List(std::move(element), frozen)
                   : CqlType::Set(std::move(element), frozen);
      }
      case TypeKind::kMap: {
        ASSIGN_OR_RETURN(CqlType key, Type(depth + 1));
        ASSIGN_OR_RETURN(CqlType value, Type(depth + 1));
        return CqlType::Map(std::move(key), std::move(value), frozen);
      }
      case TypeKind::kUdt: {
        ASSIGN_OR_RETURN(std::string keyspace, String("UDT keyspace"));
        ASSIGN_OR_RETURN(std::string name, String("UDT name"));
        ASSIGN_OR_RETURN(uint32_t n, Count("UDT fields"));
        std::vector<std::string> names;
        std::vector<CqlType> types;
        for (uint32_t i = 0; i < n; ++i) {
          ASSIGN_OR_RETURN(std::string field, String("UDT field name"));
          ASSIGN_OR_RETURN(CqlType type, Type(depth + 1));
          names.push_back(std::move(field));
          types.push_back(std::move(type));
        }
        return CqlType::Udt(std::move(keyspace), std::move(name), std::move(names),
                            std::move(types), frozen);
      }
      case TypeKind::kTuple: {
        ASSIGN_OR_RETURN(uint32_t n, Count("tuple elements"));
        std::vector<CqlType> types;
        for (uint32_t i = 0; i < n; ++i) {
          ASSIGN_OR_RETURN(CqlType type, Type(depth + 1));
          types.push_back(std::move(type));
        }
        return CqlType::Tuple(std::move(types));
      }
      case TypeKind::kVector: {
        ASSIGN_OR_RETURN(int32_t dimension, I32("vector dimension"));
        if (dimension <= 0) return Corrupt("bad vector dimension");
        ASSIGN_OR_RETURN(CqlType element, Type(depth + 1));
        return CqlType::Vector(std::move(element), dimension);
      }
      default:
        break;
    }
    return Corrupt(fmt::format("unknown type kind 0x{:04x}", id));
  }

  common::Result<cql::Constant> Constant() {
    cql::Constant constant;
    ASSIGN_OR_RETURN(uint8_t kind, U8("constant kind"));
    if (kind > static_cast<uint8_t>(cql::ConstantKind::kDuration)) return Corrupt("constant kind");
    constant.kind = static_cast<cql::ConstantKind>(kind);
    ASSIGN_OR_RETURN(constant.text, String("constant"));
    return constant;
  }

  common::Result<cql::Property> Property() {
    cql::Property property;
    ASSIGN_OR_RETURN(property.name, String("property name"));
    ASSIGN_OR_RETURN(uint8_t kind, U8("property kind"));
    if (kind > static_cast<uint8_t>(cql::PropertyValue::Kind::kMap)) {
      return Corrupt("property kind");
    }
    property.value.kind = static_cast<cql::PropertyValue::Kind>(kind);
    ASSIGN_OR_RETURN(property.value.constant, Constant());
    ASSIGN_OR_RETURN(uint32_t n, Count("property entries"));
    for (uint32_t i = 0; i < n; ++i) {
      ASSIGN_OR_RETURN(cql::Constant key, Constant());
      ASSIGN_OR_RETURN(cql::Constant value, Constant());
      property.value.entries.emplace_back(std::move(key), std::move(value));
    }
    return property;
  }

  common::Result<ColumnKind> Kind() {
    ASSIGN_OR_RETURN(uint8_t kind, U8("column kind"));
    if (kind > static_cast<uint8_t>(ColumnKind::kStatic)) return Corrupt("column kind");
    return static_cast<ColumnKind>(kind);
  }

  common::Result<std::shared_ptr<TableMetadata>> Table() {
    auto table = std::make_shared<TableMetadata>();
    ASSIGN_OR_RETURN(table->id, Id("table id"));
    ASSIGN_OR_RETURN(table->keyspace, String("table keyspace"));
    ASSIGN_OR_RETURN(table->name, String("table name"));
    ASSIGN_OR_RETURN(uint32_t columns, Count("columns"));
    for (uint32_t i = 0; i < columns; ++i) {
      ColumnMetadata column;
      ASSIGN_OR_RETURN(column.name, String("column name"));
      ASSIGN_OR_RETURN(column.type, Type());
      ASSIGN_OR_RETURN(column.kind, Kind());
      ASSIGN_OR_RETURN(column.position, I32("column position"));
      ASSIGN_OR_RETURN(uint8_t order, U8("clustering order"));
      if (order > static_cast<uint8_t>(ClusteringOrder::kDesc)) return Corrupt("clustering order");
      column.order = static_cast<ClusteringOrder>(order);
      ASSIGN_OR_RETURN(column.column_id, U32("column id"));
      table->columns.push_back(std::move(column));
    }
    ASSIGN_OR_RETURN(table->is_counter, Bool("is_counter"));
    ASSIGN_OR_RETURN(table->options.comment, String("comment"));
    ASSIGN_OR_RETURN(table->options.default_time_to_live, I32("default_time_to_live"));
    ASSIGN_OR_RETURN(table->options.gc_grace_seconds, I32("gc_grace_seconds"));
    ASSIGN_OR_RETURN(uint32_t properties, Count("table options"));
    for (uint32_t i = 0; i < properties; ++i) {
      ASSIGN_OR_RETURN(cql::Property property, Property());
      table->options.other.push_back(std::move(property));
    }
    ASSIGN_OR_RETURN(table->next_column_id, U32("next_column_id"));
    ASSIGN_OR_RETURN(uint32_t dropped, Count("dropped columns"));
    for (uint32_t i = 0; i < dropped; ++i) {
      DroppedColumn column;
      ASSIGN_OR_RETURN(column.name, String("dropped column name"));
      ASSIGN_OR_RETURN(column.type, Type());
      ASSIGN_OR_RETURN(column.kind, Kind());
      ASSIGN_OR_RETURN(column.dropped_time_micros, I64("drop time"));
      std::string name = column.name;
      if (!table->dropped_columns.emplace(std::move(name), std::move(column)).second) {
        return Corrupt("duplicate dropped column");
      }
    }
    ASSIGN_OR_RETURN(uint32_t indexes, Count("indexes"));
    for (uint32_t i = 0; i < indexes; ++i) {
      IndexMetadata index;
      ASSIGN_OR_RETURN(index.id, Id("index id"));
      ASSIGN_OR_RETURN(index.name, String("index name"));
      ASSIGN_OR_RETURN(index.column, String("index column"));
      ASSIGN_OR_RETURN(uint8_t target, U8("index target"));
      if (target > static_cast<uint8_t>(IndexMetadata::Target::kFull)) {
        return Corrupt("index target");
      }
      index.target = static_cast<IndexMetadata::Target>(target);
      ASSIGN_OR_RETURN(index.kind, String("index kind"));
      ASSIGN_OR_RETURN(index.options, StringMap("index options"));
      std::string name = index.name;
      if (!table->indexes.emplace(std::move(name), std::move(index)).second) {
        return Corrupt("duplicate index");
      }
    }
    ASSIGN_OR_RETURN(bool is_view, Bool("view flag"));
    if (is_view) {
      ViewInfo view;
      ASSIGN_OR_RETURN(view.base_table_id, Id("view base table id"));
      ASSIGN_OR_RETURN(view.base_table_name, String("view base table"));
      ASSIGN_OR_RETURN(view.include_all_columns, Bool("include_all_columns"));
      ASSIGN_OR_RETURN(view.where_clause, String("where clause"));
      ASSIGN_OR_RETURN(view.where, ParseWhere(view.where_clause));
      table->view = std::move(view);
    }
    RETURN_IF_ERROR(CheckTableStructure(*table));
    return table;
  }

 private:
  template <typename T>
  static common::Result<T> Check(common::Result<T> result, std::string_view what) {
    if (result.ok()) return result;
    return Corrupt(fmt::format("truncated {}", what));
  }

  static common::Result<std::vector<cql::Relation>> ParseWhere(const std::string& where_clause) {
    if (where_clause.empty()) return std::vector<cql::Relation>{};
    auto statement = cql::ParseStatement("SELECT * FROM x WHERE " + where_clause);
    if (!statement.ok()) return Corrupt("unparsable view WHERE clause");
    auto* select = std::get_if<cql::Select>(&statement.value());
    if (select == nullptr) return Corrupt("unparsable view WHERE clause");
    return std::move(select->where);
  }

  common::ByteReader in_;
};

using TableMap = std::map<std::string, std::shared_ptr<const TableMetadata>, std::less<>>;

common::Result<TableMap> DecodeTables(Decoder* in, std::string_view keyspace, bool views) {
  TableMap tables;
  ASSIGN_OR_RETURN(uint32_t n, in->Count(views ? "views" : "tables"));
  for (uint32_t i = 0; i < n; ++i) {
    ASSIGN_OR_RETURN(std::shared_ptr<TableMetadata> table, in->Table());
    if (table->keyspace != keyspace) return Corrupt("table keyspace mismatch");
    if (table->view.has_value() != views) return Corrupt("view flag mismatch");
    std::string name = table->name;
    if (!tables.emplace(std::move(name), std::move(table)).second) {
      return Corrupt("duplicate table");
    }
  }
  return tables;
}

}  // namespace

common::Bytes EncodeCatalog(const Catalog& catalog) {
  Encoder out;
  out.U8(kCatalogFormatVersion);
  out.Id(catalog.schema_version());
  out.Count(catalog.keyspaces().size());
  for (const auto& [name, keyspace] : catalog.keyspaces()) {
    out.String(keyspace->name);
    out.StringMap(keyspace->replication);
    out.Bool(keyspace->durable_writes);
    out.Count(keyspace->types.size());
    for (const auto& [type_name, type] : keyspace->types) {
      out.String(type_name);
      out.Type(type);
    }
    out.Count(keyspace->tables.size());
    for (const auto& [table_name, table] : keyspace->tables) out.Table(*table);
    out.Count(keyspace->views.size());
    for (const auto& [view_name, view] : keyspace->views) out.Table(*view);
  }
  return out.Release();
}

common::Result<std::shared_ptr<const Catalog>> DecodeCatalog(std::string_view bytes) {
  Decoder in(bytes);
  ASSIGN_OR_RETURN(uint8_t version, in.U8("format version"));
  if (version != kCatalogFormatVersion) {
    return Corrupt(fmt::format("unsupported format version {}", version));
  }
  ASSIGN_OR_RETURN(common::Uuid schema_version, in.Id("schema version"));
  ASSIGN_OR_RETURN(uint32_t keyspace_count, in.Count("keyspaces"));
  Catalog::KeyspaceMap keyspaces;
  for (uint32_t i = 0; i < keyspace_count; ++i) {
    auto keyspace = std::make_shared<KeyspaceMetadata>();
    ASSIGN_OR_RETURN(keyspace->name, in.String("keyspace name"));
    ASSIGN_OR_RETURN(keyspace->replication, in.StringMap("replication"));
    ASSIGN_OR_RETURN(keyspace->durable_writes, in.Bool("durable_writes"));
    ASSIGN_OR_RETURN(uint32_t type_count, in.Count("types"));
    for (uint32_t t = 0; t < type_count; ++t) {
      ASSIGN_OR_RETURN(std::string type_name, in.String("type name"));
      ASSIGN_OR_RETURN(CqlType type, in.Type());
      if (type.kind() != TypeKind::kUdt) return Corrupt("user type is not a UDT");
      if (!keyspace->types.emplace(std::move(type_name), std::move(type)).second) {
        return Corrupt("duplicate type");
      }
    }
    ASSIGN_OR_RETURN(keyspace->tables, DecodeTables(&in, keyspace->name, false));
    ASSIGN_OR_RETURN(keyspace->views, DecodeTables(&in, keyspace->name, true));
    std::string name = keyspace->name;
    if (!keyspaces.emplace(std::move(name), std::move(keyspace)).second) {
      return Corrupt("duplicate keyspace");
    }
  }
  if (!in.AtEnd()) return Corrupt("trailing bytes");
  return std::make_shared<const Catalog>(std::move(keyspaces), schema_version);
}

// ---- entries (format 2) ----

namespace {

// Reads the version and kind bytes that open every entry.
Status ExpectEntryHeader(Decoder* in, EntryKind kind) {
  ASSIGN_OR_RETURN(uint8_t version, in->U8("entry format version"));
  if (version != kEntryFormatVersion) {
    return Corrupt(fmt::format("unsupported format version {}", version));
  }
  ASSIGN_OR_RETURN(uint8_t stored_kind, in->U8("entry kind"));
  if (stored_kind != static_cast<uint8_t>(kind)) {
    return Corrupt(fmt::format("a {} entry holds kind {}", EntryKindName(kind), stored_kind));
  }
  return Status::Ok();
}

Status ExpectEnd(const Decoder& in) {
  return in.AtEnd() ? Status::Ok() : Corrupt("trailing bytes");
}

// The type-depth limit, as a reason the entry cannot be used.
Status CheckEntryDepth(const CqlType& type, std::string_view subject) {
  Status status = CheckTypeDepth(type, subject);
  return status.ok() ? status : Corrupt(status.message());
}

void EntryHeader(Encoder* out, EntryKind kind) {
  out->U8(kEntryFormatVersion);
  out->U8(static_cast<uint8_t>(kind));
}

}  // namespace

common::Bytes EncodeKeyspaceEntry(const KeyspaceMetadata& keyspace) {
  Encoder out;
  EntryHeader(&out, EntryKind::kKeyspace);
  out.String(keyspace.name);
  out.StringMap(keyspace.replication);
  out.Bool(keyspace.durable_writes);
  return out.Release();
}

common::Bytes EncodeTypeEntry(std::string_view keyspace, const CqlType& udt) {
  Encoder out;
  EntryHeader(&out, EntryKind::kType);
  out.String(keyspace);
  out.Type(udt);
  return out.Release();
}

common::Bytes EncodeTableEntry(const TableMetadata& table) {
  Encoder out;
  EntryHeader(&out, table.view ? EntryKind::kView : EntryKind::kTable);
  out.Table(table);
  return out.Release();
}

common::Result<std::shared_ptr<KeyspaceMetadata>> DecodeKeyspaceEntry(std::string_view bytes) {
  Decoder in(bytes);
  RETURN_IF_ERROR(ExpectEntryHeader(&in, EntryKind::kKeyspace));
  auto keyspace = std::make_shared<KeyspaceMetadata>();
  ASSIGN_OR_RETURN(keyspace->name, in.String("keyspace name"));
  ASSIGN_OR_RETURN(keyspace->replication, in.StringMap("replication"));
  ASSIGN_OR_RETURN(keyspace->durable_writes, in.Bool("durable_writes"));
  RETURN_IF_ERROR(ExpectEnd(in));
  return keyspace;
}

common::Result<CqlType> DecodeTypeEntry(std::string_view bytes, std::string_view keyspace) {
  Decoder in(bytes);
  RETURN_IF_ERROR(ExpectEntryHeader(&in, EntryKind::kType));
  ASSIGN_OR_RETURN(std::string stored_keyspace, in.String("type keyspace"));
  ASSIGN_OR_RETURN(CqlType type, in.Type());
  RETURN_IF_ERROR(ExpectEnd(in));
  if (type.kind() != TypeKind::kUdt) return Corrupt("user type is not a UDT");
  if (stored_keyspace != keyspace || type.keyspace() != keyspace) {
    return Corrupt("type keyspace mismatch");
  }
  RETURN_IF_ERROR(CheckEntryDepth(type, fmt::format("Type {}.{}", keyspace, type.name())));
  return type;
}

common::Result<std::shared_ptr<TableMetadata>> DecodeTableEntry(std::string_view bytes,
                                                                EntryKind kind) {
  Decoder in(bytes);
  RETURN_IF_ERROR(ExpectEntryHeader(&in, kind));
  ASSIGN_OR_RETURN(std::shared_ptr<TableMetadata> table, in.Table());
  RETURN_IF_ERROR(ExpectEnd(in));
  if (table->view.has_value() != (kind == EntryKind::kView)) {
    return Corrupt("view flag mismatch");
  }
  RETURN_IF_ERROR(CheckTableTypeDepths(*table));
  return table;
}

Status CheckTableTypeDepths(const TableMetadata& table) {
  for (const ColumnMetadata& column : table.columns) {
    RETURN_IF_ERROR(CheckEntryDepth(
        column.type, fmt::format("Column {}.{}.{}", table.keyspace, table.name, column.name)));
  }
  for (const auto& [name, dropped] : table.dropped_columns) {
    RETURN_IF_ERROR(CheckEntryDepth(
        dropped.type, fmt::format("Dropped column {}.{}.{}", table.keyspace, table.name, name)));
  }
  return Status::Ok();
}

common::Bytes EncodeManifest(const CatalogManifest& manifest) {
  Encoder out;
  out.U8(kEntryFormatVersion);
  out.Id(manifest.schema_version);
  out.Count(manifest.entries.size());
  for (const ManifestEntry& entry : manifest.entries) {
    out.U8(static_cast<uint8_t>(entry.kind));
    out.String(entry.keyspace);
    out.String(entry.name);
    out.Id(entry.id);
  }
  return out.Release();
}

common::Result<CatalogManifest> DecodeManifest(std::string_view bytes) {
  Decoder in(bytes);
  CatalogManifest manifest;
  ASSIGN_OR_RETURN(uint8_t version, in.U8("manifest format version"));
  if (version != kEntryFormatVersion) {
    return Corrupt(fmt::format("unsupported manifest format version {}", version));
  }
  ASSIGN_OR_RETURN(manifest.schema_version, in.Id("schema version"));
  ASSIGN_OR_RETURN(uint32_t n, in.Count("manifest entries"));
  for (uint32_t i = 0; i < n; ++i) {
    ManifestEntry entry;
    ASSIGN_OR_RETURN(uint8_t kind, in.U8("entry kind"));
    if (kind < static_cast<uint8_t>(EntryKind::kKeyspace) ||
        kind > static_cast<uint8_t>(EntryKind::kView)) {
      return Corrupt(fmt::format("unknown entry kind {}", kind));
    }
    entry.kind = static_cast<EntryKind>(kind);
    ASSIGN_OR_RETURN(entry.keyspace, in.String("entry keyspace"));
    ASSIGN_OR_RETURN(entry.name, in.String("entry name"));
    ASSIGN_OR_RETURN(entry.id, in.Id("entry id"));
    manifest.entries.push_back(std::move(entry));
  }
  if (!in.AtEnd()) return Corrupt("trailing bytes after the manifest");
  return manifest;
}

}  // namespace schema
