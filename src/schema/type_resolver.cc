#include "schema/type_resolver.h"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "cql/types/type_depth.h"

namespace schema {
namespace {

using cql::CqlType;
using cql::TypeKind;

// A type as the statement wrote it, the way Cassandra 4.1 names it in the errors it finds
// while resolving (CQL3Type.Raw): user types qualified with the statement's keyspace
// (`list<ks.ut>`), a tuple as `tuple<...>`, frozen<> only where it was written.
std::string RawTypeName(const CqlType& raw, std::string_view keyspace) {
  std::string out;
  switch (raw.kind()) {
    case TypeKind::kList:
      out = "list<" + RawTypeName(raw.element(), keyspace) + ">";
      break;
    case TypeKind::kSet:
      out = "set<" + RawTypeName(raw.element(), keyspace) + ">";
      break;
    case TypeKind::kMap:
      out = "map<" + RawTypeName(raw.key(), keyspace) + ", " + RawTypeName(raw.value(), keyspace) +
            ">";
      break;
    case TypeKind::kTuple: {
      out = "tuple<";
      for (size_t i = 0; i < raw.params().size(); ++i) {
        if (i > 0) out += ", ";
        out += RawTypeName(raw.params()[i], keyspace);
      }
      return out + ">";
    }
    case TypeKind::kVector:
      return "vector<" + RawTypeName(raw.element(), keyspace) + ", " +
             std::to_string(raw.dimension()) + ">";
    case TypeKind::kUdt:
      out = fmt::format("{}.{}", raw.keyspace().empty() ? keyspace : raw.keyspace(), raw.name());
      break;
    default:
      return raw.ToCql();
  }
  return raw.frozen() ? "frozen<" + out + ">" : out;
}

bool IsRawMultiCell(const CqlType& raw) {
  return !raw.frozen() && (raw.IsCollection() || raw.kind() == TypeKind::kUdt);
}

common::Status NestedNonFrozenError(const CqlType& element, const std::string& collection) {
  if (element.IsCollection()) {
    return common::Status::Invalid(
        fmt::format("Non-frozen collections are not allowed inside collections: {}", collection));
  }
  return common::Status::Invalid(
      fmt::format("Non-frozen UDTs are not allowed inside collections: {}", collection));
}

// Cassandra 4.1 (CQL3Type.Raw.RawCollection) checks a collection's element types as written, in
// this order: the values must be frozen if the collection is not, and must not be counters (nor
// durations in a set); map keys must not be counters or durations and must be frozen if the map
// is not.
common::Status CheckCollection(const CqlType& collection, std::string_view keyspace) {
  const std::string name = RawTypeName(collection, keyspace);
  const CqlType& values =
      collection.kind() == TypeKind::kMap ? collection.value() : collection.element();
  if (!collection.frozen() && IsRawMultiCell(values)) {
    return NestedNonFrozenError(values, name);
  }
  if (values.IsCounter()) {
    return common::Status::Invalid(
        fmt::format("Counters are not allowed inside collections: {}", name));
  }
  if (values.kind() == TypeKind::kDuration && collection.kind() == TypeKind::kSet) {
    return common::Status::Invalid(fmt::format("Durations are not allowed inside sets: {}", name));
  }
  if (collection.kind() == TypeKind::kMap) {
    const CqlType& keys = collection.key();
    if (keys.IsCounter()) {
      return common::Status::Invalid(
          fmt::format("Counters are not allowed inside collections: {}", name));
    }
    if (keys.kind() == TypeKind::kDuration) {
      return common::Status::Invalid(
          fmt::format("Durations are not allowed as map keys: {}", name));
    }
    if (!collection.frozen() && IsRawMultiCell(keys)) return NestedNonFrozenError(keys, name);
  }
  return common::Status::Ok();
}

common::Result<CqlType> Resolve(const CqlType& raw, bool frozen_context, std::string_view keyspace,
                                const KeyspaceMetadata& ks) {
  const bool frozen = raw.frozen() || frozen_context;
  switch (raw.kind()) {
    case TypeKind::kList:
    case TypeKind::kSet: {
      RETURN_IF_ERROR(CheckCollection(raw, keyspace));
      ASSIGN_OR_RETURN(CqlType element, Resolve(raw.element(), frozen, keyspace, ks));
      return raw.kind() == TypeKind::kList ? CqlType::List(element, frozen)
                                           : CqlType::Set(element, frozen);
    }
    case TypeKind::kMap: {
      RETURN_IF_ERROR(CheckCollection(raw, keyspace));
      ASSIGN_OR_RETURN(CqlType key, Resolve(raw.key(), frozen, keyspace, ks));
      ASSIGN_OR_RETURN(CqlType value, Resolve(raw.value(), frozen, keyspace, ks));
      return CqlType::Map(key, value, frozen);
    }
    case TypeKind::kTuple: {
      std::vector<CqlType> elements;
      for (const CqlType& element : raw.params()) {
        if (element.IsCounter()) {
          return common::Status::Invalid("Counters are not allowed inside tuples");
        }
        ASSIGN_OR_RETURN(CqlType resolved, Resolve(element, /*frozen_context=*/true, keyspace, ks));
        elements.push_back(std::move(resolved));
      }
      return CqlType::Tuple(std::move(elements));
    }
    case TypeKind::kVector: {
      ASSIGN_OR_RETURN(CqlType element,
                       Resolve(raw.element(), /*frozen_context=*/true, keyspace, ks));
      return CqlType::Vector(element, raw.dimension());
    }
    case TypeKind::kUdt: {
      if (!raw.keyspace().empty() && raw.keyspace() != keyspace) {
        return common::Status::Invalid(fmt::format(
            "Statement on keyspace {} cannot refer to a user type in keyspace {}; user types can "
            "only be used in the keyspace they are defined in",
            keyspace, raw.keyspace()));
      }
      const CqlType* stored = ks.FindType(raw.name());
      if (stored == nullptr) {
        return common::Status::Invalid(fmt::format("Unknown type {}.{}", keyspace, raw.name()));
      }
      return frozen ? FreezeDeeply(*stored) : *stored;
    }
    default:
      return raw;  // native and custom types
  }
}

}  // namespace

common::Result<cql::CqlType> ResolveType(const cql::CqlType& raw, std::string_view keyspace,
                                         const KeyspaceMetadata& ks) {
  ASSIGN_OR_RETURN(CqlType resolved, Resolve(raw, /*frozen_context=*/false, keyspace, ks));
  RETURN_IF_ERROR(CheckTypeDepth(resolved, fmt::format("Type {}", raw.ToCql())));
  return resolved;
}

common::Status CheckTypeDepth(const cql::CqlType& type, std::string_view subject) {
  const int depth = cql::TypeDepth(type);
  if (depth <= cql::kMaxTypeDepth) return common::Status::Ok();
  return common::Status::Invalid(
      fmt::format("{} is nested too deeply: {} levels of collections, tuples, vectors and user "
                  "types, more than the limit of {}",
                  subject, depth, cql::kMaxTypeDepth));
}

common::Status CheckTypeDepths(const KeyspaceMetadata& ks) {
  for (const auto& [name, type] : ks.types) {
    RETURN_IF_ERROR(CheckTypeDepth(type, fmt::format("Type {}.{}", ks.name, name)));
  }
  for (const auto* tables : {&ks.tables, &ks.views}) {
    for (const auto& [table_name, table] : *tables) {
      for (const ColumnMetadata& column : table->columns) {
        RETURN_IF_ERROR(CheckTypeDepth(
            column.type, fmt::format("Column {}.{}.{}", ks.name, table_name, column.name)));
      }
      for (const auto& [column_name, dropped] : table->dropped_columns) {
        RETURN_IF_ERROR(CheckTypeDepth(dropped.type, fmt::format("Dropped column {}.{}.{}", ks.name,
                                                                 table_name, column_name)));
      }
    }
  }
  return common::Status::Ok();
}

cql::CqlType FreezeDeeply(const cql::CqlType& type) {
  switch (type.kind()) {
    case TypeKind::kList:
      return CqlType::List(FreezeDeeply(type.element()), true);
    case TypeKind::kSet:
      return CqlType::Set(FreezeDeeply(type.element()), true);
    case TypeKind::kMap:
      return CqlType::Map(FreezeDeeply(type.key()), FreezeDeeply(type.value()), true);
    case TypeKind::kTuple: {
      std::vector<CqlType> elements;
      for (const CqlType& element : type.params()) elements.push_back(FreezeDeeply(element));
      return CqlType::Tuple(std::move(elements));
    }
    case TypeKind::kVector:
      return CqlType::Vector(FreezeDeeply(type.element()), type.dimension());
    case TypeKind::kUdt: {
      if (!type.IsResolved()) return type.WithFrozen(true);
      std::vector<CqlType> fields;
      for (const CqlType& field : type.params()) fields.push_back(FreezeDeeply(field));
      return CqlType::Udt(type.keyspace(), type.name(), type.field_names(), std::move(fields),
                          true);
    }
    default:
      return type;
  }
}

bool ReferencesUserType(const cql::CqlType& type, std::string_view keyspace,
                        std::string_view name) {
  if (type.kind() == TypeKind::kUdt && type.keyspace() == keyspace && type.name() == name) {
    return true;
  }
  if (type.IsNative() || type.kind() == TypeKind::kCustom) return false;
  for (const CqlType& param : type.params()) {
    if (ReferencesUserType(param, keyspace, name)) return true;
  }
  return false;
}

bool ReferencesDuration(const cql::CqlType& type) {
  if (type.kind() == TypeKind::kDuration) return true;
  if (type.IsNative() || type.kind() == TypeKind::kCustom) return false;
  for (const CqlType& param : type.params()) {
    if (ReferencesDuration(param)) return true;
  }
  return false;
}

}  // namespace schema

