// Type depth: the one limit on how deeply CQL types may nest, and how depth is counted.
//
// A type's depth is the number of parameterized types on its deepest path: `int` is 0,
// `list<int>` 1, `frozen<map<int, frozen<list<int>>>>` 2, `tuple<int, vector<float, 3>>` 2. A
// user type counts as one level around its fields, so a chain of UDTs, each frozen inside the
// next, counts every link. `frozen<>` adds nothing (it is a flag, not a type).
//
// kMaxTypeDepth is enforced where types enter the schema: the parser's type rule (depth as
// written, UDT references counting one), DDL validation (depth through resolved user types,
// schema/type_resolver.h and schema/ddl*.cc), and the catalogue's commit check, which decodes
// every change back before it is persisted (schema/catalog_codec.h). Every decoder of stored or
// received types accepts at least kMaxDecodedTypeDepth, so whatever the DDL accepts reopens.
//
// Thread-safety: constants and a pure function.

#pragma once

#include "cql/types/types.h"

namespace cql {

// 32 levels: real schemas stay in single digits (the deepest in Cassandra's own tests and in
// the seeds is 4), and it leaves every recursive decoder a wide margin: the protocol's
// [option] and marshal-name decoders (cql/types/type_codec.h) stop at kMaxDecodedTypeDepth, which
// also covers the `FrozenType(...)` wrappers a marshal name adds; values nest no deeper than
// their type (kMaxValueNestingDepth, 256); and the recursion stays far from any thread's stack
// limit, even under the sanitizers.
inline constexpr int kMaxTypeDepth = 32;

// The nesting every recursive type decoder must accept (twice the schema limit: a marshal
// class name wraps frozen types in `FrozenType(...)`, adding at most two levels).
inline constexpr int kMaxDecodedTypeDepth = 2 * kMaxTypeDepth;

// The depth of `type` as defined above. An unresolved UDT reference (`UdtRef`) counts 1.
// Recursion is bounded by the depth of `type` itself.
int TypeDepth(const CqlType& type);

}  // namespace cql
