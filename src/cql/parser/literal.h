// Literals: from a parsed value expression (`term.h`) or a text field to the serialized value
// of a known type (`cql/types/value_codec.h`).
//
// Pipeline position: the parser produces schema-free `Term`s; when a statement is prepared
// against the catalogue, every literal is turned into bytes here, once, with the receiving
// column's type. The engine handles bind markers and function calls itself (they are not
// literals), and splits non-frozen collections into cells.
//
// The rules are Cassandra 4.1's (cql3 Constants, Lists, Sets, Maps, UserTypes, Tuples,
// TypeCast, and 5.0's Vectors), including which constant kinds a type accepts and the exact
// error messages, e.g.
//   Invalid STRING constant (foo) for "age" of type int
//   Unable to make short from '100000'
//   Invalid set literal for emails of type list<text>
//   Invalid list literal for emails: value 1 is not of type text
//   Unknown field 'zip' in value of user defined type address
// Receivers of nested values are named as Cassandra names them: `value(emails)` for list and
// set elements and map values, `key(m)` for map keys, `addr.city` for UDT fields, `t[1]` for
// tuple components.
//
// Thread-safety: stateless free functions; safe to call concurrently.

#pragma once

#include <optional>
#include <string_view>

#include "common/bytes.h"
#include "common/result.h"
#include "cql/parser/term.h"
#include "cql/types/types.h"

namespace cql {

// Converts a literal term to the serialized value of `type`; std::nullopt is the null
// literal (which Cassandra refuses for counters). `receiver` names the target in error
// messages (the column name as written in the schema, unquoted).
// Accepts constants, null, list/set/map/UDT/tuple literals nested to any depth (up to
// kMaxValueNestingDepth), list literals for vectors, and `(type) term` hints. Collections are
// serialized whole, sets sorted and deduplicated, maps sorted by key (last duplicate wins);
// UDT fields missing from the literal are null; a tuple literal may have fewer components
// than its type. Fails with kInvalid and Cassandra's message when the term does not fit the
// type, and with kInvalid when the term contains a bind marker or a function call (not
// literals; the engine evaluates those). UDT types must be resolved.
common::Result<std::optional<common::Bytes>> EvaluateLiteral(const CqlType& type, const Term& term,
                                                             std::string_view receiver);

// Whether `term` is made only of constants, nulls, collection/UDT/tuple literals and type
// hints, so that EvaluateLiteral can evaluate it at prepare time (no bind markers, no function
// calls, at any depth up to kMaxValueNestingDepth).
bool IsLiteral(const Term& term);

// Converts one constant to the serialized value of a native `type` (also blob-like custom
// types), checking first that Cassandra accepts that kind of constant for the type:
//   STRING    ascii, text, inet, date, time, timestamp
//   INTEGER   tinyint, smallint, int, bigint, counter, varint, decimal, float, double,
//             date (raw day number), time (nanoseconds), timestamp (millis), duration
//   FLOAT     float, double, decimal (also NaN, Infinity, -Infinity for float and double)
//   UUID      uuid, timeuuid (version 1 only)
//   BOOLEAN   boolean
//   HEX       blob (and a single byte for tinyint, as Cassandra's literal typing allows)
//   DURATION  duration
// `text` is as in `Constant` (unescaped string content; hex digits without "0x").
common::Result<common::Bytes> ParseConstantFor(const CqlType& type, ConstantKind kind,
                                               std::string_view text, std::string_view receiver);

// Parses the text form of a native-type value as cqlsh prints it and as COPY FROM reads it:
// unquoted text, "0x..." (or bare hex) blobs, True/False (any case), integers, floats with
// NaN/Infinity/-Infinity, decimals, uuids, inet addresses, dates ("2024-01-31" or raw day
// numbers), times, timestamps in any form ParseTimestamp accepts (so cqlsh's
// "2015-05-03 13:30:54.234000+0000"), and durations ("1h30m"; "" is the zero duration, as
// cqlsh prints it). Empty text is the empty value for types that have one.
// Fails with kInvalid and Cassandra's fromString message; non-native types fail with kInvalid.
common::Result<common::Bytes> ParseValueText(const CqlType& type, std::string_view text);

}  // namespace cql