namespace schema {

cql::CqlType ReplaceUserType(const cql::CqlType& type, const cql::CqlType& udt) {
  switch (type.kind()) {
    case TypeKind::kList:
      return CqlType::List(ReplaceUserType(type.element(), udt), type.frozen());
    case TypeKind::kSet:
      return CqlType::Set(ReplaceUserType(type.element(), udt), type.frozen());
    case TypeKind::kMap:
      return CqlType::Map(ReplaceUserType(type.key(), udt), ReplaceUserType(type.value(), udt),
                          type.frozen());
    case TypeKind::kTuple: {
      std::vector<CqlType> elements;
      for (const CqlType& element : type.params()) {
        elements.push_back(ReplaceUserType(element, udt));
      }
      return CqlType::Tuple(std::move(elements));
    }
    case TypeKind::kVector:
      return CqlType::Vector(ReplaceUserType(type.element(), udt), type.dimension());
    case TypeKind::kUdt: {
      if (type.keyspace() == udt.keyspace() && type.name() == udt.name()) {
        // Fields inside a frozen UDT are frozen too.
        return type.frozen() ? FreezeDeeply(udt) : udt.WithFrozen(false);
      }
      std::vector<CqlType> fields;
      for (const CqlType& field : type.params()) fields.push_back(ReplaceUserType(field, udt));
      return CqlType::Udt(type.keyspace(), type.name(), type.field_names(), std::move(fields),
                          type.frozen());
    }
    default:
      return type;
  }
}

}  // namespace schema
