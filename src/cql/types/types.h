// CqlType: the CQL type system (native_protocol_v4.spec §4.2.5.2 [option], CQL 3.4 "Data Types").
//
// A CqlType is an immutable, cheaply copied handle (shared node) describing one type: a native
// type, a collection, a tuple, a user-defined type, a vector or a custom class. Values of a type
// are always held in their native-protocol serialization (docs/dev/architecture.md §2); the codecs
// in `value_codec.h`, `cql/parser/literal.h`, `value_format.h`, `value_compare.h` and
// `storage/key_encoding.h` interpret those bytes according to a CqlType.
//
// UDTs as written in CQL source (e.g. `frozen<address>`) are *references*: the parser knows no
// schema, so it creates `UdtRef(keyspace_or_empty, name)` with no fields; the catalogue later
// resolves it to a full UDT with field names and types (`IsResolved()`).
//
// Thread-safety: immutable after construction; safe to share across threads.

#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cql {

// The protocol's [option] ids where one exists; vector is sent as a Custom type.
enum class TypeKind : uint16_t {
  kCustom = 0x0000,
  kAscii = 0x0001,
  kBigint = 0x0002,
  kBlob = 0x0003,
  kBoolean = 0x0004,
  kCounter = 0x0005,
  kDecimal = 0x0006,
  kDouble = 0x0007,
  kFloat = 0x0008,
  kInt = 0x0009,
  kTimestamp = 0x000B,
  kUuid = 0x000C,
  kText = 0x000D,  // varchar; `text` and `varchar` are the same type
  kVarint = 0x000E,
  kTimeuuid = 0x000F,
  kInet = 0x0010,
  kDate = 0x0011,
  kTime = 0x0012,
  kSmallint = 0x0013,
  kTinyint = 0x0014,
  kDuration = 0x0015,
  kList = 0x0020,
  kMap = 0x0021,
  kSet = 0x0022,
  kUdt = 0x0030,
  kTuple = 0x0031,
  kVector = 0x0100,  // not a protocol id: serialized as Custom "VectorType"
};

class CqlType {
 public:
  // Native (non-parameterized) types. REQUIRES: `kind` is one of the native kinds.
  static CqlType Native(TypeKind kind);
  static CqlType Ascii() { return Native(TypeKind::kAscii); }
  static CqlType Bigint() { return Native(TypeKind::kBigint); }
  static CqlType Blob() { return Native(TypeKind::kBlob); }
  static CqlType Boolean() { return Native(TypeKind::kBoolean); }
  static CqlType Counter() { return Native(TypeKind::kCounter); }
  static CqlType Date() { return Native(TypeKind::kDate); }
  static CqlType Decimal() { return Native(TypeKind::kDecimal); }
  static CqlType Double() { return Native(TypeKind::kDouble); }
  static CqlType Duration() { return Native(TypeKind::kDuration); }
  static CqlType Float() { return Native(TypeKind::kFloat); }
  static CqlType Inet() { return Native(TypeKind::kInet); }
  static CqlType Int() { return Native(TypeKind::kInt); }
  static CqlType Smallint() { return Native(TypeKind::kSmallint); }
  static CqlType Text() { return Native(TypeKind::kText); }
  static CqlType Time() { return Native(TypeKind::kTime); }
  static CqlType Timestamp() { return Native(TypeKind::kTimestamp); }
  static CqlType Timeuuid() { return Native(TypeKind::kTimeuuid); }
  static CqlType Tinyint() { return Native(TypeKind::kTinyint); }
  static CqlType Uuid() { return Native(TypeKind::kUuid); }
  static CqlType Varint() { return Native(TypeKind::kVarint); }

  static CqlType List(CqlType element, bool frozen = false);
  static CqlType Set(CqlType element, bool frozen = false);
  static CqlType Map(CqlType key, CqlType value, bool frozen = false);
  // Tuples are always frozen.
  static CqlType Tuple(std::vector<CqlType> elements);
  // A resolved UDT.
  static CqlType Udt(std::string keyspace, std::string name, std::vector<std::string> field_names,
                     std::vector<CqlType> field_types, bool frozen = false);
  // An unresolved UDT reference as written in CQL; `keyspace` may be empty.
  static CqlType UdtRef(std::string keyspace, std::string name, bool frozen = false);
  // vector<element, dimension>; always frozen. REQUIRES: dimension > 0.
  static CqlType Vector(CqlType element, int32_t dimension);
  // A custom type by Java class name (e.g. 'org.apache.cassandra.db.marshal.DynamicCompositeType').
  static CqlType Custom(std::string class_name);

  // Looks up a native type by its CQL name, case-insensitively ("int", "varchar", "text", ...).
  // Returns false when `name` is not a native type name.
  static bool FromNativeName(std::string_view name, CqlType* out);

  TypeKind kind() const { return node_->kind; }
  bool frozen() const { return node_->frozen; }
  bool IsNative() const;
  bool IsCollection() const;  // list, set, map (frozen or not)
  // A non-frozen collection or UDT: stored as one cell per element/field.
  bool IsMultiCell() const { return !frozen() && (IsCollection() || kind() == TypeKind::kUdt); }
  bool IsCounter() const { return kind() == TypeKind::kCounter; }
  // For UDTs: whether the field list is known. Other types are always resolved.
  bool IsResolved() const;

  // list/set/vector: element type. map: key type.
  const CqlType& element() const { return node_->params[0]; }
  const CqlType& key() const { return node_->params[0]; }
  // map: value type.
  const CqlType& value() const { return node_->params[1]; }
  // tuple element types / UDT field types.
  const std::vector<CqlType>& params() const { return node_->params; }
  // UDT only.
  const std::vector<std::string>& field_names() const { return node_->field_names; }
  const std::string& keyspace() const { return node_->keyspace; }
  // UDT name, or the custom class name.
  const std::string& name() const { return node_->name; }
  int32_t dimension() const { return node_->dimension; }

  // The same type frozen (or not). Tuples and vectors ignore `frozen = false`.
  CqlType WithFrozen(bool frozen) const;

  // CQL text: "int", "map<text, frozen<address>>", "frozen<list<int>>", "tuple<int, text>",
  // "vector<float, 3>", "'org.apache...'" for custom types. UDT names are printed as names
  // (quoted when needed), without the keyspace.
  std::string ToCql() const;
  // Short name of a native type ("int", "text", ...). REQUIRES: IsNative().
  std::string_view NativeName() const;

  // Structural equality; `text` equals `varchar`. UDTs compare by keyspace, name and fields.
  bool operator==(const CqlType& other) const;
  bool operator!=(const CqlType& other) const { return !(*this == other); }

  // A default-constructed CqlType is `blob`, so containers of types are easy to use.
  CqlType();

 private:
  struct Node {
    TypeKind kind = TypeKind::kBlob;
    bool frozen = false;
    bool resolved = true;
    int32_t dimension = 0;
    std::string keyspace;
    std::string name;
    std::vector<std::string> field_names;
    std::vector<CqlType> params;
  };
  explicit CqlType(std::shared_ptr<const Node> node) : node_(std::move(node)) {}

  std::shared_ptr<const Node> node_;
};

// Quotes an identifier for CQL output when it is not a lower-case unquoted-safe name or is a
// reserved keyword: `MyTable` -> `"MyTable"`, `a"b` -> `"a""b"`.
std::string QuoteIdentifierIfNeeded(std::string_view name);

// Whether `word` (any case) is a reserved CQL keyword that cannot be used as an unquoted name.
bool IsReservedKeyword(std::string_view word);

}  // namespace cql
