// Type resolution for DDL: turns the parser's schema-free CqlTypes (UDTs as `UdtRef`) into
// fully resolved types against one keyspace's user types, enforcing Cassandra's nesting rules
// (no non-frozen collections/UDTs or counters inside collections, frozen<> freezes deeply).
// Used by `ddl.cc`.
//
// Thread-safety: pure functions.

#pragma once

#include <string_view>

#include "common/result.h"
#include "cql/types/types.h"
#include "schema/catalog.h"

namespace schema {

// Resolves `raw` as written in a statement on keyspace `keyspace` (whose metadata is `ks`).
// Fails with Invalid "Unknown type ks.name", "Statement on keyspace a cannot refer to a user
// type in keyspace b; ...", "Non-frozen collections are not allowed inside collections: ...",
// "Non-frozen UDTs are not allowed inside collections: ...", "Counters are not allowed inside
// collections: ...", "Counters are not allowed inside tuples", or CheckTypeDepth's error when
// the resolved type (user types expanded) nests too deeply.
common::Result<cql::CqlType> ResolveType(const cql::CqlType& raw, std::string_view keyspace,
                                         const KeyspaceMetadata& ks);

// OK when `type` nests at most cql::kMaxTypeDepth levels (cql/types/type_depth.h, counting through
// resolved user types); otherwise Invalid "<subject> is nested too deeply: N levels of
// collections, tuples, vectors and user types, more than the limit of 32".
common::Status CheckTypeDepth(const cql::CqlType& type, std::string_view subject);

// CheckTypeDepth on every user type, column and dropped column of `ks`, tables and views; the
// error names the first that is too deep ("Type ks.name", "Column ks.table.column").
common::Status CheckTypeDepths(const KeyspaceMetadata& ks);

// `type` with itself and every nested collection/UDT frozen.
cql::CqlType FreezeDeeply(const cql::CqlType& type);

// Whether `type` is, or contains, the user type `keyspace`.`name`.
bool ReferencesUserType(const cql::CqlType& type, std::string_view keyspace, std::string_view name);

// `type` with every occurrence of the user type `udt.keyspace()`.`udt.name()` (at any depth,
// including inside other UDTs' fields) replaced by `udt`, keeping each occurrence's
// frozen-ness (frozen occurrences are frozen deeply). Used by ALTER TYPE to propagate a changed
// type. REQUIRES: `udt` is a resolved UDT in its stored (non-frozen) form.
cql::CqlType ReplaceUserType(const cql::CqlType& type, const cql::CqlType& udt);

// Whether `type` is, or contains, `duration`.
bool ReferencesDuration(const cql::CqlType& type);

}  // namespace schema
